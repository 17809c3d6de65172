// logins.test.mjs -- a login that ends ends its open sockets (issue 35,
// defect 3; docs/club.md "Logins"): after a logout, a password change
// elsewhere, `tafel admin disable` or `reset-password`, a socket opened
// before is closed with 4001 "logged out" or 4003 "disabled", and from the
// moment the login ended it claims no seat and says no chat line.  The
// login that changed the password keeps its sockets.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  startServer, stopAll, Client, createTable, join, post, signup, sleep, TAFEL,
} from './helpers.mjs';

after(stopAll);

/** A second login of name (another browser): its cookie. */
async function login(server, name, password) {
  const r = await post(server, '/api/login', { name, password });
  assert.equal(r.status, 200, `login ${name}: ${JSON.stringify(r.body)}`);
  return r.cookie;
}

/** The socket still answers: a ping, a pong. */
async function answers(client) {
  const m = await client.request({ type: 'ping' }, 'pong', { timeout: 5000 });
  assert.equal(m.type, 'pong');
}

function admin(db, args, input) {
  const r = spawnSync(TAFEL, ['admin', '--db', db, ...args], { input, encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
}

/** A table of two people watched by a program without a login: { table, tokens, watcher }. */
async function watchedTable(server) {
  const watcher = await Client.connect(server);
  const created = await createTable(watcher, 'cardcassonne', ['human', 'human']);
  await join(watcher, created.table);
  return { table: created.table, tokens: created.tokens, watcher };
}

test('a logout closes the sockets of that login (4001), at once: no chat, no claim after it', async () => {
  const server = await startServer();
  const here = await signup(server, 'Anna', 'anna password');
  const there = await login(server, 'Anna', 'anna password');
  const { table, tokens, watcher } = await watchedTable(server);
  const s1 = await Client.connect(server, { cookie: here });
  const s2 = await Client.connect(server, { cookie: there });
  await join(s1, table, tokens[0]);
  await join(s2, table);
  s1.send({ type: 'chat', text: 'before the logout' });
  await watcher.next((m) => m.type === 'chat' && m.lines.some((l) => l.text === 'before the logout'));

  assert.equal((await post(server, '/api/logout', {}, { cookie: here })).status, 200);
  // sent after the logout's answer, before the close: neither is taken
  s1.send({ type: 'chat', text: 'after the logout' });
  s1.send({ type: 'join', table, token: tokens[1] });
  const closed = await s1.waitClosed(5000);
  assert.deepEqual(closed, { code: 4001, reason: 'logged out' });

  // the other browser's login goes on
  await answers(s2);
  s2.send({ type: 'chat', text: 'still here' });
  await watcher.next((m) => m.type === 'chat' && m.lines.some((l) => l.text === 'still here'));
  assert.ok(!watcher.messages.some((m) => m.type === 'chat' && m.lines.some((l) => l.text === 'after the logout')),
    'no line of the ended login');
  // seat 1 was not claimed by the ended login: Bea claims it
  const bea = await Client.connect(server, { cookie: await signup(server, 'Bea', 'bea password') });
  const state = await join(bea, table, tokens[1]);
  assert.equal(state.seat, 1);
  await watcher.next((m) => m.type === 'state' && m.seats[1].name === 'Bea');
  assert.ok(!s2.closed, 'the other login\'s socket is open');
});

test('a password change closes the other logins\' sockets; the changing login keeps its own', async () => {
  const server = await startServer();
  const here = await signup(server, 'Carla', 'carla password');
  const there = await login(server, 'Carla', 'carla password');
  const mine = await Client.connect(server, { cookie: here });
  const other = await Client.connect(server, { cookie: there });
  const r = await post(server, '/api/password', { old: 'carla password', new: 'carla second' }, { cookie: here });
  assert.equal(r.status, 200);
  assert.deepEqual(await other.waitClosed(5000), { code: 4001, reason: 'logged out' });
  await answers(mine);
  await sleep(300);
  assert.ok(!mine.closed);
});

test('tafel admin disable and reset-password close the player\'s sockets within seconds', async () => {
  const server = await startServer();
  const dana = await Client.connect(server, { cookie: await signup(server, 'Dana', 'dana password') });
  const eva = await Client.connect(server, { cookie: await signup(server, 'Eva', 'eva password') });
  const fay = await Client.connect(server, { cookie: await signup(server, 'Fay', 'fay password') });
  const { table, tokens, watcher } = await watchedTable(server);
  await join(dana, table);
  const started = Date.now();
  admin(server.db, ['disable', 'Dana']);
  admin(server.db, ['reset-password', 'Eva'], 'eva new password\n');
  assert.deepEqual(await dana.waitClosed(10000), { code: 4003, reason: 'disabled' });
  assert.deepEqual(await eva.waitClosed(10000), { code: 4001, reason: 'logged out' });
  assert.ok(Date.now() - started < 8000, `closed after ${Date.now() - started} ms`);
  await answers(fay);
  // the disabled player's seat link is still free
  const state = await join(fay, table, tokens[0]);
  assert.equal(state.seat, 0);
  await watcher.next((m) => m.type === 'state' && m.seats[0].name === 'Fay');
});
