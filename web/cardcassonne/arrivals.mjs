// arrivals.mjs -- what the other players put into the rows since this
// seat's own last action, from the accounts: those entries are marked on
// the board (in the player's colour, with its name) until the seat acts
// again, and the newest come in with a short animation.  A spectator, who
// never acts, sees the marks of the latest change.
import {PLAY_KINDS, accountsOf} from "./account.mjs";

/** @typedef {{seat: number, row: string, index: number, fresh: boolean}} Arrival */

export class Arrivals {
    /** @param {number | null} seat  the viewer's seat (null: a spectator) */
    constructor(seat) {
        this.seat = seat;
        /** @type {Arrival[]} */
        this.list = [];
        this.actions = -1;
    }

    /**
     * Follows one state message.
     * @param {import("../types.js").StateMessage} state
     */
    update(state) {
        this.drawn();
        if (state.actions < this.actions) this.list = [];   // an undo
        this.actions = state.actions;
        /** @type {number[]} */
        let came = [];
        let moved = false;
        for (const account of accountsOf(state)) {
            if (this.seat !== null && account.seat === this.seat) {
                this.list = [];   // the seat acted: the marks of before are seen
                came = [];
            }
            for (const ev of account.events) {
                if (ev.kind === "round_over") moved = true;   // the rows close up
                if (!PLAY_KINDS.has(ev.kind) || typeof ev.seat !== "number" || ev.seat === this.seat) continue;
                if (this.seat === null && !came.length) this.list = [];
                came.push(ev.seat);
            }
        }
        // Places noted before a round's scoring moved with the cards left in the rows.
        if (moved) this.list = [];
        const seats = state.view?.seats ?? [];
        for (const s of new Set(came)) {
            const last = seats[s]?.last;
            if (!last || typeof last.row !== "string") continue;
            this.list = this.list.filter((a) => !(a.row === last.row && a.index === last.index));
            this.list.push({seat: s, row: last.row, index: last.index, fresh: true});
        }
    }

    /** The newest were drawn coming in: a redraw of the same state shows them still. */
    drawn() {
        for (const a of this.list) a.fresh = false;
    }

    /**
     * The arrival at a place of a row, if any.
     * @param {string} row
     * @param {number} index
     * @returns {Arrival | undefined}
     */
    at(row, index) {
        return this.list.find((a) => a.row === row && a.index === index);
    }
}
