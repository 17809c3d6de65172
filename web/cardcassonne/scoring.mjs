// scoring.mjs -- a round's scoring as the engine told it: the events of the
// accounts (docs/events-cardcassonne.md) from `scoring_started` to
// `round_over`, and after the last round's the end of the game (buildings,
// face-down cards shown, the winner).  Each seat's part says the row its
// follower cleared, the cards it took, every item scored with its points,
// and its total; nothing is worked out here, every number is the
// account's.  A view made at a replayed position knows only the account of
// the action that led there, and shows that much.
import {h, seatLook} from "../cards/dom.mjs";
import {catalog} from "../words/catalog.mjs";
import {cardFace} from "./cards.mjs";
import {pt, seatWord} from "./words.mjs";

/** @typedef {import("../types.js").ActionEvent} ActionEvent */

/** The events of a round's scoring. */
const ROUND_KINDS = new Set(["cards_secured", "nothing_secured", "wrongly_placed", "wrong_card_ten",
    "wrong_card_kept", "persons_scored", "wrong_persons_scored", "dragon_fairy_scored",
    "buildings_to_chest", "animal_jokers_won", "animal_jokers_wait", "animal_joker_assigned",
    "animals_scored", "round_over"]);
/** The events of the game's end, after the last round's `round_over`. */
const END_KINDS = new Set(["buildings_scored", "face_down_shown", "game_over"]);

/**
 * @typedef {{round: number, stage: "live" | "over" | "final", events: ActionEvent[],
 *            newFrom: number, fresh: boolean, open?: boolean}} Report
 * stage: live until round_over; over after it; final after the last
 * round's (the end's events still come).  newFrom: the first event of the
 * latest change (they come in moving).  fresh: shown on top until the seat
 * acts again.  open: the player opened or closed the panel (else it is open
 * while fresh).
 */

export class ScoringLog {
    /** @param {number | null} seat  the viewer's seat */
    constructor(seat) {
        this.seat = seat;
        /** @type {Report | null} */
        this.report = null;
    }

    /**
     * Follows one state message.
     * @param {import("../types.js").ActionAccount[]} accounts
     * @param {any} view
     */
    add(accounts, view) {
        for (const account of accounts) {
            const r = this.report;
            if (r && r.fresh && r.stage !== "live" && this.seat !== null && account.seat === this.seat)
                r.fresh = false;   // the seat acted after the scoring: it has seen it
            for (const ev of account.events) this.take(ev, view);
        }
    }

    /** The latest change's events were drawn coming in: a redraw shows them still. */
    drawn() {
        if (this.report) this.report.newFrom = this.report.events.length;
    }

    /**
     * @param {ActionEvent} ev
     * @param {any} view
     */
    take(ev, view) {
        let r = this.report;
        if (ev.kind === "scoring_started") {
            this.report = {round: Number(ev.round), stage: "live", events: [ev], newFrom: 0, fresh: true};
            return;
        }
        const round = ROUND_KINDS.has(ev.kind), end = END_KINDS.has(ev.kind);
        if (!round && !end) {
            // a spectator never acts: the next round's first play ends the report's turn on top
            if (this.seat === null && r && r.stage === "over" && ev.kind.startsWith("card_played")) r.fresh = false;
            return;
        }
        const fits = r && (round ? r.stage === "live" : r.stage !== "over");
        if (!r || !fits) {
            r = {round: Number(ev.round ?? view?.round ?? 0), stage: "live", events: [], newFrom: 0, fresh: true};
            this.report = r;
        }
        r.events.push(ev);
        r.fresh = true;
        if (ev.kind === "round_over") {
            r.round = Number(ev.round);
            r.stage = Number(ev.round) >= Number(ev.rounds) ? "final" : "over";
        }
        if (end) r.stage = "final";
    }
}

/**
 * The points an event gives a seat (0 when none).
 * @param {ActionEvent} ev
 * @param {number} seat
 */
function pointsOf(ev, seat) {
    return Array.isArray(ev.points) ? Number(ev.points[seat] ?? 0) : 0;
}

/**
 * The report's title.
 * @param {Report} r
 */
export function scoringTitle(r) {
    const key = r.stage === "final" ? "scoring.title_final" : r.stage === "live" ? "scoring.title_live"
        : "scoring.title";
    return pt(key, {round: r.round});
}

/**
 * The scoring panel, or null before any scoring was told.
 * @param {import("../types.js").GameContext} ctx
 * @param {ScoringLog} log
 * @param {any} view
 * @returns {HTMLElement | null}
 */
