#!/usr/bin/env node
// load.mjs -- the load benchmark of `tafel serve`: many sockets, many tables,
// people moving every few seconds, bots thinking; it stops by itself.
//
//   node bench/load.mjs [--sockets 1000] [--tables 200] [--duration 60] [--json]
//
// Every socket comes from 127.0.0.1, so the server's limits per client
// address and per socket are lifted, and its tables of people take the
// bench's seeds, so that a run replays (--serve-args, by default
// "--max-per-address 0 --max-new-tables 0 --max-rate 1000 --allow-chosen-seeds");
// the rest of its limits are its defaults.
//
// It starts its own server (--port 0, loopback only, a database in a new
// mkdtemp folder), makes the tables through the protocol (docs/protocol.md),
// opens the sockets and sits them at the tables: each table's human seats are
// connected, the rest of its share of sockets watch as spectators.  Every
// --bot-every'th table has a bot seat (specs from --bots, in turn), so the
// bot threads really search.  For --duration seconds each human seat, when it
// must act, waits a random 2-5 s (--think-min/--think-max) and plays a
// uniformly random action of `legal`.  A table whose game ends is replaced by
// a new one on the same sockets, so the load stays.  Then it waits briefly for
// the answers still due, closes every socket, stops the server (SIGTERM, then
// SIGKILL after 10 s), removes the folder and prints a summary.
//
// What is measured (milliseconds, on the client's clock):
//   move -> ack     from sending `move` to its `ack` (the change is on disk and
//                   broadcast): the action latency a player sees;
//   move -> state   to the `state` of the new seq on the mover's socket;
//   move -> table   until every socket of the table has that `state`;
//   bot reply       from the `state` in which a bot seat is to move to the
//                   `state` of its move (queueing on the bot threads included);
//   ping -> pong    every socket pings every --ping seconds, as the page does
//                   (web/net/connection.mjs): the loop's answer time.
// Once a second: the server's VmRSS, VmHWM, threads, open files and CPU time,
// split into the event-loop thread (the main thread) and the bot threads
// (/proc/PID), and the load average.  Server errors are counted by code, the
// client's own troubles (closed sockets, answers that never came) by kind;
// none of them stops the run, and neither does a server that dies (its exit
// is reported).
//
// The client runs on the same machine as the server, so its CPU time and
// event-loop delay are reported, and on a shared machine so is the time the
// server's loop thread and the client waited for a core (schedstat): the
// part of a latency that is nobody's code.
// Choices and table seeds come from --seed; timings of course do not repeat.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join as joinPath, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { prng, sleep } from '../tests/server/helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- options

const USAGE = `usage: node bench/load.mjs [options]

  --tafel PATH       the tafel binary (default: $TAFEL_CLI, else build/tafel)
  --sockets N        WebSockets to open in all (1000)
  --tables N         tables (200); sockets are shared out evenly, at least 2 a table
  --duration S       seconds of load once every socket is seated (60)
  --games LIST       games, in turn ("carcassonne(players=2);cardcassonne(players=2);catan_cards")
  --bot-every K      every K-th table has a bot seat (4; 0: no bots)
  --bots LIST        bot specs for those seats, in turn ("medium;mcts:iters=2000")
  --think-min MS     a human's least delay before moving (2000)
  --think-max MS     a human's longest delay before moving (5000)
  --seed N           choices and table seeds (1)
  --workers N        passed to tafel serve (default: its own, one per core)
  --durable          passed to tafel serve
  --db DB            the server's database: a file, or a postgresql:// URI of an empty
                     database (issue 36); by default a new SQLite file in the run's folder
  --serve-args ARGS  more arguments for tafel serve, split at spaces
                     ("--max-per-address 0 --max-new-tables 0 --max-rate 1000
                     --allow-chosen-seeds": one address opens every socket, and the
                     bench's seeds deal; "" for the server's own limits)
  --ping S           each socket sends a ping every S seconds, as the page does (25; 0: never)
  --grace S          seconds to wait at the end for answers still due (10)
  --settle S         at most S seconds to wait, once every socket is seated, for the
                     server's loop thread to go quiet (under 5% of a core for 2 s) before the load
                     starts, so that the load's figures are not the seating's (60; 0: no wait)
  --json             print the summary as JSON
  --quiet            no progress lines on stderr`;

