// cardcassonne_board.test.mjs -- the Cardcassonne board tells the game as
// the engine told it.  A whole game against a bot, the human seat played
// through a second socket of the same seat while the page watches: at every
// turn of the seat, the page's scoring panel holds exactly the events of
// the accounts since the latest round's `scoring_started` (each item, its
// sentence in the catalog's words, the points per seat, the cards named),
// the rows show what the engine's view for the seat shows (a face-down card
// never face up, no other card named), and the page names no card the seat
// may not see; at the end, the final round and the end of the game; in the
// replay, a scoring position made anew from its one account.  Then: a
// bot's card marked on arrival until the seat's own move; the board in the
// pseudo-language without a word outside the catalog; in Dutch, Dutch card
// names; the tip of a card on hover, keyboard focus and tap; the layout at
// 1280×800 and 390×844 (no sideways scrolling, touch targets of 44 px).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { tmpdir } from 'node:os';
import { webServer, launch, newPage, newTable, waitSeq, waitTurn, tableState, cardcassonneMove,
  genericMove, pageText, unmarkedTexts, pseudoWeb, assertNoErrors, stopAll, prng, fetchRecord,
  replayViews, secretsOf, leaked, WAIT, WEB } from './helpers.mjs';
import { Client, join, playOut, replaySteps } from '../server/helpers.mjs';
import { Catalog } from '../../web/words/catalog.mjs';

let server, browser;

/**
 * A socket at the page's seat, as the page's player: the page's guest has
 * claimed the seat, so its link seats nobody else (docs/club.md, "Seats").
 */
async function joinSeat(server, page, table, token) {
  const login = (await page.context().cookies()).find((c) => c.name === 'tafel_session');
  assert.ok(login, 'the page plays as a guest of its own');
  const client = await Client.connect(server, { cookie: `tafel_session=${login.value}` });
  return { client, state: await join(client, table, token) };
}
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** A language's catalog as the page reads it, in node (the same class). */
function catalogOf(lang) {
  const read = (l, part) => JSON.parse(readFileSync(joinPath(WEB, 'i18n', l, `${part}.json`), 'utf8'));
  const parts = ['common', 'cardcassonne', 'cardcassonne.page'];
  const tables = parts.map((p) => read(lang, p));
  if (lang !== 'en') tables.push(...parts.map((p) => read('en', p)));
  return new Catalog(lang, 'cardcassonne', tables);
}
const EN = catalogOf('en');

/** What the page shows: its action count, scoring panel, rows, hand and every text. */
async function snapshot(page) {
  const shown = await page.evaluate(() => {
    const app = document.getElementById('app');
    const panel = document.querySelector('.cc-scoring');
    const rows = {};
    for (const r of document.querySelectorAll('.cc-row')) {
      rows[r.dataset.row] = [...r.querySelectorAll(':scope .cc-row-cards > [data-entry]')].map((e) =>
        e.dataset.entry === 'card' ? e.dataset.card
          : e.dataset.entry === 'back' ? `back:${e.dataset.down}`
            : e.dataset.entry === 'follower' ? `follower:${e.dataset.follower}` : 'taken');
    }
    const scoring = panel && {
      round: Number(panel.dataset.round), stage: panel.dataset.stage,
      items: [...panel.querySelectorAll('[data-kind]')].map((li) => ({
        kind: li.dataset.kind, seat: li.dataset.seat ?? null, gained: li.dataset.gained ?? null,
        text: (li.querySelector('.cc-score-text') ?? li).textContent.trim() })),
      totals: Object.fromEntries([...panel.querySelectorAll('.cc-scoring-seat')]
        .map((s) => [s.dataset.seat, Number(s.dataset.total)])),
      cards: [...panel.querySelectorAll('[data-card]')].map((c) => c.dataset.card),
    };
    return { actions: Number(app?.dataset.actions ?? -1), seq: Number(app?.dataset.seq ?? -1),
      status: app?.dataset.status, scoring, rows,
      hand: [...document.querySelectorAll('.cc-hand-card')].map((b) => b.dataset.card) };
  });
  return { ...shown, text: await pageText(page) };
}