export function drawScoring(ctx, log, view) {
    const r = log.report;
    if (!r) return null;
    /** @type {Map<number, {items: HTMLElement[], cards: HTMLElement[], row: string | null, total: number}>} */
    const seats = new Map();
    /** @type {HTMLElement[]} */
    const general = [];
    const totals = (view?.seats ?? []).map(() => 0);
    let moving = 0;
    r.events.forEach((ev, k) => {
        (Array.isArray(ev.points) ? ev.points : []).forEach((p, s) => { totals[s] = (totals[s] ?? 0) + Number(p); });
        const fresh = k >= r.newFrom;
        const anim = fresh ? {class: "cc-new", style: {"--i": String(Math.min(moving++, 12))}} : {class: "", style: {}};
        const sentence = catalog().event(ev);
        if (typeof ev.seat !== "number") {
            general.push(h("li", {class: `cc-score-general ${anim.class}`, style: anim.style, data: {kind: ev.kind}},
                           sentence));
            return;
        }
        const part = seats.get(ev.seat) ?? {items: [], cards: [], row: null, total: 0};
        seats.set(ev.seat, part);
        if ((ev.kind === "cards_secured" || ev.kind === "nothing_secured") && typeof ev.row === "string")
            part.row = ev.row;
        if (ev.kind === "cards_secured" && Array.isArray(ev.cards)) {
            ev.cards.forEach((/** @type {string} */ code) => {
                const face = cardFace(ctx.pieces, code);
                if (fresh) {
                    face.classList.add("cc-new");
                    face.style.setProperty("--i", String(Math.min(moving, 12)));
                }
                part.cards.push(face);
            });
        }
        const gained = pointsOf(ev, ev.seat);
        part.total += gained;
        const shown = ev.kind === "face_down_shown" && typeof ev.card === "string" && ev.card !== "?"
            ? cardFace(ctx.pieces, ev.card, {more: [pt("tip.shown", {seat: ev.seat})]}) : null;
        part.items.push(h("li", {class: `cc-score-item ${anim.class}`, style: anim.style,
                                 data: {kind: ev.kind, seat: String(ev.seat), gained: String(gained)}},
                          shown, h("span", {class: "cc-score-text"}, sentence),
                          gained ? h("span", {class: "cc-gain", "aria-hidden": "true"}, `+${gained}`) : null));
    });
    const parts = [...seats].map(([seat, part]) => {
        const colour = seatLook(ctx, seat).colour;
        const score = view?.seats?.[seat]?.score;
        return h("div", {class: "cc-scoring-seat", style: {"--owner": colour},
                         data: {seat: String(seat), total: String(totals[seat] ?? 0)}},
                 h("header", null, h("span", {class: "cc-dot"}), h("b", null, seatWord(seat)),
                   part.row ? h("span", {class: "cc-muted"}, pt("scoring.from_row", {row: part.row})) : null,
                   h("span", {class: "cc-total", "aria-label": pt("scoring.total", {seat, gained: totals[seat] ?? 0})},
                     `+${totals[seat] ?? 0}`),
                   typeof score === "number" ? h("span", {class: "cc-muted cc-now"}, pt("scoring.score_now", {score})) : null),
                 part.cards.length ? h("div", {class: "cc-scoring-cards"}, part.cards) : null,
                 h("ol", {class: "cc-score-items"}, part.items));
    });
    const title = scoringTitle(r);
    const first = general.filter((g) => g.dataset.kind === "scoring_started");
    const rest = general.filter((g) => g.dataset.kind !== "scoring_started");
    const body = [h("ul", {class: "cc-score-general-list"}, first),
                  h("div", {class: "cc-scoring-seats"}, parts),
                  rest.length ? h("ul", {class: "cc-score-general-list"}, rest) : null];
    const fresh = r.fresh || r.stage === "live";
    const open = r.open ?? fresh;
    const details = /** @type {HTMLDetailsElement} */ (h("details", {open, class: "cc-scoring-details"},
                      h("summary", null, h("h3", null, title)), body));
    details.addEventListener("toggle", () => {
        if (details.open !== open) r.open = details.open;   // the player's, not the drawing's
    });
    return h("section", {
        class: `cc-scoring${fresh ? " cc-scoring-fresh" : ""}`, "aria-label": title,
        data: {round: String(r.round), stage: r.stage},
    }, details);
}
