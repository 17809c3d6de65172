// ratings.test.mjs -- ratings in the browser: two accounts (each in a
// browser context of its own, logged in by its cookie) play a rated table
// to its end by clicks, and both ratings change as Glicko-2 says
// (recomputed in the test from the places); the profile page shows the
// rating, its history as a plot and a replay link that opens the table;
// the lobby's leaderboard lists both, linked to their profiles.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, waitSeq, tableState, genericMove, VIEW_MOVES,
  assertNoErrors, stopAll, prng, WAIT, screenshot } from './helpers.mjs';
import { signup, connectAs, join, getJsonAs, places, expectedRatings, NEW_RATING,
  Client } from '../server/helpers.mjs';

const GAME = 'catan_cards';
const GAME_STRING = 'catan_cards(max_turns=2)'; // the shortest whole game: ~35 moves

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** A page in a context of its own, logged in as the cookie's player. */
async function pageAs(cookie) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
  await context.addCookies([{ name, value, url: server.base }]);
  return newPage(browser, { context });
}

const close = (x, want, what) => assert.ok(Math.abs(x - want) < 1e-6, `${what}: ${x} != ${want}`);

test('a rated game of two accounts by clicks; the profile, its plot and replay; the leaderboard', async () => {
  const cookies = [await signup(server, 'Alice'), await signup(server, 'Bob')];
  const creator = await connectAs(server, cookies[0]);
  const created = await creator.request({ type: 'create', game: GAME_STRING,
    seats: ['human', 'human'], rated: true }, ['created', 'error']);
  assert.equal(created.type, 'created', JSON.stringify(created));
  creator.close();
  const watcher = await Client.connect(server);
  await join(watcher, created.table);

  const pages = [await pageAs(cookies[0]), await pageAs(cookies[1])];
  for (let s = 0; s < 2; s++) {
    await pages[s].goto(`${server.base}t/${created.table}?token=${created.tokens[s]}`);
    await pages[s].locator('.turn').waitFor();
  }
  const rng = prng(7);
  for (let moves = 0; ; moves++) {
    assert.ok(moves < 400, 'the game ends');
    const st = await Promise.all(pages.map(tableState));
    if (st.every((x) => x.status === 'over')) break;
    const seq = Math.max(st[0].seq, st[1].seq);
    for (const p of pages) await waitSeq(p, seq - 1);
    const now = await Promise.all(pages.map(tableState));
    const s = now.findIndex((x) => x.mine && !x.busy && x.status === 'playing');
    if (s < 0) {
      if (now.some((x) => x.status === 'over')) {
        for (const p of pages) {
          await p.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
            null, { timeout: WAIT });
        }
      } else await pages[0].waitForTimeout(20);
      continue;
    }
    if (!(rng() < 0.5 && await VIEW_MOVES[GAME](pages[s], rng))) await genericMove(pages[s], rng);
  }
  const final = await watcher.next((m) => m.type === 'state' && m.status === 'over', { timeout: WAIT });
  watcher.close();

  // both ratings, as Glicko-2 says for the places of the final scores
  const place = places(final);
  const after = expectedRatings([NEW_RATING, NEW_RATING], place);
  for (const [i, name] of ['Alice', 'Bob'].entries()) {
    const { status, json } = await getJsonAs(server, `/api/players/${name}`);
    assert.equal(status, 200);
    close(json.ratings[GAME].rating, after[i].rating, `${name}'s rating`);
    close(json.ratings[GAME].rd, after[i].rd, `${name}'s RD`);
    assert.equal(json.results[0].place, place[i]);
  }

  // Alice's profile: her rating (provisional after one game), a plot, a replay that opens
  const alice = pages[0];
  await alice.goto(`${server.base}p/Alice`);
  await alice.locator('.profile-name').waitFor({ timeout: WAIT });
  assert.equal(await alice.locator('.profile-name').textContent(), 'Alice');
  assert.equal(await alice.locator('.game-rating .rating-value').textContent(),
    `${Math.round(after[0].rating)}?`);
  const plot = alice.getByRole('img', { name: /Rating history/ });
  assert.equal(await plot.count(), 1, 'the history plot is an image with its title');
  assert.equal(await alice.locator('.rating-plot circle').count(), 1, 'one point: one rated game');
  // its axes: round ratings on the left (1500 among them), the game's date below, each axis named
  const ticks = await alice.locator('.rating-plot .plot-tick').allTextContents();
  assert.ok(ticks.includes('1500') && ticks.every((x) => x.length > 0), ticks.join(' | '));
  const day = new Date().toLocaleDateString('en', { day: 'numeric', month: 'short' });
  assert.ok(ticks.includes(day), `the date ${day} among ${ticks.join(' | ')}`);
  assert.deepEqual(await alice.locator('.rating-plot .plot-label').allTextContents(),
    ['Rated games, by date', 'Rating']);
  await screenshot(alice, 'profile-plot');
  const opponent = alice.locator('.results-table .opponents a');
  assert.equal(await opponent.textContent(), 'Bob');
  assert.equal(await opponent.getAttribute('href'), '/p/Bob');
  const replay = alice.locator('.results-table a.replay-link');
  assert.equal(await replay.getAttribute('href'), `/t/${created.table}`);
  await replay.click();
  await alice.waitForURL(`${server.base}t/${created.table}`);
  await alice.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
    null, { timeout: WAIT });

  // the lobby's leaderboard: both, by rating, each a link to the profile
  const bob = pages[1];
  await bob.goto(server.base);
  await bob.getByRole('region', { name: 'Leaderboard' }).getByRole('combobox').selectOption(GAME);
  const names = bob.locator('.leaderboard-table a.player-name');
  await names.first().waitFor({ timeout: WAIT });
  const want = after[0].rating >= after[1].rating ? ['Alice', 'Bob'] : ['Bob', 'Alice'];
  assert.deepEqual(await names.allTextContents(), want);
  await names.first().click();
  await bob.waitForURL(`${server.base}p/${want[0]}`);
  await bob.locator('.profile-name').waitFor({ timeout: WAIT });
  assertNoErrors(...pages);
  for (const p of pages) await p.context().close();
});

test('a profile of nobody says so', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.base}p/Nobody%20at%20all`);
  await page.locator('.profile-body .error').waitFor({ timeout: WAIT });
  assert.match(await page.locator('.profile-body .error').textContent(), /Nobody at all/);
  page.allowErrors = () => true; // the 404 of the profile's request is logged by the browser
  await page.context().close();
});
