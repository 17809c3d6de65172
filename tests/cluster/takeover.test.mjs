// takeover.test.mjs -- `tafel serve` nodes on one PostgreSQL own their
// tables (issue 36; three nodes, as the proxy's configuration has, two of
// them used): a table made on n0 is n0's, so n1, asked to join it,
// sends the client on (`elsewhere`) and plays nothing; once n0 is killed
// (kill -9) and its lease has run out, a join on n1 claims the table and
// the game goes on there, with every move n0 acknowledged present once.
// A node stopped (SIGSTOP) past its lease, whose table another node claimed,
// writes nothing when it resumes: the move sent to it is not acknowledged
// and its sockets close with 4000 "moved".

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Client, createTable, join, history, mustAct, stopAll, sleep } from '../server/helpers.mjs';
import { ROOT, missingCluster, startCluster, stopProxies } from './harness.mjs';

after(async () => {
  stopProxies();
  await stopAll();
});

/** Plays the seat's first legal action at client's table; the ack's seq. */
async function playFirst(client, state) {
  assert.ok(mustAct(state), `the seat is to move: ${JSON.stringify(state).slice(0, 200)}`);
  client.send({ type: 'move', seq: state.seq, action: state.legal[0] });
  const ack = await client.next(['ack', 'error']);
  assert.equal(ack.type, 'ack', `move ${state.legal[0]}: ${JSON.stringify(ack)}`);
  return ack.seq;
}

const lease = 2; // seconds: a node's lease in these tests

/** Three nodes (a 2 s lease; args for each) and a cardcassonne table of seats made on n0. */
async function tableOnN0(seats, args = []) {
  const cluster = await startCluster({ nodes: 3, lease, pgPort: 18465, nodePort: 18470,
    proxyPort: 18478, args });
  const maker = await Client.connect(cluster.nodes[0]);
  try {
    return { cluster, made: await createTable(maker, 'cardcassonne(players=2)', seats, 7) };
  } catch (e) {
    await cluster.stop();
    throw e;
  } finally {
    maker.close();
  }
}

test('a table is its node\'s: elsewhere on the other node; after kill -9 and the lease the '
  + 'other node claims it and the game goes on', { skip: missingCluster(), timeout: 90000 }, async () => {
  // a person against a bot: the person's moves are the acked ones
  const { cluster, made } = await tableOnN0(['human', 'random']);
  const [n0, n1] = cluster.nodes;
  const table = made.table;
  try {

    // n1 does not own it: the join is sent on, nothing else is said
    const other = await Client.connect(n1);
    const answer = await other.request({ type: 'join', table, token: made.tokens[0] },
      ['state', 'error', 'elsewhere']);
    assert.deepEqual(answer, { type: 'elsewhere', table }, 'n1 sends the client on');
    other.close();

    // three moves on n0, each acknowledged
    const player = await Client.connect(n0);
    let state = await join(player, table, made.tokens[0]);
    const acked = [];
    for (let i = 0; i < 3; i++) {
      while (!mustAct(state)) state = await player.next('state');
      const seq = await playFirst(player, state);
      acked.push(seq);
      state = await player.latestState(seq);
    }
    const before = await history(player);
    player.terminate();

    // n0 dies; until its lease runs out n1 still sends the client on
    await cluster.kill9(0);
    const killed = Date.now();
    let moved;
    for (;;) {
      const c = await Client.connect(n1);
      const m = await c.request({ type: 'join', table, token: made.tokens[0] },
        ['state', 'error', 'elsewhere']);
      if (m.type === 'state') {
        moved = { client: c, state: m };
        break;
      }
      c.close();
      assert.equal(m.type, 'elsewhere', `join on n1: ${JSON.stringify(m)}`);
      assert.ok(Date.now() - killed < (lease + 5) * 1000, 'n1 claims it after the lease');
      await sleep(250);
    }
    assert.ok(Date.now() - killed >= (lease - 1) * 1000,
      `not claimed while n0's lease ran (${Date.now() - killed} ms)`);

    // every acknowledged move is there, once, in the order played
    const after = await history(moved.client);
    assert.deepEqual(after.actions.slice(0, before.actions.length), before.actions,
      'n1 has the history n0 had');
    assert.ok(moved.state.seq >= acked.at(-1), `seq ${moved.state.seq} >= ${acked.at(-1)}`);

    // and the game goes on on n1
    state = moved.state;
    while (!mustAct(state)) state = await moved.client.next('state');
    const seq = await playFirst(moved.client, state);
    assert.ok(seq > acked.at(-1));
    moved.client.close();
  } finally {
    await cluster.stop();
  }
});

