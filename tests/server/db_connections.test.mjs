// db_connections.test.mjs -- tafel serve --db-connections N (docs/server.md,
// "Commits off the loop"): its range and the settings it refuses, and a
// store whose changes commit on threads of their own.  On SQLite the default
// is 0 (every commit at once on the loop's connection); N > 0 works there too
// (each connection on the same file), which is how this file plays the
// asynchronous path without PostgreSQL -- and on PostgreSQL the same tests run
// on its pool.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join as joinPath } from 'node:path';
import {
  TAFEL, PG, startServer, stopAll, tempDir, sql, Client, createTable, seat, playOut, prng,
  fetchRecord, replayJson, sleep,
} from './helpers.mjs';

after(stopAll);

/** tafel serve with args, expected to exit at once: { code, stderr }. */
function refusedStart(args) {
  return new Promise((res) => {
    execFile(TAFEL, ['serve', '--port', '0', ...args], { timeout: 10000 }, (e, stdout, stderr) => {
      res({ code: e ? e.code : 0, stderr });
    });
  });
}

test('--db-connections: 0 to 64, and not with an in-memory database or --durable on SQLite', async () => {
  const dir = tempDir();
  for (const bad of ['65', '-1', 'eight']) {
    const r = await refusedStart(['--db', joinPath(dir, 'a.db'), '--db-connections', bad]);
    assert.equal(r.code, 2, `--db-connections ${bad}: ${r.stderr}`);
    assert.match(r.stderr, /--db-connections must be a number 0\.\.64/);
  }
  const memory = await refusedStart(['--db', ':memory:', '--db-connections', '2']);
  assert.equal(memory.code, 1, memory.stderr);
  assert.match(memory.stderr, /in-memory database is one connection's alone/);
  const durable = await refusedStart(['--db', joinPath(dir, 'b.db'), '--durable',
    '--db-connections', '2']);
  assert.equal(durable.code, 1, durable.stderr);
  assert.match(durable.stderr, /with --durable: on SQLite the log is synced for the loop's own/);
});

test('with 3 connections, people and bots play to the end, every change once and in order', async () => {
  const server = await startServer({ args: ['--db-connections', '3', '--workers', '2'] });
  const c = await Client.connect(server);
  const bots = [];
  for (let i = 0; i < 6; i++) {
    bots.push((await createTable(c, 'cardcassonne', ['random', 'greedy'], 50 + i)).table);
  }
  const people = await createTable(c, 'cardcassonne', ['human', 'human'], 60);
  c.close();
  const players = [];
  for (const token of people.tokens) players.push(await seat(server, people.table, token));
  // the people's game beside the bots': each move acknowledged once, after its state
  const { final } = await playOut(players, { rng: prng(7), timeout: 120000 });
  assert.ok(final.every((s) => s.status === 'over'));
  const ids = [...bots, people.table];
  const list = ids.map((id) => `'${id}'`).join(',');
  const deadline = Date.now() + 120000;
  const over = () => sql(server.db, `SELECT count(*) FROM tables WHERE id IN (${list})
    AND finished = 1`)[0][0];
  while (over() < ids.length) {
    assert.ok(Date.now() < deadline, 'the bots\' games end');
    await sleep(100);
  }
  for (const id of ids) {
    const [[seq]] = sql(server.db, `SELECT seq FROM tables WHERE id = '${id}'`);
    const rows = sql(server.db, `SELECT position, change_seq FROM actions WHERE table_id = '${id}'
      ORDER BY position`);
    rows.forEach(([position], k) => assert.equal(position, k, `${id}: positions in a row`));
    assert.deepEqual([...new Set(rows.map(([, cs]) => cs))], [...Array(seq).keys()],
      `${id}: the changes 0..${seq - 1}, in order`);
    const { text } = await fetchRecord(server, id);
    const replayed = await replayJson(text);
    assert.equal(replayed.terminal, true, `${id}: replays to its end`);
  }
  const stopped = await server.stop();
  assert.equal(stopped.code, 0, `stops cleanly: ${server.stderr()}`);
  if (!PG) assert.doesNotMatch(server.stderr(), /not stored|refused|in doubt/, server.stderr());
});
