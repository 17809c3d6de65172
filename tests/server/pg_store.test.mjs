// pg_store.test.mjs -- the store on PostgreSQL (docs/server.md, "PostgreSQL"),
// where it differs from a file: the schema created once by two servers
// starting together, an older schema upgraded, a newer one or a foreign database refused
// untouched, tafel admin never creating the schema, a PostgreSQL that is
// not there or drops the connection named in a clear error (and the next
// call reconnecting), a URI's password never printed.  Skipped without
// TAFEL_TEST_PG (scripts/test-server.sh --pg starts a cluster).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  PG, TAFEL, startServer, stopAll, newDatabase, sql, get, tempDir, sleep,
} from './helpers.mjs';

after(stopAll);

const skip = !PG && 'needs PostgreSQL: TAFEL_TEST_PG (scripts/test-server.sh --pg)';

/** tafel serve that is expected to stop at once: its status and stderr. */
function serveFails(db) {
  const r = spawnSync(TAFEL, ['serve', '--port', '0', '--db', db],
    { encoding: 'utf8', timeout: 20000 });
  return { code: r.status, signal: r.signal, err: r.stderr, out: r.stdout };
}

function admin(db, args) {
  const r = spawnSync(TAFEL, ['admin', '--db', db, ...args], { encoding: 'utf8', timeout: 20000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const ourTables = (db) => sql(db, `SELECT table_name FROM information_schema.tables
  WHERE table_schema = 'public' ORDER BY 1`).map((r) => r[0]);

test('two servers started at once on an empty database create the schema once', { skip },
  async () => {
    const db = newDatabase();
    const [a, b] = await Promise.all([startServer({ db }), startServer({ db })]);
    assert.deepEqual(sql(db, 'SELECT one, version FROM tafel_schema'), [[1, 8]]);
    assert.deepEqual(ourTables(db), ['actions', 'attempts', 'chat', 'logins', 'nodes', 'players',
      'ratings', 'results', 'seats', 'tables', 'tafel_schema']);
    // the cluster's columns are there, unused
    assert.deepEqual(sql(db, `SELECT column_name, data_type FROM information_schema.columns
      WHERE table_name = 'tables' AND column_name IN ('home', 'owner', 'owner_epoch', 'rowid')
      ORDER BY 1`),
    [['home', 'text'], ['owner', 'text'], ['owner_epoch', 'bigint'], ['rowid', 'bigint']]);
    await Promise.all([a.stop(), b.stop()]);
  });

test('a newer schema version is refused, and the database left as it was', { skip }, async () => {
  const db = newDatabase();
  const s = await startServer({ db });
  await s.stop();
  sql(db, 'UPDATE tafel_schema SET version = 99');
  const r = serveFails(db);
  assert.notEqual(r.code, 0, r.out);
  assert.match(r.err, /schema version 99; this tafel reads version 8 and older/);
  assert.equal(admin(db, ['players']).code, 1);
  assert.deepEqual(sql(db, 'SELECT version FROM tafel_schema'), [[99]]);
});

test('a database of version 6, the first PostgreSQL schema, is brought up to date', { skip },
  async () => {
      const db = newDatabase();
      const s = await startServer({ db });
      await s.stop();
      sql(db, 'DROP TABLE attempts; ALTER TABLE tables DROP COLUMN home;'
        + ' UPDATE tafel_schema SET version = 6');
      const again = await startServer({ db });
      assert.deepEqual(sql(db, 'SELECT version FROM tafel_schema'), [[8]]);
      assert.ok(ourTables(db).includes('attempts'), 'version 7 added the attempts');
      assert.deepEqual(sql(db, `SELECT count(*) FROM information_schema.columns
        WHERE table_name = 'tables' AND column_name = 'home'`), [[1]], 'version 8 the home');
      await again.stop();
    });

  test('a database with a table of our names but no tafel_schema is not ours', { skip }, () => {
    const db = newDatabase();
    sql(db, 'CREATE TABLE players (x integer)');
    const r = serveFails(db);
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.err, /not a tafel database \(it has a table "players" but no tafel_schema\)/);
    assert.deepEqual(ourTables(db), ['players'], 'nothing created');
  });

test('tafel admin on an empty database says so and creates nothing', { skip }, () => {
  const db = newDatabase();
  const r = admin(db, ['players']);
  assert.equal(r.code, 1, r.out);
  assert.match(r.err, /not a tafel database \(nothing in it\)/);
  assert.deepEqual(ourTables(db), []);
});

test('no PostgreSQL there: a clear error naming it, and the password never printed', { skip },
  () => {
    const nowhere = tempDir('tafel-nopg-');
    const r = serveFails(
      `postgresql://tafel:s3cret-word@/tafel?host=${encodeURIComponent(nowhere)}`);
    assert.notEqual(r.code, 0, r.out);
    assert.equal(r.signal, null, 'it exits by itself');
    assert.match(r.err, /cannot connect to PostgreSQL: .*No such file or directory/);
    assert.match(r.err, /postgresql:\/\/tafel:\*\*\*@\/tafel/);
    assert.ok(!r.err.includes('s3cret-word') && !r.out.includes('s3cret-word'), r.err);
  });

test('a password in the URI is not printed on the address line', { skip }, async () => {
  // trust authentication ignores the password: the server starts
  const db = newDatabase().replace('postgresql://tafel@', 'postgresql://tafel:s3cret-word@');
  const s = await startServer({ db });
  assert.ok(!s.stdout().includes('s3cret-word'), s.stdout());
  assert.match(s.dbPrinted, /^postgresql:\/\/tafel:\*\*\*@\//);
  await s.stop();
});

test('a connection PostgreSQL drops: a read that finds it gone is sent again on a new connection',
  { skip }, async () => {
    const db = newDatabase();
    const s = await startServer({ db });
    assert.equal((await get(s, '/api/players/nobody')).status, 404);
    const name = db.match(/\/([^/?]+)\?/)[1];
    // the profile is read on a connection of the pool (docs/server.md,
    // "Commits off the loop"): every one of the server's is cut
    const sessions = () => sql(db, `SELECT pid FROM pg_stat_activity
      WHERE datname = '${name}' AND application_name LIKE 'tafel serve%'`).map((r) => r[0]);
    const before = sessions();
    assert.ok(before.length > 1, 'the loop and the pool have sessions');
    for (const pid of before) sql(db, `SELECT pg_terminate_backend(${pid}, 5000)`);
    // a read did nothing yet when it finds the connection gone: answered
    const read = await get(s, '/api/players/nobody');
    assert.equal(read.status, 404, read.body);
    const after = sessions();
    assert.ok(after.length >= 1, 'a session again');
    assert.ok(after.every((pid) => !before.includes(pid)), 'new ones');
    await s.stop();
  });