test('a node stopped past its lease and resumed writes nothing: no ack, its sockets close '
  + 'with 4000', { skip: missingCluster(), timeout: 90000 }, async () => {
  const { cluster, made } = await tableOnN0(['human', 'human']);
  const [n0, n1] = cluster.nodes;
  const table = made.table;
  try {
    const seats = [];
    for (const token of made.tokens) {
      const client = await Client.connect(n0);
      seats.push({ client, state: await join(client, table, token) });
    }
    const mover = seats.find((p) => mustAct(p.state));
    assert.ok(mover, 'a seat is to move');

    cluster.pause(0);
    await sleep((lease + 1) * 1000);
    // n1 claims it while n0 sleeps (or n2's sweep did, and hands it to n1, whose client
    // comes back as the page does)
    const other = await Client.connect(n1);
    let claimed;
    for (let i = 0; i < 20 && claimed?.type !== 'state'; i++) {
      if (i) await sleep(250);
      claimed = await other.request({ type: 'join', table }, ['state', 'error', 'elsewhere']);
    }
    assert.equal(claimed.type, 'state', `join on n1: ${JSON.stringify(claimed)}`);
    cluster.resume(0);

    // n0's move is refused by the store: no ack, and its sockets close with 4000
    mover.client.send({ type: 'move', seq: mover.state.seq, action: mover.state.legal[0] });
    const closed = await mover.client.waitClosed(10000);
    assert.deepEqual(closed, { code: 4000, reason: 'moved' });
    assert.ok(!mover.client.messages.some((m) => m.type === 'ack'), 'no ack from n0');
    for (const p of seats) assert.equal((await p.client.waitClosed(10000)).code, 4000);
    // nothing was written: n1 has the table as it was, and plays it
    const again = await Client.connect(n1);
    const state = await join(again, table, made.tokens[seats.indexOf(mover)]);
    assert.equal(state.seq, mover.state.seq, 'the move n0 was sent is not in the store');
    const seq = await playFirst(again, state);
    assert.equal(seq, state.seq + 1);
    again.close();
    other.close();
  } finally {
    await cluster.stop();
  }
});

// Every program of these nodes carries the marker, so that pgrep finds them.
const MARKER = `tafel-takeover-test-${process.pid}-${Date.now()}`;