function options() {
  const { values } = parseArgs({
    options: {
      tafel: { type: 'string' },
      sockets: { type: 'string', default: '1000' },
      tables: { type: 'string', default: '200' },
      duration: { type: 'string', default: '60' },
      games: { type: 'string', default: 'carcassonne(players=2);cardcassonne(players=2);catan_cards' },
      'bot-every': { type: 'string', default: '4' },
      bots: { type: 'string', default: 'medium;mcts:iters=2000' },
      'think-min': { type: 'string', default: '2000' },
      'think-max': { type: 'string', default: '5000' },
      seed: { type: 'string', default: '1' },
      workers: { type: 'string' },
      durable: { type: 'boolean', default: false },
      db: { type: 'string' },
      'serve-args': { type: 'string',
        default: '--max-per-address 0 --max-new-tables 0 --max-rate 1000 --allow-chosen-seeds' },
      grace: { type: 'string', default: '10' },
      settle: { type: 'string', default: '60' },
      ping: { type: 'string', default: '25' },
      json: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name, min) => {
    const v = Number(values[name]);
    if (!Number.isInteger(v) || v < min) {
      console.error(`load.mjs: --${name} must be an integer >= ${min}\n${USAGE}`);
      process.exit(2);
    }
    return v;
  };
  const o = {
    tafel: resolve(ROOT, values.tafel || process.env.TAFEL_CLI || 'build/tafel'),
    db: values.db,
    sockets: int('sockets', 2),
    tables: int('tables', 1),
    duration: Number(values.duration),
    games: values.games.split(';').filter(Boolean),
    botEvery: int('bot-every', 0),
    bots: values.bots.split(';').filter(Boolean),
    thinkMin: int('think-min', 0),
    thinkMax: int('think-max', 0),
    seed: int('seed', 0),
    workers: values.workers === undefined ? null : int('workers', 1),
    durable: values.durable,
    serveArgs: values['serve-args'].split(' ').filter(Boolean),
    grace: Number(values.grace),
    settle: Number(values.settle),
    ping: Number(values.ping),
    json: values.json,
    quiet: values.quiet,
  };
  if (!(o.duration > 0) || !(o.grace >= 0) || !(o.ping >= 0) || !(o.settle >= 0)) {
    console.error(`load.mjs: --duration must be > 0, --grace, --settle and --ping >= 0\n${USAGE}`);
    process.exit(2);
  }
  if (o.sockets < 2 * o.tables) {
    console.error(`load.mjs: ${o.sockets} sockets cannot seat the two players of ${o.tables} `
      + 'tables: give at least 2 sockets a table');
    process.exit(2);
  }
  if (o.thinkMax < o.thinkMin) o.thinkMax = o.thinkMin;
  if (!o.games.length || (o.botEvery && !o.bots.length)) {
    console.error(`load.mjs: --games and --bots need at least one entry\n${USAGE}`);
    process.exit(2);
  }
  return o;
}

const opt = options();

// ---------------------------------------------------------------- small tools

const rng = prng(opt.seed * 2654435761 + 17);
const now = () => performance.now();
const fd = (x) => Math.round(x * 10) / 10;

function quantiles(list) {
  if (!list.length) return null;
  const s = Float64Array.from(list).sort();
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const r = (x) => Math.round(x * 10) / 10;
  let sum = 0;
  for (const x of s) sum += x;
  return { n: s.length, p50: r(q(0.5)), p90: r(q(0.9)), p99: r(q(0.99)), max: r(s[s.length - 1]),
    mean: r(sum / s.length) };
}

const counts = {};        // server error codes
const trouble = {};       // the client's own: closed sockets, timeouts, ...
const bump = (map, key, n = 1) => { map[key] = (map[key] || 0) + n; };

function progress(text) {
  if (!opt.quiet) process.stderr.write(`load: ${text}\n`);
}

// ---------------------------------------------------------------- the server

const dir = mkdtempSync(joinPath(tmpdir(), 'tafel-load-'));
const dbPath = opt.db || joinPath(dir, 'load.db');
let server = null;

function cleanUp() {
  if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
    try { server.proc.kill('SIGKILL'); } catch { /* gone */ }
  }
  try { rmSync(dir, { recursive: true, force: true }); } catch { /* leave it */ }
}
process.on('exit', cleanUp);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { cleanUp(); process.exit(130); });

