// speed.test.mjs -- how long a move takes from the click that sends it to the
// board redrawn with its state, in each game (a measurement, not a timed
// test: it prints the figures, and fails only when a move is never shown).
//
// The page is played by clicks against the random bot; for each move the
// time runs from the click (a capturing listener on the document) to the
// first animation frame after #app's data-seq moved past the position the
// click was made in.  Printed as p50/p90 in milliseconds per game.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, playByClicks, assertNoErrors, stopAll, prng }
  from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

const GAMES = [
  { name: 'carcassonne', game: 'carcassonne(players=2)', seats: ['human', 'random'], moves: 40 },
  { name: 'cardcassonne', game: 'cardcassonne(players=2)', seats: ['human', 'random'], moves: 40 },
  { name: 'catan_cards', game: 'catan_cards(max_turns=30)', seats: ['human', 'random'], moves: 40 },
];

/** The q-quantile of sorted numbers (nearest rank). */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const figures = [];

for (const g of GAMES) {
  test(`${g.name}: click to redrawn board`, async () => {
    const t = await newTable(server, g.game, g.seats, 9);
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(t.url(0));
    await page.locator('.turn').waitFor();
    await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      w.__clicks = [];
      w.__shown = [];
      document.addEventListener('click', () => {
        w.__clicks.push({ at: performance.now(), seq: Number(document.getElementById('app')?.dataset.seq) });
      }, true);
      const app = document.getElementById('app');
      new MutationObserver(() => {
        const seq = Number(app?.dataset.seq);
        requestAnimationFrame(() => w.__shown.push({ at: performance.now(), seq }));
      }).observe(app, { attributes: true, attributeFilter: ['data-seq'] });
    });
    await playByClicks(page, g.name, { rng: prng(2), viewShare: 1, until: async (n) => n >= g.moves });
    const times = await page.evaluate(() => {
      const w = /** @type {any} */ (window);
      // the click that sent a move is the last one before the seq moved
      const out = [];
      for (const s of w.__shown) {
        const sent = w.__clicks.filter((c) => c.at <= s.at && c.seq < s.seq).pop();
        if (!sent || out.some((o) => o.click === sent)) continue;
        out.push({ click: sent, ms: s.at - sent.at });
      }
      return out.map((o) => o.ms);
    });
    assert.ok(times.length >= g.moves / 2, `${times.length} moves measured`);
    times.sort((a, b) => a - b);
    const line = `${g.name}: click to redrawn board over ${times.length} moves: `
      + `p50 ${quantile(times, 0.5).toFixed(0)} ms, p90 ${quantile(times, 0.9).toFixed(0)} ms`;
    figures.push(line);
    console.log(line);
    assertNoErrors(page);
    await page.context().close();
  });
}

test('the figures', () => {
  for (const f of figures) console.log(f);
  assert.equal(figures.length, GAMES.length);
});
