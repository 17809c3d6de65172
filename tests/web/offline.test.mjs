// offline.test.mjs -- the static site (make site, build/site: docs/site.md)
// served by a plain static file server (static-server.mjs), no tafel serve:
// the first visit registers the service worker and precaches every file;
// with the network cut the page loads again from the cache with no network
// error in its console; a new version of the site installs in the
// background, a reload still runs the old one, and a new start the new one;
// from a folder of a host (/games/tafel/) it asks nothing of the host's root.
//
// The site is build/site, or TAFEL_SITE; the test is skipped, saying so,
// when it is not there (built without the wasm toolchain).  The only
// console errors allowed are those of requests that are not the site's
// (/api/*, the socket /ws: there is no server), which go to the network
// untouched.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, statSync, appendFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join as joinPath, resolve } from 'node:path';
import { launch, tempDir, stopAll, ROOT, WEB, WAIT } from './helpers.mjs';
import { serveStatic } from './static-server.mjs';

const SITE = resolve(ROOT, process.env.TAFEL_SITE || 'build/site');
const SKIP = !existsSync(joinPath(SITE, 'sw.js'))
  && `no static site at ${SITE} (cmake --build build --target site, or TAFEL_SITE=folder)`;

let browser;
const servers = [];
before(async () => { if (!SKIP) browser = await launch(); });
after(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  await stopAll();
});

/** Every file under dir, relative, '/'-separated. */
function filesOf(dir, prefix = '') {
  return readdirSync(joinPath(dir, prefix)).flatMap((name) => {
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(joinPath(dir, rel)).isDirectory() ? filesOf(dir, rel) : [rel];
  });
}

/** A copy of the site in a folder of its own, served: { dir, server }. */
async function servedCopy() {
  const dir = joinPath(tempDir('tafel-site-'), 'site');
  cpSync(SITE, dir, { recursive: true });
  const server = await serveStatic(dir);
  servers.push(server);
  return { dir, server };
}

/** The site's version, as its sw.js says. */
const versionOf = (dir) => /const VERSION = "([0-9a-f]{64})"/.exec(readFileSync(joinPath(dir, 'sw.js'), 'utf8'))[1];

/**
 * A page whose console errors are kept in page.errors, except those of
 * other origins; page.siteFailures lists the site's own requests that
 * failed or were refused.  The static site asks its host nothing but its
 * own files: no /api, no /ws (app.mjs knows there is no server).
 */
async function openPage(context, server) {
  const page = await context.newPage();
  page.errors = [];
  page.siteFailures = [];
  const notOurs = (url) => !!url && !url.startsWith(server.url);
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (/Failed to load resource/.test(msg.text()) && notOurs(msg.location()?.url)) return;
    const socket = /^WebSocket connection to '([^']*)' failed/.exec(msg.text());
    if (socket && notOurs(socket[1].replace(/^ws/, 'http'))) return;
    page.errors.push(`console: ${msg.text()} (${msg.location()?.url})`);
  });
  page.on('pageerror', (err) => page.errors.push(`pageerror: ${err.stack || err.message}`));
  page.on('requestfailed', (r) => {
    // ERR_ABORTED: dropped by the page itself (it navigated away meanwhile);
    // never the engine's module: a HEAD of it showed as aborted on every load
    const why = r.failure()?.errorText;
    const engine = r.url().endsWith('/tafel.wasm');
    if (!notOurs(r.url()) && (why !== 'net::ERR_ABORTED' || engine)) page.siteFailures.push(`${r.url()}: ${why}`);
  });
  page.on('response', (r) => { if (!notOurs(r.url()) && r.status() >= 400) page.siteFailures.push(`${r.url()}: ${r.status()}`); });
  return page;
}

/** Waits for the site's service worker to be active; its scope. */
function activeWorker(page) {
  const none = new Promise((_, fail) => setTimeout(() => fail(new Error(`no service worker active in ${WAIT} ms `
    + '(does app.mjs call registerOffline() of offline/register.mjs?)')), WAIT).unref());
  return Promise.race([none, page.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    const active = /** @type {ServiceWorker} */ (r.active);
    if (active.state === 'activating') {
      await new Promise((ok) => active.addEventListener('statechange', ok, { once: true }));
    }
    return { scope: r.scope, state: active.state, script: active.scriptURL };
  })]);
}

/** The text of a site file as the page gets it (through the service worker). */
const fetched = (page, path) => page.evaluate(async (p) => (await fetch(p)).text(), path);

/** The app ran: the lobby offers a table on this device (the engine loaded in its worker). */
const appRan = (page) => page.locator('#nt-game').waitFor({ timeout: WAIT });

