// carcassonne_board.test.mjs -- the Carcassonne board tells the game as it
// is played (issue 24): a city completed by a click lights up whole, its
// points rise over it in the scorer's colour, its followers go home and the
// scores change; pointing at a follower spot (or focusing it) lights the
// feature it belongs to; a hinted move is ghosted on the board; the end
// scoring can be pointed at line by line; on a 390x844 phone the tile, turn
// and lay are on the first screen and every control and follower spot is a
// finger's size; in the pseudo-language nothing on the board is unmarked.
//
// Positions come from the server alone: a table of two people is played
// through the protocol (tests/server/helpers.mjs) with a seeded choice of
// moves until seat 0's follower decision scores a city; a second table with
// the same seed is played the same way up to that turn, and the page plays
// the completing tile by clicks.  What the board shows is checked against
// the engine's own facts (the accounts' segments, the view's features).
//
// CARC_SHOTS=DIR saves screenshots of the scoring moment there.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join as joinPath } from 'node:path';
import { readFileSync } from 'node:fs';
import { Catalog } from '../../web/words/catalog.mjs';
import { webServer, launch, newPage, newTable, waitTurn, waitSeq, tableState, playByClicks,
  assertNoErrors, stopAll, prng, pseudoWeb, PSEUDO_OPEN, PSEUDO_CLOSE, WAIT, ROOT,
  screenshot } from './helpers.mjs';
import { Client, twoPeople, change, join } from '../server/helpers.mjs';

const GAME = 'carcassonne(players=2)';
const SEED = 5;
const PHONE = { width: 390, height: 844 };

/** The page's English catalog, read from web/i18n as the page reads it. */
function englishCatalog() {
  const root = joinPath(ROOT, 'web', 'i18n');
  const parts = JSON.parse(readFileSync(joinPath(root, 'parts.json'), 'utf8'));
  const tables = ['common', ...parts.carcassonne].map((p) =>
    JSON.parse(readFileSync(joinPath(root, 'en', `${p}.json`), 'utf8')));
  return new Catalog('en', 'carcassonne', tables);
}
const DESK = { width: 1280, height: 800 };

let server, browser, plan;
before(async () => {
  server = await webServer();
  browser = await launch();
  plan = await findCityCompletion(SEED);
});
after(async () => {
  await browser?.close();
  await stopAll();
});

// ---------------------------------------------------------------- positions

/**
 * Plays a table of two people by the protocol: at each step the seat to
 * move plays choose(legal, seat); stop(move) after a move ends it.  Returns
 * the moves ({seat, action, events: the accounts the mover's socket got}).
 */
async function drive(players, choose, stop, limit = 400) {
  const moves = [];
  const states = players.map((p) => p.state);
  let seq = Math.max(...states.map((s) => s.seq));
  for (let n = 0; n < limit; n++) {
    for (const [i, p] of players.entries()) {   // each socket's newest state, at seq at least
      for (const st of p.client.takeStates()) if (st.seq >= states[i].seq) states[i] = st;
      if (states[i].seq < seq) states[i] = await p.client.latestState(seq);
    }
    if (states[0].status === 'over') return moves;
    const seat = states.findIndex((s) => (s.legal || []).length > 0);
    assert.ok(seat >= 0, 'a seat is to move');
    const action = choose(states[seat].legal, seat);
    const { state } = await change(players[seat].client, { type: 'move', seq, action });
    seq = state.seq;
    states[seat] = state;
    const move = { seat, action, events: state.events.flatMap((a) => a.events) };
    moves.push(move);
    if (stop && stop(move, moves)) return moves;
  }
  throw new Error(`no end after ${limit} moves`);
}

/** Seat 0 puts knights in cities when it can, seat 1 no follower; the rest at random. */
function chooser(rng) {
  return (legal, seat) => {
    const knights = legal.filter((a) => a.startsWith('follower city'));
    if (seat === 0 && knights.length && rng() < 0.9) return knights[Math.floor(rng() * knights.length)];
    if (seat === 1 && legal.includes('pass') && legal.some((a) => a.startsWith('follower'))) return 'pass';
    return legal[Math.floor(rng() * legal.length)];
  };
}

