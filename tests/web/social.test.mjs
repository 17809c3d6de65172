// social.test.mjs -- the club at the table, through the browser: chat
// lines and a guest's name full of markup are shown as text (no element
// made, no dialog); a seat link claimed by one browser is refused to a
// second; a rematch offered by one player and accepted by the other moves
// both pages to the new table, and a declined one makes none; the lobby's
// form invites a player by name.  Every page is a guest of its own (the page asks for one at once).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, assertNoErrors, stopAll, Client, WAIT, screenshot } from './helpers.mjs';
import { join, signup } from '../server/helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

const GAME = 'carcassonne(players=2)';
const MARKUP = '<img src=x onerror=alert(1)><script>alert(2)</script><b>bold</b> & "x"';

/** A guest's name full of markup, within the 24 bytes a name may have. */
const MARKUP_NAME = '<img src=x onerror=1>';

/**
 * A page at the seat's link (English), once it shows the table; named:
 * the page's guest takes that name first (in the lobby), so that it claims
 * the seat under it.
 */
async function seatPage(url, dialogs, named = null) {
  const page = await newPage(browser);
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  if (named) {
    await page.goto(`${server.base}?lang=en`);
    // polled from here: waitForFunction does not wait for a promise, so a
    // fetch in its predicate passed at once, and the rename below could race
    // the page's own POST /api/guest and make a second guest (201)
    for (const end = Date.now() + WAIT; ;) {
      const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
      if (me.kind === 'guest') break;
      assert.ok(Date.now() < end, `the page made no guest within ${WAIT} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const status = await page.evaluate((name) => fetch('/api/guest', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }) }).then((r) => r.status), named);
    assert.equal(status, 200, `the guest renamed to ${named}`);
  }
  await page.goto(`${url}&lang=en`);
  await page.waitForFunction(() => Number(document.getElementById('app')?.dataset.seq ?? -1) >= 0,
    null, { timeout: WAIT });
  return page;
}

test('chat and names are text: markup shows as written, makes no element and no dialog',
  async () => {
    const dialogs = [];
    const t = await newTable(server, GAME, ['human', 'human'], 3);
    const a = await seatPage(t.url(0), dialogs, MARKUP_NAME);
    const b = await seatPage(t.url(1), dialogs);
    // each page is a guest of its own, named at its seat on the other page
    const nameOfB = await b.evaluate(() => fetch('/api/me').then((r) => r.json()));
    assert.equal(nameOfB.kind, 'guest');
    await a.waitForFunction((n) => document.body.textContent.includes(n), nameOfB.name,
      { timeout: WAIT });
    // a's name is markup: b shows it as written, and no element comes of it
    await b.waitForFunction((n) => document.body.textContent.includes(n), MARKUP_NAME,
      { timeout: WAIT });
    for (const p of [a, b])
      assert.equal(await p.evaluate(() => document.querySelectorAll('img[src="x"]').length), 0);

    await a.locator('#chat-input').fill(MARKUP);
    await a.keyboard.press('Enter');
    for (const p of [a, b]) {
      const line = p.locator('.chat-line .chat-text').last();
      await line.waitFor({ timeout: WAIT });
      assert.equal(await line.textContent(), MARKUP);
      assert.equal(await p.locator('.chat-panel img, .chat-panel script, .chat-panel b').count(), 0);
    }
    // the line's speaker: a's guest name, as text
    const nameOfA = await a.evaluate(() => fetch('/api/me').then((r) => r.json()));
    assert.equal(nameOfA.name, MARKUP_NAME);
    assert.ok((await b.locator('.chat-line .chat-who').last().textContent()).includes(MARKUP_NAME),
      'the speaker is named as written');
    assert.equal(await b.evaluate(() => document.querySelectorAll('img[src="x"]').length), 0);
    // nobody mutes themselves: a's own line offers no mute, b's view of it does
    assert.equal(await a.locator('.chat-line .chat-mute').count(), 0, 'no mute on one\'s own line');
    assert.equal(await b.locator('.chat-line .chat-mute').count(), 1);
    // mute: b hides a's lines, and can show them again
    await b.locator('.chat-mute').last().click();
    await b.locator('.chat-muted-box:not([hidden])').waitFor({ timeout: WAIT });
    assert.equal(await b.locator('.chat-line .chat-text').count(), 0);
    assert.equal(await b.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('tafel.muted') ?? '{}')).length), 1);
    await b.getByRole('button', { name: 'Unmute everyone' }).click();
    assert.equal(await b.locator('.chat-line .chat-text').count(), 1);
    assert.deepEqual(dialogs, []);
    assertNoErrors(a, b);
    await a.context().close();
    await b.context().close();
  });

test('a seat link claimed by one browser is refused to a second', async () => {
  const dialogs = [];
  const t = await newTable(server, GAME, ['human', 'human'], 4);
  const a = await seatPage(t.url(0), dialogs);
  const other = await newPage(browser);
  await other.goto(`${t.url(0)}&lang=en`);
  await other.getByText('This seat belongs to another player.').waitFor({ timeout: WAIT });
  // and the link's token from a client without a login too
  const api = await Client.connect(server);
  const e = await api.request({ type: 'join', table: t.table, token: t.tokens[0] }, ['state', 'error']);
  assert.equal(e.code, 'seat_taken');
  api.close();
  assertNoErrors(a);
  await a.context().close();
  await other.context().close();
});

/** Two guests' pages at a two-person table, its game over (b resigned). */
async function finishedTable(seed, dialogs) {
  const t = await newTable(server, GAME, ['human', 'human'], seed);
  const a = await seatPage(t.url(0), dialogs);
  const b = await seatPage(t.url(1), dialogs);
  await b.getByRole('button', { name: 'Resign…' }).click();
  await b.locator('.confirm button.danger').click();
  for (const p of [a, b])
    await p.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over', null,
      { timeout: WAIT });
  return { t, a, b };
}

const guestName = async (p) => (await p.evaluate(() => fetch('/api/me').then((r) => r.json()))).name;

test('a rematch offered and accepted moves both players\' pages to the new table', async () => {
  const dialogs = [];
  const { t, a, b } = await finishedTable(5, dialogs);
  await a.getByRole('button', { name: 'Rematch' }).click();
  // b is asked, a waits; nobody moves yet
  const offer = b.locator('.rematch-offer');
  await offer.waitFor({ timeout: WAIT });
  assert.equal(await offer.textContent(), `Red — ${await guestName(a)} (guest) offers a rematch.`);
  await a.getByText(/^You offered a rematch\. Waiting for Blue — /).waitFor({ timeout: WAIT });
  assert.equal(await a.getByRole('button', { name: 'Accept' }).isVisible(), false);
  assert.ok(b.url().includes(t.table) && a.url().includes(t.table));
  await screenshot(b, 'rematch-offer');
  await b.getByRole('button', { name: 'Accept' }).click();
  const tables = [];
  for (const [p, seat] of [[a, 1], [b, 0]]) {
    await p.waitForURL((u) => !u.pathname.endsWith(t.table), { timeout: WAIT });
    await p.waitForFunction(() => document.getElementById('app')?.dataset.status === 'playing',
      null, { timeout: WAIT });
    const url = new URL(p.url());
    tables.push(url.pathname);
    assert.match(url.searchParams.get('token') ?? '', /^[0-9a-f]{32}$/);
    // the seat there: turned by one
    const name = await guestName(p);
    const w = await Client.connect(server);
    const st = await join(w, url.pathname.split('/').pop());
    assert.equal(st.seats[seat].name, name);
    w.close();
  }
  assert.equal(tables[0], tables[1], 'the same new table');
  assertNoErrors(a, b);
  await a.context().close();
  await b.context().close();
});

test('a rematch declined: both are told, nobody moves, it may be offered again', async () => {
  const dialogs = [];
  const { t, a, b } = await finishedTable(6, dialogs);
  await a.getByRole('button', { name: 'Rematch' }).click();
  await b.getByRole('button', { name: 'Decline' }).click();
  const nameOfB = await guestName(b);
  await a.getByText(`Blue — ${nameOfB} (guest) declined the rematch.`).waitFor({ timeout: WAIT });
  await b.getByText('You declined the rematch.').waitFor({ timeout: WAIT });
  for (const p of [a, b]) {
    await p.getByRole('button', { name: 'Rematch' }).waitFor({ timeout: WAIT });
    assert.equal(await p.locator('.rematch-offer').isVisible(), false);
    assert.ok(p.url().includes(t.table), 'still at the old table');
  }
  const w = await Client.connect(server);
  const st = await join(w, t.table);
  assert.equal(st.rematch, undefined, 'no rematch made');
  w.close();
  // offered again, by the one who declined, and withdrawn
  await b.getByRole('button', { name: 'Rematch' }).click();
  await a.getByRole('button', { name: 'Accept' }).waitFor({ timeout: WAIT });
  await b.getByRole('button', { name: 'Withdraw the offer' }).click();
  await a.getByText(`Blue — ${nameOfB} (guest) withdrew the rematch offer.`).waitFor({ timeout: WAIT });
  assert.deepEqual(dialogs, []);
  assertNoErrors(a, b);
  await a.context().close();
  await b.context().close();
});

test('a guest\'s default name is said in the page\'s language (nl): Gast, not Guest', async () => {
  const t = await newTable(server, GAME, ['human', 'human'], 7);
  const page = await newPage(browser);
  await page.goto(`${t.url(0)}&lang=nl`);
  await page.waitForFunction(() => Number(document.getElementById('app')?.dataset.seq ?? -1) >= 0,
    null, { timeout: WAIT });
  const stored = (await page.evaluate(() => fetch('/api/me').then((r) => r.json()))).name;
  const n = stored.match(/^Guest (\d+)$/)?.[1];
  assert.ok(n, `the server keeps its name: ${stored}`);
  // the account bar, the seat, and a chat line
  await page.locator('.account-name').filter({ hasText: `Gast ${n}` }).waitFor({ timeout: WAIT });
  await page.locator('#chat-input').fill('hallo');
  await page.keyboard.press('Enter');
  await page.locator('.chat-line .chat-who').filter({ hasText: `Gast ${n}` }).waitFor({ timeout: WAIT });
  const text = await page.evaluate(() => document.body.innerText);
  assert.ok(!text.includes('Guest'), 'no English guest name in the Dutch page');
  assert.ok(text.includes(`Gast ${n}`));
  assertNoErrors(page);
  await page.context().close();
});

test('the lobby form invites a player by name', async () => {
  await signup(server, 'Ivy Invited');
  const page = await newPage(browser);
  await page.goto(`${server.base}?lang=en`);
  await page.locator('#nt-game').selectOption('carcassonne');
  await page.locator('#nt-seat-1').selectOption('human');
  await page.locator('#nt-seat-1-invite').fill('ivy invited');
  await page.locator('#nt-private').check();
  // a guest may not make a rated table: the box says why
  assert.equal(await page.locator('#nt-rated').isDisabled(), true);
  await page.locator('form.new-table button[type=submit]').click();
  const link = page.locator('.created input').first();
  await link.waitFor({ timeout: WAIT });
  const id = (await link.inputValue()).match(/\/t\/([0-9a-f]{16})/)[1];
  const api = await Client.connect(server);
  const st = await api.request({ type: 'join', table: id, token: null }, ['state', 'error']);
  assert.equal(st.code, 'private_table', 'private: nobody watches');
  api.close();
  // the invited account sits there without a token
  const cookie = (await (await fetch(new URL('/api/login', server.base), {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ivy Invited', password: 'a good password' }) })).headers.get('set-cookie')).split(';')[0];
  const ivy = await Client.connect(server, { cookie });
  const mine = await join(ivy, id);
  assert.equal(mine.seat, 1);
  assert.equal(mine.seats[1].name, 'Ivy Invited');
  assert.equal(mine.private, true);
  assert.equal(mine.waiting, true, 'the game waits for her answer (invitation.test.mjs)');
  ivy.close();
  assertNoErrors(page);
  await page.context().close();
});
