// chat.test.mjs -- the chat at a table (docs/protocol.md, "chat"): lines
// are stored with the table and survive kill -9; markup is kept as text;
// lengths and one line of text; a rate per person; spectators' lines are
// kept from the players; a line reaches its own table only; a socket that
// joins gets the latest lines it may read.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAll, Client, createTable, join, seat, refused, identity,
  connectAs, sleep, sql } from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

const GAME = 'carcassonne(players=2)';

async function table(seed) {
  const c = await Client.connect(server);
  const created = await createTable(c, GAME, ['human', 'human'], seed);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  const p1 = await seat(server, created.table, created.tokens[1]);
  return { created, p0: p0.client, p1: p1.client };
}

/** Says text on client; the line as a listener receives it. */
async function say(client, text, listener = client) {
  client.send({ type: 'chat', text });
  const m = await listener.next((x) => x.type === 'chat' && x.lines.some((l) => l.text === text.trim()));
  return m.lines.find((l) => l.text === text.trim());
}

test('a line is told to the table, stored, and survives kill -9', async () => {
  const { created, p0, p1 } = await table(11);
  const markup = '<img src=x onerror=alert(1)> & "quotes" <b>bold</b>';
  const line = await say(p0, `  ${markup}  `, p1);
  assert.equal(line.text, markup, 'kept as text, trimmed');
  assert.equal(line.seat, 0);
  assert.equal(line.player, null, 'a client without a login: no player, its seat says who');
  assert.equal(typeof line.n, 'number');
  assert.ok(Math.abs(line.at - Date.now()) < 60000);
  await say(p1, 'second line');
  p0.close(); p1.close();
  await server.kill9();
  server = await startServer({ dir: server.dir, db: server.db });
  const again = await Client.connect(server);
  again.send({ type: 'join', table: created.table, token: created.tokens[1] });
  const hist = await again.next('chat');
  assert.deepEqual(hist.lines.map((l) => l.text), [markup, 'second line']);
  assert.ok(hist.lines[1].n > hist.lines[0].n);
  again.close();
});

test('lengths, one line of text, and who may speak', async () => {
  const { p0, p1 } = await table(12);
  for (const text of ['', '    ', 'x'.repeat(501), 'two\nlines', 'tab\there', 'bell\u0007',
    'turn\u202earound'])
    await refused(p0, { type: 'chat', text }, 'bad_chat');
  await refused(p0, { type: 'chat', text: 5 }, 'malformed');
  await refused(p0, { type: 'chat' }, 'malformed');
  const long = 'é'.repeat(250); // 500 bytes
  assert.equal((await say(p0, long, p1)).text, long);
  const alone = await Client.connect(server);
  await refused(alone, { type: 'chat', text: 'hi' }, 'not_seated');
  for (const c of [p0, p1, alone]) c.close();
});

test('a socket says at most 5 lines in 10 seconds', async () => {
  const { p0, p1 } = await table(13);
  for (let i = 0; i < 5; i++) await say(p0, `line ${i}`, p1);
  const e = await refused(p0, { type: 'chat', text: 'one too many' }, 'chat_too_fast');
  assert.match(e.message, /5/);
  // another socket has its own allowance
  await say(p1, 'still free', p0);
  p0.close(); p1.close();
});

test("spectators' lines reach spectators only; players' reach everyone; history per viewer",
  async () => {
    const { created, p0, p1 } = await table(14);
    const kib = await connectAs(server, await identity(server, 'Kibitzer'));
    const w = await join(kib, created.table);
    assert.equal(w.seat, null);
    const anon = await Client.connect(server);
    await join(anon, created.table);
    await refused(anon, { type: 'chat', text: 'hello' }, 'no_identity');
    const spec = await say(kib, 'play the farm!', anon);
    assert.equal(spec.seat, null);
    assert.equal(spec.name, 'Kibitzer');
    assert.equal(spec.player, 'guest');
    const fromPlayer = await say(p0, 'good luck', kib);
    assert.equal(fromPlayer.seat, 0);
    await anon.next((x) => x.type === 'chat' && x.lines.length === 1 && x.lines[0].text === 'good luck');
    await p1.next((x) => x.type === 'chat' && x.lines.length === 1 && x.lines[0].text === 'good luck');
    await sleep(200);
    for (const c of [p0, p1])
      assert.ok(!c.messages.some((x) => x.type === 'chat' && x.lines.some((l) => l.seat === null)),
        'a player never gets a spectator\'s line');
    // history: a player's new socket gets the players' lines, a spectator's all
    const p0b = await Client.connect(server);
    p0b.send({ type: 'join', table: created.table, token: created.tokens[0] });
    assert.deepEqual((await p0b.next('chat')).lines.map((l) => l.text), ['good luck']);
    const anon2 = await Client.connect(server);
    anon2.send({ type: 'join', table: created.table });
    assert.deepEqual((await anon2.next('chat')).lines.map((l) => l.text),
      ['play the farm!', 'good luck']);
    for (const c of [p0, p1, kib, anon, p0b, anon2]) c.close();
  });

