// logins.test.mjs -- logins that really end, lockouts nobody can force,
// guests that expire (issue 35, defects 3, 6 and 9; docs/club.md "Logins",
// "Too many attempts", "Guests").
//
// A login that ends ends its open sockets: after a logout, a password change
// elsewhere, `tafel admin disable` or `reset-password`, a socket opened
// before is closed with 4001 "logged out" or 4003 "disabled", and from the
// moment the login ended it claims no seat and says no chat line.  The
// login that changed the password keeps its sockets.  Wrong passwords are
// counted per name and address (addresses told by X-Forwarded-For behind
// --behind-proxy): an attack from elsewhere slows its owner, never locks
// them out.  A guest nothing refers to is deleted --guest-expire after its
// last use; one with a seat keeps its row and name.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  startServer, stopAll, Client, createTable, join, post, signup, sleep, me, change, TAFEL,
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

/** POST /api/login from a client address (--behind-proxy). */
const loginFrom = (server, addr, name, password) =>
  post(server, '/api/login', { name, password }, { headers: { 'x-forwarded-for': addr } });

test('an attack on a name from other addresses slows its owner, never locks them out', async () => {
  const server = await startServer({ args: ['--behind-proxy', '--max-login-failures', '3',
    '--max-address-failures', '6', '--slow-name-failures', '5'] });
  await signup(server, 'Owner', 'owner password');
  // from one address: the pair is refused after 3, even the right password
  for (let i = 0; i < 3; i++)
    assert.equal((await loginFrom(server, '10.0.0.66', 'owner', `guess ${i} guess`)).status, 401);
  let r = await loginFrom(server, '10.0.0.66', 'Owner', 'owner password');
  assert.equal(r.status, 429);
  assert.equal(r.body.error, 'slow_down');
  // from many addresses at once: never refused, answered slowly once the name is under attack
  const started = Date.now();
  const many = await Promise.all(Array.from({ length: 8 }, (_, i) =>
    loginFrom(server, `10.0.1.${i + 1}`, 'Owner', `other guess ${i}`)));
  assert.deepEqual(many.map((x) => x.status), Array(8).fill(401));
  assert.ok(Date.now() - started >= 2900, `slowed: ${Date.now() - started} ms`);
  // the owner, from home: slowed, and in
  const t0 = Date.now();
  r = await loginFrom(server, '10.0.0.2', 'Owner', 'owner password');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.ok(Date.now() - t0 >= 2900, `the owner is slowed too: ${Date.now() - t0} ms`);
  assert.equal((await me(server, r.cookie)).name, 'Owner');
});

test('an address spraying names is refused them, but not a name that logged in there', async () => {
  const server = await startServer({ args: ['--behind-proxy', '--max-login-failures', '3',
    '--max-address-failures', '4'] });
  // a player behind the same address as the sprayer (a school, a cafe)
  const r0 = await post(server, '/api/signup', { name: 'Neighbour', password: 'neighbour password' },
    { headers: { 'x-forwarded-for': '10.0.0.66' } });
  assert.equal(r0.status, 201);
  await signup(server, 'Stranger', 'stranger password');
  for (let i = 0; i < 4; i++)
    assert.equal((await loginFrom(server, '10.0.0.66', `victim${i}`, 'password1')).status, 401);
  // the address is spent: a name never logged in from it is refused there...
  let r = await loginFrom(server, '10.0.0.66', 'Stranger', 'stranger password');
  assert.equal(r.status, 429);
  // ...and an unknown name gets the same answer
  const unknown = await loginFrom(server, '10.0.0.66', 'nobody at all', 'password1');
  assert.equal(unknown.status, 429);
  assert.equal(unknown.body.error, r.body.error);
  // the neighbour, who signed up there, logs in there (another browser)
  r = await loginFrom(server, '10.0.0.66', 'neighbour', 'neighbour password');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  // and the stranger from their own address
  assert.equal((await loginFrom(server, '10.0.0.7', 'Stranger', 'stranger password')).status, 200);
});

test('guests nothing refers to expire; a guest with a seat keeps its row and its name', async () => {
  const server = await startServer({ args: ['--guest-expire', '2s'] });
  const idle = (await post(server, '/api/guest', { name: 'Idle Guest' })).cookie;
  const sitting = (await post(server, '/api/guest', { name: 'Sitting Guest' })).cookie;
  const played = (await post(server, '/api/guest', { name: 'Played Guest' })).cookie;
  const host = await Client.connect(server);
  const open = await createTable(host, 'cardcassonne', ['human', 'human']);
  const sitter = await Client.connect(server, { cookie: sitting });
  await join(sitter, open.table, open.tokens[0]);
  sitter.close();
  const done = await createTable(host, 'cardcassonne', ['human', 'random']);
  const player = await Client.connect(server, { cookie: played });
  const s = await join(player, done.table, done.tokens[0]);
  const { state } = await change(player, { type: 'resign', seq: s.seq });
  assert.equal(state.status, 'over');
  player.close();

  const deadline = Date.now() + 10000;
  while ((await me(server, idle)).kind !== null) {
    assert.ok(Date.now() < deadline, 'the idle guest still logged in after 10 s');
    await sleep(250);
  }
  assert.equal((await me(server, sitting)).name, 'Sitting Guest');
  assert.equal((await me(server, played)).name, 'Played Guest');
  const r = spawnSync(TAFEL, ['admin', '--db', server.db, 'players'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /Idle Guest/);
  assert.match(r.stdout, /Sitting Guest/);
  // the finished game still shows its guest's name
  const watcher = await Client.connect(server);
  const view = await join(watcher, done.table);
  assert.equal(view.seats[0].name, 'Played Guest');
});
