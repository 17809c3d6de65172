// connection.test.mjs -- the page's socket (web/net/connection.mjs) when a
// node sends it on (docs/protocol.md, "Several nodes"): `elsewhere` reopens
// it at /ws?t=<table> after a short delay that grows while it repeats; a
// close with 4000 reconnects within half a second; after either the join
// goes again and an unacknowledged move is sent once more.  Also what it
// must keep doing: a table's socket opens at /ws?t=<table>, the lobby's at
// /ws and is reopened with ?t= when it joins; a plain drop is retried with
// the same ?t=; 4001 is not retried.
//
// The page's module runs in node as it is, against a small ws server that
// plays the node; the few browser globals it reads are stubbed, and
// WebSocket is npm's ws, which records the address of every socket opened.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket, { WebSocketServer } from 'ws';

const T = '3f9c0a5e7d21b604';
const U = '0123456789abcdef';

// ---------------------------------------------------------------- the browser's globals

const opened = [];   // every address the page opened, in order
globalThis.WebSocket = class extends WebSocket {
  constructor(url, protocol) {
    super(url, protocol);
    opened.push(url);
  }
};
const events = () => ({ addEventListener() {}, removeEventListener() {} });
globalThis.window = events();
globalThis.document = { ...events(), visibilityState: 'visible' };

let server, port;
/** The sockets the server accepted: { url, got: [messages], ws }. */
let sockets = [];
/** What the node does with a message: (socket, message) => void. */
let play = () => {};

before(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: (p) => (p.has('tafel') ? 'tafel' : false) });
  await new Promise((res) => server.once('listening', res));
  port = server.address().port;
  globalThis.location = { protocol: 'http:', host: `127.0.0.1:${port}` };
  server.on('connection', (ws, req) => {
    const s = { url: req.url, got: [], ws, at: Date.now() };
    sockets.push(s);
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      s.got.push(m);
      play(s, m);
    });
  });
});
after(() => new Promise((res) => {
  for (const c of server.clients) c.terminate();
  server.close(res);
}));

const { Connection } = await import('../../web/net/connection.mjs');

const send = (s, m) => s.ws.send(JSON.stringify(m));
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
/** Waits until ready() holds (checked every 10 ms), or fails naming what. */
async function until(ready, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(10);
  }
}
const ofType = (s, type) => s.got.filter((m) => m.type === type);

/** A page's connection, closed after fn whatever happens. */
async function withConnection(fn) {
  sockets = [];
  opened.length = 0;
  const conn = new Connection();
  try {
    await fn(conn);
  } finally {
    conn.close();
  }
}

// ---------------------------------------------------------------- tests

test('elsewhere: the socket reopens at /ws?t=<table>, joins again and sends the unacknowledged move once',
  () => withConnection(async (conn) => {
    let told = false;
    play = (s, m) => {
      if (m.type === 'join') send(s, { type: 'state', table: T, seq: 5 });
      // the first node takes the move for a table it does not own
      if (m.type === 'move' && !told) {
        told = true;
        send(s, { type: 'elsewhere', table: T });
      } else if (m.type === 'move') send(s, { type: 'ack', seq: 6 });
    };
    conn.join(T, 'abc');
    conn.open();
    await until(() => sockets.length === 1 && ofType(sockets[0], 'join').length === 1, 'the first join');
    assert.equal(sockets[0].url, `/ws?t=${T}`, 'a table\'s socket opens with ?t=');
    assert.deepEqual(ofType(sockets[0], 'join'), [{ type: 'join', table: T, token: 'abc' }]);
    await until(() => conn.seq === 5, 'the state');
    conn.move('place 0 1 0');
    await until(() => sockets.length === 2 && ofType(sockets[1], 'move').length === 1, 'the move again');
    assert.equal(sockets[1].url, `/ws?t=${T}`);
    assert.deepEqual(ofType(sockets[1], 'join'), [{ type: 'join', table: T, token: 'abc' }], 'joined again');
    assert.deepEqual(ofType(sockets[1], 'move'), [{ type: 'move', seq: 5, action: 'place 0 1 0' }]);
    assert.ok(sockets[1].got.indexOf(ofType(sockets[1], 'join')[0]) < sockets[1].got.indexOf(ofType(sockets[1], 'move')[0]),
      'the join first');
    await until(() => conn.pendingMove === null, 'the ack');
    await sleep(300);
    assert.equal(ofType(sockets[1], 'move').length, 1, 'sent once');
    assert.equal(sockets.length, 2, 'no other socket');
    assert.equal(sockets[0].ws.readyState, WebSocket.CLOSED, 'the first socket closed');
  }));

