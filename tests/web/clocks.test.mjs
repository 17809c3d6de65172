// clocks.test.mjs -- the clocks on the table page: a real-time clock that
// counts down, the running one marked, low time marked, the timeout shown
// with its reason in words; "claim the game" by correspondence; and the
// lobby's "My games" with a table where it is the player's turn, updated when
// the server tells of a turn at another table (shown as a line with a link);
// a row is a link as a whole, and follows a seat taken elsewhere live.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { webServer, launch, newPage, assertNoErrors, stopAll, Client, WAIT } from './helpers.mjs';
import { join, identity } from '../server/helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** A table of two people with a clock: { table, tokens, url(seat) }. */
async function clockedTable(srv, clock) {
  const c = await Client.connect(srv);
  const m = await c.request({ type: 'create', game: 'carcassonne(players=2)',
    seats: ['human', 'human'], clock }, ['created', 'error']);
  c.close();
  assert.equal(m.type, 'created', JSON.stringify(m));
  return { ...m, url: (s) => `${srv.base}t/${m.table}?token=${m.tokens[s]}` };
}

const timeOf = (page, seat) => page.locator(`.clock-seat[data-seat="${seat}"] .clock-time`).textContent();
/** m:ss as seconds. */
const seconds = (text) => { const [m, s] = text.split(':').map(Number); return m * 60 + s; };

test('a real-time clock counts down, marks the running seat and low time, and a timeout is told',
  async () => {
    // 18 s each: a loaded machine may take a few seconds to show the page,
    // and the clock must still be above the low mark (10 s) when it does
    const t = await clockedTable(server, '0.3+0');
    const page = await newPage(browser);
    await page.goto(t.url(1));
    await page.locator('.clock-seat.running[data-seat="0"]').waitFor({ timeout: WAIT });
    assert.equal(await page.locator('.clock-seat[aria-current="true"]').count(), 1);
    assert.equal(await timeOf(page, 1), '0:18', 'the waiting clock stands still');
    const first = seconds(await timeOf(page, 0));
    assert.ok(first > 10 && first <= 18, `${first}`);
    assert.equal(await page.locator('.clock-seat[data-seat="0"].low').count(), 0);
    await page.waitForFunction((f) => {
      const [m, s] = (document.querySelector('.clock-seat[data-seat="0"] .clock-time')?.textContent ?? '')
        .split(':').map(Number);
      return m * 60 + s < f;
    }, first, { timeout: 3000 });
    assert.equal(await timeOf(page, 1), '0:18');
    // under 10 s: marked
    await page.locator('.clock-seat[data-seat="0"].low').waitFor({ timeout: 12000 });
    // time runs out: Blue wins, and the page says why
    await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
      null, { timeout: 15000 });
    const note = await page.locator('.clock-note').textContent();
    assert.equal(note, 'Red ran out of time: the game goes to Blue.');
    assert.equal(await page.locator('.clock-seat.running').count(), 0);
    assert.equal(await timeOf(page, 0), '0:00');
    assertNoErrors(page);
    await page.context().close();
  });

test('by correspondence the other player may claim the game once the deadline has passed',
  async () => {
    const t = await clockedTable(server, '3s');
    const page = await newPage(browser);
    await page.goto(t.url(1));
    await page.locator('.clock-seat.running[data-seat="0"]').waitFor({ timeout: WAIT });
    assert.match(await timeOf(page, 0), /^[1-3] s left$/);
    assert.equal(await timeOf(page, 1), 'waiting');
    const claim = page.getByRole('button', { name: 'Claim the game' });
    assert.equal(await claim.isVisible(), false, 'not before the deadline');
    await claim.waitFor({ state: 'visible', timeout: 6000 });
    assert.match(await page.locator('.clock-claim-about').textContent(), /^Red has let the time/);
    await claim.click();
    await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
      null, { timeout: WAIT });
    assert.equal(await page.locator('.clock-note').textContent(),
      'Red ran out of time: the game goes to Blue.');
    assertNoErrors(page);
    await page.context().close();
  });

