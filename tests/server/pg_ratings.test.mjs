// pg_ratings.test.mjs -- two servers on one PostgreSQL database (issue 36;
// shared/notes/stack-turn4.md, pitfalls 5 and 6): one player's rated games
// ending at the same moment on both lose no rating update, and the limits
// on failed logins and new accounts count the attempts made on both as one
// server counts them.  Skipped without TAFEL_TEST_PG (scripts/test-server.sh
// --pg starts a cluster).
//
// Both servers are started first, then each table is made on its own server
// (people only, no clocks): a server loads every unfinished table when it
// starts, so one started later would play the other's tables too.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  PG, startServer, stopAll, newDatabase, sql, ratedTableReady, identity, post, sleep,
  expectedRatings, NEW_RATING as NEW,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';
const GAME = 'cardcassonne';
const near = (x, y) => Math.abs(x - y) < 1e-6;

/** Polls until check() is true (the results are stored just after the end). */
async function until(check, what, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(50);
  }
}

test('one player\'s rated games ending at once on two servers: both count, as a replay of both', { skip }, async () => {
  const db = newDatabase();
  const [a, b] = await Promise.all([startServer({ db }), startServer({ db })]);
  const star = await identity(a, 'Star', { account: true });
  const ROUNDS = 4;
  for (let round = 0; round < ROUNDS; round++) {
    // a fresh opponent on each server: their ratings before are new ones
    const onA = await identity(a, `Ann${round}`, { account: true });
    const onB = await identity(b, `Bob${round}`, { account: true });
    const [ga, gb] = await Promise.all([ratedTableReady(a, star, onA, 10 + round, GAME),
      ratedTableReady(b, star, onB, 20 + round, GAME)]);
    // both opponents resign at the same moment: Star wins both
    const acks = await Promise.all([ga, gb].map((g) => g.loser.request({ type: 'resign',
      seq: g.seq }, ['ack', 'error'])));
    for (const ack of acks) assert.equal(ack.type, 'ack', JSON.stringify(ack));
    for (const g of [ga, gb]) {
      const over = await g.winner.next((m) => m.type === 'state' && m.status === 'over');
      assert.equal(over.reason ?? '', '', 'played, not aborted');
      g.winner.close(); g.loser.close();
    }
  }
  const [[id]] = sql(db, "SELECT id FROM players WHERE name = 'Star'");
  const stored = () => sql(db, `SELECT count(*) FROM results WHERE player = ${id}`)[0][0];
  await until(() => stored() === 2 * ROUNDS, `${2 * ROUNDS} results of Star`);

  // every result counts: one rated game each, none lost to the other server
  const [[rating, rd, volatility, games]] = sql(db, `SELECT rating, rd, volatility, games FROM
    ratings WHERE player = ${id} AND game = '${GAME}'`);
  assert.equal(games, 2 * ROUNDS, 'a rated game each');
  // an independent replay: from a new rating, each win in the order the
  // store rated them (each result's rating before is the one after the
  // previous; two results read the same rating before when an update is lost)
  const results = sql(db, `SELECT table_id, rating_before, rd_before, rating_after, rd_after
    FROM results WHERE player = ${id}`);
  let now = { ...NEW };
  const left = [...results];
  while (left.length) {
    const i = left.findIndex((r) => near(r[1], now.rating) && near(r[2], now.rd));
    assert.ok(i >= 0, `no result rated from ${now.rating} (a lost update?): ${JSON.stringify(left)}`);
    const [r] = left.splice(i, 1);
    [now] = expectedRatings([now, { ...NEW }], [1, 2]);
    assert.ok(near(r[3], now.rating) && near(r[4], now.rd),
      `table ${r[0]}: ${r[3]}/${r[4]}, a replay gives ${now.rating}/${now.rd}`);
  }
  assert.ok(near(rating, now.rating), `rating ${rating}, a replay of all ${2 * ROUNDS}: ${now.rating}`);
  assert.ok(near(rd, now.rd) && near(volatility, now.volatility), 'rd and volatility as replayed');
  // no row was left behind by the lock (only rated players hold ratings)
  assert.equal(sql(db, `SELECT count(*) FROM ratings WHERE game = '${GAME}'`)[0][0], 1 + 2 * ROUNDS);
  await Promise.all([a.stop(), b.stop()]);
});

/** POST /api/login from a client address (--behind-proxy). */
const loginFrom = (server, addr, name, password) =>
  post(server, '/api/login', { name, password }, { headers: { 'x-forwarded-for': addr } });
const signupFrom = (server, addr, name) =>
  post(server, '/api/signup', { name, password: `${name} password` },
    { headers: { 'x-forwarded-for': addr } });

test('failed logins and signups spread over two servers are limited as on one', { skip }, async () => {
  const db = newDatabase();
  const args = ['--behind-proxy', '--max-login-failures', '3', '--max-address-failures', '5',
    '--max-signups', '3', '--slow-name-failures', '0'];
  const [a, b] = await Promise.all([startServer({ db, args }), startServer({ db, args })]);
  // accounts: 3 an hour from one address, wherever they are made
  assert.equal((await signupFrom(a, '10.0.0.5', 'Owner')).status, 201);
  assert.equal((await signupFrom(b, '10.0.0.5', 'Other')).status, 201);
  assert.equal((await signupFrom(a, '10.0.0.5', 'Third')).status, 201);
  let r = await signupFrom(b, '10.0.0.5', 'Fourth');
  assert.equal(r.status, 429, JSON.stringify(r.body));
  assert.equal(r.body.error, 'slow_down');
  assert.equal((await signupFrom(b, '10.0.0.6', 'Fourth')).status, 201, 'another address');

  // a name from one address: 3 failures, then refused on both, the right password too
  const servers = [a, b, a];
  for (let i = 0; i < 3; i++)
    assert.equal((await loginFrom(servers[i], '10.0.0.66', 'owner', `guess ${i} guess`)).status, 401);
  for (const s of [a, b]) {
    r = await loginFrom(s, '10.0.0.66', 'Owner', 'Owner password');
    assert.equal(r.status, 429, JSON.stringify(r.body));
    assert.equal(r.body.error, 'slow_down');
    const wait = Number(r.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 300, `Retry-After ${wait}: a token back in 15 min / 3`);
  }
  // attempts taken in parallel on both servers are counted once each
  const burst = await Promise.all([a, b, a, b].map((s, i) =>
    loginFrom(s, '10.0.0.77', 'Other', `burst ${i} guess`)));
  assert.deepEqual(burst.map((x) => x.status).sort(), [401, 401, 401, 429]);
  // the owner from home, on either server
  assert.equal((await loginFrom(b, '10.0.0.2', 'Owner', 'Owner password')).status, 200);

  // the address: 5 failures over many names and both servers, then refused
  // names it never logged in to -- but not the name that signed up there
  for (let i = 0; i < 5; i++)
    assert.equal((await loginFrom([a, b][i % 2], '10.0.0.5', `victim${i}`, 'password1')).status, 401);
  for (const s of [a, b])
    assert.equal((await loginFrom(s, '10.0.0.5', 'Fourth', 'Fourth password')).status, 429);
  assert.equal((await loginFrom(b, '10.0.0.5', 'Third', 'Third password')).status, 200,
    'signed up there on the other server: a known pair on both');
  await Promise.all([a.stop(), b.stop()]);
});