test('a line reaches its own table only; history is the latest 100 lines', async () => {
  const a = await table(15);
  const b = await table(16);
  const secret = 'only for table A';
  await say(a.p0, secret, a.p1);
  await sleep(200);
  assert.ok(!b.p0.raw.some((x) => x.includes(secret)) && !b.p1.raw.some((x) => x.includes(secret)));
  const late = await Client.connect(server);
  await join(late, b.created.table, b.created.tokens[0]);
  await late.request({ type: 'ping' }, 'pong');
  assert.ok(!late.messages.some((x) => x.type === 'chat'), 'no lines at table B: no chat message');
  // 110 lines from 22 sockets of seat 0 (5 each, the rate per socket)
  const sockets = [];
  for (let k = 0; k < 22; k++)
    sockets.push((await seat(server, a.created.table, a.created.tokens[0])).client);
  for (let k = 0; k < 22; k++)
    for (let i = 0; i < 5; i++) sockets[k].send({ type: 'chat', text: `s${k} l${i}` });
  const told = () => a.p1.messages.filter((x) => x.type === 'chat' && x.lines.length === 1 && /^s\d+ l\d$/.test(x.lines[0].text)).length;
  for (let waited = 0; told() < 110; waited += 50) {
    assert.ok(waited < 15000, `${told()} of 110 lines told`);
    await sleep(50);
  }
  const viewer = await Client.connect(server);
  viewer.send({ type: 'join', table: a.created.table });
  const hist = await viewer.next('chat');
  assert.equal(hist.lines.length, 100);
  const ns = hist.lines.map((l) => l.n);
  assert.deepEqual(ns, [...ns].sort((x, y) => x - y), 'oldest first');
  assert.equal(ns[99], 111, 'the latest line is the last');
  for (const c of [...sockets, a.p0, a.p1, b.p0, b.p1, late, viewer]) c.close();
});

// Issue 35, defect 4: 38 spectator sockets of one account, each with its
// own rate, filled the table's 1,000 lines, and the seated player got
// chat_full.  The rate is the person's; players' and spectators' lines are
// counted apart.
test('spectators cannot close the players\' chat; one person\'s sockets share one rate',
  async () => {
    const { created, p0, p1 } = await table(15);
    const fan = await identity(server, 'Fan');
    const fans = [];
    for (let i = 0; i < 38; i++) {
      const c = await connectAs(server, fan);
      await join(c, created.table);
      fans.push(c);
    }
    for (let i = 0; i < 5; i++) await say(fans[i], `cheer ${i}`, fans[37]);
    for (const c of fans.slice(5, 12))
      await refused(c, { type: 'chat', text: 'more' }, 'chat_too_fast');
    // the spectators' side full (as 200 people of 5 lines each would fill it)
    sql(server.db, `INSERT INTO chat (table_id, n, player, name, seat, at, text)
      WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 995)
      SELECT '${created.table}', 100 + i, NULL, 'someone', -1, 0, 'noise' FROM k`);
    const other = await connectAs(server, await identity(server, 'Other fan'));
    await join(other, created.table);
    const full = await refused(other, { type: 'chat', text: 'one more' }, 'chat_full');
    assert.match(full.message, /spectators/);
    const line = await say(p0, 'we can still talk', p1);
    assert.equal(line.seat, 0, 'a seated player still speaks');
    for (const c of [p0, p1, other, ...fans]) c.close();
  });
