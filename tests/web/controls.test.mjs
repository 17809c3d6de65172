// controls.test.mjs -- the table's own controls, clicked: the hint (the
// hard bot's moves, one of them played from the hint), undo (a placed tile
// taken back), and the replay of a finished game, which steps the board
// through the server's `replay` positions; the score plot of a finished
// table the page did not watch, drawn from `history`'s scores; and hand
// over, which offers the bots that play the table's game with its count
// of players (expert only where it has a net).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, tableState, waitTurn, waitSeq,
  carcassonneMove, assertNoErrors, stopAll, prng, WAIT } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

test('hint: the hard bot\'s best moves, one played from the hint', async () => {
  const t = await newTable(server, 'carcassonne(players=2)', ['human', 'random'], 2);
  const page = await newPage(browser);
  await page.goto(t.url(0));
  assert.equal(await waitTurn(page), 'mine');
  const before = await tableState(page);
  await page.locator('button.hint-button').click();
  const moves = page.locator('.hint-moves li');
  await moves.first().waitFor({ timeout: WAIT });
  const n = await moves.count();
  assert.ok(n >= 1 && n <= 5, `1 to 5 hinted moves: ${n}`);
  const first = await moves.first().locator('.act').textContent();
  assert.match(first, /^place -?\d+ -?\d+ \d+$/);
  await moves.first().getByRole('button', { name: /^Play this: / }).click();
  await waitSeq(page, before.seq);
  const last = await page.locator('.log-panel ol.log li').last().locator('.act').textContent();
  assert.equal(last, first, 'the hinted move was played');
  assertNoErrors(page);
  await page.context().close();
});

test('hand over offers the bots that play the game: expert at Cardcassonne for 2, not at Carcassonne nor for 3', async () => {
  for (const [game, expert, seats] of [['carcassonne(players=2)', false, ['human', 'random']],
    ['cardcassonne(players=2)', true, ['human', 'random']],
    ['cardcassonne(players=3)', false, ['human', 'random', 'random']]]) {
    const t = await newTable(server, game, seats, 5);
    const page = await newPage(browser);
    await page.goto(t.url(0));
    assert.equal(await waitTurn(page), 'mine');
    await page.getByRole('button', { name: 'Hand over…' }).click();
    const bots = await page.locator('#hand-bot option').evaluateAll((os) => os.map((o) => o.value));
    assert.equal(bots.includes('expert'), expert, `${game}: ${bots}`);
    assert.ok(bots.includes('hard'), `${game}: ${bots}`);
    assert.equal(await page.locator('#hand-bot').inputValue(), 'medium');
    assertNoErrors(page);
    await page.context().close();
  }
});

test('undo: a placed tile is taken back', async () => {
  const t = await newTable(server, 'carcassonne(players=2)', ['human', 'random'], 4);
  const page = await newPage(browser);
  await page.goto(t.url(0));
  assert.equal(await waitTurn(page), 'mine');
  const undo = page.getByRole('button', { name: 'Undo' });
  assert.equal(await undo.isDisabled(), true, 'nothing to take back yet');
  const tiles = page.locator('g.carc-l-tiles > g');
  // the board is drawn after the state arrives: wait for a count before reading it
  const settle = (n) => page.waitForFunction((k) => document.querySelectorAll('g.carc-l-tiles > g').length === k,
    n, { timeout: WAIT }).catch(() => {});
  await tiles.first().waitFor({ timeout: WAIT });
  const count = await tiles.count();
  assert.ok(await carcassonneMove(page, prng(9)), 'a tile placed by clicks');
  assert.equal(await waitTurn(page), 'mine');   // its follower now
  await settle(count + 1);
  assert.equal(await tiles.count(), count + 1);
  assert.equal(await page.locator('.carc-l-places .carc-place').count(), 0);
  const placed = await tableState(page);
  await undo.click();
  await waitSeq(page, placed.seq);
  assert.equal(await waitTurn(page), 'mine');
  await settle(count);
  assert.equal(await tiles.count(), count, 'the tile is off the board');
  await page.locator('.carc-l-places .carc-place').first().waitFor({ timeout: WAIT });
  assert.ok(await page.locator('.carc-l-places .carc-place').count() > 0, 'its places are offered again');
  assert.equal(await undo.isDisabled(), true);
  assertNoErrors(page);
  await page.context().close();
});

