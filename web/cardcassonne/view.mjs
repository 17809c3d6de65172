// view.mjs -- the Cardcassonne view of a seat (web/README.md, the game view
// contract): the four rows, the seat's hand, the players with their chests,
// the round scoring as the engine told it, and the decisions.  Every
// control plays a text of `state.legal` unchanged; the view redraws from
// each state message, and learns from its `events` what the change did:
// what was scored, who played where, what left the rows.
import {h, redraw, seatLook, styleSheet} from "../cards/dom.mjs";
import {sortLegal} from "./legal.mjs";
import {drawRows} from "./rows.mjs";
import {drawHand} from "./hand.mjs";
import {drawSeats} from "./seats.mjs";
import {drawDecision} from "./decisions.mjs";
import {ScoringLog, drawScoring} from "./scoring.mjs";
import {Arrivals} from "./arrivals.mjs";
import {leaving} from "./leaving.mjs";
import {accountsOf} from "./account.mjs";
import {createTip} from "./tip.mjs";
import {cardFace} from "./cards.mjs";
import {pt} from "./words.mjs";
import {actionWords} from "./action-words.mjs";

/**
 * @param {HTMLElement} root
 * @param {import("../types.js").GameContext} ctx
 * @returns {import("../types.js").GameView}
 */
export function createView(root, ctx) {
    const sheet = styleSheet(new URL("./view.css", import.meta.url).href);
    const body = h("div", {class: "cc-view"});
    root.replaceChildren(sheet, body);
    const tip = createTip(root);
    root.append(tip.el);
    const scoring = new ScoringLog(ctx.seat);
    const arrivals = new Arrivals(ctx.seat);
    /** @type {string | null} */
    let selected = null;
    /** @type {import("../types.js").StateMessage | null} */
    let latest = null;
    let wasOver = false;
    /** The rows and scores as last drawn, to show what a change moved. */
    /** @type {Record<string, any[]> | null} */
    let drawnRows = null;
    /** @type {number[] | null} */
    let drawnScores = null;

    /** @param {string} text */
    function play(text) {
        if (!latest?.legal?.includes(text)) return;  // only a legal text, ever
        selected = null;
        ctx.play(text);
    }

    /** @param {string | null} code */
    function choose(code) {
        selected = code;
        if (latest) draw(latest, null, null);
        // after choosing a card, move the focus to the first lit row
        if (code) {
            const target = body.querySelector(".cc-target");
            if (target instanceof HTMLElement) target.focus();
        }
    }

    /**
     * @param {import("../types.js").StateMessage} state
     * @param {import("./leaving.mjs").Leaving | null} gone  what this change took from the rows
     * @param {number[] | null} before  the scores before this change
     */
    function draw(state, gone, before) {
        const view = state.view ?? {};
        const legal = sortLegal(state.legal);
        if (selected && !legal.plays.has(selected)) selected = null;
        // one card only playable: choose it for the player
        if (!selected && legal.plays.size === 1 && legal.followers.size === 0)
            selected = [...legal.plays.keys()][0];
        const me = ctx.seat === null ? null : view.seats?.[ctx.seat];
        const panel = drawScoring(ctx, scoring, view);
        const onTop = panel?.classList.contains("cc-scoring-fresh") ?? false;
        const main = [
            drawDecision(ctx, view, legal, play),
            onTop ? panel : null,
            drawRows(ctx, view, {legal, selected, play, arrivals, leaving: gone,
                                 firstDown: me?.played === 0}),
            drawHand(ctx, view, legal, selected, choose),
            onTop ? null : panel,
        ];
        redraw(body, [
            status(ctx, state),
            h("div", {class: "cc-main"}, main),
            h("div", {class: "cc-side"}, drawSeats(ctx, view, before), removedLine(ctx, view)),
        ]);
        // the final screen is news for everyone: no card's tip stays over it
        if (view.phase === "over" && !wasOver) tip.hide();
        else tip.refresh();
        wasOver = view.phase === "over";
    }

    return {
        /** @param {string} action */
        words: (action) => actionWords(action, latest?.view, ctx.seat),
        update(state) {
            latest = state;
            const view = state.view ?? {};
            const accounts = accountsOf(state);
            scoring.add(accounts, view);
            arrivals.update(state);
            const gone = view.rows ? leaving(drawnRows, accounts, view.rows) : null;
            draw(state, gone, accounts.length ? drawnScores : null);
            arrivals.drawn();
            scoring.drawn();
            drawnRows = view.rows ? JSON.parse(JSON.stringify(view.rows)) : null;
            drawnScores = (view.seats ?? []).map((/** @type {any} */ s) => Number(s.score ?? 0));
        },
        destroy() {
            tip.destroy();
            root.replaceChildren();
            latest = null;
        },
    };
}

/**
 * The line on top: the round, the phase, the pile, whose turn.
 * @param {import("../types.js").GameContext} ctx
 * @param {import("../types.js").StateMessage} state
 * @returns {HTMLElement}
 */
function status(ctx, state) {
    const view = state.view ?? {};
    const next = typeof view.next === "number" ? view.next : null;
    return h("header", {class: "cc-status"},
        h("span", null, h("b", null, pt("status.round", {round: view.round ?? 0, rounds: view.rounds ?? 0}))),
        view.phase ? h("span", null, pt(`phase.${view.phase}`)) : null,
        h("span", null, pt("status.pile", {pile: view.pile ?? 0})),
        h("span", null, pt("status.hand_size", {hand_size: view.hand_size ?? 0})),
        next !== null ? h("span", {class: "cc-next", style: {"--owner": seatLook(ctx, next).colour}},
                          next === ctx.seat && state.legal?.length ? pt("status.your_turn")
                              : pt("status.to_act", {seat: next})) : null);
}

/**
 * The cards out of the game, by kind.
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @returns {HTMLElement | null}
 */
function removedLine(ctx, view) {
    const removed = Object.entries(view.removed ?? {});
    if (!removed.length) return null;
    return h("details", {class: "cc-removed"},
             h("summary", null, pt("removed.title", {count: removed.reduce((a, [, n]) => a + Number(n), 0)})),
             h("ul", {class: "cc-removed-list"}, removed.map(([code, n]) =>
                 h("li", null, cardFace(ctx.pieces, code), h("span", null, pt("removed.count", {count: n}))))));
}
