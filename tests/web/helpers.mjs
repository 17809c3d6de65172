// helpers.mjs -- what the browser tests of the page (web/) share.
//
// The servers, sockets and leak checks are those of the protocol tests
// (tests/server/helpers.mjs, imported, not copied); this file adds the
// browser: Debian's chromium driven by playwright-core through its
// executablePath (no browser is ever downloaded), pages whose console
// errors and uncaught exceptions are collected (a test fails on any), and
// "players" that play a seat by clicking the page's own controls only: the
// game views' controls, or the generic list of legal actions.
//
// The page tells the tests where the table is through attributes of #app
// that table.mjs keeps: data-seq (the latest state's seq) and data-status;
// the banner's data-mine says the seat must act, and #app.busy that a
// request is on its way.

import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, copyFileSync, cpSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { startServer, Client, createTable, tempDir, prng, pick } from '../server/helpers.mjs';

export { stopAll, prng, pick, tempDir, Client, fetchRecord, replayViews, secretsOf, leaked }
  from '../server/helpers.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB = joinPath(ROOT, 'web');
export const CHROMIUM = process.env.TAFEL_CHROMIUM || '/usr/bin/chromium';
/** How long a page may take to show what a test waits for. */
export const WAIT = Number(process.env.TAFEL_WEB_WAIT || 20000);

// stack-research.md §3.4: the flags verified with Debian's chromium here.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-dev-shm-usage'];

/** tafel serve on a fresh database, serving this repository's web/. */
export function webServer(opts = {}) {
  return startServer({ ...opts, args: ['--web', opts.web || WEB, ...(opts.args || [])] });
}

/** The pseudo-language's markers (tests/catalog_test.py --pseudo). */
export const PSEUDO_OPEN = '\u27e6', PSEUDO_CLOSE = '\u27e7';

/**
 * A copy of web/ with one more language, "qps": every English text wrapped
 * in ⟦…⟧ and a third longer (tests/catalog_test.py --pseudo).  Serve it with
 * webServer({ web }) and open pages with ?lang=qps: text without the
 * markers was not taken from a catalog.
 */
export function pseudoWeb() {
  const web = joinPath(tempDir('tafel-web-qps-'), 'web');
  cpSync(WEB, web, { recursive: true });
  execFileSync('python3', [joinPath(ROOT, 'tests', 'catalog_test.py'), '--pseudo',
    joinPath(web, 'i18n', 'qps')]);
  return web;
}

