// connection.mjs -- the WebSocket to `tafel serve` (docs/protocol.md).
//
// One socket at /ws with the subprotocol `tafel`.  When it drops, it is
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

import {Channel} from "./channel.mjs";

/** @typedef {import("../types.js").ServerMessage} ServerMessage */

const MIN_DELAY = 500;
const MAX_DELAY = 15000;
const PING_EVERY = 25000;
const PONG_WITHIN = 10000;
/** The close codes of an ended login, and what the status calls them. */
/** @type {Record<number, "logged_out" | "disabled">} */
const LOGIN_ENDED = {4001: "logged_out", 4003: "disabled"};

export class Connection extends Channel {
    /** @param {string} [url] the WebSocket address; by default /ws of this page's host */
    constructor(url) {
        super();
        const proto = location.protocol === "https:" ? "wss:" : "ws:";
        this.url = url ?? `${proto}//${location.host}/ws`;
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
            ws = new WebSocket(this.url, "tafel");
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
            } else if (!this.stopped) this.scheduleRetry(e.code === 1001);
            else this.setStatus({state: "closed"});
        };
        ws.onerror = () => { /* onclose follows */ };
    }

    /** Keeps seq and the pending move up to date. @param {ServerMessage} m */
    track(m) {
        if (m.type === "state" && this.joined && m.table === this.joined.table) {
            this.seq = m.seq;
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

    /** @param {boolean} restarting the server said it stops (1001): it is back soon */
    scheduleRetry(restarting = false) {
        if (restarting) this.attempt = 1;
        const delay = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.attempt);
        const jittered = Math.round(delay * (0.8 + 0.4 * Math.random()));
        this.attempt++;
        this.setStatus({state: "closed", retryIn: jittered, ...(restarting ? {restarting} : {})});
        this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.open();
        }, jittered);
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
        this.stopPing();
        window.removeEventListener("online", this.onOnline);
        document.removeEventListener("visibilitychange", this.onVisible);
        const ws = this.ws;
        this.ws = null;
        ws?.close();
        this.setStatus({state: "closed"});
    }
}