/**
 * The first seeded game (seeds from `first` on) in which seat 0's follower
 * decision scores a city for seat 0, up to that turn: { seed, before: the
 * moves up to its `place`, place, decide (the follower action or pass),
 * events: the accounts of the decision }.
 */
async function findCityCompletion(first) {
  const scores = (m) => m.seat === 0 && m.events.some((e) => e.kind === 'city_scored' && e.points[0] > 0);
  for (let seed = first; seed < first + 40; seed++) {
    const { players } = await twoPeople(server, GAME, seed);
    const moves = await drive(players, chooser(prng(seed)), scores);
    for (const p of players) p.client.close();
    const last = moves.length - 1;
    if (!scores(moves[last])) continue;   // the game ended first
    assert.ok(moves[last - 1].action.startsWith('place '), `${moves[last - 1].action} before the decision`);
    return {
      seed,
      before: moves.slice(0, last - 1).map((m) => m.action),
      place: moves[last - 1].action,
      decide: moves[last].action,
      events: moves[last].events,
    };
  }
  throw new Error('no seeded game where seat 0 completes a city of its own');
}

/** A table of the same seed played up to seat 0's placing turn of the plan: { url, watcher }. */
async function tableAtPlan() {
  const { created, players } = await twoPeople(server, GAME, plan.seed);
  let i = 0;
  await drive(players, (legal) => {
    const action = plan.before[i++];
    assert.ok(legal.includes(action), `${action} is legal again (the same seed draws the same tiles)`);
    return action;
  }, (m, moves) => moves.length === plan.before.length);
  for (const p of players) p.client.close();
  const watcher = await Client.connect(server);
  await join(watcher, created.table);
  return { url: `${server.base}t/${created.table}?token=${created.tokens[0]}`, watcher };
}

// ---------------------------------------------------------------- the page

/**
 * Drags the board until the element lies in its middle, as a player pans
 * to a place the screen does not show (a phone shows part of a large board).
 */
async function panTo(page, locator) {
  const board = await page.locator('svg.carc-board').boundingBox();
  const el = await locator.boundingBox();
  const m = 24;   // clear of the edge (and its zoom buttons' column)
  const inside = el.x >= board.x + m && el.y >= board.y + m && el.y + el.height <= board.y + board.height - m
    && el.x + el.width <= board.x + board.width - 2 * m;
  if (inside) return;
  // from a corner of the board clear of the zoom buttons
  const x0 = board.x + 12, y0 = board.y + board.height - 12;
  const dx = board.x + board.width / 2 - (el.x + el.width / 2);
  const dy = board.y + board.height / 2 - (el.y + el.height / 2);
  if (!page.touch) {
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    await page.mouse.move(x0 + dx, y0 + dy, { steps: 10 });
    await page.mouse.up();
    return;
  }
  // a finger: the touch events of the DevTools protocol (playwright only taps)
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, k) => cdp.send('Input.dispatchTouchEvent', { type,
    touchPoints: type === 'touchEnd' ? [] : [{ x: x0 + dx * k, y: y0 + dy * k }] });
  await touch('touchStart', 0);
  for (let k = 1; k <= 10; k++) await touch('touchMove', k / 10);
  await touch('touchEnd', 1);
  await cdp.detach();
}

/** Chooses the place of action `place X Y R` on the board and turns the tile to R. */
async function choosePlace(page, action) {
  const [, x, y] = action.split(' ');
  const place = page.locator(`.carc-l-places .carc-place[data-place="${x},${y}"]`);
  await panTo(page, place);
  await place.click();
  const confirm = page.locator('button.carc-b-confirm');
  for (let k = 0; k < 4 && (await confirm.getAttribute('data-action')) !== action; k++)
    await page.locator('button.carc-b-rotate').click();
  assert.equal(await confirm.getAttribute('data-action'), action);
}

/** Clicks what plays `action` in the follower phase: its spot, or the pass button. */
function decisionControl(page, action) {
  return action === 'pass' ? page.locator('.carc-choices button.carc-b-action[data-action="pass"]')
    : page.locator(`.carc-l-spots .carc-fspot[data-action="${action}"]`);
}

/** "x,y,city N" of each segment of a list [x, y, "city N"]. */
const keysOf = (segments) => segments.map((s) => `${s[0]},${s[1]},${s[2]}`).sort();