function startServer() {
  const args = ['serve', '--port', '0', '--bind', '127.0.0.1', '--db', dbPath];
  if (opt.workers) args.push('--workers', String(opt.workers));
  if (opt.durable) args.push('--durable');
  args.push(...opt.serveArgs);
  const proc = spawn(opt.tafel, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const s = { proc, stderr: [], stderrLines: 0 };
  s.exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  proc.stderr.setEncoding('utf8');
  let partial = '';
  proc.stderr.on('data', (d) => {
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop();
    for (const l of lines) {
      s.stderrLines++;
      if (s.stderr.length < 20) s.stderr.push(l);
    }
  });
  proc.stdout.setEncoding('utf8');
  return new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`tafel serve printed no address in 30 s: ${out}`)),
      30000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^tafel serve: (http:\/\/[^\s/]+\/) /m);
      if (m) {
        clearTimeout(timer);
        s.base = m[1];
        s.ws = m[1].replace(/^http/, 'ws') + 'ws';
        res(s);
      }
    });
    proc.on('error', (e) => { clearTimeout(timer); rej(e); });
    s.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rej(new Error(`tafel serve exited (${code ?? signal}) before listening: ${s.stderr.join('\n')}`));
    });
  });
}

// ---------------------------------------------------------------- sampling /proc

const ELD_RESOLUTION = 10; // ms: the client's event-loop delay histogram

const TICK = 100; // USER_HZ: clock ticks a second on Linux

function cpuTicks(path) {
  const text = readFileSync(path, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime (fields 14 and 15)
}

/**
 * Seconds a thread has spent ready to run but waiting for a CPU (the second
 * field of schedstat): on a busy machine, the part of a latency that is
 * nobody's code.
 */
function runQueueWait(path) {
  try { return Number(readFileSync(path, 'utf8').split(' ')[1]) / 1e9; } catch { return 0; }
}

/** The server's memory, threads, files and CPU time now (null once it is gone). */
function probe(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number((status.match(new RegExp(`^${key}:\\s+(\\d+)`, 'm')) || [])[1] || 0);
    let loop = 0;
    try { loop = cpuTicks(`/proc/${pid}/task/${pid}/stat`) / TICK; } catch { /* gone */ }
    const wait = runQueueWait(`/proc/${pid}/task/${pid}/schedstat`);
    return {
      rss: kb('VmRSS'), hwm: kb('VmHWM'), threads: kb('Threads'),
      fds: readdirSync(`/proc/${pid}/fd`).length,
      cpu: cpuTicks(`/proc/${pid}/stat`) / TICK, loopCpu: loop, loopWait: wait,
      clientWait: runQueueWait(`/proc/${process.pid}/task/${process.pid}/schedstat`),
    };
  } catch {
    return null;
  }
}

/** The machine's CPU time by kind, in seconds (the first line of /proc/stat). */
function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f.map((x) => x / TICK);
  return { user, nice, system: system + irq + softirq, idle, iowait, steal };
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

// ---------------------------------------------------------------- sockets and tables

const mustAct = (s) => s && s.status === 'playing' && s.seat !== null && s.to_move === s.seat
  && Array.isArray(s.legal) && s.legal.length > 0;

let running = false;      // humans move only while the load runs
let ending = false;
let loadStart = 0;
const lat = { ack: [], state: [], table: [], bot: [], pong: [] };
const windows = [];       // per 10 s of load: ack latencies
const worst = [];         // the slowest acks: when (s into the load) and how slow
let movesSent = 0, movesAcked = 0, botMoves = 0, gamesOver = 0, tablesMade = 0;
let msgsIn = 0, bytesIn = 0;
const sockets = [];
const tables = [];

/** One WebSocket: a seat's (parsed in full) or a spectator's (read lightly). */
class Sock {
  constructor(table, seat) {
    this.table = table;
    this.seat = seat;        // -1: spectator
    this.ws = null;
    this.state = null;       // the latest state (seat sockets)
    this.timer = null;       // the pending decision to move
    this.pending = null;     // { seq, t0, stateAt }
    this.waiters = [];
    this.open = false;
    this.pinger = null;      // the page's heartbeat
    this.pingAt = null;      // when the unanswered ping went
  }

  /** Pings every --ping seconds from a random phase, as the page does. */
  startPings() {
    if (!opt.ping) return;
    const every = opt.ping * 1000;
    this.pinger = setTimeout(() => {
      const beat = () => {
        if (!this.open || ending) return;
        if (this.pingAt === null) {
          this.pingAt = now();
          this.send({ type: 'ping' });
        }
      };
      beat();
      this.pinger = setInterval(beat, every);
    }, rng() * every);
  }

  stopPings() {
    clearTimeout(this.pinger);
    clearInterval(this.pinger);
    this.pinger = null;
  }

