// words.test.mjs -- the page says what the terminal says.
//
// The page fills the catalogs' templates in JavaScript (web/words/), the
// terminal in C (src/cli/catalog.c): two renderers of one grammar.  Whole
// random games of each game are told by both, every event of every action as
// each seat and a spectator saw it, in English, Dutch, German, Italian and the
// pseudo-language: the sentences must be equal, and none may keep a {field}
// unfilled.  No browser: the page's modules run in node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './helpers.mjs';
import { TAFEL } from '../server/helpers.mjs';
import { Catalog, useCatalog } from '../../web/words/catalog.mjs';
import { tellLines, foldRepeats } from '../../web/words/tell.mjs';

const I18N = join(ROOT, 'web', 'i18n');
const PARTS = JSON.parse(readFileSync(join(I18N, 'parts.json'), 'utf8'));

/** The page's catalog of a language, read from a folder of language folders. */
function catalogOf(root, lang, game) {
  const parts = ['common', 'howto', 'page', 'lobby', ...Object.values(PARTS).flat()];
  const read = (l) => parts.map((p) => join(root, l, `${p}.json`)).filter(existsSync)
    .map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const english = join(root, 'en') === join(root, lang) ? [] : read('en');
  return new Catalog(lang, game, [...read(lang), ...english]);
}

