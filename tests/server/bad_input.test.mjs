// bad_input.test.mjs -- every bad input of docs/protocol.md gets a clear
// error on its own socket and changes nothing: a stale seq, an illegal
// action, a move out of turn, a wrong token, no such table, requests from
// no seat, malformed and oversized messages (whole and in fragments), and
// games or bots the engine refuses.  "Changes nothing": a fresh spectator
// sees the same seq, action count and view before and after, and no socket
// at the table is sent a state.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, stopAll, Client, createTable, join, refused, change, sleep, checkStateShape,
} from './helpers.mjs';

let server;
before(async () => { server = await startServer(); });
after(stopAll);

const GAME = 'carcassonne(players=2)';

/** A table of two people: sockets a (seat 0), b (seat 1), w (a spectator). */
async function fixture(seed = 21) {
  const c = await Client.connect(server);
  const created = await createTable(c, GAME, ['human', 'human'], seed);
  c.close();
  const a = await Client.connect(server);
  const b = await Client.connect(server);
  const w = await Client.connect(server);
  const sa = await join(a, created.table, created.tokens[0]);
  const sb = await join(b, created.table, created.tokens[1]);
  await join(w, created.table);
  checkStateShape(sa, { seat: 0 });
  const mover = sa.to_move === 0 ? a : b;
  const other = mover === a ? b : a;
  const moverState = mover === a ? sa : sb;
  const fx = { table: created.table, tokens: created.tokens, a, b, w, mover, other, moverState };
  fx.before = await snapshot(fx);
  return fx;
}

/** What a fresh spectator is shown of the table. */
async function snapshot(fx) {
  const c = await Client.connect(server);
  const s = await join(c, fx.table);
  c.close();
  return { seq: s.seq, actions: s.actions, view: s.view, to_move: s.to_move };
}

/** The table is as it was, and no socket at it was sent a state. */
async function unchanged(fx) {
  await sleep(100);
  assert.deepEqual(await snapshot(fx), fx.before, 'the table changed');
  // (A state at the same seq may come when a socket comes or goes: a
  // seat's connected flag.)
  for (const [name, c] of [['seat 0', fx.a], ['seat 1', fx.b], ['the spectator', fx.w]]) {
    const states = c.queue.filter((m) => m.type === 'state'
      && (m.seq !== fx.before.seq || m.actions !== fx.before.actions));
    assert.equal(states.length, 0, `${name} was sent a changed state after a refused request`);
  }
}

/** The socket is open and answers. */
async function alive(c) {
  const m = await c.request({ type: 'ping' }, ['pong', 'error']);
  assert.equal(m.type, 'pong', `after a refused request: ${JSON.stringify(m)}`);
}

function closeAll(fx) { for (const c of [fx.a, fx.b, fx.w]) c.close(); }

test('a stale seq is refused and changes nothing', async () => {
  const fx = await fixture();
  const s = fx.moverState;
  const action = s.legal[0];
  for (const seq of [s.seq + 1, s.seq + 100, s.seq - 1]) {
    await refused(fx.mover, { type: 'move', seq, action }, 'stale');
  }
  await refused(fx.mover, { type: 'undo', seq: s.seq + 1 }, 'stale');
  await refused(fx.mover, { type: 'resign', seq: s.seq + 1 }, 'stale');
  await refused(fx.mover, { type: 'hand_over', seq: s.seq + 1, bot: 'random' }, 'stale');
  await unchanged(fx);
  // After a move, the seq before it is stale for any other action.
  const { state } = await change(fx.mover, { type: 'move', seq: s.seq, action });
  fx.before = await snapshot(fx);
  for (const c of [fx.a, fx.b, fx.w]) c.queue.length = 0;
  if (state.legal && state.legal.length > 0) {
    const another = state.legal.find((x) => x !== action) || state.legal[0];
    const m = await refused(fx.mover, { type: 'move', seq: s.seq, action: another });
    // The same text at the old seq is the resend of docs/protocol.md; another is stale.
    if (another !== action) assert.equal(m.code, 'stale');
  }
  await refused(fx.other, { type: 'move', seq: s.seq, action }, 'stale');
  await unchanged(fx);
  await alive(fx.mover);
  closeAll(fx);
});

test('an illegal action is refused with the engine\'s reason and changes nothing', async () => {
  const fx = await fixture();
  const seq = fx.moverState.seq;
  for (const action of ['place 50 50 0', 'frobnicate', 'place', 'follower city N',
    'place 0 1 45', 'x'.repeat(300)]) {
    const m = await refused(fx.mover, { type: 'move', seq, action }, 'illegal');
    assert.ok(m.message.length > 3, `a reason for '${action.slice(0, 20)}': ${m.message}`);
  }
  await unchanged(fx);
  await alive(fx.mover);
  closeAll(fx);
});

