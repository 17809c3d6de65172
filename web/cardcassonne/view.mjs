// view.mjs -- the Cardcassonne view of a seat (web/README.md, the game view
// contract): the four rows, the seat's hand, the players with their chests,
// the round scoring, and the decisions.  Every control plays a text of
// `state.legal` unchanged; the view redraws from each state message.
import {h, redraw, seatLook, styleSheet} from "../cards/dom.mjs";
import {sortLegal} from "./legal.mjs";
import {drawRows} from "./rows.mjs";
import {drawHand} from "./hand.mjs";
import {drawSeats} from "./seats.mjs";
import {drawDecision} from "./decisions.mjs";
import {ScoringTracker, drawScoring} from "./scoring.mjs";

const PHASES = /** @type {Record<string, string>} */ ({
    reveal: "setup", row: "setup: a joker's row", deal: "dealing", play: "play",
    wrong: "round scoring", assign: "round scoring", over: "game over",
});

/**
 * @param {HTMLElement} root
 * @param {import("../types.js").GameContext} ctx
 * @returns {import("../types.js").GameView}
 */
export function createView(root, ctx) {
    const sheet = styleSheet(new URL("./view.css", import.meta.url).href);
    const body = h("div", {class: "cc-view"});
    root.replaceChildren(sheet, body);
    const tracker = new ScoringTracker();
    /** @type {string | null} */
    let selected = null;
    /** @type {import("../types.js").StateMessage | null} */
    let latest = null;

    /** @param {string} text */
    function play(text) {
        if (!latest?.legal?.includes(text)) return;  // only a legal text, ever
        selected = null;
        ctx.play(text);
    }

    /** @param {string | null} code */
    function choose(code) {
        selected = code;
        if (latest) draw(latest);
        // after choosing a card, move the focus to the first lit row
        if (code) {
            const target = body.querySelector(".cc-target");
            if (target instanceof HTMLElement) target.focus();
        }
    }

    /** @param {import("../types.js").StateMessage} state */
    function draw(state) {
        const view = state.view ?? {};
        const legal = sortLegal(state.legal);
        if (selected && !legal.plays.has(selected)) selected = null;
        // one card only playable: choose it for the player
        if (!selected && legal.plays.size === 1 && legal.followers.size === 0)
            selected = [...legal.plays.keys()][0];
        const next = typeof view.next === "number" ? seatLook(ctx, view.next).name : null;
        const status = h("header", {class: "cc-status"},
            h("span", null, h("b", null, `Round ${view.round ?? "?"}`), ` of ${view.rounds ?? "?"}`),
            h("span", null, PHASES[view.phase] ?? view.phase ?? ""),
            h("span", null, `pile ${view.pile ?? "?"}`),
            h("span", null, `${view.hand_size ?? "?"} cards a round`),
            next ? h("span", {class: "cc-next", style: {"--owner": seatLook(ctx, view.next).colour}},
                     state.legal?.length ? "your turn" : `${next} to act`) : null);
        redraw(body, [
            status,
            drawDecision(ctx, view, legal, play),
            drawRows(ctx, view, legal, selected, play),
            drawHand(ctx, view, legal, selected, choose),
            drawScoring(ctx, tracker),
            drawSeats(ctx, view),
            removedLine(view),
        ].filter((x) => x !== null));
    }

    return {
        update(state) {
            latest = state;
            tracker.update(state.view, state.last);
            draw(state);
        },
        destroy() {
            root.replaceChildren();
            latest = null;
        },
    };
}

/**
 * The cards out of the game, by code.
 * @param {any} view
 * @returns {HTMLElement | null}
 */
function removedLine(view) {
    const removed = Object.entries(view.removed ?? {});
    if (!removed.length) return null;
    return h("p", {class: "cc-removed cc-muted"}, "Out of the game: ",
             removed.map(([code, n]) => `${code}×${n}`).join(" "));
}
