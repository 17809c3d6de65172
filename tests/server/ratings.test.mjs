// Ratings (docs/server.md, "Ratings"): a rated table's rules (accounts,
// the server's deal, no hints, its seats), the results and Glicko-2
// ratings a finished table leaves -- recomputed here from the formula,
// independent of glicko2.c -- the leaderboard and the profiles.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, join, refused, playOut, prng, get,
  signup, connectAs, getJsonAs, profileOf, withRating, glicko2, places,
  expectedRatings as expected, NEW_RATING as NEW,
} from './helpers.mjs';

after(stopAll);

const GAME = 'cardcassonne';

const close = (x, want, what) => assert.ok(Math.abs(x - want) < 1e-6, `${what}: ${x} != ${want}`);

test('the JS Glicko-2 of this test reproduces the paper', () => {
  const r = glicko2({ rating: 1500, rd: 200, volatility: 0.06 },
    [{ rating: 1400, rd: 30 }, { rating: 1550, rd: 100 }, { rating: 1700, rd: 300 }], [1, 0, 0]);
  assert.ok(Math.abs(r.rating - 1464.0507) < 0.001 && Math.abs(r.rd - 151.5165) < 0.001);
});

let server;
const cookies = {};
const ratings = {}; // name -> the rating this test expects the server to hold

const profile = (name, table) => profileOf(server, name, table);

async function createRated(client, seats, extra = {}) {
  const m = await client.request({ type: 'create', game: `${GAME}(players=${seats.length})`, seats,
    rated: true, ...extra }, ['created', 'error']);
  assert.equal(m.type, 'created', JSON.stringify(m));
  return m;
}

/** Plays a table of the named accounts (bots at the other seats) to its end. */
async function playTable(names, specs, { rated = true, seed = 5 } = {}) {
  const creator = await connectAs(server, cookies[names[0]]);
  const created = rated ? await createRated(creator, specs)
    : await creator.request({ type: 'create', game: `${GAME}(players=${specs.length})`,
      seats: specs }, ['created', 'error']);
  assert.equal(created.type, 'created', JSON.stringify(created));
  creator.close();
  const players = [];
  let k = 0;
  for (let i = 0; i < specs.length; i++) {
    if (specs[i] !== 'human') continue;
    const client = await connectAs(server, cookies[names[k++]]);
    players.push({ client, state: await join(client, created.table, created.tokens[i]) });
  }
  const { final } = await playOut(players, { rng: prng(seed), timeout: 60000 });
  for (const p of players) p.client.close();
  return { table: created.table, final: final[0] };
}

test('a server with three accounts', async () => {
  server = await startServer();
  for (const name of ['Alice', 'Bob', 'Zoë']) {
    cookies[name] = await signup(server, name);
    ratings[name] = { ...NEW };
  }
  ratings.easy = { ...NEW };
});

test('a rated table refuses a chosen seed, a seat no account holds, a hint', async () => {
  const alice = await connectAs(server, cookies.Alice);
  await refused(alice, { type: 'create', game: GAME, seats: ['human', 'human'], rated: true,
    seed: 3 }, 'bad_game');
  await refused(alice, { type: 'create', game: GAME, seats: ['human', 'random'], rated: true },
    'bad_game');
  await refused(alice, { type: 'create', game: GAME, seats: ['human', 'easy', 'easy'],
    rated: true }, 'bad_game');
  const nobody = await Client.connect(server);
  await refused(nobody, { type: 'create', game: GAME, seats: ['human', 'human'], rated: true },
    'rated_accounts_only');
  const created = await createRated(alice, ['human', 'human']);
  await refused(nobody, { type: 'join', table: created.table, token: created.tokens[1] },
    'rated_accounts_only');
  const state = await withRating(alice, await join(alice, created.table, created.tokens[0]));
  assert.equal(state.seats[0].rating, 1500, 'a new account is rated 1500 at its seat');
  const bob = await connectAs(server, cookies.Bob);
  const bobs = await join(bob, created.table, created.tokens[1]);
  const mover = bobs.to_move === 1 ? bob : alice;
  await refused(mover, { type: 'hint' }, 'no_hints');
  alice.close(); bob.close(); nobody.close();
});

