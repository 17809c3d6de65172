// rematch.test.mjs -- a rematch (docs/protocol.md, "rematch"): at a
// finished table a player offers it, the other people accept (bots need
// not) or decline, the asker may withdraw, and the offer ends when the
// asker leaves.  Once all accepted, a new table is made with the same game
// and options, the seats turned by one (seat i's player at seat i + 1 mod
// n, bots keep their specs), a deal of the server's; every old seat's
// sockets are sent their new seat and its token; asked again it is the
// same table.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, stopAll, Client, createTable, join, seat, change, refused } from './helpers.mjs';

let server;
before(async () => { server = await startServer({ chosenSeeds: false }); });
after(stopAll);

test('rematch: same players, seats turned, a new deal, idempotent, tokens', async () => {
  const game = 'carcassonne(players=3)';
  const c = await Client.connect(server);
  const m = await c.request({ type: 'create', game, seats: ['human', 'human', 'easy'],
    private: true }, ['created', 'error']);
  assert.equal(m.type, 'created', JSON.stringify(m));
  c.close();
  const p0 = await seat(server, m.table, m.tokens[0]);
  const p1 = await seat(server, m.table, m.tokens[1]);
  await refused(p0.client, { type: 'rematch' }, 'not_over');
  const watcher = await Client.connect(server);
  // private: no spectator; a client holding no seat is refused
  await refused(watcher, { type: 'rematch' }, 'not_seated');
  // the two people resign: the game is over
  await change(p1.client, { type: 'resign', seq: p1.state.seq });
  let s;
  s = await p0.client.next((x) => x.type === 'state' && x.seats[1].resigned);
  const over = (await change(p0.client, { type: 'resign', seq: s.seq })).state;
  assert.equal(over.status, 'over');
  // p1 watches now (resigned): its socket sat in seat 1 and may still ask;
  // asking offers the rematch, told to everyone in the state, made by nobody yet
  await refused(p0.client, { type: 'rematch', decline: true }, 'no_offer');
  await refused(p0.client, { type: 'rematch', decline: 'yes' }, 'malformed');
  p1.client.send({ type: 'rematch' });
  const offered = await p0.client.next((x) => x.type === 'state' && x.rematch_offer);
  assert.deepEqual(offered.rematch_offer, { from: 1, accepted: [1], waiting: [0] },
    'the bot of seat 2 need not answer');
  assert.equal(offered.rematch, undefined, 'no table before everyone accepted');
  assert.ok(!p1.client.queue.some((x) => x.type === 'rematch'));
  // p0 accepts (the same message): now it is made
  p0.client.send({ type: 'rematch' });
  const r1 = await p1.client.next('rematch');
  assert.equal(r1.seat, 2, 'seat 1 moves to seat 2');
  assert.match(r1.token, /^[0-9a-f]{32}$/);
  const r0 = await p0.client.next('rematch');
  assert.equal(r0.table, r1.table);
  assert.equal(r0.seat, 1);
  assert.notEqual(r0.token, r1.token);
  const old = await p0.client.next((x) => x.type === 'state' && x.rematch);
  assert.equal(old.rematch, r1.table, 'the old table names its rematch');
  // asked again (by the other player): the same table, the same token
  p0.client.send({ type: 'rematch' });
  const again = await p0.client.next('rematch');
  assert.deepEqual(again, r0);
  // the new table: same game and options, the bot at seat 0, a new deal
  p1.client.queue.length = 0; // the old table's states
  const n1 = await join(p1.client, r1.table, r1.token);
  assert.equal(n1.seat, 2);
  assert.equal(n1.game, game);
  assert.equal(n1.private, true);
  assert.deepEqual(n1.seats.map((x) => x.kind), ['bot', 'human', 'human']);
  assert.equal(n1.seats[0].bot, 'easy');
  p0.client.queue.length = 0;
  const n0 = await join(p0.client, r0.table, r0.token);
  assert.equal(n0.seat, 1);
  // a new deal: once it ends, the records differ in their seeds (server-chosen both)
  for (const p of [p1, p0]) {
    for (;;) {
      const h = await p.client.request({ type: 'history' }, 'history');
      const r = await p.client.request({ type: 'resign', seq: h.seq }, ['ack', 'error']);
      if (r.type === 'ack') break;
      assert.equal(r.code, 'stale', JSON.stringify(r)); // the bot moved meanwhile
    }
  }
  // a private table's record is its players' (a seat link will do)
  const rec = async (t, token) =>
    (await (await fetch(`${server.base}t/${t}/record?token=${token}`)).text());
  const seedOf = (text) => (text.match(/seed\D*(\d+)/) || [])[1];
  const [a, b] = [seedOf(await rec(m.table, m.tokens[0])), seedOf(await rec(r1.table, r1.token))];
  assert.ok(a && b && a !== b, `seeds ${a} and ${b}`);
  for (const x of [p0.client, p1.client, watcher]) x.close();
});

