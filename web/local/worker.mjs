// worker.mjs -- the local tables in a module Web Worker: the engine and the
// bots think here, never on the page's thread.  The page posts the messages
// it would send `tafel serve` and gets back the ones the server would send
// (docs/local.md).  Messages are handled one at a time, in order: a bot's
// search delays the next message, never the page.

import {loadEngine} from "../engine/tafel.mjs";
import {openStore} from "./store.mjs";
import {LocalTables} from "./tables.mjs";

const scope = /** @type {any} */ (self);

/** @param {unknown} m */
function post(m) {
    scope.postMessage(m);
}

/** @returns {Promise<LocalTables | null>} */
async function start() {
    try {
        const engine = await loadEngine(fetch(new URL("../tafel.wasm", import.meta.url)));
        const store = await openStore();
        return new LocalTables(engine, store, post);
    } catch (err) {
        post({type: "error", code: "no_engine", message: err instanceof Error ? err.message : String(err)});
        return null;
    }
}

const ready = start();
/** @type {Promise<unknown>} */
let queue = Promise.resolve();

// set at once, before the engine is loaded: no message is lost while it loads
scope.onmessage = (/** @type {MessageEvent} */ e) => {
    queue = queue.then(async () => {
        const tables = await ready;
        if (!tables) {
            post({type: "error", code: "no_engine", message: "the engine did not load"});
            return;
        }
        await tables.handle(e.data);
    }).catch((err) => {
        post({type: "error", code: "storage", message: `the local tables failed: ${err}`});
    });
};
