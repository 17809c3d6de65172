// ext.test.mjs -- external bots as seats (tafel serve --ext NAME=COMMAND,
// docs/protocol.md): a client seats one by name ("ext:NAME") and never by
// command; the program plays whole games, against bots and people, across
// an undo and a restart of the server; a program that misbehaves forfeits
// its seat, with the reason in the state and the record; and no program
// outlives the server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startServer, stopAll, Client, createTable, join, seat, playOut, prng, pick, change, refused,
  fetchRecord, replayJson, get, mustAct, tempDir,
} from './helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// Every program of a server carries its marker in its command line, so
// that pgrep finds what is left of them and nothing else.
const MARKER = `tafel-ext-test-${process.pid}-${Date.now()}`;
const extArgs = (marker) => [
  '--ext', `example=python3 ${ROOT}/bots/example.py ${marker},ms=2000`,
  '--ext', `bad=python3 ${ROOT}/tests/ext/misbehave.py illegal ${marker},ms=500`,
];

let server;
before(async () => { server = await startServer({ args: extArgs(MARKER) }); });
after(stopAll);

/** The pids of the programs with marker still running. */
function programs(marker = MARKER) {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n')
      .filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Watches table `id` until it is over; the final state. */
async function watchToEnd(id, timeout = 60000) {
  const c = await Client.connect(server);
  let s = await join(c, id);
  const deadline = Date.now() + timeout;
  while (s.status !== 'over') {
    assert.ok(Date.now() < deadline, `table ${id} not over in ${timeout} ms (seq ${s.seq})`);
    s = await c.next('state');
  }
  c.close();
  return s;
}

test('the games list offers the external bots by name, never their commands', async () => {
  const r = await get(server, '/api/games');
  assert.equal(r.status, 200);
  const info = JSON.parse(r.body);
  const names = info.bots.map((b) => b.name);
  assert.ok(names.includes('ext:example'), `bots: ${names}`);
  assert.ok(names.includes('ext:bad'), `bots: ${names}`);
  assert.ok(!r.body.includes('python3') && !r.body.includes(MARKER), 'no command is shown');
  // the operator ties an external bot to no game: it is offered for every one
  const every = info.games.map((g) => g.name);
  for (const name of ['ext:example', 'ext:bad']) {
    assert.deepEqual(info.bots.find((b) => b.name === name).games, every, name);
    assert.deepEqual(info.bots.find((b) => b.name === name).players, playerCounts(info), name);
  }
});

/**
 * Every player count of every game, as its params line declares it
 * ("players=2..5 (default 2)  ..."): {"carcassonne": [2, 3, 4, 5], ...}.
 */
function playerCounts(info) {
  const counts = {};
  for (const g of info.games) {
    const line = g.params.find((p) => p.startsWith('players='));
    const [, min, max] = /^players=(\d+)\.\.(\d+)/.exec(line ?? '') ?? [, g.players, g.players];
    counts[g.name] = [];
    for (let k = Number(min); k <= Number(max); k++) counts[g.name].push(k);
  }
  return counts;
}

test('the games list names the games each bot plays: expert only those with a net built in', async () => {
  const info = JSON.parse((await get(server, '/api/games')).body);
  const every = info.games.map((g) => g.name);
  const bots = new Map(info.bots.map((b) => [b.name, b.games]));
  const counts = new Map(info.bots.map((b) => [b.name, b.players]));
  for (const level of ['random', 'greedy', 'mcts', 'easy', 'medium', 'hard']) {
    assert.deepEqual(bots.get(level), every, `${level} plays every game`);
    assert.deepEqual(counts.get(level), playerCounts(info), `${level} plays every count`);
  }
  // expert plays a game, as it comes by default, where nets/ has its net
  // (<game>-<players>p.tfnet, built into the program)
  const withNet = info.games.filter((g) =>
    existsSync(resolve(ROOT, 'nets', `${g.name}-${g.players}p.tfnet`))).map((g) => g.name);
  assert.deepEqual(bots.get('expert'), withNet);
  assert.ok(withNet.includes('cardcassonne') && !withNet.includes('carcassonne'), `nets for ${withNet}`);
  // and with the counts of players it has a net for: each game's counts, by
  // the same file names
  const netCounts = {};
  for (const [game, ks] of Object.entries(playerCounts(info))) {
    const netted = ks.filter((k) => existsSync(resolve(ROOT, 'nets', `${game}-${k}p.tfnet`)));
    if (netted.length) netCounts[game] = netted;
  }
  assert.deepEqual(counts.get('expert'), netCounts);
  assert.deepEqual(netCounts, { cardcassonne: [2] });
  // the answer is found once: a second request gives the same
  assert.deepEqual(JSON.parse((await get(server, '/api/games')).body), info);
});

test('only the configured names are seated: never a command', async () => {
  const c = await Client.connect(server);
  const unknown = await refused(c, { type: 'create', game: 'cardcassonne',
    seats: ['ext:nosuch', 'random'] }, 'bad_game');
  assert.match(unknown.message, /no external bot 'nosuch' on this server/);
  assert.match(unknown.message, /ext:example/);
  assert.match(unknown.message, /ext:bad/);
  const raw = await refused(c, { type: 'create', game: 'cardcassonne',
    seats: [`ext:python3 ${ROOT}/bots/example.py`, 'random'] }, 'bad_game');
  assert.match(raw.message, /no external bot/);
  // nor by a hand-over
  const created = await createTable(c, 'cardcassonne', ['human', 'random'], 3);
  let s = await join(c, created.table, created.tokens[0]);
  while (!mustAct(s)) s = await c.next('state'); // else the bot's move makes seq stale
  const h = await refused(c, { type: 'hand_over', seq: s.seq, bot: 'ext:sh -c true' }, 'bad_game');
  assert.match(h.message, /no external bot/);
  c.close();
});

for (const game of ['cardcassonne', 'catan_cards', 'carcassonne(players=2)']) {
  test(`${game}: ext:example against random plays to the end`, async () => {
    const c = await Client.connect(server);
    const created = await createTable(c, game, ['ext:example', 'random'], 11);
    c.close();
    const final = await watchToEnd(created.table);
    assert.equal(final.seats[0].bot, 'ext:example');
    assert.equal(final.seats[0].kind, 'bot');
    assert.equal(final.seats[0].forfeit, undefined, `no forfeit: ${final.seats[0].forfeit}`);
    assert.equal(final.to_move, 'terminal', 'played to the end, not stopped');
    const { text, record } = await fetchRecord(server, created.table);
    assert.equal(record.forfeit, undefined);
    await replayJson(text); // tafel replay reads it
  });
}

test('a person against ext:example: the game goes on to the end', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne', ['human', 'ext:example'], 12);
  const first = await join(c, created.table, created.tokens[0]);
  const { final } = await playOut([{ client: c, state: first }], { rng: prng(12), timeout: 30000 });
  assert.equal(final[0].status, 'over');
  assert.equal(final[0].to_move, 'terminal');
  assert.equal(final[0].seats[1].forfeit, undefined);
  c.close();
});

