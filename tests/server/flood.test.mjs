// flood.test.mjs -- one client never costs another its connection (issue
// 25, defects 2, 5 and 6): a socket that floods the server with messages is
// rate limited (--max-rate: rate_limited errors, then closed with 1008), a
// socket that never reads is let go when its queue passes --max-queue, and
// one address opens at most --max-per-address WebSockets (with
// --behind-proxy, the address X-Forwarded-For names).  The players at the
// table go on playing through all of it, and the server's memory stays
// bounded.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import {
  startServer, stopAll, Client, twoPeople, playOut, prng, sleep, waitAny,
} from './helpers.mjs';

after(stopAll);

/** Waits until ready() holds (checked at each message or close), or ms pass. */
async function until(clients, ms, ready) {
  const end = Date.now() + ms;
  while (!ready() && Date.now() < end) await waitAny(clients, end - Date.now(), ready);
}

function rssKiB(pid) {
  return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);
}

/** Plays `moves` more moves at the table (a few a second, as people do). */
async function playOn(players, moves, seed) {
  let made = 0;
  await playOut(players, {
    rng: prng(seed),
    until: () => made >= moves,
    onAck: () => { made++; },
    beforeMove: () => sleep(40),
    timeout: 30000,
  });
  for (const p of players) assert.equal(p.client.closed, null, 'a player lost its socket');
  return made;
}

test('600 joins from one socket: the flooder is cut off, the players keep playing', async (t) => {
  // each join sent both players a state: 600 of them (~4 MB) overflowed their queues and
  // the players were disconnected (before issue 25); at 20/s with bursts of 60, 60 get
  // through, whose states (~0.5 MB) fit the flooder's own queue, so that it is the rate
  // that cuts it off, not its queue
  const server = await startServer({ args: ['--max-queue', '2048', '--max-rate', '20'] });
  const { created, players } = await twoPeople(server, 'carcassonne(players=2)', 7);
  const rss0 = rssKiB(server.proc.pid);
  const flooder = await Client.connect(server);
  for (let i = 0; i < 600; i++) flooder.send({ type: 'join', table: created.table });
  await playOn(players, 10, 1);
  await until([flooder], 5000, () => flooder.closed);
  // it stopped sending: the server read the rest before it closed
  assert.equal(flooder.closed?.code, 1008, JSON.stringify(flooder.closed));
  const limited = flooder.messages.filter((m) => m.type === 'error' && m.code === 'rate_limited');
  assert.equal(limited.length, 1, 'one rate_limited error (at most one a second)');
  const states = flooder.messages.filter((m) => m.type === 'state').length;
  assert.ok(states <= 70, `${states} joins answered: the rate is 20/s, bursts of 60`);
  for (const p of players) assert.equal(p.client.closed, null);
  const grew = rssKiB(server.proc.pid) - rss0;
  t.diagnostic(`flooder closed ${flooder.closed.code}; ${states} joins answered; RSS +${grew} KiB`);
  assert.ok(grew < 20000, `RSS grew ${grew} KiB`);
  for (const p of players) p.client.close();
});

test('a socket that goes on at 5 times the rate gets rate_limited errors, then is closed (1008)', async (t) => {
  const server = await startServer({ args: ['--max-rate', '20'] });
  const c = await Client.connect(server);
  const start = Date.now();
  while (!c.closed && Date.now() - start < 15000) {
    for (let i = 0; i < 10 && !c.closed; i++) c.send({ type: 'ping' }); // 100 a second
    await sleep(100);
  }
  await until([c], 3000, () => c.closed);
  const seconds = (Date.now() - start) / 1000;
  const limited = c.messages.filter((m) => m.type === 'error' && m.code === 'rate_limited');
  const pongs = c.messages.filter((m) => m.type === 'pong').length;
  t.diagnostic(`closed after ${seconds.toFixed(1)} s: ${pongs} pongs, ${limited.length} rate_limited`);
  // a client that never stops sending is closed with unread input on its
  // way (the server waits 3 s for it to stop), which TCP turns into a reset:
  // 1008 with its reason when the close frame got through first, else 1006
  assert.ok([1008, 1006].includes(c.closed?.code), JSON.stringify(c.closed));
  if (c.closed.code === 1008) assert.match(c.closed.reason, /too many messages/);
  assert.ok(seconds >= 3, `closed after ${seconds} s: it takes several seconds`);
  assert.ok(limited.length >= 2, `${limited.length} rate_limited errors`);
  assert.ok(limited.length <= seconds + 1, `${limited.length} errors in ${seconds} s: one a second`);
  assert.match(limited[0].message, /messages a second/);
  assert.ok(pongs <= 60 + 20 * seconds + 5, `${pongs} pongs: no more than the rate`);
});