  connect(url) {
    return new Promise((res, rej) => {
      const ws = new WebSocket(url, 'tafel', { perMessageDeflate: false, handshakeTimeout: 30000 });
      this.ws = ws;
      ws.once('open', () => { this.open = true; res(); });
      ws.once('error', (e) => { if (!this.open) rej(e); });
      ws.on('error', () => bump(trouble, 'socket_error'));
      ws.on('message', (data) => this.receive(data));
      ws.on('close', (code) => {
        const was = this.open;
        this.open = false;
        if (was && !ending) bump(trouble, `socket_closed_${code}`);
        this.clearTimer();
        this.stopPings();
        this.wake(null);
      });
    });
  }

  send(obj) {
    if (this.open) this.ws.send(JSON.stringify(obj));
  }

  /** Resolves with the next message that match(msg) accepts (null if the socket closes). */
  expect(match, timeout = 30000) {
    return new Promise((res) => {
      const w = { match, res };
      w.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        res(undefined);
      }, timeout);
      this.waiters.push(w);
    });
  }

  wake(msg) {
    if (!this.waiters.length) return;
    const keep = [];
    for (const w of this.waiters) {
      if (msg === null || w.match(msg)) { clearTimeout(w.timer); w.res(msg); } else keep.push(w);
    }
    this.waiters = keep;
  }

  receive(data) {
    const t = now();
    msgsIn++;
    bytesIn += data.length;
    const text = data.toString('utf8');
    let msg;
    if (text === '{"type":"pong"}') {
      if (this.pingAt !== null && running) lat.pong.push(t - this.pingAt);
      this.pingAt = null;
      return;
    }
    if (this.seat < 0 && text.startsWith('{"type":"state"') && !this.waiters.length) {
      // A spectator's state: only its table and seq matter; no full parse.
      const head = text.slice(0, 200);
      const id = (head.match(/"table":"([0-9a-f]+)"/) || [])[1];
      const seq = Number((head.match(/"seq":(\d+)/) || [])[1]);
      if (id === this.table.id) this.table.sawSeq(seq, t);
      return;
    }
    try { msg = JSON.parse(text); } catch { bump(trouble, 'not_json'); return; }
    if (msg.type === 'error') {
      bump(counts, msg.code || 'no_code');
      if (this.pending) this.pending = null;
    }
    this.wake(msg);
    if (msg.type === 'state' && msg.table === this.table.id) {
      this.table.sawSeq(msg.seq, t);
      if (this.seat >= 0) this.onState(msg, t);
    } else if (msg.type === 'ack' && this.pending) {
      const p = this.pending;
      this.pending = null;
      movesAcked++;
      if (msg.seq !== p.seq + 1) bump(trouble, 'ack_of_another_seq');
      const ms = t - p.t0;
      lat.ack.push(ms);
      worst.push({ at_s: Math.round((p.t0 - loadStart) / 100) / 10, ms: Math.round(ms * 10) / 10,
        table: this.table.id });
      if (worst.length > 20) worst.sort((a, b) => b.ms - a.ms).length = 10;
      const w = Math.floor((p.t0 - loadStart) / 10000);
      (windows[w] = windows[w] || []).push(ms);
    }
    if (msg.type === 'ack' || msg.type === 'error') this.maybeMove();
  }

  onState(s, t) {
    this.state = s;
    const p = this.pending;
    if (p && s.seq === p.seq + 1 && p.stateAt === undefined) {
      p.stateAt = t;
      lat.state.push(t - p.t0);
    }
    if (this === this.table.socks[0]) this.table.onPrimaryState(s, t);
    this.maybeMove();
  }

  clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** If the seat must act, decides to move after a human's delay. */
  maybeMove() {
    if (!running || this.timer || this.pending || !mustAct(this.state)) return;
    const seq = this.state.seq;
    const delay = opt.thinkMin + rng() * (opt.thinkMax - opt.thinkMin);
    this.timer = setTimeout(() => {
      this.timer = null;
      const s = this.state;
      if (!running || !this.open || !mustAct(s) || s.seq !== seq) return this.maybeMove();
      const action = s.legal[Math.floor(rng() * s.legal.length)];
      const t0 = now();
      this.pending = { seq, t0 };
      this.table.moveSent(seq + 1, t0);
      movesSent++;
      this.send({ type: 'move', seq, action });
    }, delay);
  }
}