test('a person hands the seat over to ext:example, which plays it to the end', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'catan_cards', ['human', 'random'], 17);
  let s = await join(c, created.table, created.tokens[0]);
  while (!mustAct(s)) s = await c.next('state');
  ({ state: s } = await change(c, { type: 'hand_over', seq: s.seq, bot: 'ext:example' }));
  assert.equal(s.seats[0].bot, 'ext:example');
  while (s.status !== 'over') s = await c.next('state');
  assert.equal(s.to_move, 'terminal');
  assert.equal(s.seats[0].forfeit, undefined);
  c.close();
});

test('a program that answers an illegal action forfeits: it loses, and the reason is kept',
  async () => {
    const c = await Client.connect(server);
    const created = await createTable(c, 'cardcassonne', ['ext:bad', 'random'], 13);
    c.close();
    const final = await watchToEnd(created.table);
    assert.equal(final.seats[0].resigned, true);
    assert.equal(final.seats[0].kind, 'bot');
    assert.equal(final.seats[0].bot, 'ext:bad');
    assert.match(final.seats[0].forfeit, /illegal/);
    assert.deepEqual(final.winners, [1]);
    const { text, record } = await fetchRecord(server, created.table);
    assert.equal(record.forfeit.seat, 0);
    assert.equal(record.forfeit.reason, final.seats[0].forfeit);
    const replayed = await replayJson(text);
    assert.ok(JSON.stringify(replayed).includes('illegal'), 'tafel replay reads the forfeit');
  });

