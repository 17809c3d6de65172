// local.test.mjs -- tables on this device, from the static site (cmake
// --build build --target site) served by a plain static file server: no
// `tafel serve` anywhere.  The engine runs in the page's worker.
//
// 1. Each game, a whole game against bots by clicks, with the network cut
//    (context.setOffline) after the first visit: the service worker serves
//    the site, the worker the game.
// 2. A reload mid-game and the game goes on from where it was; at the end
//    the record is exported (a download), replayed by the native `tafel
//    replay` to the scores the page shows, imported again, and the imported
//    game replayed step by step on the board.
// 3. Two people at one screen in Cardcassonne: after every change, every
//    text of the page is checked against the engine's own views -- the page
//    never holds a card of the seat that is not playing (while the device
//    is passed, not even of the one that played last).
//
// Skipped, saying so, when the site was not built (no wasm toolchain).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { launch, newPage, playByClicks, screenshot, assertNoErrors, prng, tableState, waitTurn,
  waitSeq, genericMove, webServer, stopAll, VIEW_MOVES, pageText, replayViews, secretsOf, leaked, tempDir, ROOT, WAIT } from './helpers.mjs';
import { TAFEL } from '../server/helpers.mjs';
import { serveStatic } from './static-server.mjs';

const run = promisify(execFile);
const SITE = process.env.TAFEL_SITE || join(ROOT, 'build', 'site');
const skip = existsSync(join(SITE, 'tafel.wasm')) ? false
  : `no static site at ${SITE} (cmake --build build --target site; needs the wasm toolchain)`;

