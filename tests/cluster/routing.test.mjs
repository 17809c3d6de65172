// routing.test.mjs -- several `tafel serve` nodes behind HAProxy, and
// behind nginx, with the configurations docs/server.md shows ("Several
// nodes": docs/proxy/haproxy.cfg and docs/proxy/nginx.conf, filled in
// here): a table's socket (/ws?t=ID) and page (/t/ID) reach the node its
// id hashes to, always the same one; the ids spread over the nodes; after
// `kill -9` of a node only its ids move, to the survivors, while the
// others are served without an error; when the node is back, its ids go
// home.  The lobby's sockets (no id) go to any node.
//
// Three nodes, each on its own SQLite file (until the store is shared),
// started as docs/server.md says (--behind-proxy, --host), on loopback
// ports read back from their line; the proxy on a free loopback port.  A
// node is recognised by its own tables: each node makes three, and the
// lobby a socket is sent through the proxy lists the tables of the node
// that serves it.  The requests carry the public name as Host and, as a
// browser's do, an Origin: the node's Origin check must pass through.
//
// The proxies are Debian's binaries unpacked by scripts/proxies.sh into
// .cache/proxies/ (or TAFEL_HAPROXY, TAFEL_NGINX, or an installed one);
// without them the test is skipped, saying so.  Every process it starts
// is killed at the end, on failure too.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import {
  startServer, stopAll, Client, createTable, tempDir, sleep, prng,
} from '../server/helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOST = 'tafel.test';   // the public name the nodes are told with --host
const NODES = 3;
const IDS = 60;

/** The proxy's binary: the environment's, the unpacked one, or an installed one. */
function binary(name) {
  const given = process.env[`TAFEL_${name.toUpperCase()}`];
  if (given) return existsSync(given) ? given : null;
  for (const p of [joinPath(ROOT, '.cache', 'proxies', 'root', 'usr', 'sbin', name), `/usr/sbin/${name}`])
    if (existsSync(p)) return p;
  return null;
}
function missing(name) {
  if (binary(name)) return false;
  const given = process.env[`TAFEL_${name.toUpperCase()}`];
  return given ? `TAFEL_${name.toUpperCase()}=${given}: no such file`
    : `no ${name} binary: run bash scripts/proxies.sh (Debian's ${name}, unpacked into .cache/proxies/)`;
}

// ---------------------------------------------------------------- processes

const proxies = new Set();
const killProxy = (p) => {
  // its own process group: nginx's workers go with their master
  try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ }
};
process.on('exit', () => { for (const p of proxies) killProxy(p); });
after(async () => {
  for (const p of proxies) killProxy(p);
  await stopAll();
});

