// harness.mjs -- several `tafel serve` nodes on one PostgreSQL behind
// HAProxy, on loopback, for the cluster's tests (issue 36;
// shared/notes/stack-turn4.md §7): the failover tests start a cluster here
// and kill, stop and restart its parts.
//
// startCluster starts a throwaway PostgreSQL (scripts/pgtmp.sh: its unix
// socket in a folder of its own, no TCP, fsync off: no power cut is
// simulated), creates the database `tafel` in it, then N nodes on it
// (`--node n0`, `n1`, ...) at fixed loopback ports (18420, 18421, ... by
// default: a node restarted comes back where the proxy expects it), then
// HAProxy with docs/proxy/haproxy.cfg filled in (18430 by default).  Every
// HTTP answer of a node names it (X-Tafel-Node), so a test knows who
// answered through the proxy.  Its helpers kill -9, SIGSTOP, SIGCONT and
// restart a node, and kill -9 and restart the postmaster.  Every process
// it starts is killed when the test process exits, on failure too, and the
// cluster's folder removed.
//
// The proxies (here and for routing.test.mjs) are Debian's binaries
// unpacked by scripts/proxies.sh into .cache/proxies/ (or TAFEL_HAPROXY,
// TAFEL_NGINX, or an installed one); PostgreSQL is Debian's postgresql-15
// (its binaries in /usr/lib/postgresql/*/bin; psql on PATH).  missingCluster()
// says what is missing, for a test's skip.

import assert from 'node:assert/strict';
import { spawn, execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, tempDir, sleep } from '../server/helpers.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HOST = 'tafel.test'; // the public name the nodes are told with --host

// ---------------------------------------------------------------- the proxies

/** The proxy's binary: the environment's, the unpacked one, or an installed one. */
export function binary(name) {
  const given = process.env[`TAFEL_${name.toUpperCase()}`];
  if (given) return existsSync(given) ? given : null;
  for (const p of [joinPath(ROOT, '.cache', 'proxies', 'root', 'usr', 'sbin', name), `/usr/sbin/${name}`])
    if (existsSync(p)) return p;
  return null;
}

/** Why the proxy cannot run here (a test's skip), or false. */
export function missing(name) {
  if (binary(name)) return false;
  const given = process.env[`TAFEL_${name.toUpperCase()}`];
  return given ? `TAFEL_${name.toUpperCase()}=${given}: no such file`
    : `no ${name} binary: run bash scripts/proxies.sh (Debian's ${name}, unpacked into .cache/proxies/)`;
}

const proxies = new Set();
const killProxy = (p) => {
  // its own process group: nginx's workers go with their master
  try { process.kill(-p.pid, 'SIGKILL'); } catch { /* gone */ }
};
process.on('exit', () => { for (const p of proxies) killProxy(p); });

/** Kills every proxy still running (for `after` hooks). */
export function stopProxies() {
  for (const p of proxies) killProxy(p);
  proxies.clear();
}

