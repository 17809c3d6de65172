// pg_async.test.mjs -- a table's changes committed off the loop (issue 36:
// docs/server.md, "Commits off the loop"; shared/notes/stack-turn4.md,
// pitfalls 2, 3 and 9).  Skipped without TAFEL_TEST_PG (scripts/test-server.sh
// --pg starts a cluster).
//
// Commits are made slow on purpose in each test's own database: a deferred
// constraint trigger on actions sleeps at COMMIT (once per transaction) for
// the tables listed in slow_tables, so a change of such a table holds its
// commit (and its pool connection) for as long as the test says, and only
// that table's.  A
// table's id picks its pool connection (pool.c: FNV-1a of the id, modulo the
// connections), so the tests pick tables whose lanes differ where they must.
//
// The club's reads and writes (a table's chat, its results and ratings) are
// jobs of the same pool: with the table they need locked by a second
// connection, the loop still answers everything else at once, and the
// line or the results arrive once the lock is released.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  PG, startServer, stopAll, newDatabase, sql, Client, createTable, seat, join, sleep, mustAct,
  fetchRecord, replayJson, waitAny, identity, ratedTableReady,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';
const GAME = 'cardcassonne';
const POOL = 8; // --db-connections' default on PostgreSQL

/** The pool's lane of a table id (pool.c's lane_of). */
function lane(id, n) {
  let h = 2166136261;
  for (const c of Buffer.from(id)) h = Math.imul(h ^ c, 16777619) >>> 0;
  return h % n;
}

/** Commits of the tables in slow_tables sleep at COMMIT (after the server made its schema). */
function slowCommits(db) {
  sql(db, `CREATE TABLE slow_tables (id text PRIMARY KEY, ms integer NOT NULL);
    CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $f$
    DECLARE d integer;
    BEGIN
      SELECT ms INTO d FROM slow_tables WHERE id = NEW.table_id;
      -- once per transaction, however many actions its change inserts
      IF d IS NOT NULL AND d > 0 AND current_setting('tafel.slept', true) IS DISTINCT FROM 'y'
      THEN
        PERFORM set_config('tafel.slept', 'y', true);
        PERFORM pg_sleep(d / 1000.0);
      END IF;
      RETURN NULL;
    END $f$;
    CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON actions
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();`);
}

const slow = (db, id, ms) => sql(db, `INSERT INTO slow_tables VALUES ('${id}', ${ms})
  ON CONFLICT (id) DO UPDATE SET ms = ${ms}`);

/** A table of two people, each seated on a socket: { id, players: [{client, state}] }. */
async function tableOfTwo(server, seed) {
  const c = await Client.connect(server);
  const created = await createTable(c, GAME, ['human', 'human'], seed);
  c.close();
  const players = [];
  for (const token of created.tokens) players.push(await seat(server, created.table, token));
  return { id: created.table, tokens: created.tokens, players };
}

/** The player to move at t, its states brought up to date: { p, s, other }. */
async function toMove(t) {
  for (;;) {
    for (const p of t.players) {
      for (const s of p.client.takeStates()) if (s.seq >= p.state.seq) p.state = s;
    }
    const newest = Math.max(...t.players.map((p) => p.state.seq));
    const i = t.players.findIndex((p) => p.state.seq === newest && mustAct(p.state));
    if (i >= 0) return { p: t.players[i], s: t.players[i].state, other: t.players[1 - i] };
    await waitAny(t.players.map((p) => p.client), 5000,
      () => t.players.some((p) => p.client.queue.some((m) => m.type === 'state')));
  }
}

/** A table of two on another lane than table id's. */
async function otherLane(server, id, seed = 2) {
  for (; ; seed++) {
    const b = await tableOfTwo(server, seed);
    if (lane(b.id, POOL) !== lane(id, POOL)) return b;
  }
}

/** Tables of two until two of them are on different lanes: [slow, fast]. */
async function twoLanes(server) {
  const a = await tableOfTwo(server, 1);
  return [a, await otherLane(server, a.id)];
}

/** The index of the first message of client matching f (-1 none). */
const indexOf = (client, f) => client.messages.findIndex(f);