test('a move out of turn is refused and changes nothing', async () => {
  const fx = await fixture();
  const { seq, legal } = fx.moverState;
  await refused(fx.other, { type: 'move', seq, action: legal[0] }, 'not_your_turn');
  await unchanged(fx);
  closeAll(fx);
});

test('a wrong token or no such table is refused', async () => {
  const fx = await fixture();
  const other = await fixture(22);
  const c = await Client.connect(server);
  await refused(c, { type: 'join', table: fx.table, token: '0'.repeat(32) }, 'token');
  await refused(c, { type: 'join', table: fx.table, token: other.tokens[0] }, 'token');
  await refused(c, { type: 'join', table: fx.table, token: 'abc' }, 'token');
  await refused(c, { type: 'join', table: fx.table, token: fx.tokens[0].toUpperCase() + '0' },
    'token');
  await refused(c, { type: 'join', table: 'ffffffffffffffff', token: fx.tokens[0] }, 'no_table');
  await refused(c, { type: 'join', table: 'ffffffffffffffff' }, 'no_table');
  await refused(c, { type: 'join', table: '../../etc/passwd' }, 'no_table');
  // A failed join seats nobody.
  await refused(c, { type: 'move', seq: fx.moverState.seq, action: fx.moverState.legal[0] },
    'not_seated');
  await unchanged(fx);
  await alive(c);
  c.close();
  closeAll(fx);
  closeAll(other);
});

test('moves and changes from no seat are refused: before join and from a spectator', async () => {
  const fx = await fixture();
  const { seq, legal } = fx.moverState;
  const fresh = await Client.connect(server);
  for (const c of [fresh, fx.w]) {
    await refused(c, { type: 'move', seq, action: legal[0] }, 'not_seated');
    await refused(c, { type: 'undo', seq }, 'not_seated');
    await refused(c, { type: 'resign', seq }, 'not_seated');
    await refused(c, { type: 'hand_over', seq, bot: 'random' }, 'not_seated');
  }
  await unchanged(fx);
  fresh.close();
  closeAll(fx);
});

test('malformed messages are refused, the socket stays open', async () => {
  const fx = await fixture();
  const deep = '['.repeat(4000) + ']'.repeat(4000);
  const deepObject = '{"a":'.repeat(1300) + '1' + '}'.repeat(1300); // past cJSON's nesting limit
  const texts = [
    'not json', '{"type":"move"', '[1,2]', '"move"', '42', 'null', 'true', '{}', ' ',
    '{"type":"frobnicate"}', '{"type":7}', '{"type":null}', '{"type":["ping"]}',
    '{"type":"move","seq":"0","action":"place 0 1 0"}',
    '{"type":"move","seq":0,"action":7}',
    '{"type":"move","seq":0,"action":["place 0 1 0"]}',
    '{"type":"undo","seq":"x"}',
    '{"type":"join","table":7}',
    '{"type":"join","table":{"id":"x"}}',
    '{"type":"join","table":"' + fx.table + '","token":7}',
    '{"type":"create","game":"carcassonne","seats":"human"}',
    '{"type":"create","game":7,"seats":["human","human"]}',
    '{"type":"create","game":"carcassonne","seats":[1,2]}',
    '{"type":"create","game":"carcassonne","seats":["human","human"],"seed":"x"}',
    '{"type":"hand_over","seq":0,"bot":7}',
    deep, deepObject,
  ];
  for (const text of texts) {
    fx.mover.send(text);
    // (Not state: one at the same seq may come when a socket joins.)
    const m = await fx.mover.next(['error', 'ack', 'created', 'pong', 'history', 'lobby']);
    assert.equal(m.type, 'error', `${text.slice(0, 60)} was answered ${JSON.stringify(m).slice(0, 200)}`);
    assert.equal(m.code, 'malformed', `${text.slice(0, 60)}: ${JSON.stringify(m)}`);
    assert.ok(m.message.length > 0);
  }
  await alive(fx.mover);
  await unchanged(fx);
  // A move still works on the same socket.
  await change(fx.mover, { type: 'move', seq: fx.moverState.seq, action: fx.moverState.legal[0] });
  closeAll(fx);
});

/** A JSON message of exactly n bytes: {"type":T,...,"pad":"xxx"}. */
function sized(obj, n) {
  const base = JSON.stringify({ ...obj, pad: '' });
  assert.ok(n >= base.length);
  return JSON.stringify({ ...obj, pad: 'x'.repeat(n - base.length) });
}

