// undo.test.mjs -- the undo rules of docs/protocol.md: a seat takes back
// its own actions, one at a time, never past a chance event, never past
// another seat's action, never an action that showed it something hidden
// (the engine's tafel_state_action_reveals, read back through `tafel replay
// --views`), and state.undo says truly whether undo would be accepted: after
// a seat's own action that revealed nothing, while it is still to act, it
// may.
// Taken back, the position is the one before: every seat's view and legal
// actions are what they were.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, seat, prng, pick, change, refused, mustAct,
  checkStateShape, fetchRecord, replayViews, waitAny, TIMEOUT,
  twoPeople, history,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);


test('Carcassonne: the placement is taken back, not the draw before it, not the other seat\'s', async () => {
  const { created, players } = await twoPeople(server, 'carcassonne(players=2)', 51);
  const m = players[0].state.to_move;
  const me = players[m];
  const you = players[1 - m];
  const s0 = me.state;
  assert.equal(s0.undo, false, 'nothing to undo at the start');
  await refused(me.client, { type: 'undo', seq: s0.seq }, 'no_undo');
  await refused(you.client, { type: 'undo', seq: s0.seq }, 'no_undo');
  const w = await Client.connect(server);
  await join(w, created.table);
  await refused(w, { type: 'undo', seq: s0.seq }, 'not_seated');

  const place = s0.legal.find((a) => a.startsWith('place'));
  const { state: s1 } = await change(me.client, { type: 'move', seq: s0.seq, action: place });
  assert.equal(s1.to_move, m, 'the follower decision is the same seat\'s');
  assert.deepEqual(s1.last, [{ seat: m, text: place }]);
  assert.equal(s1.undo, true, 'a placement may be taken back');
  const y1 = await you.client.next((x) => x.type === 'state' && x.seq === s1.seq);
  assert.equal(y1.undo, false, 'not by the other seat');
  await refused(you.client, { type: 'undo', seq: s1.seq }, 'no_undo');
  await refused(me.client, { type: 'undo', seq: s0.seq }, 'stale');

  const { ack, state: s2 } = await change(me.client, { type: 'undo', seq: s1.seq });
  assert.equal(ack.seq, s1.seq + 1, 'an undo is a change');
  assert.equal(s2.seq, s1.seq + 1);
  assert.equal(s2.actions, s0.actions);
  assert.deepEqual(s2.last, [], 'last is empty after an undo');
  assert.deepEqual(s2.view, s0.view, 'the position before');
  assert.deepEqual(s2.legal, s0.legal);
  assert.equal(s2.undo, false, 'the draw before it is chance');
  const y2 = await you.client.next((x) => x.type === 'state' && x.seq === s2.seq);
  assert.deepEqual(y2.last, []);
  assert.equal(y2.actions, s0.actions);
  const undone = await refused(me.client, { type: 'undo', seq: s2.seq }, 'no_undo');
  assert.ok(undone.message.length > 5, `why not: ${undone.message}`);
  const h = await history(me.client);
  assert.equal(h.actions.length, s0.actions, 'the undone action is not in the history');

  // A whole turn: the draw that follows is chance, nothing to take back.
  let s = s2;
  while (s.to_move === m && s.status === 'playing') {
    ({ state: s } = await change(me.client, { type: 'move', seq: s.seq, action: s.legal[0] }));
  }
  assert.equal(s.undo, false);
  await refused(me.client, { type: 'undo', seq: s.seq }, 'no_undo');
  w.close();
});

test('a person cannot take back a bot\'s move', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['greedy', 'human'], 52);
  let s = await join(c, created.table, created.tokens[1]);
  while (!mustAct(s)) s = await c.next('state');
  assert.equal(s.undo, false);
  await refused(c, { type: 'undo', seq: s.seq }, 'no_undo');
  c.close();
});

/**
 * Random play by two people who take back at random whenever state.undo
 * says they may (and try when it says they may not).  Checks each undo
 * against the history and the views before; after the game, checks with
 * the engine (tafel replay --views) that no action that revealed something
 * could be taken back and that every other own last action could.
 */
