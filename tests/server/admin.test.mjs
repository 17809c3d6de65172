// admin.test.mjs -- tafel admin --db FILE (issue 26): players listed,
// a password reset (from stdin and generated), disable and enable, a table
// closed (and refused while a server holds the database), and its errors.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import {
  startServer, stopAll, Client, createTable, post, signup, me, tempDir, TAFEL,
} from './helpers.mjs';

after(stopAll);

function admin(db, args, input) {
  const r = spawnSync(TAFEL, ['admin', '--db', db, ...args], { input, encoding: 'utf8', timeout: 20000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('players, reset-password, disable and enable on a server\'s database', async () => {
  const server = await startServer();
  const cookie = await signup(server, 'Anna', 'anna password');
  await post(server, '/api/guest', { name: 'Visitor' });
  const c = await Client.connect(server, { cookie });
  await createTable(c, 'cardcassonne', ['human', 'random']);
  c.close();

  let r = admin(server.db, ['players']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.match(lines[0], /^name\s+kind\s+created \(UTC\)\s+seen \(UTC\)\s+disabled\s+games$/);
  assert.ok(lines.some((l) => /^Anna\s+account\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\d{4}-.*\s+no\s+\d+$/.test(l)), r.out);
  assert.ok(lines.some((l) => /^Visitor\s+guest\s/.test(l)), r.out);

  // a new password from stdin: the old one and the logins end
  r = admin(server.db, ['reset-password', 'ANNA'], 'brand new password\n');
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(await me(server, cookie), { kind: null });
  assert.equal((await post(server, '/api/login', { name: 'Anna', password: 'anna password' })).status, 401);
  assert.equal((await post(server, '/api/login', { name: 'Anna', password: 'brand new password' })).status, 200);
  // too short: refused, nothing changed
  r = admin(server.db, ['reset-password', 'Anna'], 'short\n');
  assert.equal(r.code, 1);
  assert.match(r.err, /8 to 256 bytes/);
  // generated: printed
  r = admin(server.db, ['reset-password', 'Anna', '--generate']);
  assert.equal(r.code, 0, r.err);
  const generated = r.out.trim();
  assert.ok(generated.length >= 12, generated);
  assert.equal((await post(server, '/api/login', { name: 'Anna', password: generated })).status, 200);

  // disable: listed so, its logins end, login refused; enable undoes it
  const login = (await post(server, '/api/login', { name: 'Anna', password: generated })).cookie;
  r = admin(server.db, ['disable', 'anna']);
  assert.equal(r.code, 0, r.err);
  assert.match(admin(server.db, ['players']).out, /^Anna\s+account.*\byes\s+\d+$/m);
  assert.deepEqual(await me(server, login), { kind: null });
  assert.equal((await post(server, '/api/login', { name: 'Anna', password: generated })).status, 403);
  assert.equal(admin(server.db, ['enable', 'Anna']).code, 0);
  assert.equal((await post(server, '/api/login', { name: 'Anna', password: generated })).status, 200);

  // unknown names; a guest has no password to reset
  r = admin(server.db, ['disable', 'Nobody']);
  assert.equal(r.code, 1);
  assert.match(r.err, /no player 'Nobody'/);
  r = admin(server.db, ['reset-password', 'Visitor', '--generate']);
  assert.equal(r.code, 1);
  assert.match(r.err, /no account 'Visitor'/);
});

test('close-table: refused while a server runs, then the table ends as closed', async () => {
  const server = await startServer();
  const c = await Client.connect(server);
  const { table } = await createTable(c, 'cardcassonne', ['human', 'random']);
  c.close();
  let r = admin(server.db, ['close-table', table]);
  assert.equal(r.code, 1);
  assert.match(r.err, /running server/);
  await server.stop();
  r = admin(server.db, ['close-table', table]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`table ${table} closed`));
  r = admin(server.db, ['close-table', table]);
  assert.equal(r.code, 1);
  assert.match(r.err, /over already/);
  // the restarted server lists it finished, as closed
  const again = await startServer({ db: server.db, dir: server.dir });
  const lobby = await (await fetch(new URL('/api/tables', again.base))).json();
  const listed = JSON.stringify(lobby);
  assert.ok(listed.includes(table), listed.slice(0, 300));
  assert.ok(/"closed"/.test(listed), 'the reason is closed');
});

test('errors: a missing file, not a tafel database, bad ids, unknown commands', () => {
  const dir = tempDir('tafel-admin-');
  let r = admin(joinPath(dir, 'missing.db'), ['players']);
  assert.equal(r.code, 1);
  assert.match(r.err, /missing\.db: No such file/);
  const text = joinPath(dir, 'notes.txt');
  writeFileSync(text, 'not a database\n');
  r = admin(text, ['players']);
  assert.equal(r.code, 1);
  assert.match(r.err, /not a tafel database/);
  r = admin(text, ['close-table', 'xyz']);
  assert.equal(r.code, 2);
  assert.match(r.err, /no table id/);
  r = admin(text, ['frobnicate']);
  assert.equal(r.code, 2);
  assert.match(r.err, /unknown command/);
  r = admin(text, ['disable']);
  assert.equal(r.code, 2);
  const help = spawnSync(TAFEL, ['admin', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /reset-password NAME/);
  assert.match(spawnSync(TAFEL, ['--help'], { encoding: 'utf8' }).stdout + '', /admin/);
});
