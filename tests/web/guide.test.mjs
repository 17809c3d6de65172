// guide.test.mjs -- the guided first game of each game (web/guide/), played
// in the browser by following its own prompts: from the lobby's "learn by
// playing" link, each prompt's words are the catalog's for its step in the
// page's language, and the test clicks only what the prompt points at
// (.guide-target) until free play begins; then it plays on through the
// list of legal actions until the bot has moved.  In English and in Dutch.
// The rules dialog links to the same guide.  Another move than the one
// asked is said to be fine, and free play begins (an undo comes back to
// the guide); an undo asks the step again; a guided Cardcassonne is played
// to its end for the closing words; in the pseudo-language every word of
// the guide is the catalog's.  A screenshot of one prompt per game
// (and Carcassonne's on a 390 px phone) is kept (helpers.screenshot).
//
// Skipped, saying so, when the engine was built without WebAssembly (the
// lobby then offers no table on this device).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webServer, launch, newPage, assertNoErrors, stopAll, tableState, waitTurn, genericMove,
  playByClicks, screenshot, prng, pseudoWeb, PSEUDO_OPEN, WEB, WAIT } from './helpers.mjs';
import { TAFEL } from '../server/helpers.mjs';

const GUIDES = {
  carcassonne: (await import('../../web/guide/carcassonne.mjs')).guide,
  cardcassonne: (await import('../../web/guide/cardcassonne.mjs')).guide,
  catan_cards: (await import('../../web/guide/catan_cards.mjs')).guide,
};
const WASM = join(TAFEL, '..', 'wasm', 'tafel.wasm');
const skip = existsSync(WASM) ? false : `no ${WASM} (the engine built without WebAssembly)`;

