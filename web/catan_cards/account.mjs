// account.mjs -- what the page shows of the engine's accounts (the `events`
// of each state message, docs/events-catan_cards.md), never of differences
// between views:
// - the report of the latest roll: the production die, the event die's
//   face, the event card it turned up, and the events that followed, up to
//   the main phase (a Good year's gains, Civil war's picks, ...);
// - what changed since this seat's own latest move ("recent"): each seat's
//   resources gained and lost, and the places where another seat built
//   (those of the latest message arrive); and what the latest roll did to
//   each region (produced, lost), kept until the next roll.
// A build's payment is not an event: its cost comes from the engine's
// pieces (cards.mjs).  No DOM here.
export {};

/** @typedef {import("../types.js").ActionEvent} ActionEvent */
/** @typedef {import("../types.js").StateMessage} StateMessage */

/**
 * @typedef {{seat: number | null, turn: number, die: number | null, alchemist: boolean, face: string | null,
 *   card: string | null, events: ActionEvent[], open: boolean}} Report
 * @typedef {{gain: number, lost: number, loss: number}} Mark
 * @typedef {{res: Record<string, number>[], regions: Map<string, Mark>, built: Set<string>,
 *   arrived: Set<string>}} Recent
 */

/** The steps that still belong to a roll: its event's decisions. */
const AFTER_ROLL = new Set(["gain", "take", "pick", "discard", "conflict", "master-builder", "master-take",
                            "master-put"]);

/** Events that change a region: kind -> which mark, and the sign of the change of the seat's resources. */
const REGION_EVENTS = /** @type {Record<string, [keyof Mark, number]>} */ ({
    production: ["gain", 1], garrison_gain: ["gain", 1], production_lost: ["lost", 0], garrison_lost: ["lost", 0],
    brigand_loss: ["loss", -1], plague_loss: ["loss", -1],
});

/** A place of a principality: "seat,col,row". @param {number} seat @param {number} col @param {number} row */
export function placeKey(seat, col, row) {
    return `${seat},${col},${row}`;
}

/** @returns {Recent} */
function freshRecent() {
    return {res: [{}, {}], regions: new Map(), built: new Set(), arrived: new Set()};
}

/**
 * @param {number | null} seat  the viewer's seat (null: a spectator)
 * @param {(what: string) => Record<string, number>} costOf  a card's or piece's cost by resource
 *   name ("road", "settlement", "city", or a card code)
 * @param {(kind: string) => string} produces  a region kind's resource name ("forest" -> "lumber")
 */
export function createAccounts(seat, costOf, produces) {
    /** @type {Report | null} */
    let report = null;
    let recent = freshRecent();
    let actions = -1;

    /** @param {number} who @param {string} res @param {number} n */
    const add = (who, res, n) => {
        if (who !== 0 && who !== 1 || !res || !n) return;
        recent.res[who][res] = (recent.res[who][res] ?? 0) + n;
    };
    /** @param {number} who @param {Record<string, number>} cost */
    const pay = (who, cost) => { for (const [res, n] of Object.entries(cost)) add(who, res, -n); };

    /** @param {ActionEvent} e @param {number} turn */
    function tell(e, turn) {
        const k = e.kind;
        if (k === "roll" || k === "alchemist_played") {
            recent.regions = new Map();   // what a roll did to the regions stays until the next roll
            report = {seat: e.seat, turn, die: k === "alchemist_played" ? e.number : null,
                      alchemist: k === "alchemist_played", face: null, card: null, events: [], open: true};
        } else if (k === "production_die") {
            report ??= {seat: e.seat, turn, die: null, alchemist: false, face: null, card: null, events: [], open: true};
            report.die = e.number;
        } else if (k === "event_die" && report) {
            report.face = e.face;
        } else if (k === "event_card" && report) {
            report.card = e.event_card;
        } else if (report?.open) {
            report.events.push(e);
        }
        const region = REGION_EVENTS[k];
        if (region) {
            const key = placeKey(e.seat, e.col, e.row);
            const mark = recent.regions.get(key) ?? {gain: 0, lost: 0, loss: 0};
            mark[region[0]] += e.count ?? 0;
            recent.regions.set(key, mark);
            add(e.seat, e.resource, region[1] * (e.count ?? 0));
            return;
        }
        switch (k) {
        case "resource_gained": add(e.seat, e.resource, 1); break;
        case "resource_taken": add(e.seat, e.resource, 1); add(e.other_seat, e.resource, -1); break;
        case "resource_given": add(e.seat, e.resource, -1); add(e.other_seat, e.resource, 1); break;
        case "bank_trade": add(e.seat, e.give, -e.rate); add(e.seat, e.get, 1); break;
        case "caravan_swap": add(e.seat, e.give, -1); add(e.seat, e.get, 1); break;
        case "search_paid": add(e.seat, e.resource, -1); break;
        case "resource_lost": add(e.seat, e.resource, -e.count); break;
        case "offer_accepted": // the terms as the offerer (other_seat) gives and gets
            add(e.other_seat, e.give, -e.give_count); add(e.other_seat, e.get, e.get_count);
            add(e.seat, e.give, e.give_count); add(e.seat, e.get, -e.get_count);
            break;
        case "road_built": pay(e.seat, costOf("road")); built(e.seat, e.col, 0); break;
        case "settlement_built": pay(e.seat, costOf("settlement")); built(e.seat, e.col, 0); break;
        case "city_built": pay(e.seat, costOf("city")); built(e.seat, e.col, 0); break;
        case "expansion_built": pay(e.seat, costOf(e.card)); built(e.seat, e.col, e.row); break;
        case "region_placed": built(e.seat, e.col, e.row); break;
        case "regions_arranged": for (const kind of e.regions ?? []) add(e.seat, produces(kind), 1); break;
        default: break;
        }
    }

    /** Another seat's build: highlighted until this seat's next move. @param {number} who @param {number} col @param {number} row */
    function built(who, col, row) {
        if (who === seat) return;
        recent.built.add(placeKey(who, col, row));
        recent.arrived.add(placeKey(who, col, row));
    }

    return {
        /**
         * Takes a state (or replay) message's accounts.
         * @param {StateMessage} state
         */
        take(state) {
            const events = state.events ?? [];
            if (state.actions < actions) { report = null; recent = freshRecent(); }   // an undo, a step back
            actions = state.actions;
            recent.arrived = new Set();
            const turn = Number(state.view?.turn ?? 0);
            for (const account of events) {
                const turnStarts = account.events.some((e) => e.kind === "turn_started");
                if (account.seat === seat || (seat === null && turnStarts)) recent = {...freshRecent(), regions: recent.regions};
                for (const e of account.events) tell(e, turn);
            }
            if (report?.open && !AFTER_ROLL.has(String(state.view?.frame ?? ""))) report.open = false;
        },
        /** @returns {Report | null} */
        report() { return report; },
        /** @returns {Recent} */
        recent() { return recent; },
        /** The arrivals are drawn once: a redraw of the same state does not animate them again. */
        arrived() { recent.arrived = new Set(); },
    };
}
