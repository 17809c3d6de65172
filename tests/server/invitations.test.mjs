// invitations.test.mjs -- ratings nobody can forge (issue 35, defect 1;
// docs/club.md, "Invitations", "Rated tables", "Aborted games"): a seat
// "player:NAME" waits for NAME to accept before anyone acts or any clock
// runs; declined or unanswered, the table ends with no results; a rated
// clock has a floor; a person who gives up before their first action
// aborts the table, unrated.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, join, refused, connectAs, getJsonAs, identity, sleep,
} from './helpers.mjs';

after(stopAll);

/** The player's profile. */
async function profile(server, name) {
  const r = await getJsonAs(server, `/api/players/${encodeURIComponent(name)}`);
  assert.equal(r.status, 200, r.text);
  return r.json;
}

/** GET /api/my-games as cookie: the games. */
async function myGames(server, cookie) {
  const r = await getJsonAs(server, '/api/my-games', cookie);
  assert.equal(r.status, 200, r.text);
  return r.json.games;
}

async function create(client, msg) {
  const m = await client.request({ type: 'create', ...msg }, ['created', 'error']);
  assert.equal(m.type, 'created', JSON.stringify(m));
  return m;
}

/** Waits for the client's state with status over; that state. */
const ended = (client, timeout) => client.next((m) => m.type === 'state' && m.status === 'over',
  { timeout });

/** Plays legal[0] for the seat of client while it is to move; the last state. */
async function playTurn(client, state) {
  let st = state;
  while (st.status === 'playing' && !st.waiting && st.to_move === st.seat) {
    const ack = await client.request({ type: 'move', seq: st.seq, action: st.legal[0] },
      ['ack', 'error']);
    if (ack.type === 'error') return st; // the table ended meanwhile (a clock)
    st = await client.next((m) => m.type === 'state' && m.seq === ack.seq);
  }
  return st;
}

/** No results and no rating of game for the player. */
async function untouched(server, name, game) {
  const p = await profile(server, name);
  assert.deepEqual(p.results, [], `${name} has no result row: ${JSON.stringify(p.results)}`);
  assert.equal(p.ratings[game], undefined, `${name}'s rating at ${game} is unchanged`);
}

test('the forced rated loss of the issue: refused clock, and no game before the victim accepts',
  async () => {
    const server = await startServer();
    const attacker = await identity(server, 'Mallory', { account: true });
    await identity(server, 'target', { account: true });
    const m = await connectAs(server, attacker);
    const attack = { game: 'catan_cards', seats: ['player:target', 'human'], rated: true };
    const e = await refused(m, { type: 'create', ...attack, clock: '0.0167+0' }, 'bad_clock');
    assert.match(e.message, /at least 1 minute/);
    const c = await refused(m, { type: 'create', ...attack, clock: '1s' }, 'bad_clock');
    assert.match(c.message, /at least 1 hour a move/);
    // the least a rated clock may be: the invitation holds every clock
    const made = await create(m, { ...attack, clock: '1+0' });
    const s = await join(m, made.table, made.tokens[1]);
    assert.equal(s.seat, 1);
    assert.equal(s.waiting, true);
    assert.equal(s.seats[0].invited, true);
    assert.equal(s.seats[0].name, 'target');
    assert.equal(s.legal, undefined, 'nobody may act while an invitation waits');
    assert.equal(s.clock.running, null, 'no clock runs');
    await sleep(2500); // past the timeout of the old server (1 s)
    const again = await join(m, made.table, made.tokens[1]);
    assert.equal(again.status, 'playing');
    assert.equal(again.clock.left_ms[0], 60000, "the victim's minute is whole");
    const any = again.to_move === 1 ? { type: 'move', seq: again.seq, action: 'x' }
      : { type: 'claim', seq: again.seq };
    await refused(m, any, 'waiting_invitations');
    await untouched(server, 'target', 'catan_cards');
    m.close();
  });

