// languages.test.mjs -- each game played through in Dutch, and in the
// pseudo-language, by clicks.
//
// Dutch: the page speaks Dutch from the first screen to the winners (no
// English sentence of the catalogs shows, Dutch ones do, in the log too);
// a screenshot of each game mid-game in Dutch (<game>-nl.png).
// Pseudo-language (tests/catalog_test.py --pseudo, every English text
// wrapped in ⟦…⟧): at every few moves and at the end, no visible text of the
// page lacks the markers — player and bot names and numbers aside — so every
// word on the page came from a catalog.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webServer, launch, newPage, newTable, playByClicks, assertNoErrors, stopAll, prng,
  tableState, pseudoWeb, unmarkedTexts, pageText, screenshot, ROOT } from './helpers.mjs';

let server, pseudo, browser;
before(async () => {
  server = await webServer();
  pseudo = await webServer({ web: pseudoWeb() });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

const GAMES = [
  { name: 'carcassonne', game: 'carcassonne(players=2)', seats: ['human', 'greedy'] },
  { name: 'cardcassonne', game: 'cardcassonne(players=3)', seats: ['human', 'random', 'greedy'] },
  { name: 'catan_cards', game: 'catan_cards(max_turns=14)', seats: ['human', 'greedy'] },
];

/** Names a page may show that are no words: the bots', the program's. */
const NAMES = ['greedy', 'random', 'tafel'];

/** A language's texts of the page's own parts (page, lobby, the game's page words). */
function pageTexts(lang, game) {
  const texts = {};
  for (const part of ['page', 'lobby', `${game}.page`, 'common']) {
    Object.assign(texts, JSON.parse(readFileSync(join(ROOT, 'web', 'i18n', lang, `${part}.json`), 'utf8')));
  }
  return texts;
}

/** English texts that Dutch says otherwise, long enough not to be a name or a shared word. */
function englishOnly(game) {
  const en = pageTexts('en', game), nl = pageTexts('nl', game);
  return Object.keys(en).filter((k) => nl[k] !== en[k] && !/[{}]/.test(en[k]) && en[k].length >= 12
    && !k.startsWith('common.play.') && !k.startsWith('page.language.')).map((k) => en[k]);
}

for (const g of GAMES) {
  test(`${g.name}: a whole game in Dutch`, async () => {
    const t = await newTable(server, g.game, g.seats, 5);
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${t.url(0)}&lang=nl`);
    await page.locator('.turn').waitFor();
    const english = englishOnly(g.name);
    const check = async (when) => {
      const text = await pageText(page);
      const found = english.filter((e) => text.includes(e));
      assert.deepEqual(found, [], `${when}: English on the Dutch page`);
    };
    await check('the first screen');
    let shot = null;
    await playByClicks(page, g.name, { rng: prng(3), onMove: async (n) => {
      if (n % 10 === 0) await check(`move ${n}`);
      if (n === 12) shot = await screenshot(page, `${g.name}-nl`);
    } });
    assert.ok(shot, 'a screenshot in Dutch mid-game');
    assert.equal((await tableState(page)).status, 'over');
    await check('the end');
    const nl = JSON.parse(readFileSync(join(ROOT, 'web', 'i18n', 'nl', `${g.name}.json`), 'utf8'));
    const log = await page.locator('ol.log:not(.replay-log)').textContent();
    // words of the Dutch game catalog's event sentences, between their {fields}
    const dutch = Object.entries(nl).filter(([k]) => k.includes('.event.'))
      .flatMap(([, v]) => v.split(/\{[^}]*\}/)).map((s) => s.trim()).filter((s) => s.length >= 8);
    const heard = dutch.filter((s) => log.includes(s));
    assert.ok(heard.length >= 3, `the log speaks Dutch: ${heard.join(' | ')} in ${log.slice(0, 300)}`);
    assertNoErrors(page);
    await page.context().close();
  });

  test(`${g.name}: every visible text comes from a catalog (pseudo-language)`, async () => {
    const t = await newTable(pseudo, g.game, g.seats, 6);
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(`${t.url(0)}&lang=qps`);
    await page.locator('.turn').waitFor();
    // the game's view is loaded: the list of legal actions folds then, and says them in words
    await page.waitForFunction(() => !document.querySelector('details.actions-panel')?.open);
    const check = async (when) => {
      // the list of every legal action, unfolded: each says its action in the
      // catalog's words (the notation beside it is hidden without the setting)
      await page.evaluate(() => document.querySelectorAll('details.actions-panel, details.action-group')
        .forEach((d) => { /** @type {HTMLDetailsElement} */ (d).open = true; }));
      assert.deepEqual(await unmarkedTexts(page, NAMES), [], `${when}: text not from a catalog`);
      const bare = await page.locator('button.action:not(.said)').evaluateAll((bs) => bs.map((b) => b.dataset.action));
      assert.deepEqual(bare, [], `${when}: legal actions not said in words`);
    };
    await check('the first screen');
    await playByClicks(page, g.name, { rng: prng(4), onMove: async (n) => { if (n % 4 === 1) await check(`move ${n}`); } });
    await check('the end');
    // the rules at hand, and the settings, open: their words too
    await page.locator('button.rules-button').click();
    await check('the rules open');
    await page.keyboard.press('Escape');   // the board's own keys must leave it to the dialog
    await page.locator('dialog.rules').waitFor({ state: 'hidden' });
    await page.locator('details.settings > summary').click();
    await check('the settings open');
    assertNoErrors(page);
    await page.context().close();
  });
}

test('the lobby in the pseudo-language has no text from elsewhere', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${pseudo.base}?lang=qps`);
  await page.locator('form').first().waitFor();
  assert.deepEqual(await unmarkedTexts(page, NAMES), []);
  assertNoErrors(page);
  await page.context().close();
});

/** The fixed words of English texts (between their {fields}), for the keys whose text the language changes. */
function englishWords(lang, parts, keep) {
  const read = (l) => Object.assign({}, ...parts.map((p) =>
    JSON.parse(readFileSync(join(ROOT, 'web', 'i18n', l, `${p}.json`), 'utf8'))));
  const en = read('en'), other = read(lang);
  return Object.keys(en).filter((k) => keep(k) && other[k] !== en[k])
    .flatMap((k) => en[k].split(/\{[^}]*\}/)).map((s) => s.trim()).filter((s) => s.length >= 6);
}

for (const lang of ['nl', 'de', 'it']) {
  test(`${lang}: the seat choices, the seat bar and the list of legal actions have no English`, async () => {
    const levels = ['easy', 'medium', 'hard', 'greedy', 'random'];
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    // the lobby's seat choices: each bot by its level in the language
    await page.goto(`${server.base}?lang=${lang}`);
    await page.locator('#nt-seat-1').waitFor();
    const choices = await page.locator('#nt-seat-1 option').allTextContents();
    assert.ok(choices.length > 3, `${lang}: the lobby offers seat choices`);
    for (const level of levels) {
      assert.ok(!choices.some((c) => new RegExp(`\\b${level}\\b`).test(c)), `${lang}: '${level}' in ${choices.join(' | ')}`);
    }
    for (const g of GAMES) {
      const t = await newTable(server, g.game, ['human', 'medium', ...g.seats.slice(2)], 9);
      await page.goto(`${t.url(0)}&lang=${lang}`);
      await page.locator('.turn').waitFor();
      // the game's view loaded: its words for the actions are in
      await page.waitForFunction(() => document.querySelectorAll('button.action.said').length > 0);
      const seats = await page.locator('section.head').innerText();
      assert.doesNotMatch(seats, /\bmedium\b/, `${lang} ${g.name}: the seat bar names the level in ${lang}`);
      await page.evaluate(() => document.querySelectorAll('details.actions-panel, details.action-group')
        .forEach((d) => { /** @type {HTMLDetailsElement} */ (d).open = true; }));
      const buttons = await page.locator('button.action').evaluateAll((bs) =>
        bs.map((b) => ({ action: b.dataset.action, text: b.querySelector('span')?.textContent ?? b.textContent })));
      const english = englishWords(lang, [`${g.name}.actions`, `${g.name}.page`, g.name],
        (k) => k.includes('.actions.') || k.includes('.action.') || k.includes('.target.'));
      for (const { action, text } of buttons) {
        assert.notEqual(text, action, `${lang} ${g.name}: '${action}' said in words`);
        const found = english.filter((e) => text.includes(e));
        assert.deepEqual(found, [], `${lang} ${g.name}: English in '${text}' (${action})`);
      }
    }
    assertNoErrors(page);
    await page.context().close();
  });
}