/** A free loopback port (taken a moment, then let go). */
function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** Resolves once something listens on port (or rejects after ms). */
async function listening(port, proc, output, ms = 10000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`the proxy exited (${proc.exitCode ?? proc.signalCode}): ${output()}`);
    const ok = await new Promise((res) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); res(true); });
      s.once('error', () => res(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the proxy does not listen on ${port}: ${output()}`);
    await sleep(50);
  }
}

/** The template of docs/proxy/ with its {{...}} filled in. */
function fill(template, values) {
  const text = readFileSync(joinPath(ROOT, 'docs', 'proxy', template), 'utf8')
    .replace(/\{\{(\w+)\}\}/g, (all, name) => {
      assert.ok(name in values, `${template}: nothing to fill in for ${all}`);
      return values[name];
    });
  return text;
}

/** Starts the proxy of kind in front of nodes: { proc, port, output() }. */
async function startProxy(kind, nodes) {
  const dir = tempDir(`tafel-${kind}-`);
  const port = await freePort();
  const values = { LISTEN: `127.0.0.1:${port}`, NAME: HOST };
  nodes.forEach((n, i) => { values[`NODE${i + 1}`] = `127.0.0.1:${n.port}`; });
  let args;
  if (kind === 'haproxy') {
    // the template has no global section: ours, then the template
    writeFileSync(joinPath(dir, 'global.cfg'), 'global\n  maxconn 1000\n');
    writeFileSync(joinPath(dir, 'tafel.cfg'), fill('haproxy.cfg', values));
    args = ['-db', '-f', joinPath(dir, 'global.cfg'), '-f', joinPath(dir, 'tafel.cfg')];
  } else {
    // the template goes in an http block, as /etc/nginx/conf.d/ does
    writeFileSync(joinPath(dir, 'tafel.conf'), fill('nginx.conf', values));
    for (const t of ['body', 'proxy', 'fcgi', 'uwsgi', 'scgi']) mkdirSync(joinPath(dir, 'tmp', t), { recursive: true });
    writeFileSync(joinPath(dir, 'nginx.conf'), [
      'daemon off;', 'worker_processes 1;', `pid ${dir}/nginx.pid;`, `error_log ${dir}/error.log;`,
      'events { worker_connections 1024; }',
      'http {',
      `  client_body_temp_path ${dir}/tmp/body; proxy_temp_path ${dir}/tmp/proxy;`,
      `  fastcgi_temp_path ${dir}/tmp/fcgi; uwsgi_temp_path ${dir}/tmp/uwsgi; scgi_temp_path ${dir}/tmp/scgi;`,
      `  access_log ${dir}/access.log;`,
      `  include ${dir}/tafel.conf;`,
      '}', ''].join('\n'));
    args = ['-p', dir, '-e', joinPath(dir, 'error.log'), '-c', joinPath(dir, 'nginx.conf')];
  }
  const proc = spawn(binary(kind), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  proxies.add(proc);
  let out = '';
  proc.stdout.setEncoding('utf8');
  proc.stderr.setEncoding('utf8');
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  const output = () => {
    const log = joinPath(dir, 'error.log');
    return out + (existsSync(log) ? readFileSync(log, 'utf8') : '');
  };
  await listening(port, proc, output);
  return { proc, port, output, stop: () => { killProxy(proc); proxies.delete(proc); } };
}

// ---------------------------------------------------------------- the nodes

/** Starts node i (on its database, at its port once it has one). */
function startNode(i, { dir, port } = {}) {
  const args = ['--behind-proxy', '--host', HOST, ...(port ? ['--port', String(port)] : [])];
  return startServer({ dir, db: dir ? joinPath(dir, 'tafel.db') : undefined, args });
}

/** Three nodes, each with three tables of its own (how it is recognised). */
async function startNodes() {
  const nodes = [];
  for (let i = 0; i < NODES; i++) {
    const node = await startNode(i);
    const c = await Client.connect(node);
    node.tables = [];
    for (let k = 0; k < 3; k++)
      node.tables.push((await createTable(c, 'cardcassonne(players=2)', ['human', 'greedy'], 40 + k)).table);
    c.close();
    nodes.push(node);
  }
  return nodes;
}

// ---------------------------------------------------------------- through the proxy

/**
 * Opens a socket through the proxy at path (as a browser of HOST would:
 * its Host and Origin), asks for the lobby and answers which node sent it
 * (its index), by the tables it lists.  Rejects on any failure.
 */
function nodeOf(proxy, nodes, path) {
  const origin = `http://${HOST}:${proxy.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${proxy.port}${path}`, 'tafel',
    { headers: { Host: `${HOST}:${proxy.port}` }, origin, handshakeTimeout: 5000 });
  return new Promise((res, rej) => {
    const timer = setTimeout(() => { ws.terminate(); rej(new Error(`${path}: no lobby in 5 s`)); }, 5000);
    const fail = (why) => { clearTimeout(timer); ws.terminate(); rej(new Error(`${path}: ${why}`)); };
    ws.once('unexpected-response', (req, r) => fail(`answered ${r.statusCode} ${r.statusMessage}`));
    ws.once('error', (e) => fail(e.message));
    ws.once('open', () => {
      if (ws.protocol !== 'tafel') fail(`subprotocol ${JSON.stringify(ws.protocol)}`);
      ws.send(JSON.stringify({ type: 'lobby' }));
    });
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type !== 'lobby') return;
      clearTimeout(timer);
      ws.close();
      const listed = new Set(m.tables.map((t) => t.table));
      const found = nodes.findIndex((n) => n.tables.some((t) => listed.has(t)));
      if (found < 0) rej(new Error(`${path}: a lobby of no node's tables: ${[...listed]}`));
      else res(found);
    });
  });
}

/** The node of every id (by its table socket), in order. */
async function nodesOf(proxy, nodes, ids) {
  const out = [];
  for (const id of ids) out.push(await nodeOf(proxy, nodes, `/ws?t=${id}`));
  return out;
}

/** Polls until every id of ids is served by the node want(id, node) accepts;
 * the ids' nodes then.  Errors meanwhile are retried until the deadline. */
