// pg_offloop.test.mjs -- on PostgreSQL the loop never waits for a read of
// the club (issue 36: docs/server.md, "Commits off the loop"): a login's
// lookup (an HTTP request with a cookie, a socket opened with one), a
// profile, the leaderboard and a table's address are read on the store's
// pool, and the answer goes out when they are done.  Skipped without
// TAFEL_TEST_PG (scripts/test-server.sh --pg starts a cluster).
//
// A second connection holds a lock on the table a read needs, so that read
// waits as long as the test says; meanwhile what needs no store must be
// answered at once, and what waited is answered once the lock goes.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  PG, startServer, stopAll, signup, connectAs, Client, sleep, getJsonAs, createTable,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';
const PROMPT_MS = 500; // a loop that does not wait answers in a few ms; this leaves room for CI

/** The database name of a server's postgresql:// URI. */
const dbName = (uri) => decodeURIComponent(uri.match(/^postgres(?:ql)?:\/\/[^/]*\/([^?]*)/)[1]);

/**
 * Holds an ACCESS EXCLUSIVE lock on tables of db until release(): a psql
 * that began a transaction and waits for its input.
 */
async function lockTables(db, tables) {
  const p = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', `${PG} dbname=${dbName(db)}`],
    { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { out += d; });
  p.stdin.write(`BEGIN; LOCK TABLE ${tables.join(', ')} IN ACCESS EXCLUSIVE MODE;
    SELECT 'locked';\n`);
  const deadline = Date.now() + 10000;
  while (!out.includes('locked')) {
    assert.ok(Date.now() < deadline && p.exitCode === null, `no lock: ${out}`);
    await sleep(20);
  }
  const exited = new Promise((res) => p.on('exit', res));
  return {
    release: () => {
      if (!p.stdin.writableEnded) p.stdin.end('COMMIT;\n');
      return exited;
    },
  };
}

/** How long a request takes, and what it answered: { ms, value }. */
async function timed(promise) {
  const t0 = Date.now();
  const value = await promise;
  return { ms: Date.now() - t0, value };
}

/** Whether promise settles within ms. */
const settlesWithin = (promise, ms) => Promise.race([promise.then(() => true, () => true),
  sleep(ms).then(() => false)]);

test('a login read waits off the loop: other requests and sockets are answered meanwhile',
  { skip }, async () => {
    const server = await startServer();
    const cookie = await signup(server, 'Wanda');
    assert.equal((await getJsonAs(server, '/api/me', cookie)).json.name, 'Wanda');
    const lock = await lockTables(server.db, ['logins']);
    try {
      // the login's lookup waits for the lock ...
      const meLater = getJsonAs(server, '/api/me', cookie);
      const socketLater = connectAs(server, cookie); // opens at once; its messages wait
      assert.equal(await settlesWithin(meLater, 300), false, '/api/me waits for the lock');
      // ... and the loop does not: nobody's requests and sockets go on
      const games = await timed(getJsonAs(server, '/api/games'));
      assert.equal(games.value.status, 200);
      assert.ok(games.ms < PROMPT_MS, `/api/games took ${games.ms} ms`);
      const c = await Client.connect(server);
      const pong = await timed(c.request({ type: 'ping' }, 'pong'));
      assert.ok(pong.ms < PROMPT_MS, `a ping took ${pong.ms} ms`);
      const made = await timed(createTable(c, 'cardcassonne', ['human', 'medium'], 3));
      assert.ok(made.ms < PROMPT_MS, `a table was made in ${made.ms} ms`);
      c.close();
      // the socket with the login opened, but what it sends waits for its login
      const s = await socketLater;
      s.send({ type: 'ping' });
      s.send({ type: 'create', game: 'cardcassonne', seats: ['human', 'medium'], rated: true });
      await sleep(200);
      assert.deepEqual(s.queue.map((m) => m.type), [], 'nothing answered before the login is read');
      await lock.release();
      assert.equal((await meLater).json.name, 'Wanda');
      // in the order sent, and the rated table made by the login (an account's only)
      assert.equal((await s.next(undefined, { strict: true })).type, 'pong');
      const created = await s.next(['created', 'error']);
      assert.equal(created.type, 'created', JSON.stringify(created));
      s.close();
    } finally {
      await lock.release().catch(() => {});
    }
  });

