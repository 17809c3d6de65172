// failover.test.mjs -- a node's death, stop and return, and PostgreSQL's
// death, with games going on (issue 36, "Tests"; ownership step 2): three
// nodes on one PostgreSQL behind HAProxy, a 2 s lease, people played as the
// page plays them (harness.mjs's Page: web/net/connection.mjs itself).
// kill -9 of a table's owner with a move in flight: a survivor plays on
// within lease + 5 s, the move is acknowledged once and stored once, every
// acknowledged move is stored in order, the bot plays again, and the clock
// is not charged for the outage.  Tables go on with no client: a bot to
// move moves, a real-time clock runs out only after the time it had.  The
// killed node, restarted, takes its tables back and the page follows it.
// SIGTERM hands a node's tables on within one sweep.  With PostgreSQL
// killed a move is refused (`storage`); restarted, the nodes recover by
// themselves and every acknowledged move is stored.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, createTable, stopAll, sleep } from '../server/helpers.mjs';
import { missingCluster, startCluster, stopProxies, Page, ownerOf, storedActions, movesMissed,
  within, tableReport, linesOf } from './harness.mjs';

const lease = 2;            // seconds
const sweep = Math.max(1, lease / 5) * 1000;
const skip = missingCluster();
let cluster;
const pages = [];

before(async () => {
  if (skip) return;
  cluster = await startCluster({ nodes: 3, lease, pgPort: 18500, nodePort: 18520, proxyPort: 18530 });
});

after(async () => {
  for (const p of pages) p.close();
  await cluster?.stop();
  stopProxies();
  await stopAll();
});

const indexOf = (name) => cluster.nodes.findIndex((n) => n.name === name);

/** Starts again the nodes an earlier test left dead (it failed before restarting them). */
async function everyNodeUp() {
  for (const [i, n] of cluster.nodes.entries())
    if (n.proc.exitCode !== null || n.proc.signalCode !== null) await cluster.restart(i);
}

/** When table's owner is first seen to be a node other than node (polled every 100 ms). */
const ownerLeft = (table, node, ms) => within(ms, `${table} claimed`, () => {
  const { owner } = ownerOf(cluster.pg, table);
  return owner !== node && owner !== '' && Date.now();
}, 100);

/** A table made at base (default: through the proxy): the `created` message. */
async function made(game, seats, { clock, base = cluster.proxy.base, seed = 3 } = {}) {
  const c = await Client.connect({ base });
  try {
    if (!clock) return await createTable(c, game, seats, seed);
    const m = await c.request({ type: 'create', game, seats, seed, clock }, ['created', 'error']);
    assert.equal(m.type, 'created', `create ${game} ${clock}: ${JSON.stringify(m)}`);
    return m;
  } finally {
    c.close();
  }
}

/** The page of table's first seat, through the proxy, once it plays at the table's owner. */
async function pageAt(table, token, opts) {
  const page = await Page.open(cluster.proxy.base, table, token, { pg: cluster.pg, ...opts });
  pages.push(page);
  await page.until((p) => p.state && p.node === ownerOf(cluster.pg, table).owner,
    'the page reaches the table\'s owner', 15000, 100);
  return page;
}

/** Plays one move when the seat is to move; its entry in page.acked. */
async function playOne(page, ms = 10000) {
  await page.until((p) => p.toMove, 'the seat is to move', ms);
  const sent = page.move();
  await page.until((p) => !p.pending, `the ack of seq ${sent.seq}`, ms);
  const acked = page.acked.at(-1);
  assert.ok(acked && acked.seq === sent.seq, `seq ${sent.seq} acknowledged: ${JSON.stringify(page.errors)}`);
  return acked;
}

let takenOver = null;   // test (a)'s table, for (c)