test('a message over 8 KiB is refused as too_big, the socket stays open', async () => {
  const fx = await fixture();
  const { seq, legal } = fx.moverState;
  const at = sized({ type: 'ping' }, 8192);
  assert.equal(Buffer.byteLength(at), 8192);
  fx.mover.send(at);
  const fits = await fx.mover.next(['pong', 'error']);
  assert.ok(fits.type === 'pong' || fits.code !== 'too_big', `8192 bytes is allowed: ${JSON.stringify(fits)}`);

  const over = sized({ type: 'move', seq, action: legal[0] }, 8193);
  fx.mover.send(over);
  let m = await fx.mover.next(['error', 'ack']);
  assert.equal(m.type, 'error');
  assert.equal(m.code, 'too_big');
  // Multi-byte text counts in bytes: 3000 euro signs are 9000 bytes.
  fx.mover.send(JSON.stringify({ type: 'move', seq, action: legal[0], pad: '\u20ac'.repeat(3000) }));
  m = await fx.mover.next(['error', 'ack']);
  assert.equal(m.code, 'too_big', `9000 bytes of UTF-8: ${JSON.stringify(m)}`);
  fx.mover.send(sized({ type: 'ping' }, 60000));
  m = await fx.mover.next(['error', 'pong']);
  assert.equal(m.code, 'too_big');
  await alive(fx.mover);
  await unchanged(fx);
  await change(fx.mover, { type: 'move', seq, action: legal[0] });
  closeAll(fx);
});

test('messages in fragments are put together, and counted whole', async () => {
  const fx = await fixture();
  const { seq, legal } = fx.moverState;
  // An over-long message in 500-byte fragments: too_big, socket open.
  const big = sized({ type: 'move', seq, action: legal[0] }, 10000);
  for (let i = 0; i < big.length; i += 500) {
    fx.mover.ws.send(big.slice(i, i + 500), { fin: i + 500 >= big.length });
  }
  const m = await fx.mover.next(['error', 'ack']);
  assert.equal(m.code, 'too_big', `10000 bytes in fragments: ${JSON.stringify(m)}`);
  await alive(fx.mover);
  await unchanged(fx);
  // A move in three fragments is one move.
  const text = JSON.stringify({ type: 'move', seq, action: legal[0] });
  const cut = [0, 7, 19, text.length];
  for (let i = 0; i < 3; i++) fx.mover.ws.send(text.slice(cut[i], cut[i + 1]), { fin: i === 2 });
  const ack = await fx.mover.next(['ack', 'error']);
  assert.equal(ack.type, 'ack', `a fragmented move: ${JSON.stringify(ack)}`);
  assert.equal(ack.seq, seq + 1);
  closeAll(fx);
});

test('a message over 64 KiB closes that socket only, and changes nothing', async () => {
  const fx = await fixture();
  const { seq, legal } = fx.moverState;
  const victim = await Client.connect(server);
  await join(victim, fx.table, fx.tokens[fx.mover === fx.a ? 0 : 1]);
  victim.send(sized({ type: 'move', seq, action: legal[0] }, 70000));
  const closed = await victim.waitClosed(5000);
  assert.ok(closed, 'the socket is closed');
  // In fragments too.
  const victim2 = await Client.connect(server);
  const huge = sized({ type: 'ping' }, 66000);
  for (let i = 0; i < huge.length && !victim2.closed; i += 4000) {
    victim2.ws.send(huge.slice(i, i + 4000), { fin: i + 4000 >= huge.length });
  }
  await victim2.waitClosed(5000);
  await unchanged(fx);
  for (const c of [fx.a, fx.b, fx.w]) await alive(c);
  closeAll(fx);
});

test('games and bots the engine refuses: bad_game, and no table is made', async () => {
  const c = await Client.connect(server);
  const before = await c.request({ type: 'lobby' }, 'lobby');
  const bad = [
    ['chess', ['human', 'human']],
    ['carcassonne(players=9)', ['human', 'human', 'human', 'human', 'human', 'human', 'human',
      'human', 'human']],
    ['carcassonne(players=2)', ['human', 'genius']],
    ['carcassonne(players=2)', ['human', 'mcts:iters=banana']],
    ['carcassonne(players=3)', ['human', 'human']],
    ['catan_cards', ['human', 'human', 'human']],
    ['carcassonne(frobs=1)', ['human', 'human']],
  ];
  for (const [game, seats] of bad) {
    const m = await refused(c, { type: 'create', game, seats, seed: 1 });
    assert.equal(m.code, 'bad_game', `${game} ${seats}: ${JSON.stringify(m)}`);
  }
  const empty = await refused(c, { type: 'create', game: 'carcassonne', seats: [], seed: 1 });
  assert.ok(['bad_game', 'malformed'].includes(empty.code), JSON.stringify(empty));
  const after = await c.request({ type: 'lobby' }, 'lobby');
  assert.equal(after.tables.length, before.tables.length, 'no table was made');
  await alive(c);
  c.close();
});

test('an error is sent to the socket that erred, not to the others', async () => {
  const fx = await fixture();
  await refused(fx.other, { type: 'move', seq: fx.moverState.seq, action: 'pass' });
  await sleep(100);
  for (const c of [fx.mover, fx.w]) {
    assert.equal(c.queue.filter((m) => m.type === 'error').length, 0, 'an error went astray');
  }
  closeAll(fx);
});
