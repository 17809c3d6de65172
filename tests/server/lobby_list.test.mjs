// lobby_list.test.mjs -- the lobby's list (docs/protocol.md, `lobby` and
// GET /api/tables): a finished table stays listed, with its status, after
// its last socket left and after a restart; each table gives the time of
// its latest change (`updated`), which a move moves; playing tables come
// first, newest first, then finished ones, the latest to end first; and a
// server full of playing tables still lists its recent finished ones.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, seat, change, get, tempDir, sleep, mustAct,
} from './helpers.mjs';

after(stopAll);

/** The lobby as a socket is sent it. */
async function lobby(server) {
  const c = await Client.connect(server);
  const m = await c.request({ type: 'lobby' }, 'lobby');
  c.close();
  return m.tables;
}

const listed = (tables, id) => tables.find((t) => t.table === id);
const nowSeconds = () => Date.now() / 1000;

/** A two-person table that seat 0 resigns at once: over, nobody moved. */
async function finishedTable(server, seed) {
  const c = await Client.connect(server);
  const made = await createTable(c, 'carcassonne(players=2)', ['human', 'greedy'], seed);
  c.close();
  const p = await seat(server, made.table, made.tokens[0]);
  const { state } = await change(p.client, { type: 'resign', seq: p.state.seq });
  assert.equal(state.status, 'over', 'one seat left: the game is over');
  return { made, player: p };
}

test('a finished table stays listed, with its status, once its sockets left and after a restart',
  async () => {
    const dir = tempDir();
    const s1 = await startServer({ dir });
    const { made, player } = await finishedTable(s1, 11);
    const seatedAtEnd = listed(await lobby(s1), made.table);
    assert.ok(seatedAtEnd, 'the finished table is listed');
    assert.equal(seatedAtEnd.status, 'over');
    // Red resigned: its socket watches from then on (issue 25), the seat is not taken
    assert.equal(seatedAtEnd.seats[0].taken, false, 'Red gave its seat away');
    player.client.close();
    await player.client.waitClosed?.(5000);
    await sleep(200);   // the server frees a finished table nobody sits at

    const left = listed(await lobby(s1), made.table);
    assert.ok(left, 'still listed after its last socket left');
    assert.equal(left.status, 'over');
    assert.equal(left.game, 'carcassonne(players=2)');
    assert.deepEqual(left.seats.map((s) => [s.kind, s.taken]), [['human', false], ['bot', false]]);
    assert.equal(left.seats[1].bot, 'greedy');
    const api = JSON.parse((await get(s1, '/api/tables')).body);
    assert.deepEqual(listed(api, made.table), left, 'GET /api/tables lists the same');
    await s1.stop('SIGTERM');

    const s2 = await startServer({ dir });
    const again = listed(await lobby(s2), made.table);
    assert.ok(again, 'listed after a restart, though a restart rebuilds only unfinished tables');
    assert.deepEqual(again, left);
  });

test('updated is the time of the latest change: its creation at first, then each move\'s',
  async () => {
    const server = await startServer();
    const before = Math.floor(nowSeconds());
    const c = await Client.connect(server);
    const made = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 12);
    c.close();
    const fresh = listed(await lobby(server), made.table);
    assert.equal(typeof fresh.updated, 'number');
    assert.ok(Number.isInteger(fresh.updated), `whole seconds: ${fresh.updated}`);
    assert.equal(fresh.updated, fresh.created, 'no change yet: its creation');
    assert.ok(fresh.updated >= before && fresh.updated <= nowSeconds() + 1,
      `${fresh.updated} is now (${before}), in seconds since the epoch`);

    await sleep(1100);   // seconds: the next change is in a later one
    const p = await seat(server, made.table, made.tokens[0]);
    assert.ok(mustAct(p.state), 'Red moves first');
    const beforeMove = Math.floor(nowSeconds());
    await change(p.client, { type: 'move', seq: p.state.seq, action: p.state.legal[0] });
    const moved = listed(await lobby(server), made.table);
    assert.equal(moved.seq, fresh.seq + 1);
    assert.ok(moved.updated > fresh.updated, `a move moves it: ${fresh.updated} -> ${moved.updated}`);
    assert.ok(moved.updated >= beforeMove && moved.updated <= nowSeconds() + 1,
      `${moved.updated} is the move's time (${beforeMove})`);
    assert.equal(moved.created, fresh.created, 'its creation stays');

    // A join changes nothing: the time is the latest change's, not a visit's.
    await sleep(1100);
    const watcher = await seat(server, made.table);
    watcher.client.close();
    assert.equal(listed(await lobby(server), made.table).updated, moved.updated);
    p.client.close();
  });

test('playing tables first, newest first; then finished ones, the latest to end first',
  async () => {
    const server = await startServer();
    const c = await Client.connect(server);
    const early = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 20);
    const older = await finishedTable(server, 21);
    const newer = await finishedTable(server, 22);
    older.player.client.close();
    newer.player.client.close();
    const late = await createTable(c, 'catan_cards', ['human', 'medium'], 24);
    c.close();
    let tables = await lobby(server);
    const order = () => tables.map((t) => t.table);
    // two ended in the same second perhaps: then the later made is first
    assert.deepEqual(order(), [late.table, early.table, newer.made.table, older.made.table]);
    assert.deepEqual(tables.map((t) => t.status), ['playing', 'playing', 'over', 'over']);

    // The table made first, ended last: the first of the finished ones.
    await sleep(1100);
    const p = await seat(server, early.table, early.tokens[1]);
    await change(p.client, { type: 'resign', seq: p.state.seq });
    tables = await lobby(server);
    assert.deepEqual(order(), [late.table, early.table, newer.made.table, older.made.table]);
    assert.deepEqual(tables.map((t) => t.status), ['playing', 'over', 'over', 'over']);
    assert.ok(listed(tables, early.table).updated > listed(tables, newer.made.table).updated);
    assert.ok(listed(tables, early.table).created <= listed(tables, older.made.table).created);
    p.client.close();
  });

test('a server full of playing tables still lists its finished ones, 100 tables at most',
  async () => {
    // more tables than one address may make an hour by default (--max-new-tables 60)
    const server = await startServer({ args: ['--max-new-tables', '0'] });
    const ended = await finishedTable(server, 31);
    ended.player.client.close();
    const c = await Client.connect(server);
    const made = [];
    for (let i = 0; i < 101; i++) {
      made.push((await createTable(c, 'carcassonne(players=2)', ['human', 'random'], 300 + i)).table);
    }
    c.close();
    const tables = await lobby(server);
    assert.equal(tables.length, 100);
    assert.equal(tables.at(-1).table, ended.made.table, 'the finished one, last');
    assert.equal(tables[0].table, made.at(-1), 'the newest playing one, first');
    assert.equal(tables.filter((t) => t.status === 'playing').length, 99);
    assert.ok(!listed(tables, made[0]) && !listed(tables, made[1]),
      'the oldest playing ones make room');
  });
