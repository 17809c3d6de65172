// full_disk.test.mjs -- issue 25, defect 8: a full disk leaves no table
// stuck, and nothing is acknowledged that was not stored.
//
// A full disk without root: the running server's RLIMIT_FSIZE is lowered
// (prlimit --pid, soft limit only, so it can be raised again), and every
// write SQLite makes past the first byte of a file fails with EFBIG, which
// SQLite reports as it reports a full disk (SQLITE_FULL / an I/O error).
// The server ignores SIGXFSZ (tables_open), so the write fails instead of
// killing it.  Raising the limit again is the space coming back.
//
// The bot's move refused by storage is asked again by tables_tick (about
// once a second, from the loop's timer; on the branch where this test was
// written, from the sweep after any event: the test keeps a socket pinging).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import {
  startServer, stopAll, Client, createTable, join, sleep, sql, ON_PG,
} from './helpers.mjs';

after(stopAll);

/** Plays seat 0 until the bot is to move; the acks' seqs. */
async function playUntilBot(p, s) {
  const acks = [];
  while (s.to_move === 0) {
    const ack = await p.request({ type: 'move', seq: s.seq, action: s.legal[0] }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    acks.push(ack.seq);
    s = await p.latestState(ack.seq);
  }
  return { acks, state: s };
}

const limit = (pid, value) => execFileSync('prlimit', ['--pid', String(pid), `--fsize=${value}:`]);

test('a full disk: no table made, the bot moves again when space returns', { skip: ON_PG },
async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const pinger = setInterval(() => c.send({ type: 'ping' }), 200);
  try {
    const created = await createTable(c, 'carcassonne(players=2)', ['human', 'mcts:ms=1500'], 3);
    const p = await Client.connect(server);
    let s = await join(p, created.table, created.tokens[0]);
    assert.equal(s.to_move, 0, 'the person moves first');
    const played = await playUntilBot(p, s);
    // the disk fills while the bot thinks (1.5 s)
    limit(server.proc.pid, 1);
    const acked = played.acks;
    const ack = { seq: played.state.seq };
    const made = await c.request({ type: 'create', game: 'carcassonne(players=2)',
      seats: ['human', 'random'] }, ['created', 'error']);
    assert.equal(made.type, 'error', `no table is made on a full disk: ${JSON.stringify(made)}`);
    assert.equal(made.code, 'storage');
    await sleep(3000); // the bot's answer came and could not be stored
    assert.deepEqual(p.takeStates().filter((m) => m.seq > ack.seq), [],
      'the bot\'s move was not applied');
    assert.match(server.stderr(), /bot's move .* was refused/);

    // space returns: the bot is asked again and moves, without a restart
    limit(server.proc.pid, 'unlimited');
    s = await p.next((m) => m.type === 'state' && m.to_move === 0, { timeout: 15000 });
    const more = await playUntilBot(p, s);
    acked.push(...more.acks);
    const lastSeen = more.state;
    const again = await c.request({ type: 'create', game: 'carcassonne(players=2)',
      seats: ['human', 'random'] }, ['created', 'error']);
    assert.equal(again.type, 'created', 'tables are made again');
    p.close();

    // nothing acknowledged was lost
    clearInterval(pinger);
    c.close();
    await server.stop();
    const restarted = await startServer({ db: server.db, dir: server.dir });
    const w = await Client.connect(restarted);
    const back = await join(w, created.table);
    assert.ok(back.seq >= Math.max(...acked), `seq ${back.seq} holds every ack (${acked})`);
    assert.ok(back.actions >= lastSeen.actions, 'every action told was stored');
    w.close();
  } finally {
    clearInterval(pinger);
  }
});

// Issue 35, defect 5: the table was committed first and its opening deal
// after it, so a disk that filled in between kept a table with no deal that
// came back after a restart (and its delete failed on the same full disk).
test('a create refused for storage leaves nothing behind, after a restart too', { skip: ON_PG },
async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const made = [];
  let refusals = 0;
  // The disk is a little fuller each time: some creates fit whole, some
  // not at all, some (before) only up to their opening deal.
  for (let i = 0; i < 30; i++) {
    const wal = statSync(`${server.db}-wal`).size;
    limit(server.proc.pid, wal + (i % 6) * 2000);
    const m = await c.request({ type: 'create', game: 'carcassonne(players=2)',
      seats: ['human', 'random'] }, ['created', 'error']);
    limit(server.proc.pid, 'unlimited');
    if (m.type === 'created') made.push(m.table);
    else {
      assert.equal(m.code, 'storage', JSON.stringify(m));
      refusals++;
    }
  }
  assert.ok(refusals > 0, 'the full disk refused some creates');
  c.close();
  await server.stop();

  const restarted = await startServer({ db: server.db, dir: server.dir });
  const w = await Client.connect(restarted);
  const lobby = await w.request({ type: 'lobby' }, 'lobby');
  assert.deepEqual(lobby.tables.map((t) => t.table).filter((id) => !made.includes(id)), [],
    'the lobby lists no table that was refused');
  for (const id of made) await join(w, id); // every table acknowledged is there, and plays
  w.close();
  assert.deepEqual(sql(server.db, 'SELECT id FROM tables ORDER BY id').map((r) => r[0]),
    [...made].sort(), 'the database holds exactly the tables made');
  assert.deepEqual(sql(server.db, 'SELECT id FROM tables WHERE seq = 0 OR NOT EXISTS'
    + ' (SELECT 1 FROM actions WHERE table_id = tables.id)'), [],
  'every table is stored with its opening deal');
});