let server, browser;
before(async () => {
  if (skip) return;
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** The guide's catalog of a language. */
const words = (lang) => JSON.parse(readFileSync(join(WEB, 'i18n', lang, 'guide.json'), 'utf8'));

/** What the guide panel shows: its step, phase, action and words. */
function panel(page) {
  return page.evaluate(() => {
    const el = document.querySelector('section.guide');
    if (!el || el.hidden) return null;
    const text = [...el.querySelectorAll('.guide-text p')].map((p) => p.textContent).join('\n');
    return { step: el.dataset.step ?? '', phase: el.dataset.phase ?? '',
      action: el.dataset.action ?? '', text, own: !el.querySelector('.guide-own')?.hidden };
  });
}

/** Waits for the prompt of the newcomer's turn (its control lit, or free play) and reads it. */
async function prompt(page) {
  // the view draws after the state: the lit control comes a moment after the words
  await page.waitForFunction(() => {
    const el = document.querySelector('section.guide');
    const busy = document.getElementById('app')?.classList.contains('busy');
    if (!el || el.hidden || busy) return false;
    return el.dataset.phase === 'free' || !!document.querySelector('.guide-target');
  }, null, { timeout: WAIT, polling: 50 });
  const p = await panel(page);
  assert.ok(p, 'the guide shows a prompt on the newcomer\'s turn');
  return p;
}

/**
 * Follows the prompts of the guide on page until free play: each prompt
 * read, its words checked against the catalog, its lit control clicked.
 * Returns the steps prompted, in order.
 */
async function followPrompts(page, game, lang, { shot } = {}) {
  const catalog = words(lang);
  const steps = [];
  const deadline = Date.now() + 6 * WAIT;
  for (;;) {
    assert.ok(Date.now() < deadline, `free play was reached in time (steps: ${steps.join(', ')})`);
    await waitTurn(page);
    const p = await prompt(page);
    if (p.phase === 'free') {
      assert.equal(p.text, catalog[`guide.${game}.free`], 'free play is announced in the language');
      return steps;
    }
    assert.equal(p.own, false, `the prompts were followed (at ${p.step})`);
    // the deal is fixed: each step asks its first choice (a bot or engine that
    // plays otherwise now shows here, before the words stop fitting the board)
    const first = GUIDES[game].steps.find((s) => s.key === p.step)?.want[0];
    if (typeof first === 'string') assert.equal(p.action, first, `${p.step} asks its first want`);
    assert.equal(p.text, catalog[`guide.${game}.${p.step}`], `${p.step} in the catalog's words`);
    if (steps.at(-1) !== p.step) {
      steps.push(p.step);
      // the prompt as it first shows, its control lit, before any click
      if (shot && steps.length === shot.at) {
        // as a newcomer reads it: no tip left open by the last click, the cards come to rest
        await page.mouse.move(1, 1);
        await page.waitForTimeout(800);
        await screenshot(page, shot.name);
      }
    }
    const before = (await tableState(page)).seq;
    await page.locator('.guide-target').first().click({ timeout: WAIT });
    // a click that only chooses (a spot, a card) redraws the view; a move changes the table
    await page.waitForFunction(([seq, action]) => {
      const app = document.getElementById('app');
      const el = document.querySelector('section.guide');
      const moved = Number(app?.dataset.seq ?? -1) > seq || app?.classList.contains('busy');
      const lit = document.querySelector('.guide-target');
      return moved || (lit && el?.dataset.action === action);
    }, [before, p.action], { timeout: WAIT, polling: 50 });
  }
}

/** Plays on through the list of legal actions until a change comes that was not the newcomer's. */
async function untilTheBotMoves(page) {
  const start = (await tableState(page)).seq;
  const rng = prng(5);
  for (let mine = 0; mine < 12; mine++) {
    if (await waitTurn(page) === 'over') return;
    const now = (await tableState(page)).seq;
    if (now - start > mine) return;        // a change that was not one of ours: the bot's
    await genericMove(page, rng);
  }
  assert.fail('the bot moved within 12 moves of free play');
}

/** Starts the guided game of name from the lobby's link, in lang. */
async function fromTheLobby(page, name, lang) {
  await page.goto(`${server.base}?lang=${lang}`);
  const link = page.locator(`.learn a[data-guide="${name}"]`);
  await link.waitFor({ timeout: WAIT });
  const lobby = JSON.parse(readFileSync(join(WEB, 'i18n', lang, 'lobby.json'), 'utf8'));
  const title = lobby[`lobby.game.${name}`];
  assert.equal(await link.textContent(), words(lang)['guide.lobby.start'].replace('{game}', title));
  await Promise.all([page.waitForURL(/\?local=[0-9a-f]+&guide=/, { timeout: WAIT }), link.click()]);
}

const GAMES = [
  { name: 'carcassonne', steps: 10, shotAt: 3 },
  { name: 'cardcassonne', steps: 9, shotAt: 2 },
  { name: 'catan_cards', steps: 12, shotAt: 6 },
];

for (const lang of ['en', 'nl']) {
  for (const g of GAMES) {
    test(`${g.name}: the guided first game followed prompt by prompt, in ${lang}`, { skip },
      async () => {
      const page = await newPage(browser, { viewport: { width: 1280, height: 860 } });
      await fromTheLobby(page, g.name, lang);
      const steps = await followPrompts(page, g.name, lang,
        lang === 'en' ? { shot: { at: g.shotAt, name: `guide-${g.name}` } } : {});
      assert.equal(steps.length, g.steps, `every step was prompted: ${steps.join(', ')}`);
      await untilTheBotMoves(page);
      // the guide is linked from the rules too
      await page.locator('.rules-button').click();
      const rulesLink = page.locator('dialog.rules .rules-guide a');
      assert.match(await rulesLink.getAttribute('href'), new RegExp(`\\?guide=${g.name}$`));
      assertNoErrors(page);
      await page.context().close();
    });
  }
}

test('another move than the one pointed at: said kindly, free play; an undo comes back', { skip },
  async () => {
  const page = await newPage(browser);
  await fromTheLobby(page, 'carcassonne', 'en');
  const first = await prompt(page);
  assert.equal(first.step, 'city_tile');
  // a legal placement other than the one lit, through the list of every legal action
  const other = page.locator('details.actions-panel button.action[data-action^="place "]'
    + `:not([data-action="${first.action}"])`).first();
  await page.locator('details.actions-panel > summary').click();
  const group = page.locator('details.actions-panel details.action-group').first();
  if (!(await group.evaluate((d) => d.open))) await group.locator('> summary').click();
  const before = (await tableState(page)).seq;
  await other.click();
  await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) > s,
    before);
  await waitTurn(page);
  const next = await prompt(page);
  assert.equal(next.own, true, 'the guide says the move was another than the one pointed at');
  assert.equal(await page.locator('section.guide .guide-own').textContent(),
    words('en')['guide.own_way']);
  // the prompts were written for the moves asked: free play from here
  assert.equal(next.phase, 'free');
  assert.equal(next.text, words('en')['guide.carcassonne.free']);
  // still the newcomer's turn (the follower): Undo takes the tile back, the guide goes on
  const seq = (await tableState(page)).seq;
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) > s, seq);
  await waitTurn(page);
  const again = await prompt(page);
  assert.equal(again.step, 'city_tile');
  assert.equal(again.own, false);
  assertNoErrors(page);
  await page.context().close();
});

test('catan_cards: the start regions in an order of one\'s own do as well', { skip }, async () => {
  const page = await newPage(browser);
  await fromTheLobby(page, 'catan_cards', 'en');
  assert.equal((await prompt(page)).step, 'arrange');
  // the resources picked one by one, last first: not the order the guide lights
  const picks = page.locator('.ct-arrange [data-key^="arrange-"]:not([data-key="arrange-go"])'
    + ':not([data-key="arrange-clear"]):not([data-key="arrange-default"])');
  const keys = await picks.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
  for (const key of keys.reverse()) await page.locator(`.ct-arrange [data-key="${key}"]`).click();
  const seq = (await tableState(page)).seq;
  await page.locator('.ct-arrange [data-key="arrange-go"]').click();
  await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) > s, seq);
  await waitTurn(page);
  const p = await prompt(page);
  assert.equal(p.step, 'start_stack', 'the guide goes on');
  assert.equal(p.own, false, 'and says nothing of another move');
  assertNoErrors(page);
  await page.context().close();
});

