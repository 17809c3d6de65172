// upgrade.test.mjs -- a database made by the schema-4 server (before the
// club: no players, no ratings) is brought up to schema 5 when the server
// opens it, and the games in it go on: the unfinished table is played to
// its end by its two seats' tokens, the finished one still gives its
// record, and a table made after the upgrade has the club's options.
// The file: fixtures/tafel-v4.db, made by fixtures/make-v4.mjs.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join as joinPath, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startServer, stopAll, Client, createTable, seat, playOut, prng, tempDir, fetchRecord, get,
  replayJson, sql, ON_PG,
} from './helpers.mjs';

after(stopAll);

const here = dirname(fileURLToPath(import.meta.url));
const fixture = JSON.parse(readFileSync(joinPath(here, 'fixtures', 'tafel-v4.json'), 'utf8'));

test('a schema-4 database is upgraded in place, and its unfinished game is played to the end', { skip: ON_PG },
async () => {
  const dir = tempDir();
  const db = joinPath(dir, 'tafel.db');
  copyFileSync(joinPath(here, 'fixtures', 'tafel-v4.db'), db);
  assert.deepEqual(sql(db, 'PRAGMA user_version'), [[4]], 'the fixture is of schema 4');
  const before = sql(db, 'SELECT id, seq, finished FROM tables ORDER BY id');

  const server = await startServer({ db });
  assert.deepEqual(sql(db, 'PRAGMA user_version'), [[7]], 'upgraded when opened');
  assert.deepEqual(sql(db, 'SELECT DISTINCT invite_until, creator_addr, invite FROM tables'
    + ' JOIN seats ON seats.table_id = tables.id'), [[null, null, 0]],
  'schema 6: no invitation waits at an old table, its creator\'s address unknown');
  for (const name of ['players', 'logins', 'chat', 'ratings', 'results', 'attempts'])
    assert.deepEqual(sql(db, `SELECT count(*) FROM ${name}`), [[0]], `${name}: made, empty`);
  assert.deepEqual(sql(db, 'SELECT id, seq, finished FROM tables ORDER BY id'), before,
    'every table as it was');
  assert.deepEqual(sql(db, 'SELECT DISTINCT rated, private, clock, player FROM tables'
    + ' JOIN seats ON seats.table_id = tables.id'), [[0, 0, null, null]],
  'old tables: unrated, open, no clock, nobody bound to a seat');

  // the finished game's record is the same game it was
  const record = await fetchRecord(server, fixture.finished);
  const replayed = await replayJson(record.text);
  assert.equal(replayed.terminal, true, 'the finished record replays to the end of its game');
  assert.equal(record.record.game, 'cardcassonne(players=2)');

  // the unfinished game goes on from its 13th change, by its seats' tokens
  const players = [await seat(server, fixture.open, fixture.tokens[0]),
    await seat(server, fixture.open, fixture.tokens[1])];
  assert.equal(players[0].state.seq, 13, 'the game is where it was');
  assert.equal(players[0].state.status, 'playing');
  const { final } = await playOut(players, { rng: prng(26) });
  assert.equal(final[0].status, 'over', 'played to its end');
  for (const p of players) p.client.close();

  // and it is stored over again: a restart finds it finished
  await server.stop();
  const again = await startServer({ db });
  const tables = JSON.parse((await get(again, '/api/tables')).body);
  const listed = tables.find((t) => t.table === fixture.open);
  assert.ok(listed, `the upgraded table is listed: ${JSON.stringify(tables).slice(0, 300)}`);
  assert.equal(listed.status, 'over');

  // a table made now carries the club's options, in the upgraded file
  const c = await Client.connect(again);
  const made = await createTable(c, 'cardcassonne(players=2)', ['human', 'greedy'], 5);
  c.close();
  assert.ok(made.table);
  assert.deepEqual(sql(db, `SELECT rated, private FROM tables WHERE id = '${made.table}'`), [[0, 0]]);
});