async function undoAtRandom(game, seed, { maxUndos = 80, timeout = 90000 } = {}) {
  const { created, players } = await twoPeople(server, game, seed);
  const rng = prng(seed);
  const latest = players.map((p) => p.state);
  const seen = players.map(() => new Map()); // actions -> { view, legal }
  const observed = []; // { seat, index, text, undo, undone }
  let undos = 0, refusals = 0;

  const onState = (j, s) => {
    checkStateShape(s, { seat: j });
    if (s.last.length > 0) {
      const mine = s.last.map((x) => x.seat).lastIndexOf(j);
      if (mine >= 0 && s.last.slice(mine + 1).some((x) => x.seat === 'chance')) {
        assert.equal(s.undo, false, `undo past a chance event: ${JSON.stringify(s.last)}`);
      }
      if (s.last.at(-1).seat !== j) assert.equal(s.undo, false, 'undo past another seat\'s action');
      if (s.last.length === 1 && s.last[0].seat === j) {
        observed.push({ seat: j, index: s.actions - 1, text: s.last[0].text, undo: s.undo,
          toMove: s.to_move });
      }
    }
    seen[j].set(s.actions, { view: s.view, legal: s.legal });
    latest[j] = s;
  };
  const take = () => players.forEach((p, j) => {
    const bad = p.client.queue.find((m) => m.type === 'error');
    if (bad) throw new Error(`seat ${j}: ${JSON.stringify(bad)}`);
    p.client.takeStates().forEach((s) => onState(j, s));
  });

  const deadline = Date.now() + timeout;
  for (;;) {
    take();
    if (latest.every((s) => s.status === 'over')) break;
    if (latest[0].seq !== latest[1].seq) {
      await waitAny(players.map((p) => p.client), Math.max(1, deadline - Date.now()),
        () => players.some((p) => p.client.queue.length > 0));
      if (Date.now() > deadline) throw new Error(`${game}: not over in time`);
      continue;
    }
    const undoer = [0, 1].find((j) => latest[j].undo && undos < maxUndos && rng() < 0.4);
    if (undoer !== undefined) {
      const j = undoer, o = 1 - j, before = latest[j];
      const h = await history(players[j].client);
      const lastAction = h.actions.at(-1);
      assert.equal(lastAction.seat, j, 'state.undo only after the seat\'s own action');
      const { state } = await change(players[j].client, { type: 'undo', seq: before.seq });
      const then = seen[j].get(before.actions - 1);
      assert.equal(state.actions, before.actions - 1, 'one action at a time');
      assert.deepEqual(state.last, []);
      assert.ok(then, `a state at ${before.actions - 1} actions was seen before`);
      assert.deepEqual(state.view, then.view, 'the view before the action');
      assert.deepEqual(state.legal, then.legal, 'the legal actions before it');
      const ostate = await players[o].client.next((m) => m.type === 'state' && m.seq === state.seq);
      assert.deepEqual(ostate.view, seen[o].get(state.actions).view, 'the other seat\'s view before');
      // Positions after the one taken back are gone: their prefix of the
      // record is not the final record's any more.
      for (const x of observed) if (x.index > state.actions) x.gone = true;
      const ob = observed.findLast((x) => x.seat === j && x.index === state.actions && !x.undone
        && !x.gone);
      if (ob) ob.undone = true;
      else observed.push({ seat: j, index: state.actions, text: lastAction.text, undo: true, undone: true });
      onState(j, state);
      onState(o, ostate);
      undos++;
      continue;
    }
    const j = [0, 1].find((k) => mustAct(latest[k]));
    if (j === undefined) throw new Error(`nobody to act: ${JSON.stringify(latest[0]).slice(0, 300)}`);
    const s = latest[j];
    if (rng() < 0.03) {
      // Where state.undo says no, undo is refused and changes nothing.
      const k = [0, 1].find((x) => !latest[x].undo);
      if (k !== undefined) {
        await refused(players[k].client, { type: 'undo', seq: latest[k].seq }, 'no_undo');
        refusals++;
        continue;
      }
    }
    const action = pick(rng, s.legal);
    const ack = await players[j].client.request({ type: 'move', seq: s.seq, action }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', `${action}: ${JSON.stringify(ack)}`);
  }

  // The engine's word on each own last action: reveals => no undo.
  const { text, record } = await fetchRecord(server, created.table);
  const views = [await replayViews(text, 0), await replayViews(text, 1)];
  let checked = 0, revealing = 0;
  for (const ob of observed) {
    if (ob.gone) continue;
    let line;
    if (ob.undone) {
      // Taken back: the record up to it, then it.
      const prefix = JSON.stringify({ ...record, actions: [...record.actions.slice(0, ob.index), ob.text] });
      line = (await replayViews(prefix, ob.seat)).at(-1);
    } else {
      line = views[ob.seat][ob.index + 1];
      assert.equal(line.text, ob.text, `action ${ob.index} in the record`);
    }
    assert.equal(line.seat, ob.seat, `action ${ob.index} '${ob.text}' was seat ${ob.seat}'s`);
    if (line.reveals) revealing++;
    if (line.reveals) {
      assert.equal(ob.undo, false, `'${ob.text}' (action ${ob.index}) showed seat ${ob.seat} `
        + 'something hidden, yet undo was offered');
    } else if (ob.toMove === ob.seat) {
      assert.equal(ob.undo, true, `'${ob.text}' (action ${ob.index}) revealed nothing and seat `
        + `${ob.seat} is still to act, yet undo was not offered`);
    }
    checked++;
  }
  return { undos, refusals, checked, revealing, observed: observed.length };
}

test('Catan card game: undo at random agrees with the rules and the engine', async (t) => {
  const r = await undoAtRandom('catan_cards', 53);
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.undos >= 5, `only ${r.undos} undos`);
  assert.ok(r.revealing > 0, 'some actions revealed something');
  assert.ok(r.checked > 20);
});

