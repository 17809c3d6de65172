// pg_accounts_async.test.mjs -- the account routes' store calls run off the
// loop (issue 36: docs/server.md, "Commits off the loop"): a signup waiting
// for PostgreSQL holds nothing else up, and a client that leaves meanwhile
// costs nothing.  Skipped without TAFEL_TEST_PG (scripts/test-server.sh --pg
// starts a cluster).
//
// The wait is made on purpose: a second connection (psql) takes the players
// table in ACCESS EXCLUSIVE mode in an open transaction, so a signup's first
// step (is the name taken?) waits on its pool thread until that transaction
// ends.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  PG, startServer, stopAll, newDatabase, Client, post, me, sleep,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';
const PROMPT_MS = 200; // what the loop may take for an answer while the signup waits

/** A transaction holding `LOCK TABLE table` (ACCESS EXCLUSIVE) on the server's database,
 * open until release(): { release() -> Promise }. */
async function holdLock(db, table) {
  const name = decodeURIComponent(db.match(/^postgres(?:ql)?:\/\/[^/]*\/([^?]*)/)[1]);
  const psql = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', `${PG} dbname=${name}`],
    { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let errText = '';
  psql.stdout.setEncoding('utf8');
  psql.stderr.setEncoding('utf8');
  psql.stderr.on('data', (d) => { errText += d; });
  const exited = new Promise((res) => psql.on('exit', (code) => res(code)));
  psql.stdin.write(`BEGIN;\nLOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE;\n\\echo locked\n`);
  await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no lock in 5 s: ${errText}`)), 5000);
    psql.stdout.on('data', (d) => {
      out += d;
      if (out.includes('locked')) { clearTimeout(timer); res(); }
    });
    exited.then((code) => {
      clearTimeout(timer);
      rej(new Error(`psql exited ${code}: ${errText}`));
    });
  });
  return {
    async release() {
      psql.stdin.end('COMMIT;\n');
      const timer = setTimeout(() => psql.kill('SIGKILL'), 5000);
      assert.equal(await exited, 0, `psql: ${errText}`);
      clearTimeout(timer);
    },
  };
}

/** Runs body(release) while table is locked; released at the latest when body ends. */
async function whileLocked(db, table, body) {
  const lock = await holdLock(db, table);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await lock.release();
  };
  try {
    await body(release);
  } finally {
    await release();
  }
}

/** A server on a new database of its own: { db, server }. */
async function serverOfItsOwn() {
  const db = newDatabase();
  return { db, server: await startServer({ db }) };
}

/** A new guest (post's answer) with a socket opened with its login. */
async function guestOnline(server, name) {
  const guest = await post(server, '/api/guest', { name });
  assert.equal(guest.status, 201, JSON.stringify(guest.body));
  return { guest, socket: await Client.connect(server, { cookie: guest.cookie }) };
}

/** Whether promise p is still pending after the current turn. */
async function pending(p) {
  const marker = Symbol('pending');
  const settled = p.then(() => 'settled', () => 'settled');
  return (await Promise.race([settled, sleep(0).then(() => marker)])) === marker;
}

/** GET /api/games and a cookieless socket's ping, each answered within PROMPT_MS. */
async function loopAnswers(server) {
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    // a loop that waits for the lock would answer never: a bounded wait fails the test
    const r = await fetch(new URL('/api/games', server.base),
      { signal: AbortSignal.timeout(3000) });
    await r.text();
    const ms = performance.now() - t0;
    assert.equal(r.status, 200);
    assert.ok(ms < PROMPT_MS, `GET /api/games took ${ms.toFixed(0)} ms while a signup waited`);
  }
  const c = await Client.connect(server);
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const pong = await c.request({ type: 'ping' }, ['pong', 'error'], { timeout: 3000 });
    const ms = performance.now() - t0;
    assert.equal(pong.type, 'pong', JSON.stringify(pong));
    assert.ok(ms < PROMPT_MS, `a ping took ${ms.toFixed(0)} ms while a signup waited`);
  }
  c.close();
}

test('a signup waiting for a locked players table holds neither the lobby nor a socket up',
  { skip, timeout: 60000 }, async () => {
    const { db, server } = await serverOfItsOwn();
    await whileLocked(db, 'players', async (release) => {
      const signup = post(server, '/api/signup', { name: 'Patient', password: 'a good password' });
      await sleep(300); // the signup's job is at the lock by now
      await loopAnswers(server);
      assert.ok(await pending(signup), 'the signup waits for the lock');
      await release();
      const r = await signup;
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.match(r.cookie || '', /^tafel_session=./);
      const who = await me(server, r.cookie);
      assert.equal(who.name, 'Patient');
      assert.equal(who.kind, 'account');
    });
  });

test('a client that leaves while its signup waits for the store leaves the server well',
  { skip, timeout: 60000 }, async () => {
    const { db, server } = await serverOfItsOwn();
    await whileLocked(db, 'players', async (release) => {
      const leaving = [];
      for (let i = 0; i < 3; i++) {
        const abort = new AbortController();
        const request = fetch(new URL('/api/signup', server.base), {
          method: 'POST', signal: abort.signal, headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Leaver', password: 'a good password' }),
        });
        leaving.push({ abort, request });
      }
      await sleep(300);
      for (const l of leaving) l.abort.abort();
      for (const l of leaving) await assert.rejects(l.request);
      await sleep(100); // the server sees the connections close before the jobs are back
      await loopAnswers(server);
      await release();
      await sleep(300); // the jobs come back to connections that are gone
      assert.equal(server.proc.exitCode, null, `the server exited: ${server.stderr()}`);
      // the requests that were left stored nothing: the name is free
      const r = await post(server, '/api/signup', { name: 'Leaver', password: 'a good password' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      await loopAnswers(server);
      const stopped = await server.stop('SIGTERM');
      assert.equal(stopped.code, 0, `exit ${JSON.stringify(stopped)}: ${server.stderr()}`);
      assert.doesNotMatch(server.stderr(), /AddressSanitizer|LeakSanitizer|runtime error/);
    });
  });

test('a logout waiting for a locked logins table ends its sockets once it is back',
  { skip, timeout: 60000 }, async () => {
    const { db, server } = await serverOfItsOwn();
    const { guest, socket } = await guestOnline(server, 'Brief');
    await whileLocked(db, 'logins', async (release) => {
      // the caller's login is looked up first: that step waits for the lock
      const logout = post(server, '/api/logout', {}, { cookie: guest.cookie });
      await sleep(300);
      await loopAnswers(server);
      assert.ok(await pending(logout), 'the logout waits for the lock');
      assert.equal(socket.closed, null, 'the socket stays open until the logout is done');
      await release();
      const r = await logout;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.match(r.setCookie || '', /tafel_session=;.*Max-Age=0/);
      assert.equal((await socket.waitClosed(5000)).code, 4001);
      assert.equal((await me(server, guest.cookie)).kind, null);
    });
  });

test('the check of open sockets\' logins waits for a locked logins table off the loop',
  { skip, timeout: 60000 }, async () => {
    const { db, server } = await serverOfItsOwn();
    const { guest, socket } = await guestOnline(server, 'Watcher');
    await whileLocked(db, 'logins', async (release) => {
      await sleep(1500); // a tick or more: the check of the guest's socket is at the lock
      await loopAnswers(server);
      await release();
    });
    // the check went on once the lock was gone: the login is live, its socket stays
    await sleep(1500);
    assert.equal(socket.closed, null);
    assert.equal((await socket.request({ type: 'ping' }, ['pong', 'error'])).type, 'pong');
    socket.close();
  });
