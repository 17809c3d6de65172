// catan_board.test.mjs -- the Catan card game's board explains the game
// (issue 24): a card's whole text in a popover on hover, on keyboard focus
// and on a tap; both principalities within a 1280x800 window beside the
// table's side panel, region names whole; a phone screen with targets of
// 44 px; the latest roll's event named and explained; the final points by
// source adding up to the engine's scores; every word inside #board from
// the catalog (the pseudo-language), and Dutch card names in Dutch; a bot's
// trade offer asked by default, declined for the player by the setting.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { webServer, launch, newPage, newTable, playByClicks, assertNoErrors, stopAll, prng, pick,
  pseudoWeb, unmarkedTexts, fetchRecord, replayViews, waitTurn, tableState, waitSeq, ROOT, WAIT }
  from './helpers.mjs';
import { seat as seatAt, playOut, mustAct } from '../server/helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** A language's catalog of the Catan card game (all its parts), flat. */
function catalogOf(lang) {
  const out = {};
  for (const part of ['catan_cards', 'catan_cards.cards', 'catan_cards.page']) {
    Object.assign(out, JSON.parse(readFileSync(joinPath(ROOT, 'web', 'i18n', lang, `${part}.json`), 'utf8')));
  }
  return out;
}
const EN = catalogOf('en');

/** A template as a pattern: each {field} any text. */
function templatePattern(template) {
  const parts = template.split(/\{[^{}]+\}/).map((s) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

/** A table of the human seat 0 against a bot, its page open at seat 0. */
async function openTable({ game = 'catan_cards(max_turns=12)', seed = 7, viewport, lang, context } = {}) {
  const t = await newTable(server, game, ['human', 'greedy'], seed);
  const page = await newPage(browser, { viewport, context });
  await page.goto(t.url(0) + (lang ? `&lang=${lang}` : ''));
  await page.locator('.ct-view').waitFor({ timeout: WAIT });
  return { t, page };
}

/** Plays by clicks until cond(page) holds at the seat's turn (or the game ends). */
async function playUntil(page, cond, { rng = prng(5), max = 400 } = {}) {
  await playByClicks(page, 'catan_cards', { rng, viewShare: 0.7,
    until: async (moves) => moves >= max || await cond(page) });
}

/** The popover when it is open: its text and box, else null. */
function popover(page) {
  return page.evaluate(() => {
    const pop = document.querySelector('.ct-pop');
    if (!pop || !pop.matches(':popover-open')) return null;
    const r = pop.getBoundingClientRect();
    return { text: pop.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
      vw: document.documentElement.clientWidth, vh: window.innerHeight };
  });
}

function assertInWindow(box, what) {
  assert.ok(box.left >= 0 && box.top >= 0 && box.right <= box.vw && box.bottom <= box.vh,
    `${what}: the popover lies inside the window: ${JSON.stringify(box)}`);
}

test('a card says its whole text on hover, on keyboard focus and on a tap; hidden cards say nothing', async () => {
  const { page } = await openTable();
  await playUntil(page, async (p) => (await p.locator('.ct-hand [data-pop^="card:"]').count()) > 0);
  const card = page.locator('.ct-hand [data-pop^="card:"]').first();
  const code = (await card.getAttribute('data-pop')).slice(5);
  const text = EN[`catan_cards.card_text.${code}`];
  assert.ok(text, `the catalog explains ${code}`);
  assert.equal(await popover(page), null, 'no popover before pointing at a card');
  assert.equal(await page.locator('.ct-pop').textContent(), '', 'an unshown popover holds no text');

  // hover
  await card.hover();
  let pop = await popover(page);
  assert.ok(pop, 'hovering a card opens its popover');
  assert.ok(pop.text.includes(text), `the popover has the card's text: ${pop.text}`);
  assert.ok(pop.text.includes(EN[`catan_cards.card.${code}`]), 'and its name');
  assertInWindow(pop, 'hover');
  assert.ok(await page.locator('.ct-pop').isVisible());
  await page.mouse.move(2, 2);
  await page.waitForFunction(() => !document.querySelector('.ct-pop')?.matches(':popover-open'));

  // keyboard: Tab to a card of the principality or the hand
  await page.locator('.turn').click();   // a start for Tab outside the board
  let focused = null;
  for (let i = 0; i < 150 && !focused; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el instanceof HTMLElement && el.dataset.pop?.startsWith('card:') ? el.dataset.pop.slice(5) : null;
    });
  }
  assert.ok(focused, 'Tab reaches a card');
  pop = await popover(page);
  assert.ok(pop, 'a card with the keyboard focus opens its popover');
  assert.ok(pop.text.includes(EN[`catan_cards.card_text.${focused}`]), `the focused card's text: ${pop.text}`);
  assertInWindow(pop, 'focus');
  await page.keyboard.press('Escape');
  assert.equal(await popover(page), null, 'Escape closes it');

  // hidden cards: backs with no text to show, and no card text of them in the page
  const backs = page.locator('.ct-other-hand .ct-mini-back');
  if (await backs.count()) {
    assert.equal(await backs.first().getAttribute('data-pop'), null, 'a hidden card has no popover');
    await backs.first().hover();
    assert.equal(await popover(page), null, 'pointing at a hidden card shows nothing');
  }
  assertNoErrors(page);
  await page.context().close();

  // a tap on a phone
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const phone = await openTable({ context });
  await playUntil(phone.page, async (p) => (await p.locator('.ct-principality [data-pop^="card:"]').count()) > 0
    || (await p.locator('.ct-hand .ct-hand-idle [data-pop^="card:"]').count()) > 0);
  const tapped = phone.page.locator('.ct-principality [data-pop^="card:"], .ct-hand .ct-hand-idle [data-pop^="card:"]').first();
  const tcode = (await tapped.getAttribute('data-pop')).slice(5);
  await tapped.scrollIntoViewIfNeeded();
  await tapped.tap();
  pop = await popover(phone.page);
  assert.ok(pop && pop.text.includes(EN[`catan_cards.card_text.${tcode}`]), `a tap shows the card's text: ${pop?.text}`);
  assertInWindow(pop, 'tap');
  assertNoErrors(phone.page);
  await context.close();
});

