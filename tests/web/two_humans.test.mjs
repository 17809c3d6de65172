// two_humans.test.mjs -- two people at one table, each in a browser
// context of their own (own storage, own socket), playing by clicks until
// one resigns through the page.
// Neither page ever shows what its seat may not see: after every change,
// every text of each page (its text, titles, labels, data attributes) is
// kept with the number of actions it shows, and once the game is over each
// is checked against the engine's own views (tafel replay --views: the
// card names another seat's view shows where this one's shows "?" or
// nothing), as the protocol tests check the messages.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, waitSeq, tableState, genericMove,
  VIEW_MOVES, pageText, assertNoErrors, stopAll, prng, fetchRecord, replayViews, secretsOf,
  leaked, WAIT } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** The texts of a page, by the action count it shows. */
async function snapshot(page, into) {
  const actions = Number(await page.evaluate(() => document.getElementById('app')?.dataset.actions ?? -1));
  if (actions >= 0) into.push({ actions, text: await pageText(page) });
}

const MOVES = 45;   // then Blue resigns (a whole game of two people is slow by clicks)

for (const game of ['cardcassonne', 'catan_cards']) {
  test(`${game}: two people in two browsers, and neither page shows the other's hand`, async () => {
    const gameString = game === 'catan_cards' ? 'catan_cards(max_turns=8)' : 'cardcassonne(players=2)';
    const t = await newTable(server, gameString, ['human', 'human'], 5);
    const pages = [await newPage(browser), await newPage(browser)];
    for (let s = 0; s < 2; s++) {
      await pages[s].goto(t.url(s));
      await pages[s].locator('.turn').waitFor();
      await pages[s].waitForFunction(() => /^(you are|watching)/.test(document.querySelector('.who-am-i')?.textContent ?? ''),
        null, { timeout: 30000 }); // the seat is named once the first state is in
      assert.equal(await pages[s].locator('.who-am-i').textContent(), `you are ${['Red', 'Blue'][s]}`);
    }
    const seen = [[], []];
    const rng = prng(3);
    let moves = 0;
    let snapped = -1;
    for (;;) {
      const st = await Promise.all(pages.map(tableState));
      if (st.every((x) => x.status === 'over')) break;
      // both pages show the same position before anyone moves
      const seq = Math.max(st[0].seq, st[1].seq);
      for (const p of pages) await waitSeq(p, seq - 1);
      if (seq !== snapped) {
        for (let s = 0; s < 2; s++) await snapshot(pages[s], seen[s]);
        snapped = seq;
      }
      const now = await Promise.all(pages.map(tableState));
      const s = now.findIndex((x) => x.mine && !x.busy && x.status === 'playing');
      if (s < 0) {
        if (now.some((x) => x.status === 'over')) {
          for (const p of pages) await p.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over', null, { timeout: WAIT });
          continue;
        }
        await pages[0].waitForTimeout(20);
        continue;
      }
      const viewMove = VIEW_MOVES[game];
      if (!(rng() < 0.6 && await viewMove(pages[s], rng))) await genericMove(pages[s], rng);
      moves++;
      if (moves === MOVES) {
        // enough: Blue resigns through its page, which ends a game of two
        await waitSeq(pages[s], seq);
        const blue = pages[1];
        await blue.getByRole('button', { name: 'Resign…' }).click();
        await blue.locator('.confirm button.danger').click();
        for (const p of pages) {
          await p.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
            null, { timeout: WAIT });
        }
        assert.match((await tableState(pages[0])).banner, /you win/);
      }
    }
    for (let s = 0; s < 2; s++) await snapshot(pages[s], seen[s]);

    const { text } = await fetchRecord(server, t.table);
    const views = { 0: await replayViews(text, 0), 1: await replayViews(text, 1) };
    const secrets = secretsOf(views, [0, 1]);
    let checked = 0;
    for (let s = 0; s < 2; s++) {
      for (const snap of seen[s]) {
        const secret = secrets(s, snap.actions);
        assert.deepEqual(leaked(snap.text, secret), [],
          `${['Red', 'Blue'][s]}'s page after ${snap.actions} actions shows hidden cards`);
        if (secret.size) checked++;
      }
    }
    assert.ok(checked > 10, `positions with something hidden were checked: ${checked}`);
    // the check can fail: each page shows its own hand, a secret to the other seat
    const own = seen[0].filter((snap) => leaked(snap.text, secrets(1, snap.actions)).length > 0);
    assert.ok(own.length > 0, "Red's page shows cards Blue may not see (its own hand)");
    assertNoErrors(...pages);
    for (const p of pages) await p.context().close();
  });
}
