// account.mjs -- reading `state.events`: the engine's accounts of the
// actions since the previous state (docs/events-cardcassonne.md), as this
// seat may see them.  The board learns from them what was scored, who
// played where, and what left the rows; it never works it out itself.
export {};

/** @typedef {import("../types.js").ActionAccount} ActionAccount */
/** @typedef {import("../types.js").ActionEvent} ActionEvent */

/** The events that put something into a row. */
export const PLAY_KINDS = new Set(["card_played", "card_played_face_down", "follower_placed"]);

/**
 * The accounts of a state message (none on a join, a reconnection, an undo).
 * @param {{events?: ActionAccount[]}} state
 * @returns {ActionAccount[]}
 */
export function accountsOf(state) {
    return Array.isArray(state.events) ? state.events : [];
}

/**
 * A row entry an event puts at the end of a row (null: none).
 * @param {ActionEvent} ev
 * @returns {import("./cards.mjs").Entry | null}
 */
export function entryOf(ev) {
    if (ev.kind === "follower_placed") return {follower: ev.seat};
    if (ev.kind === "card_played") return {card: ev.card};
    if (ev.kind === "card_played_face_down")
        return ev.card && ev.card !== "?" ? {down: ev.seat, card: ev.card} : {down: ev.seat};
    return null;
}