/** The data-seg of the elements of a locator, sorted. */
const segsOf = (locator) => locator.evaluateAll((els) => els.map((e) => e.getAttribute('data-seg')).sort());

/** The seats' scores as the table's header shows them. */
const headerScores = (page) => page.locator('.seats .seat .score').allTextContents();

async function shot(page, name) {
  if (process.env.CARC_SHOTS) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: joinPath(process.env.CARC_SHOTS, `${name}.png`) });
  }
}

for (const [size, viewport] of [['wide', DESK], ['phone', PHONE]]) {
  test(`a city completed by a click lights up, its points rise, its followers go home (${size})`, async () => {
    const { url, watcher } = await tableAtPlan();
    watcher.close();
    const context = await browser.newContext({ viewport, isMobile: size === 'phone', hasTouch: size === 'phone' });
    const page = await newPage(browser, { context });
    page.touch = size === 'phone';
    // the phone asks for less motion: the same things shown, standing still
    if (size === 'phone') await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(url);
    assert.equal(await waitTurn(page), 'mine');
    const scoresBefore = (await headerScores(page)).map(Number);
    const s0 = await tableState(page);
    await choosePlace(page, plan.place);
    await page.locator('button.carc-b-confirm').click();
    await waitSeq(page, s0.seq);
    assert.equal(await waitTurn(page), 'mine');

    // the click that completes the city
    const s1 = await tableState(page);
    const decision = decisionControl(page, plan.decide);
    if (plan.decide !== 'pass') await panTo(page, decision);
    await decision.click();
    await waitSeq(page, s1.seq);
    const scored = plan.events.find((e) => e.kind === 'city_scored');
    const lit = page.locator('.carc-l-score .carc-scored[data-kind="city_scored"]');
    await lit.first().waitFor({ state: 'attached' });
    const home = plan.events.filter((e) => e.kind === 'followers_returned')
      .reduce((n, e) => n + e.count, 0);
    assert.ok(home > 0, 'the city had followers');
    assert.equal(await page.locator('.carc-l-score .carc-going-home .carc-ghost-home').count(), home,
      'each follower of the city is seen going home');
    assert.deepEqual(await segsOf(lit.first().locator('.carc-seg')), keysOf(scored.segments),
      'every segment of the city is lit');
    const rise = lit.first().locator('.carc-rise text[data-seat="0"]');
    assert.equal(await rise.textContent(), `+${scored.points[0]}`);
    assert.equal(await rise.getAttribute('fill'),
      await page.locator('.carc-player').first().locator('path').getAttribute('fill'),
      "the points rise in the scorer's colour, the colour of its followers");
    assert.equal(await rise.evaluate((e) => getComputedStyle(e).animationName),
      size === 'phone' ? 'none' : 'carc-rise', 'the points rise, unless less motion is asked for');
    await shot(page, `carcassonne-scoring-${size}`);
    if (size === 'wide') await screenshot(page, 'carcassonne-scoring');
    // the log says it in words, with the points: the catalog's sentence of the event
    const said = englishCatalog().event(scored);
    assert.match(said, new RegExp(`Red scores ${scored.points[0]} points`));
    await page.waitForFunction((s) => document.querySelector('ol.log:not(.replay-log)')?.textContent
      ?.includes(s), said, { timeout: WAIT });
    // the scores: the table's header, and the board's own list of players
    await page.waitForFunction(([before, points]) => {
      const s = document.querySelectorAll('.seats .seat .score');
      return s.length && Number(s[0].textContent) === before + points;
    }, [scoresBefore[0], scored.points[0]], { timeout: WAIT });
    assert.equal(Number(await page.locator('.carc-player .carc-pscore').first().textContent()),
      scoresBefore[0] + scored.points[0]);
    assertNoErrors(page);
    await context.close();
  });
}

/** Seat 0's page (wide) at a table against the random bot, and a spectator's socket. */
async function redAgainstRandom(seed) {
  const t = await newTable(server, GAME, ['human', 'random'], seed);
  const watcher = await Client.connect(server);
  await join(watcher, t.table);
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(t.url(0));
  return { watcher, page };
}

