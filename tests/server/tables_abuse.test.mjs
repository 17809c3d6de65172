// tables_abuse.test.mjs -- issue 25: what one client must not be able to do
// to a table or to the server through the table messages (docs/protocol.md).
//
//   - choose the seed of a table of people (defect 1): refused; a practice
//     table's chosen seed is shown to everyone at it;
//   - flood a table with joins (defect 2): a join already made is answered
//     to the socket alone, a spectator's join costs nobody else a message;
//   - keep control of a seat given away (defect 9): after resign or
//     hand_over every socket of the seat watches as a spectator;
//   - hide a second socket on a seat (defect 10): seats[i].sockets;
//   - send text after the JSON object (defect 11);
//   - make tables without end (defect 7): --max-new-tables per address,
//     --max-tables in all, --expire ends tables nobody moves at;
//   - block the loop with history requests (defect 7): built once per
//     change and viewer.
//
// The expiry test needs tables_tick to run about once a second: the loop's
// timer calls it; until that timer existed, the sweep after each event did,
// so the test keeps a socket pinging (harmless either way).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import {
  startServer, stopAll, Client, createTable, join, seat, refused, change, sleep, TIMEOUT,
} from './helpers.mjs';

after(stopAll);

const CARDS = 'cardcassonne(players=2)';

/** Seat 0's first state at a new table of specs (seat 0 a person). */
async function firstView(server, specs, seed) {
  const c = await Client.connect(server);
  const msg = { type: 'create', game: CARDS, seats: specs };
  if (seed !== undefined) msg.seed = seed;
  const created = await c.request(msg, ['created', 'error']);
  assert.equal(created.type, 'created', JSON.stringify(created));
  const s = await join(c, created.table, created.tokens[0]);
  c.close();
  return s;
}

/** Messages of a type that arrive at client within ms. */
async function quietFor(client, ms, type = 'state') {
  const before = client.messages.length;
  await sleep(ms);
  return client.messages.slice(before).filter((m) => m.type === type);
}

test('a chosen seed: refused at a table of people, shown at a practice table', async () => {
  const server = await startServer({ chosenSeeds: false });
  const c = await Client.connect(server);
  const m = await refused(c, { type: 'create', game: CARDS, seats: ['human', 'human'], seed: 1234 },
    'seed_not_allowed');
  assert.match(m.message, /practice/);
  c.close();

  // one person with a bot: allowed, and everyone at the table sees it
  const practice = await firstView(server, ['human', 'random'], 1234);
  assert.equal(practice.seed, '1234', 'the state carries the chosen seed, as a string');
  const big = await firstView(server, ['human', 'random'], 2 ** 53);
  assert.equal(big.seed, '9007199254740992');
  const again = await firstView(server, ['human', 'random'], 1234);
  assert.deepEqual(again.view, practice.view, 'the same seed deals the same (a practice table)');

  // a table of people: the server's seed, never told, another deal each time.
  // The first view shows only the opening joker (the hands are dealt after
  // it), so two tables may well open alike: eight never all do.
  const views = [];
  for (let i = 0; i < 8; i++) {
    const v = await firstView(server, ['human', 'human']);
    assert.equal(v.seed, undefined, 'a seed the server chose is not told');
    views.push(JSON.stringify(v.view));
  }
  assert.ok(new Set(views).size > 1, 'tables of people are dealt differently');
});