let site, browser;
before(async () => {
  if (skip) return;
  site = await serveStatic(SITE);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens the site in a new context and waits until it works offline. */
async function openSite(opts = {}) {
  const page = await newPage(browser, opts);
  await page.goto(site.url);
  await page.locator('#nt-game').waitFor({ timeout: WAIT });
  await page.evaluate(() => navigator.serviceWorker.ready);
  // the first visit's page was not served by the worker: it controls the next load
  await page.reload();
  await page.locator('#nt-game').waitFor({ timeout: WAIT });
  assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the service worker serves the page');
  return page;
}

/**
 * Makes a table on this device through the lobby's form and waits for its page.
 * @param {import('playwright-core').Page} page
 * @param {string} game  @param {Record<string, string>} options  @param {string[]} seats
 */
async function newLocalTable(page, game, options, seats) {
  await page.selectOption('#nt-game', game);
  for (const [name, value] of Object.entries(options)) {
    const input = page.locator(`#nt-opt-${name}`);
    if (await input.evaluate((el) => el.tagName === 'SELECT')) await input.selectOption(value);
    else { await input.fill(value); await input.dispatchEvent('change'); }
  }
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#nt-seat-${i}`, seats[i]);
  await Promise.all([page.waitForURL(/\?local=[0-9a-f]+$/, { timeout: WAIT }),
    page.getByRole('button', { name: 'Create table' }).click()]);
  await page.locator('.turn').waitFor({ timeout: WAIT });
  return new URL(page.url()).searchParams.get('local');
}

const GAMES = [
  { name: 'carcassonne', options: { players: '2' }, seats: ['human', 'greedy'] },
  { name: 'cardcassonne', options: { players: '3' }, seats: ['human', 'random', 'greedy'] },
  { name: 'catan_cards', options: { max_turns: '14' }, seats: ['human', 'greedy'] },
];

for (const g of GAMES) {
  test(`${g.name}: a whole game on this device against bots, offline, by clicks`, { skip }, async () => {
    const page = await openSite({ viewport: { width: 1280, height: 800 } });
    await page.context().setOffline(true);
    await page.reload();   // from the service worker's cache: no network at all
    await page.locator('#nt-game').waitFor({ timeout: WAIT });
    await newLocalTable(page, g.name, g.options, g.seats);
    const r = await playByClicks(page, g.name, {
      rng: prng(17),
      onMove: async (n) => { if (n === 6) await screenshot(page, `local-${g.name}`); },
    });
    assert.ok(r.moves > 5, `moves were played: ${JSON.stringify(r)}`);
    const st = await tableState(page);
    assert.equal(st.status, 'over');
    assert.match(st.banner, /^Game over/);
    assertNoErrors(page);
    await page.context().close();
  });
}

test('under tafel serve the lobby offers both places; a table on this device plays there too', { skip }, async () => {
  const server = await webServer();
  const page = await newPage(browser);
  try {
    await page.goto(server.base);
    const device = page.locator('input[name="nt-place"][value="device"]');
    await device.waitFor({ timeout: WAIT });
    assert.equal(await page.locator('input[name="nt-place"][value="server"]').isChecked(), true,
      'the server by default');
    await device.check();
    const table = await newLocalTable(page, 'cardcassonne', { players: '2' }, ['human', 'greedy']);
    assert.match(new URL(page.url()).pathname, /^\/$/);
    await playByClicks(page, 'cardcassonne', { rng: prng(2), until: async (n) => n >= 3 });
    // the server never heard of it: its lobby lists no table
    const listed = await (await fetch(`${server.base}api/tables`)).json();
    assert.equal(JSON.stringify(listed).includes(table), false);
    assertNoErrors(page);
  } finally {
    await page.context().close();
    await stopAll();
  }
});

test('hint and undo at a table on this device; the bot thinks without freezing the page', { skip }, async () => {
  const page = await openSite();
  await newLocalTable(page, 'carcassonne', { players: '2' }, ['human', 'hard']);
  assert.equal(await waitTurn(page), 'mine');
  const before = await tableState(page);
  const actionsBefore = await page.evaluate(() => document.getElementById('app')?.dataset.actions);
  const asked = Date.now();
  await page.locator('button.hint-button').click();
  const moves = page.locator('.hint-moves li');
  await moves.first().waitFor({ timeout: WAIT });
  console.log(`# hint on this device: ${Date.now() - asked} ms`);
  const first = await moves.first().locator('.act').textContent();
  assert.match(first, /^place -?\d+ -?\d+ \d+$/);
  await moves.first().getByRole('button', { name: /^Play this: / }).click();
  await waitSeq(page, before.seq);
  assert.equal(await page.locator('.log-panel ol.log li').last().locator('.act').textContent(), first,
    'the hinted move was played');
  // the tile placed, its follower to choose: undo takes the tile back
  assert.equal(await waitTurn(page), 'mine');
  const placed = await tableState(page);
  const undo = page.getByRole('button', { name: 'Undo' });
  await undo.click();
  await waitSeq(page, placed.seq);
  assert.equal(await waitTurn(page), 'mine');
  assert.equal(await page.evaluate(() => document.getElementById('app')?.dataset.actions), actionsBefore,
    'back to the position before the tile');
  // while hard thinks in the worker, the page answers at once
  await genericMove(page, prng(3));
  let slowest = 0;
  for (let i = 0; i < 10; i++) {
    const t0 = Date.now();
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
    slowest = Math.max(slowest, Date.now() - t0);
  }
  assert.ok(slowest < 500, `a frame within 500 ms while the bot thinks: ${slowest} ms`);
  assertNoErrors(page);
  await page.context().close();
});

test('a reload mid-game goes on; the record exported, replayed natively, imported and replayed', { skip }, async () => {
  const page = await openSite();
  const table = await newLocalTable(page, 'cardcassonne', { players: '2' }, ['human', 'greedy']);
  const rng = prng(5);
  await playByClicks(page, 'cardcassonne', { rng, until: async (n) => n >= 8 });
  const before = await page.evaluate(() => document.getElementById('app')?.dataset.actions);
  await page.reload();
  await page.locator('.turn').waitFor({ timeout: WAIT });
  await page.waitForFunction(() => Number(document.getElementById('app')?.dataset.actions ?? -1) >= 0);
  assert.equal(await page.evaluate(() => document.getElementById('app')?.dataset.actions), before,
    'the reloaded page shows the position it had');
  assert.ok((await page.locator('.log li').count()) > 0, 'the log is told again');
  await playByClicks(page, 'cardcassonne', { rng });
  assert.equal((await tableState(page)).status, 'over');
  const scores = await page.evaluate(() => JSON.parse(document.getElementById('app')?.dataset.scores ?? '[]'));

  // the finished table's own record link gives the record from the device (a
  // static host has no /t/<table>/record), which the native program replays
  const [own] = await Promise.all([page.waitForEvent('download'),
    page.locator('.replay-panel a.replay-record').click()]);
  const ownFile = join(tempDir(), 'own.json');
  await own.saveAs(ownFile);
  const ownEnd = JSON.parse((await run(TAFEL, ['replay', ownFile, '--json'])).stdout);
  assert.deepEqual([ownEnd.terminal, ownEnd.scores], [true, scores], 'the table\'s record link');

  // export from the lobby: a download of the record
  await page.goto(site.url);
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.locator(`[data-export="${table}"]`).click()]);
  const file = join(tempDir(), 'local.json');
  await download.saveAs(file);
  const record = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(record.game, 'cardcassonne(players=2)');
  assert.deepEqual(record.players, ['human', 'greedy']);
  assert.deepEqual(record.scores, scores);
  // the native program replays it to the same end (it checks scores and winners)
  const native = await run(TAFEL, ['replay', file, '--json']);
  const end = JSON.parse(native.stdout);
  assert.equal(end.terminal, true);
  assert.deepEqual(end.scores, scores, 'tafel replay reaches the scores the page showed');

  // import it: a new table on this device, at its end, which replays step by step
  await page.setInputFiles('#import-record', file);
  await page.waitForURL(/\?local=[0-9a-f]+$/, { timeout: WAIT });
  assert.notEqual(new URL(page.url()).searchParams.get('local'), table);
  await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over', null, { timeout: WAIT });
  await page.locator('.replay-panel .replay-open').click();
  await page.locator('.replay-panel input[type=range]').waitFor();
  await page.locator('.replay-panel input[type=range]').fill('10');
  await page.locator('.board.replaying').waitFor();

  // a broken record is refused with the reason, and nothing is made
  const broken = join(tempDir(), 'broken.json');
  writeFileSync(broken, JSON.stringify({ ...record, actions: [...record.actions.slice(0, 4), 'place 99 99 0'] }));
  await page.goto(site.url);
  await page.locator('.device-game').nth(1).waitFor();   // the game played and the one imported
  const listed = await page.locator('.device-game').count();
  await page.setInputFiles('#import-record', broken);
  await page.locator('.lobby-device .error').waitFor();
  assert.match(await page.locator('.lobby-device .error').textContent(), /action 4/);
  assert.equal(await page.locator('.device-game').count(), listed);
  assertNoErrors(page);
  await page.context().close();
});

