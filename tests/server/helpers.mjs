// helpers.mjs -- what the protocol tests of `tafel serve` share.
//
// A server per test (or per file) on a database in its own mkdtemp folder,
// started with --port 0 and read back from the line it prints; every server
// started here is killed by stopAll (each test file calls it in `after`) and
// again when the process exits, so no server outlives the tests.  A client
// wraps a WebSocket: it keeps every message it received (parsed and raw) and
// lets a test await the next message of a type.  Seats are played by picking
// uniformly from `legal` with a seeded PRNG, so a failure replays.
//
// The contract is docs/protocol.md.  TAFEL_CLI is the tafel binary
// (scripts/test-server.sh sets it; default build/tafel).
//
// TAFEL_TEST_PG (a libpq conninfo of a running throwaway cluster, e.g.
// "host=/tmp/x port=18400 user=tafel"; scripts/test-server.sh --pg starts
// one) runs the same tests on PostgreSQL: each server gets a fresh database
// (newDatabase) and `server.db` is its postgresql:// URI, which `tafel admin
// --db` and sql() take as they take a file.  Tests about SQLite's files skip
// there (ON_PG says why).

import { spawn, execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import WebSocket from 'ws';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TAFEL = resolve(ROOT, process.env.TAFEL_CLI || 'build/tafel');
export const TIMEOUT = Number(process.env.TAFEL_TEST_TIMEOUT || 15000);

// ---------------------------------------------------------------- PostgreSQL

/** The conninfo of the PostgreSQL the tests run on, or '' for SQLite files. */
export const PG = process.env.TAFEL_TEST_PG || '';
/** A test's skip reason when it is about SQLite's files: false on SQLite. */
export const ON_PG = PG ? 'about the SQLite file: the store runs on PostgreSQL (TAFEL_TEST_PG)' : false;

/** The conninfo's key=value pairs ("host=/tmp/x port=18400 user=tafel"). */
function conninfo(text) {
  const out = {};
  for (const m of text.matchAll(/(\w+)\s*=\s*('(?:[^'\\]|\\.)*'|\S+)/g)) {
    out[m[1]] = m[2].startsWith("'") ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2];
  }
  return out;
}

const pgDatabases = [];
let pgTemplate = null;

/** psql on the cluster's database dbname, one command, rows as CSV text. */
function psql(dbname, command) {
  return execFileSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--csv', '-P', 'null=\\N',
    '-d', `${PG} dbname=${dbname}`, '-c', command], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A fresh, empty database on the test cluster for one server: its
 * postgresql:// URI (with the socket folder as ?host=).  Copied from a
 * template made once per process, which is faster than template1's WAL
 * copy; dropped when the process exits.
 */
export function newDatabase() {
  if (!pgTemplate) {
    pgTemplate = `tafel_t${process.pid}`;
    psql('postgres', `CREATE DATABASE ${pgTemplate} TEMPLATE template0 STRATEGY FILE_COPY`);
    pgDatabases.push(pgTemplate);
  }
  const name = `tafel_t${process.pid}_${pgDatabases.length}`;
  psql('postgres', `CREATE DATABASE ${name} TEMPLATE ${pgTemplate} STRATEGY FILE_COPY`);
  pgDatabases.push(name);
  const c = conninfo(PG);
  const query = [];
  if (c.host) query.push(`host=${encodeURIComponent(c.host)}`);
  if (c.port) query.push(`port=${encodeURIComponent(c.port)}`);
  const user = c.user ? `${encodeURIComponent(c.user)}@` : '';
  return `postgresql://${user}/${name}${query.length ? '?' + query.join('&') : ''}`;
}

/** The database name of a URI newDatabase made. */
const pgName = (uri) => decodeURIComponent(uri.match(/^postgres(?:ql)?:\/\/[^/]*\/([^?]*)/)[1]);

/** All a postgresql:// database holds, as pg_dump's text (bytea as hex). */
export function dumpDatabase(uri) {
  return execFileSync('pg_dump', ['-d', `${PG} dbname=${pgName(uri)}`], { maxBuffer: 1 << 28 });
}

/**
 * The database of a server started in dir: the file dir/tafel.db on SQLite;
 * on PostgreSQL a new database, the same one for each start in that dir (a
 * test restarts its server with the same dir and no db).
 */
const pgOfDir = new Map();
export function defaultDatabase(dir) {
  if (!PG) return joinPath(dir, 'tafel.db');
  if (!pgOfDir.has(dir)) pgOfDir.set(dir, newDatabase());
  return pgOfDir.get(dir);
}

// ---------------------------------------------------------------- servers

const servers = new Set();
const dirs = new Set();

process.on('exit', () => {
  for (const s of servers) {
    try { s.proc.kill('SIGKILL'); } catch { /* already gone */ }
  }
  for (const name of pgDatabases.reverse()) {
    try { psql('postgres', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); } catch { /* the cluster is gone */ }
  }
  for (const d of dirs) {
    try { rmSync(d, { recursive: true, force: true }); } catch { /* leave it */ }
  }
});