test('profiles and the leaderboard are read off the loop', { skip }, async () => {
  const server = await startServer();
  const cookie = await signup(server, 'Rosa');
  assert.equal((await getJsonAs(server, '/api/players/Rosa', cookie)).status, 200);
  const lock = await lockTables(server.db, ['ratings']);
  try {
    const profile = getJsonAs(server, '/api/players/Rosa', cookie);
    const board = getJsonAs(server, '/api/leaderboard?game=cardcassonne');
    assert.equal(await settlesWithin(Promise.any([profile, board]), 300), false,
      'both wait for the lock');
    const games = await timed(getJsonAs(server, '/api/games'));
    assert.ok(games.ms < PROMPT_MS, `/api/games took ${games.ms} ms`);
    const c = await Client.connect(server);
    const pong = await timed(c.request({ type: 'ping' }, 'pong'));
    assert.ok(pong.ms < PROMPT_MS, `a ping took ${pong.ms} ms`);
    c.close();
    await lock.release();
    const p = await profile;
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json.name, 'Rosa');
    const b = await board;
    assert.equal(b.status, 200, b.text);
    assert.equal(b.json.game, 'cardcassonne');
    // the errors come the same way
    const none = await getJsonAs(server, '/api/players/Nobody-here', cookie);
    assert.equal(none.status, 404);
    assert.equal(none.json.error, 'no_player');
    const bad = await getJsonAs(server, '/api/leaderboard?game=chess');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, 'bad_game');
  } finally {
    await lock.release().catch(() => {});
  }
});

test('a request whose connection closes while its read waits leaves the server well',
  { skip }, async () => {
    const server = await startServer();
    const cookie = await signup(server, 'Quinn');
    const lock = await lockTables(server.db, ['logins', 'ratings']);
    const aborts = [];
    try {
      for (const path of ['/api/me', '/api/players/Quinn', '/api/my-games']) {
        const ac = new AbortController();
        aborts.push(fetch(new URL(path, server.base), { headers: { cookie }, signal: ac.signal })
          .catch(() => 'aborted'));
        setTimeout(() => ac.abort(), 100);
      }
      const s = await connectAs(server, cookie);
      s.send({ type: 'ping' });
      s.terminate();
      assert.deepEqual(await Promise.all(aborts), ['aborted', 'aborted', 'aborted']);
    } finally {
      await lock.release();
    }
    await sleep(200);
    assert.equal((await getJsonAs(server, '/api/me', cookie)).json.name, 'Quinn');
    const c = await connectAs(server, cookie);
    assert.equal((await c.request({ type: 'ping' }, 'pong')).type, 'pong');
    c.close();
    assert.equal(server.proc.exitCode, null, server.stderr());
  });

test('the lobby after a change here is read off the loop, and holds that change', { skip },
  async () => {
    const server = await startServer();
    const c = await Client.connect(server);
    await c.request({ type: 'lobby' }, 'lobby');
    const made = await createTable(c, 'cardcassonne', ['human', 'medium'], 4);
    const lock = await lockTables(server.db, ['tables']);
    try {
      const list = getJsonAs(server, '/api/tables');
      c.send({ type: 'lobby' });
      assert.equal(await settlesWithin(list, 300), false, 'the list waits for the lock');
      const other = await Client.connect(server);
      const pong = await timed(other.request({ type: 'ping' }, 'pong'));
      assert.ok(pong.ms < PROMPT_MS, `a ping took ${pong.ms} ms`);
      const games = await timed(getJsonAs(server, '/api/games'));
      assert.ok(games.ms < PROMPT_MS, `/api/games took ${games.ms} ms`);
      other.close();
      assert.equal(c.queue.filter((m) => m.type === 'lobby').length, 0, 'the socket waits too');
      await lock.release();
      const listed = (await list).json.map((t) => t.table);
      assert.ok(listed.includes(made.table), `the new table is listed: ${listed}`);
      const lobby = await c.next('lobby');
      assert.ok(lobby.tables.some((t) => t.table === made.table));
      c.close();
    } finally {
      await lock.release();
    }
  });
