// view.mjs -- the Catan card game view of a seat (web/README.md, the game
// view contract): the turn and dice, both principalities (the opponent's
// above, the seat's own below), the stacks, the seat's hand, and the
// controls of the step the seat is in.  Every control plays a text of
// `state.legal` unchanged; the view redraws from each state message.
import {h, redraw, styleSheet} from "../cards/dom.mjs";
import {sortLegal} from "./legal.mjs";
import {drawPrincipality} from "./principality.mjs";
import {drawStacks} from "./stacks.mjs";
import {drawHand, drawOtherHand} from "./hand.mjs";
import {drawTurn} from "./dice.mjs";
import {drawSwaps, drawOfferForm, drawIncomingOffer} from "./trade.mjs";
import {drawArrange} from "./arrange.mjs";
import {drawActions} from "./actions.mjs";
import {usePieces} from "./cards.mjs";

/**
 * @param {HTMLElement} root
 * @param {import("../types.js").GameContext} ctx
 * @returns {import("../types.js").GameView}
 */
export function createView(root, ctx) {
    usePieces(ctx.pieces);
    const body = h("div", {class: "ct-view"});
    root.replaceChildren(styleSheet(new URL("./view.css", import.meta.url).href), body);
    /** @type {import("../types.js").StateMessage | null} */
    let latest = null;
    /** @type {string | null} */
    let selected = null;
    /** @type {import("./trade.mjs").OfferForm} */
    let offerForm = {};
    /** @type {(string | null)[]} */
    const slots = [null, null, null, null, null, null];
    /** @type {string | null} */
    let lastEvent = null;

    /** @param {string} text */
    function play(text) {
        if (!latest?.legal?.includes(text)) return;  // only a legal text, ever
        selected = null;
        ctx.play(text);
    }

    /** @param {string | null} code */
    function choose(code) {
        selected = code;
        again();
        if (code) {
            const target = body.querySelector(".ct-principality .ct-target, .ct-stacks .ct-target");
            if (target instanceof HTMLElement) target.focus();
        }
    }

    function again() { if (latest) draw(latest); }

    /** @param {import("../types.js").StateMessage} state */
    function draw(state) {
        const view = state.view ?? {};
        const legal = sortLegal(state.legal);
        if (selected && !legal.builds.has(selected) && !legal.under.has(selected)) selected = null;
        if (!legal.arranges.size) slots.fill(null);
        if (!legal.offers.length) offerForm = {};
        const me = ctx.seat;
        const other = me === null ? 1 : 1 - me;
        const bottom = me === null ? 0 : me;
        const mine = !!state.legal?.length;
        // a pick sends a card back to its owner's hand: the picker picks the
        // other player's card (rules: duels and Civil war)
        const picks = legal.picks;
        const none = {legal: null, selected: null, picks: [], play, arrange: null};
        const groups = new Map(legal.groups);
        groups.delete("play");
        const answers = view.offer ? [...(groups.get("accept") ?? []), ...(groups.get("decline") ?? [])] : [];
        if (answers.length) { groups.delete("accept"); groups.delete("decline"); }
        const controls = [
            drawArrange(legal.arranges, slots, again, play),
            drawIncomingOffer(ctx, view, answers, play),
            drawSwaps("Trade with the bank", legal.trades, play),
            drawSwaps("Caravan: swap with the bank", legal.swaps, play),
            me === null ? null : drawOfferForm(view, me, legal.offers, offerForm, again, play),
            drawActions(view, groups, play),
        ].filter((x) => x !== null);
        redraw(body, [
            drawTurn(ctx, view, lastEvent, mine),
            controls.length ? h("div", {class: "ct-controls"}, controls) : null,
            me === null ? null : drawHand(ctx, view, legal, selected, choose, play),
            h("div", {class: "ct-board"},
              drawPrincipality(ctx, view, other, {...none, picks, play}),
              drawOtherHand(ctx, view, other),
              drawStacks(view, legal, selected, play),
              drawPrincipality(ctx, view, bottom, me === null ? none : {
                  legal, selected, picks: [], play,
                  arrange: legal.arranges.size ? {slots, clear: (i) => { slots[i] = null; again(); }} : null})),
        ].filter((x) => x !== null));
    }

    return {
        update(state) {
            latest = state;
            for (const a of state.last ?? []) {
                const m = /^event-die event \(([a-z-]+)\)$/.exec(a.text);
                if (m) lastEvent = m[1];
                else if (a.text.startsWith("event-die ")) lastEvent = null;
            }
            draw(state);
        },
        destroy() {
            root.replaceChildren();
            latest = null;
        },
    };
}