test('a rated game between two accounts rates both as Glicko-2 says', async () => {
  const { table, final } = await playTable(['Alice', 'Bob'], ['human', 'human'], { seed: 11 });
  const place = places(final);
  const after = expected([ratings.Alice, ratings.Bob], place);
  const a = await profile('alice', table); // names are found case-insensitively
  assert.equal(a.name, 'Alice');
  assert.equal(a.kind, 'account');
  const res = a.results.find((r) => r.table === table);
  assert.ok(res, 'the table is among her results');
  assert.equal(res.place, place[0]);
  assert.equal(res.players, 2);
  assert.equal(res.replay, `/t/${table}`);
  close(res.rating_before, 1500, 'rating before');
  close(res.rating_after, after[0].rating, 'Alice after');
  close(res.rd_after, after[0].rd, 'Alice RD after');
  assert.deepEqual(res.opponents.map((o) => o.name), ['Bob']);
  const r = a.ratings[GAME];
  close(r.rating, after[0].rating, 'Alice rating now');
  assert.equal(r.games, 1);
  assert.equal(r.history.length, 1);
  assert.equal(r.history[0].table, table);
  const g = a.games[GAME];
  assert.equal(g.played, 1);
  assert.equal(g.won + g.lost + g.drawn, 1);
  assert.equal(g.won, place[0] === 1 && place[1] !== 1 ? 1 : 0);
  const b = await profile('Bob', table);
  close(b.ratings[GAME].rating, after[1].rating, 'Bob rating now');
  [ratings.Alice, ratings.Bob] = after;
  const replay = await get(server, res.replay);
  assert.equal(replay.status, 200, 'the replay link opens the page');
  const record = await get(server, `${res.replay}/record`);
  assert.equal(record.status, 200, 'and its record');
  const board = await getJsonAs(server, `/api/leaderboard?game=${GAME}`);
  assert.equal(board.status, 200);
  assert.deepEqual(board.json.players.map((p) => p.name),
    after[0].rating >= after[1].rating ? ['Alice', 'Bob'] : ['Bob', 'Alice']);
  assert.ok(board.json.players.every((p) => p.games === 1 && p.provisional === true));
});

test('an unrated table of accounts leaves results but no rating change', async () => {
  const { table, final } = await playTable(['Alice', 'Bob'], ['human', 'human'],
    { rated: false, seed: 12 });
  const a = await profile('Alice', table);
  const res = a.results.find((r) => r.table === table);
  assert.ok(res);
  assert.equal(res.place, places(final)[0]);
  assert.equal(res.rating_before, null);
  assert.equal(res.rating_after, null);
  close(a.ratings[GAME].rating, ratings.Alice.rating, 'unchanged');
  assert.equal(a.ratings[GAME].games, 1);
  assert.equal(a.games[GAME].played, 2);
});

test('a rated game against easy rates the bot too', async () => {
  const { table, final } = await playTable(['Zoë'], ['human', 'easy'], { seed: 13 });
  const after = expected([ratings['Zoë'], ratings.easy], places(final));
  const z = await profile('Zoë', table);
  close(z.ratings[GAME].rating, after[0].rating, 'Zoë after');
  const e = await profile('easy', table);
  assert.equal(e.kind, 'bot');
  close(e.ratings[GAME].rating, after[1].rating, 'easy after');
  assert.equal(e.results[0].table, table);
  [ratings['Zoë'], ratings.easy] = after;
  const board = await getJsonAs(server, `/api/leaderboard?game=${GAME}`);
  const bot = board.json.players.find((p) => p.name === 'easy');
  assert.equal(bot.kind, 'bot');
  const sorted = [...board.json.players].sort((x, y) => y.rating - x.rating);
  assert.deepEqual(board.json.players, sorted, 'by rating, highest first');
});

