// durable.test.mjs -- --durable syncs off the event loop (src/server/store/syncer.c):
// commits are synced by a writer thread, many at once (group commit), and
// nobody is told of a change before it is synced (docs/protocol.md, "Order
// of a change").
//
// The first test runs the server under strace, which makes every fsync and
// fdatasync take SYNC_MS longer (strace's inject=...:delay_exit): 20 tables
// playing at once; every move is acknowledged and broadcast; no ack and no
// broadcast arrives sooner than SYNC_MS after its move was sent (the messages
// wait for the sync); the syncs are far fewer than the commits; and HTTP
// requests are answered meanwhile (the loop never waits for a sync).  Where
// strace is missing (or may not trace) that test is skipped, and so is the
// one that checks the lobby (/api/tables) waits for the sync as well.  The
// others: kill -9 right after acks keeps every acknowledged move; SIGTERM
// leaves no log file (the database file alone holds everything); under a
// steady stream of moves the log stays near 1000 pages (the thread's
// checkpoints).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, copyFileSync, readdirSync, statSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import {
  TAFEL, TIMEOUT, startServer, stopAll, Client, seat, watchedTable, twoPeople, playOut, prng,
  tempDir, history, get, sleep, ON_PG,
} from './helpers.mjs';

const SYNC_MS = 150;           // what strace adds to every sync
// strace there, and allowed to trace (some containers forbid ptrace)
const HAVE_STRACE = spawnSync('strace', ['-o', '/dev/null', '-e', 'trace=fdatasync',
  '-e', 'inject=fdatasync:delay_exit=1', 'true']).status === 0;
const traced = new Set();

after(async () => {
  for (const t of traced) {
    try { process.kill(t.pid, 'SIGKILL'); } catch { /* gone */ }
    try { t.strace.kill('SIGKILL'); } catch { /* gone */ }
  }
  await stopAll();
});

/**
 * `tafel serve` under `strace -f`, each fsync/fdatasync delayed by SYNC_MS:
 * { base, pid (the server's), dir, db, log (strace's file), stop(signal) }.
 */
async function startTraced(args) {
  const dir = tempDir();
  const db = joinPath(dir, 'tafel.db');
  const log = joinPath(dir, 'strace.log');
  const strace = spawn('strace', ['-f', '-y', '-o', log, '-e', 'trace=fdatasync,fsync',
    '-e', `inject=fdatasync,fsync:delay_exit=${SYNC_MS * 1000}`,
    TAFEL, 'serve', '--port', '0', '--db', db, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // LeakSanitizer cannot run under ptrace (a sanitizer build)
    env: { ...process.env, ASAN_OPTIONS: `${process.env.ASAN_OPTIONS || ''}:detect_leaks=0` },
  });
  const exited = new Promise((res) => strace.on('exit', (code, signal) => res({ code, signal })));
  let out = '', err = '';
  strace.stderr.setEncoding('utf8');
  strace.stderr.on('data', (d) => { err += d; });
  strace.stdout.setEncoding('utf8');
  const base = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`no address in ${TIMEOUT} ms: ${err}`)), TIMEOUT);
    strace.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^tafel serve: (http:\/\/[^\s/]+\/) /m);
      if (m) { clearTimeout(timer); res(m[1]); }
    });
    exited.then((e) => { clearTimeout(timer); rej(new Error(`exited ${JSON.stringify(e)}: ${err}`)); });
  });
  // The server is strace's child.
  const children = readFileSync(`/proc/${strace.pid}/task/${strace.pid}/children`, 'utf8').trim();
  const pid = Number(children.split(/\s+/)[0]);
  assert.ok(pid > 0, `the server's pid (children of strace: '${children}')`);
  const t = { base, pid, dir, db, log, strace, stderr: () => err };
  traced.add(t);
  t.stop = async (signal = 'SIGTERM') => {
    process.kill(pid, signal);
    const timer = setTimeout(() => { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } },
      10000);
    const r = await exited;
    clearTimeout(timer);
    traced.delete(t);
    return r;
  };
  return t;
}

/** The syncs strace saw: [{ file }] (one per call). */
function syncsOf(log) {
  const syncs = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const m = line.match(/\b(?:fdatasync|fsync)\(\d+(?:<([^>]*)>)?/);
    if (m) syncs.push({ file: m[1] || '?' });
  }
  return syncs;
}