test('pointing at a follower spot, or focusing it, lights the whole feature it belongs to', async () => {
  const { watcher, page } = await redAgainstRandom(3);
  let checked = 0, joined = 0;
  await playByClicks(page, 'carcassonne', {
    rng: prng(4), viewShare: 1,
    until: async () => {
      const spots = page.locator('.carc-l-spots .carc-fspot');
      if (!(await spots.count())) return false;
      const { seq } = await tableState(page);
      const view = (await watcher.latestState(seq)).view;
      const featureOf = new Map();
      for (const f of view.features) for (const k of keysOf(f.segments)) featureOf.set(k, keysOf(f.segments));
      for (let i = 0; i < await spots.count(); i++) {
        const spot = spots.nth(i), seg = await spot.getAttribute('data-seg');
        const want = featureOf.get(seg);
        assert.ok(want, `the spot's segment ${seg} is in one of the engine's features`);
        if (i % 2) await spot.focus(); else await spot.hover();
        assert.deepEqual(await segsOf(page.locator('.carc-l-hover .carc-hl .carc-seg')), want,
          `the feature of ${seg} lit, all of it`);
        checked++;
        joined += want.length > 1;
      }
      await page.mouse.move(0, 0);
      await page.evaluate(() => document.activeElement?.blur());
      return joined >= 3;
    },
  });
  assert.ok(joined >= 3, `features of several tiles lit (${checked} spots pointed at)`);
  assert.equal(await page.locator('.carc-l-hover .carc-seg').count(), 0, 'nothing lit once nothing is pointed at');
  assertNoErrors(page);
  watcher.close();
  await page.context().close();
});

test("the other seat's tile arrives, and stays marked until this seat's own next move", async () => {
  const { watcher, page } = await redAgainstRandom(4);
  await playByClicks(page, 'carcassonne', { rng: prng(2), viewShare: 1, until: async (n) => n >= 2 });
  assert.equal(await waitTurn(page), 'mine');
  const { seq } = await tableState(page);
  const board = (await watcher.latestState(seq)).view.board;
  const theirs = board.at(-1);   // blue's tile, laid since red's last move
  const key = `${theirs.x},${theirs.y},${theirs.tile},${theirs.rotation}`;
  assert.equal(await page.locator(`.carc-l-tiles > g[data-key="${key}"] .carc-arrive`).count(), 1,
    'it arrived with a drop');
  const frame = page.locator('.carc-l-marks .carc-last.carc-recent');
  assert.equal(await frame.count(), 1, 'one tile is new to red');
  assert.equal(await frame.getAttribute('transform'), `translate(${theirs.x * 100},${-theirs.y * 100})`);
  await page.locator('.carc-l-places .carc-place').first().click();
  assert.equal(await frame.count(), 1, 'choosing a place is no move yet');
  await page.locator('button.carc-b-confirm').click();
  await waitSeq(page, seq);
  assert.equal(await frame.count(), 0, "red's own move: blue's tile is no longer new");
  assertNoErrors(page);
  watcher.close();
  await page.context().close();
});

test('a log line says where in words; pointing, a tap or the arrows light the spot', async () => {
  const { watcher, page } = await redAgainstRandom(6);
  await playByClicks(page, 'carcassonne',
    { rng: prng(6), viewShare: 1, until: async (n) => n >= 4 });
  assert.equal(await waitTurn(page), 'mine');
  const { seq } = await tableState(page);
  const board = (await watcher.latestState(seq)).view.board;
  const last = board.at(-1);   // the latest tile laid: blue's
  const lines = page.locator('.log-panel ol.log li');
  const texts = await lines.allTextContents();
  assert.ok(texts.every((s) => !/\(-?\d+, -?\d+\)/.test(s)),
    `no coordinates: ${texts.join(' | ')}`);
  const laying = page.locator('.log-panel ol.log li.placed', { hasText: ' lays the ' });
  assert.ok(await laying.count() >= 4, 'each laying line names a place');
  // and shows the tile it laid, small, turned as it lies (the board's own drawing)
  const pic = laying.last().locator('svg.log-pic');
  assert.equal(await pic.getAttribute('aria-label'),
    englishCatalog().text(`carcassonne.tile.${last.tile}`));
  assert.equal(await pic.locator('g.carc-tile').getAttribute('data-tile'), last.tile);
  const lit = page.locator('.carc-l-hover .carc-log-tile');
  const at = async () => [Number(await lit.getAttribute('x')), Number(await lit.getAttribute('y'))];

  await laying.last().hover();
  assert.equal(await lit.count(), 1, 'the tile of the line is outlined');
  assert.deepEqual(await at(), [last.x * 100, 0 - last.y * 100], 'where the engine says it lies');
  assert.equal(await page.locator('.log-panel ol.log li.lit').count(), 1);
  await page.mouse.move(0, 0);
  assert.equal(await page.locator('.carc-l-hover > *').count(), 0,
    'leaving the log takes the light away');

  // the keyboard: into the list, the arrows go from line to line
  await page.locator('.log-panel ol.log').focus();
  await page.keyboard.press('ArrowUp');
  const focused = await page.evaluate(() => document.activeElement?.classList.contains('lit'));
  assert.ok(focused, 'the focused line is lit');
  assert.ok(await page.locator('.carc-l-hover > *').count() > 0, 'and so is its spot');
  await page.evaluate(() => document.activeElement?.blur());
  assert.equal(await page.locator('.carc-l-hover > *').count(), 0);

  // a tap (a click) on the first laying line lights its tile: the first laid after the start
  await laying.first().click();
  assert.deepEqual(await at(), [board[1].x * 100, 0 - board[1].y * 100]);
  assertNoErrors(page);
  watcher.close();
  await page.context().close();
});