test('by correspondence "1s" and a claim: refused until accepted, then the game is aborted',
  async () => {
    const server = await startServer();
    const attacker = await identity(server, 'Mallory', { account: true });
    const victim = await identity(server, 'target', { account: true });
    const m = await connectAs(server, attacker);
    const made = await create(m, { game: 'catan_cards', seats: ['player:target', 'human'],
      clock: '1s' });
    const s = await join(m, made.table, made.tokens[1]);
    await sleep(1200);
    await refused(m, { type: 'claim', seq: s.seq }, 'waiting_invitations');
    const v = await connectAs(server, victim);
    const ack = await v.request({ type: 'accept', table: made.table }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    let st = await m.next((x) => x.type === 'state' && x.seq === ack.seq);
    assert.equal(st.waiting, false);
    st = await playTurn(m, st); // the attacker's own moves, if it is to move first
    await sleep(1200);
    const claim = await m.request({ type: 'claim', seq: st.seq }, ['ack', 'error']);
    assert.equal(claim.type, 'ack', JSON.stringify(claim));
    const over = await ended(m);
    assert.equal(over.reason, 'aborted', 'the victim never moved: no game');
    await untouched(server, 'target', 'catan_cards');
    await untouched(server, 'Mallory', 'catan_cards');
    m.close(); v.close();
  });

test('a real-time clock run out before the first move aborts the table', async () => {
  const server = await startServer();
  const attacker = await identity(server, 'Mallory', { account: true });
  const victim = await identity(server, 'target', { account: true });
  const m = await connectAs(server, attacker);
  const made = await create(m, { game: 'catan_cards', seats: ['player:target', 'human'],
    clock: '0.0167+0' });
  await join(m, made.table, made.tokens[1]);
  const v = await connectAs(server, victim);
  const ack = await v.request({ type: 'accept', table: made.table }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  await playTurn(m, await m.next((x) => x.type === 'state' && x.seq === ack.seq));
  const over = await ended(m, 10000);
  assert.equal(over.reason, 'aborted');
  await untouched(server, 'target', 'catan_cards');
  m.close(); v.close();
});

test('accept: the invited player is told, answers by login alone, and the game starts',
  async () => {
    const server = await startServer();
    const alice = await identity(server, 'Alice', { account: true });
    const dora = await identity(server, 'Dora', { account: true });
    const eve = await identity(server, 'Eve', { account: true });
    const lobby = await connectAs(server, dora); // Dora's page elsewhere
    const a = await connectAs(server, alice);
    const made = await create(a, { game: 'carcassonne(players=2)', seats: ['human', 'player:dora'],
      rated: true, clock: '5+3' });
    const told = await lobby.next('invited');
    assert.deepEqual([told.table, told.by, told.rated, told.clock],
      [made.table, 'Alice', true, '5+3']);
    assert.ok(told.invite_until > Date.now() / 1000 + 3600, 'a day to answer');
    const mine = await myGames(server, dora);
    assert.equal(mine[0].table, made.table, 'invitations first');
    assert.equal(mine[0].invited, true);
    assert.equal(mine[0].by, 'Alice');
    assert.equal(mine[0].rated, true);
    const s = await join(a, made.table, made.tokens[0]);
    assert.equal(s.waiting, true);
    assert.equal(s.invited_by, 'Alice');
    const hers = await myGames(server, alice);
    assert.deepEqual(hers[0].waiting_for, ['Dora'], 'the creator sees whom the game waits for');
    assert.equal(hers[0].invited, false);
    // nobody else answers: another account, a client without a login, the seat's token
    const e = await connectAs(server, eve);
    await refused(e, { type: 'accept', table: made.table }, 'not_invited');
    const api = await Client.connect(server);
    await refused(api, { type: 'join', table: made.table, token: made.tokens[1] }, 'seat_taken');
    await refused(api, { type: 'accept', table: made.table }, 'not_invited');
    await refused(a, { type: 'accept', table: made.table }, 'not_invited');
    await refused(lobby, { type: 'accept', table: 'f'.repeat(16) }, 'no_table');
    await refused(lobby, { type: 'accept', table: 7 }, 'malformed');
    // at the table, the invited player sees it and accepts there
    const d = await connectAs(server, dora);
    const ds = await join(d, made.table);
    assert.equal(ds.seat, 1);
    assert.equal(ds.seats[1].invited, true);
    const ack = await d.request({ type: 'accept' }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    const started = await a.next((x) => x.type === 'state' && x.seq === ack.seq);
    assert.equal(started.waiting, false);
    assert.equal(started.seats[1].invited, undefined);
    assert.equal(started.clock.running, started.to_move, 'the clock starts now');
    await refused(d, { type: 'accept' }, 'not_invited');
    const mover = started.to_move === 0 ? a : d;
    const moverState = started.to_move === 0 ? started
      : await d.next((x) => x.type === 'state' && x.seq === ack.seq);
    const moved = await mover.request({ type: 'move', seq: moverState.seq,
      action: moverState.legal[0] }, ['ack', 'error']);
    assert.equal(moved.type, 'ack', JSON.stringify(moved));
    assert.equal((await myGames(server, dora))[0].invited, false);
    for (const x of [lobby, a, d, e, api]) x.close();
  });

test('an invitation at an unrated table waits too; bots are not asked before it is accepted',
  async () => {
    const server = await startServer();
    const dora = await identity(server, 'Dora', { account: true });
    const api = await Client.connect(server);
    const made = await create(api, { game: 'cardcassonne(players=3)',
      seats: ['random', 'player:Dora', 'random'], seed: 3 });
    const w = await join(api, made.table);
    assert.equal(w.waiting, true);
    await sleep(500);
    const still = await join(api, made.table);
    assert.equal(still.seq, w.seq, 'no bot moved');
    const d = await connectAs(server, dora);
    const ack = await d.request({ type: 'accept', table: made.table }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    const first = await api.next((x) => x.type === 'state' && x.seq === ack.seq);
    if (first.to_move !== 1) { // a bot's turn: it is asked now
      const moved = await api.next((x) => x.type === 'state' && x.seq > ack.seq);
      assert.ok(moved.actions > first.actions, 'the bots play on');
    }
    api.close(); d.close();
  });

test('decline: the table ends as declined, with no results; and an invitation survives a restart',
  async () => {
    let server = await startServer();
    const alice = await identity(server, 'Alice', { account: true });
    const bob = await identity(server, 'Bob', { account: true });
    const a = await connectAs(server, alice);
    const made = await create(a, { game: 'cardcassonne', seats: ['human', 'player:Bob'],
      rated: true });
    a.close();
    await server.stop();
    server = await startServer({ dir: server.dir, db: server.db });
    const a2 = await connectAs(server, alice);
    const s = await join(a2, made.table, made.tokens[0]);
    assert.equal(s.waiting, true, 'still waiting after a restart');
    const b = await connectAs(server, bob);
    const ack = await b.request({ type: 'decline', table: made.table }, ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    const over = await ended(a2);
    assert.equal(over.reason, 'declined');
    await untouched(server, 'Alice', 'cardcassonne');
    await untouched(server, 'Bob', 'cardcassonne');
    assert.deepEqual(await myGames(server, bob), []);
    await refused(b, { type: 'accept', table: made.table }, 'over');
    a2.close(); b.close();
  });

test('unanswered invitations expire (--invite-expire): the table ends as expired', async () => {
  const server = await startServer({ args: ['--invite-expire', '2s'] });
  const alice = await identity(server, 'Alice', { account: true });
  await identity(server, 'Bob', { account: true });
  const a = await connectAs(server, alice);
  const made = await create(a, { game: 'cardcassonne', seats: ['human', 'player:Bob'],
    rated: true });
  const s = await join(a, made.table, made.tokens[0]);
  assert.ok(s.invite_until - Math.floor(Date.now() / 1000) <= 2);
  const over = await ended(a, 6000);
  assert.equal(over.reason, 'expired');
  await untouched(server, 'Bob', 'cardcassonne');
  a.close();
});

test('resigning at once at a rated table aborts it: no ratings change, no results', async () => {
  const server = await startServer();
  const alice = await identity(server, 'Alice', { account: true });
  const bob = await identity(server, 'Bob', { account: true });
  const a = await connectAs(server, alice);
  const made = await create(a, { game: 'cardcassonne', seats: ['human', 'human'], rated: true });
  const sa = await join(a, made.table, made.tokens[0]);
  const b = await connectAs(server, bob);
  await join(b, made.table, made.tokens[1]);
  // the farmer's second account gives up at once, whoever is to move
  const st = await a.latestState(sa.seq);
  const ack = await b.request({ type: 'resign', seq: st.seq }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  const over = await ended(a);
  assert.equal(over.reason, 'aborted');
  await untouched(server, 'Alice', 'cardcassonne');
  await untouched(server, 'Bob', 'cardcassonne');
  a.close(); b.close();
});

test('a hand-over at once aborts a rated table; at an unrated one a bot plays the game on',
  async () => {
    const server = await startServer();
    const alice = await identity(server, 'Alice', { account: true });
    const bob = await identity(server, 'Bob', { account: true });
    for (const rated of [true, false]) {
      const a = await connectAs(server, alice);
      const made = await create(a, { game: 'cardcassonne', seats: ['human', 'human'], rated });
      const sa = await join(a, made.table, made.tokens[0]);
      const b = await connectAs(server, bob);
      await join(b, made.table, made.tokens[1]);
      const st = await a.latestState(sa.seq);
      const ack = await b.request({ type: 'hand_over', seq: st.seq, bot: 'random' },
        ['ack', 'error']);
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
      const next = await a.next((m) => m.type === 'state' && m.seq === ack.seq);
      if (rated) {
        assert.equal(next.status, 'over');
        assert.equal(next.reason, 'aborted', 'rated: a loss given away unplayed');
      } else {
        assert.equal(next.status, 'playing', 'unrated: a bot plays the game on');
        assert.equal(next.seats[1].kind, 'bot', 'the handed seat is a bot\'s now');
      }
      a.close(); b.close();
    }
    await untouched(server, 'Bob', 'cardcassonne');
  });