test('rematch of a two-person table: the other moves first', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human']);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  const p1 = await seat(server, created.table, created.tokens[1]);
  const s = p0.state;
  await change(p1.client, { type: 'resign', seq: s.seq });
  await p0.client.next((x) => x.type === 'state' && x.status === 'over');
  p0.client.send({ type: 'rematch' });
  await p1.client.next((x) => x.type === 'state' && x.rematch_offer);
  p1.client.send({ type: 'rematch' });
  const r0 = await p0.client.next('rematch');
  const r1 = await p1.client.next('rematch');
  assert.equal(r0.seat, 1);
  assert.equal(r1.seat, 0);
  p1.client.queue.length = 0; // the old table's states
  const n1 = await join(p1.client, r1.table, r1.token);
  assert.equal(n1.seat, 0, 'the second player of the old table is the first now');
  p0.client.close();
  p1.client.close();
});

/** A finished two-person table, both people seated. */
async function finishedPair() {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'human']);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  const p1 = await seat(server, created.table, created.tokens[1]);
  await change(p1.client, { type: 'resign', seq: p0.state.seq });
  await p0.client.next((x) => x.type === 'state' && x.status === 'over');
  return { table: created.table, tokens: created.tokens, p0, p1 };
}

test('rematch declined, withdrawn, or its asker gone: told to all, no table made', async () => {
  const { table, tokens, p0, p1 } = await finishedPair();
  // declined by the other player
  p0.client.send({ type: 'rematch' });
  const open = await p1.client.next((x) => x.type === 'state' && x.rematch_offer);
  assert.deepEqual(open.rematch_offer, { from: 0, accepted: [0], waiting: [1] });
  p1.client.send({ type: 'rematch', decline: true });
  for (const p of [p0, p1]) {
    const ended = await p.client.next('rematch_ended');
    assert.deepEqual(ended, { type: 'rematch_ended', from: 0, by: 1, reason: 'declined' });
    const st = await p.client.next('state');
    assert.equal(st.rematch_offer, undefined);
    assert.equal(st.rematch, undefined);
  }
  // offered again, and withdrawn by its asker
  p1.client.send({ type: 'rematch' });
  await p0.client.next((x) => x.type === 'state' && x.rematch_offer?.from === 1);
  p1.client.send({ type: 'rematch', decline: true });
  const withdrawn = await p0.client.next('rematch_ended');
  assert.equal(withdrawn.reason, 'withdrawn');
  assert.equal(withdrawn.by, 1);
  assert.deepEqual(await p1.client.next('rematch_ended'), withdrawn, 'the asker is told too');
  // offered, and its asker leaves the table: it ends
  p0.client.send({ type: 'rematch' });
  await p1.client.next((x) => x.type === 'state' && x.rematch_offer?.from === 0);
  p0.client.close();
  const left = await p1.client.next('rematch_ended');
  assert.deepEqual(left, { type: 'rematch_ended', from: 0, by: 0, reason: 'left' });
  // the one left offers: it waits for the one who went, and no table exists
  p1.client.queue.length = 0;
  p1.client.send({ type: 'rematch' });
  const waiting = await p1.client.next((x) => x.type === 'state' && x.rematch_offer);
  assert.deepEqual(waiting.rematch_offer, { from: 1, accepted: [1], waiting: [0] });
  // the one who went comes back with its token, sees the offer and accepts: made at last
  const back = await seat(server, table, tokens[0]);
  assert.deepEqual(back.state.rematch_offer, waiting.rematch_offer);
  back.client.send({ type: 'rematch' });
  const r1 = await p1.client.next('rematch');
  const r0 = await back.client.next('rematch');
  assert.equal(r0.table, r1.table);
  assert.deepEqual([r0.seat, r1.seat], [1, 0]);
  for (const x of [back.client, p1.client]) x.close();
});

test('rematch against bots only: made at once, nobody to wait for', async () => {
  const c = await Client.connect(server);
  const created = await createTable(c, 'carcassonne(players=2)', ['human', 'random']);
  c.close();
  const p0 = await seat(server, created.table, created.tokens[0]);
  await change(p0.client, { type: 'resign', seq: p0.state.seq });
  p0.client.send({ type: 'rematch' });
  const r = await p0.client.next('rematch');
  assert.equal(r.seat, 1);
  p0.client.close();
});
