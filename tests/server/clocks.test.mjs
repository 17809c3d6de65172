// Clocks: a real-time clock that runs out (two players: the other wins;
// three: a bot takes the seat and the game goes on), the increment, clocks
// that survive a restart, a correspondence claim, and bad clock texts.
// Short clocks: "0.05+0" is 3 s a player, "3s" is 3 s a move.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, join, seat, refused, sleep,
} from './helpers.mjs';

after(stopAll);

/** Makes a table with a clock (and more options); the `created` message. */
async function clocked(server, game, seats, clock, extra = {}) {
  const c = await Client.connect(server);
  const m = await c.request({ type: 'create', game, seats, clock, ...extra }, ['created', 'error']);
  c.close();
  assert.equal(m.type, 'created', JSON.stringify(m));
  return m;
}

/** Plays legal[0] until the seat of client is no longer to move; the last state. */
async function playTurn(client, state) {
  let st = state;
  while (st.status === 'playing' && st.to_move === st.seat) {
    client.send({ type: 'move', seq: st.seq, action: st.legal[0] });
    const ack = await client.next(['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    st = await client.next((m) => m.type === 'state' && m.seq === ack.seq);
  }
  return st;
}

test('a real-time clock runs out at two players: the other wins, on time, and it is stored',
  async () => {
    const server = await startServer();
    const created = await clocked(server, 'carcassonne(players=2)', ['human', 'human'], '0.05+0');
    const a = await seat(server, created.table, created.tokens[0]);
    const b = await seat(server, created.table, created.tokens[1]);
    const st = b.state;
    assert.equal(st.clock.kind, 'realtime');
    assert.equal(st.clock.text, '0.05+0');
    assert.equal(st.clock.running, st.to_move);
    const mover = st.to_move;
    assert.ok(st.clock.left_ms[mover] > 2000 && st.clock.left_ms[mover] <= 3000,
      JSON.stringify(st.clock));
    assert.equal(st.clock.left_ms[1 - mover], 3000);
    const over = await b.client.next((m) => m.type === 'state' && m.status === 'over',
      { timeout: 6000 });
    assert.equal(over.reason, 'timeout');
    assert.deepEqual(over.winners, [1 - mover]);
    assert.equal(over.seats[mover].forfeit, 'time');
    assert.equal(over.clock.running, null);
    assert.equal(over.clock.left_ms[mover], 0);
    a.client.close();
    b.client.close();

    await server.kill9();
    const again = await startServer({ db: server.db, dir: server.dir });
    const w = await Client.connect(again);
    const seen = await join(w, created.table);
    assert.equal(seen.status, 'over');
    assert.equal(seen.reason, 'timeout');
    assert.deepEqual(seen.winners, [1 - mover]);
    assert.equal(seen.seats[mover].forfeit, 'time');
    w.close();
  });

test('at three players the table\'s bot takes the seat whose time ran out, and the game goes on',
  async () => {
    const server = await startServer();
    const created = await clocked(server, 'carcassonne(players=3)', ['human', 'human', 'human'],
      '0.05+0', { bot: 'greedy' });
    const p = [];
    for (const token of created.tokens) p.push(await seat(server, created.table, token));
    const mover = p[0].state.to_move;
    const other = p[(mover + 1) % 3].client;
    const st = await other.next((m) => m.type === 'state' && m.seats[mover].kind === 'bot',
      { timeout: 6000 });
    assert.equal(st.status, 'playing');
    assert.equal(st.seats[mover].bot, 'greedy');
    assert.equal(st.seats[mover].forfeit, 'time');
    assert.equal(st.seats[mover].resigned, false);
    // the bot plays the seat's turn: the next seat is to move, its clock runs
    const next = await other.next((m) => m.type === 'state' && m.to_move === (mover + 1) % 3,
      { timeout: 6000 });
    assert.equal(next.status, 'playing');
    assert.equal(next.clock.running, (mover + 1) % 3);
    for (const x of p) x.client.close();
  });

test('the increment is added after a turn, and the clocks survive a restart', async () => {
  const server = await startServer();
  const created = await clocked(server, 'carcassonne(players=2)', ['human', 'human'], '1+5');
  const mover = (await seat(server, created.table, created.tokens[0])).state.to_move;
  const s = await seat(server, created.table, created.tokens[mover]);
  await sleep(300);
  const after = await playTurn(s.client, s.state);
  const left = after.clock.left_ms[mover];
  assert.ok(left > 60000 && left <= 65000 - 300, `60 s less the turn plus 5 s: ${left}`);
  assert.equal(after.clock.running, 1 - mover);
  s.client.close();

  await server.kill9();
  const again = await startServer({ db: server.db, dir: server.dir });
  const w = await Client.connect(again);
  const seen = await join(w, created.table);
  assert.equal(seen.clock.left_ms[mover], left, 'a clock that was not running is as it was');
  assert.equal(seen.clock.running, 1 - mover);
  const other = seen.clock.left_ms[1 - mover];
  assert.ok(other > 57000 && other <= 60000, `the running clock resumes: ${other}`);
  w.close();
});

test('correspondence: a claim is refused before the deadline and wins after it', async () => {
  const server = await startServer();
  const created = await clocked(server, 'carcassonne(players=2)', ['human', 'human'], '3s');
  const p = [];
  for (const token of created.tokens) p.push(await seat(server, created.table, token));
  const st = p[1].state;
  const mover = st.to_move;
  assert.equal(st.clock.kind, 'correspondence');
  assert.equal(st.clock.text, '3s');
  assert.equal(st.clock.running, mover);
  assert.ok(st.clock.deadline_ms > Date.now() - 1000 && st.clock.deadline_ms <= Date.now() + 3500);
  const claimer = p[1 - mover].client;
  const early = await refused(claimer, { type: 'claim', seq: st.seq }, 'too_early');
  assert.match(early.message, /left|still/);
  await refused(p[mover].client, { type: 'claim', seq: st.seq }, 'no_claim');
  await sleep(3300);
  // nothing happened by itself: the claim finds the game still playing
  claimer.send({ type: 'claim', seq: st.seq });
  const ack = await claimer.next(['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  const over = await claimer.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.equal(over.status, 'over');
  assert.equal(over.reason, 'timeout');
  assert.deepEqual(over.winners, [1 - mover]);
  const told = await p[mover].client.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.equal(told.reason, 'timeout');
  for (const x of p) x.client.close();
});

test('bad clock texts are refused with bad_clock; a table without a clock has none', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  for (const clock of ['abc', '10+', '0+0', '15d', '-1+2', '3x']) {
    const m = await refused(c, { type: 'create', game: 'carcassonne(players=2)',
      seats: ['human', 'human'], clock }, 'bad_clock');
    assert.ok(m.message.includes('clock'), m.message);
  }
  await refused(c, { type: 'create', game: 'carcassonne(players=2)', seats: ['human', 'human'],
    clock: 5 }, 'malformed');
  const plain = await c.request({ type: 'create', game: 'carcassonne(players=2)',
    seats: ['human', 'human'] }, ['created']);
  const st = await join(c, plain.table);
  assert.equal(st.clock, undefined);
  // nothing to claim at a table without a clock
  const s = await seat(server, plain.table, plain.tokens[0]);
  await refused(s.client, { type: 'claim', seq: s.state.seq }, 'no_claim');
  s.client.close();
  c.close();
});