/** A fresh temporary folder, removed when the process exits. */
export function tempDir(prefix = 'tafel-serve-') {
  const dir = mkdtempSync(joinPath(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/**
 * Starts `tafel serve --port 0` on a database (by default a new one in a new
 * folder).  Resolves when it printed its address line:
 * { proc, url, port, base, ws, db, dir, stderr(), stop(sig), kill9(), exited }.
 */
export async function startServer({ db, dir, args = [], env = {}, chosenSeeds = true } = {}) {
  dir = dir || tempDir();
  db = db || defaultDatabase(dir);
  // The protocol tests play at machine speed (a move as soon as the ack
  // arrives): the per-socket rate limit is lifted unless a test sets it (a
  // later option wins); the tests of the limits set their own.  Their tables
  // of people take the test's seed (--allow-chosen-seeds), so that a failure
  // replays; the test of the seed rule starts its server with chosenSeeds false.
  const seeds = chosenSeeds ? ['--allow-chosen-seeds'] : [];
  const proc = spawn(TAFEL, ['serve', '--port', '0', '--db', db, '--max-rate', '100000', ...seeds,
    ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '', err = '';
  const exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  const server = { proc, db, dir, exited, stderr: () => err, stdout: () => out };
  servers.add(server);
  exited.then(() => servers.delete(server));
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (d) => { err += d; });
  proc.stdout.setEncoding('utf8');
  const line = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`tafel serve printed no address in ${TIMEOUT} ms; `
      + `stdout: ${JSON.stringify(out)} stderr: ${JSON.stringify(err)}`)), TIMEOUT);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^tafel serve: (http:\/\/[^\s/]+\/) \(database (.*)\)\n/m);
      if (m) { clearTimeout(timer); res(m); }
    });
    proc.on('error', (e) => { clearTimeout(timer); rej(e); });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rej(new Error(`tafel serve exited (${code ?? signal}) before listening: ${err}`));
    });
  });
  server.base = line[1];
  server.url = line[1];
  server.dbPrinted = line[2];
  server.port = Number(new URL(line[1]).port);
  server.ws = server.base.replace(/^http/, 'ws') + 'ws';
  server.stop = async (signal = 'SIGTERM') => {
    if (proc.exitCode !== null || proc.signalCode !== null) return exited;
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10000);
    const r = await exited;
    clearTimeout(timer);
    return r;
  };
  server.kill9 = () => server.stop('SIGKILL');
  return server;
}

/** Kills every server still running (for `after` hooks). */
export async function stopAll() {
  await Promise.all([...servers].map((s) => s.stop('SIGKILL')));
}

// ---------------------------------------------------------------- clients

/**
 * A WebSocket client: every message received is kept (`messages`: parsed,
 * `raw`: its text, for the leak checks) and queued; next(what) takes the
 * first queued message of a type (a string, a list of strings, or a
 * predicate) and leaves the others queued.  A message that is not JSON is
 * kept as { type: '<not json>', text }.
 */
