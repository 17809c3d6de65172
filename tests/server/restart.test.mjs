// restart.test.mjs -- tables survive the server: a clean stop (SIGTERM,
// SIGINT: exit 0) and kill -9 mid-game, with and without --durable.  After a
// restart on the same database every acknowledged move is there, the seats
// see what they saw, bots to move think again, and a move resent after the
// crash (same table, same seq, same text) is recognised, not applied twice.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, seat, playOut, prng, tempDir, change, refused,
  mustAct, fetchRecord, get,
  twoPeople, history,
} from './helpers.mjs';

after(stopAll);


/** The next state of client that asks its seat to act. */
async function turn(client, state) {
  let s = state;
  while (!mustAct(s)) {
    s = await client.next('state', { timeout: 30000 });
    if (s.status === 'over') return s;
  }
  return s;
}

test('SIGTERM stops the server cleanly; after a restart the game goes on where it was', async () => {
  const dir = tempDir();
  const s1 = await startServer({ dir });
  const { created, players } = await twoPeople(s1, 'carcassonne(players=2)', 31);
  // both seats hold the latest state (the mover's ack comes before the other's state)
  const { final } = await playOut(players, { rng: prng(31),
    until: (latest, moves) => moves >= 12 && latest.every((s) => s.seq === latest[0].seq) });
  const seen = await history(players[0].client);
  const exit = await s1.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, `SIGTERM: ${s1.stderr()}`);

  const s2 = await startServer({ dir });
  const again = [];
  for (let i = 0; i < 2; i++) {
    const p = await seat(s2, created.table, created.tokens[i]);
    const before = final[i];
    assert.equal(p.state.seat, i);
    assert.equal(p.state.seq, before.seq, 'the same seq');
    assert.equal(p.state.actions, before.actions, 'the same actions');
    assert.equal(p.state.to_move, before.to_move);
    assert.deepEqual(p.state.view, before.view, 'the seat sees what it saw');
    assert.deepEqual(p.state.legal, before.legal);
    assert.deepEqual(p.state.scores, before.scores);
    again.push(p);
  }
  assert.deepEqual((await history(again[0].client)).actions, seen.actions, 'the same history');
  const { final: end } = await playOut(again, { rng: prng(32) });
  assert.equal(end[0].status, 'over');
  const exit2 = await s2.stop('SIGINT');
  assert.deepEqual(exit2, { code: 0, signal: null }, `SIGINT: ${s2.stderr()}`);
});

test('kill -9 mid-game loses no acknowledged move; the bot plays on', async () => {
  const dir = tempDir();
  let server = await startServer({ dir });
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'greedy'], 33);
  c.close();
  const acked = []; // { index, text }
  const rng = prng(33);
  let p = await seat(server, created.table, created.tokens[0]);
  for (let crash = 0; crash < 3; crash++) {
    await playOut([p], {
      rng,
      onAck: (_, action, before) => acked.push({ index: before.actions, text: action }),
      until: (_, moves) => moves >= 8,
    });
    // One more move, killed right after its ack, before the state arrives.
    const s = await turn(p.client, p.state);
    if (s.status === 'over') break;
    const action = s.legal[Math.floor(rng() * s.legal.length)];
    const ack = await p.client.request({ type: 'move', seq: s.seq, action }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    acked.push({ index: s.actions, text: action });
    await server.kill9();
    server = await startServer({ dir });
    p = await seat(server, created.table, created.tokens[0]);
    assert.ok(p.state.seq >= ack.seq, `seq ${p.state.seq} after the ack of ${ack.seq}`);
    const h = await history(p.client);
    for (const { index, text } of acked) {
      assert.ok(h.actions[index], `action ${index} is gone after kill -9`);
      const { seat: who, text: played } = h.actions[index];
      assert.deepEqual({ seat: who, text: played }, { seat: 0, text }, `action ${index} after kill -9`);
    }
  }
  const { final } = await playOut([p], { rng });
  assert.equal(final[0].status, 'over');
  const { record } = await fetchRecord(server, created.table);
  for (const { index, text } of acked) assert.equal(record.actions[index], text);
});

