// pg_nodes.test.mjs -- two servers on one PostgreSQL database tell each other
// what changed (issue 36; src/server/protocol/nodes.h): a table made or ended
// on one is in the other's lobby within a second, a turn there is told to
// the player's socket here, a rated game's end there changes the rating a
// seat shows here, and after the notifications' connection was lost the
// other reads everything afresh.  Skipped without TAFEL_TEST_PG
// (scripts/test-server.sh --pg starts a cluster).
//
// Both servers are started first, then each table is made on its own server
// (a server loads every unfinished table when it starts, so one started
// later would hold the other's tables too).  Each server caches its lobby
// and the seats' ratings: without a word from the other, what it shows
// here would stay as it was, so every check below could fail.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  PG, startServer, stopAll, newDatabase, sql, Client, createTable, join, get, identity,
  connectAs, ratedTableReady, sleep, getJsonAs, withRating,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';
const WITHIN = 1000; // ms: issue 36, "seen on every node within a second"
const GAME = 'carcassonne(players=2)';

/** Polls check() (async) until it gives something truthy: [it, ms waited]. */
async function until(check, what, ms) {
  const start = Date.now();
  for (;;) {
    const got = await check();
    if (got) return [got, Date.now() - start];
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(25);
  }
}

/** The table's row in server's lobby (GET /api/tables), or undefined. */
async function listed(server, table) {
  const r = await get(server, '/api/tables');
  assert.equal(r.status, 200, r.body);
  return JSON.parse(r.body).find((t) => t.table === table);
}

/** Two servers on one new database, started one after the other. */
async function twoNodes() {
  const db = newDatabase();
  const a = await startServer({ db });
  const b = await startServer({ db });
  return { db, a, b };
}

/** Plays the first legal action until client's seat is no longer to move. */
async function playTurn(client, state) {
  let st = state;
  while (st.status === 'playing' && st.to_move === st.seat) {
    const ack = await client.request({ type: 'move', seq: st.seq, action: st.legal[0] },
      ['ack', 'error']);
    assert.equal(ack.type, 'ack', JSON.stringify(ack));
    st = await client.next((m) => m.type === 'state' && m.seq === ack.seq);
  }
  return st;
}