/** The steps of a seeded random game as `tafel replay --step --json` tells them. */
function steps(game, players, seed, seat, lang, env = {}) {
  const dir = tempDir('tafel-words-');
  const record = join(dir, 'game.json');
  execFileSync(TAFEL, ['play', game, '--players', players, '--seed', String(seed), '--record', record,
    '--no-color'], { input: '', stdio: ['pipe', 'ignore', 'ignore'] });
  const out = execFileSync(TAFEL, ['replay', record, '--step', '--json', '--seat', String(seat),
    '--lang', lang], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

const GAMES = [
  ['carcassonne', 'random,random,random', 3],
  ['cardcassonne', 'random,random,random', 4],
  ['catan_cards', 'random,random', 5],
];

test('every sentence of whole games is the same in the page as at the terminal, in every language', () => {
  const pseudo = tempDir('tafel-words-qps-');
  execFileSync('python3', [join(ROOT, 'tests', 'catalog_test.py'), '--pseudo', join(pseudo, 'qps')]);
  for (const l of ['en', 'nl', 'de', 'it']) {
    execFileSync('ln', ['-s', join(I18N, l), join(pseudo, l)]);
  }
  let told = 0;
  const kinds = new Set();
  for (const [game, players, seed] of GAMES) {
    const seats = players.split(',').length;
    for (const lang of ['en', 'nl', 'de', 'it', 'qps']) {
      const root = lang === 'qps' ? pseudo : I18N;
      const env = lang === 'qps' ? { TAFEL_I18N_DIR: pseudo } : {};
      const catalog = catalogOf(root, lang, game);
      for (let seat = -1; seat < seats; seat++) {
        for (const step of steps(game, players, seed, seat, lang, env)) {
          assert.equal(step.words.length, step.events.length);
          step.events.forEach((e, i) => {
            const said = catalog.event(e);
            assert.equal(said, step.words[i], `${game} ${lang} seat ${seat} action ${step.n}: ${JSON.stringify(e)}`);
            assert.doesNotMatch(said, /\{[a-z_]+(:[a-z_.]+)?\}/, `${game} ${lang}: a field left unfilled`);
            if (lang === 'qps') assert.match(said, /\u27e6/, `${game}: a pseudo sentence is marked`);
            kinds.add(`${game}.${e.kind}`);
            told++;
          });
        }
      }
    }
  }
  console.log(`${told} sentences, ${kinds.size} kinds`);
  assert.ok(told > 20000, `${told} sentences compared`);
  assert.ok(kinds.size >= 40, `${kinds.size} kinds of event told`);
});

// Where a tile or card went is told in words ("extends Blue's road", "above the settlement by
// Forest (4) and Hills (5)"); coordinates stay in the events' fields, for the board and the
// notation, never in a sentence.
const COORDINATES = [/\(-?\d+, ?-?\d+\)/, /\b(column|row|kolom|rij|Spalte|Reihe|colonna|riga) -?\d/i,
  /\d+° (gedraaid|gedreht)|(turned|ruotata di) \d+°/];

test('the log of a whole game of each game has no coordinates, at the terminal and on the page', () => {
  for (const [game, players, seed] of GAMES) {
    for (const lang of ['en', 'nl', 'de', 'it']) {
      const catalog = catalogOf(I18N, lang, game);
      let placed = 0;
      const found = [];
      for (const step of steps(game, players, seed, -1, lang)) {
        step.events.forEach((e, i) => {
          if ('x' in e || 'col' in e) placed++;
          for (const said of [step.words[i], catalog.event(e)]) {
            if (COORDINATES.some((re) => re.test(said))) found.push(said);
          }
        });
      }
      // Cardcassonne's rows are named by colour: it has no places to tell
      if (game !== 'cardcassonne') assert.ok(placed > 20, `${game} ${lang}: ${placed} placed`);
      assert.deepEqual(found, [], `${game} ${lang}: ${found.length} sentences with coordinates`);
    }
  }
});

test('plural and zero forms: the page says each case as the terminal\'s test expects it', () => {
  // tests/words_zero_forms.json is also tests/test_catalog_words.c's: one expectation, two renderers
  const cases = JSON.parse(readFileSync(join(ROOT, 'tests', 'words_zero_forms.json'), 'utf8'));
  let checked = 0;
  for (const [game, list] of Object.entries(cases)) {
    for (const lang of ['en', 'nl', 'de', 'it']) {
      const catalog = catalogOf(I18N, lang, game);
      for (const c of list) {
        const said = catalog.event(c.event);
        assert.equal(said, c[lang], `${game} ${lang}: ${c.why}`);
        assert.doesNotMatch(said, /\b0 \p{L}/u, `${game} ${lang}: no bare 0 before a word`);
        assert.doesNotMatch(said, /\b1 (points|punten|Punkte|punti|tiles|tegels|Karten|tessere)\b/,
          `${game} ${lang}: no "1" with a plural`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 36, `${checked} cases`);
});

test('the log: a seat\'s action is a line, a run of chance actions one line, each sentence once with its count', () => {
  const catalog = catalogOf(I18N, 'en', 'catan_cards');
  useCatalog(catalog);
  const lines = tellLines([
    { n: 1, seat: 'chance', text: 'shuffle', events: [{ kind: 'stack_shuffled', stack: 1 }] },
    { n: 2, seat: 'chance', text: 'deal', events: [{ kind: 'card_dealt', seat: 0, card: '?' }] },
    { n: 3, seat: 'chance', text: 'deal', events: [{ kind: 'card_dealt', seat: 0, card: '?' }] },
    { n: 4, seat: 0, text: 'roll', events: [] },
    { n: 5, seat: 'chance', text: 'die 3', events: null },
  ]);
  assert.deepEqual(lines.map((l) => [l.first, l.last, l.seat]), [[1, 3, 'chance'], [4, 4, 0], [5, 5, 'chance']]);
  assert.equal(lines[0].sentences.length, 2, 'two different sentences, the second said twice');
  assert.match(lines[0].sentences[1], /\(2 times\)$/);
  assert.deepEqual(lines[0].notation, ['shuffle', 'deal', 'deal']);
  assert.equal(lines[2].sentences[0], 'die 3 (not told in words)');
  assert.deepEqual(foldRepeats(['a', 'a', 'b', 'a', 'c']), ['a (3 times)', 'b', 'c']);
  assert.ok(readdirSync(I18N).includes('parts.json'));
});

test('the Catan card game: totals level at 0 are "both at 0", not "nobody", in every language', () => {
  const expected = { en: 'both at 0', nl: 'beide op 0', de: 'beide bei 0', it: 'entrambi a 0' };
  for (const [lang, both] of Object.entries(expected)) {
    const catalog = catalogOf(I18N, lang, 'catan_cards');
    const nobody = catalog.text('common.nobody');
    const level = new Set();
    // seed 5 has tournaments tied at 0 and a knight token set aside at 0 (the terminal's words)
    for (const step of steps('catan_cards', 'random,random', 5, -1, lang)) {
      step.events.forEach((e, i) => {
        if (!['tournament_tied', 'advantage_set_aside'].includes(e.kind)) return;
        if (e.totals_by_seat.some((v) => v !== 0)) return;
        level.add(e.kind);
        assert.ok(step.words[i].includes(`(${both})`), `${lang}: ${step.words[i]}`);
        assert.ok(!step.words[i].includes(`(${nobody})`), `${lang}: ${step.words[i]}`);
        assert.equal(catalog.event(e), step.words[i], `${lang}: the page says it as the terminal does`);
      });
    }
    assert.deepEqual([...level].sort(), ['advantage_set_aside', 'tournament_tied'], lang);
    // a score of nobody is still "nobody"
    assert.ok(catalog.event({ kind: 'score', points: [0, 0] }).includes(nobody), lang);
  }
});

test('a card\'s name stands with its article where the sentence needs one: "spielt den Spion aus", "speelt de Spion"', () => {
  // {card@acc} / {card@def}: the name's own form in the language (catalog entries <symbol>@<form>)
  const cases = {
    de: { played: /spielt (den|die|das|Ritter) [^ ]/, bare: /spielt (?!den |die |das |Ritter )\S+ aus/ },
    nl: { played: /speelt (de|het|Ridder) [^ ]/, bare: /speelt (?!de |het |Ridder |geen )\S+/ },
  };
  for (const [lang, { played, bare }] of Object.entries(cases)) {
    const catalog = catalogOf(I18N, lang, 'catan_cards');
    let seen = 0;
    for (const seed of [5, 6, 7]) {
      for (const step of steps('catan_cards', 'random,random', seed, -1, lang)) {
        step.events.forEach((e, i) => {
          if (e.kind !== 'card_played') return;
          seen++;
          assert.match(step.words[i], played, `${lang}: ${step.words[i]}`);
          assert.doesNotMatch(step.words[i], bare, `${lang}: ${step.words[i]}`);
          assert.equal(catalog.event(e), step.words[i], `${lang}: the page says it as the terminal does`);
        });
      }
    }
    assert.ok(seen > 0, `${lang}: some card was played`);
  }
  // a masculine name changes in the accusative; a form the language lacks falls back to the name
  const de = catalogOf(I18N, 'de', 'catan_cards');
  assert.equal(de.event({ kind: 'card_played', seat: 0, card: 'spy' }), 'Rot spielt den Spion aus.');
  assert.equal(de.event({ kind: 'card_exchanged', seat: 0, card: 'spy', stack: 2 }).includes('der Spion kommt'), true);
  const en = catalogOf(I18N, 'en', 'catan_cards');
  assert.equal(en.expand('{card@acc}', { fields: { card: 'spy' }, n: null, seat: null, depth: 0 }), 'Spy');
});