/** Polls f() until it is true. */
async function until(f, what, ms = 15000) {
  const deadline = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

/**
 * Holds the table named locked (ACCESS EXCLUSIVE: not even read) from a
 * second connection, in an open transaction, until release() commits it.
 */
async function lockTable(db, name) {
  const psql = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', db],
    { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  psql.stdout.on('data', (d) => { out += d; });
  psql.stderr.on('data', (d) => { out += d; });
  const exited = once(psql, 'exit');
  psql.stdin.write(`BEGIN;\nLOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE;\n\\echo locked\n`);
  try {
    await until(() => out.includes('locked'), `${name} locked (${out})`, 5000);
  } catch (e) {
    psql.kill();
    throw e;
  }
  return {
    async release() {
      psql.stdin.end('COMMIT;\n');
      const timer = setTimeout(() => psql.kill(), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What the loop answers while a job waits for a lock: /api/games, a ping,
 *  a move at table b (another lane), each within 200 ms. */
async function answersAtOnce(server, client, b) {
  const mb = await toMove(b);
  let t0 = Date.now();
  const games = await fetch(server.base + 'api/games');
  assert.equal(games.status, 200);
  await games.text();
  const msGames = Date.now() - t0;
  t0 = Date.now();
  const pong = await client.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong');
  const msPing = Date.now() - t0;
  t0 = Date.now();
  const ack = await mb.p.client.request({ type: 'move', seq: mb.s.seq, action: mb.s.legal[0] },
    ['ack', 'error']);
  const msMove = Date.now() - t0;
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  assert.ok(msGames < 200 && msPing < 200 && msMove < 200,
    `/api/games ${msGames} ms, a ping ${msPing} ms, another table's move ${msMove} ms`);
}

test('a chat line waits for its store off the loop: the rest is answered at once, the line told once stored', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  // joined before the lock: a join reads the chat's history too
  const [a, b] = await twoLanes(server);
  const watcher = await Client.connect(server);
  await join(watcher, a.id);
  const speaker = a.players[0].client;
  const lock = await lockTable(db, 'chat');
  let late;
  try {
    speaker.send({ type: 'chat', text: 'held by the lock' });
    await sleep(50); // its job waits for the lock
    await answersAtOnce(server, watcher, b);
    // a join meanwhile: its state at once, its history after the line's job
    late = await Client.connect(server);
    await join(late, a.id);
    // one that joins and closes before its history is read
    const gone = await Client.connect(server);
    await join(gone, a.id);
    gone.close();
    await sleep(200);
    assert.ok(![...speaker.messages, ...watcher.messages, ...late.messages]
      .some((m) => m.type === 'chat'), 'not told before it is stored');
  } finally {
    await lock.release();
  }
  for (const c of [watcher, speaker, late]) {
    const told = await c.next('chat', { timeout: 5000 });
    assert.deepEqual(told.lines.map((l) => [l.n, l.text]), [[1, 'held by the lock']]);
  }
  await sleep(200);
  for (const c of [watcher, speaker, late]) {
    assert.equal(c.messages.filter((m) => m.type === 'chat').length, 1,
      'the line told once: live to those joined before it, in the history to the late one');
  }
  const pong = await late.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong', 'the server goes on');
  const [[stored]] = sql(db, `SELECT count(*) FROM chat WHERE table_id = '${a.id}'`);
  assert.equal(stored, 1);
});

test('a finished rated table\'s results wait for their store off the loop: its end and the rest answered at once', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  const winner = await identity(server, 'Winner', { account: true });
  const loser = await identity(server, 'Loser', { account: true });
  const g = await ratedTableReady(server, winner, loser, 7);
  const b = await otherLane(server, g.table, 20);
  const results = () => sql(db, `SELECT count(*) FROM results WHERE table_id = '${g.table}'`)[0][0];
  const lock = await lockTable(db, 'ratings');
  try {
    const t0 = Date.now();
    const ack = await g.loser.request({ type: 'resign', seq: g.seq }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    const over = await g.winner.next((m) => m.type === 'state' && m.status === 'over',
      { timeout: 2000 });
    assert.equal(over.reason ?? '', '', 'played, not aborted');
    const msEnd = Date.now() - t0;
    assert.ok(msEnd < 200, `the resignation and the end told after ${msEnd} ms`);
    await answersAtOnce(server, g.winner, b);
    await sleep(200);
    assert.equal(results(), 0, 'its results wait for the lock');
  } finally {
    await lock.release();
  }
  await until(() => results() === 2, 'the results stored once the lock is released', 5000);
  const [[games]] = sql(db, `SELECT sum(games) FROM ratings r JOIN players p ON p.id = r.player
    WHERE p.name IN ('Winner', 'Loser')`);
  assert.equal(games, 2, 'and both ratings');
});

test('a slow commit holds only its own table: other tables, the lobby and pings answer at once', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  slowCommits(db);
  const [a, b] = await twoLanes(server);
  slow(db, a.id, 2000);
  const lobby = await Client.connect(server);

  const ma = await toMove(a);
  const sentA = Date.now();
  ma.p.client.send({ type: 'move', seq: ma.s.seq, action: ma.s.legal[0] });
  await sleep(150); // A's commit has begun: its connection sleeps in COMMIT

  const mb = await toMove(b);
  let t0 = Date.now();
  const ackB = await mb.p.client.request({ type: 'move', seq: mb.s.seq, action: mb.s.legal[0] },
    ['ack', 'error']);
  const msB = Date.now() - t0;
  assert.equal(ackB.type, 'ack', JSON.stringify(ackB));
  assert.ok(msB < 300, `the other table's move took ${msB} ms while A's commit sleeps`);

  t0 = Date.now();
  const l = await lobby.request({ type: 'lobby' }, ['lobby', 'error']);
  assert.equal(l.type, 'lobby');
  const pong = await lobby.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong');
  // a read of the busy table: as it was before the change in flight
  const watching = await join(lobby, a.id);
  const msReads = Date.now() - t0;
  assert.ok(msReads < 300, `the lobby, a ping and a join took ${msReads} ms`);
  assert.equal(watching.seq, ma.s.seq, 'the busy table is shown as it was, not ahead of its '
    + 'commit');

  const ackA = await ma.p.client.next(['ack', 'error'], { timeout: 10000 });
  const msA = Date.now() - sentA;
  assert.equal(ackA.type, 'ack', JSON.stringify(ackA));
  assert.equal(ackA.seq, ma.s.seq + 1);
  assert.ok(msA >= 1800, `A's move was acknowledged after ${msA} ms, before its 2 s commit`);
  const stateAt = indexOf(ma.p.client, (m) => m.type === 'state' && m.seq === ackA.seq);
  const ackAt = indexOf(ma.p.client, (m) => m.type === 'ack' && m.seq === ackA.seq);
  assert.ok(stateAt >= 0 && stateAt < ackAt, 'its state came before its ack');
  const [[seq]] = sql(db, `SELECT seq FROM tables WHERE id = '${a.id}'`);
  assert.equal(seq, ackA.seq, 'acknowledged once stored');
});

test('requests to a busy table wait their turn: applied in order, each answered once', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  slowCommits(db);
  const t = await tableOfTwo(server, 3);
  slow(db, t.id, 1000);
  const m = await toMove(t);
  const s = m.s.seq;
  // the mover's move, its resignation right behind it (for the seq the move
  // makes), and the other seat's resignation for the seq before: stale or over
  m.p.client.send({ type: 'move', seq: s, action: m.s.legal[0] });
  m.p.client.send({ type: 'resign', seq: s + 1 });
  m.other.client.send({ type: 'resign', seq: s });
  const first = await m.p.client.next(['ack', 'error'], { timeout: 10000 });
  const second = await m.p.client.next(['ack', 'error'], { timeout: 10000 });
  const third = await m.other.client.next(['ack', 'error'], { timeout: 10000 });
  assert.deepEqual([first.type, first.seq], ['ack', s + 1], JSON.stringify(first));
  assert.deepEqual([second.type, second.seq], ['ack', s + 2], JSON.stringify(second));
  assert.equal(third.type, 'error', JSON.stringify(third));
  assert.ok(['stale', 'over'].includes(third.code), JSON.stringify(third));
  await sleep(300);
  const msgs = m.p.client.messages;
  const at = (f) => msgs.findIndex(f);
  const state1 = at((x) => x.type === 'state' && x.seq === s + 1);
  const ack1 = at((x) => x.type === 'ack' && x.seq === s + 1);
  const state2 = at((x) => x.type === 'state' && x.seq === s + 2);
  const ack2 = at((x) => x.type === 'ack' && x.seq === s + 2);
  assert.ok(state1 >= 0 && state1 < ack1 && ack1 < state2 && state2 < ack2,
    `state, ack, state, ack in order: ${[state1, ack1, state2, ack2]}`);
  assert.equal(msgs.filter((x) => x.type === 'ack').length, 2, 'each answered once');
  assert.equal(m.other.client.messages.filter((x) => x.type === 'ack' || x.type === 'error').length,
    1, 'the stale one answered once');
  const [[seq, finished]] = sql(db, `SELECT seq, finished FROM tables WHERE id = '${t.id}'`);
  assert.deepEqual([seq, finished], [s + 2, 1]);
  const [[resigned]] = sql(db, `SELECT count(*) FROM seats WHERE table_id = '${t.id}'
    AND resigned = 1`);
  assert.equal(resigned, 1, 'one seat resigned: the stale request changed nothing');
});

test('a socket that closes before its commit: the move is stored once, the resend acknowledged', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  slowCommits(db);
  const t = await tableOfTwo(server, 4);
  slow(db, t.id, 1000);
  const m = await toMove(t);
  const i = t.players.indexOf(m.p);
  const action = m.s.legal[0];
  m.p.client.send({ type: 'move', seq: m.s.seq, action });
  await sleep(200);
  m.p.client.terminate();
  await until(() => sql(db, `SELECT seq FROM tables WHERE id = '${t.id}'`)[0][0] === m.s.seq + 1,
    'the move stored');
  const positions = () => sql(db, `SELECT count(*) FROM actions WHERE table_id = '${t.id}'`)[0][0];
  const stored = positions();
  // the page reconnects and sends its move again, for the seq it had
  const back = await seat(server, t.id, t.tokens[i]);
  assert.equal(back.state.seq, m.s.seq + 1, 'the move is in the table');
  const ack = await back.client.request({ type: 'move', seq: m.s.seq, action }, ['ack', 'error']);
  assert.deepEqual([ack.type, ack.seq], ['ack', m.s.seq + 1], JSON.stringify(ack));
  await back.client.next((x) => x.type === 'state' && x.seq === m.s.seq + 1);
  assert.equal(positions(), stored, 'not applied twice');
  const pong = await back.client.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong', 'the server goes on');
});

test('a commit in doubt: never acknowledged, the table read again, the resend applied once', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db });
  slowCommits(db);
  const t = await tableOfTwo(server, 5);
  slow(db, t.id, 3000);
  const m = await toMove(t);
  const s = m.s.seq;
  const action = m.s.legal[0];
  m.p.client.send({ type: 'move', seq: s, action });
  // the pool's connection that sleeps in this COMMIT is cut
  const cut = async () => sql(db, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = 'tafel serve pool'
      AND query = 'COMMIT' AND state = 'active'`)[0][0] === 1;
  await until(cut, 'a pool connection in COMMIT');
  // its watchers are sent the table as the database has it: without the move
  const reread = await m.p.client.next((x) => x.type === 'state', { timeout: 10000 });
  assert.equal(reread.seq, s, 'the change was not stored: the table stays');
  await sleep(300);
  assert.equal(m.p.client.messages.filter((x) => x.type === 'ack' || x.type === 'error').length, 0,
    'the change in doubt is neither acknowledged nor refused');
  assert.match(server.stderr(), /in doubt/);
  slow(db, t.id, 0);
  const ack = await m.p.client.request({ type: 'move', seq: s, action }, ['ack', 'error']);
  assert.deepEqual([ack.type, ack.seq], ['ack', s + 1], JSON.stringify(ack));
  const again = await m.p.client.request({ type: 'move', seq: s, action }, ['ack', 'error']);
  assert.deepEqual([again.type, again.seq], ['ack', s + 1], 'a second resend is recognised');
  const changes = sql(db, `SELECT change_seq, count(*) FROM actions WHERE table_id = '${t.id}'
    GROUP BY change_seq ORDER BY change_seq`);
  assert.equal(changes.length, s + 1, 'one change per seq, the move once');
  assert.equal(changes[changes.length - 1][0], s);
  const pong = await m.other.client.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong');
});

test('20 tables of bots on 4 connections: every record replays, one change per seq', { skip }, async () => {
  const db = newDatabase();
  const server = await startServer({ db, args: ['--db-connections', '4', '--workers', '2'] });
  const c = await Client.connect(server);
  const ids = [];
  for (let i = 0; i < 20; i++) {
    ids.push((await createTable(c, GAME, ['random', 'random'], 100 + i)).table);
  }
  c.close();
  const list = ids.map((id) => `'${id}'`).join(',');
  const over = () => sql(db, `SELECT count(*) FROM tables WHERE id IN (${list})
    AND finished = 1`)[0][0];
  await until(() => over() === 20, 'the 20 games over', 120000);
  for (const id of ids) {
    const [[seq]] = sql(db, `SELECT seq FROM tables WHERE id = '${id}'`);
    const rows = sql(db, `SELECT position, change_seq FROM actions WHERE table_id = '${id}'
      ORDER BY position`);
    rows.forEach(([position], k) => assert.equal(position, k, `${id}: positions in a row`));
    const seqs = [...new Set(rows.map(([, cs]) => cs))];
    assert.deepEqual(seqs, [...Array(seq).keys()], `${id}: every change 0..${seq - 1} in order`);
    const { text, record } = await fetchRecord(server, id);
    assert.equal(record.actions.length, rows.length, `${id}: the record holds every action`);
    const replayed = await replayJson(text);
    assert.equal(replayed.terminal, true, `${id}: replays to its end`);
    assert.equal(replayed.actions, rows.length, `${id}: tafel replay read every action`);
  }
});