/**
 * The scoring the page must show after `upto` actions, from the accounts
 * (`tafel replay --step --json --seat 0`) of the actions `from`..`upto`: the
 * events from the latest `scoring_started` on, up to its `round_over`, and
 * after the last round's the end of the game.  null: no scoring yet.
 */
function expectedScoring(steps, from, upto) {
  const events = steps.filter((s) => s.n >= from && s.n <= upto).flatMap((s) => s.events);
  let start = -1;
  events.forEach((ev, i) => { if (ev.kind === 'scoring_started') start = i; });
  if (start < 0) return null;
  const out = [];
  for (const ev of events.slice(start)) {
    out.push(ev);
    if (ev.kind === 'round_over' && ev.round < ev.rounds) break;
  }
  return out;
}

const key = (kind, seat, gained, text) => `${kind}|${seat ?? ''}|${gained ?? ''}|${text}`;

/** Asserts the page's panel holds exactly the events, said in the catalog's words. */
function assertScoring(shown, events, where) {
  assert.ok(shown, `${where}: a scoring panel`);
  const want = events.map((ev) => key(ev.kind, typeof ev.seat === 'number' ? String(ev.seat) : null,
    typeof ev.seat === 'number' ? String(Array.isArray(ev.points) ? ev.points[ev.seat] : 0) : null,
    EN.event(ev))).sort();
  const got = shown.items.map((i) => key(i.kind, i.seat, i.gained, i.text)).sort();
  assert.deepEqual(got, want, `${where}: the scoring panel shows the account's events`);
  const totals = {};
  for (const ev of events) {
    (ev.points ?? []).forEach((p, s) => { totals[s] = (totals[s] ?? 0) + p; });
    if (typeof ev.seat === 'number') totals[ev.seat] ??= 0;
  }
  for (const [s, total] of Object.entries(shown.totals)) {
    assert.equal(total, totals[s] ?? 0, `${where}: ${s}'s points in the panel`);
  }
  const cards = events.flatMap((ev) => ev.kind === 'cards_secured' ? ev.cards
    : ev.kind === 'face_down_shown' && ev.card !== '?' ? [ev.card] : []).sort();
  assert.deepEqual([...shown.cards].sort(), cards, `${where}: the cards the panel shows are the account's`);
}

/** The rows of the engine's view, as the snapshot reads the page's. */
function viewRows(view) {
  const out = {};
  for (const [row, entries] of Object.entries(view.rows)) {
    out[row] = entries.map((e) => e.follower !== undefined ? `follower:${e.follower}`
      : e.taken ? 'taken' : e.card ? e.card : `back:${e.down}`);
  }
  return out;
}

