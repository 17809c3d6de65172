// spectators_leaks.test.mjs -- spectators, and nothing leaks.
//
// Whole random Cardcassonne and Catan card games through the server, with
// people at two seats and spectators watching.  After the game the record
// (GET /t/<id>/record) is replayed by `tafel replay --views SEAT`, and every
// message each socket got is held to the engine: a state's view is the
// engine's view for that seat after its action count, its `last` texts are
// the engine's texts for that seat, its `events` are the engine's accounts
// for that seat (`tafel replay --step --json --seat`), a history is the
// engine's texts; and no message of any kind (states, errors, histories,
// lobbies) contains the name of a card the seat may not see then (another
// seat's hand, a face-down card, a stack) unless the engine shows that seat
// the same word anyway -- nor does any account, of the action it tells.
// Before the end the record is refused (403).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, seat, playOut, prng, refused, get,
  checkStateShape, fetchRecord, replayViews, replaySteps, checkAccounts, secretsOf, leaked, mustAct,
  words, watchedTable,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

/** Nonsense moves: errors must not carry anything hidden either. */
const PROBES = ['play ZZ Y', 'frobnicate', 'take nothing', 'place 99 99 0', 'deal 1 ?', ''];

/**
 * Plays game with people at the seats marked 'human' in specs, a spectator
 * from the start and one joining halfway; then checks every message.
 */