test('joining again costs nobody else a message; sockets per seat are shown', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const created = await createTable(c, CARDS, ['human', 'human']);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  const p1 = await seat(server, created.table, created.tokens[1]);
  await p0.client.latestState(); // the broadcast of p1's arrival
  assert.equal(p0.state.seats[0].sockets, 1);

  // a spectator joining 100 times: each answered to itself alone
  const w = await Client.connect(server);
  for (let i = 0; i < 100; i++) w.send({ type: 'join', table: created.table });
  for (let i = 0; i < 100; i++) await w.next('state');
  // the seated socket joining its own seat again, 100 times
  for (let i = 0; i < 100; i++) p1.client.send({ type: 'join', table: created.table, token: created.tokens[1] });
  for (let i = 0; i < 100; i++) await p1.client.next('state');
  assert.deepEqual(await quietFor(p0.client, 300), [], 'p0 was sent no state by joins');

  // a second socket on seat 0: everyone sees 2
  const second = await seat(server, created.table, created.tokens[0]);
  assert.equal(second.state.seats[0].sockets, 2);
  assert.equal(second.state.seats[0].connected, true);
  const s1 = await p1.client.latestState();
  assert.equal(s1.seats[0].sockets, 2);
  assert.equal(s1.seats[1].sockets, 1);
  const lobby = await w.request({ type: 'lobby' }, 'lobby');
  const listed = lobby.tables.find((t) => t.table === created.table);
  assert.equal(listed.seats[0].sockets, 2);
  second.client.close();
  const after = await p1.client.next((s) => s.type === 'state' && s.seats[0].sockets === 1);
  assert.equal(after.seats[0].connected, true);
  // a spectator leaving changes nothing the others see
  w.close();
  assert.deepEqual(await quietFor(p1.client, 300), [], 'a spectator leaving sent no state');
  for (const p of [p0, p1]) p.client.close();
});

test('control of a seat ends when it is given away (resign, hand_over)', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=3)', ['human', 'human', 'human']);
  c.close();
  const a = await seat(server, created.table, created.tokens[1]);
  const b = await seat(server, created.table, created.tokens[1]);
  const other = await seat(server, created.table, created.tokens[0]);
  const s = await a.client.latestState();
  await change(a.client, { type: 'resign', seq: s.seq });
  // b held the same seat: it watches now, at once
  const bs = await b.client.next((m) => m.type === 'state' && m.seq === s.seq + 1);
  assert.equal(bs.seat, null, 'the seat\'s other socket is a spectator');
  assert.equal(bs.legal, undefined);
  assert.equal(bs.seats[1].sockets, 0);
  assert.equal(bs.seats[1].resigned, true);
  await refused(b.client, { type: 'hand_over', seq: bs.seq, bot: 'random' }, 'not_seated');
  await refused(b.client, { type: 'resign', seq: bs.seq }, 'not_seated');
  await refused(a.client, { type: 'resign', seq: bs.seq }, 'not_seated');
  // its token seats nobody any more: joined with it, a socket watches
  const again = await seat(server, created.table, created.tokens[1]);
  assert.equal(again.state.seat, null);
  await refused(again.client, { type: 'hand_over', seq: bs.seq, bot: 'random' }, 'not_seated');

  // hand_over: both sockets of seat 0 watch from then on
  const second = await seat(server, created.table, created.tokens[0]);
  const s0 = await other.client.latestState();
  await change(other.client, { type: 'hand_over', seq: s0.seq, bot: 'random' });
  const gone = await second.client.next((m) => m.type === 'state' && m.seq === s0.seq + 1);
  assert.equal(gone.seat, null);
  assert.equal(gone.seats[0].kind, 'bot');
  await refused(second.client, { type: 'hand_over', seq: gone.seq, bot: 'greedy' }, 'not_seated');
  await refused(other.client, { type: 'resign', seq: gone.seq }, 'not_seated');
  for (const x of [a, b, other, again, second]) x.client.close();
});

test('text after the JSON object is refused', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const m = await refused(c, '{"type":"ping"} junk', 'malformed');
  assert.match(m.message, /after/);
  await refused(c, '{"type":"ping"}{"type":"ping"}', 'malformed');
  await refused(c, '{"type":"ping"}\u0000', 'malformed');
  assert.equal((await c.request('{"type":"ping"} \n', ['pong', 'error'])).type, 'pong',
    'white space after it is fine');
  c.close();
});

