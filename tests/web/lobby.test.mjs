// lobby.test.mjs -- the lobby in words (web/lobby/): in Dutch every option
// of the new-table form says what it does in Dutch, and the game string
// shows only once "details" is opened; "first player" (and Cardcassonne's
// first dealer) offers exactly the table's seats, by colour; a table made
// from the form is listed, a finished one under "finished" with a link
// that opens its end and replay, one nobody has moved at for days is
// marked so; in the pseudo-language nothing the lobby shows is without
// the catalog's markers; on a phone it fits the screen with touch
// targets of at least 44 x 44 px; and in Dutch, German and Italian the
// seat choices, the tables' seats and a table's seat bar name each bot by
// its level in that language (botWord), never "Bot medium" or "greedy";
// each game and count of players offers its own bots (expert for
// two-player Cardcassonne, not Carcassonne nor three players, on the server
// and on this device), and a seat whose bot the next game or count does not
// offer falls back to medium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { webServer, pseudoWeb, launch, newPage, newTable, assertNoErrors, stopAll, unmarkedTexts,
  WEB, WAIT, PSEUDO_OPEN } from './helpers.mjs';

/** A language's lobby catalog, with English under it. */
const words = (lang) => ({
  ...JSON.parse(readFileSync(joinPath(WEB, 'i18n', 'en', 'lobby.json'), 'utf8')),
  ...JSON.parse(readFileSync(joinPath(WEB, 'i18n', lang, 'lobby.json'), 'utf8')),
});
const common = (lang) => JSON.parse(readFileSync(joinPath(WEB, 'i18n', lang, 'common.json'), 'utf8'));