/** The pids of the external programs still running. */
function programs() {
  try {
    // python's own command line (the nodes' and sh's carry the marker too)
    return execFileSync('pgrep', ['-f', `^\\S*python3 \\S+/example.py ${MARKER}$`],
      { encoding: 'utf8' }).trim().split('\n')
      .filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

test('a table handed over to the node its client reaches ends its external program on the '
  + 'node it left', { skip: missingCluster(), timeout: 90000 }, async () => {
  const ext = ['--ext', `example=python3 ${ROOT}/bots/example.py ${MARKER},ms=2000`];
  const { cluster, made } = await tableOnN0(['human', 'ext:example'], ext);
  const [n0, n1] = cluster.nodes;
  const table = made.table;
  try {
    // on n0 the program plays until the person is to move
    const player = await Client.connect(n0);
    let state = await join(player, table, made.tokens[0]);
    while (programs().length === 0 || !mustAct(state)) {
      if (mustAct(state)) state = await player.latestState(await playFirst(player, state));
      else state = await player.next('state');
    }
    const before = programs();
    assert.equal(before.length, 1, 'n0 runs the program');

    // the person's page reaches n1 now (after the 3 s a table stays put):
    // n1 asks for the table, n0 hands it over and closes the socket
    await sleep(3200);
    const moved = await Client.connect(n1);
    let answer;
    for (let i = 0; i < 20; i++) {
      answer = await moved.request({ type: 'join', table, token: made.tokens[0] },
        ['state', 'error', 'elsewhere']);
      if (answer.type === 'state') break;
      assert.equal(answer.type, 'elsewhere', JSON.stringify(answer));
      await sleep(250);
    }
    assert.equal(answer.type, 'state', 'n1 has the table');
    assert.deepEqual(await player.waitClosed(10000), { code: 4000, reason: 'moved' });
    // n0's program ends (n1 starts its own at the program's next turn)
    const deadline = Date.now() + 5000;
    while (programs().some((pid) => before.includes(pid))) {
      assert.ok(Date.now() < deadline, `n0's program ${before} still runs`);
      await sleep(100);
    }
    state = answer;
    while (!mustAct(state)) state = await moved.next('state');
    state = await moved.latestState(await playFirst(moved, state));
    while (!mustAct(state)) state = await moved.next('state', { timeout: 20000 });
    assert.equal(programs().length, 1, 'n1 runs the program now, and only it');
    moved.close();
  } finally {
    await cluster.stop();
  }
  assert.deepEqual(programs(), [], 'no program outlives the nodes');
});

/** The owner and home of table in the cluster's store. */
function ownerOf(cluster, table) {
  const out = execFileSync('psql', [cluster.pg.uri, '-Atc',
    `SELECT owner || ' ' || home FROM tables WHERE id = '${table}'`], { encoding: 'utf8' });
  const [owner, home] = out.trim().split(' ');
  return { owner, home };
}

test('a node that comes back takes home its own tables only, not those its clients left for '
  + 'another node', { skip: missingCluster(), timeout: 90000 }, async () => {
  const { cluster, made } = await tableOnN0(['human', 'random']);
  const [n0, n1] = cluster.nodes;
  try {
    // a second table made on n0, whose client goes to n1 (after the 3 s a table stays put)
    const maker = await Client.connect(n0);
    const left = await createTable(maker, 'cardcassonne(players=2)', ['human', 'random'], 8);
    maker.close();
    await sleep(3200);
    const player = await Client.connect(n1);
    let answer;
    for (let i = 0; i < 20 && answer?.type !== 'state'; i++) {
      if (i) await sleep(250);
      answer = await player.request({ type: 'join', table: left.table, token: left.tokens[0] },
        ['state', 'error', 'elsewhere']);
    }
    assert.equal(answer.type, 'state', 'n1 has the table its client reached');
    assert.deepEqual(ownerOf(cluster, left.table), { owner: 'n1', home: 'n1' });
    assert.deepEqual(ownerOf(cluster, made.table), { owner: 'n0', home: 'n0' });

    // n0 dies: a survivor takes its table (home n0 still); n0 comes back and takes it home
    await sleep(3200); // n1 would hand its table on by now, if it were asked
    await cluster.kill9(0);
    const deadline = Date.now() + (lease + 5) * 1000;
    while (ownerOf(cluster, made.table).owner === 'n0') {
      assert.ok(Date.now() < deadline, 'a survivor takes the dead node\'s table');
      await sleep(200);
    }
    assert.equal(ownerOf(cluster, made.table).home, 'n0', 'a takeover keeps the home');
    await cluster.restart(0);
    const back = Date.now() + 15000;
    while (ownerOf(cluster, made.table).owner !== 'n0') {
      assert.ok(Date.now() < back, 'n0 takes its table home');
      await sleep(200);
    }
    await sleep(1000);
    assert.deepEqual(ownerOf(cluster, left.table), { owner: 'n1', home: 'n1' },
      'the table whose client went to n1 stays there');
    assert.equal(player.closed, null, 'its client was not sent away');
    player.close();
  } finally {
    await cluster.stop();
  }
});
