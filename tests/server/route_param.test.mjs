// route_param.test.mjs -- a table's socket opens at /ws?t=ID so that a
// proxy in front of several nodes can route it by table id (issue 36;
// docs/server.md, "Several nodes"; docs/protocol.md, "WebSocket").  The
// upgrade takes a table id's form (16 lowercase hex digits) and refuses
// anything else in t with 400 and a sentence; other parameters are
// ignored; no query string, however broken, harms the server.
//
// Raw TCP for the refusals (a WebSocket client would not show the body),
// the ws client for the sockets that open.  What lws refuses before the
// server sees the request (a bad %xx: 403; %00, too many parameters, a
// request line past its 4 KiB of headers: the connection closed) is lws's
// answer; the test asks only that no socket opens and the server goes on.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import WebSocket from 'ws';
import { startServer, stopAll, Client, createTable, join, TIMEOUT } from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

const ID = '0123456789abcdef';

/** The upgrade request of path, sent raw; resolves with the status and
 * body of the answer (body: what came after the head, for a refusal). */
function upgrade(path) {
  const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n`
    + 'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n'
    + 'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: tafel\r\n\r\n';
  return new Promise((res, rej) => {
    const sock = net.connect(server.port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const timer = setTimeout(() => finish(), 1500);
    const finish = () => {
      clearTimeout(timer);
      sock.destroy();
      const text = data.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      res({ status: Number(text.split(' ')[1]) || 0, body: end < 0 ? '' : text.slice(end + 4), text });
    };
    sock.on('connect', () => sock.write(head));
    sock.on('data', (d) => {
      data = Buffer.concat([data, d]);
      if (/^HTTP\/1\.1 101/.test(data.toString('latin1'))) finish();
    });
    sock.on('close', finish);
    sock.on('error', (e) => (data.length ? finish() : rej(e)));
  });
}

/** A socket at path answers a ping: the tafel protocol is behind it. */
async function answers(path) {
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + path.slice(1), 'tafel');
  const c = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${path}: no connection`)), TIMEOUT);
    ws.once('open', () => { clearTimeout(timer); res(new Client(ws)); });
    ws.once('error', (e) => { clearTimeout(timer); rej(new Error(`${path}: ${e.message}`)); });
  });
  const pong = await c.request({ type: 'ping' }, 'pong');
  assert.equal(pong.type, 'pong', path);
  return c;
}

test('/ws, /ws? and /ws?t=ID open, other parameters are ignored', async () => {
  for (const path of ['/ws', '/ws?', `/ws?t=${ID}`, `/ws?x=1&t=${ID}&y`, `/ws?tt=1&t=${ID}`,
    `/ws?t=${ID}&`, '/ws?&&;;', '/ws?table=abc', `/ws?%74=${ID}`, `/ws?t=${ID.slice(0, 15)}%66`]) {
    const c = await answers(path);
    c.close();
  }
});

test('a ?t= that is no table id, or t twice, is refused with 400 and the reason', async () => {
  const cases = [
    ['/ws?t=', /t must be a table id, 16 lowercase hex digits/],
    ['/ws?t', /t must be a table id/],
    [`/ws?t=${ID.toUpperCase()}`, /t must be a table id/],
    [`/ws?t=${ID.slice(1)}`, /t must be a table id/],
    [`/ws?t=${ID}0`, /t must be a table id/],
    [`/ws?t=${ID}%20`, /t must be a table id/],
    [`/ws?t=${ID}+`, /t must be a table id/],
    [`/ws?t=${ID.slice(0, 8)}%2F${ID.slice(9)}`, /t must be a table id/],
    [`/ws?t=${'a'.repeat(2000)}`, /t must be a table id/],
    [`/ws?t=${ID}&t=${ID}`, /t given twice/],
    [`/ws?t=${ID}&x=2&t=fedcba9876543210`, /t given twice/],
    [`/ws?t=${ID}%26t=${ID}`, /t must be a table id/],
  ];
  for (const [path, why] of cases) {
    const r = await upgrade(path);
    assert.equal(r.status, 400, `${path.slice(0, 60)}: ${r.text.slice(0, 200)}`);
    assert.match(r.body, why, path.slice(0, 60));
  }
});

test('broken query strings never open a socket and never harm the server', async () => {
  const junk = ['/ws?%zz', '/ws?t=%', '/ws?t=%0', `/ws?t=${ID}%00`, '/ws?t=%ff%fe',
    `/ws?${'x=1&'.repeat(300)}`, `/ws?t=${'b'.repeat(6000)}`, `/ws?${'&'.repeat(200)}t=${ID}`,
    '/ws?t=%C3%A9', '/ws?t=\u00e9'];
  for (const path of junk) {
    const r = await upgrade(path);
    assert.notEqual(r.status, 101, `${path.slice(0, 60)} opened a socket: ${r.text.slice(0, 200)}`);
  }
  // a raw byte of Latin-1 in another parameter is that parameter's business
  assert.equal((await upgrade('/ws?\u00e9=1')).status, 101);
  // still serving, sockets and pages alike
  (await answers(`/ws?t=${ID}`)).close();
  const games = await fetch(new URL('/api/games', server.base));
  assert.equal(games.status, 200);
  assert.equal(server.proc.exitCode, null, `the server is running: ${server.stderr().slice(-500)}`);
});

test('a socket opened with ?t= plays as any other: it joins its table, or another', async () => {
  const maker = await Client.connect(server);
  const made = await createTable(maker, 'cardcassonne(players=2)', ['human', 'greedy'], 3);
  maker.close();
  const c = await answers(`/ws?t=${made.table}`);
  const st = await join(c, made.table, made.tokens[0]);
  assert.equal(st.table, made.table);
  assert.equal(st.seat, 0);
  c.close();
  // this node owns every table: a ?t= of another table is no bar to a join
  const d = await answers(`/ws?t=${ID}`);
  const other = await join(d, made.table, null);
  assert.equal(other.table, made.table);
  assert.equal(other.seat, null);
  d.close();
});