test('an undo asks the step again; the table opened again keeps the step', { skip },
  async () => {
  const page = await newPage(browser);
  await fromTheLobby(page, 'carcassonne', 'en');
  // the tile laid as the prompt asks: its spot, then "Lay it here"
  let p = await prompt(page);
  assert.equal(p.step, 'city_tile');
  const layIt = async () => {
    const before = (await tableState(page)).seq;
    while ((await tableState(page)).seq === before) {
      await page.locator('.guide-target').first().click();
      await page.waitForFunction((s) => {
        const app = document.getElementById('app');
        return Number(app?.dataset.seq) > s || !!document.querySelector('.guide-target');
      }, before);
    }
    await waitTurn(page);
  };
  await layIt();
  p = await prompt(page);
  assert.equal(p.step, 'knight');
  const seq = (await tableState(page)).seq;
  await page.getByRole('button', { name: 'Undo' }).click();
  await page.waitForFunction((s) => Number(document.getElementById('app')?.dataset.seq) > s, seq);
  await waitTurn(page);
  p = await prompt(page);
  assert.equal(p.step, 'city_tile', 'the tile taken back: the prompt to lay it again');
  assert.equal(p.own, false);
  // the table opened again (as "Games on this device" opens it, with no
  // &guide=) goes on at the same step: the guide's place is kept by table
  await layIt();
  assert.equal((await prompt(page)).step, 'knight');
  await page.goto(page.url().replace(/&guide=.*$/, ''));
  await waitTurn(page);
  assert.equal((await prompt(page)).step, 'knight', 'opened again, the same step');
  assertNoErrors(page);
  await page.context().close();
});

test('cardcassonne: after the guide, the game played to its end, and the closing words', { skip },
  async () => {
  const page = await newPage(browser);
  await fromTheLobby(page, 'cardcassonne', 'en');
  await followPrompts(page, 'cardcassonne', 'en');
  const r = await playByClicks(page, 'cardcassonne', { rng: prng(9) });
  assert.ok(r.moves > 20, `the rest of the game was played: ${JSON.stringify(r)}`);
  assert.equal((await tableState(page)).status, 'over');
  const p = await panel(page);
  assert.equal(p?.text, words('en')['guide.cardcassonne.end'], 'the closing words at the end');
  assertNoErrors(page);
  await page.context().close();
});

test('in the pseudo-language every word of the lobby\'s entry and of the prompts is the catalog\'s',
  { skip }, async () => {
  const qps = await webServer({ web: pseudoWeb() });
  const page = await newPage(browser);
  await page.goto(`${qps.base}?lang=qps`);
  await page.locator('.learn a').first().waitFor({ timeout: WAIT });
  /** Texts of the elements matching selector that lie outside the catalog's markers. */
  const bare = (selector) => page.evaluate(([sel, open]) => {
    const out = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = (n.textContent ?? '').replace(/[\p{N}\p{P}\p{S}\p{Z}\s]/gu, '');
        // a text of several paragraphs is one catalog text: its markers at its ends
        const whole = n.parentElement?.closest('p')?.parentElement ?? n.parentElement;
        if (text && !(whole?.textContent ?? '').includes(open)) out.push(n.textContent);
      }
      for (const el of root.querySelectorAll('[title], [aria-label]')) {
        for (const a of ['title', 'aria-label']) {
          const v = el.getAttribute(a);
          if (v && !v.includes(open)) out.push(`${a}="${v}"`);
        }
      }
    }
    return out;
  }, [selector, PSEUDO_OPEN]);
  assert.deepEqual(await bare('section.learn'), [], 'the lobby\'s entry');
  await Promise.all([page.waitForURL(/\?local=[0-9a-f]+&guide=/, { timeout: WAIT }),
    page.locator('.learn a[data-guide="catan_cards"]').click()]);
  await page.locator('.guide-target').first().waitFor({ timeout: WAIT });
  assert.deepEqual(await bare('section.guide'), [], 'the prompt');
  await page.locator('.rules-button').click();
  assert.deepEqual(await bare('dialog.rules .rules-guide'), [], 'the rules\' link');
  assertNoErrors(page);
  await page.context().close();
});

test('on a 390 px phone: the prompt above the board, nothing wider', { skip }, async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
  await page.goto(`${server.base}?lang=de&guide=carcassonne`);
  await page.locator('.guide-target').waitFor({ timeout: WAIT });
  const box = await page.evaluate(() => {
    const guide = document.querySelector('section.guide').getBoundingClientRect();
    const board = document.getElementById('board').getBoundingClientRect();
    return { guideBottom: guide.bottom, boardTop: board.top,
      width: document.documentElement.scrollWidth };
  });
  assert.ok(box.guideBottom <= box.boardTop, `the prompt above the board: ${JSON.stringify(box)}`);
  assert.ok(box.width <= 390, `nothing wider than the phone: ${box.width}`);
  await screenshot(page, 'guide-carcassonne-phone');
  assertNoErrors(page);
  await page.context().close();
});