let server, browser;
before(async () => {
  server = await webServer({ web: pseudoWeb() });   // the qps language, and every other
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** The lobby in lang, drawn and connected. */
async function openLobby(lang, { viewport, shiftDays = 0 } = {}) {
  const page = await newPage(browser, { viewport });
  if (shiftDays) {
    // the page's clock, some days on: the server's times are then that old
    await page.addInitScript((ms) => {
      const now = Date.now;
      Date.now = () => now() + ms;
    }, shiftDays * 86400e3);
  }
  await page.goto(`${server.base}?lang=${lang}`);
  await page.locator('#nt-game').waitFor();
  await page.locator('.conn[data-state="open"]').waitFor({ timeout: WAIT });
  return page;
}

/** The text a person sees on the page (not hidden, not folded away). */
const seen = (page) => page.evaluate(() => document.body.innerText);

/** Opens "details"; the game string it shows. */
async function gameStringShown(page) {
  await page.locator('details.nt-details > summary').click();
  await page.waitForFunction(() => document.querySelector('.nt-game-string')?.textContent);
  return page.locator('.nt-game-string').textContent();
}

/** The texts of a select's options. */
const optionTexts = (page, selector) =>
  page.locator(`${selector} option`).evaluateAll((os) => os.map((o) => o.textContent));

test('in Dutch: each option explained in Dutch, and the game string only under "details"', async () => {
  const nl = words('nl'), en = words('en');
  const page = await openLobby('nl');
  assert.equal(await page.locator('#nt-game-about').textContent(), nl['lobby.summary.carcassonne']);
  for (const option of ['players', 'crop_circles', 'first', 'small_city', 'farmers']) {
    const key = `lobby.option.carcassonne.${option}`;
    assert.equal(await page.locator(`label[for="nt-opt-${option}"]`).textContent(), nl[key]);
    const about = await page.locator(`#nt-opt-${option}-about`).textContent();
    assert.equal(about, nl[`${key}.about`], `${option}: what it does, in Dutch`);
    assert.notEqual(about, en[`${key}.about`]);
  }
  assert.deepEqual(await optionTexts(page, '#nt-opt-farmers'),
    [nl['lobby.option.carcassonne.farmers.value.2000'], nl['lobby.option.carcassonne.farmers.value.modern']]);
  // the seats: a person or a bot by its level in Dutch, each choice explained
  assert.equal(await page.locator('#nt-seat-1').inputValue(), 'medium');
  const hard = nl['lobby.seat.bot'].replace('{bot}', common('nl')['common.bot.hard']);
  assert.ok((await optionTexts(page, '#nt-seat-1')).includes(hard));
  assert.equal(await page.locator('#nt-seat-1-about').textContent(), nl['lobby.bot.medium']);
  await page.locator('#nt-seat-1').selectOption('random');
  assert.equal(await page.locator('#nt-seat-1-about').textContent(), nl['lobby.bot.random']);

  // no raw game string until asked for
  assert.doesNotMatch(await seen(page), /carcassonne\(|players=/);
  await page.locator('#nt-opt-small_city').selectOption('4');
  assert.doesNotMatch(await seen(page), /small_city/);
  assert.equal(await gameStringShown(page), 'carcassonne(players=2,small_city=4)');
  assert.match(await seen(page), /carcassonne\(players=2,small_city=4\)/);

  // another game, its options in Dutch too
  await page.locator('#nt-game').selectOption('catan_cards');
  assert.equal(await page.locator('#nt-game-about').textContent(), nl['lobby.summary.catan_cards']);
  for (const option of ['win_on_own_turn', 'max_turns']) {
    assert.equal(await page.locator(`#nt-opt-${option}-about`).textContent(),
      nl[`lobby.option.catan_cards.${option}.about`]);
  }
  assert.equal(await page.locator('#nt-opt-players').count(), 0, 'two players, nothing to choose');
  assertNoErrors(page);
  await page.context().close();
});

test('"first player" offers exactly the table\'s seats, by colour', async () => {
  const colours = common('en');
  const seatNames = (n) => Array.from({ length: n }, (_, i) => colours[`common.seat.${i}`]);
  const page = await openLobby('en');
  assert.deepEqual(await optionTexts(page, '#nt-opt-first'), seatNames(2));
  await page.locator('#nt-opt-players').selectOption('4');
  assert.deepEqual(await optionTexts(page, '#nt-opt-first'), seatNames(4));
  assert.equal(await page.locator('.nt-seats select').count(), 4, 'four seats');
  await page.locator('#nt-opt-first').selectOption({ label: 'Green' });
  await page.locator('#nt-opt-players').selectOption('3');
  assert.deepEqual(await optionTexts(page, '#nt-opt-first'), seatNames(3));
  assert.equal(await page.locator('#nt-opt-first').inputValue(), '2', 'Green left: the last seat');
  await page.locator('#nt-opt-players').selectOption('5');
  assert.deepEqual(await optionTexts(page, '#nt-opt-first'), seatNames(5));
  await page.locator('#nt-opt-players').selectOption('2');
  assert.deepEqual(await optionTexts(page, '#nt-opt-first'), seatNames(2));

  await page.locator('#nt-game').selectOption('cardcassonne');
  await page.locator('#nt-opt-players').selectOption('3');
  assert.deepEqual(await optionTexts(page, '#nt-opt-dealer'), seatNames(3), 'the first dealer too');

  // the table made is the one chosen, and the list says so in words
  await page.locator('#nt-game').selectOption('carcassonne');
  await page.locator('#nt-opt-players').selectOption('3');
  await page.locator('#nt-opt-first').selectOption({ label: 'Yellow' });
  await page.locator('form.new-table button[type="submit"]').click();
  await page.locator('.seat-links').waitFor();
  assert.equal(await gameStringShown(page), 'carcassonne(players=3,first=2)');
  const row = page.locator('#tables-playing + ul li.table-row').first();
  await row.waitFor();
  assert.match(await row.textContent(), /First player: Yellow/);
  assert.equal(await row.locator('a.play-seat').textContent(), 'Play as Red', 'its link is known here');
  assertNoErrors(page);
  await page.context().close();
});

test('finished tables stay listed, with a link to their replay; an idle one is marked', async () => {
  const en = words('en');
  const done = await newTable(server, 'carcassonne(players=2)', ['random', 'greedy'], 6);
  const idle = await newTable(server, 'cardcassonne(players=2)', ['human', 'human'], 7);
  const page = await openLobby('en', { shiftDays: 3 });
  const over = page.locator(`#tables-over + ul li.table-row[data-table="${done.table}"]`);
  await over.waitFor({ timeout: WAIT });   // the bots play it out
  assert.match(await over.locator('.table-when').textContent(), /^Ended 3 days ago$/);
  const waiting = page.locator(`#tables-playing + ul li.table-row[data-table="${idle.table}"]`);
  assert.equal(await waiting.getAttribute('class'), 'table-row stale');
  assert.equal(await waiting.locator('.table-when').textContent(), 'No move for 3 days');
  assert.equal(await waiting.locator('a.watch').textContent(), en['lobby.table.watch']);
  const order = await page.locator('li.table-row').evaluateAll((rows) => rows.map((r) => r.dataset.status));
  assert.deepEqual(order, [...order].sort((a, b) => (a === 'over') - (b === 'over')), 'playing first');

  const link = over.locator('a.replay');
  assert.equal(await link.textContent(), en['lobby.table.replay']);
  await link.click();
  await page.waitForURL(`**/t/${done.table}`);
  await page.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over',
    null, { timeout: WAIT });
  await page.locator('.replay-panel button.replay-open').click();
  await page.waitForFunction(() => document.querySelector('.board')?.classList.contains('replaying'),
    null, { timeout: WAIT });
  assertNoErrors(page);
  await page.context().close();
});

test('in the pseudo-language every text of the lobby is the catalog\'s', async () => {
  const finished = await newTable(server, 'catan_cards', ['random', 'random'], 8);
  const page = await openLobby('qps');
  await page.locator('#nt-opt-players').selectOption('3');
  await page.locator('#nt-opt-crop_circles').check();
  await page.locator('form.new-table button[type="submit"]').click();
  await page.locator('.seat-links').waitFor();
  await page.locator(`#tables-over + ul li.table-row[data-table="${finished.table}"]`)
    .waitFor({ timeout: WAIT });
  await page.locator('#tables-playing + ul li.table-row a.play-seat').first().waitFor();

  // The connection's state is the table page's words (web/table/status.mjs), checked there.
  const badge = await page.locator('.conn').evaluate((el) => el instanceof HTMLElement ? el.innerText : '');
  // the bots too are the catalog's (common.bot.<spec>), so only the program's name is bare
  const allowed = ['tafel', ...(badge.includes(PSEUDO_OPEN) ? [] : [badge])];
  assert.deepEqual(await unmarkedTexts(page, allowed), []);
  // the choices of the lists, which a closed list does not show
  const choices = await page.locator('main.lobby select option, header select option')
    .evaluateAll((os) => os.map((o) => o.textContent || ''));
  const bare = choices.filter((text) => !text.includes(PSEUDO_OPEN) && /\p{L}/u.test(text));
  assert.deepEqual(bare, [], 'every choice of a list is the catalog\'s');
  assert.ok((await page.title()).includes(PSEUDO_OPEN), 'the title too');
  assertNoErrors(page);
  await page.context().close();
});

test('a phone: the lobby fits 390 px, and every control is at least 44 x 44 px', async () => {
  await newTable(server, 'carcassonne(players=4,crop_circles=true,farmers=modern)',
    ['human', 'easy', 'human', 'hard'], 9);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await newPage(browser, { context });
  await page.goto(`${server.base}?lang=de`);   // German: the longest words
  await page.locator('#nt-game').waitFor();
  await page.locator('#nt-opt-players').selectOption('5');
  await page.locator('details.nt-details > summary').click();
  await page.locator('form.new-table button[type="submit"]').click();
  await page.locator('.seat-links').waitFor();
  await page.locator('li.table-row').first().waitFor();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `no sideways scrolling: the page is ${wide} px wide`);
  const small = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, a, select, input, summary')) {
      // a box or a radio is touched by its whole label
      const target = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
        ? el.closest('label') : el;
      const r = target.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;   // not shown
      if (r.width < 44 || r.height < 44) {
        out.push(`${target.tagName.toLowerCase()}.${target.className} "${(target.textContent || '').trim()
          .slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
    return out;
  });
  assert.deepEqual(small, [], 'touch targets of 44 x 44 px');
  assertNoErrors(page);
  await context.close();
});

test('a chosen seed is for practice tables: the form says so, the table shows it; a seat open twice', async () => {
  const en = words('en');
  const page = await openLobby('en');
  await page.locator('details.nt-details > summary').click();
  const seed = page.locator('#nt-seed');
  assert.equal(await seed.isDisabled(), false, 'one person with a bot: a seed may be chosen');
  assert.equal(await page.locator('#nt-seed-about').textContent(), en['lobby.new.seed_about']);
  await page.locator('#nt-seat-1').selectOption('human');
  assert.equal(await seed.isDisabled(), true, 'two people: the server chooses');
  assert.equal(await page.locator('#nt-seed-about').textContent(), en['lobby.new.seed_people']);
  await page.locator('#nt-seat-1').selectOption('random');
  assert.equal(await seed.isDisabled(), false);

  const pageWords = JSON.parse(readFileSync(joinPath(WEB, 'i18n', 'en', 'page.json'), 'utf8'));
  const made = await newTable(server, 'carcassonne(players=2)', ['human', 'random'], 4321);
  const table = await newPage(browser);
  await table.goto(`${made.url(0)}&lang=en`);
  const shown = table.locator('.head .seed');
  await shown.waitFor({ timeout: WAIT });
  assert.equal(await shown.textContent(), pageWords['page.seed'].replace('{seed}', '4321'));
  // the same seat in a second window of the same browser (the same player): both say so
  const twice = await newPage(browser, { context: table.context() });
  await twice.goto(`${made.url(0)}&lang=en`);
  const flag = pageWords['page.seats.windows_other'].replace('{n}', '2');
  await table.locator('.flag.windows', { hasText: flag }).waitFor({ timeout: WAIT });
  await twice.close();
  await table.locator('.flag.windows').waitFor({ state: 'detached', timeout: WAIT });
  // a table of people shows no seed
  // (seed null: the test servers let tables of people take a chosen seed)
  const people = await newTable(server, 'carcassonne(players=2)', ['human', 'human'], null);
  const other = await newPage(browser);
  await other.goto(`${people.url(0)}&lang=en`);
  await other.locator('.head').waitFor({ timeout: WAIT });
  await other.waitForFunction(() => document.getElementById('app')?.dataset.seq !== undefined);
  assert.equal(await other.locator('.head .seed').isHidden(), true);
  assertNoErrors(page, table, other);
  for (const p of [page, table, other]) await p.close();
});
/** The values of a select's options. */
const optionValues = (page, selector) =>
  page.locator(`${selector} option`).evaluateAll((os) => os.map((o) => o.value));

test('each game and count offers its own bots: expert for Cardcassonne with 2, and medium in its place elsewhere', async (t) => {
  const en = words('en');
  const page = await openLobby('en');
  // the server's tables, then this device's (when the server has the engine
  // as WebAssembly to give the page: the wasm toolchain built it)
  const places = await page.locator('input[name="nt-place"]').evaluateAll((rs) => rs.map((r) => r.value));
  if (!places.includes('device')) t.diagnostic('no tables on this device here (no tafel.wasm): the server\'s only');
  for (const place of places.length ? places : ['server']) {
    if (places.length) await page.locator(`input[name="nt-place"][value="${place}"]`).check();
    await page.locator('#nt-game').selectOption('carcassonne');
    assert.ok(!(await optionValues(page, '#nt-seat-1')).includes('expert'), `${place}: no expert for Carcassonne`);
    assert.ok((await optionValues(page, '#nt-seat-1')).includes('hard'), `${place}: hard for Carcassonne`);
    await page.locator('#nt-game').selectOption('cardcassonne');
    assert.ok((await optionValues(page, '#nt-seat-1')).includes('expert'), `${place}: expert for Cardcassonne`);
    await page.locator('#nt-seat-1').selectOption('expert');
    assert.equal(await page.locator('#nt-seat-1-about').textContent(), en['lobby.bot.expert']);
    // three players, where it has no net: not offered, and the seat falls back
    await page.locator('#nt-opt-players').selectOption('3');
    assert.ok(!(await optionValues(page, '#nt-seat-1')).includes('expert'), `${place}: no expert for 3 players`);
    assert.ok((await optionValues(page, '#nt-seat-2')).includes('hard'), `${place}: hard for 3 players`);
    assert.equal(await page.locator('#nt-seat-1').inputValue(), 'medium', `${place}: the seat falls back at 3`);
    assert.equal(await page.locator('#nt-seat-1-about').textContent(), en['lobby.bot.medium']);
    // two again: offered again
    await page.locator('#nt-opt-players').selectOption('2');
    assert.ok((await optionValues(page, '#nt-seat-1')).includes('expert'), `${place}: expert for 2 players`);
    await page.locator('#nt-seat-1').selectOption('expert');
    // back to a game it does not play: the seat takes the form's default level
    await page.locator('#nt-game').selectOption('carcassonne');
    assert.equal(await page.locator('#nt-seat-1').inputValue(), 'medium', `${place}: the seat falls back`);
    assert.equal(await page.locator('#nt-seat-1-about').textContent(), en['lobby.bot.medium']);
    assert.ok(!(await optionValues(page, '#nt-seat-1')).includes('expert'));
  }
  // the form stays valid: the table it makes has medium at that seat
  if (places.length) await page.locator('input[name="nt-place"][value="server"]').check();
  await page.locator('#nt-game').selectOption('cardcassonne');
  await page.locator('#nt-seat-1').selectOption('expert');
  await page.locator('#nt-game').selectOption('carcassonne');
  await page.locator('form.new-table button[type="submit"]').click();
  await page.locator('.seat-links').waitFor();
  assert.equal(await page.locator('form.new-table p.error').isHidden(), true);
  assert.equal(await gameStringShown(page), 'carcassonne(players=2)');
  const row = page.locator('#tables-playing + ul li.table-row').first();
  await row.waitFor();
  assert.match(await row.locator('.seat-chips').innerText(), /medium/);
  assertNoErrors(page);
  await page.context().close();
});

/** The specs of the bots every server offers, which are English words. */
const SPECS = ['random', 'greedy', 'mcts', 'easy', 'medium', 'hard'];
const ENGLISH = new RegExp(`\\b(${SPECS.join('|')})\\b`, 'i');

for (const lang of ['nl', 'de', 'it']) {
  test(`${lang}: seat choices, tables' seats and seat bar name each bot by its level`, async () => {
    // a person at seat 0, to move first: the bots wait, and each level sits at a table
    // (new ones for each language: a seat's link binds the first page's player)
    const tables = [
      await newTable(server, 'carcassonne(players=5)',
        ['human', 'random', 'greedy', 'mcts', 'easy'], 1),
      await newTable(server, 'cardcassonne(players=3)', ['human', 'medium', 'hard'], 1),
    ];
    const level = (spec) => common(lang)[`common.bot.${spec}`];
    for (const spec of SPECS) {
      assert.ok(level(spec) && !ENGLISH.test(level(spec)), `${lang}: ${spec}`);
    }
    const page = await openLobby(lang);

    const choices = await optionTexts(page, '#nt-seat-1');
    assert.deepEqual(choices.filter((c) => ENGLISH.test(c)), [],
      `${lang}: English in the seat choices`);
    for (const spec of SPECS) {
      assert.ok(choices.includes(words(lang)['lobby.seat.bot'].replace('{bot}', level(spec))),
        `${lang}: the choice of ${spec} among ${choices.join(' | ')}`);
    }
    if (lang === 'nl') assert.ok(choices.includes('Bot: gemiddeld'), choices.join(' | '));

    for (const t of tables) {
      const chips = page.locator(`li.table-row[data-table="${t.table}"] .seat-chips`);
      await chips.waitFor({ timeout: WAIT });
      const text = await chips.innerText();
      assert.doesNotMatch(text, ENGLISH, `${lang}: English in the lobby's seats of a table`);
    }
    const listed = await page.locator(`li.table-row[data-table="${tables[1].table}"] .seat-chips`)
      .innerText();
    assert.ok(listed.includes(level('medium')) && listed.includes(level('hard')), listed);
    assertNoErrors(page);

    const specs = [['random', 'greedy', 'mcts', 'easy'], ['medium', 'hard']];
    for (const [i, t] of tables.entries()) {
      await page.goto(`${t.url(0)}&lang=${lang}`);
      await page.locator('.turn').waitFor();
      const bar = page.locator('ol.seats');
      await bar.locator('li.seat').nth(specs[i].length).waitFor();
      const text = await bar.innerText();
      assert.doesNotMatch(text, ENGLISH, `${lang}: English in the seat bar: ${text}`);
      for (const spec of specs[i]) {
        assert.ok(text.includes(level(spec)), `${lang}: ${spec} in ${text}`);
      }
      if (lang === 'nl' && i === 1) assert.match(text, /bot, gemiddeld/);
    }
    assertNoErrors(page);
    await page.context().close();
  });
}
