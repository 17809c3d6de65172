// claims.test.mjs -- who may sit where (docs/protocol.md, "Seats"): a seat
// link joined by a page with a login is claimed (bound to its player, its
// name shown at the seat) and then refused to anybody else, a client
// without a login included; the bound player comes back without a token;
// an invitation ("player:NAME") binds a seat at creation (answered before
// the game: invitations.test.mjs); a private table
// is not listed and has no spectators; a rated table seats accounts only.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAll, Client, createTable, join, refused, identity, connectAs, change,
  get, getJsonAs } from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

const GAME = 'carcassonne(players=2)';

test('a claimed seat link is refused to another login and to a client without one', async () => {
  const alice = await identity(server, 'Alice', { account: true });
  const bob = await identity(server, 'Bob');
  const api = await Client.connect(server);
  const created = await createTable(api, GAME, ['human', 'human'], 3);
  const [t, tok] = [created.table, created.tokens[0]];
  // before anyone claims it, a client without a login sits by the token (as always)
  const free = await join(api, t, tok);
  assert.equal(free.seat, 0);
  assert.equal(free.seats[0].name, undefined, 'an API client binds nothing');
  const a = await connectAs(server, alice);
  const sa = await join(a, t, tok);
  assert.equal(sa.seat, 0);
  assert.equal(sa.seats[0].name, 'Alice');
  assert.equal(sa.seats[0].player, 'account');
  assert.equal(sa.seats[1].name, undefined, 'an open seat has no name');
  const moved = await api.next((x) => x.type === 'state' && x.seats[0].name === 'Alice');
  assert.equal(moved.seat, null, 'the unbound socket in the claimed seat watches from then on');
  const b = await connectAs(server, bob);
  const e = await refused(b, { type: 'join', table: t, token: tok }, 'seat_taken');
  assert.match(e.message, /Alice/);
  const api2 = await Client.connect(server);
  await refused(api2, { type: 'join', table: t, token: tok }, 'seat_taken');
  // Bob claims the other seat: a guest, marked so
  const sb = await join(b, t, created.tokens[1]);
  assert.equal(sb.seats[1].name, 'Bob');
  assert.equal(sb.seats[1].player, 'guest');
  // one person, one seat: Alice may not take Bob's too (bound: seat_taken)
  await refused(a, { type: 'join', table: t, token: created.tokens[1] }, 'seat_taken');
  // Alice comes back on a new socket without the token: her seat
  const a2 = await connectAs(server, alice);
  const back = await join(a2, t);
  assert.equal(back.seat, 0, 'the bound player sits in her seat without a token');
  // survives a restart: the binding is stored
  for (const c of [a, a2, b, api, api2]) c.close();
  await server.stop();
  server = await startServer({ dir: server.dir, db: server.db });
  const a3 = await connectAs(server, alice);
  assert.equal((await join(a3, t)).seat, 0);
  const api3 = await Client.connect(server);
  await refused(api3, { type: 'join', table: t, token: tok }, 'seat_taken');
  a3.close();
  api3.close();
});

test('one person, one seat: a second open seat of the same table is refused', async () => {
  const carol = await identity(server, 'Carol');
  const api = await Client.connect(server);
  const created = await createTable(api, GAME, ['human', 'human'], 4);
  const c = await connectAs(server, carol);
  await join(c, created.table, created.tokens[0]);
  const c2 = await connectAs(server, carol);
  await refused(c2, { type: 'join', table: created.table, token: created.tokens[1] },
    'already_seated');
  for (const x of [api, c, c2]) x.close();
});

test('an invitation binds the seat to the account named; a guest or nobody is no invitee',
  async () => {
    const dora = await identity(server, 'Dora', { account: true });
    await identity(server, 'Gus'); // a guest: not found by name
    const api = await Client.connect(server);
    const created = await createTable(api, GAME, ['human', 'player:dora'], 5);
    const w = await join(api, created.table);
    assert.equal(w.seats[1].name, 'Dora', 'bound at creation, found case-insensitively');
    await refused(api, { type: 'join', table: created.table, token: created.tokens[1] },
      'seat_taken');
    const d = await connectAs(server, dora);
    const s = await join(d, created.table);
    assert.equal(s.seat, 1, 'the invitee sits without a token');
    for (const name of ['Gus', 'nobody-here', 'easy']) {
      const e = await refused(api, { type: 'create', game: GAME, seats: ['human', `player:${name}`] },
        'bad_game');
      assert.match(e.message, /no player/);
    }
    await refused(api, { type: 'create', game: GAME, seats: ['player:Dora', 'player:DORA'] },
      'bad_game');
    api.close();
    d.close();
  });

