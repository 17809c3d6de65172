// accounts.test.mjs -- the accounts of actions in state messages
// (`events`, docs/protocol.md): what each socket is told happened since its
// previous state, as its seat sees it.
//
// Whole games against bots, with people, spectators from the start and
// sockets joining halfway; after the end, every socket's accounts, read in
// order, are the engine's for its seat: `tafel replay --step --json --seat
// N` of the table's record, action by action, none missing, none twice.
// Then the edges: a socket's first state, an undo, a reconnection, and the
// account of a replayed position.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, seat, playOut, prng, fetchRecord,
  replaySteps, checkAccounts, checkStateShape, change, twoPeople, mustAct, watchedTable,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

const statesOf = (client) => client.messages.filter((m) => m.type === 'state');

/**
 * Plays game (people at the 'human' seats, bots at the others) watched by a
 * spectator from the start; after a few moves another spectator and a
 * second socket of the first person's seat join.  Checks every socket's
 * accounts against the engine's.
 */
async function accountsGame(game, specs, seed) {
  const { created, players, sockets } = await watchedTable(server, game, specs, seed);
  let moves = 0;
  const beforeMove = async () => {
    if (++moves !== 6) return;
    const late = await Client.connect(server);
    await join(late, created.table);
    sockets.push({ seat: -1, client: late });
    const again = await seat(server, created.table, created.tokens[sockets[0].seat]);
    sockets.push({ seat: sockets[0].seat, client: again.client });
  };
  const { final } = await playOut(players, {
    rng: prng(seed), beforeMove, onState: (j, s) => checkStateShape(s),
  });
  assert.ok(final.every((s) => s.status === 'over'));
  assert.equal(sockets.length, specs.filter((x) => x === 'human').length + 3, 'late sockets joined');
  const { text } = await fetchRecord(server, created.table);
  const steps = {};
  for (let s = -1; s < specs.length; s++) steps[s] = await replaySteps(text, s);
  const end = final[0].actions;
  let checked = 0;
  for (const { seat: s, client } of sockets) {
    if (!statesOf(client).some((x) => x.status === 'over')) {
      await client.next((x) => x.type === 'state' && x.status === 'over');
    }
    const states = statesOf(client);
    const told = checkAccounts(states, steps[s], s === -1 ? 'a spectator' : `seat ${s}`);
    assert.equal(told, end - states[0].actions, 'every action after the join is told once');
    checked += told;
  }
  // The accounts are the seat's own: where seats are told different things
  // (hidden cards, for one), sending another seat's would have been caught.
  let differ = 0;
  for (let n = 0; n < end; n++) {
    const told = new Set(Object.values(steps).map((lines) => JSON.stringify(lines[n].events)));
    if (told.size > 1) differ++;
  }
  for (const { client } of sockets) client.close();
  return { checked, differ, actions: end };
}

test('Carcassonne against the greedy bot: every socket is told every action, as the engine tells it', async (t) => {
  const r = await accountsGame('carcassonne(players=2)', ['human', 'greedy'], 71);
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.checked > 4 * 100, `${r.checked} accounts checked`);
});

test('Cardcassonne, two people and a bot: each seat is told its own cards, the others "?"', async (t) => {
  const r = await accountsGame('cardcassonne(players=3)', ['human', 'greedy', 'human'], 72);
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.checked > 5 * 50, `${r.checked} accounts checked`);
  assert.ok(r.differ > 20, `seats were told different things ${r.differ} times`);
});

test('Catan card game against the random bot: every socket is told every action', async (t) => {
  const r = await accountsGame('catan_cards', ['random', 'human'], 73);
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.checked > 4 * 50, `${r.checked} accounts checked`);
  assert.ok(r.differ > 10, `seats were told different things ${r.differ} times`);
});

test('undo: no accounts, the action count goes back, and the move played again is told again', async () => {
  const { players } = await twoPeople(server, 'carcassonne(players=2)', 74);
  const m = players[0].state.to_move;
  const me = players[m], you = players[1 - m];
  const s0 = me.state;
  assert.deepEqual(s0.events, [], 'a socket\'s first state has no accounts');
  const place = s0.legal.find((a) => a.startsWith('place'));
  const { state: s1 } = await change(me.client, { type: 'move', seq: s0.seq, action: place });
  assert.equal(s1.events.length, 1, 'the placement alone');
  assert.equal(s1.events[0].n, s0.actions + 1);
  assert.equal(s1.events[0].seat, m);
  const y1 = await you.client.next((x) => x.type === 'state' && x.seq === s1.seq);
  assert.deepEqual(y1.events.map((e) => e.n), [s0.actions + 1], 'the other seat is told too');

  const { state: s2 } = await change(me.client, { type: 'undo', seq: s1.seq });
  assert.deepEqual(s2.events, [], 'an undo tells no action');
  assert.ok(s2.actions < s1.actions, 'the action count went back');
  const y2 = await you.client.next((x) => x.type === 'state' && x.seq === s2.seq);
  assert.deepEqual(y2.events, []);

  const { state: s3 } = await change(me.client, { type: 'move', seq: s2.seq, action: place });
  assert.deepEqual(s3.events, s1.events, 'the same move from the same position: the same account');
  const y3 = await you.client.next((x) => x.type === 'state' && x.seq === s3.seq);
  assert.deepEqual(y3.events, y1.events);
  for (const p of players) p.client.close();
});

