// games.test.mjs -- for each game, a whole game against bots played in the
// browser by clicks only: part through the game view's own controls, part
// through the generic list of legal actions; the page ends showing the
// winners and the score plot, with no console error on the way.  A
// screenshot of each game's page at a mid-game position is kept
// (helpers.screenshot; docs/screenshots/ with TAFEL_SCREENSHOTS=1).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, playByClicks, screenshot, assertNoErrors,
  stopAll, prng, tableState } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

// Small, fast games: random and greedy bots; Catan ends after max_turns.
const GAMES = [
  { name: 'carcassonne', game: 'carcassonne(players=2)', seats: ['human', 'greedy'], shotAt: 14 },
  { name: 'cardcassonne', game: 'cardcassonne(players=3)', seats: ['human', 'random', 'greedy'], shotAt: 10 },
  { name: 'catan_cards', game: 'catan_cards(max_turns=14)', seats: ['human', 'greedy'], shotAt: 12 },
];

for (const g of GAMES) {
  test(`${g.name}: a whole game against bots, by clicks only`, async () => {
    const t = await newTable(server, g.game, g.seats, 7);
    // the window the page is made for (a Catan principality fits it), for the README
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(t.url(0));
    await page.locator('.turn').waitFor();
    const rng = prng(11);
    let shot = null;
    const r = await playByClicks(page, g.name, {
      rng,
      onMove: async (n) => {
        if (n === g.shotAt) shot = await screenshot(page, g.name);
      },
    });
    assert.ok(shot, `a screenshot was taken at move ${g.shotAt} (moves: ${r.moves})`);
    assert.ok(r.byView > 0, `some moves through the ${g.name} view's controls: ${JSON.stringify(r)}`);
    assert.ok(r.byList > 0, `some moves through the list of legal actions: ${JSON.stringify(r)}`);
    const st = await tableState(page);
    assert.equal(st.status, 'over');
    assert.match(st.banner, /^Game over/);
    // attached, not visible: a seat that never scored draws a flat line,
    // whose box has no height (a Catan game's first 14 turns can do that)
    await page.locator('.plot-panel svg path.series').first().waitFor({ state: 'attached' });
    assert.equal(await page.locator('.plot-panel svg path.series').count(), g.seats.length,
      'one line a seat on the score plot');
    assertNoErrors(page);
    await page.context().close();
  });
}