/** Widths of the board at this moment: overflow of the page, principalities, region names. */
function measure(page) {
  return page.evaluate(() => {
    const words = (el) => {
      const probe = document.createElement('span');
      const cs = getComputedStyle(el);
      probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${cs.font};letter-spacing:${cs.letterSpacing}`;
      document.body.append(probe);
      const widest = Math.max(...(el.textContent || '').split(/\s+/).filter(Boolean).map((w) => {
        probe.textContent = w;
        return probe.getBoundingClientRect().width;
      }));
      probe.remove();
      return widest;
    };
    return {
      page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
      side: !!document.querySelector('.side') && document.querySelector('.side').getBoundingClientRect().width > 0,
      principalities: [...document.querySelectorAll('.ct-principality')].map((p) => {
        const s = p.querySelector('.ct-scroll');
        return { scroll: s.scrollWidth, client: s.clientWidth, right: p.getBoundingClientRect().right };
      }),
      names: [...document.querySelectorAll('.ct-region-kind')].map((el) => ({
        text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth, word: words(el) })),
    };
  });
}

/** Both principalities inside the window beside the side panel, region names whole. */
async function assertFits(page) {
  const m = await measure(page);
  assert.ok(m.page[0] <= m.page[1], `the page does not scroll sideways: ${m.page}`);
  assert.ok(m.side, 'the side panel of the table is there');
  assert.equal(m.principalities.length, 2, 'both principalities');
  for (const p of m.principalities) {
    assert.ok(p.scroll <= p.client && p.right <= 1280, `a principality within the window: ${JSON.stringify(p)}`);
  }
  for (const n of m.names) {
    assert.ok(n.scroll <= n.client, `region name "${n.text}" not cut: ${JSON.stringify(n)}`);
    assert.ok(n.word <= n.client + 0.5, `region name "${n.text}": each word on one line: ${JSON.stringify(n)}`);
  }
  return m;
}

test('a log line says where in the principality in words; pointing at it lights it', async () => {
  const { page } = await openTable({ seed: 9 });
  const placed = page.locator('.log-panel ol.log li.placed');
  const pictured = page.locator('.log-panel ol.log li .ct-chip, .log-panel ol.log li .ct-region-chip');
  await playUntil(page, async () => await placed.count() >= 3 && await pictured.count() >= 1,
    { rng: prng(9), max: 150 });
  assert.ok(await pictured.count() >= 1, 'a card built or a region laid is pictured in its line');
  const texts = await page.locator('.log-panel ol.log li').allTextContents();
  assert.ok(texts.every((s) => !/\b(column|row) -?\d/.test(s)),
    `no coordinates: ${texts.join(' | ')}`);
  assert.ok(await placed.count() >= 3, 'lines name places (the regions that produce, at least)');
  const lit = page.locator('.ct-view .ct-lit');
  for (let i = 0; i < 3; i++) {
    const line = placed.nth(i);
    await line.hover();
    const places = await lit.evaluateAll((els) => els.map((e) => e.getAttribute('data-place')));
    assert.ok(places.length >= 1, `"${await line.textContent()}" lights a place`);
    for (const p of places) assert.match(p ?? '', /^[01],-?\d+,-?\d+$/, 'a principality\'s place');
  }
  await page.mouse.move(0, 0);
  assert.equal(await lit.count(), 0, 'leaving the log takes the light away');
  assertNoErrors(page);
  await page.context().close();
});

test('both principalities fit a 1280x800 window beside the side panel, region names whole', async () => {
  const { page } = await openTable({ viewport: { width: 1280, height: 800 }, seed: 11 });
  let checked = 0;
  await playByClicks(page, 'catan_cards', { rng: prng(8), viewShare: 0.7, until: async (moves) => moves >= 60,
    onMove: async () => { await assertFits(page); checked++; } });
  assert.ok(checked > 20, `positions measured: ${checked}`);
  assertNoErrors(page);
  await page.context().close();

  // the widest principality there is: seven settlements and cities in a row (greedy bots, seed 3)
  const t = await newTable(server, 'catan_cards', ['greedy', 'greedy'], 3);
  const watcher = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await watcher.goto(t.watchUrl);
  await watcher.waitForFunction(() => document.getElementById('app')?.dataset.status === 'over', null, { timeout: 60000 });
  await watcher.locator('.ct-final').waitFor();
  const cols = await watcher.locator('.ct-grid').evaluateAll((gs) => gs.map((g) => Number(g.style.getPropertyValue('--cols'))));
  assert.ok(Math.max(...cols) >= 13, `a wide principality: ${cols} columns`);
  await assertFits(watcher);
  assertNoErrors(watcher);
  await watcher.context().close();
});

test('a phone: no sideways scrolling of the page, every target at least 44x44; reduced motion, no animation', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true,
    reducedMotion: 'reduce' });
  const { page } = await openTable({ context, seed: 12 });
  let checked = 0;
  await playByClicks(page, 'catan_cards', { rng: prng(9), viewShare: 0.8, until: async (moves) => moves >= 30,
    onMove: async () => {
      const small = await page.evaluate(() => [...document.querySelectorAll(
        '.ct-view button, .ct-view [tabindex="0"], .ct-view summary')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.width < 44 || r.height < 44);
      }).map((el) => `${el.className} ${el.textContent.slice(0, 30)} ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`));
      assert.deepEqual(small, [], 'targets of at least 44x44 px');
      const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      assert.ok(sw <= cw, `no sideways scrolling: ${sw} > ${cw}`);
      const moving = await page.evaluate(() => [...document.querySelectorAll('.ct-view *')]
        .filter((el) => getComputedStyle(el).animationName !== 'none').map((el) => el.className));
      assert.deepEqual(moving, [], 'nothing moves when the reader asks for reduced motion');
      checked++;
    } });
  assert.ok(checked > 10);
  assertNoErrors(page);
  await context.close();
});

test('the latest roll is told: the event die face or event card by name, what it does and what it did', async () => {
  const { page } = await openTable({ seed: 3 });
  const faces = new Set();
  await playByClicks(page, 'catan_cards', { rng: prng(4), viewShare: 0.7, until: async (moves) => faces.size >= 3 || moves >= 250,
    onMove: async () => {
      const news = page.locator('.ct-news');
      if (!(await news.count())) return;
      const face = await news.getAttribute('data-face');
      const card = await news.getAttribute('data-card');
      if (!face) return;
      const title = await news.locator('.ct-news-title').textContent();
      const rule = await news.locator('.ct-news-rule').textContent();
      if (card) {
        assert.equal(title, EN['catan_cards.page.news_card'].replace('{name}', EN[`catan_cards.event_card.${card}`]));
        assert.equal(rule, EN[`catan_cards.event_card_text.${card}`]);
      } else {
        assert.equal(title, EN[`catan_cards.event_die.${face}`]);
        assert.equal(rule, EN[`catan_cards.event_die_text.${face}`]);
      }
      const said = await news.locator('.ct-news-said li').allTextContents();
      const kinds = { tournament: ['tournament_won', 'tournament_tied'], trade: ['trade_advantage', 'no_trade_advantage'],
        brigand: ['brigands_raid', 'brigands_spare'] }[face];
      const told = await news.locator('.ct-news-who').count();   // the accounts' roll, not the view's
      if (kinds && told) {
        const patterns = kinds.map((k) => templatePattern(EN[`catan_cards.event.${k}`].replace(/\{[a-z_]+:[a-z_.]+\}/g, '{x}')));
        assert.ok(said.some((s) => patterns.some((p) => p.test(s))), `what the ${face} did, in the catalog's words: ${JSON.stringify(said)}`);
      }
      faces.add(card ? `event:${card}` : face);
      // production lights the regions of the die's number (a Productive year lights Garrisons' too)
      const die = Number(await news.locator('.ct-news-die').getAttribute('data-die'));
      const produced = await page.locator('.ct-region.ct-produced').evaluateAll((els) =>
        els.map((el) => [Number(el.querySelector('.ct-region-number').textContent), el.querySelector('.ct-gain')?.textContent ?? '']));
      for (const [number, mark] of produced) {
        if (told && face !== 'event') assert.equal(number, die, `a region lit by production has the die's number ${die}`);
        assert.match(mark, /^\+\d+ (lumber|wool|brick|ore|grain|gold)$/);
      }
      // another seat's builds are highlighted, never one's own
      assert.equal(await page.locator('.ct-own .ct-fresh').count(), 0, 'no highlight on one\'s own builds');
    } });
  assert.ok(faces.size >= 2, `events were explained: ${[...faces]}`);
  assertNoErrors(page);
  await page.context().close();
});