/** Plays tables (each { players, sockets }) at random for ms, all at once;
** every move's send -> ack and send -> broadcast times. */
async function playAll(tables, ms, seed) {
  const deadline = Date.now() + ms;
  const acks = [];
  const broadcasts = [];
  let commits = 0;
  await Promise.all(tables.map(async (t, k) => {
    let sentAt = 0;
    const sent = new Map(); // seq after the move -> when it was sent
    // Every socket of the table (the other player, the spectator) sees the
    // state of each move no sooner than the move was sent + a sync.
    for (const { client } of t.sockets) {
      client.ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.type === 'state' && sent.has(m.seq)) broadcasts.push(Date.now() - sent.get(m.seq));
      });
    }
    const { final, moves } = await playOut(t.players, {
      rng: prng(seed + k),
      timeout: ms + 30000,
      beforeMove: (j, s) => { sentAt = Date.now(); sent.set(s.seq + 1, sentAt); },
      onAck: () => { acks.push(Date.now() - sentAt); },
      until: () => Date.now() > deadline,
    });
    commits += moves;
    t.final = final;
  }));
  return { acks, broadcasts, commits };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1,
  Math.floor(q * xs.length))];

test('--durable, 20 tables at once: acks and broadcasts wait for a sync, one sync covers many '
  + 'commits, the loop never waits for the disk', { skip: ON_PG || (!HAVE_STRACE && 'no strace') },
async () => {
  const server = await startTraced(['--durable', '--max-per-address', '0', '--workers', '1']);
  const tables = [];
  for (let i = 0; i < 20; i++) {
    const specs = i % 4 === 3 ? ['human', 'random'] : ['human', 'human'];
    tables.push(await watchedTable(server, 'catan_cards', specs, 100 + i));
  }
  const syncsBefore = syncsOf(server.log).length;
  // HTTP meanwhile: the loop answers while syncs run on the other thread.
  let playing = true;
  const http = [];
  const asking = (async () => {
    while (playing) {
      const t0 = Date.now();
      const r = await get(server, '/api/games');
      assert.equal(r.status, 200);
      http.push(Date.now() - t0);
      await sleep(50);
    }
  })();
  const { acks, broadcasts, commits } = await playAll(tables, 4000, 40);
  playing = false;
  await asking;
  await sleep(2 * SYNC_MS + 200); // the last broadcasts
  const syncs = syncsOf(server.log).slice(syncsBefore);
  for (const t of tables) {
    // broadcast: the spectator got the players' latest state
    const newest = Math.max(...t.final.map((s) => s.seq));
    const seen = await t.watcher.latestState(newest);
    // (at least: a bot table's bot may have moved on since the people stopped)
    assert.ok(seen.seq >= newest, `the spectator saw every move: ${seen.seq} < ${newest}`);
  }
  const exit = await server.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());

  const shown = `${commits} moves, ${syncs.length} syncs; ack p50 ${quantile(acks, 0.5)} ms, `
    + `min ${Math.min(...acks)} ms; broadcast min ${Math.min(...broadcasts)} ms; `
    + `HTTP p50 ${quantile(http, 0.5)} ms (${http.length} requests)`;
  console.log(shown);
  // The loop answers HTTP without waiting for the disk (with a sync on the
  // loop, a request waits for the commits queued before it).
  assert.ok(quantile(http, 0.5) < SYNC_MS / 2, `HTTP waited for syncs: ${shown}`);
  assert.ok(commits >= 100, `enough moves to say anything: ${shown}`);
  // Nobody is told before the sync: each ack and broadcast comes a whole
  // (delayed) sync after its move was sent.
  assert.ok(Math.min(...acks) >= SYNC_MS - 5, `an ack came before a sync could end: ${shown}`);
  assert.ok(Math.min(...broadcasts) >= SYNC_MS - 5,
    `a state was broadcast before a sync could end: ${shown}`);
  // Group commit: at least one sync, far fewer than the commits.
  assert.ok(syncs.length >= 1, `no sync at all: ${shown}`);
  assert.ok(syncs.length * 3 <= commits, `about a sync per commit: ${shown}`);
  assert.ok(syncs.some((s) => s.file.endsWith('-wal')), `the log is synced: ${JSON.stringify(syncs.slice(0, 5))}`);
});

test('--durable: kill -9 right after acks, many tables at once, keeps every acknowledged move',
  async () => {
    const dir = tempDir();
    let server = await startServer({ dir, args: ['--durable', '--max-per-address', '0'] });
    const tables = [];
    for (let i = 0; i < 10; i++) {
      tables.push({ ...await twoPeople(server, 'catan_cards', 200 + i), acked: [] });
    }
    const deadline = Date.now() + 1500;
    let killed = false;
    await Promise.all(tables.map((t, k) => playOut(t.players, {
      rng: prng(300 + k),
      onAck: (j, action, before) => t.acked.push({ index: before.actions, seat: j, text: action }),
      until: () => killed || Date.now() > deadline,
    }).catch((e) => {
      if (!killed) throw e; // the sockets of the killed server
    }).then(async () => {
      if (!killed) { killed = true; await server.kill9(); }
    })));
    const total = tables.reduce((n, t) => n + t.acked.length, 0);
    assert.ok(total >= 20, `only ${total} acknowledged moves`);
    server = await startServer({ dir, args: ['--durable'] });
    for (const t of tables) {
      for (let s = 0; s < 2; s++) {
        const back = await seat(server, t.created.table, t.created.tokens[s]);
        const h = await history(back.client);
        for (const { index, seat: who, text } of t.acked) {
          if (who !== s) continue; // each seat sees its own texts whole
          assert.ok(h.actions[index], `table ${t.created.table}: acknowledged action ${index} lost`);
          assert.equal(h.actions[index].seat, who);
          assert.equal(h.actions[index].text, text);
        }
        back.client.close();
      }
    }
  });