class Table {
  constructor(index, nsockets) {
    this.index = index;
    this.game = opt.games[index % opt.games.length];
    const botTable = opt.botEvery > 0 && index % opt.botEvery === opt.botEvery - 1;
    // Bot tables take the specs in turn, and each spec seat 0, then seat 1, so bots
    // open some games and answer in others.
    const k = Math.floor(index / Math.max(1, opt.botEvery));
    this.botSpec = botTable ? opt.bots[k % opt.bots.length] : null;
    this.botSeat = botTable ? Math.floor(k / opt.bots.length) % 2 : -1;
    this.seats = [0, 1].map((i) => (i === this.botSeat ? this.botSpec : 'human'));
    this.socks = [];
    const humans = this.seats.map((x, i) => (x === 'human' ? i : -1)).filter((i) => i >= 0);
    for (const seat of humans) this.socks.push(new Sock(this, seat));
    while (this.socks.length < nsockets) this.socks.push(new Sock(this, -1));
    this.id = null;
    this.generation = 0;
    this.fan = null;         // { seq, t0, left }: a human move on its way to every socket
    this.botWait = null;     // when the bot seat became to move
    this.over = false;
  }

  moveSent(seq, t0) {
    this.fan = { seq, t0, left: this.socks.filter((k) => k.open).length };
  }

  sawSeq(seq, t) {
    if (this.fan && seq === this.fan.seq && --this.fan.left === 0) {
      lat.table.push(t - this.fan.t0);
      this.fan = null;
    }
  }

  onPrimaryState(s, t) {
    if (this.botSeat >= 0 && s.last.length && s.last[0].seat === this.botSeat) {
      botMoves++;
      if (this.botWait && running) lat.bot.push(t - this.botWait);
      this.botWait = null;
    }
    if (s.status === 'playing' && s.to_move === this.botSeat) {
      if (this.botWait === null) this.botWait = t;
    } else {
      this.botWait = null;
    }
    if (s.status === 'over' && !this.over) {
      this.over = true;
      gamesOver++;
      if (running) this.renew().catch(() => bump(trouble, 'renew_failed'));
    }
  }

  /** Makes the table's game on the server and sits every socket at it. */
  async make() {
    const first = this.socks[0];
    const seed = Math.floor(rng() * 2 ** 40);
    first.send({ type: 'create', game: this.game, seats: this.seats, seed });
    const created = await first.expect((m) => m.type === 'created' || m.type === 'error');
    if (!created || created.type !== 'created') {
      bump(trouble, 'create_failed');
      throw new Error(`create ${this.game}: ${JSON.stringify(created)}`);
    }
    tablesMade++;
    this.id = created.table;
    this.over = false;
    this.fan = null;
    this.botWait = null;
    await Promise.all(this.socks.map(async (k) => {
      k.state = null;
      const msg = { type: 'join', table: this.id };
      if (k.seat >= 0) msg.token = created.tokens[k.seat];
      k.send(msg);
      const st = await k.expect((m) => (m.type === 'state' && m.table === this.id)
        || m.type === 'error');
      if (!st || st.type !== 'state') bump(trouble, 'join_failed');
      // (receive() has already taken the state in.)
    }));
  }

  /** The game ended: a new game on the same sockets, so the load stays. */
  async renew() {
    this.generation++;
    for (const k of this.socks) k.clearTimer();
    await this.make();
  }
}

/** Runs fn over items, at most n at once. */
async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

// ---------------------------------------------------------------- the run