/** Debian's chromium, headless. */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * A new page in its own context (its own localStorage), whose console
 * errors and page errors are kept in page.errors.  allow(text) may excuse
 * an expected one (e.g. failed WebSocket connections while the server is
 * down on purpose).  Other seats' moves are shown at once (the table's bot
 * speed 'instant', set in localStorage before the page loads), so whole
 * games stay fast; botSpeed chooses another ('fast', 'normal', 'slow'; null
 * leaves the page's own default).
 */
export async function newPage(browser, { viewport = { width: 1280, height: 860 }, context,
  botSpeed = 'instant' } = {}) {
  const ctx = context || await browser.newContext({ viewport });
  if (botSpeed !== null) {
    await ctx.addInitScript((speed) => {
      try { localStorage.setItem('tafel.botSpeed', speed); } catch { /* no storage: the default */ }
    }, botSpeed);
  }
  const page = await ctx.newPage();
  page.errors = [];
  page.allowErrors = null;
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (page.allowErrors && page.allowErrors(text)) return;
    page.errors.push(`console: ${text}`);
  });
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.stack || err.message}`));
  return page;
}

/** Fails when a page logged a console error or threw. */
export function assertNoErrors(...pages) {
  for (const p of pages) assert.deepEqual(p.errors, [], `errors on ${p.url()}`);
}

/** Makes a table over a socket; { table, tokens, url(seat), watch }. */
export async function newTable(server, game, seats, seed = 1) {
  const c = await Client.connect(server);
  const created = await createTable(c, game, seats, seed);
  c.close();
  return {
    ...created,
    url: (s) => `${server.base}t/${created.table}?token=${created.tokens[s]}`,
    watchUrl: `${server.base}t/${created.table}`,
  };
}

// ---------------------------------------------------------------- the table page

/** The page's view of the table: { seq, status, mine, busy }. */
export function tableState(page) {
  return page.evaluate(() => {
    const app = document.getElementById('app');
    const banner = document.querySelector('.turn');
    return {
      seq: Number(app?.dataset.seq ?? -1),
      status: app?.dataset.status ?? '',
      mine: banner?.getAttribute('data-mine') === 'true',
      busy: !!app?.classList.contains('busy'),
      banner: banner?.textContent ?? '',
    };
  });
}

/** Waits until the page shows a state of seq > after (any when after is -1). */
export async function waitSeq(page, after = -1, timeout = WAIT) {
  await page.waitForFunction((a) => Number(document.getElementById('app')?.dataset.seq ?? -1) > a,
    after, { timeout, polling: 20 });
}

/** Waits until the seat must act ('mine') or the game is over ('over'). */
export async function waitTurn(page, timeout = WAIT) {
  const h = await page.waitForFunction(() => {
    const app = document.getElementById('app');
    if (!app) return false;
    if (app.dataset.status === 'over') return 'over';
    const mine = document.querySelector('.turn')?.getAttribute('data-mine') === 'true';
    return mine && !app.classList.contains('busy') && app.dataset.status === 'playing' ? 'mine' : false;
  }, null, { timeout, polling: 20 });
  return h.jsonValue();
}

/**
 * Clicks what choose() returns (a locator, or null: give up) until a move
 * is sent (the page turns busy or the seq moves), then waits for the next
 * state.  Clicks that only choose (a card of the hand, a spot, a rotation)
 * do neither.  Returns whether a move was made.
 */
export async function clickUntilMove(page, choose, maxClicks = 6, clickTimeout = WAIT) {
  const before = (await tableState(page)).seq;
  for (let k = 0; k < maxClicks; k++) {
    const target = await choose(k);
    if (!target) return false;
    await target.click({ timeout: clickTimeout });
    const now = await tableState(page);
    if (now.busy || now.seq > before) {
      await waitSeq(page, before);
      return true;
    }
  }
  return false;
}

/** A random element of a locator's matches (null when none). */
export async function randomOf(locator, rng) {
  const n = await locator.count();
  return n ? locator.nth(Math.floor(rng() * n)) : null;
}

/**
 * One move through the generic list of legal actions (table/actions.mjs):
 * unfold it, unfold a random group, click a random button.
 */
export async function genericMove(page, rng) {
  const panel = page.locator('details.actions-panel');
  // A state that arrives between these steps redraws the list, and a big
  // group starts folded: the button is picked among the unfolded groups as
  // they are when it is clicked, and picked again if it cannot be clicked.
  for (let attempt = 1; ; attempt++) {
    if (!(await panel.evaluate((d) => d.open))) await panel.locator('> summary').click();
    const group = await randomOf(panel.locator('details.action-group'), rng);
    assert.ok(group, 'the list of legal actions has a group');
    if (!(await group.evaluate((d) => d.open))) await group.locator('> summary').click();
    const button = await randomOf(panel.locator('details.action-group[open] button.action'), rng);
    assert.ok(button, 'an unfolded group has buttons');
    try {
      const moved = await clickUntilMove(page, async () => button, 1, 3000);
      assert.ok(moved, 'a button of the legal list plays');
      return;
    } catch (e) {
      if (attempt === 3 || !(e instanceof Error && e.name === 'TimeoutError')) throw e;
    }
  }
}

/** Carcassonne through its own controls: a spot, maybe a turn, confirm; a follower spot or pass. */
export async function carcassonneMove(page, rng) {
  const places = page.locator('.carc-l-places .carc-place');
  if (await places.count()) {
    return clickUntilMove(page, async (k) => {
      if (k === 0) return randomOf(places, rng);
      const rotate = page.locator('button.carc-b-rotate');
      if (k === 1 && (await rotate.count()) && rng() < 0.5) return rotate;
      return page.locator('button.carc-b-confirm');
    });
  }
  const spots = page.locator('.carc-l-spots .carc-fspot, .carc-choices button.carc-b-action');
  if (await spots.count()) return clickUntilMove(page, async () => randomOf(spots, rng), 1);
  return false;
}

/** Cardcassonne through its own controls: a card of the hand, then a lit row; or a target/decision. */
export async function cardcassonneMove(page, rng) {
  // the game's view is loaded after the table is drawn: the turn banner can
  // say "your turn" before the hand is there
  await page.locator('.cc-view .cc-main').waitFor({ timeout: WAIT });
  return clickUntilMove(page, async () => {
    const pressed = page.locator('.cc-hand-card[aria-pressed="true"]');
    if (await pressed.count()) return randomOf(page.locator('button.cc-target'), rng);
    const cards = page.locator('.cc-hand-card:not([disabled])');
    if ((await cards.count()) && rng() < 0.85) return randomOf(cards, rng);
    // a redraw may have let go of the chosen card: then choose one again
    return (await randomOf(page.locator('button.cc-target, .cc-decision button:not([disabled])'), rng))
      ?? randomOf(cards, rng);
  }, 4);
}

/** Catan through its own controls: a hand card and a lit site, or a button of the view. */
export async function catanMove(page, rng) {
  return clickUntilMove(page, async () => {
    const pressed = page.locator('.ct-hand-card[aria-pressed="true"]');
    if (await pressed.count()) return randomOf(page.locator('button.ct-target:not([disabled])'), rng);
    const builds = page.locator('.ct-hand-card:not([disabled])');
    if ((await builds.count()) && rng() < 0.5) return randomOf(builds, rng);
    return randomOf(page.locator('.ct-view button:not([disabled]):not(.ct-hand-card)'), rng);
  }, 6);
}

export const VIEW_MOVES = { carcassonne: carcassonneMove, cardcassonne: cardcassonneMove,
  catan_cards: catanMove };

/**
 * Plays the page's seat until the game is over (or until(state, moves)),
 * by clicks only: each move through the game view's controls with
 * probability viewShare (when they offer one), else through the generic
 * list.  Returns { moves, byView, byList }.
 */
export async function playByClicks(page, game, { rng = prng(1), viewShare = 0.5, until,
  onMove } = {}) {
  const viewMove = VIEW_MOVES[game];
  let moves = 0, byView = 0, byList = 0;
  for (;;) {
    const turn = await waitTurn(page);
    if (turn === 'over') break;
    if (until && await until(moves)) break;
    if (viewMove && rng() < viewShare && await viewMove(page, rng)) byView++;
    else {
      await genericMove(page, rng);
      byList++;
    }
    moves++;
    if (onMove) await onMove(moves);
    assert.deepEqual(page.errors, [], 'no console errors while playing');
  }
  return { moves, byView, byList };
}

// ---------------------------------------------------------------- screenshots

/**
 * Saves a screenshot of the page (its top, one screen) as NAME.png into a
 * temporary folder, and into docs/screenshots/ when TAFEL_SCREENSHOTS=1.
 * Returns the path.
 */
const shotDir = tempDir('tafel-shots-');
export async function screenshot(page, name) {
  const path = joinPath(shotDir, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));   // from the top, as one arrives
  await page.screenshot({ path, fullPage: false });
  if (process.env.TAFEL_SCREENSHOTS === '1') {
    const docs = joinPath(ROOT, 'docs', 'screenshots');
    if (!existsSync(docs)) mkdirSync(docs, { recursive: true });
    copyFileSync(path, joinPath(docs, `${name}.png`));
  }
  return path;
}

/** Every text of the page a person or a screen reader could read (text, titles, labels). */
export function pageText(page) {
  return page.evaluate(() => {
    const app = document.getElementById('app');
    if (!app) return '';
    const parts = [app.textContent || ''];
    for (const el of app.querySelectorAll('*')) {
      for (const a of ['title', 'aria-label', 'data-action', 'data-key', 'alt', 'value']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
    return parts.join('\n');
  });
}


/**
 * The visible texts of a page in the pseudo-language that do not come from
 * a catalog: each visible text node (and title, aria-label, placeholder
 * attribute) that is not inside a ⟦…⟧ of its element's text, once digits,
 * punctuation, signs and the allowed words (player and bot names) are taken
 * out; an element marked translate="no" holds a name (a player's), no
 * words, and is left out.  [] when every word is the catalog's.
 */
export function unmarkedTexts(page, allowed = []) {
  return page.evaluate(({ allowed, open, close }) => {
    const bare = (s) => {
      let rest = s;
      for (const w of allowed) rest = rest.split(w).join(' ');
      return rest.replace(/[\p{N}\p{P}\p{S}\p{Z}\s]/gu, '');
    };
    const visible = (el) => {
      if (!el || !(el instanceof Element)) return false;
      // checkVisibility also knows the folded part of a closed <details>
      if (el.checkVisibility && !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) {
        return false;
      }
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return false;
      const cs = getComputedStyle(el);
      return cs.visibility !== 'hidden' && cs.display !== 'none' && cs.opacity !== '0';
    };
    // Whether offset i of the element's text lies between an open and a close marker.
    const inside = (text, i) => {
      const before = text.lastIndexOf(open, i), closed = text.lastIndexOf(close, i - 1);
      return before >= 0 && before > closed && text.indexOf(close, i) >= 0;
    };
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent || '';
      if (!bare(text)) continue;
      const parent = n.parentElement;
      if (!parent || !visible(parent) || parent.closest('script, style, noscript')) continue;
      if (parent.closest('[translate="no"]')) continue; // a player's name
      if (text.includes(open) || text.includes(close)) continue;
      // A text between the markers of a sentence its element (or an ancestor) holds.
      let el = parent, ok = false;
      for (let depth = 0; el && depth < 4 && !ok; depth++, el = el.parentElement) {
        const whole = el.textContent || '';
        const at = whole.indexOf(text);
        ok = at >= 0 && inside(whole, at);
      }
      if (!ok) found.push(text.trim().slice(0, 80));
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (!visible(el)) continue;
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v && bare(v) && !v.includes(open)) found.push(`${a}="${v.slice(0, 60)}"`);
      }
    }
    return [...new Set(found)];
  }, { allowed, open: PSEUDO_OPEN, close: PSEUDO_CLOSE });
}
