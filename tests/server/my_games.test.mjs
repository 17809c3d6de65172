// My games (GET /api/my-games) and the `turn` message: a player's
// unfinished tables, theirs to move first, and a word on their other
// sockets when it becomes their turn somewhere else.  Needs logins
// (POST /api/signup: players.c) and seats bound by their links (social).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAll, Client, join, get, post, signup, identity } from './helpers.mjs';

after(stopAll);

/** GET /api/my-games with a cookie: { status, body }. */
async function myGames(server, cookie) {
  const r = await fetch(new URL('/api/my-games', server.base), { headers: cookie ? { cookie } : {} });
  return { status: r.status, body: await r.json() };
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

test('my games needs a login: 401 with a sentence', async () => {
  const server = await startServer();
  const r = await myGames(server);
  assert.equal(r.status, 401);
  assert.equal(r.body.error, 'not_logged_in');
  assert.ok(r.body.message.length > 10);
  const bad = await myGames(server, 'tafel_session=' + 'x'.repeat(43));
  assert.equal(bad.status, 401);
  assert.equal((await get(server, '/api/my-games')).status, 401);
});

test('my games lists a player\'s tables, theirs to move first, and a turn is told elsewhere',
  async () => {
    const server = await startServer();
    const ann = await signup(server, 'Ann', 'ann password 1');
    const ben = await signup(server, 'Ben', 'ben password 1');
    const annAt = [], benAt = [];
    const tables = [];
    // two tables: Ann has the first seat of one and the second of the other
    for (const annSeat of [0, 1]) {
      const c = await Client.connect(server, { cookie: ann });
      const created = await c.request({ type: 'create', game: 'carcassonne(players=2)',
        seats: ['human', 'human'], clock: '1d' }, ['created']);
      c.close();
      const a = await Client.connect(server, { cookie: ann });
      const b = await Client.connect(server, { cookie: ben });
      const sa = await join(a, created.table, created.tokens[annSeat]);
      const sb = await join(b, created.table, created.tokens[1 - annSeat]);
      annAt.push({ client: a, state: sa });
      benAt.push({ client: b, state: sb });
      tables.push(created.table);
    }
    const first = annAt[0].state.to_move;
    assert.equal(first, 0, 'the first seat moves first');
    const lobby = await Client.connect(server, { cookie: ann }); // Ann's page elsewhere

    let r = await myGames(server, ann);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.games.map((g) => [g.table, g.your_turn, g.seat]),
      [[tables[0], true, 0], [tables[1], false, 1]]);
    const g = r.body.games[0];
    assert.equal(g.game, 'carcassonne(players=2)');
    assert.deepEqual(g.players, ['Ann', 'Ben']);
    assert.equal(g.clock.kind, 'correspondence');
    assert.ok(g.deadline_ms > Date.now() + 86000e3 && g.deadline_ms <= Date.now() + 86400e3);
    assert.equal(typeof g.updated, 'number');
    r = await myGames(server, ben);
    assert.deepEqual(r.body.games.map((x) => [x.table, x.your_turn]),
      [[tables[1], true], [tables[0], false]]);

    // Ben plays his turn at the second table: Ann's lobby is told, not her
    // socket at that table (it has the state)
    await playTurn(benAt[1].client, benAt[1].state);
    const turn = await lobby.next('turn');
    assert.deepEqual(turn, { type: 'turn', table: tables[1], game: 'carcassonne(players=2)' });
    await annAt[1].client.next((m) => m.type === 'state' && m.to_move === 1);
    assert.equal(annAt[1].client.messages.filter((m) => m.type === 'turn').length, 0);
    assert.ok(annAt[0].client.messages.some((m) => m.type === 'turn' && m.table === tables[1]),
      'her socket at another table is told');
    r = await myGames(server, ann);
    assert.deepEqual(r.body.games.map((x) => x.your_turn), [true, true]);

    // a finished table is not listed
    const st = annAt[0].client.takeStates().pop() ?? annAt[0].state;
    annAt[0].client.send({ type: 'resign', seq: st.seq });
    assert.equal((await annAt[0].client.next(['ack', 'error'])).type, 'ack');
    r = await myGames(server, ann);
    assert.deepEqual(r.body.games.map((x) => x.table), [tables[1]]);
    assert.deepEqual((await myGames(server, ben)).body.games.map((x) => x.table), [tables[1]]);
    for (const x of [...annAt, ...benAt]) x.client.close();
    lobby.close();
  });

test('my games names each seat\'s kind of player: a guest\'s, a bot\'s, an open seat', async () => {
  const server = await startServer();
  const gus = await identity(server, 'Gus');
  const c = await Client.connect(server, { cookie: gus });
  const created = await c.request({ type: 'create', game: 'carcassonne(players=3)',
    seats: ['human', 'human', 'easy'], clock: '1d' }, ['created']);
  await join(c, created.table, created.tokens[0]);
  const r = await myGames(server, gus);
  assert.equal(r.status, 200);
  const [g] = r.body.games;
  assert.deepEqual(g.players, ['Gus', null, 'easy']);
  assert.deepEqual(g.player_kinds, ['guest', null, 'bot']);
  c.close();
});