async function main() {
  const load0 = loadavg();
  server = await startServer();
  const pid = server.proc.pid;
  let died = null; // the server's exit, if it came before we stopped it
  server.exited.then((r) => {
    if (!ending) died = { ...r, at_s: loadStart ? fd((now() - loadStart) / 1000) : null };
  });
  const idle = probe(pid);
  const samples = [];
  const delay = monitorEventLoopDelay({ resolution: ELD_RESOLUTION });
  let phase = 'setup';
  const sampler = setInterval(() => {
    const p = probe(pid);
    if (p) samples.push({ tm: now(), phase, ...p, load: loadavg()[0] });
  }, 1000);

  // Share the sockets out: every table at least 2, the rest in turn.
  const base = Math.floor(opt.sockets / opt.tables);
  const extra = opt.sockets % opt.tables;
  for (let i = 0; i < opt.tables; i++) tables.push(new Table(i, base + (i < extra ? 1 : 0)));
  for (const t of tables) sockets.push(...t.socks);

  progress(`server pid ${pid} at ${server.base}; opening ${sockets.length} sockets over `
    + `${tables.length} tables`);
  const tOpen = now();
  await pool(tables, 20, async (t) => {
    for (const k of t.socks) {
      try {
        await k.connect(server.ws);
      } catch (e) {
        bump(trouble, 'connect_failed');
      }
    }
  });
  const openedMs = now() - tOpen;
  const tSeat = now();
  await pool(tables, 20, (t) => t.make().catch(() => {}));
  const seatedMs = now() - tSeat;
  // The seating's states may still be on their way: wait for a quiet server.
  const tSettle = now();
  for (let quiet = 0, prev = probe(pid); quiet < 2 && now() - tSettle < opt.settle * 1000;) {
    await sleep(1000);
    const p = probe(pid);
    if (!p || !prev) break;
    quiet = p.loopCpu - prev.loopCpu < 0.05 ? quiet + 1 : 0; // the loop thread: bots may think
    prev = p;
  }
  const settledMs = now() - tSettle;
  const atStart = probe(pid);
  const machine0 = machineCpu();
  const cpuClient0 = process.cpuUsage();
  const open0 = sockets.filter((k) => k.open).length;
  progress(`${open0} sockets open in ${(openedMs / 1000).toFixed(1)} s, seated at ${tablesMade} `
    + `tables in ${(seatedMs / 1000).toFixed(1)} s, quiet after ${(settledMs / 1000).toFixed(1)} s more; server RSS ${(atStart.rss / 1024).toFixed(1)} MB; `
    + `load for ${opt.duration} s`);

  // The load.
  delay.enable();
  running = true;
  phase = 'load';
  loadStart = now();
  progress(`load starts at ${new Date().toISOString()}`);
  for (const k of sockets) {
    if (k.seat >= 0) k.maybeMove();
    k.startPings();
  }
  const ticker = setInterval(() => {
    const w = windows[windows.length - 1] || [];
    const q = quantiles(w);
    const p = samples[samples.length - 1];
    progress(`${Math.round((now() - loadStart) / 1000)} s: ${movesAcked} moves acked, ${botMoves} `
      + `bot moves; last 10 s ack p50 ${q ? q.p50 : '-'} p99 ${q ? q.p99 : '-'} ms; RSS `
      + `${p ? (p.rss / 1024).toFixed(1) : '-'} MB`);
  }, 10000);
  await sleep(opt.duration * 1000);
  running = false;
  clearInterval(ticker);
  const loadMs = now() - loadStart;
  const atEnd = probe(pid);
  const machine1 = machineCpu();
  const cpuClient = process.cpuUsage(cpuClient0);
  delay.disable();
  phase = 'end';

  // Answers still due.
  for (const k of sockets) {
    k.clearTimer();
    k.stopPings();
  }
  const graceEnd = now() + opt.grace * 1000;
  while (sockets.some((k) => k.pending) && now() < graceEnd) await sleep(50);
  const unanswered = sockets.filter((k) => k.pending).length;
  if (unanswered) bump(trouble, 'no_answer', unanswered);
  const openEnd = sockets.filter((k) => k.open).length;
  const botsWaiting = tables.filter((t) => t.botWait !== null).map((t) => now() - t.botWait);
  clearInterval(sampler);
  const last = probe(pid) || atEnd || atStart;

  // Close everything, then stop the server.
  ending = true;
  for (const k of sockets) if (k.open) k.ws.close(1000);
  const closeEnd = now() + 5000;
  while (sockets.some((k) => k.open) && now() < closeEnd) await sleep(50);
  for (const k of sockets) if (k.open) k.ws.terminate();
  let dbBytes = 0;
  for (const f of readdirSync(dir)) dbBytes += statSync(joinPath(dir, f)).size;
  const tStop = now();
  server.proc.kill('SIGTERM');
  const killer = setTimeout(() => server.proc.kill('SIGKILL'), 10000);
  const exit = await server.exited;
  clearTimeout(killer);
  const stopMs = now() - tStop;
  const load1 = loadavg();

  const loadSamples = samples.filter((s) => s.phase === 'load');
  const rssLoad = loadSamples.map((s) => s.rss);
  const eld = (ns) => fd(Math.max(0, ns / 1e6 - ELD_RESOLUTION));
  const mb = (kb) => Math.round(kb / 102.4) / 10;
  const byGame = {};
  for (const t of tables) bump(byGame, t.game);
  const summary = {
    server: opt.tafel,
    // How the machine's cores spent the load phase, in % of all cores ("nice":
    // processes at a lower priority: the bot threads, and any background job).
    machine: { cores: cpus().length, loadavg_before: load0, loadavg_after: load1,
      cpu_pct_during_load: Object.fromEntries(Object.keys(machine0).map((k) => [k,
        Math.round((100000 * (machine1[k] - machine0[k])) / (cpus().length * loadMs)) ])) },
    options: { sockets: opt.sockets, tables: opt.tables, duration_s: opt.duration,
      games: opt.games, bot_every: opt.botEvery, bots: opt.bots,
      think_ms: [opt.thinkMin, opt.thinkMax], ping_s: opt.ping, seed: opt.seed, workers: opt.workers,
      durable: opt.durable, serve_args: opt.serveArgs },
    setup: { sockets_opened: open0, open_s: fd(openedMs / 1000), seat_s: fd(seatedMs / 1000),
      settle_s: fd(settledMs / 1000),
      tables_by_game: byGame, bot_tables: tables.filter((t) => t.botSeat >= 0).length },
    load_s: fd(loadMs / 1000),
    sockets_open_at_end: openEnd,
    tables: opt.tables,
    tables_made: tablesMade,
    games_finished: gamesOver,
    moves_sent: movesSent,
    moves_acked: movesAcked,
    moves_per_s: fd(movesAcked / (loadMs / 1000)),
    errors: counts,
    client_trouble: trouble,
    latency_ms: {
      move_to_ack: quantiles(lat.ack),
      move_to_state: quantiles(lat.state),
      move_to_every_socket: quantiles(lat.table),
      bot_reply: quantiles(lat.bot),
      ping_to_pong: quantiles(lat.pong),
    },
    ack_by_10s: windows.map((w) => quantiles(w || [])),
    slowest_acks: worst.sort((a, b) => b.ms - a.ms).slice(0, 5),
    bot_moves: botMoves,
    bots_waiting_at_end: botsWaiting.length,
    longest_bot_wait_at_end_ms: botsWaiting.length ? Math.round(Math.max(...botsWaiting)) : 0,
    messages_received: msgsIn,
    mb_received: fd(bytesIn / 1048576),
    memory_mb: {
      idle: mb(idle.rss),
      load_start: mb(atStart.rss),
      load_end: mb(atEnd ? atEnd.rss : 0),
      final: mb(last.rss),
      peak_rss_sampled: mb(Math.max(...rssLoad, atStart.rss)),
      vm_hwm: mb(last.hwm),
    },
    server_cpu_s: {
      during_load: atEnd ? fd(atEnd.cpu - atStart.cpu) : null,
      loop_thread_during_load: atEnd ? fd(atEnd.loopCpu - atStart.loopCpu) : null,
      bot_threads_during_load: atEnd ? fd((atEnd.cpu - atEnd.loopCpu)
        - (atStart.cpu - atStart.loopCpu)) : null,
      total: fd(last.cpu),
    },
    // Time the server's loop thread and the client's thread were ready to run
    // but waited for a core: in all during the load, and the worst second.
    waited_for_cpu_s: waits(loadSamples, atStart, atEnd),
    server_threads: last.threads,
    server_fds_at_load_end: atEnd ? atEnd.fds : null,
    db_mb: fd(dbBytes / 1048576),
    server_exit: { ...exit, after_ms: Math.round(stopMs) },
    server_died: died, // { code, signal, at_s (into the load; null: during setup) } or null
    server_stderr_lines: server.stderrLines,
    server_stderr: server.stderr,
    client: { cpu_s: fd((cpuClient.user + cpuClient.system) / 1e6),
      // The histogram holds whole timer intervals: the 10 ms resolution is taken off.
      event_loop_delay_ms: { p50: eld(delay.percentile(50)), p99: eld(delay.percentile(99)),
        max: eld(delay.max) } },
    // Once a second; t_s counts from the start of the load, as slowest_acks do.
    samples: loadSamples.map((s) => ({ t_s: Math.round((s.tm - loadStart) / 100) / 10, rss_kb: s.rss, cpu_s: s.cpu, fds: s.fds,
      load: s.load, loop_wait_s: Math.round(s.loopWait * 1000) / 1000 })),
  };
  if (opt.json) {
    console.log(JSON.stringify(summary, null, 1));
  } else {
    print(summary);
  }
  const clean = !died && exit.code === 0 && !Object.keys(counts).length
    && !Object.keys(trouble).length;
  return clean ? 0 : 1;
}