test('at a table of three a forfeit does not end the game: the rules play the seat, the best of '
  + 'the others wins, and tafel replay agrees', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'cardcassonne(players=3)', ['random', 'ext:bad', 'greedy'],
    17);
  c.close();
  const final = await watchToEnd(created.table);
  assert.equal(final.seats[1].resigned, true);
  assert.match(final.seats[1].forfeit, /illegal/);
  const { text, record } = await fetchRecord(server, created.table);
  assert.equal(record.forfeit.seat, 1);
  const replayed = await replayJson(text);
  assert.equal(replayed.terminal, true, 'the game was played to its end');
  assert.ok(!final.winners.includes(1), 'the seat that forfeited does not win');
  const best = Math.max(replayed.scores[0], replayed.scores[2]);
  assert.deepEqual(final.winners, [0, 2].filter((s) => replayed.scores[s] === best));
  assert.deepEqual(replayed.winners, final.winners, 'tafel replay names the same winners');
});

test('after a person\'s undo the program still plays the game right', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'ext:example'], 14);
  let s = await join(c, created.table, created.tokens[0]);
  const rng = prng(14);
  let undos = 0;
  const deadline = Date.now() + 60000;
  while (s.status !== 'over') {
    assert.ok(Date.now() < deadline, 'the game ends in time');
    if (!mustAct(s)) { // the program's turn: its states come in order
      const at = s.seq;
      s = await c.next((m) => m.type === 'state' && m.seq > at);
      continue;
    }
    ({ state: s } = await change(c, { type: 'move', seq: s.seq, action: pick(rng, s.legal) }));
    if (undos < 5 && s.undo) { // take back a placement, then play on
      ({ state: s } = await change(c, { type: 'undo', seq: s.seq }));
      undos++;
    }
  }
  assert.ok(undos > 0, 'an undo happened');
  assert.equal(s.to_move, 'terminal');
  assert.equal(s.seats[1].forfeit, undefined);
  c.close();
});

test('a restart of the server resumes an ext seat mid-game, and stops its programs', async () => {
  const dir = tempDir();
  const marker = `${MARKER}-restart`;
  let srv = await startServer({ dir, args: extArgs(marker) });
  const c = await Client.connect(srv);
  const created = await createTable(c, 'cardcassonne', ['human', 'ext:example'], 15);
  const s = await join(c, created.table, created.tokens[0]);
  const { final: mid } = await playOut([{ client: c, state: s }], {
    rng: prng(15), until: (latest, moves) => moves >= 4 && mustAct(latest[0]) });
  assert.equal(mid[0].status, 'playing');
  assert.equal(programs(marker).length > 0, true, 'the program runs');
  c.close();
  const stopped = await srv.stop();
  assert.equal(stopped.code, 0, `stopped: ${JSON.stringify(stopped)} ${srv.stderr()}`);
  assert.deepEqual(programs(marker), [], 'no program outlives its server');

  srv = await startServer({ dir, args: extArgs(marker) });
  const { client, state } = await seat(srv, created.table, created.tokens[0]);
  assert.equal(state.seq, mid[0].seq, 'the table is where it was');
  const { final } = await playOut([{ client, state }], { rng: prng(16), timeout: 30000 });
  assert.equal(final[0].status, 'over');
  assert.equal(final[0].to_move, 'terminal');
  assert.equal(final[0].seats[1].forfeit, undefined);
  client.close();
  await srv.stop();
  assert.deepEqual(programs(marker), []);
});

test('no program remains after the servers stop', async () => {
  const stopped = await server.stop();
  assert.equal(stopped.code, 0, `stopped: ${JSON.stringify(stopped)} ${server.stderr()}`);
  assert.deepEqual(programs(), []);
  // every move was the program's own: no fallback to a first legal action
  assert.doesNotMatch(server.stderr(), /failed|refused/, server.stderr());
});
