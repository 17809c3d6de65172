// connection.mjs -- the WebSocket to `tafel serve` (docs/protocol.md).
//
// One socket with the subprotocol `tafel`: at /ws?t=<table> once the page
// sits at a table (before its join: a proxy in front of several nodes
// routes the socket by that id to the node that owns the table,
// docs/server.md "Several nodes"), at /ws otherwise.  When it drops, it is
// opened again after a growing delay (0.5 s doubling to 15 s, with jitter),
// and the table it had joined is joined again with the same token, so a
// seat survives a lost connection or a server restart.  Requests that
// change the table carry the `seq` of the latest `state` seen.  A move sent
// but not acknowledged when the socket dropped is sent once more after the
// join: the server recognises a repeated move and does not apply it twice.
// A ping every 25 s finds a connection that died without a close.  A close
// because the page's login ended (4001 logged out, 4003 disabled:
// docs/protocol.md) is not retried: the socket would come back as the
// player it no longer is; the status says why ("ended").
// A server that is one of several nodes may send the socket on
// (docs/protocol.md): `elsewhere` (the table is another node's) reopens it
// at /ws?t=<that table> after a short jittered delay, and a close with 4000
// (the table moved) reconnects within half a second; both delays grow
// while the page is sent on again without reaching its table, so a table
// in the middle of a takeover is retried, not hammered.  After either the
// join and an unacknowledged move follow as after any reconnect.

import {Channel} from "./channel.mjs";

/** @typedef {import("../types.js").ServerMessage} ServerMessage */

const MIN_DELAY = 500;
const MAX_DELAY = 15000;
const PING_EVERY = 25000;
const PONG_WITHIN = 10000;
/** The close codes of an ended login, and what the status calls them. */
/** @type {Record<number, "logged_out" | "disabled">} */
const LOGIN_ENDED = {4001: "logged_out", 4003: "disabled"};
/** The close code of a table that moved to another node (docs/protocol.md). */
const MOVED = 4000;
const MOVED_WITHIN = 500;     // after 4000: at once, jittered over 0-500 ms
const ELSEWHERE_AFTER = 250;  // after elsewhere: 125-375 ms
// The most either grows to while it repeats: a takeover is done within a
// lease (10 s by default) and one sweep, and the client must not wait much
// past it; a join answered elsewhere costs a node one UPDATE.
const HOP_MAX = 2000;
const TABLE_ID = /^[0-9a-f]{16}$/;

export class Connection extends Channel {
    /** @param {string} [url] the WebSocket address; by default /ws of this page's host */
    constructor(url) {
        super();
        const proto = location.protocol === "https:" ? "wss:" : "ws:";
        this.url = url ?? `${proto}//${location.host}/ws`;
        /** The table the socket opens for (?t=): the one joined, or where a node sent it. */
        /** @type {string | null} */
        this.route = null;
        /** Times in a row the socket was sent on (elsewhere, 4000) without reaching its table. */
        this.hops = 0;
        /** @type {WebSocket | null} */
        this.ws = null;
        /** Whether the pending move must be sent again after the next join. */
        this.resendAfterJoin = false;
        this.attempt = 0;
        /** @type {ReturnType<typeof setTimeout> | null} */
        this.retryTimer = null;
        /** @type {ReturnType<typeof setInterval> | null} */
        this.pingTimer = null;
        /** @type {ReturnType<typeof setTimeout> | null} */
        this.pongTimer = null;
        this.stopped = false;
        this.onOnline = () => this.reconnectNow();
        this.onVisible = () => {
            if (document.visibilityState === "visible") this.reconnectNow();
        };
        window.addEventListener("online", this.onOnline);
        document.addEventListener("visibilitychange", this.onVisible);
    }

    open() {
        this.stopped = false;
        if (this.ws) return;
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = null;
        this.setStatus({state: "connecting"});
        let ws;
        try {
            ws = new WebSocket(this.address(), "tafel");
        } catch {
            this.scheduleRetry();
            return;
        }
        this.ws = ws;
        ws.onopen = () => {
            this.attempt = 0;
            this.setStatus({state: "open"});
            this.startPing();
            if (this.joined) {
                this.resendAfterJoin = this.pendingMove !== null;
                this.send({type: "join", table: this.joined.table,
                           ...(this.joined.token ? {token: this.joined.token} : {})});
            }
        };
        ws.onmessage = (e) => {
            this.gotSomething();
            /** @type {ServerMessage} */
            let m;
            try {
                m = JSON.parse(String(e.data));
            } catch {
                return;
            }
            if (!m || typeof m !== "object" || typeof m.type !== "string") return;
            if (m.type === "elsewhere") {
                this.elsewhere(m.table);
                return;
            }
            this.track(m);
            this.emit(m);
        };
        ws.onclose = (e) => {
            if (this.ws !== ws) return;
            this.ws = null;
            this.stopPing();
            const ended = LOGIN_ENDED[e.code];
            if (ended) {
                this.stopped = true;
                this.setStatus({state: "ended", ended});
            } else if (this.stopped) this.setStatus({state: "closed"});
            else if (e.code === MOVED) this.moved();
            else this.scheduleRetry(e.code === 1001);
        };
        ws.onerror = () => { /* onclose follows */ };
    }

