// invitation.test.mjs -- an invitation answered in the browser (docs/club.md,
// "Invitations by name"): the invited player finds it first in the lobby's
// "My games" (who invites, the game, rated or not, the clock) and accepts
// there, or opens the table and accepts there; the game starts for the
// inviter's socket, and nothing was played before.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, assertNoErrors, stopAll, WAIT } from './helpers.mjs';
import { join, signup, connectAs } from '../server/helpers.mjs';

after(stopAll);
let server, browser;

const GAME = 'carcassonne(players=2)';

/** Alice invites Dora; Alice's socket at her seat, and the table. */
async function invite(alice, extra = {}) {
  const a = await connectAs(server, alice);
  const made = await a.request({ type: 'create', game: GAME, seats: ['human', 'player:Dora'],
    ...extra }, ['created', 'error']);
  assert.equal(made.type, 'created', JSON.stringify(made));
  const s = await join(a, made.table, made.tokens[0]);
  assert.equal(s.waiting, true);
  return { a, table: made.table };
}

/** A page logged in as the cookie's player. */
async function pageAs(cookie) {
  const page = await newPage(browser);
  const [name, value] = cookie.split('=');
  await page.context().addCookies([{ name, value, url: server.base }]);
  return page;
}

test('the invited player accepts in "My games", and at the table; the game starts', async (t) => {
  server = await webServer();
  browser = await launch();
  t.after(() => browser.close());
  const alice = await signup(server, 'Alice');
  const dora = await signup(server, 'Dora');
  const first = await invite(alice, { rated: true, clock: '5+3' });
  const page = await pageAs(dora);
  await page.goto(`${server.base}?lang=en`);
  const row = page.locator(`.my-games li.invitation[data-table="${first.table}"]`);
  await row.waitFor({ timeout: WAIT });
  assert.match(await row.textContent(), /Alice invites you to play Carcassonne\. · Rated · Clock: 5\+3/);
  await row.locator('button.invite-accept').click();
  const started = await first.a.next((m) => m.type === 'state' && m.waiting === false);
  assert.equal(started.clock.running, started.to_move, 'the clock starts with the game');
  await page.locator(`.my-games li[data-table="${first.table}"]:not(.invitation)`)
    .waitFor({ timeout: WAIT });

  // at the table: the panel says who invites, and Accept starts the game there
  const second = await invite(alice);
  await page.goto(`${server.base}t/${second.table}?lang=en`);
  const panel = page.locator('.invitation');
  await panel.waitFor({ timeout: WAIT });
  assert.match(await panel.textContent(), /Alice invites you to play Carcassonne\. · Not rated · No clock/);
  assert.equal(await page.evaluate(() => document.getElementById('app')?.dataset.seat), '1');
  await panel.locator('button.invite-accept').click();
  await second.a.next((m) => m.type === 'state' && m.waiting === false);
  await panel.waitFor({ state: 'hidden', timeout: WAIT });
  assertNoErrors(page);
  first.a.close(); second.a.close();
  await page.close();
});
