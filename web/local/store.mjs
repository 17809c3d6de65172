// store.mjs -- where local tables are kept: IndexedDB (database
// "tafel-local", object store "tables", keyed by "table"), so that a game
// survives a reload and a closed tab; or memory, for node's tests and for a
// browser that refuses IndexedDB (a private window), which then says so
// (`persistent: false`).  Both have the same surface: get, put, list, delete,
// each a promise.

/** @typedef {import("./record.mjs").SavedTable} SavedTable */
/**
 * @typedef {{persistent: boolean, why?: string,
 *   get(table: string): Promise<SavedTable | undefined>,
 *   put(saved: SavedTable): Promise<void>,
 *   list(): Promise<SavedTable[]>,
 *   delete(table: string): Promise<void>}} Store
 */

const DB_NAME = "tafel-local";
const STORE = "tables";

/** A store in memory: copies in and out, as IndexedDB's are. @returns {Store} */
export function memoryStore() {
    /** @type {Map<string, SavedTable>} */
    const tables = new Map();
    return {
        persistent: false,
        async get(table) {
            const s = tables.get(table);
            return s && structuredClone(s);
        },
        async put(saved) { tables.set(saved.table, structuredClone(saved)); },
        async list() { return [...tables.values()].map((s) => structuredClone(s)); },
        async delete(table) { tables.delete(table); },
    };
}

/** @template T @param {IDBRequest<T>} req @returns {Promise<T>} */
function done(req) {
    return new Promise((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error("IndexedDB failed"));
    });
}

/** @returns {Promise<IDBDatabase>} */
function openDatabase() {
    return new Promise((resolve, reject) => {
        if (typeof indexedDB === "undefined") {
            reject(new Error("no IndexedDB here"));
            return;
        }
        const req = indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = () => req.result.createObjectStore(STORE, {keyPath: "table"});
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error("IndexedDB refused"));
        req.onblocked = () => reject(new Error("IndexedDB is blocked by another tab"));
    });
}

/**
 * The IndexedDB store, or, when the browser refuses it, one in memory
 * (`persistent: false`, `why` the browser's reason, said once on the console).
 * @returns {Promise<Store>}
 */
export async function openStore() {
    let db;
    try {
        db = await openDatabase();
    } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        console.warn(`tafel: local games are kept in memory only: ${why}`);
        return {...memoryStore(), why};
    }
    /** @param {IDBTransactionMode} mode */
    const tables = (mode) => db.transaction(STORE, mode).objectStore(STORE);
    return {
        persistent: true,
        get: (table) => done(tables("readonly").get(table)),
        async put(saved) {
            const tx = db.transaction(STORE, "readwrite");
            tx.objectStore(STORE).put(saved);
            await new Promise((resolve, reject) => {
                tx.oncomplete = () => resolve(undefined);
                tx.onerror = () => reject(tx.error ?? new Error("IndexedDB refused the game"));
                tx.onabort = () => reject(tx.error ?? new Error("IndexedDB refused the game"));
            });
        },
        list: () => done(tables("readonly").getAll()),
        async delete(table) { await done(tables("readwrite").delete(table)); },
    };
}