test('a move resent after a crash is recognised, not applied twice', async () => {
  const dir = tempDir();
  let server = await startServer({ dir });
  const { created, players } = await twoPeople(server, 'carcassonne(players=2)', 34);
  await playOut(players, { rng: prng(34), until: (_, moves) => moves >= 3 });
  const i = players.findIndex((q) => mustAct(q.state));
  const s = players[i].state;
  const action = s.legal[0];
  const ack = await players[i].client.request({ type: 'move', seq: s.seq, action }, ['ack', 'error']);
  assert.equal(ack.type, 'ack');
  await server.kill9();
  server = await startServer({ dir });
  const back = await seat(server, created.table, created.tokens[i]);
  assert.equal(back.state.seq, s.seq + 1, 'the acknowledged move is there');
  const before = await history(back.client);
  // The resend: the seq the client sent before, the same text.
  const again = await back.client.request({ type: 'move', seq: s.seq, action }, ['ack', 'error']);
  assert.equal(again.type, 'ack', `the resent move: ${JSON.stringify(again)}`);
  assert.equal(again.seq, s.seq + 1, 'acknowledged with the current seq');
  const st = await back.client.next('state');
  assert.equal(st.seq, s.seq + 1, 'the current state');
  assert.equal(st.actions, back.state.actions, 'not applied twice');
  assert.deepEqual((await history(back.client)).actions, before.actions, 'not applied twice');
  // Not the same move: another seat, or another text.
  const other = await seat(server, created.table, created.tokens[1 - i]);
  await refused(other.client, { type: 'move', seq: s.seq, action }, 'stale');
  const another = s.legal.find((x) => x !== action);
  if (another) await refused(back.client, { type: 'move', seq: s.seq, action: another }, 'stale');
  assert.deepEqual((await history(back.client)).actions, before.actions);
  // And the game goes on from there.
  const mover = await seat(server, created.table, created.tokens[st.to_move]);
  await change(mover.client, { type: 'move', seq: mover.state.seq, action: mover.state.legal[0] });
});

test('a move resent on a live server is recognised too', async () => {
  const server = await startServer();
  const { players } = await twoPeople(server, 'carcassonne(players=2)', 35);
  const i = players.findIndex((q) => mustAct(q.state));
  const s = players[i].state;
  const { state } = await change(players[i].client, { type: 'move', seq: s.seq, action: s.legal[0] });
  const again = await players[i].client.request({ type: 'move', seq: s.seq, action: s.legal[0] },
    ['ack', 'error']);
  assert.equal(again.type, 'ack', JSON.stringify(again));
  assert.equal(again.seq, state.seq);
  const st = await players[i].client.next((m) => m.type === 'state' && m.seq === state.seq);
  assert.equal(st.actions, state.actions, 'not applied twice');
});

test('bots to move think again after kill -9 (one worker thread)', async () => {
  const dir = tempDir();
  let server = await startServer({ dir, args: ['--workers', '1'] });
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['mcts:iters=50', 'greedy'], 36);
  let s = await join(c, created.table);
  while (s.seq < 6) s = await c.next('state', { timeout: 30000 });
  await server.kill9();
  server = await startServer({ dir, args: ['--workers', '1'] });
  const w = await Client.connect(server);
  s = await join(w, created.table);
  assert.ok(s.seq >= 6, `seq ${s.seq} after a restart`);
  while (s.status !== 'over') s = await w.next('state', { timeout: 30000 });
  assert.ok(s.winners.length > 0);
  w.close();
});

test('--durable: acknowledged moves survive kill -9', async () => {
  const dir = tempDir();
  let server = await startServer({ dir, args: ['--durable'] });
  const { created, players } = await twoPeople(server, 'catan_cards', 37);
  const acked = [];
  await playOut(players, {
    rng: prng(37),
    onAck: (j, action, before) => acked.push({ index: before.actions, seat: j, text: action }),
    until: (_, moves) => moves >= 10,
  });
  await server.kill9();
  server = await startServer({ dir, args: ['--durable'] });
  const back = await seat(server, created.table, created.tokens[0]);
  const h = await history(back.client);
  for (const { index, seat: who, text } of acked) {
    assert.equal(h.actions[index].seat, who);
    // Seat 0 sees its own texts whole; seat 1's hidden cards show as ?.
    if (who === 0) assert.equal(h.actions[index].text, text);
  }
});

test('a finished table keeps its record over a restart', async () => {
  const dir = tempDir();
  let server = await startServer({ dir });
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'random'], 38);
  let s = await join(c, created.table, created.tokens[0]);
  s = await turn(c, s);
  ({ state: s } = await change(c, { type: 'resign', seq: s.seq }));
  assert.equal(s.status, 'over');
  const { text } = await fetchRecord(server, created.table);
  const exit = await server.stop('SIGTERM');
  assert.equal(exit.code, 0);
  server = await startServer({ dir });
  const r = await get(server, `/t/${created.table}/record`);
  assert.equal(r.status, 200);
  assert.equal(r.body, text, 'the same record');
  const w = await Client.connect(server);
  const st = await join(w, created.table);
  assert.equal(st.status, 'over');
  w.close();
});

test('SIGTERM while bots are thinking still exits 0, within seconds', async (t) => {
  // (A search under way may be waited for: the bound is generous.)
  const server = await startServer({ args: ['--workers', '2'] });
  const c = await Client.connect(server);
  for (let i = 0; i < 3; i++) {
    await createTable(c, 'carcassonne(players=2)', ['mcts:iters=5000', 'mcts:iters=5000'], 39 + i);
  }
  await new Promise((res) => setTimeout(res, 300));
  const started = Date.now();
  const exit = await server.stop('SIGTERM');
  const took = Date.now() - started;
  t.diagnostic(`stopped in ${took} ms`);
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  assert.ok(took < 8000, `it took ${took} ms to stop`);
});