test('quotas: new tables per address an hour, unfinished tables in all', async () => {
  const server = await startServer({ args: ['--max-new-tables', '3'] });
  const c = await Client.connect(server);
  for (let i = 0; i < 3; i++) await createTable(c, CARDS, ['human', 'human']);
  const m = await refused(c, { type: 'create', game: CARDS, seats: ['human', 'human'] }, 'quota');
  assert.match(m.message, /3 tables/);
  c.close();

  const full = await startServer({ args: ['--max-tables', '2'] });
  const d = await Client.connect(full);
  await createTable(d, CARDS, ['human', 'human']);
  await createTable(d, CARDS, ['human', 'human']);
  await refused(d, { type: 'create', game: CARDS, seats: ['human', 'human'] }, 'server_full');
  d.close();
});

test('a table nobody moves at for --expire ends as abandoned', async () => {
  const server = await startServer({ args: ['--expire', '3s'] });
  const c = await Client.connect(server);
  const created = await createTable(c, CARDS, ['human', 'human']);
  const p = await seat(server, created.table, created.tokens[0]);
  const start = p.state.seq;
  const pinger = setInterval(() => c.send({ type: 'ping' }), 250);
  try {
    const over = await p.client.next((m) => m.type === 'state' && m.status === 'over',
      { timeout: 10000 });
    assert.equal(over.reason, 'abandoned');
    assert.equal(over.seq, start + 1, 'the end is one change');
    assert.equal(over.legal, undefined);
  } finally {
    clearInterval(pinger);
  }
  const lobby = await c.request({ type: 'lobby' }, 'lobby');
  const listed = lobby.tables.find((t) => t.table === created.table);
  assert.equal(listed.status, 'over', 'the lobby lists it as finished');
  assert.equal(listed.reason, 'abandoned');
  // stored: a restart keeps it over
  await server.stop();
  const again = await startServer({ db: server.db, dir: server.dir });
  const w = await Client.connect(again);
  const s = await join(w, created.table);
  assert.equal(s.status, 'over');
  assert.equal(s.reason, 'abandoned');
  w.close();
  p.client.close();
  c.close();
});

test('200 history requests of a long game leave another client answered quickly', async (t) => {
  const server = await startServer();
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['random', 'random'], 5);
  const w = await Client.connect(server);
  let s = await join(w, created.table);
  const deadline = Date.now() + 60000;
  while (s.status !== 'over') {
    assert.ok(Date.now() < deadline, 'the bots finished the game');
    s = await w.next('state', { timeout: 60000 });
  }
  assert.ok(s.actions > 100, `a long game (${s.actions} actions)`);
  // 10 sockets ask 20 times each (under any per-socket rate limit).  They
  // only count what they are sent: parsing 200 histories in this process
  // would delay its own pongs, which is not the server's time.
  const askers = [];
  for (let i = 0; i < 10; i++) {
    const a = new WebSocket(server.ws, 'tafel');
    await new Promise((res, rej) => { a.once('open', res); a.once('error', rej); });
    a.got = 0;
    a.on('message', (d) => { if (d.toString('utf8', 0, 17) === '{"type":"history"') a.got++; });
    a.send(JSON.stringify({ type: 'join', table: created.table }));
    askers.push(a);
  }
  const pings = [];
  const t0 = Date.now();
  for (const a of askers) for (let i = 0; i < 20; i++) a.send('{"type":"history"}');
  for (let k = 0; k < 5; k++) {
    const sent = Date.now();
    await c.request({ type: 'ping' }, 'pong');
    pings.push(Date.now() - sent);
    await sleep(20);
  }
  const until = Date.now() + TIMEOUT;
  while (askers.some((a) => a.got < 20) && Date.now() < until) await sleep(20);
  assert.ok(askers.every((a) => a.got === 20), 'every history request answered');
  const total = Date.now() - t0;
  assert.ok(Math.max(...pings) < 200, `pings waited ${pings.join(', ')} ms (all ${total} ms)`);
  t.diagnostic(`pings waited ${pings.join(', ')} ms; 200 histories of ${s.actions} actions in ${total} ms`);
  for (const a of askers) a.close();
  c.close();
  w.close();
});