test('the first visit keeps the whole site; offline it loads from the cache', { skip: SKIP }, async () => {
  const { dir, server } = await servedCopy();
  const context = await browser.newContext();
  const page = await openPage(context, server);
  await page.goto(server.url);
  const worker = await activeWorker(page);
  assert.equal(worker.scope, server.url, 'the site\'s folder is the scope');
  assert.equal(worker.script, `${server.url}sw.js`);
  assert.equal(worker.state, 'activated');

  // every file but sw.js itself is in the cache, the very bytes
  const expected = filesOf(dir).filter((f) => f !== 'sw.js').sort();
  const cached = await page.evaluate(async () => {
    const names = await caches.keys();
    const cache = await caches.open(names.find((n) => n.startsWith('tafel-site ')));
    const out = {};
    for (const req of await cache.keys()) out[req.url] = (await (await cache.match(req)).arrayBuffer()).byteLength;
    return { names, out };
  });
  assert.deepEqual(cached.names, [`tafel-site ${server.url} ${versionOf(dir)}`], 'one cache, this version\'s');
  assert.deepEqual(Object.keys(cached.out).map((u) => u.slice(server.url.length)).sort(), expected);
  for (const f of expected) assert.equal(cached.out[server.url + f], statSync(joinPath(dir, f)).size, f);
  await appRan(page);
  assert.deepEqual(page.siteFailures, []);
  assert.deepEqual(page.errors, []);

  // no network: the page, its modules, its words and the module all come from the cache
  await context.setOffline(true);
  const asked = server.requests.length;
  const answered = [];
  page.on('response', (r) => { if (r.url().startsWith(server.url)) answered.push([r.url(), r.status()]); });
  await page.goto(`${server.url}?lang=de`); // a reload, with a query the cache ignores
  await appRan(page);
  assert.equal(await page.evaluate(() => !!navigator.serviceWorker.controller), true, 'the worker serves the page');
  const wasm = await page.evaluate(async () => {
    const r = await fetch('./tafel.wasm');
    return { type: r.headers.get('content-type'), ok: WebAssembly.validate(await r.arrayBuffer()) };
  });
  assert.deepEqual(wasm, { type: 'application/wasm', ok: true }, 'the engine, offline');
  const site = answered.filter(([u]) => !/\/(api\/|ws$)/.test(new URL(u).pathname));
  assert.ok(site.length > 10, `the page's files were asked (${site.length})`);
  // from the worker's cache (or the page's memory cache, which Blink may
  // use for a stylesheet it has just had): the server below saw nothing
  assert.deepEqual(site.filter(([, status]) => status !== 200), [], 'every site file there');
  // but for the browser's own check for a new sw.js at each start, which
  // playwright's setOffline (the page's network) does not cut; truly
  // offline it fails quietly and the cached version runs on
  assert.deepEqual(server.requests.slice(asked).filter((p) => p !== '/sw.js'), [],
    'the static server was asked nothing');
  assert.deepEqual(page.siteFailures, []);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a new version installs in the background: a reload runs the old one, a new start the new',
  { skip: SKIP }, async () => {
    const { dir, server } = await servedCopy();
    const context = await browser.newContext();
    let page = await openPage(context, server);
    await page.goto(server.url);
    await activeWorker(page);
    await page.reload(); // now under the worker's control
    assert.equal(await page.evaluate(() => !!navigator.serviceWorker.controller), true);
    const oldStyle = await fetched(page, './style.css');

    // the next version: web/ with style.css changed, made by the site's own script
    const web = joinPath(tempDir('tafel-web-'), 'web');
    cpSync(WEB, web, { recursive: true });
    const MARK = '/* offline.test.mjs: the second version */\n';
    appendFileSync(joinPath(web, 'style.css'), MARK);
    const next = joinPath(tempDir('tafel-site2-'), 'site');
    execFileSync('cmake', [`-DWEB=${web}`, `-DWASM=${joinPath(dir, 'tafel.wasm')}`, `-DOUT=${next}`,
      '-P', joinPath(ROOT, 'cmake', 'site_build.cmake')]);
    assert.notEqual(versionOf(next), versionOf(dir), 'a changed file makes a new version');
    server.setRoot(next);

    // a reload finds it and installs it, but the page still runs the old one
    await page.reload();
    await appRan(page);
    // polled from here: waitForFunction takes a promise for truth at once, and a
    // page closed while the new version still installs throws it away
    await waitFor(() => page.evaluate(async () =>
      (await navigator.serviceWorker.getRegistration())?.waiting?.state === 'installed'));
    assert.equal(await fetched(page, './style.css'), oldStyle, 'the old version after a reload');
    assert.ok(!oldStyle.includes(MARK));

    // a new start: the last page closes, the new version takes over
    await page.close();
    const worker = await waitFor(async () => {
      for (const w of context.serviceWorkers()) {
        const state = await w.evaluate(async () => ({ version: VERSION, caches: await caches.keys() })).catch(() => null);
        if (state?.version === versionOf(next) && state.caches.length === 1) return state;
      }
      return null;
    });
    assert.deepEqual(worker.caches, [`tafel-site ${server.url} ${versionOf(next)}`], 'the old cache is gone');
    page = await openPage(context, server);
    await page.goto(server.url);
    await appRan(page);
    assert.ok((await fetched(page, './style.css')).endsWith(MARK), 'the new version after a new start');
    assert.deepEqual(page.siteFailures, []);
    assert.deepEqual(page.errors, []);
    await context.close();
  });

test('the site works from a folder of a host, not only from its root', { skip: SKIP }, async () => {
  const host = tempDir('tafel-host-');
  cpSync(SITE, joinPath(host, 'games', 'tafel'), { recursive: true });
  const server = await serveStatic(host);
  servers.push(server);
  const url = `${server.url}games/tafel/`;
  const context = await browser.newContext();
  const page = await openPage(context, { url });
  await page.goto(url);
  assert.equal((await activeWorker(page)).scope, url, 'the folder is the worker\'s scope');
  await appRan(page);
  // every file the page asks for is the site's: nothing from the host's root
  // (the server's /api and /ws are not the site's, and may be asked)
  const outside = server.requests.filter((p) => !p.startsWith('/games/tafel/') && !/^\/(api\/|ws$)/.test(p));
  assert.deepEqual(outside, [], 'root-relative paths left in the page');
  assert.deepEqual(page.siteFailures, []);
  assert.deepEqual(page.errors, []);
  await context.close();
});

/** Polls f until it gives something (WAIT at most). */
async function waitFor(f) {
  const end = Date.now() + WAIT;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((ok) => setTimeout(ok, 100));
  }
}