test('at the end, each player\'s points by source add up to the engine\'s final scores', async () => {
  const { t, page } = await openTable({ game: 'catan_cards(max_turns=8)', seed: 21 });
  await playByClicks(page, 'catan_cards', { rng: prng(6), viewShare: 0.6 });
  assert.equal(await waitTurn(page), 'over');
  const table = page.locator('.ct-final-table');
  await table.waitFor();
  const columns = await table.evaluate((el) => {
    const body = [...el.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.textContent)));
    const total = [...el.querySelectorAll('tfoot td')].map((td) => Number(td.textContent));
    const sources = [...el.querySelectorAll('tbody tr')].map((tr) => tr.dataset.source);
    return { body, total, sources };
  });
  assert.deepEqual(columns.sources, ['settlements', 'cities', 'expansions', 'knight', 'windmill']);
  const sums = columns.total.map((_, s) => columns.body.reduce((a, row) => a + row[s], 0));
  assert.deepEqual(sums, columns.total, 'the sources add up to the totals');
  const { text } = await fetchRecord(server, t.table);
  const views = await replayViews(text, 0);
  const final = views[views.length - 1].view.players_info.map((p) => p.vp);
  assert.deepEqual(columns.total, final, 'the totals are the engine\'s final points');
  assert.ok(final.every((v) => v >= 2), 'each player has at least the two start settlements');
  assertNoErrors(page);
  await page.context().close();
});