/** A free loopback port (taken a moment, then let go). */
export function freePort() {
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
export async function listening(port, proc, output, ms = 10000) {
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
export function fill(template, values) {
  return readFileSync(joinPath(ROOT, 'docs', 'proxy', template), 'utf8')
    .replace(/\{\{(\w+)\}\}/g, (all, name) => {
      assert.ok(name in values, `${template}: nothing to fill in for ${all}`);
      return values[name];
    });
}

/**
 * Starts the proxy of kind ('haproxy' or 'nginx') in front of nodes (each
 * with its port), on port (default: a free one), HAProxy taking up to
 * maxconn connections:
 * { proc, port, base, output(), stop() }.
 */
export async function startProxy(kind, nodes, { port, maxconn = 1000 } = {}) {
  const dir = tempDir(`tafel-${kind}-`);
  port = port || await freePort();
  const values = { LISTEN: `127.0.0.1:${port}`, NAME: HOST };
  nodes.forEach((n, i) => { values[`NODE${i + 1}`] = `127.0.0.1:${n.port}`; });
  let args;
  if (kind === 'haproxy') {
    // the template has no global section: ours, then the template; its
    // server lines are for three nodes: one line a node here
    writeFileSync(joinPath(dir, 'global.cfg'), `global\n  maxconn ${maxconn}\n`);
    let text = fill('haproxy.cfg', values);
    const lines = nodes.map((n, i) => `  server node${i + 1} 127.0.0.1:${n.port}`).join('\n');
    text = text.replace(/^ {2}server node1 .*\n(^ {2}server node\d+ .*\n)*/m, `${lines}\n`);
    writeFileSync(joinPath(dir, 'tafel.cfg'), text);
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
  return {
    proc, port, base: `http://127.0.0.1:${port}/`, output,
    stop: () => { killProxy(proc); proxies.delete(proc); },
  };
}

// ---------------------------------------------------------------- PostgreSQL

const PGTMP = joinPath(ROOT, 'scripts', 'pgtmp.sh');

function pgBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(joinPath(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? joinPath(root, versions.at(-1), 'bin') : null;
}

function hasPsql() {
  try { execFileSync('psql', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** Why a cluster cannot run here (a test's skip), or false. */
export function missingCluster() {
  if (!pgBin()) return 'no PostgreSQL server (Debian\'s postgresql-15: scripts/deps.sh --test)';
  if (!hasPsql()) return 'no psql (postgresql-client)';
  return missing('haproxy');
}

// initdb and postgres refuse to run as root: as root they run as `postgres`
const as = (cmd, args) => (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

const postgreses = new Set();
process.on('exit', () => {
  for (const dir of postgreses) {
    try { execFileSync('sh', [PGTMP, 'stop', dir], { stdio: 'ignore' }); } catch { /* gone */ }
  }
});

/**
 * A throwaway PostgreSQL with the database `tafel`: { dir, port, uri,
 * sql(query) (rows as CSV text), sqlAsync(query), kill9(), restart(), stop() }.  port only
 * names its socket (in dir): no TCP.
 */
export async function startPostgres({ port = 18400 } = {}) {
  // not tempDir: helpers.mjs removes those at exit, maybe before the postmaster stops
  const dir = mkdtempSync(joinPath(tmpdir(), 'tafel-cluster-pg-'));
  const opts = "-c fsync=off -c max_connections=200 -c listen_addresses=''";
  execFileSync('sh', [PGTMP, 'start', dir, String(port)], {
    env: { ...process.env, PGOPTS: opts }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  postgreses.add(dir);
  const psqlArgs = (dbname, query) => ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--csv',
    '-h', dir, '-p', String(port), '-U', 'tafel', '-d', dbname, '-c', query];
  const psql = (dbname, query) => execFileSync('psql', psqlArgs(dbname, query),
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  psql('postgres', 'CREATE DATABASE tafel');
  const pg = {
    dir, port,
    uri: `postgresql://tafel@/tafel?host=${encodeURIComponent(dir)}&port=${port}`,
    sql: (query) => psql('tafel', query),
    /** sql without holding the event loop (a load's sockets wait meanwhile). */
    sqlAsync: (query) => new Promise((res, rej) => execFile('psql', psqlArgs('tafel', query),
      { encoding: 'utf8', maxBuffer: 1 << 30 }, (e, out) => (e ? rej(e) : res(out)))),
    /** kill -9 of the postmaster (its backends notice and end). */
    kill9() {
      const pid = Number(readFileSync(joinPath(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
    },
    /** Starts it again on its data (after kill9: crash recovery); retried
     * while the killed one's backends still hold its shared memory. */
    async restart() {
      const [cmd, args] = as(joinPath(pgBin(), 'pg_ctl'), ['-D', joinPath(dir, 'data'), '-l',
        joinPath(dir, 'server.log'), '-w', '-t', '30', '-o', `-k ${dir} -p ${port} ${opts}`, 'start']);
      const deadline = Date.now() + 20000;
      for (;;) {
        try {
          execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
          return;
        } catch (e) {
          if (Date.now() > deadline) throw new Error(`PostgreSQL does not start again: ${e.stderr}`);
          await sleep(200);
        }
      }
    },
    stop() {
      execFileSync('sh', [PGTMP, 'stop', dir], { stdio: 'ignore' });
      postgreses.delete(dir);
    },
  };
  return pg;
}

// ---------------------------------------------------------------- the cluster

/**
 * Starts PostgreSQL, nodes `tafel serve` nodes on it (n0, n1, ... at
 * nodePort, nodePort + 1, ...; --lease lease, --behind-proxy, --host HOST,
 * and args) and HAProxy at proxyPort in front of them.  Returns
 * { pg, nodes, proxy, kill9(i), term(i), pause(i), resume(i), restart(i), stop(), earlier };
 * nodes[i] is helpers.mjs's server (port, base, stderr(), ...) with its
 * name.
 */
export async function startCluster({ nodes = 3, lease = 10, nodePort = 18420, proxyPort = 18430,
  pgPort = 18400, args = [], maxconn } = {}) {
  const pg = await startPostgres({ port: pgPort });
  const startNode = (i) => startServer({
    db: pg.uri,
    args: ['--node', `n${i}`, '--lease', String(lease), '--behind-proxy', '--host', HOST,
      '--port', String(nodePort + i), ...args],
  }).then((server) => Object.assign(server, { name: `n${i}` }));
  const cluster = { pg, nodes: [] };
  for (let i = 0; i < nodes; i++) cluster.nodes.push(await startNode(i));
  cluster.proxy = await startProxy('haproxy', cluster.nodes, { port: proxyPort, maxconn });
  const node = (i) => cluster.nodes[i];
  Object.assign(cluster, {
    kill9: (i) => node(i).kill9(),
    /** SIGTERM: the node stops as an operator stops it; resolves when it exited. */
    term: (i) => node(i).stop('SIGTERM'),
    pause: (i) => { node(i).proc.kill('SIGSTOP'); },
    resume: (i) => { node(i).proc.kill('SIGCONT'); },
    /** What nodes restarted said before, each line with its node's name. */
    earlier: [],
    /** Starts node i again at its port (after kill9 or stop). */
    async restart(i) {
      await node(i).kill9();
      cluster.earlier.push(...node(i).stderr().split('\n').filter(Boolean)
        .map((line) => `${node(i).name} (before its restart): ${line}`));
      cluster.nodes[i] = await startNode(i);
      return cluster.nodes[i];
    },
    async stop() {
      cluster.proxy.stop();
      await Promise.all(cluster.nodes.map((n) => n.kill9()));
      pg.stop();
    },
  });
  return cluster;
}

/** Polls f until it resolves truthy (errors count as not yet); its value. */
export async function within(ms, what, f, every = 100) {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      const v = await f();
      if (v) return v;
      last = `answered ${JSON.stringify(v)}`;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last: ${last})`);
    await sleep(every);
  }
}

/** The rows psql's --csv text holds, without its header: lists of strings. */
export function csvRows(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows.slice(1);
}

/** Who owns table in the store: { owner, epoch, home, seq, finished } (owner '' for none). */
export function ownerOf(pg, table) {
  const [row] = csvRows(pg.sql('SELECT owner, owner_epoch, home, seq, finished FROM tables '
    + `WHERE id = '${table}'`));
  assert.ok(row, `no table ${table} in the store`);
  const [owner, epoch, home, seq, finished] = row;
  return { owner, epoch: Number(epoch), home, seq: Number(seq), finished: finished === '1' };
}

/** A table's actions in the store, in order: [{ seat, text, changeSeq }]. */
export function storedActions(pg, table) {
  return csvRows(pg.sql('SELECT seat, text, change_seq FROM actions '
    + `WHERE table_id = '${table}' ORDER BY position`))
    .map(([seat, text, changeSeq]) => ({ seat: Number(seat), text, changeSeq: Number(changeSeq) }));
}

/**
 * What is wrong with a page's moves in the store: a list of sentences,
 * empty when every acknowledged move is there once, in the order played,
 * and (exact) nothing of the seat's is there that was not acknowledged.
 */
export function movesMissed(pg, page, { exact = true } = {}) {
  const mine = storedActions(pg, page.table).filter((a) => a.seat === page.seat);
  const wrong = [];
  let at = 0;
  for (const m of page.acked) {
    const i = mine.findIndex((a, j) => j >= at && a.changeSeq === m.seq);
    if (i < 0) wrong.push(`${page.table}: the move acknowledged at seq ${m.seq} is not stored`);
    else if (mine[i].text !== m.action)
      wrong.push(`${page.table}: seq ${m.seq} stored ${mine[i].text}, acknowledged ${m.action}`);
    else {
      if (exact && i !== at) wrong.push(`${page.table}: stored before seq ${m.seq}, never `
        + `acknowledged: ${JSON.stringify(mine.slice(at, i))}`);
      at = i + 1;
    }
  }
  if (exact && at < mine.length && !page.pending)
    wrong.push(`${page.table}: stored, never acknowledged: ${JSON.stringify(mine.slice(at))}`);
  return wrong;
}

/** Every line the cluster's nodes said of table, those restarted since included. */
export function linesOf(cluster, table) {
  return [...cluster.earlier, ...cluster.nodes.flatMap((n) => n.stderr().split('\n')
    .map((line) => `${n.name}: ${line}`))]
    .filter((line) => line.includes(table)).map((line) => line.replace('tafel serve: ', ''));
}

/**
 * What is known of a page's table that does not play, for a failure's
 * message: its row, the node the proxy sends it to, the page's sockets and
 * errors, and what the nodes said of it.
 */
export async function tableReport(cluster, page) {
  const { table } = page;
  const [row] = csvRows(await cluster.pg.sqlAsync('SELECT owner, owner_epoch, home, seq, finished '
    + `FROM tables WHERE id = '${table}'`));
  const proxied = await fetch(new URL(`/t/${table}`, cluster.proxy.base))
    .then((r) => r.headers.get('x-tafel-node'), (e) => e.message);
  return `${table}: owner, epoch, home, seq, finished ${row}; the proxy sends it to ${proxied}; `
    + `its page at seq ${page.state?.seq}, pending ${JSON.stringify(page.pending)}, to move `
    + `${page.toMove}, status ${page.conn.status.state}, sockets closed with `
    + `${page.sockets.map((s) => `${s.closed?.code ?? 'open'}${s.elsewhere ? '(elsewhere)' : ''}`)
      .join(' ')}, told ${JSON.stringify(page.errors.slice(0, 3).map((e) => `${e.code}: ${e.message}`))}`
    + `; the nodes said: ${JSON.stringify(linesOf(cluster, table))}`;
}

// ---------------------------------------------------------------- the page's socket

// web/net/connection.mjs runs in node as it is (as in connection.test.mjs):
// the browser's globals it reads are stubbed once, and its WebSocket is
// npm's ws, which tells each page which node answered each socket
// (X-Tafel-Node of the upgrade, when it has one) and how each closed.
const pagesByTable = new Map();
let Connection = null;

async function pageModule() {
  if (Connection) return Connection;
  const { default: WebSocket } = await import('ws');
  globalThis.WebSocket = class extends WebSocket {
    constructor(url, protocol) {
      super(url, protocol);
      const page = pagesByTable.get(new URL(url).searchParams.get('t'));
      if (!page) return;
      const socket = { at: Date.now(), node: null, closed: null, elsewhere: 0 };
      page.sockets.push(socket);
      this.on('message', (data) => { if (String(data).includes('"elsewhere"')) socket.elsewhere++; });
      this.on('upgrade', (res) => { socket.node = res.headers['x-tafel-node'] ?? null; });
      this.on('close', (code, reason) => { socket.closed = { code, reason: String(reason) }; });
    }
  };
  const events = () => ({ addEventListener() {}, removeEventListener() {} });
  globalThis.window ??= events();
  globalThis.document ??= { ...events(), visibilityState: 'visible' };
  globalThis.location ??= { protocol: 'http:', host: '127.0.0.1' };
  ({ Connection } = await import('../../web/net/connection.mjs'));
  return Connection;
}

const toMove = (s) => s.status === 'playing' && s.seat !== null && s.to_move === s.seat
  && Array.isArray(s.legal);

/**
 * A seat played as the page plays it, through base (the proxy): the page's
 * own Connection joins at /ws?t=ID, follows `elsewhere` and 4000, and sends
 * an unacknowledged move again after the join.  With auto (a move every
 * thinkMs or so) it plays the first legal action whenever its seat is to
 * move, and moves again after a refusal (as a person would).  It keeps
 * every move asked for (sent), acknowledged (acked: { seq, action, sentAt, ack, at }),
 * the acks of each seq, errors, states and sockets ({ node, closed, elsewhere:
 * how many times it was sent on }); with
 * pg (the cluster's PostgreSQL) it tells each socket's node.
 */
export class Page {
  static async open(base, table, token, opts) {
    const page = new Page(await pageModule(), base, table, token, opts);
    pagesByTable.set(table, page);
    page.conn.join(table, token);
    page.conn.open();
    return page;
  }

  constructor(Conn, base, table, token, { auto = false, thinkMs = 0, keepStates = false,
    pg = null } = {}) {
    Object.assign(this, { table, auto, thinkMs, pg });
    /** With keepStates: every state's seq and clock, and the node that sent it. */
    this.log = keepStates ? [] : null;
    this.conn = new Conn(`${base.replace(/^http/, 'ws')}ws`);
    this.seat = null;
    this.state = null;
    this.pending = null;
    this.sent = [];
    this.acked = [];
    this.acks = new Map();
    this.errors = [];
    this.sockets = [];
    this.states = 0;
    this.timer = null;
    this.conn.onMessage((m) => this.heard(m));
  }

  heard(m) {
    if (m.type === 'state' && m.table === this.table) {
      // a 101 answer names no node: the one that sends a socket its first
      // state owns the table then
      const socket = this.sockets.at(-1);
      if (this.pg && socket && !socket.node) socket.node = ownerOf(this.pg, this.table).owner;
      this.state = m;
      this.seat = m.seat;
      this.states++;
      this.log?.push({ seq: m.seq, clock: m.clock, node: this.node, at: Date.now() });
    } else if (m.type === 'ack' && this.pending) {
      this.acks.set(m.seq, (this.acks.get(m.seq) || 0) + 1);
      this.acked.push({ ...this.pending, ack: m.seq, at: Date.now() });
    } else if (m.type === 'ack') {
      this.acks.set(m.seq, (this.acks.get(m.seq) || 0) + 1);
    } else if (m.type === 'error') {
      this.errors.push({ ...m, at: Date.now() });
    }
    // the page's Connection dropped the move (acked, refused, or the table
    // went on without it after a reconnect)
    if (this.pending && this.conn.pendingMove === null) this.pending = null;
    if (this.auto) this.schedule(m.type === 'error' ? Math.max(this.thinkMs, 300) : this.thinkMs);
  }

  /** Plays action (default: the first legal) for the latest state. */
  move(action = this.state.legal[0]) {
    this.pending = { seq: this.state.seq, action, sentAt: Date.now() };
    this.sent.push(this.pending);
    this.conn.move(action);
    return this.pending;
  }

  schedule(ms) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.auto && !this.pending && this.state && toMove(this.state)) this.move();
    }, Math.round(ms * (0.5 + Math.random())));
  }

  /** Plays by itself from now on (or stops: false). */
  play(auto = true) {
    this.auto = auto;
    if (auto) this.schedule(this.thinkMs);
  }

  /** Whether the seat is to move and no move of it is on its way. */
  get toMove() { return !this.pending && this.state !== null && toMove(this.state); }

  /** The node of the newest socket (with pg). */
  get node() { return this.sockets.at(-1)?.node ?? null; }

  /** Waits until ready(page) holds (asked every 20 ms), or fails naming what. */
  until(ready, what, ms = 10000, every = 20) {
    return within(ms, `${this.table}: ${what}`, () => ready(this), every);
  }

  close() {
    this.auto = false;
    clearTimeout(this.timer);
    this.conn.close();
    pagesByTable.delete(this.table);
  }
}
