// nodes.test.mjs -- three `tafel serve` nodes on one PostgreSQL behind
// HAProxy (harness.mjs), as they are before they share tables' ownership
// (issue 36): a table made through the proxy is in every node's lobby,
// since the lobby is read from the store (when a node builds it: until the
// nodes tell each other of changes, a node keeps its lobby until a change
// of its own); `kill -9` of a node leaves the
// others serving, through the proxy and directly, and the node restarted
// serves again and is taken back by the proxy; a node stopped (SIGSTOP) is
// left out by the proxy's health check and serves again when resumed; and
// `kill -9` of PostgreSQL makes a node refuse with a storage error until
// it is back, after which nothing stored is missing.  Every answer names
// its node (X-Tafel-Node), which tells which node the proxy chose.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client, createTable, stopAll } from '../server/helpers.mjs';
import { missingCluster, startCluster, stopProxies, within } from './harness.mjs';

after(async () => {
  stopProxies();
  await stopAll();
});

/** The node that answers GET /api/games at base (its X-Tafel-Node). */
async function answeredBy(base) {
  const r = await fetch(new URL('/api/games', base), { signal: AbortSignal.timeout(5000) });
  assert.equal(r.status, 200, `GET /api/games at ${base}: ${r.status}`);
  await r.arrayBuffer();
  return r.headers.get('x-tafel-node');
}

/** The ids of the unfinished tables in the lobby a node at base sends. */
function lobbyAt(base) {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + 'ws', 'tafel', { handshakeTimeout: 5000 });
  return new Promise((res, rej) => {
    const timer = setTimeout(() => { ws.terminate(); rej(new Error(`${base}: no lobby in 5 s`)); }, 5000);
    ws.once('error', (e) => { clearTimeout(timer); rej(e); });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'lobby' })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type !== 'lobby') return;
      clearTimeout(timer);
      ws.close();
      res(m.tables.map((t) => t.table));
    });
  });
}

/** A table of two people made through a client of base: its id. */
async function madeAt(base) {
  const c = await Client.connect({ base });
  try {
    return (await createTable(c, 'cardcassonne(players=2)', ['human', 'human'], 7)).table;
  } finally {
    c.close();
  }
}

test('three nodes on one PostgreSQL: one lobby; a node killed, stopped or restarted, and the '
  + 'store killed, leave the others serving', { skip: missingCluster(), timeout: 90000 }, async (t) => {
  const cluster = await startCluster({ nodes: 3, lease: 2 });
  const { proxy, nodes } = cluster;
  try {
    // each node names itself; the proxy takes them in turn for what has no table id
    for (const n of nodes) assert.equal(await answeredBy(n.base), n.name);
    const seen = new Set();
    for (let i = 0; i < 9; i++) seen.add(await answeredBy(proxy.base));
    assert.deepEqual([...seen].sort(), ['n0', 'n1', 'n2'], 'the proxy reaches every node');

    // a table made through the proxy is in every node's lobby
    const first = await madeAt(proxy.base);
    for (const n of nodes)
      assert.ok((await lobbyAt(n.base)).includes(first), `${n.name}'s lobby lists ${first}`);

    // kill -9 of n1: the others serve at once, directly and through the proxy
    await cluster.kill9(1);
    const killed = Date.now();
    for (const i of [0, 2]) assert.ok((await lobbyAt(nodes[i].base)).includes(first));
    const second = await madeAt(proxy.base);
    for (let i = 0; i < 6; i++) assert.notEqual(await answeredBy(proxy.base), 'n1');
    t.diagnostic(`n1 killed: the proxy served ${nodes.length - 1} nodes at once `
      + `(${Date.now() - killed} ms for a table and 6 answers)`);

    // n1 back at its port: it lists both tables, and the proxy takes it back
    const back = await cluster.restart(1);
    const returned = Date.now();
    const listed = await lobbyAt(back.base);
    assert.ok(listed.includes(first) && listed.includes(second), `n1's lobby: ${listed}`);
    await within(8000, 'the proxy sends to n1 again', async () => {
      for (let i = 0; i < 6; i++) if (await answeredBy(proxy.base) === 'n1') return true;
      return false;
    });
    t.diagnostic(`n1 restarted: in the proxy's turn again within ${Date.now() - returned} ms`);

    // n2 stopped: the health check leaves it out; resumed, it serves again
    cluster.pause(2);
    const paused = Date.now();
    await within(10000, 'the proxy leaves the stopped n2 out', async () => {
      const got = [];
      for (let i = 0; i < 6; i++) got.push(await answeredBy(proxy.base));
      return got.every((n) => n !== 'n2');
    });
    t.diagnostic(`n2 stopped: left out by the proxy within ${Date.now() - paused} ms`);
    cluster.resume(2);
    assert.equal(await answeredBy(nodes[2].base), 'n2');
    assert.ok((await lobbyAt(nodes[2].base)).includes(first));

    // kill -9 of PostgreSQL: a change is refused with a storage error;
    // restarted, the nodes reconnect by themselves and nothing is missing
    cluster.pg.kill9();
    // the backends end a moment after their postmaster: a table made then
    // is stored, and one refused may be too (its commit in doubt)
    const during = [];
    let attempts = 0;
    await within(5000, 'a change refused while PostgreSQL is down', async () => {
      const c = await Client.connect({ base: nodes[0].base });
      try {
        attempts++;
        const m = await c.request({ type: 'create', game: 'cardcassonne(players=2)',
          seats: ['human', 'human'], seed: 8 }, ['created', 'error']);
        if (m.type === 'created') during.push(m.table);
        return m.type === 'error' && m.code === 'storage';
      } finally {
        c.close();
      }
    });
    await cluster.pg.restart();
    const third = await within(10000, 'a table made once PostgreSQL is back',
      () => { attempts++; return madeAt(nodes[1].base); });
    attempts--; /* the one that made it */
    const lobby = await lobbyAt(nodes[1].base);
    for (const id of [first, second, third])
      assert.ok(lobby.includes(id), `n1's lobby lists ${id} after the store's restart`);
    for (const n of nodes) assert.equal(await answeredBy(n.base), n.name);
    const rows = cluster.pg.sql('SELECT id FROM tables ORDER BY id').trim().split('\n').slice(1);
    for (const id of [first, second, third, ...during])
      assert.ok(rows.includes(id), `${id} stored: ${rows}`);
    assert.ok(rows.length <= 3 + attempts, `${rows.length} tables for 3 + ${attempts} asked`);
    t.diagnostic(`PostgreSQL killed: ${attempts} asked, ${during.length} made, `
      + `${rows.length - 3 - during.length} in doubt`);
  } finally {
    await cluster.stop();
  }
});