/**
 * The view's hint(action) on a view of its own in the page (the module the
 * table loaded, with the page's catalog), drawn from state: what it draws,
 * the control of that action on the board, and what is left after hint(null).
 */
function hintOnPage(page, state, action) {
  return page.evaluate(async ({ state, action }) => {
    const { createView } = await import('/carcassonne/view.mjs');
    const games = await (await fetch('/api/games')).json();
    const pieces = (games.games || games).find((g) => g.name === 'carcassonne').pieces;
    const root = document.createElement('div');
    document.body.append(root);
    const view = createView(root, { seat: 0, players: 2, names: ['Red', 'Blue'],
      colours: ['#d33b2f', '#2f62c4'], pieces, play: () => {} });
    view.update(state);
    view.hint(action);
    const ghost = root.querySelector(`.carc-l-hint .carc-hint[data-action="${action}"]`);
    const body = ghost?.querySelector('.carc-hint-body');
    const seen = {
      kind: ghost?.classList.contains('carc-hint-tile') ? 'tile' : ghost ? 'follower' : null,
      at: ghost?.getAttribute('transform'),
      turn: ghost?.querySelector('.carc-tile > g')?.getAttribute('transform') ?? null,
      dashed: !!ghost?.querySelector('.carc-hint-box'),
      opacity: body ? Number(getComputedStyle(body).opacity) : null,
      spot: root.querySelector(`.carc-l-spots .carc-fspot[data-action="${action}"]`)?.getAttribute('transform'),
    };
    view.hint(null);
    seen.after = root.querySelectorAll('.carc-l-hint *').length;
    view.destroy();
    root.remove();
    return seen;
  }, { state, action });
}