test('a socket that joins or reconnects starts with no accounts, then is told what follows', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'catan_cards', ['human', 'greedy'], 75);
  let s = await join(c, created.table, created.tokens[0]);
  assert.deepEqual(s.events, []);
  for (let k = 0; k < 3; k++) {
    while (!mustAct(s)) s = await c.next('state');
    ({ state: s } = await change(c, { type: 'move', seq: s.seq, action: s.legal[0] }));
    assert.ok(s.events.length > 0);
  }
  // The others see how many sockets hold each seat: a state with no new
  // action tells none.  (A spectator joining sends the others nothing.)
  const w = await Client.connect(server);
  const ws = await join(w, created.table);
  assert.deepEqual(ws.events, []);
  const second = await seat(server, created.table, created.tokens[0]);
  const seen = await c.next((x) => x.type === 'state' && x.actions === ws.actions
    && x.seq === ws.seq && x.events.length === 0 && x.seats[0].sockets === 2);
  assert.ok(seen);
  second.client.close();
  c.terminate();
  const again = await seat(server, created.table, created.tokens[0]);
  assert.deepEqual(again.state.events, [], 'a reconnection starts afresh');
  s = again.state;
  while (!mustAct(s)) s = await again.client.next('state');
  const before = s.actions;
  const { state: after } = await change(again.client, { type: 'move', seq: s.seq, action: s.legal[0] });
  assert.equal(after.events[0].n, before + 1, 'then the actions that follow');
  const wAfter = await w.next((x) => x.type === 'state' && x.seq === after.seq);
  assert.deepEqual(wAfter.events.map((e) => e.n), after.events.map((e) => e.n),
    'the spectator is told them too');
  again.client.close();
  w.close();
});

test('a replayed position carries the account of the action that led to it', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'random'], 76);
  const first = await join(c, created.table, created.tokens[0]);
  const { final } = await playOut([{ client: c, state: first }], { rng: prng(76) });
  const { text } = await fetchRecord(server, created.table);
  const steps = await replaySteps(text, 0);
  const n = final[0].actions;
  const zero = await c.request({ type: 'replay', actions: 0 }, ['replay', 'error']);
  assert.deepEqual(zero.events, [], 'nothing led to the start');
  for (const at of [1, 2, Math.floor(n / 2), n]) {
    const r = await c.request({ type: 'replay', actions: at }, ['replay', 'error']);
    assert.equal(r.type, 'replay', JSON.stringify(r));
    const step = steps[at - 1];
    assert.deepEqual(r.events, [{ n: at, seat: step.seat, events: step.events }], `action ${at}`);
  }
  const w = await Client.connect(server);
  await join(w, created.table);
  const spectators = await replaySteps(text, -1);
  const hidden = spectators.findIndex((x, i) => JSON.stringify(x.events) !== JSON.stringify(steps[i].events));
  assert.ok(hidden >= 0, 'a spectator is told less than seat 0 somewhere');
  const r = await w.request({ type: 'replay', actions: hidden + 1 }, ['replay', 'error']);
  assert.deepEqual(r.events[0].events, spectators[hidden].events, 'as the spectator saw it');
  c.close();
  w.close();
});

test('a hint\'s moves carry their accounts: the move played is told as the hint told it', async () => {
  const { players } = await twoPeople(server, 'carcassonne(players=2)', 77);
  const me = players[players[0].state.to_move];
  const s0 = me.state;
  const hint = await me.client.request({ type: 'hint' }, ['hint', 'error']);
  assert.equal(hint.type, 'hint', JSON.stringify(hint));
  assert.ok(hint.moves.length > 0, 'the hint has moves');
  for (const mv of hint.moves) {
    assert.ok(Array.isArray(mv.events) && mv.events.length > 0, `${mv.action} has an account`);
    assert.ok(mv.events.every((ev) => typeof ev.kind === 'string'), JSON.stringify(mv.events));
  }
  const best = hint.moves[0];
  const { state: s1 } = await change(me.client, { type: 'move', seq: s0.seq, action: best.action });
  assert.deepEqual(s1.events[0].events, best.events, 'the account of the move played is the hint\'s');
  for (const p of players) p.client.close();
});