test('kill -9 of a table\'s owner with a move in flight: a survivor plays on, the move '
  + 'acknowledged and stored once, the bot and the clock resume', { skip, timeout: 60000 }, async (t) => {
  const { table, tokens } = await made('cardcassonne(players=2)', ['human', 'random'],
    { clock: '5+3' });
  const page = await pageAt(table, tokens[0], { keepStates: true });
  // the table followed its client to the node the proxy sends it to: its home
  assert.equal(ownerOf(cluster.pg, table).home, page.node, 'the page\'s node is the table\'s home');
  for (let i = 0; i < 3; i++) await playOne(page);

  await page.until((p) => p.toMove, 'the seat is to move');
  const { seat } = page;
  const before = page.state.clock.left_ms[seat];
  const dead = ownerOf(cluster.pg, table).owner;
  const inFlight = page.move();
  cluster.kill9(indexOf(dead));
  const killed = Date.now();
  const claimed = ownerLeft(table, dead, (lease + 5) * 1000);

  await page.until((p) => !p.pending, 'the move in flight answered', (lease + 5) * 1000)
    .catch(async (e) => assert.fail(`${e.message}; ${await tableReport(cluster, page)}`));
  const acked = page.acked.at(-1);
  assert.equal(acked?.seq, inFlight.seq, `the move in flight acknowledged: ${JSON.stringify(page.errors)}`);
  t.diagnostic(`played on at ${page.node} ${acked.at - killed} ms after the kill`);
  const now = ownerOf(cluster.pg, table);
  assert.ok(now.owner !== dead && now.owner !== '', `a survivor owns it: ${now.owner}`);
  // the survivor that claimed it kept its home; the page's node, if it asked for it, is its home
  assert.ok([dead, now.owner].includes(now.home), `home ${now.home}`);
  assert.equal(page.node, now.owner);
  assert.equal(page.acks.get(acked.ack), 1, `one ack for seq ${acked.ack}`);
  const mine = storedActions(cluster.pg, table).filter((a) => a.seat === seat);
  assert.equal(mine.filter((a) => a.changeSeq === inFlight.seq).length, 1, 'stored once');
  assert.deepEqual(movesMissed(cluster.pg, page), []);

  // the outage is not charged: the first state from a survivor has what the
  // seat had, less what ran since the survivor took the table
  const first = page.log.find((s) => s.at > killed && s.node !== dead);
  const since = first.at - await claimed;
  assert.ok(first.clock.left_ms[seat] >= before - since - 1000, `the clock after the takeover: `
    + `${first.clock.left_ms[seat]} ms, ${since} ms after the claim; before the kill ${before} ms`);

  // the bot plays again, and the seat's clock runs again
  await page.until((p) => p.toMove && p.state.seq > acked.ack, 'the bot moved again');
  const stored = storedActions(cluster.pg, table);
  const at = stored.findIndex((a) => a.seat === seat && a.changeSeq === inFlight.seq);
  assert.ok(stored.slice(at + 1).some((a) => a.seat === 1 - seat), 'a bot\'s move after it');
  const { left_ms: left, increment_ms: increment, running } = page.state.clock;
  assert.equal(running, seat, 'the seat\'s clock runs');
  await sleep(1500);
  await playOne(page);
  const after = page.state.clock.left_ms[seat];
  assert.ok(after <= left[seat] + increment - 1000, `the clock ran: ${left[seat]} ms, then ${after} ms`);
  takenOver = { page, dead, survivor: now.owner };
});

test('the node restarted takes its tables back: the page is closed with 4000 and follows',
  { skip, timeout: 60000 }, async (t) => {
  if (!takenOver) return t.skip('the kill -9 test did not take its table over');
  const { page, dead, survivor } = takenOver;
  const { table } = page;
  const ackedBefore = page.acked.length;
  await cluster.restart(indexOf(dead));
  const restarted = Date.now();
  await within(10000, `${dead} owns ${table} again`, () => ownerOf(cluster.pg, table).owner === dead)
    .catch(async (e) => assert.fail(`${e.message}; ${await tableReport(cluster, page)}`));
  t.diagnostic(`${dead} owned it again ${Date.now() - restarted} ms after its restart`);
  await page.until((p) => p.node === dead && p.state, 'the page reconnected to the restarted node');
  assert.ok(page.sockets.some((s) => s.node === survivor && s.closed?.code === 4000),
    `the survivor closed the page's socket with 4000: ${JSON.stringify(page.sockets)}`);
  for (let i = 0; i < 2; i++) await playOne(page);
  assert.equal(page.node, dead, 'moves go on at the restarted node');
  assert.equal(page.acked.length, ackedBefore + 2);
  assert.deepEqual(movesMissed(cluster.pg, page), []);
  page.close();
});

