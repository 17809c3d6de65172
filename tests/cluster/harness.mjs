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
import { spawn, execFileSync } from 'node:child_process';
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
 * with its port), on port (default: a free one):
 * { proc, port, base, output(), stop() }.
 */
export async function startProxy(kind, nodes, { port } = {}) {
  const dir = tempDir(`tafel-${kind}-`);
  port = port || await freePort();
  const values = { LISTEN: `127.0.0.1:${port}`, NAME: HOST };
  nodes.forEach((n, i) => { values[`NODE${i + 1}`] = `127.0.0.1:${n.port}`; });
  let args;
  if (kind === 'haproxy') {
    // the template has no global section: ours, then the template; its
    // server lines are for three nodes: one line a node here
    writeFileSync(joinPath(dir, 'global.cfg'), 'global\n  maxconn 1000\n');
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
 * sql(query) (rows as CSV text), kill9(), restart(), stop() }.  port only
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
  const psql = (dbname, query) => execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--csv',
    '-h', dir, '-p', String(port), '-U', 'tafel', '-d', dbname, '-c', query],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  psql('postgres', 'CREATE DATABASE tafel');
  const pg = {
    dir, port,
    uri: `postgresql://tafel@/tafel?host=${encodeURIComponent(dir)}&port=${port}`,
    sql: (query) => psql('tafel', query),
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
 * { pg, nodes, proxy, kill9(i), pause(i), resume(i), restart(i), stop() };
 * nodes[i] is helpers.mjs's server (port, base, stderr(), ...) with its
 * name.
 */
export async function startCluster({ nodes = 3, lease = 10, nodePort = 18420, proxyPort = 18430,
  pgPort = 18400, args = [] } = {}) {
  const pg = await startPostgres({ port: pgPort });
  const startNode = (i) => startServer({
    db: pg.uri,
    args: ['--node', `n${i}`, '--lease', String(lease), '--behind-proxy', '--host', HOST,
      '--port', String(nodePort + i), ...args],
  }).then((server) => Object.assign(server, { name: `n${i}` }));
  const cluster = { pg, nodes: [] };
  for (let i = 0; i < nodes; i++) cluster.nodes.push(await startNode(i));
  cluster.proxy = await startProxy('haproxy', cluster.nodes, { port: proxyPort });
  const node = (i) => cluster.nodes[i];
  Object.assign(cluster, {
    kill9: (i) => node(i).kill9(),
    pause: (i) => { node(i).proc.kill('SIGSTOP'); },
    resume: (i) => { node(i).proc.kill('SIGCONT'); },
    /** Starts node i again at its port (after kill9 or stop). */
    async restart(i) {
      await node(i).kill9();
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