test('a private table is not listed and refuses spectators; its links still work', async () => {
  const eve = await identity(server, 'Eve');
  const api = await Client.connect(server);
  const m = await api.request({ type: 'create', game: GAME, seats: ['human', 'human'],
    private: true }, ['created', 'error']);
  assert.equal(m.type, 'created', JSON.stringify(m));
  const open = await createTable(api, GAME, ['human', 'human'], 6);
  const tables = JSON.parse((await get(server, '/api/tables')).body);
  const ids = tables.map((x) => x.table);
  assert.ok(ids.includes(open.table), 'an open table is listed');
  assert.ok(!ids.includes(m.table), 'a private table is not');
  const lobby = await api.request({ type: 'lobby' }, 'lobby');
  assert.ok(!lobby.tables.some((x) => x.table === m.table));
  await refused(api, { type: 'join', table: m.table }, 'private_table');
  const e = await connectAs(server, eve);
  await refused(e, { type: 'join', table: m.table }, 'private_table');
  const s = await join(e, m.table, m.tokens[0]);
  assert.equal(s.seat, 0);
  assert.equal(s.private, true);
  // the bound player comes back on another socket without a token
  const e2 = await connectAs(server, eve);
  assert.equal((await join(e2, m.table)).seat, 0);
  const api2 = await Client.connect(server);
  assert.equal((await join(api2, m.table, m.tokens[1])).seat, 1, 'a link works');
  for (const x of [api, api2, e, e2]) x.close();
});

test('a rated table seats accounts only', async () => {
  const guest = await identity(server, 'Flo');
  const acct = await identity(server, 'Hana', { account: true });
  const api = await Client.connect(server);
  // a rated table is made by an account (ratings.c); nobody may not make one
  await refused(api, { type: 'create', game: GAME, seats: ['human', 'human'], rated: true },
    'rated_accounts_only');
  const maker = await connectAs(server, acct);
  const m = await maker.request({ type: 'create', game: GAME, seats: ['human', 'human'],
    rated: true }, ['created', 'error']);
  maker.close();
  assert.equal(m.type, 'created', JSON.stringify(m));
  const g = await connectAs(server, guest);
  await refused(g, { type: 'join', table: m.table, token: m.tokens[0] }, 'rated_accounts_only');
  await refused(api, { type: 'join', table: m.table, token: m.tokens[0] }, 'rated_accounts_only');
  const h = await connectAs(server, acct);
  const s = await join(h, m.table, m.tokens[0]);
  assert.equal(s.seats[0].name, 'Hana');
  assert.equal(s.rated, true);
  // a spectator still watches a rated, open table
  assert.equal((await join(g, m.table)).seat, null);
  for (const x of [api, g, h]) x.close();
});

// Issue 35, defect 7: a private table's record was served to anyone once
// it ended, and profiles linked its replay and named its players.
test('a private game stays private after it ends: record, page and profile', async () => {
  const ivy = await identity(server, 'Ivy', { account: true });
  const jon = await identity(server, 'Jon', { account: true });
  const kit = await identity(server, 'Kit', { account: true });
  const i = await connectAs(server, ivy);
  const m = await i.request({ type: 'create', game: GAME, seats: ['player:Ivy', 'player:Jon'],
    private: true }, ['created', 'error']);
  assert.equal(m.type, 'created', JSON.stringify(m));
  let s = await join(i, m.table);
  assert.equal(s.waiting, true, 'Jon has not answered yet (Ivy, who made it, needs not)');
  const j = await connectAs(server, jon);
  await join(j, m.table);
  const ack = await j.request({ type: 'accept' }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  // the one to move acts once, then resigns: a game given up before its first action would be
  // aborted, and leave no results to list
  s = await i.next((x) => x.type === 'state' && !x.waiting);
  const mover = s.to_move === 0 ? i : j;
  const state = s.to_move === 0 ? s : await j.next((x) => x.type === 'state' && !x.waiting);
  const moved = await change(mover, { type: 'move', seq: state.seq, action: state.legal[0] });
  mover.send({ type: 'resign', seq: moved.state.seq });
  await i.next((x) => x.type === 'state' && x.status === 'over');
  i.close();
  j.close();

  const record = `/t/${m.table}/record`;
  for (const path of [record, `/t/${m.table}`]) {
    for (const who of [undefined, kit]) {
      const r = await getJsonAs(server, path, who);
      assert.equal(r.status, 404, `${path} to a stranger: ${r.status}`);
      assert.equal(r.text, (await get(server, '/t/0123456789abcdef')).body,
        'the same answer as for no such table');
    }
  }
  for (const who of [ivy, jon]) {
    const r = await getJsonAs(server, record, who);
    assert.equal(r.status, 200, 'a player gets the record');
    assert.equal(r.json.players.length, 2);
  }
  assert.equal((await get(server, `${record}?token=${m.tokens[0]}`)).status, 200,
    'so does a seat link');
  const k = await connectAs(server, kit);
  await refused(k, { type: 'join', table: m.table }, 'private_table');
  k.close();

  const seen = async (who) => (await getJsonAs(server, '/api/players/Ivy', who)).json.results
    .find((x) => x.table === m.table);
  for (const who of [undefined, kit]) {
    const r = await seen(who);
    assert.equal(r.private, true);
    assert.equal(r.replay, undefined, 'no replay link for a stranger');
    assert.deepEqual(r.opponents, [{ place: 1 }], 'the other player unnamed');
  }
  const own = await seen(jon);
  assert.equal(own.replay, `/t/${m.table}`, 'its players see the replay');
  assert.deepEqual(own.opponents.map((o) => o.name), ['Jon']);
});
