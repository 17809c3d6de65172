// wasm_route.test.mjs -- tafel serve's side of the local tables: GET
// /tafel.wasm answers the engine as WebAssembly built beside the program
// (build/wasm/tafel.wasm, or <prefix>/share/tafel/tafel.wasm once
// installed) as application/wasm, 404 when there is none; the page goes out
// with a Content-Security-Policy that lets it compile the module and start
// its own module workers, and nothing from elsewhere.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join as joinPath } from 'node:path';
import { TAFEL, startServer, startServerVia, stopAll, get, tempDir } from './helpers.mjs';

after(stopAll);

const BUILT = joinPath(dirname(TAFEL), 'wasm', 'tafel.wasm');
const PAGE = '<!doctype html><title>tafel test page</title>';

function webDir() {
  const web = tempDir('tafel-web-');
  writeFileSync(joinPath(web, 'index.html'), PAGE);
  writeFileSync(joinPath(web, 'app.mjs'), 'export {};\n');
  writeFileSync(joinPath(web, 'manifest.webmanifest'), '{"name": "tafel"}\n');
  return web;
}

/**
 * tafel serve run from a copy of the program at dir/bin/tafel: the module
 * is found from the program's own place (/proc/self/exe), so a copy stands
 * for a program built or installed elsewhere.  (sh execs the copy in
 * startServerVia's place of TAFEL: "$0" is the copy, the shift drops TAFEL.)
 */
function serveCopy(dir, args) {
  mkdirSync(joinPath(dir, 'bin'), { recursive: true });
  const copy = joinPath(dir, 'bin', 'tafel');
  copyFileSync(TAFEL, copy);
  return startServerVia({ prefix: ['/bin/sh', '-c', 'shift; exec "$0" "$@"', copy], args, dir });
}

test('the page goes out with a CSP that allows wasm and its own workers only', async () => {
  const server = await startServer({ args: ['--web', webDir()] });
  for (const path of ['/', '/index.html']) {
    const r = await get(server, path);
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy');
    assert.ok(csp, `${path}: a Content-Security-Policy`);
    const rules = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]));
    assert.deepEqual(rules['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
    assert.deepEqual(rules['worker-src'], ["'self'"]);
    assert.deepEqual(rules['default-src'], ["'self'"]);
    assert.ok(!csp.includes("'unsafe-eval'"), 'no eval of strings');
  }
  const js = await get(server, '/app.mjs');
  assert.equal(js.headers.get('content-security-policy'), null, 'the policy is the page\'s');
  const manifest = await get(server, '/manifest.webmanifest');
  assert.equal(manifest.status, 200);
  assert.equal(manifest.headers.get('content-type'), 'application/manifest+json');
});

test('GET /tafel.wasm answers the module built beside the program, as application/wasm',
  { skip: !existsSync(BUILT) && `no ${BUILT} (built without the wasm toolchain)` }, async () => {
    const server = await startServer({ args: ['--web', webDir()] });
    const r = await fetch(new URL('/tafel.wasm', server.base), { headers: { 'accept-encoding': 'identity' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/wasm');
    const body = Buffer.from(await r.arrayBuffer());
    assert.ok(body.equals(readFileSync(BUILT)), 'the very bytes of build/wasm/tafel.wasm');
    assert.ok(WebAssembly.validate(body), 'a module WebAssembly takes');
    const gz = await fetch(new URL('/tafel.wasm', server.base), { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-type'), 'application/wasm', 'compressed, the same type');
    assert.ok(Buffer.from(await gz.arrayBuffer()).equals(body), 'and the same bytes once inflated');
  });

test('without a module beside the program, GET /tafel.wasm is 404', async () => {
  const server = await serveCopy(tempDir('tafel-nowasm-'), ['--web', webDir()]);
  const r = await get(server, '/tafel.wasm');
  assert.equal(r.status, 404);
  assert.equal((await get(server, '/')).status, 200, 'the page is served all the same');
});

test('an installed tafel answers <prefix>/share/tafel/tafel.wasm', async () => {
  const prefix = tempDir('tafel-prefix-');
  const share = joinPath(prefix, 'share', 'tafel');
  mkdirSync(joinPath(share, 'web'), { recursive: true });
  writeFileSync(joinPath(share, 'web', 'index.html'), PAGE);
  const module = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]); // the empty module
  writeFileSync(joinPath(share, 'tafel.wasm'), module);
  const server = await serveCopy(prefix, []);
  const r = await fetch(new URL('/tafel.wasm', server.base));
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/wasm');
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(module));
  assert.equal((await get(server, '/')).body, PAGE, 'the installed page');
});
