// channel.mjs -- what every connection to tables shares, whatever carries
// the messages: a WebSocket to `tafel serve` (connection.mjs) or the
// engine's worker in this page (local/connection.mjs).  Listeners of
// messages and of the status, the table joined, and the requests that
// change a table, sent with the `seq` of the latest state seen.
// A subclass says how a message is sent (send) and reads what comes back.

/** @typedef {import("../types.js").ServerMessage} ServerMessage */
/** @typedef {import("../types.js").ConnectionStatus} ConnectionStatus */

export class Channel {
    constructor() {
        /** @type {Set<(m: ServerMessage) => void>} */
        this.listeners = new Set();
        /** @type {Set<(s: ConnectionStatus) => void>} */
        this.statusListeners = new Set();
        /** @type {ConnectionStatus} */
        this.status = {state: "closed"};
        /** The table joined, and the token (null: a spectator). */
        /** @type {{table: string, token: string | null} | null} */
        this.joined = null;
        /** The seq of the latest state of the joined table (-1: none yet). */
        this.seq = -1;
        /** A move sent and not yet acknowledged. */
        /** @type {{seq: number, action: string} | null} */
        this.pendingMove = null;
    }

    /** @param {(m: ServerMessage) => void} fn */
    onMessage(fn) {
        this.listeners.add(fn);
        return () => this.listeners.delete(fn);
    }

    /** @param {(s: ConnectionStatus) => void} fn called now and at every change */
    onStatus(fn) {
        this.statusListeners.add(fn);
        fn(this.status);
        return () => this.statusListeners.delete(fn);
    }

    /** @param {ConnectionStatus} s */
    setStatus(s) {
        this.status = s;
        for (const fn of this.statusListeners) fn(s);
    }

    /** @param {ServerMessage} m */
    emit(m) {
        for (const fn of this.listeners) {
            try {
                fn(m);
            } catch (err) {
                // one broken listener must not stop the others
                setTimeout(() => { throw err; });
            }
        }
    }

    /**
     * Sends a message now; false when it cannot go.  The subclass's.
     * @param {object} _m
     * @returns {boolean}
     */
    send(_m) {
        return false;
    }

    /**
     * Sits at a table (token null: as a spectator), now and after every reconnect.
     * @param {string} table
     * @param {string | null} token
     */
    join(table, token) {
        this.joined = {table, token};
        this.seq = -1;
        this.pendingMove = null;
        this.send({type: "join", table, ...(token ? {token} : {})});
    }

    /**
     * A request that changes the table, with the latest seq.
     * @param {"move" | "undo" | "resign" | "hand_over" | "claim"} type
     * @param {object} [extra]
     */
    request(type, extra = {}) {
        return this.send({type, seq: this.seq, ...extra});
    }

    /** @param {string} action */
    move(action) {
        this.pendingMove = {seq: this.seq, action};
        return this.request("move", {action});   // else sent after the next join
    }
}
