// http.test.mjs -- the server as a program and over HTTP: it listens on
// loopback only (libwebsockets 4.1 binds * unless told otherwise), prints
// its address, stops cleanly on SIGTERM and SIGINT; it serves the page of
// --web, the table links, records (404, 403, 200) and the lobby; the
// WebSocket speaks the subprotocol "tafel" and answers pings.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  startServer, stopAll, Client, createTable, join, seat, change, get, tempDir, listeningAddresses,
  TAFEL, PG, dumpDatabase,
} from './helpers.mjs';

const PAGE = '<!doctype html><title>tafel test page</title>';
let web, server;

before(async () => {
  web = tempDir('tafel-web-');
  writeFileSync(joinPath(web, 'index.html'), PAGE);
  writeFileSync(joinPath(web, 'app.js'), 'console.log("tafel app");\n');
  writeFileSync(joinPath(web, 'style.css'), 'body { color: black; }\n');
  writeFileSync(joinPath(web, 'engine.mjs'), 'export const engine = 1;\n');
  writeFileSync(joinPath(web, 'engine.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  mkdirSync(joinPath(web, 'img'));
  writeFileSync(joinPath(web, 'img', 'tile.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // the lobby test makes 105 tables: more than --max-new-tables allows an address
  server = await startServer({ args: ['--web', web, '--max-new-tables', '0'] });
});
after(stopAll);

test('it prints its address and database, and listens on 127.0.0.1 only', async () => {
  assert.match(server.base, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  assert.ok(server.port > 0 && server.port < 65536);
  assert.equal(server.dbPrinted, server.db);
  const addresses = listeningAddresses(server.proc.pid);
  assert.ok(addresses.length > 0, 'a listening socket');
  assert.deepEqual([...new Set(addresses)], [`127.0.0.1:${server.port}`],
    `bound to ${addresses.join(', ')}: loopback only`);
});

test('--bind 127.0.0.1 given explicitly binds loopback only too', async () => {
  const s = await startServer({ args: ['--bind', '127.0.0.1'] });
  const addresses = listeningAddresses(s.proc.pid);
  assert.deepEqual([...new Set(addresses)], [`127.0.0.1:${s.port}`], addresses.join(', '));
  await s.stop();
});

test('SIGTERM and SIGINT stop it with exit status 0', async () => {
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const s = await startServer();
    const c = await Client.connect(s); // an open socket does not keep it alive
    const r = await s.stop(signal);
    assert.deepEqual(r, { code: 0, signal: null }, `${signal}: ${s.stderr()}`);
    await c.waitClosed(5000);
  }
});

test('a port in use is an error, not a silent second server', async () => {
  const r = spawnSync(TAFEL, ['serve', '--port', String(server.port), '--db',
    joinPath(tempDir(), 'x.db')], { timeout: 10000, encoding: 'utf8' });
  assert.notEqual(r.status, 0, `exit ${r.status} ${r.signal}: ${r.stdout} ${r.stderr}`);
  assert.equal(r.signal, null, 'it exits by itself');
  assert.ok(r.stderr.length > 0, 'it says why');
});

test('serve --help describes the options', () => {
  const r = spawnSync(TAFEL, ['serve', '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  for (const option of ['--port', '--db', '--bind', '--web', '--workers', '--durable']) {
    assert.ok((r.stdout + r.stderr).includes(option), option);
  }
});

test('GET / and the files of --web', async () => {
  let r = await get(server, '/');
  assert.equal(r.status, 200);
  assert.equal(r.body, PAGE);
  assert.match(r.headers.get('content-type'), /^text\/html/);
  r = await get(server, '/index.html');
  assert.equal(r.body, PAGE);
  for (const [path, type] of [['/app.js', /javascript/], ['/style.css', /^text\/css/],
    ['/engine.mjs', /javascript/], ['/engine.wasm', /^application\/wasm/],
    ['/img/tile.svg', /^image\/svg\+xml/]]) {
    r = await get(server, path);
    assert.equal(r.status, 200, `${path}: ${r.status}`);
    assert.match(r.headers.get('content-type') || '', type, `${path}: ${r.headers.get('content-type')}`);
  }
  r = await get(server, '/no-such-file.js');
  assert.equal(r.status, 404);
});

test('no file outside --web is served', async () => {
  for (const path of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/img/..%2f..%2f..%2f..%2fetc%2fpasswd', '/..%2f..%2f..%2fetc/passwd']) {
    const r = await get(server, path);
    assert.ok(!r.body.includes('root:'), `${path} served /etc/passwd`);
    assert.notEqual(r.status, 500, path);
  }
});

test('GET /t/<table> is the page; the record is 404, 403 and then 200', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 81);
  let r = await get(server, `/t/${created.table}`);
  assert.equal(r.status, 200);
  assert.equal(r.body, PAGE);
  r = await get(server, `/t/${created.table}?token=${created.tokens[0]}`);
  assert.equal(r.status, 200);
  assert.equal(r.body, PAGE);
  r = await get(server, '/t/ffffffffffffffff/record');
  assert.equal(r.status, 404);
  r = await get(server, `/t/${created.table}/record`);
  assert.equal(r.status, 403, 'no record before the end');
  assert.ok(!r.body.includes('"actions"'));
  const p = await seat(server, created.table, created.tokens[0]);
  await change(p.client, { type: 'resign', seq: p.state.seq });
  r = await get(server, `/t/${created.table}/record`);
  assert.equal(r.status, 200);
  const record = JSON.parse(r.body);
  assert.ok(record.game.startsWith('carcassonne'));
  assert.ok(Array.isArray(record.actions));
  p.client.close();
  c.close();
});

test('GET /api/tables is the lobby', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'catan_cards', ['human', 'greedy'], 82);
  const lobby = await c.request({ type: 'lobby' }, 'lobby');
  const r = await get(server, '/api/tables');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type') || '', /json/);
  const api = JSON.parse(r.body);
  const tables = Array.isArray(api) ? api : api.tables;
  assert.ok(Array.isArray(tables), `the lobby's list: ${r.body.slice(0, 200)}`);
  const mine = tables.find((t) => t.table === created.table);
  assert.ok(mine, 'the new table is listed');
  assert.deepEqual(mine, lobby.tables.find((t) => t.table === created.table));
  assert.equal(mine.seats[1].kind, 'bot');
  assert.equal(mine.seats[1].bot, 'greedy');
  assert.ok(lobby.tables.length <= 100);
  c.close();
});

test('the WebSocket: subprotocol tafel, ping and pong', async () => {
  const c = await Client.connect(server);
  assert.equal(c.ws.protocol, 'tafel');
  const m = await c.request({ type: 'ping' }, ['pong', 'error']);
  assert.deepEqual(m, { type: 'pong' });
  c.close();
});

test('a join answers with a state of protocol 1', async () => {
  const c = await Client.connect(server);
  const a = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 83);
  const s = await join(c, a.table);
  assert.equal(s.protocol, 1);
  assert.equal(s.table, a.table);
  c.close();
});