    /** Keeps seq and the pending move up to date. @param {ServerMessage} m */
    track(m) {
        if (m.type === "state" && this.joined && m.table === this.joined.table) {
            this.seq = m.seq;
            this.hops = 0;   // the table's node reached
            if (this.resendAfterJoin && this.pendingMove) {
                this.resendAfterJoin = false;
                const p = this.pendingMove;
                // unchanged table: the move was lost; one change on: it may be
                // ours (the server answers ack) or not (the server says stale)
                if (m.seq === p.seq || m.seq === p.seq + 1) {
                    this.send({type: "move", seq: p.seq, action: p.action});
                } else {
                    this.pendingMove = null;
                }
            }
        } else if (m.type === "ack") {
            this.pendingMove = null;
        } else if (m.type === "error" && this.pendingMove && m.code !== "too_big") {
            this.pendingMove = null;
        }
    }

    /** The socket's address: /ws, with ?t= of the table it opens for. */
    address() {
        if (this.route === null) return this.url;
        const url = new URL(this.url);
        url.searchParams.set("t", this.route);
        return url.href;
    }

    /**
     * Sits at a table; a socket open for another table (or none) is
     * reopened for this one first, and the join goes on the new socket.
     * @param {string} table
     * @param {string | null} token
     */
    join(table, token) {
        if (this.route !== table) {
            this.route = table;
            this.hops = 0;
            if (this.ws) {
                this.drop();
                super.join(table, token);   // not sent: it follows the open
                this.open();
                return;
            }
        }
        super.join(table, token);
    }

    /**
     * The node does not own the table: the socket reopens for it, after a
     * short jittered delay.
     * @param {unknown} table
     */
    elsewhere(table) {
        if (typeof table !== "string" || !TABLE_ID.test(table)) return;   // no place to go
        this.route = table;
        this.drop();
        this.hop(Math.min(HOP_MAX, ELSEWHERE_AFTER * 2 ** this.hops) * (0.5 + Math.random()));
    }

    /** The table moved to another node (4000): reconnect at once, jittered. */
    moved() {
        this.hop(Math.random() * Math.min(HOP_MAX, MOVED_WITHIN * 2 ** this.hops));
    }

    /** Opens the socket again after ms, having been sent on. @param {number} ms */
    hop(ms) {
        this.hops++;
        this.setStatus({state: "connecting"});
        this.retryAfter(Math.round(ms));
    }

    /** Closes the socket, which is not retried: the caller opens the next. */
    drop() {
        const ws = this.ws;
        this.ws = null;
        this.stopPing();
        ws?.close();
    }

    /** @param {boolean} restarting the server said it stops (1001): it is back soon */
    scheduleRetry(restarting = false) {
        if (restarting) this.attempt = 1;
        const delay = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.attempt);
        const jittered = Math.round(delay * (0.8 + 0.4 * Math.random()));
        this.attempt++;
        this.setStatus({state: "closed", retryIn: jittered, ...(restarting ? {restarting} : {})});
        this.retryAfter(jittered);
    }

    /** @param {number} ms */
    retryAfter(ms) {
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.open();
        }, ms);
    }

    /** Tries at once when the network or the tab comes back. */
    reconnectNow() {
        if (this.stopped || this.ws) return;
        this.attempt = 0;
        this.open();
    }

    startPing() {
        this.stopPing();
        this.pingTimer = setInterval(() => {
            this.send({type: "ping"});
            if (!this.pongTimer) {
                this.pongTimer = setTimeout(() => {
                    this.pongTimer = null;
                    this.ws?.close();   // no answer: a dead connection
                }, PONG_WITHIN);
            }
        }, PING_EVERY);
    }

    gotSomething() {
        if (this.pongTimer) clearTimeout(this.pongTimer);
        this.pongTimer = null;
    }

    stopPing() {
        if (this.pingTimer) clearInterval(this.pingTimer);
        this.gotSomething();
        this.pingTimer = null;
    }

    /**
     * Sends a message now; false when the socket is not open.
     * @param {object} m
     */
    send(m) {
        if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
        this.ws.send(JSON.stringify(m));
        return true;
    }

    close() {
        this.stopped = true;
        if (this.retryTimer) clearTimeout(this.retryTimer);
        this.retryTimer = null;
        window.removeEventListener("online", this.onOnline);
        document.removeEventListener("visibilitychange", this.onVisible);
        this.drop();
        this.setStatus({state: "closed"});
    }
}
