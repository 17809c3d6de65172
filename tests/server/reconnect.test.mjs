// reconnect.test.mjs -- sockets come and go, seats stay: a client that
// comes back with its token gets the current state and carries on; two
// sockets may sit in one seat; seats say whether someone is connected; a
// join moves a socket from one table to another.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, seat, playOut, prng, change, refused, mustAct,
  sleep, checkStateShape,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

test('a client that comes back with its token gets the current view and carries on', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'greedy'], 41);
  const watcher = await join(c, created.table);
  assert.equal(watcher.seat, null);
  const rng = prng(41);
  let p = await seat(server, created.table, created.tokens[0]);
  for (let round = 0; round < 3; round++) {
    await playOut([p], { rng, until: (_, moves) => moves >= 6 });
    // Gone without a goodbye, right after a move.
    const s = p.state;
    if (mustAct(s)) {
      const ack = await p.client.request({ type: 'move', seq: s.seq, action: s.legal[0] }, 'ack');
      assert.equal(ack.seq, s.seq + 1);
    }
    p.client.terminate();
    await sleep(200); // the bot may move meanwhile
    const back = await seat(server, created.table, created.tokens[0]);
    checkStateShape(back.state, { seat: 0 });
    // The spectator's newest state is the table's.
    let newest = watcher;
    for (const m of c.queue) if (m.type === 'state' && m.seq > newest.seq) newest = m;
    c.queue.length = 0;
    assert.ok(back.state.seq >= newest.seq, `seq ${back.state.seq}, the table is at ${newest.seq}`);
    assert.equal(back.state.seats[0].connected, true);
    p = back;
  }
  const { final } = await playOut([p], { rng });
  assert.equal(final[0].status, 'over');
  c.close();
});

test('two sockets with one token sit in the same seat and both hear every change', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 42);
  c.close();
  const mover = (await seat(server, created.table, created.tokens[0])).state.to_move;
  const first = await seat(server, created.table, created.tokens[mover]);
  const second = await seat(server, created.table, created.tokens[mover]);
  assert.equal(second.state.seat, mover);
  assert.deepEqual(second.state.legal, first.state.legal);
  const { ack, state } = await change(second.client,
    { type: 'move', seq: second.state.seq, action: second.state.legal[0] });
  const heard = await first.client.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.deepEqual(heard.view, state.view);
  first.client.close();
  second.client.close();
});

test('seats say whether someone is connected', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 43);
  c.close();
  const connected = async () => {
    const w = await Client.connect(server);
    const s = await join(w, created.table);
    w.close();
    return s.seats.map((x) => x.connected);
  };
  assert.deepEqual(await connected(), [false, false], 'nobody has joined');
  const p = await seat(server, created.table, created.tokens[1]);
  assert.deepEqual(await connected(), [false, true]);
  p.client.close();
  let now;
  for (let i = 0; i < 20; i++) {
    now = await connected();
    if (!now[1]) break;
    await sleep(100);
  }
  assert.deepEqual(now, [false, false], 'a closed socket is no longer connected');
});

test('a join moves the socket to another table', async () => {
  const c = await Client.connect(server);
  const tableA = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 44);
  const tableB = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 45);
  const a0 = await seat(server, tableA.table, tableA.tokens[0]);
  const mover = a0.state.to_move;
  const moverA = await seat(server, tableA.table, tableA.tokens[mover]);
  const roamer = await seat(server, tableA.table, tableA.tokens[mover]);
  const sb = await join(roamer.client, tableB.table);
  assert.equal(sb.table, tableB.table);
  assert.equal(sb.seat, null, 'a spectator of B now');
  roamer.client.queue.length = 0;
  // A change at A does not reach it; its old seat is not its own any more.
  await change(moverA.client, { type: 'move', seq: moverA.state.seq, action: moverA.state.legal[0] });
  await sleep(150);
  assert.equal(roamer.client.queue.filter((m) => m.type === 'state' && m.table === tableA.table).length,
    0, 'a state of the table it left');
  await refused(roamer.client, { type: 'move', seq: moverA.state.seq + 1, action: 'pass' },
    'not_seated');
  // A change at B does.
  const b = await seat(server, tableB.table, tableB.tokens[sb.to_move]);
  const { ack } = await change(b.client, { type: 'move', seq: b.state.seq, action: b.state.legal[0] });
  const heard = await roamer.client.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.equal(heard.table, tableB.table);
  c.close();
});
