// bots_budget.test.mjs -- bots cannot starve each other or the shutdown
// (issue 25, defect 4).
//
// Seats such as `mcts:iters=100000000` or `hard:iters=100000000` once held
// both bot threads for hours: another table's `random` bot did not move,
// SIGTERM did not stop the server; 200 hints from one seat did the same.
// Here the server caps every search (--bot-ms, --hint-ms), takes one hint
// per seat at a time, and stops its searches at shutdown.  Such seats are
// refused at create since issue 35 (bots_fair.test.mjs): these tests lift
// that cap (--max-bot-iters 0) to see the time cap cut them.  --max-rate
// 10000: the per-socket rate limit is not what is tested here.  Timings are
// loose: the machine may be busy.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startServer, stopAll, Client, createTable, join, sleep,
} from './helpers.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const GAME = 'carcassonne';
const BIG = ['mcts:iters=100000000', 'hard:iters=100000000'];
const NO_ITERS_CAP = ['--max-bot-iters', '0'];

after(stopAll);

/** Creates a table of seats (seat 0 moves first) and watches it:
 * { id, tokens, watcher, asked (ms), first (the state when joined) }. */
async function watched(server, seats, game = GAME) {
  const c = await Client.connect(server);
  const asked = Date.now();
  const created = await createTable(c, game, seats, 1);
  c.close();
  const watcher = await Client.connect(server);
  const first = await join(watcher, created.table);
  return { id: created.table, tokens: created.tokens, watcher, asked, first };
}

/** Ms from the table's creation until its first move arrives (a state at
 * a later seq with seat 0 no longer to move), or null within timeout. */
async function firstMove(t, timeout) {
  if (t.first.to_move !== 0) return 0; // moved before the watcher joined
  try {
    await t.watcher.next((m) => m.type === 'state' && m.seq > t.first.seq && m.to_move !== 0,
      { timeout });
    return Date.now() - t.asked;
  } catch {
    return null;
  }
}

test('a random bot moves within seconds while two tables ask for hours-long searches, '
  + 'and those are cut at --bot-ms', async (t) => {
  const server = await startServer({
    args: ['--workers', '2', '--bot-ms', '1000', '--max-rate', '10000', ...NO_ITERS_CAP],
  });
  const big = [];
  for (const spec of BIG) big.push(await watched(server, [spec, 'human']));
  await sleep(100); // both threads are searching now
  const small = await watched(server, ['random', 'human']);
  const randomMs = await firstMove(small, 5000);
  assert.ok(randomMs !== null, 'the random bot did not move in 5 s');
  assert.ok(randomMs < 4000, `the random bot moved after ${randomMs} ms`);
  for (let i = 0; i < big.length; i++) {
    const ms = await firstMove(big[i], 8000);
    assert.ok(ms !== null, `${BIG[i]} did not move in 8 s under --bot-ms 1000`);
    assert.ok(ms >= 900 && ms < 5000, `${BIG[i]} moved after ${ms} ms, not about 1 s`);
    t.diagnostic(`${BIG[i]} moved after ${ms} ms`);
  }
  t.diagnostic(`random moved after ${randomMs} ms`);
  for (const table of [...big, small]) table.watcher.close();
  await server.stop();
});

test('200 hints from one seat: one hint, "busy" for the rest, and other tables '
  + 'still move promptly', async () => {
  const server = await startServer({
    args: ['--workers', '2', '--bot-ms', '1000', '--hint-ms', '2000', '--max-rate', '10000'],
  });
  // a position with a choice that takes "hard" about a second (Carcassonne's
  // first decision has one legal action: its hint comes at once)
  const t = await watched(server, ['human', 'random'], 'catan_cards');
  const me = await Client.connect(server);
  const s = await join(me, t.id, t.tokens[0]);
  assert.equal(s.to_move, 0, 'the person moves first');
  for (let i = 0; i < 200; i++) me.send({ type: 'hint' });
  const small = await watched(server, ['random', 'human']);
  const randomMs = await firstMove(small, 5000);
  assert.ok(randomMs !== null && randomMs < 4000,
    `the random bot at another table moved after ${randomMs ?? 'more than 5000'} ms`);
  const answers = [];
  const deadline = Date.now() + 10000;
  while (answers.length < 200 && Date.now() < deadline) {
    answers.push(await me.next(['hint', 'error'], { timeout: deadline - Date.now() }));
  }
  const hints = answers.filter((m) => m.type === 'hint').length;
  const busy = answers.filter((m) => m.type === 'error' && m.code === 'busy');
  const other = answers.filter((m) => m.type === 'error' && m.code !== 'busy');
  assert.equal(answers.length, 200, `only ${answers.length} of 200 hint requests answered`);
  assert.deepEqual(other, [], 'no other errors');
  assert.equal(hints, 1, `${hints} hints for 200 requests sent at once`);
  assert.equal(busy.length, 199);
  assert.match(busy[0].message, /hint/);
  // the hint answered, the seat may ask again
  me.send({ type: 'hint' });
  const again = await me.next(['hint', 'error'], { timeout: 8000 });
  assert.equal(again.type, 'hint', JSON.stringify(again));
  me.close();
  t.watcher.close();
  small.watcher.close();
  await server.stop();
});

