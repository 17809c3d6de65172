// leaving.mjs -- the cards a round's scoring takes out of the rows, so the
// board can show them going.  From the rows last drawn and the accounts of
// the change: once the round is over, every row loses what lay up to its
// last follower (the followers' claims; docs/rules/cardcassonne.md, Round
// scoring); while the scoring waits for a decision, the view marks the
// places taken so far, and those places lose what lay there.
import {PLAY_KINDS, entryOf} from "./account.mjs";
import {ROW_ORDER} from "./cards.mjs";

/** @typedef {import("./cards.mjs").Entry} Entry */

/**
 * @typedef {{prefix: Map<string, Entry[]>, slots: Map<string, Map<number, Entry>>}} Leaving
 * prefix: by row, the entries that left from its start (the round is over);
 * slots: by row, the entries that left the places now marked taken.
 */

/**
 * @param {Record<string, Entry[]> | null} before  the rows as last drawn
 * @param {import("../types.js").ActionAccount[]} accounts
 * @param {Record<string, Entry[]>} after  the rows of the new view
 * @returns {Leaving}
 */
export function leaving(before, accounts, after) {
    /** @type {Leaving} */
    const out = {prefix: new Map(), slots: new Map()};
    if (!before) return out;
    /** @type {Record<string, Entry[]>} */
    const rows = {};
    for (const row of ROW_ORDER) rows[row] = [...(before[row] ?? [])];
    let scoring = false, over = false;
    for (const account of accounts) {
        for (const ev of account.events) {
            const entry = PLAY_KINDS.has(ev.kind) && !scoring && !over ? entryOf(ev) : null;
            if (entry && rows[ev.row]) rows[ev.row].push(entry);
            if (ev.kind === "scoring_started" || ev.kind === "cards_secured" || ev.kind === "wrong_card_ten")
                scoring = true;
            if (ev.kind === "round_over") over = true;
        }
    }
    for (const row of ROW_ORDER) {
        const was = rows[row];
        if (over) {
            let k = 0;
            was.forEach((e, i) => { if (e.follower !== undefined) k = i + 1; });
            if (k > 0) out.prefix.set(row, was.slice(0, k));
        } else if (scoring) {
            /** @type {Map<number, Entry>} */
            const slots = new Map();
            (after[row] ?? []).forEach((e, i) => {
                const old = was[i];
                if (e.taken && old && !old.taken && old.follower === undefined) slots.set(i, old);
            });
            if (slots.size) out.slots.set(row, slots);
        }
    }
    return out;
}
