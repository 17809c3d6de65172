// sw.js -- the static site's service worker, made from
// web/offline/sw.template.js by cmake/site_build.cmake (edit the template,
// never build/site/sw.js): the site's version and its files are filled in.
//
// Installing precaches every file of the site, so the first visit is enough
// to play offline.  The site's own files come from the cache first; anything
// else (/api/*, /ws, other origins) goes to the network untouched.  A new
// version (any file changed: a new sw.js) installs in the background and
// waits: no skipWaiting, so a page never runs half old and half new files;
// it takes over at the next start, once no page of the old one is open, and
// then deletes the old version's cache.  Caches are named by scope too, so
// two sites at two paths of one origin leave each other's alone.

const VERSION = "@TAFEL_SITE_VERSION@";
/** every file of the site, relative to sw.js (the build puts the list in) */
const FILES = ["@TAFEL_SITE_FILES@"];

// The page's type check knows the DOM's globals, not a worker's: the few
// parts of the service worker's used here.
/** @typedef {Event & {waitUntil(done: Promise<unknown>): void}} ExtendableEvent */
/** @typedef {ExtendableEvent & {request: Request, respondWith(r: Promise<Response>): void}} FetchEvent */
/** @typedef {{registration: {scope: string}, addEventListener(type: string, on: (e: any) => void): void}} ServiceWorkerScope */
const worker = /** @type {ServiceWorkerScope} */ (/** @type {unknown} */ (self));

const SCOPE = new URL(worker.registration.scope);
const PREFIX = `tafel-site ${SCOPE.href} `;
const CACHE = PREFIX + VERSION;
const INDEX = new URL("index.html", SCOPE).href;
const SITE = new Set(FILES.map((f) => new URL(f, SCOPE).href));

worker.addEventListener("install", /** @param {ExtendableEvent} event */ (event) => {
    // no-cache: the HTTP cache may hold the previous version's copy
    event.waitUntil(caches.open(CACHE).then((cache) =>
        cache.addAll(FILES.map((f) => new Request(new URL(f, SCOPE).href, {cache: "no-cache"})))));
});

worker.addEventListener("activate", /** @param {ExtendableEvent} event */ (event) => {
    event.waitUntil(caches.keys().then((names) => Promise.all(
        names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)))));
});

worker.addEventListener("fetch", /** @param {FetchEvent} event */ (event) => {
    const request = event.request;
    if (request.method !== "GET") return;
    const url = new URL(request.url);
    // a static file is the same whatever the query (?lang=nl) or fragment; a
    // range of it (the page's look at the engine's first bytes) is given whole
    url.search = "";
    url.hash = "";
    const key = url.href === SCOPE.href ? INDEX : url.href;
    if (!SITE.has(key)) return;
    event.respondWith(caches.open(CACHE)
        .then((cache) => cache.match(key, {ignoreVary: true}))
        .then((hit) => hit ?? fetch(request)));
});