test('the lobby lists the 100 newest tables', async () => {
  const c = await Client.connect(server);
  const made = [];
  for (let i = 0; i < 105; i++) {
    made.push((await createTable(c, 'carcassonne(players=2)', ['human', 'random'], 900 + i)).table);
  }
  const lobby = await c.request({ type: 'lobby' }, 'lobby');
  assert.ok(lobby.tables.length <= 100, `${lobby.tables.length} tables`);
  const listed = new Set(lobby.tables.map((t) => t.table));
  assert.ok(listed.has(made.at(-1)), 'the newest table is listed');
  assert.ok(!listed.has(made[0]), 'the 105th newest is not');
  c.close();
});

test('the database keeps no token, only hashes', async () => {
  const dir = tempDir();
  const s = await startServer({ dir });
  const c = await Client.connect(s);
  const created = await createTable(c, 'cardcassonne(players=2)', ['human', 'human'], 84);
  const p = await seat(s, created.table, created.tokens[0]);
  await s.stop('SIGKILL'); // what is on disk, WAL included
  const files = PG ? [dumpDatabase(s.db)] : readdirSync(dir).map((f) => readFileSync(joinPath(dir, f)));
  assert.ok(files.length > 0);
  for (const token of created.tokens) {
    const binary = Buffer.from(token, 'hex');
    for (const bytes of files) {
      assert.ok(!bytes.includes(token) && !bytes.includes(token.toUpperCase()),
        'a token in the database as text');
      assert.ok(!bytes.includes(binary), 'a token in the database as bytes');
    }
  }
  p.client.close();
  c.close();
});