test('elsewhere names the table to go to; repeated, its delay grows', () => withConnection(async (conn) => {
  // the node never owns it: elsewhere to every join (a takeover under way)
  play = (s, m) => { if (m.type === 'join') send(s, { type: 'elsewhere', table: U }); };
  conn.join(T, null);
  conn.open();
  // the fourth socket's join too (it opens a moment before it sends it)
  await until(() => sockets.length >= 4 && ofType(sockets[3], 'join').length, 'three reopens',
    8000);
  assert.deepEqual(sockets.slice(0, 4).map((s) => s.url),
    [`/ws?t=${T}`, `/ws?t=${U}`, `/ws?t=${U}`, `/ws?t=${U}`]);
  for (const s of sockets.slice(0, 4))
    assert.deepEqual(ofType(s, 'join'), [{ type: 'join', table: T }], 'each joins its table');
  const gaps = sockets.slice(1).map((s, i) => s.at - sockets[i].at);
  // 250 ms x 2^hops, jittered by half either way: 125-375, 250-750, 500-1500
  assert.ok(gaps[0] >= 100 && gaps[0] <= 600, `the first after ${gaps[0]} ms`);
  assert.ok(gaps[2] >= 450 && gaps[2] > gaps[0], `growing: ${gaps.join(', ')} ms`);
  // junk in table is no place to go: the page stays
  play = (s, m) => { if (m.type === 'join') send(s, { type: 'elsewhere', table: '../x' }); };
  await until(() => sockets.length >= 5, 'the next reopen', 4000);
  await sleep(1200);
  assert.equal(sockets.length, 5, `no reopen for a table that is no id: ${sockets.map((s) => s.url)}`);
}));

test('close 4000 (moved): reconnects at once with ?t=, joins, and resends the unacknowledged move once',
  () => withConnection(async (conn) => {
    play = (s, m) => {
      if (m.type === 'join') send(s, { type: 'state', table: T, seq: 2 });
      // the first node loses the table with the move in flight
      if (m.type === 'move' && sockets.length === 1) s.ws.close(4000, 'moved');
      else if (m.type === 'move') send(s, { type: 'ack', seq: 3 });
    };
    conn.join(T, 'k');
    conn.open();
    await until(() => conn.seq === 2, 'the state');
    conn.move('pass');
    await until(() => sockets.length === 2 && ofType(sockets[1], 'move').length === 1, 'the move again');
    const gap = sockets[1].at - sockets[0].at;
    assert.ok(gap < 1000, `reconnected after ${gap} ms`);
    assert.equal(sockets[1].url, `/ws?t=${T}`);
    assert.deepEqual(ofType(sockets[1], 'join'), [{ type: 'join', table: T, token: 'k' }]);
    assert.deepEqual(ofType(sockets[1], 'move'), [{ type: 'move', seq: 2, action: 'pass' }]);
    await until(() => conn.pendingMove === null, 'the ack');
    await sleep(300);
    assert.equal(ofType(sockets[1], 'move').length, 1, 'sent once');
    assert.equal(conn.hops, 0, 'the table reached: the delays start over');
  }));

test('the lobby\'s socket opens at /ws; a join reopens it with ?t=, and the join goes on the new socket',
  () => withConnection(async (conn) => {
    play = (s, m) => { if (m.type === 'join') send(s, { type: 'state', table: T, seq: 0 }); };
    conn.open();
    await until(() => sockets.length === 1 && conn.status.state === 'open', 'the lobby\'s socket');
    assert.equal(sockets[0].url, '/ws');
    conn.join(T, null);
    await until(() => sockets.length === 2 && ofType(sockets[1], 'join').length === 1, 'the join');
    assert.equal(sockets[1].url, `/ws?t=${T}`);
    assert.deepEqual(ofType(sockets[0], 'join'), [], 'nothing joined on the lobby\'s socket');
    // a seat of the same table (a shared screen): the same socket
    conn.join(T, 'seat1');
    await until(() => ofType(sockets[1], 'join').length === 2, 'the second join');
    assert.equal(sockets.length, 2);
  }));

test('a dropped socket is retried with its ?t=; a close with 4001 is not', () => withConnection(async (conn) => {
  play = (s, m) => { if (m.type === 'join') send(s, { type: 'state', table: T, seq: 0 }); };
  conn.join(T, null);
  conn.open();
  await until(() => sockets.length === 1 && conn.seq === 0, 'the join');
  sockets[0].ws.terminate();
  await until(() => sockets.length === 2, 'the retry', 3000);
  assert.equal(sockets[1].url, `/ws?t=${T}`);
  await until(() => ofType(sockets[1], 'join').length === 1, 'joined again');
  sockets[1].ws.close(4001, 'logged out');
  await until(() => conn.status.state === 'ended', 'ended');
  await sleep(1500);
  assert.equal(sockets.length, 2, 'not retried after 4001');
}));
