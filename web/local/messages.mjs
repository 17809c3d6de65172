// messages.mjs -- the messages of docs/protocol.md built from a local table,
// field by field and in the order src/server/protocol/protocol.c builds them, so that
// the page cannot tell a local table from one of `tafel serve`.
//
// A message is built per viewer (seat, or -1 a spectator): its view, its
// last actions, its accounts and its legal actions come from the engine for
// that seat only.  Local tables have no clock, no ratings, no chat and no
// names but the bots' specs.

import {CHANCE, TERMINAL} from "../engine/tafel.mjs";

/** @typedef {import("./table.mjs").LocalTable} LocalTable */
/** @typedef {import("../engine/tafel.mjs").State} State */

const PROTOCOL_VERSION = 1;

/** @param {number} seat */
function seatValue(seat) {
    return seat === CHANCE || seat < -2 ? "chance" : seat === TERMINAL ? "terminal" : seat;
}

/** @param {string | null} json */
function parsed(json) {
    return json ? JSON.parse(json) : [];
}

/**
 * The seats as the server shows them to a client without a login: a bot's
 * seat named by its spec; the people all connected (they share the screen).
 * @param {LocalTable} t @param {number | null} socketSeat
 */
function seatsJson(t, socketSeat) {
    return t.seats.map((s, i) => {
        const bot = t.isBot(i);
        /** @type {Record<string, unknown>} */
        const o = {kind: bot && !s.resigned ? "bot" : "human"};
        if (bot) o.bot = s.spec;
        if (bot && !s.human) o.name = s.spec;
        // every person at a table on this device is at its one screen: none is "away"
        const sockets = socketSeat === i || !bot ? 1 : 0;
        o.connected = sockets > 0;
        o.sockets = sockets;
        o.resigned = s.resigned;
        return o;
    });
}

/**
 * The accounts of the table's actions from index `from` on, as seat saw
 * them: those of the latest change.
 * @param {LocalTable} t @param {number} seat @param {number} from
 */
function eventsJson(t, seat, from) {
    const changeFrom = t.texts.length - t.last.length;
    const list = [];
    for (let i = Math.max(from, changeFrom); i < t.texts.length; i++) {
        const l = t.last[i - changeFrom];
        list.push({n: i + 1, seat: seatValue(l.seat < 0 ? CHANCE : l.seat), events: parsed(l.events[seat + 1])});
    }
    return list;
}

/**
 * A state message (or a replay's, for a past position: `past`) for seat.
 * @param {LocalTable} t
 * @param {number} seat -1 a spectator
 * @param {number} from the first action whose account is told
 * @param {{type?: "state" | "replay", state?: State, actions?: number, over?: boolean,
 *   socketSeat?: number | null}} [past]
 */
export function stateMessage(t, seat, from, past = {}) {
    const type = past.type ?? "state";
    const state = past.state ?? t.state;
    const nactions = past.actions ?? t.texts.length;
    const over = past.over ?? t.over;
    const live = type === "state";
    const current = state.current();
    /** @type {Record<string, unknown>} */
    const msg = {type, protocol: PROTOCOL_VERSION, table: t.id, seq: t.seq, actions: nactions,
                 seat: seat >= 0 ? seat : null, game: t.gameString, status: over ? "over" : "playing"};
    if (t.seedChosen) msg.seed = t.seed.toString();
    msg.rated = false;
    msg.private = false;
    msg.waiting = false; // a table on this device invites nobody (docs/club.md, "Invitations by name")
    msg.to_move = seatValue(over ? TERMINAL : current);
    msg.seats = seatsJson(t, past.socketSeat === undefined ? (seat >= 0 ? seat : null) : past.socketSeat);
    msg.view = JSON.parse(state.viewJson(seat));
    msg.last = live ? t.last.map((l) => ({seat: seatValue(l.seat < 0 ? CHANCE : l.seat), text: l.text[seat + 1] ?? ""}))
        : [];
    msg.events = live ? eventsJson(t, seat, from) : [];
    if (live && seat >= 0 && !over && current === seat && !t.isBot(seat))
        msg.legal = state.legal().map((a) => state.toText(a));
    msg.undo = live && seat >= 0 && t.whyNoUndo(seat) === null;
    msg.scores = state.scores();
    msg.breakdown = Array.from({length: t.players}, (_, p) => state.breakdown(p));
    if (over) msg.winners = t.winners(state);
    return msg;
}

/**
 * `replay`: the position after the first n actions of a finished table, as
 * seat saw it, with its account of action n.
 * @param {LocalTable} t @param {number} seat @param {number} n @param {number | null} socketSeat
 */
export function replayMessage(t, seat, n, socketSeat) {
    const s = t.game.newState();
    try {
        let account = null;
        for (let i = 0; i < n; i++) {
            const a = s.fromText(t.texts[i]);
            if (i === n - 1) account = describe(s, a, seat);
            s.apply(a);
        }
        const over = n === t.texts.length || s.current() === TERMINAL;
        const msg = stateMessage(t, seat, n, {type: "replay", state: s, actions: n, over, socketSeat});
        if (n > 0) {
            const who = t.actionSeats[n - 1];
            /** @type {unknown[]} */ (msg.events).push({n, seat: seatValue(who < 0 ? CHANCE : who),
                                                       events: parsed(account)});
        }
        return msg;
    } finally {
        s.free();
    }
}

/** The account, or null when the engine has none. @param {State} s @param {number} a @param {number} seat */
function describe(s, a, seat) {
    try {
        return s.describe(a, seat);
    } catch {
        return null;
    }
}

/**
 * `history`: every action as seat may see it, its account and the scores after it.
 * @param {LocalTable} t @param {number} seat
 */
export function historyMessage(t, seat) {
    const s = t.game.newState();
    const actions = [];
    try {
        for (let i = 0; i < t.texts.length; i++) {
            let a;
            try {
                a = s.fromText(t.texts[i]);
            } catch {
                break;
            }
            let text = "";
            try {
                text = s.viewText(a, seat);
            } catch { /* told as "" */ }
            const who = t.actionSeats[i];
            const o = {seat: seatValue(who < 0 ? CHANCE : who), text, events: parsed(describe(s, a, seat)),
                       scores: /** @type {number[]} */ ([])};
            s.apply(a);
            o.scores = s.scores();
            actions.push(o);
        }
    } finally {
        s.free();
    }
    return {type: "history", seq: t.seq, actions};
}

/**
 * `hint`: the `hard` bot's best moves for seat, each with its account.
 * @param {LocalTable} t @param {number} seat
 * @param {{action: number, share: number, winrate: number | null}[]} moves
 */
export function hintMessage(t, seat, moves) {
    return {
        type: "hint", seq: t.seq, bot: "hard",
        moves: moves.map((m) => ({action: t.state.toText(m.action), share: m.share, winrate: m.winrate,
                                  events: parsed(describe(t.state, m.action, seat))})),
    };
}
