// rating_void.test.mjs -- tafel admin void NAME (docs/club.md, "tafel
// admin"): the remedy for rating farming.  Every rated table NAME sat at
// is voided, whole, and the game is rated again without them: the ratings
// equal those of a Glicko-2 replay of the remaining tables, computed here
// apart from the server (helpers.mjs), and the leaderboard and profiles
// leave the voided results out -- on a running server.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  startServer, stopAll, ratedTableReady, getJsonAs, profileOf, identity,
  expectedRatings as expected, NEW_RATING as NEW, TAFEL,
} from './helpers.mjs';

after(stopAll);

const GAME = 'cardcassonne';
const close = (x, want, what) => assert.ok(Math.abs(x - want) < 1e-6, `${what}: ${x} != ${want}`);

function admin(db, args) {
  const r = spawnSync(TAFEL, ['admin', '--db', db, ...args], { encoding: 'utf8', timeout: 20000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

let server;
const cookies = {};

/** A rated table of two where each seat acts, then loser resigns: its id. */
async function ratedGame(winner, loser, seed) {
  const { table, winner: w, loser: l, seq } =
    await ratedTableReady(server, cookies[winner], cookies[loser], seed, GAME);
  const ack = await l.request({ type: 'resign', seq }, ['ack', 'error']);
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  const over = await w.next((m) => m.type === 'state' && m.status === 'over');
  assert.equal(over.reason ?? '', '', 'played, not aborted');
  w.close(); l.close();
  await profileOf(server, winner, table); // its results stored
  return table;
}

const profile = (name, table) => profileOf(server, name, table);

test('void: the farmer\'s tables voided, the game rated again without them', async () => {
  server = await startServer();
  for (const name of ['Alice', 'Bob', 'Mallory', 'Sybil']) {
    cookies[name] = await identity(server, name, { account: true });
  }
  // Mallory farms points from Sybil, her second account, and then beats Alice
  const t1 = await ratedGame('Alice', 'Bob', 1);
  const t2 = await ratedGame('Mallory', 'Sybil', 2);
  const t3 = await ratedGame('Mallory', 'Alice', 3);
  const t4 = await ratedGame('Bob', 'Alice', 4);
  const before = await profile('Alice');
  assert.equal(before.ratings[GAME].games, 3);

  const r = admin(server.db, ['void', 'mallory']); // while the server runs
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`^voided table ${t2} \\(${GAME}, `, 'm'));
  assert.match(r.out, new RegExp(`^voided table ${t3} `, 'm'));
  assert.doesNotMatch(r.out, new RegExp(`${t1}|${t4}`));
  assert.match(r.out, /^Mallory: cardcassonne \d+ -> 1500 \(0 rated games\)$/m);
  assert.match(r.out, /^Alice: /m, 'Alice lost to Mallory: her rating changes');
  assert.match(r.out, /^mallory: 2 tables voided, ratings recomputed$/m);

  // what remains: t1 (Alice beat Bob), then t4 (Bob beat Alice), from new
  let alice = { ...NEW }; let bob = { ...NEW };
  [alice, bob] = expected([alice, bob], [1, 2]);
  [bob, alice] = expected([bob, alice], [1, 2]);
  const a = await profile('Alice');
  close(a.ratings[GAME].rating, alice.rating, 'Alice');
  close(a.ratings[GAME].rd, alice.rd, 'Alice RD');
  assert.equal(a.ratings[GAME].games, 2);
  assert.deepEqual(a.ratings[GAME].history.map((h) => h.table), [t1, t4]);
  assert.equal(a.games[GAME].played, 2, 'a voided result is no game played');
  const v = a.results.find((x) => x.table === t3);
  assert.equal(v.voided, true);
  assert.equal(v.rating_after, null);
  const kept = a.results.find((x) => x.table === t4);
  assert.equal(kept.voided, false);
  close(kept.rating_after, alice.rating, 'the kept result is rated again');
  const b = await profile('Bob');
  close(b.ratings[GAME].rating, bob.rating, 'Bob');
  const board = (await getJsonAs(server, `/api/leaderboard?game=${GAME}`)).json.players;
  assert.deepEqual(board.map((p) => p.name).sort(), ['Alice', 'Bob'],
    'the farmers have no rated game left');
  close(board.find((p) => p.name === 'Alice').rating, alice.rating, 'leaderboard');

  // the next game is rated from the recomputed ratings
  await ratedGame('Alice', 'Bob', 5);
  [alice, bob] = expected([alice, bob], [1, 2]);
  close((await profile('Alice')).ratings[GAME].rating, alice.rating, 'Alice after one more');

  // again: nothing left to void; unknown names and misuse are refused
  const again = admin(server.db, ['void', 'Mallory']);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /Mallory has no rated results to void/);
  const none = admin(server.db, ['void', 'nobody']);
  assert.equal(none.code, 1);
  assert.match(none.err, /no player 'nobody'/);
  assert.equal(admin(server.db, ['void']).code, 2);
  assert.equal(admin(server.db, ['players', '--game', GAME]).code, 2);
  const other = admin(server.db, ['void', 'Bob', '--game', 'carcassonne']);
  assert.equal(other.code, 0, other.err);
  assert.match(other.out, /Bob has no rated results of carcassonne to void/);
});