async function leakGame(game, specs, seed) {
  const { created, players, sockets, watcher } = await watchedTable(server, game, specs, seed);
  const seats = specs.map((_, i) => i);
  let late = null;
  let forbidden = 0;
  const rng = prng(seed);
  let moves = 0;

  const beforeMove = async (j, s) => {
    moves++;
    if (moves === 20) {
      late = await Client.connect(server);
      await join(late, created.table);
      sockets.push({ seat: -1, client: late });
    }
    if (rng() < 0.04) {
      const probe = PROBES[Math.floor(rng() * PROBES.length)];
      await refused(players[j].client, { type: 'move', seq: s.seq, action: probe });
    }
    if (rng() < 0.03) {
      const h = await players[j].client.request({ type: 'history' }, ['history', 'error']);
      assert.equal(h.type, 'history');
      await watcher.request({ type: 'history' }, 'history');
    }
    if (rng() < 0.02) {
      // Another seat's move out of turn, and a spectator's.
      const other = players.find((p) => p !== players[j]);
      if (other) {
        const m = await refused(other.client, { type: 'move', seq: s.seq, action: s.legal[0] });
        assert.ok(['not_your_turn', 'illegal'].includes(m.code), JSON.stringify(m));
      }
      await refused(watcher, { type: 'move', seq: s.seq, action: s.legal[0] }, 'not_seated');
      await watcher.request({ type: 'lobby' }, 'lobby');
    }
    if (rng() < 0.02) {
      const r = await get(server, `/t/${created.table}/record`);
      assert.equal(r.status, 403, 'no record before the end');
      assert.ok(!r.body.includes('"actions"'), 'a refused record shows no actions');
      forbidden++;
    }
  };

  // playOut with the probes before each move.
  const { final } = await playOut(players, {
    rng,
    onState: (j, s) => checkStateShape(s, { seat: players[j].state.seat }),
    beforeMove,
  });
  assert.ok(final.every((s) => s.status === 'over'));
  const { text } = await fetchRecord(server, created.table);

  // The engine's views for every seat and the spectator.
  const views = { [-1]: await replayViews(text, -1) };
  for (const i of seats) views[i] = await replayViews(text, i);
  const secrets = secretsOf(views, seats);
  const steps = { [-1]: await replaySteps(text, -1) };
  for (const i of seats) steps[i] = await replaySteps(text, i);
  // What an account says, but for its kinds: a kind is the engine's word
  // for what happened ("brigands_spare"), never a card, though it may share
  // a word with one.
  const fieldsOf = (events) => JSON.stringify(events.map(({ kind, ...fields }) => fields));
  // An account of action n may name what the seat saw before it or sees
  // after it (it played the card itself, say), nothing else.
  const accountSecrets = (s, n) => {
    const before = words(JSON.stringify(views[s][n - 1].view));
    return new Set([...secrets(s, n)].filter((w) => !before.has(w)));
  };
  let checkedStates = 0, withSecrets = 0, wouldCatch = 0, accounts = 0, wouldCatchAccount = 0;
  for (const { seat: s, client } of sockets) {
    const who = s === -1 ? 'a spectator' : `seat ${s}`;
    accounts += checkAccounts(client.messages.filter((m) => m.type === 'state'), steps[s], who);
    let N = 0, seq = 0;
    client.messages.forEach((msg, k) => {
      const raw = client.raw[k];
      const where = `message ${k} to ${s === -1 ? 'a spectator' : `seat ${s}`}`;
      if (msg.type === 'state') {
        N = msg.actions;
        seq = msg.seq;
        const line = views[s][N];
        assert.ok(line, `${where}: no action ${N} in the record`);
        assert.equal(msg.seat, s === -1 ? null : s, where);
        assert.deepEqual(msg.view, line.view, `${where}: the view after ${N} actions is not the engine's`);
        msg.last.forEach((x, i) => {
          const e = views[s][N - msg.last.length + 1 + i];
          assert.equal(x.text, e.text, `${where}: last[${i}]`);
          assert.equal(x.seat, e.seat, `${where}: last[${i}].seat`);
        });
        checkedStates++;
        // The check itself: another seat's view, sent here, would be caught.
        const o = seats.find((x) => x !== s);
        if (leaked(JSON.stringify(views[o][N].view), secrets(s, N)).length > 0) wouldCatch++;
        for (const e of msg.events) {
          const secret = accountSecrets(s, e.n);
          const found = leaked(fieldsOf(e.events), secret);
          assert.deepEqual(found, [], `${where}: the account of action ${e.n} names hidden cards `
            + `${found.join(', ')}: ${JSON.stringify(e.events).slice(0, 400)}`);
          if (leaked(fieldsOf(steps[o][e.n - 1].events), secret).length > 0) wouldCatchAccount++;
        }
      } else if (msg.type === 'history') {
        assert.equal(msg.actions.length, N, `${where}: a history of every action so far`);
        assert.equal(msg.seq, seq, `${where}: the history's seq`);
        msg.actions.forEach((x, i) => {
          assert.equal(x.text, views[s][i + 1].text, `${where}: history ${i}`);
          assert.equal(x.seat, views[s][i + 1].seat, `${where}: history ${i} seat`);
          assert.deepEqual(x.events, steps[s][i].events, `${where}: history ${i}'s account is the seat's`);
        });
      }
      const secret = secrets(s, N);
      if (secret.size > 0) withSecrets++;
      // What a message says now is held to what the seat may see now; an
      // action's account (a state's `events`, each action of a history) to
      // what it might see around that action (accountSecrets, checked above
      // for states): a scoring's account names the cards it took out of the
      // open rows into a face-down chest, which at N are hidden, yet were in
      // everyone's sight when it happened.  A history's action is held to
      // what the seat might see right after it.
      let scan = raw;
      if (msg.type === 'state') scan = JSON.stringify({ ...msg, events: [] });
      if (msg.type === 'history') {
        msg.actions.forEach((x, i) => {
          const then = accountSecrets(s, i + 1);
          const inText = leaked(x.text, secrets(s, i + 1));
          const inAccount = leaked(fieldsOf(x.events), then);
          assert.deepEqual([...inText, ...inAccount], [], `${where}: history ${i} names hidden `
            + `cards: ${JSON.stringify(x).slice(0, 400)}`);
        });
        scan = JSON.stringify({ ...msg, actions: [] });
      }
      // An engine's error may end with its static notation hint, "(see
      // docs/catan_cards.md: e.g. roll, trade O G, build abbey 0 -1, ...)",
      // or name the cards of the game ("a card is Y1..Y3, YA, YH (also R, G,
      // B), DRAGON, FAIRY, AJ or HJ"): the same in every position, not cards
      // of anyone's.  An account's kinds are the engine's words, not cards
      // ("brigands_spare").
      const text = msg.type === 'error'
        ? scan.replace(/\(see docs\/[^)]*\)/g, '').replace(/a card is [^"]*/g, '')
        : scan.replace(/"kind":"[a-z_]+"/g, '');
      const found = leaked(text, secret);
      assert.deepEqual(found, [], `${where} (${msg.type}, after ${N} actions) names hidden cards `
        + `${found.join(', ')}: ${raw.slice(0, 400)}`);
    });
  }
  assert.ok(checkedStates > 50, `only ${checkedStates} states`);
  assert.ok(withSecrets > 20, 'the check saw hidden cards to look for');
  assert.ok(wouldCatch > 20, `another seat's view would be caught as a leak (${wouldCatch} times)`);
  assert.ok(accounts > checkedStates, `${accounts} accounts checked`);
  assert.ok(wouldCatchAccount > 10,
    `another seat's account would be caught as a leak (${wouldCatchAccount} times)`);
  assert.ok(late, 'a late spectator joined');
  for (const { client } of sockets) client.close();
  return { forbidden, checkedStates, withSecrets, wouldCatch, accounts, wouldCatchAccount, messages: sockets.reduce((n, x) => n + x.client.messages.length, 0) };
}

test('Cardcassonne, two people and spectators: every message is what the seat may see', async (t) => {
  t.diagnostic(JSON.stringify(await leakGame('cardcassonne(players=2)', ['human', 'human'], 61)));
});

test('Cardcassonne, three seats with a bot: every message is what the seat may see', async (t) => {
  t.diagnostic(JSON.stringify(await leakGame('cardcassonne(players=3)', ['human', 'greedy', 'human'], 62)));
});

test('Catan card game, two people and spectators: every message is what the seat may see', async (t) => {
  t.diagnostic(JSON.stringify(await leakGame('catan_cards', ['human', 'human'], 63)));
});

test('Catan card game against a bot: every message is what the seat may see', async (t) => {
  t.diagnostic(JSON.stringify(await leakGame('catan_cards', ['random', 'human'], 64)));
});

test('a spectator sees the public view, no legal actions, and cannot act', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'human'], 65);
  const w = await join(c, created.table);
  checkStateShape(w, { seat: null });
  assert.equal(w.legal, undefined);
  assert.equal(w.undo, false);
  for (const msg of [
    { type: 'move', seq: w.seq, action: 'row Y' }, { type: 'undo', seq: w.seq },
    { type: 'resign', seq: w.seq }, { type: 'hand_over', seq: w.seq, bot: 'random' },
  ]) await refused(c, msg, 'not_seated');
  // Every change reaches the spectator.
  const p = await seat(server, created.table, created.tokens[w.to_move]);
  assert.ok(mustAct(p.state));
  const ack = await p.client.request({ type: 'move', seq: p.state.seq, action: p.state.legal[0] }, 'ack');
  const seen = await c.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.equal(seen.seat, null);
  assert.equal(seen.legal, undefined);
  p.client.close();
  c.close();
});

test('the lobby and /api/tables name no token and no hidden card', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'human'], 66);
  await seat(server, created.table, created.tokens[0]);
  const lobby = await c.request({ type: 'lobby' }, 'lobby');
  const mine = lobby.tables.find((t) => t.table === created.table);
  assert.ok(mine, 'the new table is in the lobby');
  assert.equal(mine.status, 'playing');
  assert.ok(mine.game.startsWith('cardcassonne'));
  assert.equal(mine.seats.length, 2);
  assert.equal(mine.seats[0].kind, 'human');
  const api = await get(server, '/api/tables');
  assert.equal(api.status, 200);
  for (const text of [JSON.stringify(lobby), api.body]) {
    for (const token of created.tokens) assert.ok(!text.includes(token), 'a token in the lobby');
    assert.ok(!/"hand"|"view"/.test(text), 'the lobby shows no hands');
  }
  c.close();
});