/** The pids of the programs whose command line holds marker. */
function programs(marker) {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n')
      .filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

test('SIGTERM with hours-long searches and a silent external bot running: the server '
  + 'exits 0 within 2 s', async (t) => {
  const marker = `tafel-budget-test-${process.pid}-${Date.now()}`;
  const server = await startServer({
    args: ['--workers', '3', '--bot-ms', '600000', '--hint-ms', '600000', ...NO_ITERS_CAP,
      '--ext', `hang=python3 ${ROOT}/tests/ext/misbehave.py hang ${marker},ms=3600000`],
  });
  // a server that did not stop is SIGKILLed: its program would outlive it
  t.after(() => programs(marker).forEach((pid) => {
    try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
  }));
  const tables = [];
  for (const spec of [...BIG, 'ext:hang']) tables.push(await watched(server, [spec, 'human']));
  await sleep(1500); // the program has greeted and waits on its turn; the searches run
  for (const table of tables) table.watcher.close();
  assert.ok(programs(marker).length > 0, 'the external program runs');
  const started = Date.now();
  server.proc.kill('SIGTERM');
  const timer = setTimeout(() => server.proc.kill('SIGKILL'), 10000);
  const { code, signal } = await server.exited;
  clearTimeout(timer);
  const ms = Date.now() - started;
  assert.equal(signal, null, `killed by ${signal} after ${ms} ms: SIGTERM did not stop it`);
  assert.equal(code, 0);
  assert.ok(ms < 2000, `the server took ${ms} ms to stop`);
  // the exit may come before the last of its output: read to the end
  await new Promise((res) => {
    if (server.proc.stderr.readableEnded) return res();
    server.proc.stderr.once('end', res);
    setTimeout(res, 2000);
  });
  const m = server.stderr().match(/the bot threads stopped in (\d+) ms/);
  assert.ok(m, `no line on the bot threads' stop: ${server.stderr()}`);
  assert.ok(Number(m[1]) < 1000, `botpool_stop took ${m[1]} ms`);
  t.diagnostic(`exit after ${ms} ms; the bot threads stopped in ${m[1]} ms`);
  await sleep(200);
  assert.deepEqual(programs(marker), [], 'no external program outlives the server');
});

test('SIGTERM while an external program has not said hello yet: the server exits within '
  + '2 s, not after the 10 s a hello may take', async (t) => {
  const marker = `tafel-mute-test-${process.pid}-${Date.now()}`;
  const server = await startServer({
    args: ['--workers', '2', '--ext', `mute=python3 ${ROOT}/tests/ext/misbehave.py mute ${marker}`],
  });
  t.after(() => programs(marker).forEach((pid) => {
    try { process.kill(Number(pid), 'SIGKILL'); } catch { /* gone */ }
  }));
  const table = await watched(server, ['ext:mute', 'human']);
  // the program runs and the worker waits for a hello that never comes
  const deadline = Date.now() + 5000;
  while (programs(marker).length === 0 && Date.now() < deadline) await sleep(50);
  assert.ok(programs(marker).length > 0, 'the external program started');
  await sleep(300);
  table.watcher.close();
  const started = Date.now();
  server.proc.kill('SIGTERM');
  const timer = setTimeout(() => server.proc.kill('SIGKILL'), 15000);
  const { code, signal } = await server.exited;
  clearTimeout(timer);
  const ms = Date.now() - started;
  assert.equal(signal, null, `killed by ${signal} after ${ms} ms: SIGTERM did not stop it`);
  assert.equal(code, 0);
  assert.ok(ms < 2000, `the server took ${ms} ms to stop: ${server.stderr()}`);
  t.diagnostic(`exit after ${ms} ms`);
  await sleep(200);
  assert.deepEqual(programs(marker), [], 'no external program outlives the server');
});