test('replay: a finished game stepped on the board; its plot from the history', async () => {
  // bots alone: the game is over by the time the page opens
  const t = await newTable(server, 'carcassonne(players=2)', ['random', 'greedy'], 6);
  const page = await newPage(browser);
  await page.goto(t.watchUrl);
  await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
    null, { timeout: WAIT });
  const total = Number(await page.evaluate(() => document.getElementById('app')?.dataset.actions));

  // the plot: every action's scores, though this page joined at the end
  const plot = page.locator('.plot-panel');
  await plot.locator('svg path.series').first().waitFor();
  assert.equal(await plot.locator('svg path.series').count(), 2);
  assert.equal(await plot.getByText('not known yet').count(), 0);

  const tiles = page.locator('g.carc-l-tiles > g');
  await page.waitForFunction(() => document.querySelectorAll('g.carc-l-tiles > g').length > 60,
    null, { timeout: WAIT }).catch(() => {});
  const finalTiles = await tiles.count();
  assert.ok(finalTiles > 60, `a whole board: ${finalTiles} tiles`);
  await page.getByRole('button', { name: 'Replay move by move' }).click();
  const status = page.locator('.replay-status');
  await page.waitForFunction(() => document.querySelector('.board')?.classList.contains('replaying'),
    null, { timeout: WAIT });
  await page.waitForFunction(() => document.querySelectorAll('g.carc-l-tiles > g').length === 1,
    null, { timeout: WAIT });
  assert.match(await status.textContent(), /^Step 0 of \d+ — the start · scores Red 0, Blue 0/);

  // step on until a tile is placed: the board follows
  const onOne = page.getByRole('button', { name: 'on one' });
  for (let k = 1; k <= 3; k++) {
    await onOne.click();
    await page.waitForFunction((s) => document.querySelector('.replay-status')?.getAttribute('data-step') === String(s)
      && /scores/.test(document.querySelector('.replay-status')?.textContent ?? ''), k, { timeout: WAIT });
  }
  // draw (chance), place, then a follower or pass: two tiles now (drawn just after the status)
  await page.waitForFunction(() => document.querySelectorAll('g.carc-l-tiles > g').length === 2,
    null, { timeout: WAIT }).catch(() => {});
  assert.equal(await tiles.count(), 2);
  assert.equal(await page.locator('ol.replay-log li[aria-current]').count(), 1);
  // the slider jumps (a new view is made for a jump)
  await page.locator('.replay-body input[type="range"]').fill(String(Math.floor(total / 2)));
  await page.waitForFunction((s) => document.querySelector('.replay-status')?.getAttribute('data-step') === String(s)
    && /scores/.test(document.querySelector('.replay-status')?.textContent ?? ''), Math.floor(total / 2), { timeout: WAIT });
  await page.waitForFunction(() => document.querySelectorAll('g.carc-l-tiles > g').length > 2,
    null, { timeout: WAIT }).catch(() => {}); // the view is rebuilt after a jump
  const half = await tiles.count();
  assert.ok(half > 2 && half < finalTiles, `half way: ${half} tiles`);
  await page.getByRole('button', { name: 'back one' }).click();
  await page.waitForFunction((s) => document.querySelector('.replay-status')?.getAttribute('data-step') === String(s),
    Math.floor(total / 2) - 1, { timeout: WAIT });
  // the last step: the final board again, not a replayed one
  await page.getByRole('button', { name: 'last' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('g.carc-l-tiles > g').length === n
    && !document.querySelector('.board')?.classList.contains('replaying'), finalTiles, { timeout: WAIT });
  assert.match(await status.textContent(), new RegExp(`^Step ${total} of ${total}`));
  assertNoErrors(page);
  await page.context().close();
});

test('replay: Cardcassonne steps back and forth without errors', async () => {
  const t = await newTable(server, 'cardcassonne(players=2)', ['human', 'random'], 8);
  const page = await newPage(browser);
  await page.goto(t.url(0));
  // Red hands its seat to a bot through the page: the game runs to its end
  assert.equal(await waitTurn(page), 'mine');
  await page.getByRole('button', { name: 'Hand over…' }).click();
  await page.locator('#hand-bot').selectOption('random');
  await page.locator('.confirm button.danger').click();
  await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
    null, { timeout: WAIT });
  await page.getByRole('button', { name: 'Replay move by move' }).click();
  const total = Number(await page.evaluate(() => document.getElementById('app')?.dataset.actions));
  const slider = page.locator('.replay-body input[type="range"]');
  for (const k of [Math.floor(total / 3), Math.floor(total / 3) + 1, Math.floor(total / 3) + 2, 5, total - 1]) {
    await slider.fill(String(k));
    await page.waitForFunction((s) => document.querySelector('.replay-status')?.getAttribute('data-step') === String(s)
      && /scores/.test(document.querySelector('.replay-status')?.textContent ?? ''), k, { timeout: WAIT });
    // the view is rebuilt after a jump: wait for its rows, then there is one set
    await page.waitForFunction(() => document.querySelectorAll('.cc-rows').length === 1, null,
      { timeout: WAIT }).catch(() => {});
    assert.equal(await page.locator('.cc-rows').count(), 1, `the rows at step ${k}`);
  }
  // the seat was handed over, and its control with it (issue 25): the page
  // watches from then on, and a spectator's replay shows no hand
  assert.equal(await page.locator('.cc-hand').count(), 0);
  await page.getByRole('button', { name: 'Show / hide the replay' }).click();
  await page.waitForFunction(() => !document.querySelector('.board')?.classList.contains('replaying'),
    null, { timeout: WAIT });
  assertNoErrors(page);
  await page.context().close();
});