test('round scorings and the final one, as the accounts tell them; rows as the view shows them', async () => {
  const t = await newTable(server, 'cardcassonne(players=2)', ['human', 'greedy'], 21);
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(t.url(0));
  await page.locator('.cc-rows').waitFor({ timeout: WAIT });
  // the cards a scoring takes, seen going: count the ghosts drawn
  await page.evaluate(() => {
    window.ccLeaving = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n instanceof Element) window.ccLeaving += n.querySelectorAll('.cc-leaving [data-card], .cc-leaving .cc-back').length;
        }
      }
    }).observe(document.getElementById('board'), { subtree: true, childList: true });
  });
  const firstActions = (await snapshot(page)).actions;
  const driver = await joinSeat(server, page, t.table, t.tokens[0]);
  const snaps = [];
  await playOut([driver], {
    rng: prng(5),
    beforeMove: async (_, s) => {
      await waitSeq(page, s.seq - 1);
      snaps.push(await snapshot(page));
    },
  });
  await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over', null, { timeout: WAIT });
  await page.waitForFunction(() => document.querySelector('.cc-scoring')?.dataset.stage === 'final', null,
    { timeout: WAIT });
  snaps.push(await snapshot(page));
  driver.client.close();

  const { text } = await fetchRecord(server, t.table);
  const steps = await replaySteps(text, 0);
  const views = { 0: await replayViews(text, 0), 1: await replayViews(text, 1) };
  const secrets = secretsOf(views, [0, 1]);
  const rounds = new Set();
  let live = 0;
  for (const snap of snaps) {
    const where = `after ${snap.actions} actions`;
    const events = expectedScoring(steps, firstActions + 1, snap.actions);
    if (events === null) assert.equal(snap.scoring, null, `${where}: no scoring yet`);
    else {
      assertScoring(snap.scoring, events, where);
      if (snap.scoring.stage === 'over') rounds.add(snap.scoring.round);
      if (snap.scoring.stage === 'live') live++;
    }
    const view = views[0][snap.actions].view;
    assert.deepEqual(snap.rows, viewRows(view), `${where}: the rows as the engine's view for the seat`);
    if (snap.status !== 'over') assert.deepEqual(snap.hand, view.seats[0].hand, `${where}: the hand`);
    assert.deepEqual(leaked(snap.text, secrets(0, snap.actions)), [], `${where}: no hidden card named`);
  }
  assert.ok(rounds.size >= 5, `round scorings checked mid-game: ${[...rounds]}`);
  const last = snaps[snaps.length - 1];
  assert.equal(last.scoring.stage, 'final');
  const kinds = new Set(last.scoring.items.map((i) => i.kind));
  for (const k of ['round_over', 'buildings_scored', 'game_over']) assert.ok(kinds.has(k), `the final scoring tells ${k}`);
  assert.ok(await page.evaluate(() => window.ccLeaving) > 0, 'cards were seen leaving the rows');
  console.log(`# ${snaps.length} positions checked: rounds ${[...rounds]} scored, ${live} with a scoring going on`);

  // the replay: a scoring position, its view made anew, tells that action's account
  const n = steps.find((s) => s.n > firstActions && s.events.some((ev) => ev.kind === 'scoring_started')).n;
  await page.getByRole('button', { name: 'Replay move by move' }).click();
  await page.locator('.replay-body input[type="range"]').fill(String(n));
  await page.waitForFunction((s) => document.querySelector('.replay-status')?.getAttribute('data-step') === String(s)
    && document.querySelector('.board')?.classList.contains('replaying'), n, { timeout: WAIT });
  await page.waitForFunction((r) => document.querySelector('.cc-scoring')?.dataset.round === String(r),
    steps[n - 1].events.find((ev) => ev.kind === 'scoring_started').round, { timeout: WAIT });
  const replayed = await snapshot(page);
  assertScoring(replayed.scoring, expectedScoring(steps, n, n), `the replay at action ${n}`);
  assert.deepEqual(replayed.rows, viewRows(views[0][n].view), `the replay at action ${n}: the rows`);
  assertNoErrors(page);
  await page.context().close();
});

test("a bot's card is marked on arrival until the seat's own move", async () => {
  // Blue deals, so Red plays first: the page sees each of Blue's moves arrive
  const t = await newTable(server, 'cardcassonne(players=2,dealer=1)', ['human', 'greedy'], 4);
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(t.url(0));
  const rng = prng(2);
  assert.equal(await waitTurn(page), 'mine');
  // a second socket of the page's player at its seat (its join redraws the
  // page: cardcassonneMove chooses a card again when a redraw let go of it)
  const watcher = await joinSeat(server, page, t.table, t.tokens[0]);
  assert.equal(await page.locator('[data-arrived]').count(), 0, 'nothing arrived before any move');
  for (let k = 0; k < 3; k++) {
    // a redraw between choosing a card and clicking may swallow a click: try again
    let moved = false;
    for (let attempt = 0; attempt < 3 && !moved; attempt++) moved = await cardcassonneMove(page, rng);
    assert.ok(moved, 'a move by clicks');
    assert.equal(await waitTurn(page), 'mine');
    const seq = (await tableState(page)).seq;
    const state = await watcher.client.latestState(seq);
    const last = state.view.seats[1].last;
    const marked = page.locator('[data-arrived="1"]');
    await marked.first().waitFor({ timeout: WAIT });
    assert.equal(await marked.count(), 1, "one mark: Blue's move since Red's");
    assert.equal(await marked.getAttribute('data-key'), `entry-${last.row}-${last.index}`,
      "the mark is on Blue's last entry, as the engine's view says");
    assert.match(await marked.getAttribute('class'), /cc-arrived/);
    assert.match(await marked.getAttribute('class'), /cc-arrive\b/, 'it came in moving');
    assert.equal(await marked.locator('.cc-last-tag').textContent(), 'Blue');
  }
  // Red's own move clears the mark: the state of Red's move has none
  // (seen when the page has drawn that state, before the next one: a task each)
  const seen = page.evaluate(() => new Promise((resolve) => {
    const app = document.getElementById('app');
    const before = Number(app.dataset.seq);
    new MutationObserver((_, observer) => {
      if (Number(app.dataset.seq) !== before + 1) return;
      observer.disconnect();
      resolve(document.querySelectorAll('[data-arrived]').length);
    }).observe(app, { attributes: true, attributeFilter: ['data-seq'] });
  }));
  assert.ok(await cardcassonneMove(page, rng));
  assert.equal(await seen, 0, "after Red's move no mark of before stays");
  watcher.client.close();
  assertNoErrors(page);
  await page.context().close();
});

