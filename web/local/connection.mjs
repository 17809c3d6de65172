// connection.mjs -- a connection to the local tables (worker.mjs) with the
// surface of net/connection.mjs's Connection, so that the table page plays
// a local table as it plays one of `tafel serve`.
//
// The worker is the server: it is "open" once it answered its first
// message, and "closed" for good when it reported that the engine did not
// load (no_engine); nothing is ever lost in transit, so nothing is retried.
// The local-only requests (info, list, export, import, delete) carry an
// `id` that their answer echoes, and are promises here.

import {Channel} from "../net/channel.mjs";

/** @typedef {import("../types.js").ServerMessage} ServerMessage */

const ENGINE_URL = new URL("../tafel.wasm", import.meta.url);

export class LocalConnection extends Channel {
    constructor() {
        super();
        /** @type {Worker | null} */
        this.worker = null;
        this.failed = false;
        this.nextId = 1;
        /** @type {Map<number, {resolve: (m: any) => void, reject: (e: Error) => void}>} */
        this.waiting = new Map();
    }

    /**
     * Whether this page can play locally: WebAssembly, and the engine's
     * module is there.  Asked with a GET of its first bytes, not a HEAD: a
     * HEAD shows in the browser's tools as a request aborted, on every page
     * load, and a host that answers any path with its index page would pass
     * it; the module's first bytes are "\0asm".
     */
    static async available() {
        if (typeof WebAssembly !== "object" || typeof Worker !== "function") return false;
        try {
            const r = await fetch(ENGINE_URL, {headers: {Range: "bytes=0-3"}});
            if (!r.ok) return false;
            // a host that ignores the range sends the whole module: read it all
            const head = new Uint8Array(await r.arrayBuffer(), 0, 4);
            return head.length === 4 && head[0] === 0 && String.fromCharCode(head[1], head[2], head[3]) === "asm";
        } catch {
            return false;
        }
    }

    open() {
        if (this.worker || this.failed) return;
        this.setStatus({state: "connecting"});
        const worker = new Worker(new URL("./worker.mjs", import.meta.url), {type: "module"});
        this.worker = worker;
        worker.onmessage = (e) => this.receive(e.data);
        worker.onerror = (e) => {
            e.preventDefault();
            this.fail(e.message || "the local tables' worker failed");
        };
        worker.postMessage({type: "ping"});
        if (this.joined) this.send({type: "join", table: this.joined.table,
                                    ...(this.joined.token ? {token: this.joined.token} : {})});
    }

    /** @param {string} why */
    fail(why) {
        this.failed = true;
        this.worker?.terminate();
        this.worker = null;
        for (const w of this.waiting.values()) w.reject(new Error(why));
        this.waiting.clear();
        this.setStatus({state: "closed"});
    }

    /** @param {any} m */
    receive(m) {
        if (!m || typeof m !== "object" || typeof m.type !== "string") return;
        if (this.status.state !== "open" && !(m.type === "error" && m.code === "no_engine"))
            this.setStatus({state: "open"});
        if (m.type === "error" && m.code === "no_engine") {
            this.emit(m);
            this.fail(m.message);
            return;
        }
        const w = typeof m.id === "number" ? this.waiting.get(m.id) : undefined;
        if (w) {
            this.waiting.delete(m.id);
            if (m.type === "error") w.reject(Object.assign(new Error(m.message), {code: m.code}));
            else w.resolve(m);
            return;
        }
        if (m.type === "pong" && this.listeners.size === 0) return;
        this.track(m);
        this.emit(m);
    }

    /** @param {ServerMessage} m */
    track(m) {
        if (m.type === "state" && this.joined && m.table === this.joined.table) this.seq = m.seq;
        else if (m.type === "ack") this.pendingMove = null;
        else if (m.type === "error" && this.pendingMove) this.pendingMove = null;
    }

    /** Nothing to reconnect: the worker is opened again only if it was never opened. */
    reconnectNow() {
        if (!this.worker && !this.failed) this.open();
    }

    /** @param {object} m */
    send(m) {
        if (!this.worker) return false;
        this.worker.postMessage(m);
        return true;
    }

    close() {
        this.worker?.terminate();
        this.worker = null;
        for (const w of this.waiting.values()) w.reject(new Error("the connection was closed"));
        this.waiting.clear();
        this.setStatus({state: "closed"});
    }

    /**
     * A local-only request, answered to this promise.
     * @param {Record<string, unknown>} m
     * @returns {Promise<any>}
     */
    ask(m) {
        if (!this.worker) this.open();
        const worker = this.worker;
        if (!worker) return Promise.reject(new Error("the local tables are not available"));
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.waiting.set(id, {resolve, reject});
            worker.postMessage({...m, id});
        });
    }

    /** @returns {Promise<import("../types.js").GamesInfo & {persistent: boolean}>} */
    async info() {
        const {games, bots, persistent} = await this.ask({type: "info"});
        return {games, bots, persistent};
    }

    /** The local games, the latest changed first. @returns {Promise<import("../types.js").DeviceGame[]>} */
    async list() { return (await this.ask({type: "list"})).games; }

    /**
     * Makes a table on this device; its id.
     * @param {string} game @param {string[]} seats @param {number | null} seed
     * @returns {Promise<string>}
     */
    async create(game, seats, seed) {
        return (await this.ask({type: "create", game, seats, ...(seed !== null ? {seed} : {})})).table;
    }

    /** The record of a table (the JSON `tafel replay` reads). @param {string} table @returns {Promise<import("../types.js").GameRecord>} */
    async exportRecord(table) { return (await this.ask({type: "export", table})).record; }

    /** A record's text made a table; its id. @param {string} text @returns {Promise<string>} */
    async importRecord(text) { return (await this.ask({type: "import", record: text})).table; }

    /** @param {string} table */
    async remove(table) { await this.ask({type: "delete", table}); }
}
