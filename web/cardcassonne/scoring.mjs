// scoring.mjs -- round scoring: what each seat's follower secured and the
// points it brought, by kind.  The view holds the rows before scoring and
// the points after; this module remembers the rows of the latest view of
// the play (plus the move that ended it, from `state.last`), keeps every
// card turned over while the scoring decisions run, and when scoring is
// done reports per seat the cards secured and the difference of `points`,
// `animals` and `chest`.  It computes no score itself.
import {h, seatLook} from "../cards/dom.mjs";
import {ROW_ORDER, entryElement} from "./cards.mjs";
import {securedBy} from "./rows.mjs";
import {POINT_LABELS} from "./chests.mjs";

/** @typedef {import("./rows.mjs").Entry} Entry */

/**
 * @typedef {{round: number, rows: Record<string, Entry[]>, seats: any[]}} Snapshot
 * @typedef {{round: number, final: boolean, done: boolean, rows: Record<string, Entry[]>,
 *            before: any[], after: any[]}} Report
 */

/**
 * @param {any} value
 * @returns {any}
 */
const copy = (value) => JSON.parse(JSON.stringify(value));

export class ScoringTracker {
    constructor() {
        /** @type {Snapshot | null} */
        this.base = null;
        /** @type {Report | null} */
        this.report = null;
        this.open = false;
    }

    /**
     * Follows one state message.
     * @param {any} view
     * @param {import("../types.js").LastAction[]} last
     */
    update(view, last) {
        if (!view?.seats || !view.rows) return;
        const deciding = view.phase === "wrong" || view.phase === "assign";
        if (!this.open && this.base) {
            const changed = view.seats.some((/** @type {any} */ s, /** @type {number} */ i) =>
                s.score !== this.base?.seats[i]?.score);
            if (deciding || view.phase === "over" || view.round !== this.base.round || changed) {
                this.open = true;
                this.report = {round: this.base.round, final: false, done: false,
                               rows: withLast(this.base, last), before: this.base.seats,
                               after: view.seats};
            }
        }
        if (this.open && this.report) {
            mergeTurned(this.report.rows, view.rows);
            this.report.after = copy(view.seats);
            this.report.final = view.phase === "over";
            if (!deciding) {
                this.open = false;
                this.report.done = true;
            }
        }
        if (view.phase === "play" && !this.open)
            this.base = {round: view.round, rows: copy(view.rows), seats: copy(view.seats)};
        else if (view.phase !== "play" && !this.open && !deciding)
            this.base = null;
    }
}

/**
 * The rows of a snapshot with the actions of the latest change appended
 * (the move that ended the play is in `last`, not in the snapshot).
 * @param {Snapshot} base
 * @param {import("../types.js").LastAction[]} last
 * @returns {Record<string, Entry[]>}
 */
function withLast(base, last) {
    const rows = copy(base.rows);
    const played = base.seats.map((s) => s.played ?? 0);
    for (const action of last ?? []) {
        if (typeof action.seat !== "number") continue;
        const words = action.text.split(" ");
        if (words[0] === "follower" && rows[words[1]]) {
            rows[words[1]].push({follower: action.seat});
        } else if (words[0] === "play" && rows[words[2]]) {
            const card = words[1] === "?" ? undefined : words[1];
            rows[words[2]].push(played[action.seat] === 0 ? {down: action.seat, card}
                                                            : {card});
            played[action.seat]++;
        }
    }
    return rows;
}

/**
 * Keeps the faces of cards turned over at scoring (later they are taken).
 * @param {Record<string, Entry[]>} memory
 * @param {Record<string, Entry[]>} rows
 */
function mergeTurned(memory, rows) {
    for (const row of ROW_ORDER) {
        const mine = memory[row] ?? [], now = rows[row] ?? [];
        for (let i = 0; i < Math.min(mine.length, now.length); i++) {
            const e = now[i];
            if (e.card && !mine[i].card && mine[i].follower === undefined)
                mine[i] = {down: mine[i].down, card: e.card};
        }
    }
}

/**
 * @param {Record<string, number> | undefined} after
 * @param {Record<string, number> | undefined} before
 * @returns {[string, number][]}
 */
function gains(after, before) {
    return Object.entries(after ?? {}).map(([k, v]) => /** @type {[string, number]} */ (
        [k, v - (before?.[k] ?? 0)])).filter(([, d]) => d !== 0);
}

/**
 * The scoring report, or null before the first scoring seen.
 * @param {import("../types.js").GameContext} ctx
 * @param {ScoringTracker} tracker
 * @returns {HTMLElement | null}
 */
export function drawScoring(ctx, tracker) {
    const r = tracker.report;
    if (!r) return null;
    const title = r.final ? `Round ${r.round} and final scoring`
        : `Round ${r.round} scoring${r.done ? "" : " (in progress)"}`;
    const seats = r.after.map((after, i) => {
        const before = r.before[i] ?? {};
        const look = seatLook(ctx, i);
        /** @type {HTMLElement[]} */
        const cards = [];
        for (const row of ROW_ORDER) {
            const entries = r.rows[row] ?? [];
            const by = securedBy(entries);
            entries.forEach((e, k) => { if (by[k] === i) cards.push(entryElement(ctx, e)); });
        }
        const where = (r.rows && ROW_ORDER.find((row) =>
            (r.rows[row] ?? []).some((e) => e.follower === i)));
        const why = gains(after.points, before.points).map(([k, d]) =>
            h("li", null, `${POINT_LABELS[k] ?? k} ${d > 0 ? "+" : ""}${d}`));
        for (const [kind, d] of gains(after.animals, before.animals))
            why.push(h("li", {class: "cc-muted"}, `${kind} ${d > 0 ? "+" : ""}${d}: now ${after.animals[kind]}`));
        for (const [c, d] of gains(after.chest, before.chest))
            why.push(h("li", {class: "cc-muted"}, `${c === "HJ" ? "building joker" : c + " building"} +${d} to the chest (scores at the end)`));
        const delta = (after.score ?? 0) - (before.score ?? 0);
        return h("div", {class: "cc-scoring-seat", style: {"--owner": look.colour}},
                 h("header", null, h("span", {class: "cc-dot"}), h("b", null, look.name),
                   h("span", {class: "cc-muted"}, where ? ` follower in the ${where} row` : " no follower"),
                   h("span", {class: "cc-score"}, `${delta >= 0 ? "+" : ""}${delta}`)),
                 h("div", {class: "cc-scoring-cards"},
                   cards.length ? cards : h("em", {class: "cc-muted"}, "secured nothing")),
                 why.length ? h("ul", {class: "cc-why"}, why) : null);
    });
    return h("section", {class: "cc-scoring", "aria-label": title},
             h("h3", null, title), h("div", {class: "cc-scoring-seats"}, seats));
}