test('a table made on one node is in the other\'s lobby within a second, and its end', { skip },
  async (t) => {
  const { a, b } = await twoNodes();
  const lobbyB = await Client.connect(b);
  const before = await lobbyB.request({ type: 'lobby' }, ['lobby']); // B's list is cached now
  assert.deepEqual(before.tables, []);

  const c = await Client.connect(a);
  const made = await createTable(c, GAME, ['human', 'human']);
  const [row, ms] = await until(() => listed(b, made.table), 'the new table in B\'s lobby', 5000);
  t.diagnostic(`listed on B after ${ms} ms`);
  assert.ok(ms <= WITHIN, `listed on B after ${ms} ms`);
  assert.equal(row.status, 'playing');
  assert.equal(row.game, GAME);

  // it ends on A (the first seat resigns)
  const state = await join(c, made.table, made.tokens[0]);
  const ack = await c.request({ type: 'resign', seq: state.seq }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  const [ended, ms2] = await until(async () => {
    const m = await lobbyB.request({ type: 'lobby' }, ['lobby']);
    return m.tables.find((t) => t.table === made.table && t.status === 'over');
  }, 'the table over in the lobby of B\'s socket', 5000);
  t.diagnostic(`over on B after ${ms2} ms`);
  assert.ok(ms2 <= WITHIN, `over on B after ${ms2} ms`);
  const onA = await listed(a, made.table);
  assert.deepEqual([ended.seq, ended.updated], [onA.seq, onA.updated], 'as A lists it');
  c.close(); lobbyB.close();
  await Promise.all([a.stop(), b.stop()]);
});

test('a turn on one node is told to the player\'s socket on the other within a second', { skip },
  async (t) => {
  const { a, b } = await twoNodes();
  const ann = await identity(a, 'Ann', { account: true });
  const ben = await identity(a, 'Ben', { account: true });
  const c = await connectAs(a, ann);
  const made = await c.request({ type: 'create', game: GAME, seats: ['human', 'human'] },
    ['created']);
  c.close();
  const annA = await connectAs(a, ann);
  const benA = await connectAs(a, ben);
  let annState = await join(annA, made.table, made.tokens[0]);
  let benState = await join(benA, made.table, made.tokens[1]);
  assert.equal(annState.to_move, 0, 'Ann moves first');
  annState = await playTurn(annA, annState);

  // Ann's and Ben's pages on B, somewhere else
  const annB = await connectAs(b, ann);
  const benB = await connectAs(b, ben);
  await sleep(300); // whatever was said of the turns before is in
  annB.takeStates();
  annB.queue = [];
  benB.queue = [];

  benState = await benA.latestState(annState.seq);
  const start = Date.now();
  await playTurn(benA, benState);
  const turn = await annB.next((m) => m.type === 'turn', { timeout: 5000 });
  const ms = Date.now() - start;
  assert.deepEqual(turn, { type: 'turn', table: made.table, game: GAME });
  t.diagnostic(`told on B after ${ms} ms`);
  assert.ok(ms <= WITHIN, `told on B after ${ms} ms`);
  await sleep(200);
  assert.deepEqual(benB.queue.filter((m) => m.type === 'turn'), [], 'not Ben\'s turn: not told');
  for (const s of [annA, benA, annB, benB]) s.close();
  await Promise.all([a.stop(), b.stop()]);
});

test('a rated game ending on one node changes the rating a seat shows on the other within a second',
  { skip }, async (t) => {
  const { a, b } = await twoNodes();
  const star = await identity(a, 'Star', { account: true });
  const opp = await identity(a, 'Opp', { account: true });
  // Star sits at a table of B's, which shows her rating (cached there)
  const s = await connectAs(b, star);
  const onB = await s.request({ type: 'create', game: 'cardcassonne', seats: ['human', 'human'] },
    ['created']);
  const seen = await withRating(s, await join(s, onB.table, onB.tokens[0]));
  assert.equal(seen.seats[0].rating, 1500);

  const g = await ratedTableReady(a, star, opp, 7);
  const ack = await g.loser.request({ type: 'resign', seq: g.seq }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  await g.winner.next((m) => m.type === 'state' && m.status === 'over');

  // a spectator's state on B shows it: B read it again
  const [shown, ms] = await until(async () => {
    const w = await Client.connect(b);
    const st = await join(w, onB.table);
    w.close();
    return st.seats[0].rating !== 1500 && st.seats[0].rating;
  }, 'the new rating at B\'s seat', 5000);
  t.diagnostic(`shown on B after ${ms} ms`);
  assert.ok(ms <= WITHIN, `shown on B after ${ms} ms`);
  const [[rating]] = sql(a.db, `SELECT round(r.rating) FROM ratings r JOIN players p ON
    p.id = r.player WHERE p.name = 'Star' AND r.game = 'cardcassonne'`);
  assert.ok(rating > 1500, `Star won: ${rating}`);
  assert.equal(shown, rating);
  const profile = JSON.parse((await get(b, '/api/players/Star')).body);
  assert.equal(Math.round(profile.ratings.cardcassonne.rating), rating, 'and the profile');
  for (const x of [s, g.winner, g.loser]) x.close();
  await Promise.all([a.stop(), b.stop()]);
});

test('after the notifications\' connection was lost, a node reads everything afresh', { skip },
  async (t) => {
  const { db, a, b } = await twoNodes();
  assert.equal((await get(b, '/api/tables')).body, '[]'); // B's list is cached now
  const notifiers = () => sql(db, `SELECT pid FROM pg_stat_activity WHERE application_name =
    'tafel serve (notifications)' AND datname = current_database() ORDER BY backend_start`);
  const pids = notifiers().map(([pid]) => pid);
  assert.equal(pids.length, 2, 'one connection each');
  // B's (it started second) is cut; what A says meanwhile, B misses
  sql(db, `SELECT pg_terminate_backend(${pids[1]})`);
  const c = await Client.connect(a);
  const made = await createTable(c, GAME, ['human', 'human']);
  const [, ms] = await until(() => listed(b, made.table), 'the table in B\'s lobby', 10000);
  // B makes its connection again after a second, and then reads afresh
  t.diagnostic(`listed on B after ${ms} ms`);
  assert.ok(ms <= 3000, `listed on B after ${ms} ms`);
  const now = notifiers().map(([pid]) => pid);
  assert.equal(now.length, 2, 'B listens again');
  assert.ok(now.includes(pids[0]) && !now.includes(pids[1]), `A's kept, B's new: ${now}`);
  // said once, in the server's words (not libpq's FATAL); not by A
  assert.equal(b.stderr().match(/notifications of other nodes were cut off/g)?.length, 1,
    b.stderr());
  assert.doesNotMatch(b.stderr(), /FATAL/);
  assert.doesNotMatch(a.stderr(), /cut off/);

  // and hears again what A says
  const next = await createTable(c, GAME, ['human', 'human'], 2);
  const [, ms2] = await until(() => listed(b, next.table), 'the next table in B\'s lobby', 5000);
  t.diagnostic(`listed on B after ${ms2} ms`);
  assert.ok(ms2 <= WITHIN, `listed on B after ${ms2} ms`);
  c.close();
  await Promise.all([a.stop(), b.stop()]);
});

test('an invitation made on one node reaches the invited player on the other, and "my games" '
  + 'there lists the table', { skip }, async (t) => {
  const { a, b } = await twoNodes();
  const alice = await identity(a, 'Alice', { account: true });
  const dora = await identity(a, 'Dora', { account: true });
  const doraB = await connectAs(b, dora); // Dora's page on B
  await sleep(300);
  const c = await connectAs(a, alice);
  const start = Date.now();
  const made = await c.request({ type: 'create', game: GAME, seats: ['human', 'player:dora'],
    rated: true, clock: '5+3' }, ['created']);
  const told = await doraB.next('invited', { timeout: 5000 });
  const ms = Date.now() - start;
  t.diagnostic(`told on B after ${ms} ms`);
  assert.deepEqual([told.table, told.game, told.by, told.rated, told.clock],
    [made.table, GAME, 'Alice', true, '5+3']);
  assert.ok(ms <= WITHIN, `told on B after ${ms} ms`);
  // B holds no copy of the table (A made it after B started): read from the store
  const r = await getJsonAs(b, '/api/my-games', dora);
  assert.equal(r.status, 200, r.text);
  const mine = r.json.games;
  assert.deepEqual(mine.map((g) => [g.table, g.invited, g.by, g.clock?.text]),
    [[made.table, true, 'Alice', '5+3']]);
  c.close(); doraB.close();
  await Promise.all([a.stop(), b.stop()]);
});
