// access.test.mjs -- the page by keyboard alone, and on a phone-sized
// screen.  Keyboard: a Carcassonne tile chosen with the arrows, turned
// with R and placed with Enter, the follower passed with P, then a move
// typed into the filter of the legal actions (reached with Tab) and played
// with Enter.  Phone: 390x844 with touch; nothing wider than the screen,
// the board on it, and moves made by clicks.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, tableState, waitTurn, waitSeq, playByClicks,
  screenshot, assertNoErrors, stopAll, prng, WAIT } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

test('keyboard only: place a tile, pass, and play from the filtered list', async () => {
  const t = await newTable(server, 'carcassonne(players=2)', ['human', 'random'], 12);
  const page = await newPage(browser);
  await page.goto(t.url(0));
  assert.equal(await waitTurn(page), 'mine');
  const s0 = await tableState(page);
  await page.locator('.carc-l-places .carc-place').first().waitFor();   // the view is drawn
  await page.keyboard.press('ArrowRight');   // the spot nearest the start tile
  await page.locator('button.carc-b-confirm').waitFor();
  const chosen = await page.locator('button.carc-b-confirm').getAttribute('data-action');
  await page.keyboard.press('r');
  await page.keyboard.press('Enter');
  await waitSeq(page, s0.seq);
  assert.equal(await waitTurn(page), 'mine');
  const placed = await page.locator('.log-panel ol.log li').last().locator('.act').textContent();
  assert.match(placed, /^place /);
  assert.ok(chosen.includes(placed.split(' ').slice(1, 3).join(' ')), `${chosen} / ${placed}`);
  const s1 = await tableState(page);
  await page.keyboard.press('p');
  await waitSeq(page, s1.seq);
  assert.equal(await page.locator('.log-panel ol.log li:not(.chance)').filter({ hasText: 'Red' }).last()
    .locator('.act').textContent(), 'pass');

  // the list of legal actions: Tab to its summary, open it, Tab to the filter
  assert.equal(await waitTurn(page), 'mine');
  const s2 = await tableState(page);
  const focusedIs = (sel) => page.evaluate((q) => document.activeElement?.matches(q) ?? false, sel);
  for (let k = 0; k < 80 && !(await focusedIs('details.actions-panel > summary')); k++) await page.keyboard.press('Tab');
  assert.ok(await focusedIs('details.actions-panel > summary'), 'the list is reached by Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.ok(await focusedIs('input.filter'), 'then its filter');
  const first = await page.locator('details.actions-panel button.action').first().getAttribute('data-action');
  await page.keyboard.type(first);
  await page.keyboard.press('Enter');
  await waitSeq(page, s2.seq);
  const mine = page.locator('.log-panel ol.log li').filter({ hasText: 'Red' });
  await mine.filter({ hasText: first }).first().waitFor({ timeout: WAIT }).catch(() => {});
  assert.ok(await mine.filter({ hasText: first }).count() >= 1, `${first} was played`);
  assertNoErrors(page);
  await page.context().close();
});

test('a phone-sized screen: nothing overflows, and clicks play', async () => {
  const t = await newTable(server, 'carcassonne(players=2)', ['human', 'greedy'], 14);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await newPage(browser, { context });
  await page.goto(t.url(0));
  assert.equal(await waitTurn(page), 'mine');
  const r = await playByClicks(page, 'carcassonne', { rng: prng(2), viewShare: 0.8,
    until: async (n) => n >= 8 });
  assert.equal(r.moves, 8);
  const box = await page.locator('svg.carc-board').boundingBox();
  assert.ok(box && box.width > 300 && box.x >= 0 && box.x + box.width <= 390,
    `the board fits the screen: ${JSON.stringify(box)}`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `no sideways scrolling: the page is ${wide} px wide`);
  await screenshot(page, 'carcassonne-phone');
  assertNoErrors(page);
  await context.close();
});
