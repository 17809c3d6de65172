// static-server.mjs -- a plain static file server for the tests of the
// static site (offline.test.mjs): what any static host does and nothing
// more -- files by path with their MIME type, 404 for anything else, no
// directory listing (a folder's index.html only), no /api and no /ws, so
// a test sees the page as it runs with no tafel serve at all.  Listens on
// 127.0.0.1 on a free port.  Its root may change while it runs (setRoot),
// so that a second version of a site is served at the same origin, as a
// host's next upload is.

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join as joinPath, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves dir; resolves to { url (with the final slash), port, setRoot(dir),
 * requests (the paths asked, in order), close() }.
 */
export async function serveStatic(dir) {
  let root = resolve(dir);
  const requests = [];
  const server = createServer(async (req, res) => {
    const notFound = () => { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found\n'); };
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return notFound(); // a malformed %-escape names no file
    }
    requests.push(path);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    let file = resolve(joinPath(root, path));
    if (file !== root && !file.startsWith(root + sep)) return notFound();
    try {
      if ((await stat(file)).isDirectory()) file = joinPath(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] || 'application/octet-stream',
        'content-length': body.length,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      notFound();
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    requests,
    setRoot: (next) => { root = resolve(next); },
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