function waits(list, start, end) {
  const worst = (key) => {
    let prev = start[key], max = 0;
    for (const x of list) { max = Math.max(max, x[key] - prev); prev = x[key]; }
    return Math.round(max * 1000) / 1000;
  };
  if (!end) return null;
  return {
    loop_thread: Math.round((end.loopWait - start.loopWait) * 100) / 100,
    loop_thread_worst_second: worst('loopWait'),
    client: Math.round((end.clientWait - start.clientWait) * 100) / 100,
    client_worst_second: worst('clientWait'),
  };
}

function print(s) {
  const l = s.latency_ms;
  const q = (x) => (x ? `p50 ${x.p50}  p90 ${x.p90}  p99 ${x.p99}  max ${x.max} ms  (n ${x.n})`
    : '(none)');
  const map = (m) => (Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k} ${v}`)
    .join(', ') : 'none');
  const out = [
    `tafel serve load: ${s.options.sockets} sockets, ${s.tables} tables `
      + `(${map(s.setup.tables_by_game)}; ${s.setup.bot_tables} with a bot: ${s.options.bots.join(', ')}), `
      + `humans every ${s.options.think_ms[0] / 1000}-${s.options.think_ms[1] / 1000} s, ${s.load_s} s of load`,
    `machine: ${s.machine.cores} cores, load average ${s.machine.loadavg_before.join(' ')} before, `
      + `${s.machine.loadavg_after.join(' ')} after; CPU during the load: `
      + `${Object.entries(s.machine.cpu_pct_during_load).map(([k, v]) => `${k} ${v}%`).join(', ')}`,
    `setup: ${s.setup.sockets_opened} sockets open in ${s.setup.open_s} s, seated in ${s.setup.seat_s} s, `
      + `quiet ${s.setup.settle_s} s later; `
      + `${s.sockets_open_at_end} open at the end`,
    `moves: ${s.moves_acked} acked of ${s.moves_sent} sent (${s.moves_per_s}/s); bot moves ${s.bot_moves}; `
      + `games finished ${s.games_finished}, tables made ${s.tables_made}`,
    `errors: ${map(s.errors)}; client trouble: ${map(s.client_trouble)}`,
    `  move -> ack           ${q(l.move_to_ack)}`,
    `  move -> state         ${q(l.move_to_state)}`,
    `  move -> every socket  ${q(l.move_to_every_socket)}`,
    `  bot reply             ${q(l.bot_reply)}`,
    `  ping -> pong          ${q(l.ping_to_pong)}`,
    `  ack p99 by 10 s: ${s.ack_by_10s.map((x) => (x ? x.p99 : '-')).join(' ')}; slowest at `
      + `${s.slowest_acks.map((x) => `${x.at_s} s (${x.ms} ms)`).join(', ')}`,
    `bots waiting at the end: ${s.bots_waiting_at_end} (longest ${s.longest_bot_wait_at_end_ms} ms)`,
    `server memory: RSS ${s.memory_mb.idle} MB idle, ${s.memory_mb.load_start} MB at load start, `
      + `${s.memory_mb.load_end} MB at load end, peak ${s.memory_mb.peak_rss_sampled} MB sampled, `
      + `VmHWM ${s.memory_mb.vm_hwm} MB; database ${s.db_mb} MB`,
    `server CPU: ${s.server_cpu_s.during_load} s during the load (loop thread `
      + `${s.server_cpu_s.loop_thread_during_load} s, bot threads ${s.server_cpu_s.bot_threads_during_load} s), `
      + `${s.server_cpu_s.total} s in all; ${s.server_threads} threads, ${s.server_fds_at_load_end} files open`,
    s.waited_for_cpu_s ? `waited for a core: server loop thread ${s.waited_for_cpu_s.loop_thread} s `
      + `(worst second ${s.waited_for_cpu_s.loop_thread_worst_second} s), client `
      + `${s.waited_for_cpu_s.client} s (worst second ${s.waited_for_cpu_s.client_worst_second} s)`
      : 'waited for a core: (the server was gone)',
    `client: ${s.client.cpu_s} s CPU, event-loop delay p50 ${s.client.event_loop_delay_ms.p50} `
      + `p99 ${s.client.event_loop_delay_ms.p99} max ${s.client.event_loop_delay_ms.max} ms; `
      + `${s.messages_received} messages, ${s.mb_received} MB received`,
    s.server_died ? `SERVER DIED ${s.server_died.at_s} s into the load: `
      + `${s.server_died.code ?? s.server_died.signal}; ${s.server_stderr_lines} lines on stderr`
      : `server exit: ${s.server_exit.code ?? s.server_exit.signal} ${s.server_exit.after_ms} ms after `
      + `SIGTERM; ${s.server_stderr_lines} lines on stderr`,
  ];
  for (const line of s.server_stderr) out.push(`  stderr: ${line}`);
  console.log(out.join('\n'));
}

main().then((code) => {
  cleanUp();
  process.exit(code);
}, (e) => {
  console.error(`load.mjs: ${e.stack || e}`);
  cleanUp();
  process.exit(2);
});