test('--durable: SIGTERM folds the log into the database file and removes it', { skip: ON_PG },
async () => {
  const dir = tempDir();
  const server = await startServer({ dir, args: ['--durable'] });
  const { created, players } = await watchedTable(server, 'catan_cards', ['human', 'human'], 7);
  // both seats hold the latest state (the mover's ack comes before the other's state)
  const { final } = await playOut(players, { rng: prng(7),
    until: (latest, moves) => moves >= 30 && latest.every((s) => s.seq === latest[0].seq) });
  assert.ok(existsSync(`${server.db}-wal`), 'a log while running');
  const exit = await server.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
  const left = readdirSync(dir).filter((f) => /-(wal|shm)$/.test(f));
  assert.deepEqual(left, [], 'no -wal or -shm file after a clean stop');
  // The database file alone holds every move.
  const copy = tempDir();
  copyFileSync(server.db, joinPath(copy, 'tafel.db'));
  const again = await startServer({ dir: copy, args: ['--durable'] });
  const back = await seat(again, created.table, created.tokens[0]);
  assert.equal(back.state.seq, final[0].seq, 'every move in the database file');
  back.client.close();
});

test('--durable: the syncing thread folds the log into the database as it grows (from 1000 '
  + 'pages)', { skip: ON_PG }, async () => {
  const server = await startServer({ args: ['--durable', '--max-per-address', '0'] });
  const tables = [];
  for (let i = 0; i < 10; i++) tables.push((await twoPeople(server, 'catan_cards', 500 + i)).players);
  // Each move writes two or three pages to the log: 2,000 moves, over
  // 4,000 pages without checkpoints.
  let moves = 0, biggest = 0;
  const sample = setInterval(() => {
    try { biggest = Math.max(biggest, statSync(`${server.db}-wal`).size); } catch { /* none */ }
  }, 100);
  await Promise.all(tables.map((players, k) => playOut(players, {
    rng: prng(500 + k), timeout: 60000, onAck: () => { moves++; },
    until: () => moves >= 2000,
  })));
  clearInterval(sample);
  biggest = Math.max(biggest, statSync(`${server.db}-wal`).size);
  const pages = Math.round(biggest / (4096 + 24));
  // Not 1000 exactly: a PASSIVE checkpoint copies the frames it saw, and
  // the log starts again only once nothing is left to copy, so while moves
  // keep arriving during one (a loaded machine: ctest -j2) the log runs on
  // to the next.  Without checkpoints it would pass 4,000.
  assert.ok(pages < 3000, `the log grew to ${pages} pages in ${moves} moves`);
  const exit = await server.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
});

test('--durable: HTTP tells of a change no sooner than the sockets do (the lobby waits for the '
  + 'sync too)', { skip: ON_PG || (!HAVE_STRACE && 'no strace') }, async () => {
  const server = await startTraced(['--durable']);
  const c = await Client.connect(server);
  for (let round = 0; round < 3; round++) {
    const sentAt = Date.now();
    c.send({ type: 'create', game: 'catan_cards', seats: ['human', 'human'] });
    // GETs while the commit of the new table is being synced
    const seen = [];
    let created = null;
    const gets = (async () => {
      while (!created && Date.now() - sentAt < 5000) {
        const asked = Date.now() - sentAt;
        const r = await get(server, '/api/tables');
        assert.equal(r.status, 200);
        seen.push({ asked, at: Date.now() - sentAt, body: r.body });
        await sleep(10);
      }
    })();
    created = await c.next(['created', 'error'], { timeout: 10000 });
    await gets;
    assert.equal(created.type, 'created', JSON.stringify(created));
    const early = seen.filter((g) => g.body.includes(created.table) && g.at < SYNC_MS - 5);
    assert.deepEqual(early.map((g) => g.at), [], 'the lobby listed the table before the sync');
    assert.ok(seen.some((g) => g.asked < SYNC_MS / 2), 'a request during the sync');
  }
  c.close();
  const exit = await server.stop('SIGTERM');
  assert.deepEqual(exit, { code: 0, signal: null }, server.stderr());
});