test('"My games" in the lobby lists the player\'s tables, and a turn elsewhere is told',
  async () => {
    // a login and seats bound to it, written into the database while the
    // server is stopped (the account routes and seat claims are tested
    // elsewhere): Cleo has the first seat of one table, the second of another
    const srv = await webServer();
    const t = [await clockedTable(srv, '2d'), await clockedTable(srv, '2d')];
    await srv.stop();
    const token = 'c'.repeat(43);
    execFileSync('python3', ['-c', `import sqlite3,sys,hashlib,time
c=sqlite3.connect(sys.argv[1])
now=int(time.time())
c.execute("INSERT INTO players (name,name_key,kind,created,seen) VALUES ('Cleo','cleo','guest',?,?)",(now,now))
p=c.execute("SELECT id FROM players WHERE name='Cleo'").fetchone()[0]
c.execute("INSERT INTO logins VALUES (?,?,?,?)",(hashlib.sha256(sys.argv[4].encode()).digest(),p,now,now))
c.execute("UPDATE seats SET player=? WHERE table_id=? AND seat=0",(p,sys.argv[2]))
c.execute("UPDATE seats SET player=? WHERE table_id=? AND seat=1",(p,sys.argv[3]))
c.commit()`, srv.db, t[0].table, t[1].table, token]);
    const again = await webServer({ db: srv.db, dir: srv.dir });
    const page = await newPage(browser);
    await page.context().addCookies([{ name: 'tafel_session', value: token, url: again.base }]);
    await page.goto(again.base);
    const entry = (i) => page.locator(`.my-games .my-game[data-table="${t[i].table}"]`);
    await entry(0).waitFor({ timeout: WAIT });
    assert.equal(await page.getByRole('heading', { name: 'My games' }).count(), 1);
    assert.match(await entry(0).getAttribute('class'), /\byours\b/);
    assert.equal(await entry(0).locator('.my-turn').textContent(), 'Your turn');
    assert.match(await entry(0).locator('.my-time').textContent(), /^(1 d 23 h|2 d) left$/);
    assert.equal(await entry(0).locator('a').getAttribute('href'), `/t/${t[0].table}`);
    assert.equal(await entry(1).locator('.my-turn').textContent(), 'Waiting for the others');
    const items = await page.locator('.my-games .my-game').evaluateAll(
      (els) => els.map((e) => e.getAttribute('data-table')));
    assert.deepEqual(items, [t[0].table, t[1].table], 'your turn first');

    // the other player moves at the second table: the lobby is told at once
    const other = await Client.connect(again);
    let st = await join(other, t[1].table, t[1].tokens[0]);
    while (st.status === 'playing' && st.to_move === st.seat) {
      other.send({ type: 'move', seq: st.seq, action: st.legal[0] });
      const ack = await other.next(['ack', 'error']);
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
      st = await other.next((m) => m.type === 'state' && m.seq === ack.seq);
    }
    const line = page.locator('.turn-elsewhere');
    await line.waitFor({ timeout: WAIT });
    // the lobby is at no table: not "another" table
    assert.equal(await line.textContent(), 'It is your turn at one of your tables (Carcassonne). Go there');
    assert.equal(await line.locator('a').getAttribute('href'), `/t/${t[1].table}`);
    await page.waitForFunction((id) => document.querySelector(`.my-game[data-table="${id}"]`)
      ?.classList.contains('yours'), t[1].table, { timeout: WAIT });
    other.close();
    assertNoErrors(page);
    await page.context().close();
  });

test('"My games": a seat taken elsewhere shows without a reload, and the whole row opens the table',
  async () => {
    const cleo = await identity(server, 'Cleo Live');
    const dora = await identity(server, 'Dora Live');
    const c = await Client.connect(server, { cookie: cleo });
    const m = await c.request({ type: 'create', game: 'carcassonne(players=2)',
      seats: ['human', 'human'], clock: '2d' }, ['created']);
    await join(c, m.table, m.tokens[0]);   // Cleo claims the first seat
    c.close();
    const page = await newPage(browser);
    await page.context().addCookies([{ name: 'tafel_session', value: cleo.split('=')[1], url: server.base }]);
    await page.goto(`${server.base}?lang=en`);
    const row = page.locator(`.my-games .my-game[data-table="${m.table}"]`);
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.textContent(), /with an open seat/);
    // Dora takes the open seat from her own browser: Cleo's lobby shows her, not reloaded
    const d = await Client.connect(server, { cookie: dora });
    await join(d, m.table, m.tokens[1]);
    await page.waitForFunction((id) => /with Dora Live/.test(
      document.querySelector(`.my-game[data-table="${id}"]`)?.textContent ?? ''), m.table, { timeout: 12000 });
    d.close();
    // a click on the row's words, not on the game's name, opens the table (the link covers them)
    const box = await row.locator('.my-turn').boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL((u) => u.pathname === `/t/${m.table}`, { timeout: WAIT });
    assertNoErrors(page);
    await page.context().close();
  });