/** The texts of the page and the seat it sits in now (null: a spectator, as while the device is passed). */
async function snapshot(page, into) {
  const s = await page.evaluate(() => {
    const app = document.getElementById('app');
    const cover = document.querySelector('.pass-cover');
    return { actions: Number(app?.dataset.actions ?? -1), seat: app?.dataset.seat ?? '',
             covered: !!cover && !cover.hasAttribute('hidden') };
  });
  if (s.actions >= 0) into.push({ ...s, text: await pageText(page) });
}

test('two people at one screen in Cardcassonne: one hand never shows on the other\'s turn', { skip }, async () => {
  const page = await openSite();
  await newLocalTable(page, 'cardcassonne', { players: '2' }, ['human', 'human']);
  const seen = [];
  const rng = prng(9);
  let passes = 0;
  for (let moves = 0; ;) {
    const cover = page.locator('.pass-cover:not([hidden])');
    await page.waitForFunction(() => {
      const app = document.getElementById('app');
      const cover = document.querySelector('.pass-cover');
      return app?.dataset.status === 'over' || (cover && !cover.hasAttribute('hidden')) ||
        (document.querySelector('.turn')?.getAttribute('data-mine') === 'true' && !app?.classList.contains('busy'));
    }, null, { timeout: WAIT });
    await snapshot(page, seen);
    if ((await tableState(page)).status === 'over') break;
    if (await cover.count()) {
      const seat = await cover.getAttribute('data-seat');
      await page.locator('[data-pass="ready"]').click();
      await page.waitForFunction((s) => document.getElementById('app')?.dataset.seat === s, seat, { timeout: WAIT });
      passes++;
      continue;
    }
    if (!(rng() < 0.6 && await VIEW_MOVES.cardcassonne(page, rng))) await genericMove(page, rng);
    moves++;
  }
  assert.ok(passes > 10, `the device was passed: ${passes} times`);
  // people at one screen are neither "online" nor "away" in the seat bar
  assert.equal(await page.locator('.flag.online, .flag.offline').count(), 0,
    'a table on this device shows no online pill');
  // the record, as the lobby exports it
  const table = new URL(page.url()).searchParams.get('local');
  await page.goto(site.url);
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.locator(`[data-export="${table}"]`).click()]);
  const file = join(tempDir(), 'two.json');
  await download.saveAs(file);
  const record = readFileSync(file, 'utf8');
  const views = { 0: await replayViews(record, 0), 1: await replayViews(record, 1) };
  const secrets = secretsOf(views, [0, 1]);
  let checked = 0;
  for (const snap of seen) {
    // a spectator (the device being passed) may see neither hand
    const hidden = snap.seat === '' ? new Set([...secrets(0, snap.actions), ...secrets(1, snap.actions)])
      : secrets(Number(snap.seat), snap.actions);
    const found = leaked(snap.text, hidden);
    const where = found.length ? snap.text.slice(Math.max(0, snap.text.indexOf(found[0]) - 80),
      snap.text.indexOf(found[0]) + 40) : '';
    assert.deepEqual(found, [],
      `the page in seat ${snap.seat || 'none'} after ${snap.actions} actions shows hidden cards: ...${where}...`);
    if (hidden.size) checked++;
  }
  assert.ok(checked > 10, `positions with something hidden were checked: ${checked}`);
  assert.ok(seen.some((snap) => snap.seat === '0' && leaked(snap.text, secrets(1, snap.actions)).length > 0),
    "the check can fail: Red's own hand is a secret to Blue");
  assertNoErrors(page);
  await page.context().close();
});
