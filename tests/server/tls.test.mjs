// tls.test.mjs -- tafel serve --cert FILE --key FILE: HTTPS and wss:// on one
// port, over HTTP/1.1 only (lws 4.1's HTTP/2 lost the end of large bodies:
// stack-turn3.md §3), the page in Debian's chromium, and clear errors for a
// certificate or key that does not load.  The certificate is self-signed,
// made here with openssl for localhost and 127.0.0.1.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { connect as tcpConnect } from 'node:net';
import WebSocket from 'ws';
import { chromium } from 'playwright-core';
import { TAFEL, startServerVia, stopAll, tempDir, Client, createTable, join, playOut, prng }
  from './helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHROMIUM = process.env.TAFEL_CHROMIUM || '/usr/bin/chromium';

after(stopAll);

const dir = tempDir('tafel-tls-');
const cert = joinPath(dir, 'cert.pem');
const key = joinPath(dir, 'key.pem');
let ca;
let server;

/** A self-signed certificate and its key (EC P-256: quick to make). */
function makeCert(certPath, keyPath) {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt',
    'ec_paramgen_curve:prime256v1', '-sha256', '-days', '30', '-nodes', '-keyout', keyPath,
    '-out', certPath, '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
}

before(async () => {
  makeCert(cert, key);
  ca = readFileSync(cert);
  server = await startServerVia({ args: ['--cert', cert, '--key', key, '--web',
    joinPath(ROOT, 'web')] });
});

/** GET over https, trusting the test's certificate: { status, headers, body }. */
function get(path) {
  return new Promise((res, rej) => {
    const req = httpsRequest(new URL(path, server.base), { ca }, (r) => {
      const chunks = [];
      r.on('data', (d) => chunks.push(d));
      r.on('end', () => res({ status: r.statusCode, headers: r.headers,
        body: Buffer.concat(chunks) }));
    });
    req.on('error', rej);
    req.setTimeout(10000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.end();
  });
}

/** A protocol client over wss://, trusting the test's certificate. */
function wssClient() {
  const ws = new WebSocket(server.ws, 'tafel', { ca });
  return new Promise((res, rej) => {
    ws.once('open', () => res(new Client(ws)));
    ws.once('error', rej);
  });
}

test('the address line says https, and the server speaks HTTP/1.1 only (ALPN)', async () => {
  assert.match(server.base, /^https:\/\/127\.0\.0\.1:\d+\/$/);
  const alpn = await new Promise((res, rej) => {
    const s = tlsConnect({ host: '127.0.0.1', port: server.port, ca, servername: 'localhost',
      ALPNProtocols: ['h2', 'http/1.1'] }, () => { res(s.alpnProtocol); s.end(); });
    s.on('error', rej);
  });
  assert.equal(alpn, 'http/1.1');
});

test('over https: the games, the page and its files, whole', async () => {
  const games = await get('/api/games');
  assert.equal(games.status, 200);
  assert.equal(Number(games.headers['content-length']), games.body.length);
  assert.ok(JSON.parse(games.body.toString('utf8')).games.length >= 3);
  for (const [path, file] of [['/', 'index.html'], ['/carcassonne/view.mjs',
    'carcassonne/view.mjs']]) {
    const r = await get(path);
    assert.equal(r.status, 200, path);
    assert.ok(r.body.equals(readFileSync(joinPath(ROOT, 'web', file))), `${path}: ${r.body.length} `
      + 'bytes, not the file');
  }
});

test('plain http to the TLS port gets no page', async () => {
  const answer = await new Promise((res) => {
    let got = '';
    const s = tcpConnect(server.port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    s.on('data', (d) => { got += d.toString('latin1'); });
    s.on('error', () => {});
    s.on('close', () => res(got));
    setTimeout(() => s.destroy(), 5000);
  });
  assert.doesNotMatch(answer, /^HTTP\/1\.1 200/);
});

test('a game over wss://: two people play a few moves', async () => {
  assert.match(server.ws, /^wss:\/\//);
  const c = await wssClient();
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human'], 7);
  const players = [];
  for (let i = 0; i < 2; i++) {
    const client = await wssClient();
    players.push({ client, state: await join(client, created.table, created.tokens[i]) });
  }
  const { moves } = await playOut(players, { rng: prng(25), until: (_, n) => n >= 6 });
  assert.ok(moves >= 6);
  for (const p of [...players, { client: c }]) p.client.close();
});

test('the page over https in chromium shows the lobby, its socket on wss://', async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage'] });
  try {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(server.base);
    await page.locator('#nt-game').waitFor({ timeout: 20000 });
    await page.locator('.conn[data-state="open"]').waitFor({ timeout: 20000 });
    assert.deepEqual(errors, []);
    assert.ok(sockets.length >= 1 && sockets.every((u) => u.startsWith('wss://')), sockets.join());
  } finally {
    await browser.close();
  }
});

/** tafel serve with a certificate and key that will not do: { status, stderr }. */
function refused(certPath, keyPath) {
  const r = spawnSync(TAFEL, ['serve', '--port', '0', '--db', joinPath(dir, 'refused.db'),
    '--cert', certPath, '--key', keyPath], { encoding: 'utf8', timeout: 10000 });
  return { status: r.status, stderr: r.stderr };
}

test('a certificate or key that does not load: a clear error, exit status not 0', () => {
  const missing = joinPath(dir, 'no-such-key.pem');
  let r = refused(cert, missing);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /cannot read the private key .*no-such-key\.pem/);
  assert.doesNotMatch(r.stderr, /in use/);

  r = refused(joinPath(dir, 'no-such-cert.pem'), key);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /cannot read the certificate .*no-such-cert\.pem/);

  const junk = joinPath(dir, 'junk.pem');
  writeFileSync(junk, 'not a certificate\n');
  r = refused(junk, key);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /junk\.pem is not a PEM certificate/);
  r = refused(cert, junk);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /junk\.pem is not a PEM private key/);

  const otherCert = joinPath(dir, 'other-cert.pem');
  const otherKey = joinPath(dir, 'other-key.pem');
  makeCert(otherCert, otherKey);
  r = refused(cert, otherKey);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /does not belong to the certificate/);

  r = spawnSync(TAFEL, ['serve', '--port', '0', '--db', joinPath(dir, 'refused.db'),
    '--cert', cert], { encoding: 'utf8', timeout: 10000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--cert and --key go together/);
});