test('in the pseudo-language every word inside #board is the catalog\'s; in Dutch the cards are Dutch', async () => {
  const web = pseudoWeb();
  const qpsServer = await webServer({ web });
  const t = await newTable(qpsServer, 'catan_cards(max_turns=10)', ['human', 'greedy'], 9);
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.goto(`${t.url(0)}&lang=qps`);
  await page.locator('.ct-view').waitFor();
  // only #board is this view's: while the finder looks, the rest of the page is hidden from it
  await page.addStyleTag({ content: 'html.only-board body * { visibility: hidden !important } '
    + 'html.only-board #board, html.only-board #board * { visibility: visible !important }' });
  const found = new Set();
  let checked = 0;
  const check = async (where) => {
    await page.evaluate(() => document.documentElement.classList.add('only-board'));
    for (const u of await unmarkedTexts(page)) found.add(`${where}: ${u}`);
    await page.evaluate(() => document.documentElement.classList.remove('only-board'));
    checked++;
  };
  await playByClicks(page, 'catan_cards', { rng: prng(2), viewShare: 0.8, until: async (moves) => moves >= 45,
    onMove: async (n) => {
      await check(`move ${n}`);
      const pops = page.locator('#board [data-pop]:visible');
      const count = await pops.count();
      if (count) {   // a popover's words, too
        await pops.nth(n % count).hover({ timeout: 2000 }).catch(() => {});
        await check(`move ${n}, popover`);
        await page.mouse.move(2, 2);
      }
    } });
  assert.ok(checked > 40);
  assert.deepEqual([...found], [], 'no text without the pseudo-language\'s marks inside #board');
  assertNoErrors(page);
  await page.context().close();

  // Dutch
  const NL = catalogOf('nl');
  const nl = await openTable({ lang: 'nl', seed: 7 });
  await playUntil(nl.page, async (p) => (await p.locator('.ct-view [data-pop^="card:"] .ct-card-name').count()) >= 2);
  const names = await nl.page.locator('.ct-view .ct-card:has(.ct-card-name)').evaluateAll((els) =>
    els.map((el) => [(el.closest('[data-pop]')?.getAttribute('data-pop') ?? '').slice(5), el.querySelector('.ct-card-name').textContent]));
  assert.ok(names.length >= 2);
  for (const [code, name] of names) assert.equal(name, NL[`catan_cards.card.${code}`], `${code} in Dutch`);
  const regions = await nl.page.locator('.ct-region-kind').allTextContents();
  assert.ok(regions.includes(NL['catan_cards.region.mountains']), `Dutch region names: ${regions}`);
  assertNoErrors(nl.page);
  await nl.page.context().close();
});

