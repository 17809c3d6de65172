// routing.test.mjs -- several `tafel serve` nodes behind HAProxy, and
// behind nginx, with the configurations docs/server.md shows ("Several
// nodes": docs/proxy/haproxy.cfg and docs/proxy/nginx.conf, filled in
// here): a table's socket (/ws?t=ID) and page (/t/ID) reach the node its
// id hashes to, always the same one; the ids spread over the nodes; after
// `kill -9` of a node only its ids move, to the survivors, while the
// others are served without an error; when the node is back, its ids go
// home.  The lobby's sockets (no id) go to any node.
//
// Three nodes, each on its own SQLite file (a node is told by its tables),
// started as docs/server.md says (--behind-proxy, --host), on loopback
// ports read back from their line; the proxy on a free loopback port.  A
// node is recognised by its own tables: each node makes three, and the
// lobby a socket is sent through the proxy lists the tables of the node
// that serves it.  The requests carry the public name as Host and, as a
// browser's do, an Origin: the node's Origin check must pass through.
//
// The proxies are Debian's binaries unpacked by scripts/proxies.sh into
// .cache/proxies/ (or TAFEL_HAPROXY, TAFEL_NGINX, or an installed one),
// started by harness.mjs; without them the test is skipped, saying so.
// Every process it starts is killed at the end, on failure too.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join as joinPath } from 'node:path';
import WebSocket from 'ws';
import { startServer, stopAll, Client, createTable, sleep, prng } from '../server/helpers.mjs';
import { HOST, missing, startProxy, stopProxies } from './harness.mjs';

const NODES = 3;
const IDS = 60;

after(async () => {
  stopProxies();
  await stopAll();
});

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
