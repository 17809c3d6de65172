// table_words.test.mjs -- the table page tells the game in words: the log
// is the engine's accounts through the catalog (English, Dutch), with the
// notation only on request; the table's own parts (everything but the
// game's board) take every word from the catalog (the pseudo-language);
// other seats' moves stay in view for the chosen bot speed; the tab title
// and icon say when it is your turn; the rules dialog in the chosen
// language; the hint's moves in words.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { webServer, launch, newPage, newTable, waitTurn, playByClicks, tableState,
  carcassonneMove, genericMove,
  pseudoWeb, unmarkedTexts, assertNoErrors, stopAll, prng, WEB, WAIT } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** A catalog's text. */
function word(lang, part, key) {
  const text = JSON.parse(readFileSync(joinPath(WEB, 'i18n', lang, `${part}.json`), 'utf8'))[key];
  assert.ok(text, `${lang}/${part}.json has ${key}`);
  return text;
}

/** A template as a pattern: its fields match any text. */
function templatePattern(template) {
  const parts = template.split(/\{[^{}]*\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(parts.join('.+?'));
}

/** The log's lines: what each says, its notation, whether the notation shows, its tooltip. */
function logLines(page) {
  return page.locator('.log-panel ol.log li').evaluateAll((lis) => lis.map((li) => {
    const act = li.querySelector('.act');
    return { said: li.querySelector('.said')?.textContent ?? '', act: act?.textContent ?? '',
      actShown: !!act && getComputedStyle(act).display !== 'none', title: li.getAttribute('title') ?? '' };
  }));
}

/**
 * Red's page at a new table (seats: Red's and the others'), once it is
 * Red's turn.  web: serve that copy of web/ instead; botSpeed and context:
 * newPage's; before(page): runs before the page is opened.
 */
async function myTurn(seats, seed, { game = 'carcassonne(players=2)', lang = 'en', web, botSpeed,
  context, before: prepare } = {}) {
  const t = await newTable(web ? await webServer({ web }) : server, game, seats, seed);
  const page = await newPage(browser, { context, ...(botSpeed ? { botSpeed } : {}) });
  if (prepare) await prepare(page);
  await page.goto(`${t.url(0)}&lang=${lang}`);
  assert.equal(await waitTurn(page), 'mine');
  return page;
}

/** The end of a test's page: no errors on it. */
async function done(page) {
  assertNoErrors(page);
  await page.context().close();
}

/** A Carcassonne game against the greedy bot, a few moves in by clicks. */
async function carcassonneGame({ lang = 'en', seed = 31, moves = 4, web } = {}) {
  const page = await myTurn(['human', 'greedy'], seed, { lang, web });
  await playByClicks(page, 'carcassonne', { rng: prng(seed), viewShare: 1, until: async (n) => n >= moves });
  assert.equal(await waitTurn(page), 'mine');
  return page;
}

test('the log tells the game in words; the notation only when asked for', async () => {
  const page = await carcassonneGame();
  const placed = templatePattern(word('en', 'carcassonne', 'carcassonne.event.tile_placed'));
  const drawn = templatePattern(word('en', 'carcassonne', 'carcassonne.event.tile_drawn'));
  let lines = await logLines(page);
  assert.ok(lines.length >= 6, `${lines.length} lines`);
  assert.ok(lines.some((l) => placed.test(l.said)), 'a line says a tile was laid');
  assert.ok(lines.some((l) => drawn.test(l.said)), 'a line says a tile was drawn');
  for (const l of lines) {
    assert.ok(l.said && !l.said.includes(l.act), `words, not notation: ${l.said}`);
    assert.equal(l.actShown, false, 'no notation shown by default');
    assert.equal(l.title, `Notation: ${l.act}`, 'the tooltip holds the notation');
  }
  assert.ok(lines.some((l) => /^place -?\d+ -?\d+ \d+$/.test(l.act)), 'a placement\'s notation is kept');
  // the log is `actions` long: its lines cover every action once
  const actions = Number(await page.evaluate(() => document.getElementById('app')?.dataset.actions));
  assert.match(await page.locator('.log-panel .panel-head .muted').textContent(), new RegExp(`^${actions} actions$`));

  // the notation setting shows it, and is remembered
  await page.locator('details.settings > summary').click();
  await page.locator('#set-notation').check();
  lines = await logLines(page);
  assert.ok(lines.every((l) => l.actShown), 'the notation shows on every line');
  assert.equal(await page.evaluate(() => localStorage.getItem('tafel.notation')), 'on');
  await page.reload();
  await page.locator('.log-panel ol.log li').first().waitFor({ timeout: WAIT });
  assert.ok((await logLines(page)).every((l) => l.actShown), 'still shown after a reload');
  await done(page);
});

test('the log in Dutch: the Dutch catalog\'s sentences', async () => {
  const page = await carcassonneGame({ lang: 'nl', seed: 32, moves: 2 });
  const placed = templatePattern(word('nl', 'carcassonne', 'carcassonne.event.tile_placed'));
  const lines = await logLines(page);
  assert.ok(lines.some((l) => placed.test(l.said)), `a Dutch line: ${lines.map((l) => l.said).join(' | ')}`);
  assert.equal(await page.locator('.log-panel h2').textContent(), word('nl', 'page', 'page.log.title'));
  assert.equal(await page.locator('.turn').textContent(), word('nl', 'page', 'page.turn.yours'));
  await done(page);
});

test('the pseudo-language: every word of the table around the board is the catalog\'s', async () => {
  const page = await carcassonneGame({ lang: 'qps', seed: 33, moves: 2, web: pseudoWeb() });
  // the game's board is not the table's: hidden, so only the table's parts are read; nor
  // are the buttons of the list of every legal action, the engine's own notation (the
  // groups' names are words)
  const hideNotation = () => page.evaluate(() => {
    document.getElementById('board').style.display = 'none';
    for (const b of document.querySelectorAll('.action-buttons')) b.style.display = 'none';
  });
  await hideNotation();
  const allowed = ['tafel', 'greedy', 'hard', 'random', 'medium', 'easy', 'mcts'];
  assert.deepEqual(await unmarkedTexts(page, allowed), [], 'the table');
  await page.locator('button.hint-button').click();
  await page.locator('.hint-moves li').first().waitFor({ timeout: WAIT });
  await hideNotation();
  assert.deepEqual(await unmarkedTexts(page, allowed), [], 'with the hint');
  await page.locator('details.settings > summary').click();
  assert.deepEqual(await unmarkedTexts(page, allowed), [], 'with the settings');
  await page.keyboard.press('Escape');
  await page.locator('button.rules-button').click();
  await page.locator('dialog.rules').waitFor({ timeout: WAIT });
  assert.deepEqual(await unmarkedTexts(page, allowed), [], 'with the rules');
  await done(page);
});

test('bot speed "normal": a bot\'s consecutive moves stay in view at least ~0.7 s each', async () => {
  // every state the page shows, with when it showed it
  const record = (page) => page.addInitScript(() => {
    window.shown = [];
    new MutationObserver(() => {
      const app = document.getElementById('app');
      const seq = Number(app?.dataset.seq ?? -1);
      const last = window.shown[window.shown.length - 1];
      if (seq >= 0 && (!last || last.seq !== seq)) {
        window.shown.push({ seq, at: performance.now(),
          mine: document.querySelector('.turn')?.getAttribute('data-mine') === 'true' });
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-seq', 'data-mine'] });
  });
  const page = await myTurn(['human', 'greedy'], 34, { botSpeed: 'normal', before: record });
  await playByClicks(page, 'carcassonne', { rng: prng(34), viewShare: 1, until: async (n) => n >= 4 });
  assert.equal(await waitTurn(page), 'mine');
  const shown = await page.evaluate(() => window.shown);
  // after each own move: the bot's states, each drawn a pause after the one before
  let gaps = 0;
  for (let i = 1; i < shown.length; i++) {
    if (shown[i - 1].mine) continue;   // the state drawn at once after a move of mine
    const gap = shown[i].at - shown[i - 1].at;
    assert.ok(gap >= 700, `state ${shown[i].seq} ${Math.round(gap)} ms after the one before`);
    gaps++;
  }
  assert.ok(gaps >= 2, `at least two bot moves measured: ${JSON.stringify(shown)}`);
  // the page describes the state it shows, and the latest once the queue is drawn
  const s = await tableState(page);
  assert.equal(s.seq, shown[shown.length - 1].seq);
  await done(page);
});

test('your turn: the tab title begins with a marker and the icon takes your colour', async () => {
  const page = await myTurn(['human', 'human'], 35);
  const icon = () => page.evaluate(() => decodeURIComponent(document.querySelector('link[rel~="icon"]')?.getAttribute('href') ?? ''));
  assert.match(await page.title(), /^● Your turn — Carcassonne — tafel$/);
  assert.match(await icon(), /fill="#d33"/, 'Red\'s colour');
  // Red places its tile and passes: Blue's turn, and nobody sits there
  const rng = prng(35);
  for (let k = 0; k < 2; k++) {
    assert.equal(await waitTurn(page), 'mine');
    if (!(await carcassonneMove(page, rng))) await genericMove(page, rng);
  }
  await page.waitForFunction(() => document.querySelector('.turn')?.getAttribute('data-mine') === 'false'
    && !document.getElementById('app')?.classList.contains('busy'), null, { timeout: WAIT });
  assert.match(await page.title(), /^Blue \(human\) to move\. — Carcassonne — tafel$/);
  assert.doesNotMatch(await icon(), /fill="#d33"/, 'a neutral icon');
  await done(page);
});

test('the rules: the how-to and the reference in the chosen language, by keyboard, closed by Esc', async () => {
  const page = await myTurn(['human', 'random'], 36, { game: 'catan_cards', lang: 'de' });
  const button = page.locator('button.rules-button');
  await button.waitFor({ timeout: WAIT });
  assert.equal(await button.textContent(), word('de', 'page', 'page.rules.button'));
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.locator('dialog.rules');
  await dialog.waitFor({ timeout: WAIT });
  const howto = word('de', 'howto', 'catan_cards.howto');
  const said = await dialog.locator('.howto p').allTextContents();
  assert.equal(said[0], howto.split('\n')[0]);
  const flat = (text) => text.replace(/\s+/g, ' ').trim();
  assert.equal(flat(said.join(' ')), flat(howto), 'the whole how-to, in paragraphs');
  assert.ok(said.length > 5 && said.length < howto.split('\n').length, `${said.length} paragraphs`);
  const card = dialog.locator('dt').filter({ hasText: word('de', 'catan_cards.cards', 'catan_cards.card.falk') });
  assert.equal(await card.count(), 1, 'a card of the reference');
  assert.equal(await card.locator('xpath=following-sibling::dd[1]').textContent(),
    word('de', 'catan_cards.cards', 'catan_cards.card_text.falk'));
  assert.ok(await dialog.locator('h3').filter({ hasText: word('de', 'page', 'page.rules.event_cards') }).count());
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden', timeout: WAIT });
  assert.ok(await button.evaluate((b) => document.activeElement === b), 'the focus is back on the button');
  await done(page);
});

test('the hint in words: each move says what it would do, its notation in the tooltip', async () => {
  const page = await myTurn(['human', 'random'], 37);
  await page.locator('button.hint-button').click();
  const moves = page.locator('.hint-moves li');
  await moves.first().waitFor({ timeout: WAIT });
  const placed = templatePattern(word('en', 'carcassonne', 'carcassonne.event.tile_placed'));
  const items = await moves.evaluateAll((lis) => lis.map((li) => ({
    said: li.querySelector('.said')?.textContent ?? '', action: li.getAttribute('data-action') ?? '',
    title: li.getAttribute('title') ?? '',
    actShown: getComputedStyle(li.querySelector('.act')).display !== 'none' })));
  assert.ok(items.length >= 1);
  for (const it of items) {
    assert.match(it.said, placed, 'a placement, in words');
    assert.match(it.action, /^place -?\d+ -?\d+ \d+$/);
    assert.equal(it.title, `Notation: ${it.action}`);
    assert.equal(it.actShown, false);
  }
  await done(page);
});

test('a phone: the table\'s controls are a finger\'s size, and nothing scrolls sideways', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await myTurn(['human', 'greedy'], 38, { context });
  await page.locator('details.settings > summary').click();
  await page.locator('details.actions-panel > summary').click();
  // the controls of the table, not of the board (each game view answers for its own)
  const small = await page.evaluate(() => {
    const found = [];
    for (const el of document.querySelectorAll('button, select, summary, input, a[href]')) {
      if (el.closest('#board')) continue;
      const target = el.matches('input[type=checkbox]') ? el.closest('label, .setting') ?? el : el;
      const r = target.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;   // not shown
      if (r.width < 44 || r.height < 44) {
        found.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
    return found;
  });
  assert.deepEqual(small, [], 'touch targets of 44 x 44 px at least');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no sideways scrolling');
  await done(page);
});