test('no client needed: a dead node\'s bot moves at a survivor (one that took up tables handed to '
  + 'it), and a real-time clock runs out only after the time it had', { skip, timeout: 60000 }, async (t) => {
  await everyNodeUp();
  const victim = 2;
  const base = cluster.nodes[victim].base;
  // the survivors first take up a table the victim hands them (a join there
  // asks for it): they must sweep all the same
  for (const i of [0, 1]) {
    const { table } = await made('cardcassonne(players=2)', ['human', 'random'], { base });
    await within(10000, `n${i} takes up a table handed to it`, async () => {
      const c = await Client.connect(cluster.nodes[i]);
      try {
        return (await c.request({ type: 'join', table }, ['state', 'elsewhere', 'error'])).type === 'state';
      } finally {
        c.close();
      }
    }, 500);
  }
  // the bot moves first and thinks 3 s; the person has 3 s in all
  const bot = await made('carcassonne(players=2,first=1)', ['human', 'mcts:ms=3000'], { base });
  const timed = await made('cardcassonne(players=2)', ['human', 'human'], { base, clock: '0.05+0' });
  const seq0 = ownerOf(cluster.pg, bot.table).seq;
  cluster.kill9(victim);
  const killed = Date.now();
  const dead = cluster.nodes[victim].name;
  const seen = {};
  await within((lease + 5 + 4) * 1000, 'the bot moved and the clock ran out at a survivor', () => {
    const b = ownerOf(cluster.pg, bot.table);
    const c = ownerOf(cluster.pg, timed.table);
    const now = Date.now() - killed;
    if (c.owner !== dead) seen.claimed ??= now;
    for (const row of [b, c]) if (row.owner !== dead) assert.equal(row.home, dead, 'a claim keeps the home');
    if (b.seq > seq0) seen.botMoved ??= { now, owner: b.owner };
    if (c.finished) seen.timedOut ??= { now, owner: c.owner };
    return seen.botMoved && seen.timedOut;
  }).catch((e) => assert.fail(`${e.message}: ${JSON.stringify(seen)}; the bot's table `
    + `${JSON.stringify(ownerOf(cluster.pg, bot.table))}, the clock's `
    + `${JSON.stringify(ownerOf(cluster.pg, timed.table))}; the nodes said `
    + `${JSON.stringify([...linesOf(cluster, bot.table), ...linesOf(cluster, timed.table)])}; `
    + `other lines: ${JSON.stringify(cluster.nodes.map((n) => n.stderr().split('\n')
      .filter((l) => !/[0-9a-f]{16}/.test(l)).slice(-5)))}; the leases: `
    + `${cluster.pg.sql('SELECT node, lease_until - clock_timestamp() FROM nodes').trim()}`));
  t.diagnostic(`after the kill: bot moved at ${seen.botMoved.now} ms, the clock's table claimed at `
    + `${seen.claimed} ms and ended at ${seen.timedOut.now} ms`);
  assert.notEqual(seen.botMoved.owner, dead);
  assert.notEqual(seen.timedOut.owner, dead);
  assert.ok(seen.timedOut.now - seen.claimed >= 2000,
    `the clock had its 3 s at the survivor, not charged for the outage (${seen.timedOut.now - seen.claimed} ms)`);
  await cluster.restart(victim);
});

test('SIGTERM of an owner: its tables play on elsewhere within one sweep', { skip, timeout: 60000 },
  async (t) => {
    const victim = 1;
    await everyNodeUp();
    const { table, tokens } = await made('cardcassonne(players=2)', ['human', 'random'],
      { base: cluster.nodes[victim].base });
    const name = cluster.nodes[victim].name;
    assert.equal(ownerOf(cluster.pg, table).owner, name);
    const stopped = Date.now();
    const stopping = cluster.term(victim);
    const owner = await within(lease * 1000 + 1000, 'a survivor owns the table', () => {
      const o = ownerOf(cluster.pg, table).owner;
      return o !== name && o !== '' && o;
    }, 50);
    const took = Date.now() - stopped;
    assert.equal((await stopping).code, 0, 'the node stopped cleanly');
    t.diagnostic(`${owner} owned it ${took} ms after the SIGTERM`);
    assert.ok(took <= sweep + 1000, `within one sweep (${sweep} ms) and its stop: ${took} ms`);
    const page = await pageAt(table, tokens[0]);
    await playOne(page);
    t.diagnostic(`a move acknowledged ${Date.now() - stopped} ms after the SIGTERM`);
    assert.deepEqual(movesMissed(cluster.pg, page), []);
    page.close();
    await cluster.restart(victim);
  });

test('kill -9 of PostgreSQL with games going on: a move is refused with `storage`, the nodes '
  + 'recover by themselves, every acknowledged move is stored', { skip, timeout: 60000 }, async (t) => {
  await everyNodeUp();
  const playing = [];
  for (let i = 0; i < 3; i++) {
    const { table, tokens } = await made('cardcassonne(players=2)', ['human', 'random'], { seed: 10 + i });
    playing.push(await pageAt(table, tokens[0], { auto: true, thinkMs: 250 }));
  }
  for (const page of playing) await page.until((p) => p.acked.length >= 3, 'three moves');

  cluster.pg.kill9();
  const killed = Date.now();
  const refusal = await within(8000, 'a move refused', () => playing.flatMap((p) => p.errors)
    .find((e) => e.at > killed), 50);
  assert.equal(refusal.code, 'storage', `refused: ${JSON.stringify(refusal)}`);
  assert.match(refusal.message, /PostgreSQL/, 'the error names the store');
  // down longer than the leases: at its restart the nodes find each other's
  // leases run out, and tables change hands while connections come back
  await sleep((lease + 1) * 1000);
  await cluster.pg.restart();
  const back = Date.now();
  // still playing once the tables that changed hands at the restart have
  // settled (a sweep, a hand-over to the page's node)
  const settled = back + lease * 1000 + 2 * sweep + 3000;
  for (const page of playing) {
    await page.until((p) => p.acked.some((a) => a.at > settled) || p.state.status === 'over',
      'moves acknowledged again', 25000)
      .catch(async (e) => assert.fail(`${e.message}; ${await tableReport(cluster, page)}`));
  }
  t.diagnostic(`every page played again ${Date.now() - back} ms after PostgreSQL's restart`);
  for (const page of playing) page.play(false);
  for (const page of playing) await page.until((p) => !p.pending, 'the last move answered');
  for (const page of playing) {
    assert.deepEqual(movesMissed(cluster.pg, page, { exact: false }), []);
    page.close();
  }
});