test('a bot\'s trade offer waits for the player, unless the setting declines bots\' offers for them', async () => {
  const t = await newTable(server, 'catan_cards', ['human', 'medium'], 3);
  const me = await seatAt(server, t.table, t.tokens[0]);
  const rng = prng(11);
  // seat 0 never offers, so the offer that stops the game here is the bot's
  const { final } = await playOut([me], {
    rng, timeout: 60000,
    chooser: (_, s) => {
      const quiet = s.legal.filter((a) => !a.startsWith('offer'));
      return pick(rng, quiet.length ? quiet : s.legal);
    },
    until: (latest) => mustAct(latest[0]) && !!latest[0].view?.offer && latest[0].legal.includes('decline'),
  });
  me.client.close();
  const offered = final[0].seq;

  // one browser: the seat's token is claimed by the first page that opens it
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const asking = await newPage(browser, { context });
  await asking.goto(t.url(0));
  const incoming = asking.locator('.ct-incoming');
  await incoming.waitFor({ timeout: WAIT });
  for (const key of ['accept', 'decline']) {
    assert.equal(await incoming.locator(`[data-key="${key}"]`).count(), 1, `the offer's ${key} button`);
  }
  await asking.waitForTimeout(1500);
  assert.equal((await tableState(asking)).seq, offered, 'by default the offer waits for the player');
  assert.ok(await asking.locator('#set-offers').count(), 'the setting is in the menu at this game');
  assertNoErrors(asking);
  await asking.close();

  const declining = await newPage(browser, { context, botSpeed: null });
  await declining.addInitScript(() => localStorage.setItem('tafel.botOffers', 'decline'));
  await declining.goto(t.url(0));
  await waitSeq(declining, offered);
  // the log tells the answer the page gave, and no question is left open
  await declining.waitForFunction(() => /Red declines Blue's offer/.test(document.querySelector('#side')?.textContent ?? ''),
    null, { timeout: WAIT });
  assert.equal(await declining.locator('.ct-incoming').count(), 0, 'no offer left to answer');
  assertNoErrors(declining);
  await context.close();
});

test('at 1400x900 the player\'s own principality starts inside the window at every turn, lists of known cards open', async () => {
  // a stack's known cards once stood in a narrow column, one under the other: twelve of them
  // pushed the own principality 700 px below the window
  const { page } = await openTable({ game: 'catan_cards', seed: 7, viewport: { width: 1400, height: 900 } });
  let worst = { top: 0, move: 0 }, openLists = 0;
  await playByClicks(page, 'catan_cards', { rng: prng(3), viewShare: 0.8, until: async (m) => m >= 60,
    onMove: async (move) => {
      const at = await page.evaluate(() => ({
        top: document.querySelector('.ct-own')?.getBoundingClientRect().top ?? 0,
        open: document.querySelectorAll('.ct-stack-known[open]').length,
      }));
      openLists += at.open;
      if (at.top > worst.top) worst = { top: at.top, move };
    } });
  assert.ok(openLists > 0, 'some turn had a list of known cards open');
  assert.ok(worst.top < 900 - 10, `the own principality starts at ${Math.round(worst.top)} px (move ${worst.move})`);
  assertNoErrors(page);
});