export class Client {
  constructor(ws) {
    this.ws = ws;
    this.queue = [];
    this.messages = [];
    this.raw = [];
    this.waiters = [];
    this.closed = null;
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data).toString('latin1') : data.toString('utf8');
      let msg;
      try { msg = JSON.parse(text); } catch { msg = { type: '<not json>', text }; }
      this.raw.push(text);
      this.messages.push(msg);
      this.queue.push(msg);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', (e) => { this.error = e; });
  }

  static connect(server, { protocol = 'tafel', path = 'ws', cookie } = {}) {
    const url = server.base.replace(/^http/, 'ws') + path;
    // cookie: a login's "tafel_session=..." (signup below), sent with the upgrade
    const opts = cookie ? { headers: { cookie } } : undefined;
    const ws = protocol === null ? new WebSocket(url, opts) : new WebSocket(url, protocol, opts);
    return new Promise((res, rej) => {
      const timer = setTimeout(() => { ws.terminate(); rej(new Error(`no connection to ${url}`)); },
        TIMEOUT);
      ws.once('open', () => { clearTimeout(timer); res(new Client(ws)); });
      ws.once('error', (e) => { clearTimeout(timer); rej(e); });
    });
  }

  wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(obj) { this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)); }

  /**
   * The first queued message matching what, taken from the queue (the
   * others stay queued, in order).  With strict, the first queued message
   * must match.
   */
  async next(what, { timeout = TIMEOUT, strict = false } = {}) {
    const match = typeof what === 'function' ? what
      : what === undefined ? () => true
        : Array.isArray(what) ? (m) => what.includes(m.type) : (m) => m.type === what;
    const deadline = Date.now() + timeout;
    for (;;) {
      if (strict && this.queue.length > 0 && !match(this.queue[0])) {
        throw new Error(`expected ${describe(what)} next, got ${JSON.stringify(this.queue[0]).slice(0, 300)}`);
      }
      const i = this.queue.findIndex(match);
      if (i >= 0) return this.queue.splice(i, 1)[0];
      if (this.closed) {
        throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) while waiting `
          + `for ${describe(what)}; queue: ${summary(this.queue)}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no ${describe(what)} in ${timeout} ms; queue: ${summary(this.queue)}`);
      }
      await waitAny([this], left, () => this.queue.some(match));
    }
  }

  /**
   * The newest state, at seq minSeq or later (waiting for it), every
   * queued state taken from the queue.
   */
  async latestState(minSeq = 0, { timeout = TIMEOUT } = {}) {
    await this.next((m) => m.type === 'state' && m.seq >= minSeq, { timeout }).then((m) => {
      this.queue.unshift(m);
    });
    return this.takeStates().reduce((a, b) => (b.seq >= a.seq ? b : a));
  }

  /** The queued states, in order, taken from the queue. */
  takeStates() {
    const states = this.queue.filter((m) => m.type === 'state');
    this.queue = this.queue.filter((m) => m.type !== 'state');
    return states;
  }

  /** Sends obj and awaits the next message of one of the types. */
  async request(obj, types, opts) {
    this.send(obj);
    return this.next(types, opts);
  }

  /** Awaits the close of the socket: { code, reason }. */
  async waitClosed(timeout = TIMEOUT) {
    const deadline = Date.now() + timeout;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket still open');
      await waitAny([this], deadline - Date.now(), () => this.closed);
    }
    return this.closed;
  }

  close() {
    if (!this.closed) this.ws.close();
  }

  terminate() { this.ws.terminate(); }
}

/**
 * Resolves when one of the clients gets a message or closes (or ready()
 * holds already), or after ms.
 */
export function waitAny(clients, ms, ready = () => false) {
  return new Promise((res) => {
    let done = false;
    const finish = () => {
      if (!done) { done = true; clearTimeout(timer); res(); }
    };
    const timer = setTimeout(finish, ms);
    if (ready()) return finish();
    for (const c of clients) c.waiters.push(finish);
  });
}

function describe(what) {
  return typeof what === 'function' ? 'matching message' : JSON.stringify(what);
}

function summary(queue) {
  return queue.map((m) => (m.type === 'error' ? `error:${m.code}` : m.type)).join(',') || '(empty)';
}

export const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

// ---------------------------------------------------------------- tables

/** Creates a table; the `created` message. */
export async function createTable(client, game, seats, seed = 1) {
  const msg = { type: 'create', game, seats };
  if (seed !== undefined && seed !== null) msg.seed = seed;
  let m = await client.request(msg, ['created', 'error']);
  if (m.type === 'error' && m.code === 'seed_not_allowed') {
    // a server without --allow-chosen-seeds: at a table of people it chooses
    delete msg.seed;
    m = await client.request(msg, ['created', 'error']);
  }
  assert.equal(m.type, 'created', `create ${game} ${JSON.stringify(seats)}: ${JSON.stringify(m)}`);
  return m;
}

/** Joins table as the seat of token (a spectator without one); the state. */
export async function join(client, table, token) {
  const msg = { type: 'join', table };
  if (token) msg.token = token;
  const m = await client.request(msg, ['state', 'error']);
  assert.equal(m.type, 'state', `join ${table}: ${JSON.stringify(m)}`);
  return m;
}

/** A new socket at the table (seat of token, or a spectator): { client, state }. */
export async function seat(server, table, token) {
  const client = await Client.connect(server);
  const state = await join(client, table, token);
  return { client, state };
}

/**
 * A table of game with people at the seats specs marks 'human' (a socket
 * each) and a spectator watching: { created, players: [{client, state}],
 * sockets: [{seat, client}] (the people's, then the spectator's: seat -1),
 * watcher }.
 */
export async function watchedTable(server, game, specs, seed) {
  const c = await Client.connect(server);
  const created = await createTable(c, game, specs, seed);
  c.close();
  const players = [];
  const sockets = [];
  for (let i = 0; i < specs.length; i++) {
    if (specs[i] !== 'human') continue;
    const p = await seat(server, created.table, created.tokens[i]);
    players.push(p);
    sockets.push({ seat: i, client: p.client });
  }
  const watcher = await Client.connect(server);
  await join(watcher, created.table);
  sockets.push({ seat: -1, client: watcher });
  return { created, players, sockets, watcher };
}

/** Sends a change request; awaits ack then the state (asserts no error). */
/** A table of two people on server: { created, players: [{client, state}] }. */
export async function twoPeople(server, game, seed) {
  const c = await Client.connect(server);
  const created = await createTable(c, game, ['human', 'human'], seed);
  c.close();
  const players = [];
  for (const token of created.tokens) players.push(await seat(server, created.table, token));
  return { created, players };
}

/** The table's history, as client's seat sees it. */
export async function history(client) {
  const h = await client.request({ type: 'history' }, ['history', 'error']);
  if (h.type !== 'history') throw new Error(`history refused: ${JSON.stringify(h)}`);
  return h;
}

export async function change(client, msg) {
  const ack = await client.request(msg, ['ack', 'error']);
  assert.equal(ack.type, 'ack', `${JSON.stringify(msg)}: ${JSON.stringify(ack)}`);
  const state = await client.next((m) => m.type === 'state' && m.seq === ack.seq);
  // (The order of the two is a test of its own: games.test.mjs.)
  return { ack, state };
}

/** Sends a request expected to fail; the error message. */
export async function refused(client, msg, code) {
  const m = await client.request(msg, ['ack', 'error', 'created']);
  assert.equal(m.type, 'error', `${JSON.stringify(msg).slice(0, 200)} was accepted: ${JSON.stringify(m)}`);
  if (code) assert.equal(m.code, code, `${JSON.stringify(msg).slice(0, 200)}: ${JSON.stringify(m)}`);
  assert.equal(typeof m.message, 'string');
  assert.ok(m.message.length > 0, 'an error says why');
  return m;
}

// ---------------------------------------------------------------- playing

/** A seeded PRNG (mulberry32): a function giving floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = (rng, list) => list[Math.floor(rng() * list.length)];

/** Whether this state asks the socket's seat to act. */
export const mustAct = (s) => s.status === 'playing' && s.seat !== null && s.to_move === s.seat
  && Array.isArray(s.legal);

/**
 * Plays the sockets' seats at random until the game is over.  players is a
 * list of { client, state } (one per human seat played here; bots play the
 * others).  Every state each socket receives is passed to onState(j, state)
 * in order.  chooser(j, state) may return the action text to play (default:
 * uniform from legal with rng); beforeMove(j, state) is awaited before each
 * move (to send other requests first); onAck(j, action, stateBefore, ack) hears of
 * each acknowledged move.  until(latest, moves) stops early when it returns
 * true.  Returns { final: each player's last state, moves }.
 */
export async function playOut(players, { rng = prng(1), chooser, onState, onAck, beforeMove,
  maxMoves = 20000, timeout = 90000, until } = {}) {
  let moves = 0;
  let sentAt = -1;
  const latest = players.map((p) => p.state);
  const deadline = Date.now() + timeout;
  for (;;) {
    for (let j = 0; j < players.length; j++) {
      const bad = players[j].client.queue.find((m) => m.type === 'error');
      if (bad) throw new Error(`player ${j} got ${JSON.stringify(bad)}`);
      for (const s of players[j].client.takeStates()) {
        if (onState) onState(j, s);
        if (s.seq < latest[j].seq) continue; // queued before the state we hold
        latest[j] = s;
        players[j].state = s;
      }
    }
    if (latest.every((s) => s.status === 'over')) return { final: latest, moves };
    if (until && until(latest, moves)) return { final: latest, moves };
    const newest = Math.max(...latest.map((s) => s.seq));
    const i = latest.findIndex((s) => s.seq === newest && mustAct(s));
    if (i >= 0 && newest !== sentAt) {
      const s = latest[i];
      if (beforeMove) await beforeMove(i, s);
      const action = chooser ? chooser(i, s) : pick(rng, s.legal);
      sentAt = newest;
      const ack = await players[i].client.request({ type: 'move', seq: s.seq, action },
        ['ack', 'error']);
      assert.equal(ack.type, 'ack', `move '${action}' at seq ${s.seq}: ${JSON.stringify(ack)}`);
      assert.equal(ack.seq, s.seq + 1, 'a move is one change');
      if (onAck) onAck(i, action, s, ack);
      if (++moves > maxMoves) throw new Error(`no end after ${maxMoves} moves`);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`game not over in ${timeout} ms (seq ${newest})`);
    await waitAny(players.map((p) => p.client), left,
      () => players.some((p) => p.client.closed
        || p.client.queue.some((m) => m.type === 'state' || m.type === 'error')));
    const gone = players.find((p) => p.client.closed);
    if (gone) throw new Error(`socket closed during the game: ${JSON.stringify(gone.client.closed)}`);
  }
}

/**
 * Runs SQL on a database, committed: the rows as JSON.  A file with Python's
 * sqlite3 (python3 is a dependency); a postgresql:// database with psql,
 * whose text cells that read as numbers come back as numbers.
 */
export function sql(db, query) {
  if (/^postgres(ql)?:\/\//.test(db)) {
    const lines = psql(pgName(db), query).split('\n').filter((l) => l !== '');
    return lines.slice(1).map((line) => csvRow(line).map((cell) => {
      if (cell === null) return null;
      return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(cell) ? Number(cell) : cell;
    }));
  }
  const out = execFileSync('python3', ['-c',
    'import json, sqlite3, sys\n'
    + 'c = sqlite3.connect(sys.argv[1])\n'
    + 'rows = [list(r) for r in c.execute(sys.argv[2])]\n'
    + 'c.commit()\n'
    + 'print(json.dumps(rows))', db, query]);
  return JSON.parse(out.toString());
}

/** One line of psql's CSV: quoted cells as text, \N (unquoted) as null. */
function csvRow(line) {
  const cells = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') { v += '"'; i += 2; }
        else if (line[i] === '"') { i++; break; }
        else v += line[i++];
      }
      cells.push(v);
    } else {
      const end = line.indexOf(',', i) < 0 ? line.length : line.indexOf(',', i);
      const v = line.slice(i, end);
      cells.push(v === '\\N' ? null : v);
      i = end;
    }
    i++; // the comma
  }
  return cells;
}

// ---------------------------------------------------------------- HTTP, records, replay

export async function get(server, path) {
  const r = await fetch(new URL(path, server.base), { redirect: 'manual' });
  const body = await r.text();
  return { status: r.status, body, headers: r.headers };
}

/** The record of a finished table, parsed (asserts 200). */
export async function fetchRecord(server, table) {
  const r = await get(server, `/t/${table}/record`);
  assert.equal(r.status, 200, `record of ${table}: ${r.status} ${r.body.slice(0, 200)}`);
  return { text: r.body, record: JSON.parse(r.body) };
}

function run(file, args) {
  return new Promise((res, rej) => {
    execFile(file, args, { maxBuffer: 1 << 30 }, (e, stdout, stderr) => {
      if (e) rej(new Error(`${file} ${args.join(' ')}: ${e.message}\n${stderr}`));
      else res(stdout);
    });
  });
}

/** Writes a record text to a temporary file; its path. */
function recordFile(text) {
  const path = joinPath(tempDir('tafel-record-'), 'record.json');
  writeFileSync(path, text.endsWith('\n') ? text : text + '\n');
  return path;
}

/** `tafel replay FILE --json`, parsed. */
export async function replayJson(recordText) {
  return JSON.parse(await run(TAFEL, ['replay', recordFile(recordText), '--json']));
}

/**
 * `tafel replay FILE --views SEAT`: per action count N, { actions, view,
 * text } -- the engine's view for seat after N actions and the N-th action
 * as seat saw it (null for 0).  seat -1 is a spectator.
 */
export async function replayViews(recordText, seatNumber) {
  const out = await run(TAFEL, ['replay', recordFile(recordText), '--views', String(seatNumber)]);
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

/**
 * `tafel replay FILE --step --json --seat SEAT`: per action, { n, seat,
 * action, events } -- its account as seat saw it (seat -1: a spectator).
 */
export async function replaySteps(recordText, seatNumber) {
  const out = await run(TAFEL, ['replay', recordFile(recordText), '--step', '--json', '--seat',
    String(seatNumber)]);
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

// ---------------------------------------------------------------- the bound address

/**
 * The local addresses of pid's listening TCP sockets, from /proc: e.g.
 * ['127.0.0.1:41233'] or ['0.0.0.0:41233', '[::]:41233'].
 */
export function listeningAddresses(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
      if (m) inodes.add(m[1]);
    } catch { /* closed meanwhile */ }
  }
  const found = [];
  for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]]) {
    let text;
    try { text = readFileSync(file, 'utf8'); } catch { continue; }
    for (const line of text.trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const [addr, port] = f[1].split(':');
      if (f[3] !== '0A' || !inodes.has(f[9])) continue; // 0A: LISTEN
      found.push(`${v6 ? `[${ipv6(addr)}]` : ipv4(addr)}:${parseInt(port, 16)}`);
    }
  }
  return found;
}

function ipv4(hex) {
  // /proc/net/tcp holds the address as a little-endian 32-bit number.
  return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}

function ipv6(hex) {
  const words = [];
  for (let w = 0; w < 4; w++) {
    const g = hex.slice(w * 8, w * 8 + 8);
    const b = [3, 2, 1, 0].map((i) => g.slice(i * 2, i * 2 + 2)).join('');
    words.push(b.slice(0, 4), b.slice(4, 8));
  }
  const full = words.map((x) => parseInt(x, 16).toString(16)).join(':');
  if (full === '0:0:0:0:0:0:0:0') return '::';
  if (full === '0:0:0:0:0:0:0:1') return '::1';
  const m = full.match(/^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/);
  if (m) {
    const a = parseInt(m[1], 16), b = parseInt(m[2], 16);
    return `::ffff:${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return full;
}

// ---------------------------------------------------------------- state messages

/** The fields every state message has (docs/protocol.md), checked. */
export function checkStateShape(s, { seat: seatNumber } = {}) {
  assert.equal(s.type, 'state');
  assert.equal(s.protocol, 1);
  assert.match(s.table, /^[0-9a-f]+$/);
  assert.ok(Number.isInteger(s.seq) && s.seq >= 0, `seq ${s.seq}`);
  assert.ok(Number.isInteger(s.actions) && s.actions >= 0, `actions ${s.actions}`);
  if (seatNumber !== undefined) assert.equal(s.seat, seatNumber);
  assert.ok(['playing', 'over'].includes(s.status), `status ${s.status}`);
  assert.notEqual(s.to_move, 'chance', 'clients never see chance to move');
  if (s.status === 'over') assert.equal(s.to_move, 'terminal');
  else assert.ok(Number.isInteger(s.to_move), `to_move ${s.to_move}`);
  assert.ok(Array.isArray(s.seats));
  assert.equal(typeof s.view, 'object');
  assert.ok(Array.isArray(s.last));
  checkEventsShape(s);
  assert.equal(typeof s.undo, 'boolean');
  assert.ok(Array.isArray(s.scores) && s.scores.length === s.seats.length);
  assert.ok(Array.isArray(s.breakdown) && s.breakdown.length === s.seats.length);
  s.breakdown.forEach((b) => Object.values(b).forEach((v) => assert.equal(typeof v, 'number')));
  // A resigned or handed-over seat is played by a bot: not asked to act.
  const own = s.seat !== null ? s.seats[s.seat] : null;
  if (s.status === 'playing' && own && s.to_move === s.seat && !own.resigned
    && own.kind !== 'bot') {
    assert.ok(Array.isArray(s.legal) && s.legal.length > 0, 'legal when the seat must act');
  } else {
    assert.equal(s.legal, undefined, `legal only for the seat to act (seat ${s.seat}, `
      + `to_move ${s.to_move})`);
  }
  if (s.status === 'over') assert.ok(Array.isArray(s.winners), 'winners when over');
}

/**
 * A state's `events`: the accounts of consecutive actions, the last one the
 * state's own action count; each account an array of events with a kind.
 */
export function checkEventsShape(s) {
  assert.ok(Array.isArray(s.events), 'events is an array');
  s.events.forEach((e, i) => {
    assert.equal(e.n, s.actions - s.events.length + 1 + i, `events[${i}].n`);
    assert.ok(e.seat === 'chance' || (Number.isInteger(e.seat) && e.seat >= 0
      && e.seat < s.seats.length), `events[${i}].seat ${e.seat}`);
    assert.ok(Array.isArray(e.events), `events[${i}].events is an array`);
    e.events.forEach((ev) => assert.equal(typeof ev.kind, 'string', `an event has a kind: ${JSON.stringify(ev)}`));
  });
}

/**
 * Holds the states a socket received, in order, to the engine's accounts:
 * steps are `tafel replay --step --json --seat N` lines of the finished
 * record for the socket's seat.  Its first state has no accounts; after
 * that each state has exactly the accounts of the actions since the one
 * before, equal to the engine's.  The game must have had no undo.  Returns
 * how many accounts were checked.
 */
export function checkAccounts(states, steps, where = '') {
  let previous = null, checked = 0;
  for (const s of states) {
    if (previous === null) {
      assert.deepEqual(s.events, [], `${where}: the first state of a socket has no accounts`);
    } else {
      assert.deepEqual(s.events.map((e) => e.n),
        Array.from({ length: s.actions - previous.actions }, (_, i) => previous.actions + 1 + i),
        `${where}: seq ${s.seq} tells the actions since seq ${previous.seq}`);
      for (const e of s.events) {
        const step = steps[e.n - 1];
        assert.equal(step.n, e.n);
        assert.deepEqual({ n: e.n, seat: e.seat, events: e.events },
          { n: step.n, seat: step.seat, events: step.events }, `${where}: action ${e.n}`);
        checked++;
      }
    }
    previous = s;
  }
  return checked;
}

// ---------------------------------------------------------------- leaks

const WORD = /[A-Za-z0-9][A-Za-z0-9-]*/g;

/** The words of a text (card names are words: "GH", "black-knight"). */
export function words(text) {
  return new Set(String(text).match(WORD) || []);
}

/** Every string in value, walked. */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/**
 * What the view `theirs` (of another seat) shows that `mine` hides at the
 * same place: strings where mine has "?" or lacks the key.
 */
function hiddenAt(mine, theirs, out) {
  if (mine === '?' && typeof theirs === 'string' && theirs !== '?') {
    out.push(theirs);
  } else if (Array.isArray(mine) && Array.isArray(theirs)) {
    // A hand shown to its holder and not to others: [] or shorter.
    for (let i = 0; i < theirs.length; i++) {
      if (i < mine.length) hiddenAt(mine[i], theirs[i], out);
      else strings(theirs[i], out);
    }
  } else if (mine && theirs && typeof mine === 'object' && typeof theirs === 'object') {
    for (const [k, v] of Object.entries(theirs)) {
      if (!(k in mine)) strings(v, out);
      else hiddenAt(mine[k], v, out);
    }
  }
  return out;
}

/**
 * secrets(s, N): the card names seat s may not see after N actions, by the
 * engine's own views: what other seats' views show where s's shows "?" or
 * nothing, less every word that s's view, or an action text it was shown up
 * to N, contains anyway.  views[seat][N] are `tafel replay --views` lines
 * (seat -1: the spectator); seats lists the seats of the game.
 */
export function secretsOf(views, seats) {
  const shown = {}; // seat -> [N] words of the texts shown up to N
  const cache = new Map();
  const textWords = (s, N) => {
    if (!shown[s]) {
      shown[s] = [new Set()];
      for (let k = 1; k < views[s].length; k++) {
        const set = new Set(shown[s][k - 1]);
        if (views[s][k].text) words(views[s][k].text).forEach((w) => set.add(w));
        shown[s].push(set);
      }
    }
    return shown[s][N];
  };
  return (s, N) => {
    const key = `${s}/${N}`;
    if (cache.has(key)) return cache.get(key);
    const mine = views[s][N];
    const allowed = words(JSON.stringify(mine.view));
    const texts = textWords(s, N);
    const secret = new Set();
    for (const o of seats) {
      if (o === s) continue;
      for (const text of hiddenAt(mine.view, views[o][N].view, [])) {
        for (const w of words(text)) if (!allowed.has(w) && !texts.has(w)) secret.add(w);
      }
    }
    cache.set(key, secret);
    return secret;
  };
}

/** The secrets (a Set) that occur as words in text. */
export function leaked(text, secret) {
  const found = [];
  for (const w of words(text)) if (secret.has(w)) found.push(w);
  return found;
}

// ---------------------------------------------------------------- servers started otherwise

/**
 * startServer for a server run through another program first (prefix: e.g.
 * ['prlimit', '--nofile=128:128'], which execs it, so the pid is the
 * server's) or over TLS (an https:// address line; then ws is wss://).
 * The same object as startServer's, killed by stopAll as well.
 */
export async function startServerVia({ prefix = [], args = [], dir, db } = {}) {
  dir = dir || tempDir();
  db = db || defaultDatabase(dir);
  const argv = [...prefix, TAFEL, 'serve', '--port', '0', '--db', db, ...args];
  const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { proc, db, dir, stderrText: '', stdoutText: '' };
  server.exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  server.stderr = () => server.stderrText;
  server.stdout = () => server.stdoutText;
  servers.add(server);
  server.exited.then(() => servers.delete(server));
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (d) => { server.stderrText += d; });
  proc.stdout.setEncoding('utf8');
  server.base = await new Promise((res, rej) => {
    const fail = (why) => rej(new Error(`tafel serve ${why}; stderr: ${server.stderrText}`));
    const timer = setTimeout(() => fail(`printed no address in ${TIMEOUT} ms`), TIMEOUT);
    proc.stdout.on('data', (d) => {
      server.stdoutText += d;
      const m = server.stdoutText.match(/^tafel serve: (https?:\/\/[^\s/]+\/) \(database /m);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
    proc.on('error', (e) => { clearTimeout(timer); rej(e); });
    server.exited.then(({ code, signal }) => { clearTimeout(timer); fail(`exited (${code ?? signal})`); });
  });
  server.url = server.base;
  server.port = Number(new URL(server.base).port);
  server.ws = server.base.replace(/^http/, 'ws') + 'ws';
  server.stop = async (signal = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10000);
    const r = await server.exited;
    clearTimeout(timer);
    return r;
  };
  return server;
}

// ---------------------------------------------------------------- accounts

/**
 * POSTs JSON to an account route (/api/signup, /api/login, ...), with the
 * cookie (a "tafel_session=..." pair) when given: { status, body (parsed when
 * JSON), cookie (the Set-Cookie pair, or null), setCookie (the whole header),
 * headers }.
 */
export async function post(server, path, body, { cookie, headers = {} } = {}) {
  const r = await fetch(new URL(path, server.base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
  });
  const text = await r.text();
  let parsed = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  const setCookie = r.headers.get('set-cookie');
  return { status: r.status, body: parsed, cookie: setCookie ? setCookie.split(';')[0] : null,
    setCookie, headers: r.headers };
}

/** Signs NAME up with PASSWORD (asserts 201); the login's cookie pair. */
export async function signup(server, name, password = 'a good password') {
  const r = await post(server, '/api/signup', { name, password });
  assert.equal(r.status, 201, `signup ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.cookie;
}

/** GET /api/me with a cookie: { id, name, kind } or { kind: null }. */
export async function me(server, cookie) {
  const r = await fetch(new URL('/api/me', server.base), { headers: cookie ? { cookie } : {} });
  return r.json();
}

// ---------------------------------------------------------------- identities (social)

/**
 * A login on server (docs: POST /api/guest, POST /api/signup): the cookie
 * header value that names it.  account: sign up NAME with a password;
 * else a guest named NAME.
 */
export async function identity(server, name, { account = false } = {}) {
  const path = account ? 'api/signup' : 'api/guest';
  const body = account ? { name, password: `pw-${name}-long-enough` } : { name };
  const r = await fetch(server.base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.base.replace(/\/$/, '') },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  assert.ok(r.status === 200 || r.status === 201, `${path} ${name}: ${r.status} ${text}`);
  const set = r.headers.get('set-cookie') || '';
  const m = set.match(/tafel_session=([^;]*)/);
  assert.ok(m, `${path} sets the cookie: ${set}`);
  return `tafel_session=${m[1]}`;
}

/**
 * A rated table of two cardcassonne (or game) on server, made by the
 * identity winnerCookie at seat 0, loserCookie at seat 1, played until each
 * seat has acted (a game nobody played is not rated), its end left to the
 * caller: { table, winner, loser (their sockets), seq }.
 */
export async function ratedTableReady(server, winnerCookie, loserCookie, seed,
  game = 'cardcassonne') {
  const w = await connectAs(server, winnerCookie);
  const made = await w.request({ type: 'create', game, seats: ['human', 'human'], rated: true },
    ['created', 'error']);
  assert.equal(made.type, 'created', JSON.stringify(made));
  const l = await connectAs(server, loserCookie);
  const players = [{ client: w, state: await join(w, made.table, made.tokens[0]) },
    { client: l, state: await join(l, made.table, made.tokens[1]) }];
  const acted = [false, false];
  await playOut(players, { rng: prng(seed), onAck: (j) => { acted[j] = true; },
    until: () => acted.every(Boolean) });
  return { table: made.table, winner: w, loser: l, seq: Math.max(...players.map((p) => p.state.seq)) };
}

/** A socket that sends cookie (an identity's) with its upgrade. */
export function connectAs(server, cookie) {
  const url = server.base.replace(/^http/, 'ws') + 'ws';
  const ws = new WebSocket(url, 'tafel', { headers: { cookie } });
  return new Promise((res, rej) => {
    const timer = setTimeout(() => { ws.terminate(); rej(new Error(`no connection to ${url}`)); },
      TIMEOUT);
    ws.once('open', () => { clearTimeout(timer); res(new Client(ws)); });
    ws.once('error', (e) => { clearTimeout(timer); rej(e); });
  });
}

/** GET path with cookie (a player's login): { status, json }. */
export async function getJsonAs(server, path, cookie) {
  const r = await fetch(new URL(path, server.base), { headers: cookie ? { cookie } : {} });
  const text = await r.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: r.status, json, text };
}

/**
 * The client's state once it shows seat's rating: on PostgreSQL the seats'
 * ratings are read off the loop, and a state that shows them follows the
 * join's (docs/server.md, "Commits off the loop").
 */
export async function withRating(client, state, seat = 0) {
  while (state.seats[seat].rating === undefined) state = await client.next('state');
  return state;
}

/**
 * A player's profile (/api/players/NAME); with table, once it lists that
 * table's result: a finished table's results are stored off the loop just
 * after its end is told (docs/server.md, "Commits off the loop"), so a
 * read right after the end may come first.  Waits at most 5 s.
 */
export async function profileOf(server, name, table) {
  const read = async () => {
    const r = await getJsonAs(server, `/api/players/${encodeURIComponent(name)}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  for (const until = Date.now() + 5000; table; await sleep(20)) {
    // seen: stored, results and ratings in one transaction; read again, as a
    // profile's statements on PostgreSQL may straddle that commit
    if ((await read()).results.some((x) => x.table === table)) break;
    assert.ok(Date.now() < until, `${name}'s profile lists no result of table ${table} after 5 s`);
  }
  return read();
}

/**
 * Glicko-2, steps 1-8 (Glickman, glicko2.pdf), tau 0.5: a player's rating
 * {rating, rd, volatility} after one period of results (scores 1 / 0.5 /
 * 0) against opponents -- written from the paper, apart from glicko2.c.
 */
export function glicko2(p, opponents, scores, tau = 0.5) {
  const S = 173.7178;
  const mu = (p.rating - 1500) / S;
  const phi = p.rd / S;
  const g = (x) => 1 / Math.sqrt(1 + (3 * x * x) / (Math.PI * Math.PI));
  let inv = 0;
  let sum = 0;
  opponents.forEach((o, j) => {
    const gj = g(o.rd / S);
    const e = 1 / (1 + Math.exp(-gj * (mu - (o.rating - 1500) / S)));
    inv += gj * gj * e * (1 - e);
    sum += gj * (scores[j] - e);
  });
  const v = 1 / inv;
  const delta = v * sum;
  const a = Math.log(p.volatility * p.volatility);
  const f = (x) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const sigma = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigma * sigma);
  const phi2 = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  return { rating: S * (mu + phi2 * phi2 * sum) + 1500, rd: Math.min(350, S * phi2),
    volatility: sigma };
}

export const NEW_RATING = { rating: 1500, rd: 350, volatility: 0.06 };

/** Places by final score, ties sharing; a resigned seat last. */
export function places(final) {
  const left = final.seats.filter((s) => !s.resigned).length;
  return final.seats.map((s, i) => (s.resigned ? left + 1
    : 1 + final.seats.filter((o, j) => !o.resigned && final.scores[j] > final.scores[i]).length));
}

/** The ratings after a game (ratings.c): each seat against every other, by place. */
export function expectedRatings(before, place) {
  return before.map((b, i) => {
    const others = before.filter((_, j) => j !== i);
    const scores = place.filter((_, j) => j !== i)
      .map((pj) => (place[i] < pj ? 1 : place[i] === pj ? 0.5 : 0));
    return glicko2(b, others, scores);
  });
}
