// seats.test.mjs -- resigning and handing a seat over (docs/protocol.md):
// a resigned seat cannot win and its turns are played for it; the last seat
// left wins; a seat handed to a bot is played by the bot and its token no
// longer moves.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, seat, playOut, prng, change, refused, mustAct,
  fetchRecord, replayJson,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

async function people(game, specs, seed) {
  const c = await Client.connect(server);
  const created = await createTable(c, game, specs, seed);
  c.close();
  const players = [];
  for (let i = 0; i < specs.length; i++) {
    if (specs[i] === 'human') players[i] = await seat(server, created.table, created.tokens[i]);
  }
  return { created, players };
}

test('two players: a resignation ends the game, the other seat wins', async () => {
  const { created, players } = await people('carcassonne(players=2)', ['human', 'human'], 71);
  const s = players[1].state;
  const { ack, state } = await change(players[1].client, { type: 'resign', seq: s.seq });
  assert.equal(ack.seq, s.seq + 1, 'a resignation is a change');
  assert.equal(state.status, 'over');
  assert.deepEqual(state.winners, [0]);
  assert.equal(state.seats[1].resigned, true);
  assert.equal(state.seats[0].resigned, false);
  const other = await players[0].client.next((m) => m.type === 'state' && m.seq === ack.seq);
  assert.deepEqual(other.winners, [0]);
  await fetchRecord(server, created.table);
  await refused(players[0].client, { type: 'resign', seq: state.seq }, 'over');
});

test('three players: the resigned seat is played for; the last seat left wins', async () => {
  const { players } = await people('cardcassonne(players=3)', ['human', 'human', 'human'], 72);
  let s = players[0].state;
  ({ state: s } = await change(players[0].client, { type: 'resign', seq: s.seq }));
  assert.equal(s.status, 'playing', 'two seats play on');
  assert.equal(s.seats[0].resigned, true);
  assert.equal(s.legal, undefined, 'a resigned seat is not asked to act');
  // The two others play a while; seat 0 never gets legal actions.
  const rest = [players[1], players[2]];
  for (const p of rest) p.state = await p.client.latestState(s.seq);
  await playOut(rest, {
    rng: prng(72),
    until: (_, moves) => moves >= 20,
  });
  // (states queued before the resignation may have offered it a move)
  for (const m of players[0].client.queue) {
    if (m.type === 'state' && m.seq >= s.seq) assert.equal(m.legal, undefined, 'legal for a resigned seat');
  }
  const now = rest[0].state;
  const { state: end } = await change(rest[0].client, { type: 'resign', seq: now.seq });
  assert.equal(end.status, 'over');
  assert.deepEqual(end.winners, [2], 'the one seat left wins');
});

test('a seat handed to a bot is played by it; its token no longer moves', async () => {
  const { created, players } = await people('carcassonne(players=2)', ['human', 'human'], 73);
  const s = players[0].state;
  const { state } = await change(players[0].client, { type: 'hand_over', seq: s.seq, bot: 'random' });
  assert.equal(state.seats[0].kind, 'bot');
  assert.equal(state.seats[0].bot, 'random');
  assert.equal(state.legal, undefined, 'no legal actions for a handed-over seat');
  // The token is no seat's to move any more.
  const back = await Client.connect(server);
  const m = await back.request({ type: 'join', table: created.table, token: created.tokens[0] },
    ['state', 'error']);
  if (m.type === 'state') {
    assert.equal(m.legal, undefined);
    await refused(back, { type: 'move', seq: m.seq, action: 'pass' });
  }
  back.close();
  // Seat 1 plays the game out against the bot.
  players[1].state = await players[1].client.latestState(state.seq);
  const { final } = await playOut([players[1]], { rng: prng(73) });
  assert.equal(final[0].status, 'over');
  const { text } = await fetchRecord(server, created.table);
  const replayed = await replayJson(text);
  assert.deepEqual(replayed.scores, final[0].scores);
});

test('hand_over to a bot the engine refuses changes nothing', async () => {
  const { players } = await people('carcassonne(players=2)', ['human', 'human'], 74);
  const s = players[0].state;
  await refused(players[0].client, { type: 'hand_over', seq: s.seq, bot: 'genius' });
  const again = await players[0].client.request({ type: 'ping' }, 'pong');
  assert.equal(again.type, 'pong');
  const p = await seat(server, players[0].state.table, null);
  assert.equal(p.state.seq, s.seq);
  assert.equal(p.state.seats[0].kind, 'human');
  if (mustAct(s)) await change(players[0].client, { type: 'move', seq: s.seq, action: s.legal[0] });
});

test('expert where no net is built in: the table and a hand-over are refused, saying why', async () => {
  const c = await Client.connect(server);
  const made = await refused(c, { type: 'create', game: 'carcassonne', seats: ['human', 'expert'] }, 'bad_game');
  assert.match(made.message, /seat 1: expert: no net is built in for carcassonne with 2 players/);
  c.close();
  const { players } = await people('carcassonne(players=2)', ['human', 'human'], 75);
  const s = players[0].state;
  const handed = await refused(players[0].client, { type: 'hand_over', seq: s.seq, bot: 'expert' }, 'bad_game');
  assert.match(handed.message, /no net is built in for carcassonne/);
  const p = await seat(server, s.table, null);
  assert.equal(p.state.seq, s.seq);
  assert.equal(p.state.seats[0].kind, 'human');
  // where it has a net, it takes a seat
  const c2 = await Client.connect(server);
  await createTable(c2, 'cardcassonne', ['human', 'expert'], 76);
  c2.close();
});

test('a resignation while a bot thinks: its stale answer is dropped, the game goes on', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=3)',
    ['human', 'mcts:iters=400', 'human'], 75);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  const p2 = await seat(server, created.table, created.tokens[2]);
  // Play until the bot is to move, then resign at once, while it thinks.
  let resigned = null;
  await playOut([p0, p2], {
    rng: prng(75),
    until: (latest) => latest[0].to_move === 1 && latest[0].seq === latest[1].seq,
  });
  for (let tries = 0; tries < 20 && !resigned; tries++) {
    const s = p0.state;
    const m = await p0.client.request({ type: 'resign', seq: s.seq }, ['ack', 'error']);
    if (m.type === 'ack') resigned = m;
    else {
      assert.equal(m.code, 'stale', JSON.stringify(m));
      p0.state = await p0.client.latestState(s.seq + 1);
    }
  }
  assert.ok(resigned, 'the resignation went through');
  p2.state = await p2.client.latestState(resigned.seq);
  const { final } = await playOut([p2], { rng: prng(76) });
  assert.equal(final[0].status, 'over');
  assert.ok(!final[0].winners.includes(0), 'a resigned seat cannot win');
  const { text, record } = await fetchRecord(server, created.table);
  const replayed = await replayJson(text); // every action legal, none twice
  assert.equal(replayed.actions, record.actions.length);
  assert.deepEqual(replayed.scores, final[0].scores);
});