async function settle(proxy, nodes, ids, want, ms, what) {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    const got = [];
    try {
      for (const id of ids) got.push(await nodeOf(proxy, nodes, `/ws?t=${id}`));
      if (got.every((n, i) => want(ids[i], n))) return got;
      last = `nodes ${got.join(',')}`;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last: ${last})\n${proxy.output().slice(-1500)}`);
    await sleep(200);
  }
}

const count = (list, n) => list.filter((x) => x === n).length;

async function scenario(kind, t) {
  const nodes = await startNodes();
  const proxy = await startProxy(kind, nodes);
  try {
    const rng = prng(kind === 'haproxy' ? 36 : 37);
    const ids = Array.from({ length: IDS }, () => Array.from({ length: 16 },
      () => '0123456789abcdef'[Math.floor(rng() * 16)]).join(''));

    // the same id reaches the same node, and the ids spread over the nodes
    const home = await nodesOf(proxy, nodes, ids);
    // asked again in another order (round robin would answer otherwise)
    assert.deepEqual((await nodesOf(proxy, nodes, [...ids].reverse())).reverse(), home,
      'each id again at its node');
    const spread = nodes.map((_, n) => count(home, n));
    for (const [n, k] of spread.entries())
      assert.ok(k >= 8, `${IDS} ids over ${NODES} nodes: ${spread.join('/')} (node ${n} has ${k})`);
    t.diagnostic(`${IDS} ids over the nodes: ${spread.join('/')}`);

    // a table's page and record (/t/ID) go where its socket goes: 200 from
    // the node that holds the table, 404 from another
    for (const [n, node] of nodes.entries()) {
      for (const table of node.tables) {
        const via = await nodeOf(proxy, nodes, `/ws?t=${table}`);
        const r = await fetch(`http://127.0.0.1:${proxy.port}/t/${table}`, { headers: { Host: HOST } });
        assert.equal(r.status, via === n ? 200 : 404,
          `/t/${table} (made at node ${n}, its socket served by node ${via}): ${r.status}`);
      }
    }

    // the lobby's sockets (no id) go to any node
    const lobby = [];
    for (let i = 0; i < 12; i++) lobby.push(await nodeOf(proxy, nodes, '/ws'));
    assert.ok(new Set(lobby).size >= 2, `/ws went to nodes ${lobby.join(',')}`);
    t.diagnostic(`12 lobby sockets: ${nodes.map((_, n) => count(lobby, n)).join('/')}`);

    // kill -9 of a node: the others' ids are served at once, without an error
    const dead = 1;
    const port = nodes[dead].port;
    const dir = nodes[dead].dir;
    await nodes[dead].kill9();
    const killed = Date.now();
    const others = ids.filter((_, i) => home[i] !== dead);
    const orphans = ids.filter((_, i) => home[i] === dead);
    const atOnce = await nodesOf(proxy, nodes, others);
    assert.deepEqual(atOnce, home.filter((n) => n !== dead), 'the other ids stay, no error');
    // its ids move to the survivors (once the proxy sees it gone)
    const moved = await settle(proxy, nodes, orphans, (_, n) => n !== dead, 10000,
      `${kind}: the dead node's ids on the survivors`);
    assert.ok(nodes.every((_, n) => n === dead || count(moved, n) > 0),
      `the dead node's ${orphans.length} ids spread over both survivors: ${moved.join(',')}`);
    assert.deepEqual(await nodesOf(proxy, nodes, others), home.filter((n) => n !== dead),
      'the other ids did not move');
    t.diagnostic(`node ${dead} killed: its ${orphans.length} ids on the survivors within `
      + `${Date.now() - killed} ms (${nodes.map((_, n) => count(moved, n)).join('/')})`);

    // the node comes back (its file, its port): its ids go home, the others stay
    const back = await startNode(dead, { dir, port });
    assert.equal(back.port, port);
    back.tables = nodes[dead].tables;
    const returned = Date.now();
    nodes[dead] = back;
    assert.deepEqual(await nodesOf(proxy, nodes, others), home.filter((n) => n !== dead),
      'the other ids stay while it comes back, no error');
    const final = await settle(proxy, nodes, ids, (id, n) => n === home[ids.indexOf(id)], 12000,
      `${kind}: every id at its first node after the return`);
    assert.deepEqual(final, home);
    t.diagnostic(`node ${dead} back: its ids home within ${Date.now() - returned} ms`);
  } finally {
    proxy.stop();
    await stopAll();
  }
}

test('HAProxy routes a table by its id to one node; a node killed and back moves its own tables only',
  { skip: missing('haproxy'), timeout: 28000 }, (t) => scenario('haproxy', t));

test('nginx routes a table by its id to one node; a node killed and back moves its own tables only',
  { skip: missing('nginx'), timeout: 28000 }, (t) => scenario('nginx', t));
