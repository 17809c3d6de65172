// resilience.test.mjs -- a seat survives a reload of its page, and the
// page carries on when the server is killed (kill -9) and started again on
// the same database and port mid-game: it shows it is offline, reconnects
// by itself, joins its seat again and plays on by clicks.  The only console
// errors allowed are the browser's own logs of the WebSocket failing to
// connect while the server is down.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, playByClicks, tableState, waitTurn,
  assertNoErrors, stopAll, prng, WAIT } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => {
  await browser?.close();
  await stopAll();
});

test('a reload keeps the seat, and a killed and restarted server does not stop the game', async () => {
  let server = await webServer();
  const t = await newTable(server, 'carcassonne(players=2)', ['human', 'random'], 21);
  const page = await newPage(browser);
  await page.goto(t.url(0));
  await page.locator('.turn').waitFor();
  const rng = prng(5);
  await playByClicks(page, 'carcassonne', { rng, until: async (n) => n >= 4 });
  const before = await tableState(page);

  // reload: the token in the address keeps the seat
  await page.reload();
  await page.waitForFunction((seq) => Number(document.getElementById('app')?.dataset.seq) >= seq,
    before.seq, { timeout: WAIT });
  await page.waitForFunction(() => /^(you are|watching)/.test(document.querySelector('.who-am-i')?.textContent ?? ''),
    null, { timeout: 30000 }); // the seat is named once the first state is in
  assert.equal(await page.locator('.who-am-i').textContent(), 'you are Red');
  assert.equal(await waitTurn(page), 'mine');
  await playByClicks(page, 'carcassonne', { rng, until: async (n) => n >= 3 });

  // the server dies; the page says it is offline
  const mid = await tableState(page);
  const { port, db, dir } = server;
  page.allowErrors = (text) => /WebSocket connection to .* failed/.test(text)
    || /Failed to load resource/.test(text);
  await server.kill9();
  await page.locator('.conn[data-state="closed"]').waitFor({ timeout: WAIT });
  await page.waitForTimeout(800);   // at least one failed attempt to reconnect

  // back on the same database and port: the page reconnects and plays on
  server = await webServer({ db, dir, args: ['--port', String(port)] });
  assert.equal(server.port, port);
  await page.locator('.conn[data-state="open"]').waitFor({ timeout: WAIT });
  page.allowErrors = null;
  assert.equal((await tableState(page)).seq, mid.seq, 'the same position after the restart');
  const r = await playByClicks(page, 'carcassonne', { rng, until: async (n) => n >= 4 });
  assert.equal(r.moves, 4);
  assert.ok((await tableState(page)).seq > mid.seq + 4, 'the game went on');
  await page.waitForFunction(() => /^(you are|watching)/.test(document.querySelector('.who-am-i')?.textContent ?? ''),
    null, { timeout: 30000 }); // the seat is named once the first state is in
  assert.equal(await page.locator('.who-am-i').textContent(), 'you are Red');
  assertNoErrors(page);
  await page.context().close();
});