test('a socket at the rate limit is served; a short burst over it is not closed', async () => {
  const server = await startServer({ args: ['--max-rate', '10'] });
  const c = await Client.connect(server);
  // 30 at once: the burst (3 s worth) takes them all
  for (let i = 0; i < 30; i++) c.send({ type: 'ping' });
  await until([c], 3000, () => c.messages.length >= 30);
  assert.equal(c.messages.filter((m) => m.type === 'pong').length, 30);
  // 20 more at once: over the limit, refused with one error, not closed
  for (let i = 0; i < 20; i++) c.send({ type: 'ping' });
  await sleep(500);
  const errors = c.messages.filter((m) => m.type === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].code, 'rate_limited');
  assert.equal(c.closed, null);
  // after a pause it is served again
  await sleep(1500);
  const pong = await c.request({ type: 'ping' }, ['pong', 'error']);
  assert.equal(pong.type, 'pong');
  c.close();
});

test('one slow client never costs another its connection: a reader that never reads is let go', async (t) => {
  const server = await startServer({ args: ['--max-queue', '256', '--max-rate', '100000'] });
  const { created, players } = await twoPeople(server, 'carcassonne(players=2)', 11);
  await playOn(players, 30, 2);
  const slow = await Client.connect(server);
  await slow.request({ type: 'join', table: created.table }, 'state');
  const rss0 = rssKiB(server.proc.pid);
  slow.ws._socket.pause(); // never reads again
  const history = JSON.stringify({ type: 'history' });
  for (let i = 0; i < 3000; i++) slow.ws.send(history);
  await playOn(players, 6, 3);
  // the server closes it; the client sees it once it reads again
  await sleep(500);
  const rss1 = rssKiB(server.proc.pid);
  slow.ws._socket.resume();
  await slow.waitClosed(10000);
  t.diagnostic(`RSS ${rss0} KiB, +${rss1 - rss0} KiB with 3,000 history requests unread`);
  assert.ok(rss1 - rss0 < 30000, `RSS grew ${rss1 - rss0} KiB for one socket that does not read`);
  await playOn(players, 4, 4);
  for (const p of players) p.client.close();
});

/** Opens /ws with extra headers: { ws } or { status }. */
function open(server, headers = {}) {
  return new Promise((res) => {
    const ws = new WebSocket(server.ws, 'tafel', { headers });
    ws.on('open', () => res({ ws }));
    ws.on('unexpected-response', (req, resp) => res({ status: resp.statusCode }));
    ws.on('error', (e) => res({ error: e.message }));
  });
}

const closeWs = (ws) => new Promise((res) => { ws.on('close', res); ws.close(); });

test('--max-per-address 3: the 4th socket is refused (403), and gets in after one closes', async () => {
  const server = await startServer({ args: ['--max-per-address', '3'] });
  const open3 = [await open(server), await open(server), await open(server)];
  for (const o of open3) assert.ok(o.ws, JSON.stringify(o));
  const fourth = await open(server);
  assert.equal(fourth.status, 403, JSON.stringify(fourth));
  // X-Forwarded-For is not believed without --behind-proxy
  const forwarded = await open(server, { 'X-Forwarded-For': '10.1.2.3' });
  assert.equal(forwarded.status, 403, JSON.stringify(forwarded));
  await closeWs(open3[0].ws);
  await sleep(100);
  const next = await open(server);
  assert.ok(next.ws, JSON.stringify(next));
  for (const o of [...open3.slice(1), next]) await closeWs(o.ws);
});

test('--behind-proxy: X-Forwarded-For addresses count apart', async () => {
  const server = await startServer({ args: ['--max-per-address', '2', '--behind-proxy'] });
  const a = [await open(server, { 'X-Forwarded-For': '10.0.0.1' }),
    await open(server, { 'X-Forwarded-For': '192.0.2.9, 10.0.0.1' })];
  const b = [await open(server, { 'X-Forwarded-For': '10.0.0.2' }),
    await open(server, { 'X-Forwarded-For': '10.0.0.2' })];
  for (const o of [...a, ...b]) assert.ok(o.ws, JSON.stringify(o));
  assert.equal((await open(server, { 'X-Forwarded-For': '10.0.0.1' })).status, 403);
  assert.equal((await open(server, { 'X-Forwarded-For': '10.0.0.2' })).status, 403);
  const c = await open(server, { 'X-Forwarded-For': '10.0.0.3' });
  assert.ok(c.ws, 'a third address gets in');
  for (const o of [...a, ...b, c]) await closeWs(o.ws);
});