test('a rated game of three rates each pair by place, against the pre-game ratings', async () => {
  const names = ['Alice', 'Bob', 'Zoë'];
  const before = names.map((n) => ratings[n]);
  const { table, final } = await playTable(names, ['human', 'human', 'human'], { seed: 14 });
  const after = expected(before, places(final));
  for (let i = 0; i < 3; i++) {
    const p = await profile(names[i], table);
    close(p.ratings[GAME].rating, after[i].rating, `${names[i]} after three`);
    close(p.ratings[GAME].rd, after[i].rd, `${names[i]} RD after three`);
    assert.equal(p.results[0].table, table, 'the latest result first');
    assert.equal(p.results[0].players, 3);
    assert.equal(p.results[0].opponents.length, 2);
    assert.equal(p.ratings[GAME].history.at(-1).table, table, 'the latest rating last');
    ratings[names[i]] = after[i];
  }
});

test('a seat that resigns places last, whatever its score', async () => {
  const names = ['Alice', 'Bob', 'Zoë'];
  const before = names.map((n) => ratings[n]);
  const creator = await connectAs(server, cookies.Alice);
  const created = await createRated(creator, ['human', 'human', 'human']);
  const seated = [];
  for (let i = 0; i < 3; i++) {
    const client = i ? await connectAs(server, cookies[names[i]]) : creator;
    seated.push({ client, state: await join(client, created.table, created.tokens[i]) });
  }
  // after its first move (before it, a resignation aborts the game: invitations.test.mjs)
  let acted = false;
  await playOut(seated, { rng: prng(15), onAck: (j) => { acted ||= j === 0; }, until: () => acted });
  const r = await creator.request({ type: 'resign', seq: seated[0].state.seq }, ['ack', 'error']);
  assert.equal(r.type, 'ack', JSON.stringify(r));
  const rest = seated.slice(1);
  for (const p of rest) p.state = await p.client.latestState(r.seq);
  const { final } = await playOut(rest, { rng: prng(15), timeout: 60000 });
  for (const p of seated) p.client.close();
  const place = places(final[0]);
  assert.equal(place[0], 3, 'the resigned seat is last');
  const after = expected(before, place);
  for (let i = 0; i < 3; i++) {
    const p = await profile(names[i], created.table);
    assert.equal(p.results[0].table, created.table);
    assert.equal(p.results[0].place, place[i]);
    close(p.ratings[GAME].rating, after[i].rating, `${names[i]} after the resignation`);
    ratings[names[i]] = after[i];
  }
});

test('a table of bots made by an API client leaves no results', async () => {
  const api = await Client.connect(server);
  const created = await api.request({ type: 'create', game: `${GAME}(players=2)`,
    seats: ['easy', 'medium'] }, ['created', 'error']);
  assert.equal(created.type, 'created');
  const state = await join(api, created.table);
  let last = state;
  while (last.status !== 'over') last = await api.next('state', { timeout: 60000 });
  api.close();
  const e = await profile('easy');
  assert.ok(!e.results.some((x) => x.table === created.table), 'not among the bot\'s results');
});

test('profiles and leaderboards of nobody are clear 404s and 400s', async () => {
  let r = await getJsonAs(server, '/api/players/Nobody%20here');
  assert.equal(r.status, 404);
  assert.equal(r.json.error, 'no_player');
  assert.match(r.json.message, /Nobody here/);
  r = await getJsonAs(server, '/api/leaderboard?game=chess');
  assert.equal(r.status, 400);
  assert.equal(r.json.error, 'bad_game');
  r = await getJsonAs(server, '/api/leaderboard');
  assert.equal(r.status, 400);
  const page = await get(server, '/p/Zo%C3%AB');
  assert.equal(page.status, 200);
  assert.match(page.body, /<html/i);
});