/** Plays by clicks until the page shows a round scoring panel open on top; onTurn(k) at each turn. */
async function playToScoring(page, rng, onTurn = async () => {}) {
  for (let k = 0; k < 200; k++) {
    if (await page.locator('.cc-scoring-fresh').count()) return;
    assert.equal(await waitTurn(page), 'mine');
    await onTurn(k);
    if (await page.locator('.cc-scoring-fresh').count()) return;
    if (!(await cardcassonneMove(page, rng))) await genericMove(page, rng);
  }
  assert.fail('no round scoring in 200 moves');
}

test('the board in the pseudo-language: every word from the catalog', async () => {
  const web = pseudoWeb();
  const qps = await webServer({ web });
  const t = await newTable(qps, 'cardcassonne(players=3)', ['human', 'greedy', 'random'], 9);
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${t.url(0)}&lang=qps`);
  await page.locator('.cc-rows').waitFor({ timeout: WAIT });
  // only the board is asked about: hide the rest of the page from the finder
  await page.addStyleTag({ content: 'body * { visibility: hidden !important; } #board, #board * { visibility: visible !important; }' });
  const rng = prng(8);
  const found = new Set();
  const look = async (where) => {
    for (const text of await unmarkedTexts(page)) found.add(`${where}: ${text}`);
  };
  assert.equal(await waitTurn(page), 'mine');
  await look('first turn');
  const hand = page.locator('.cc-hand-card:not([disabled])');
  if (await hand.count()) {
    await hand.first().click();
    await look('a card chosen');
  }
  await page.locator('.cc-row [data-entry="card"]').first().hover();
  await page.locator('.cc-tip:not([hidden])').waitFor({ timeout: WAIT });
  await look('a card\'s tip');
  await playToScoring(page, rng, (k) => look(`turn ${k}`));
  await page.locator('.cc-seat').first().hover();   // no tip over the panel
  await look('a round scoring');
  assert.deepEqual([...found], [], 'texts of the board not from the catalog');
  assertNoErrors(page);
  await page.context().close();
});

test('in Dutch: Dutch card names, rows and the tip', async () => {
  const nl = catalogOf('nl');
  const t = await newTable(server, 'cardcassonne(players=2)', ['human', 'greedy'], 3);
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${t.url(0)}&lang=nl`);
  assert.equal(await waitTurn(page), 'mine');
  const card = page.locator('.cc-hand-card').first();
  const code = await card.getAttribute('data-card');
  const name = nl.text(`cardcassonne.cards.${code}`);
  assert.notEqual(name, EN.text(`cardcassonne.cards.${code}`), 'the Dutch name differs from the English one');
  assert.equal(await card.getAttribute('aria-label'), name);
  await card.hover();
  const tip = page.locator('.cc-tip:not([hidden])');
  await tip.waitFor({ timeout: WAIT });
  assert.equal((await tip.locator('.cc-tip-name').textContent()), name);
  assert.match(await tip.textContent(), new RegExp(nl.text(`cardcassonne.card_text.${code}`).slice(0, 30)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  const body = await page.locator('#board').textContent();
  assert.ok(body.includes('Gele rij (klooster)'), 'the rows are named in Dutch');
  assert.ok(body.includes(nl.text('cardcassonne.page.hand.title', { count: await page.locator('.cc-hand-card').count() })));
  assertNoErrors(page);
  await page.context().close();
});

test('card tips on focus and tap; the layout at 1280×800 and 390×844', async () => {
  const shots = [];
  for (const [width, height, name] of [[1280, 800, 'wide'], [390, 844, 'phone']]) {
    // a table each: a seat is its first browser's (docs/club.md, "Seats")
    const t = await newTable(server, 'cardcassonne(players=2)', ['human', 'greedy'], 11);
    const phone = width < 500;
    const context = await browser.newContext({ viewport: { width, height },
      ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
    const page = await newPage(browser, { context });
    await page.goto(t.url(0));
    assert.equal(await waitTurn(page), 'mine');
    await page.locator('.cc-row [data-entry="card"]').first().waitFor({ timeout: WAIT });
    const tip = page.locator('.cc-tip:not([hidden])');
    const tipInside = async (where) => {
      await tip.waitFor({ timeout: WAIT });
      const box = await tip.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${where}: the tip is inside the screen`);
      // never over the page's header or the turn banner
      const ceiling = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('header.top, section.head')]
        .map((e) => e.getBoundingClientRect().bottom)));
      assert.ok(box.y >= ceiling, `${where}: the tip (top ${Math.round(box.y)}) below the banner (${Math.round(ceiling)})`);
      assert.ok((await tip.locator('p').first().textContent()).length > 20, `${where}: the card's text`);
    };
    if (phone) {
      // a tap shows the tip, a second tap hides it
      const cards = page.locator('.cc-row [data-entry="card"]');
      await cards.last().tap();
      await tipInside('a tap');
      await cards.last().tap();
      await page.locator('.cc-tip').waitFor({ state: 'hidden', timeout: WAIT });
    } else {
      // the keyboard: a row's card focused shows its tip; the arrows go along the row
      const row = await page.evaluate(() => [...document.querySelectorAll('.cc-row')]
        .find((r) => r.querySelectorAll(':scope .cc-row-cards > [data-entry]').length >= 2)?.dataset.row);
      const first = page.locator(`.cc-row[data-row="${row}"] [data-entry][tabindex="0"]`);
      await first.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.key), await first.getAttribute('data-key'));
      await tipInside('keyboard focus');
      await page.keyboard.press('Escape');
      await page.locator('.cc-tip').waitFor({ state: 'hidden', timeout: WAIT });
    }
    const rng = prng(6);
    for (let k = 0; k < 4; k++) {
      assert.equal(await waitTurn(page), 'mine');
      if (!(await cardcassonneMove(page, rng))) await genericMove(page, rng);
    }
    assert.equal(await waitTurn(page), 'mine');
    await page.locator('.cc-hand-card:not([disabled])').first().click();
    const [scrollWidth, clientWidth] = await page.evaluate(() =>
      [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(scrollWidth <= clientWidth, `${name}: no sideways scrolling (${scrollWidth} > ${clientWidth})`);
    if (phone) {
      const small = await page.evaluate(() => [...document.querySelectorAll(
        '.cc-hand-card:not([disabled]), button.cc-target, .cc-decision button, .cc-scoring summary')]
        .map((b) => b.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44)
        .map((r) => `${Math.round(r.width)}×${Math.round(r.height)}`));
      assert.deepEqual(small, [], 'touch targets of 44×44 px at least');
    }
    const mid = joinPath(tmpdir(), `cardcassonne-board-${name}.png`);
    await page.screenshot({ path: mid });
    await playToScoring(page, rng);
    const scoring = joinPath(tmpdir(), `cardcassonne-board-${name}-scoring.png`);
    await page.screenshot({ path: scoring });
    shots.push(mid, scoring);
    // less motion asked for: nothing moves (the lit rows glow otherwise)
    assert.equal(await waitTurn(page), 'mine');
    const target = page.locator('button.cc-target').first();
    if (!(await target.count())) await page.locator('.cc-hand-card:not([disabled])').first().click();
    const glow = () => target.evaluate((el) => getComputedStyle(el).animationName);
    assert.equal(await glow(), 'cc-glow');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    assert.equal(await glow(), 'none');
    assertNoErrors(page);
    await context.close();
  }
  console.log(`# screenshots: ${shots.join(' ')}`);
});