test('a hinted move is ghosted on the board: the tile at its place and turn, a follower on its spot', async () => {
  const { players, created } = await twoPeople(server, GAME, 8);
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.base}t/${created.table}?token=${created.tokens[1]}`);
  await page.locator('.carc-l-tiles g').first().waitFor({ state: 'attached' });
  const place = players[0].state.legal.find((a) => / 90$/.test(a)) || players[0].state.legal[0];
  const tile = await hintOnPage(page, players[0].state, place);
  const [, x, y, r] = place.split(' ').map(Number);
  assert.equal(tile.kind, 'tile');
  assert.equal(tile.at, `translate(${x * 100},${-y * 100})`, 'at its place');
  assert.equal(tile.turn, r ? `rotate(${r} 50 50)` : null, 'turned as hinted');
  assert.ok(tile.dashed && tile.opacity < 1, 'ghosted: see-through, a dashed outline');
  assert.equal(tile.after, 0, 'hint(null) takes it away');

  // once the tile is laid, a follower action: a ghost follower on that very spot
  const { state } = await change(players[0].client, { type: 'move', seq: players[0].state.seq, action: place });
  const action = state.legal.find((a) => a.startsWith('follower '));
  assert.ok(action, `a follower may go on ${place}`);
  const follower = await hintOnPage(page, state, action);
  assert.equal(follower.kind, 'follower');
  assert.ok(follower.spot && follower.at === follower.spot, `on the spot of ${action}`);
  assert.ok(follower.dashed && follower.opacity < 1, 'ghosted');
  assert.equal(follower.after, 0);
  assertNoErrors(page);
  for (const p of players) p.client.close();
  await page.context().close();
});

test('the end scoring on the panel, line by line: each points at its feature on the board', async () => {
  const t = await newTable(server, GAME, ['random', 'random'], 11);
  const watcher = await Client.connect(server);
  let st = await join(watcher, t.table);
  while (st.status !== 'over') st = await watcher.latestState(st.seq + 1);
  const events = st.view.final_events.filter((e) => Array.isArray(e.segments));
  assert.ok(events.length >= 2, 'the end scored several features');
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(t.watchUrl);
  const lines = page.locator('.carc-final .carc-final-item');
  await lines.first().waitFor();
  assert.equal(await lines.count(), events.length, 'one line an end scoring event');
  for (let i = 0; i < events.length; i++) {
    if (i % 2) await lines.nth(i).focus(); else await lines.nth(i).hover();
    assert.deepEqual(await segsOf(page.locator('.carc-l-hover .carc-hl .carc-seg')), keysOf(events[i].segments),
      `line ${i + 1} lights its feature`);
    assert.match(await lines.nth(i).textContent(), new RegExp(`\\b${Math.max(...events[i].points)}\\b`),
      'the line says the points');
  }
  await lines.last().click();   // a tap keeps it lit
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement?.blur());
  assert.equal(await lines.last().getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await segsOf(page.locator('.carc-l-hover .carc-hl .carc-seg')), keysOf(events.at(-1).segments));
  assertNoErrors(page);
  watcher.close();
  await page.context().close();
});

/** Whether a box lies on the first screen of a phone, without scrolling. */
const onScreen = (b) => b && b.x >= 0 && b.y >= 0 && b.x + b.width <= PHONE.width && b.y + b.height <= PHONE.height;

/** Every box of a locator is at least 44 x 44 (a finger). */
async function fingerSized(locator, what) {
  const n = await locator.count();
  for (let i = 0; i < n; i++) {
    const b = await locator.nth(i).boundingBox();
    assert.ok(b && b.width >= 43.5 && b.height >= 43.5, `${what} ${i + 1} of ${n} is ${JSON.stringify(b)}`);
  }
  return n;
}

test('a phone 390x844: tile, turn and lay on the first screen; controls and follower spots a finger wide, apart', async () => {
  const t = await newTable(server, GAME, ['human', 'random'], 21);
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await newPage(browser, { context });
  await page.goto(t.url(0));
  let placed = false, spotted = false;
  for (let turn = 0; turn < 30 && !(placed && spotted); turn++) {
    assert.equal(await waitTurn(page), 'mine');
    const places = page.locator('.carc-l-places .carc-place');
    // the board draws a state in the next frame: wait for its controls (a busy machine is slow)
    await page.locator('.carc-l-places .carc-place, .carc-choices button.carc-b-action').first().waitFor();
    if (await places.count()) {
      await fingerSized(places, 'a place');
      // a place where the tile turns, so that the turn button shows
      for (let i = 0; i < await places.count(); i++) {
        await places.nth(i).click();
        if (await page.locator('button.carc-b-rotate').count()) break;
        await page.locator('button.carc-b-back').click();
      }
      if (!placed && await page.locator('button.carc-b-rotate').count()) {
        await page.evaluate(() => window.scrollTo(0, 0));
        for (const sel of ['.carc-hand-tile svg', 'button.carc-b-rotate', 'button.carc-b-confirm'])
          assert.ok(onScreen(await page.locator(sel).boundingBox()), `${sel} is on the first screen`);
        await fingerSized(page.locator('.carc-choices button, .carc-zoom button'), 'a button');
        await fingerSized(page.locator('.carc-l-preview .carc-svgbutton'), 'a button on the board');
        await page.screenshot({ path: joinPath(process.env.CARC_SHOTS || '/tmp', 'carcassonne-phone-placing.png') });
        placed = true;
      }
      const s = await tableState(page);
      await page.locator('button.carc-b-confirm').click();
      await waitSeq(page, s.seq);
      continue;
    }
    const spots = page.locator('.carc-l-spots .carc-fspot');
    const n = await spots.count();
    if (n >= 3 && !spotted) {
      await fingerSized(spots, 'a follower spot');
      const centres = [];
      for (let i = 0; i < n; i++) {
        const b = await spots.nth(i).boundingBox();
        assert.ok(b.x >= 0 && b.x + b.width <= PHONE.width, 'the spot is on the screen');
        centres.push({ x: b.x + b.width / 2, y: b.y + b.height / 2, r: Math.min(b.width, b.height) / 2 });
      }
      for (const a of centres) for (const b of centres) {
        if (a === b) continue;
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        assert.ok(d >= a.r + b.r - 0.5, `two spots of one tile overlap: ${d.toFixed(1)} px apart`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await fingerSized(page.locator('.carc-choices button'), 'a button');
      assert.ok(onScreen(await page.locator('.carc-choices button[data-action="pass"]').boundingBox()),
        'no follower is on the first screen');
      await page.screenshot({ path: joinPath(process.env.CARC_SHOTS || '/tmp', 'carcassonne-phone-spots.png') });
      spotted = true;
    }
    const s = await tableState(page);
    await page.locator('.carc-choices button.carc-b-action').first().click();
    await waitSeq(page, s.seq);
  }
  assert.ok(placed && spotted, `checked placing (${placed}) and three follower spots or more (${spotted})`);
  assertNoErrors(page);
  await context.close();
});

/** The texts of #board (text, title, aria-label) that are not inside ⟦…⟧ of a catalog. */
function boardUnmarked(page) {
  return page.evaluate(({ open, close }) => {
    const root = document.getElementById('board');
    const bare = (s) => s.replace(/[\p{N}\p{P}\p{S}\p{Z}\s]/gu, '');
    const inside = (text, i) => {
      const before = text.lastIndexOf(open, i), closed = text.lastIndexOf(close, i - 1);
      return before >= 0 && before > closed && text.indexOf(close, i) >= 0;
    };
    const found = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent || '';
      const parent = n.parentElement;
      if (!bare(text) || !parent || parent.closest('style, script') || text.includes(open)) continue;
      let el = parent, ok = false;   // a part of a sentence an ancestor holds between markers
      for (let depth = 0; el && depth < 4 && !ok; depth++, el = el.parentElement) {
        const whole = el.textContent || '';
        ok = whole.indexOf(text) >= 0 && inside(whole, whole.indexOf(text));
      }
      if (!ok) found.push(text.trim().slice(0, 80));
    }
    for (const el of root.querySelectorAll('[title], [aria-label], [placeholder]'))
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v && bare(v) && !v.includes(open)) found.push(`${a}="${v.slice(0, 60)}"`);
      }
    return [...new Set(found)];
  }, { open: PSEUDO_OPEN, close: PSEUDO_CLOSE });
}

test('in the pseudo-language every text of the board comes from a catalog (play, crop circles, the end)', async () => {
  const qps = await webServer({ web: pseudoWeb() });
  const game = 'carcassonne(players=2,crop_circles=true)';
  const t = await newTable(qps, game, ['human', 'random'], 6);
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${t.url(0)}&lang=qps`);
  const found = new Set();
  const look = async () => { for (const u of await boardUnmarked(page)) found.add(u); };
  await playByClicks(page, 'carcassonne', { rng: prng(9), viewShare: 0.9, until: async (n) => n >= 24,
    onMove: async () => {
      await look();
      const place = page.locator('.carc-l-places .carc-place');   // a chosen place: the bar's buttons
      if (await place.count()) {
        await place.first().click();
        await look();
        await page.locator('button.carc-b-back').click();
      }
    } });
  // the end, seen by a spectator: the final scores and the end scoring lines
  const end = await newTable(qps, game, ['random', 'random'], 6);
  await page.goto(`${end.watchUrl}?lang=qps`);
  await page.locator('.carc-final .carc-final-item').first().waitFor();
  await page.locator('.carc-final .carc-final-item').first().hover();
  await look();
  assert.deepEqual([...found], [], 'texts of the board not taken from a catalog');
  assertNoErrors(page);
  await page.context().close();
});
