// loop.test.mjs -- the event loop of `tafel serve` (src/server/transport/http.c, libuv):
// idle sockets time out, SIGHUP does not stop it while SIGTERM does (quickly,
// with sockets open), and running out of file descriptors makes it wait for
// one instead of spinning on accept() and flooding its log (issue 25, #6).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { request as httpRequest, Agent } from 'node:http';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { startServer, startServerVia, stopAll, Client, sleep, createTable, join } from './helpers.mjs';

after(stopAll);

/** A WebSocket to the server; answers the server's pings unless autoPong is false. */
function openSocket(server, { autoPong = true } = {}) {
  const ws = new WebSocket(server.ws, 'tafel', { autoPong });
  const t0 = Date.now();
  const s = { ws, closedAt: null, pings: 0 };
  ws.on('ping', () => { s.pings++; });
  s.closed = new Promise((res) => ws.on('close', () => { s.closedAt = Date.now() - t0; res(); }));
  ws.on('error', () => {});
  s.opened = new Promise((res, rej) => { ws.once('open', res); ws.once('error', rej); });
  return s;
}

/** A TCP connection: resolves (ms until the server closed it, or null) within ms. */
function tcpClosedWithin(port, ms, send = '') {
  return new Promise((res) => {
    const t0 = Date.now();
    const sock = tcpConnect(port, '127.0.0.1', () => { if (send) sock.write(send); });
    const timer = setTimeout(() => { sock.destroy(); res(null); }, ms);
    sock.on('data', () => {});
    sock.on('error', () => {});
    sock.on('close', () => { clearTimeout(timer); res(Date.now() - t0); });
  });
}

/** A WebSocket ping message of the protocol answered with a pong, within ms. */
async function pongs(server, ms = 5000) {
  const c = await Client.connect(server);
  try {
    const m = await c.request({ type: 'ping' }, 'pong', { timeout: ms });
    return m.type === 'pong';
  } finally {
    c.close();
  }
}

test('idle sockets time out: a WebSocket that answers no ping, a connection that sends nothing, '
  + 'an idle keep-alive', async (t) => {
  const server = await startServer({ args: ['--idle-timeout', '2'] });
  const silent = openSocket(server, { autoPong: false });
  const live = openSocket(server);
  await Promise.all([silent.opened, live.opened]);
  const nothing = tcpClosedWithin(server.port, 14000);
  const half = tcpClosedWithin(server.port, 14000, 'GET /api/games HTTP/1.1\r\nHost: x');
  // A keep-alive HTTP connection after its response: lws closes it after 5 s.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const keepAlive = new Promise((res, rej) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/api/games', agent }, (r) => {
      r.resume();
      r.on('end', () => {
        const t0 = Date.now();
        req.socket.on('close', () => res(Date.now() - t0));
      });
    });
    req.on('error', rej);
    req.end();
  });

  await Promise.race([silent.closed, sleep(6500)]);
  assert.ok(silent.closedAt !== null, 'a WebSocket that answers no ping is still open after 6.5 s '
    + '(--idle-timeout 2: pinged at 2 s, closed at 4 s)');
  assert.ok(silent.closedAt >= 3000, `closed at ${silent.closedAt} ms: before the ping was due`);
  assert.ok(silent.pings >= 1, 'it was pinged first');

  await sleep(Math.max(0, 6500 - silent.closedAt));
  assert.equal(live.closedAt, null, 'a WebSocket that answers pings stays open (6.5 s)');
  assert.ok(live.pings >= 2, `pinged ${live.pings} times in 6.5 s`);
  live.ws.close();

  const kept = await keepAlive;
  t.diagnostic(`no pong: closed at ${silent.closedAt} ms; keep-alive closed after ${kept} ms`);
  assert.ok(kept >= 3500 && kept <= 8000, `an idle keep-alive connection closed after ${kept} ms `
    + '(5 s)');
  agent.destroy();
  for (const [what, p] of [['sends nothing', nothing], ['sends half a request', half]]) {
    const ms = await p;
    assert.ok(ms !== null, `a connection that ${what} is still open after 14 s`);
    t.diagnostic(`a connection that ${what}: closed after ${ms} ms`);
    assert.ok(ms >= 8000 && ms <= 13000, `a connection that ${what} closed after ${ms} ms (10 s)`);
  }
  assert.ok(await pongs(server));
});

test('SIGHUP does not stop the server; SIGTERM does, within 2 s, with sockets open', async () => {
  const server = await startServer();
  const clients = await Promise.all(Array.from({ length: 20 }, () => Client.connect(server)));
  server.proc.kill('SIGHUP');
  await sleep(300);
  assert.equal(server.proc.exitCode, null, `SIGHUP stopped it: ${server.stderr()}`);
  assert.equal(server.proc.signalCode, null, 'SIGHUP killed it');
  assert.ok(await pongs(server), 'it answers after SIGHUP');
  const t0 = Date.now();
  const exit = await server.stop('SIGTERM');
  const took = Date.now() - t0;
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  assert.ok(took <= 2000, `SIGTERM took ${took} ms`);
  // issue 35, defect 10: a close frame, not a dropped connection (1006)
  for (const c of clients) {
    const closed = await c.waitClosed(2000);
    assert.deepEqual(closed, { code: 1001, reason: 'server restarting' });
  }
});

test('SIGINT closes a player\'s socket with 1001 after what was queued for it', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'random'], 5);
  await join(c, created.table, created.tokens[0]);
  const exit = await server.stop('SIGINT');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  assert.deepEqual(await c.waitClosed(2000), { code: 1001, reason: 'server restarting' });
});

/** utime + stime of a process, in seconds (all its threads). */
function cpuSeconds(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

test('out of descriptors: no spinning, a quiet log, and new clients get in once some close',
  async (t) => {
    const server = await startServerVia({ prefix: ['prlimit', '--nofile=128:128'],
      args: ['--max-per-address', '0'] });
    // 300 connections to a server that may hold 128 descriptors: most wait in
    // the kernel's queue (or fail); none sends anything.
    const socks = [];
    await Promise.all(Array.from({ length: 300 }, () => new Promise((res) => {
      const s = tcpConnect(server.port, '127.0.0.1', res);
      s.on('error', res);
      s.on('data', () => {});
      setTimeout(res, 3000);
      socks.push(s);
    })));
    await sleep(500);
    const err0 = server.stderr().length;
    const cpu0 = cpuSeconds(server.proc.pid);
    await sleep(3000);
    const cpu = cpuSeconds(server.proc.pid) - cpu0;
    const logged = server.stderr().length - err0;
    t.diagnostic(`CPU ${cpu.toFixed(2)} s in 3 s; stderr ${server.stderr().length} bytes `
      + `(${logged} in the 3 s): ${JSON.stringify(server.stderr().slice(0, 400))}`);
    assert.ok(cpu < 0.5, `the server used ${cpu.toFixed(2)} s of CPU in 3 s with its descriptors `
      + 'used up (a busy loop)');
    assert.ok(server.stderr().length < 4096, `${server.stderr().length} bytes on stderr `
      + `(${logged} in 3 s): ${server.stderr().slice(0, 300)}`);
    for (const s of socks) s.destroy();
    await sleep(500);
    assert.ok(await pongs(server, 8000), 'a new client after the others closed gets its pong');
    const exit = await server.stop('SIGTERM');
    assert.deepEqual(exit, { code: 0, signal: null }, server.stderr().slice(0, 2000));
  });