test('Cardcassonne: undo at random agrees with the rules and the engine', async (t) => {
  const r = await undoAtRandom('cardcassonne(players=2)', 54);
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.checked > 20, JSON.stringify(r));
});

test('Carcassonne: undo at random agrees with the rules and the engine', async (t) => {
  const r = await undoAtRandom('carcassonne(players=2)', 55, { maxUndos: 30 });
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.undos >= 5, `only ${r.undos} undos`);
});

test('undo races a thinking bot: the bot\'s stale answer is dropped', async () => {
  // Catan against a bot: whenever the person may take back an action while
  // the bot is to act (or thinks), it does at once.  Nothing may break: the
  // record replays to the same end.
  const c = await Client.connect(server);
  const created = await createTable(c, 'catan_cards', ['human', 'mcts:iters=50'], 56);
  c.close();
  const p = await seat(server, created.table, created.tokens[0]);
  const rng = prng(56);
  let races = 0, lost = 0;
  const deadline = Date.now() + 60000;
  let s = p.state;
  while (s.status !== 'over') {
    if (Date.now() > deadline) throw new Error('not over in time');
    if (s.undo && races < 40 && (s.to_move !== 0 || rng() < 0.2)) {
      const m = await p.client.request({ type: 'undo', seq: s.seq }, ['ack', 'error']);
      if (m.type === 'ack') races++;
      else {
        assert.ok(['stale', 'no_undo'].includes(m.code), JSON.stringify(m));
        lost++;
      }
      s = await p.client.latestState(s.seq + 1);
      continue;
    }
    if (mustAct(s)) {
      const m = await p.client.request({ type: 'move', seq: s.seq, action: pick(rng, s.legal) },
        ['ack', 'error']);
      assert.equal(m.type, 'ack', JSON.stringify(m));
      s = await p.client.latestState(m.seq);
      continue;
    }
    s = await p.client.latestState(s.seq + 1, { timeout: TIMEOUT });
  }
  const { text } = await fetchRecord(server, created.table);
  const views = await replayViews(text, 0);
  assert.deepEqual(s.view, views.at(-1).view, 'the final view is the engine\'s');
  assert.ok(races > 0, 'some undos went through');
});
