// view.mjs -- the Catan card game view of a seat (web/README.md, the game
// view contract): the turn, the opponent's principality across the table,
// in the middle the latest roll explained (or the final score), the stacks,
// the controls of the step the seat is in and its hand, and the seat's own
// principality nearest to it.  Every control plays a text of `state.legal`
// unchanged; the view redraws from each state message, and what the
// actions did comes from their accounts (account.mjs), never from
// comparing views.  Every word is the catalog's.
import {h, redraw, styleSheet} from "../cards/dom.mjs";
import {t, useGame} from "../words/catalog.mjs";
import {sortLegal} from "./legal.mjs";
import {drawPrincipality} from "./principality.mjs";
import {drawStacks} from "./stacks.mjs";
import {drawHand, drawOtherHand} from "./hand.mjs";
import {drawTurn} from "./turn.mjs";
import {drawNews} from "./news.mjs";
import {drawFinal, breakdownOf, breakdownLines} from "./final.mjs";
import {drawSwaps, drawOfferForm, drawIncomingOffer} from "./trade.mjs";
import {drawArrange} from "./arrange.mjs";
import {drawActions} from "./actions.mjs";
import {usePieces, cardText, cardFacts, regionText, pieceText, CENTRAL, RES_NAME, KIND_RES, cardChip,
    regionChip} from "./cards.mjs";
import {createAccounts} from "./account.mjs";
import {createPopover} from "./popover.mjs";
import {actionWords} from "./action-words.mjs";

/**
 * @param {HTMLElement} root
 * @param {import("../types.js").GameContext} ctx
 * @returns {import("../types.js").GameView}
 */
export function createView(root, ctx) {
    useGame("catan_cards");
    usePieces(ctx.pieces);
    const body = h("div", {class: "ct-view"});
    /** @type {import("../types.js").StateMessage | null} */
    let latest = null;
    const popover = createPopover(body, popContent);
    root.replaceChildren(styleSheet(new URL("./view.css", import.meta.url).href), body, popover.el);
    /** @type {string | null} */
    let selected = null;
    /** @type {import("./trade.mjs").OfferForm} */
    let offerForm = {};
    /** @type {(string | null)[]} */
    const slots = [null, null, null, null, null, null];
    /** The state whose bot offer the page declined for the player (the setting). */
    let declinedAt = -1;
    const accounts = createAccounts(ctx.seat, costByName, (kind) => RES_NAME[KIND_RES[kind]] ?? kind);

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

    /**
     * What a popover says, by the key an element carries.
     * @param {string} key
     * @returns {Node[] | null}
     */
    function popContent(key) {
        const [kind, a, b, c] = key.split(":");
        if (kind === "card") return cardText(a);
        if (kind === "region") return regionText(a, Number(b), Number(c));
        if (kind === "piece") return pieceText(a);
        if (kind === "event") return [h("b", {class: "ct-pop-title"}, t(`catan_cards.event_card.${a}`)),
                                      h("p", null, t(`catan_cards.event_card_text.${a}`))];
        if (kind === "vp" && latest) {
            const seat = Number(a);
            const vp = latest.view?.players_info?.[seat]?.vp ?? 0;
            return [h("b", {class: "ct-pop-title"}, t("catan_cards.page.vp_label", {seat, vp})),
                    ...breakdownLines(breakdownOf(latest)[seat])];
        }
        return null;
    }

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
        const recent = accounts.recent();
        const none = {legal: null, selected: null, picks: [], play, arrange: null};
        const groups = new Map(legal.groups);
        groups.delete("play");
        const answers = view.offer ? [...(groups.get("accept") ?? []), ...(groups.get("decline") ?? [])] : [];
        if (answers.length) { groups.delete("accept"); groups.delete("decline"); }
        // an offer from a bot, and the player asked the page to decline those
        if (answers.includes("decline") && ctx.settings?.botOffers === "decline" &&
            state.seats?.[view.active]?.kind === "bot" && declinedAt !== state.seq) {
            declinedAt = state.seq;
            queueMicrotask(() => play("decline"));
        }
        const controls = [
            drawArrange(legal.arranges, slots, again, play),
            drawIncomingOffer(view, answers, play),
            drawSwaps(t("catan_cards.page.bank_title"), legal.trades, play),
            drawSwaps(t("catan_cards.page.caravan_title"), legal.swaps, play),
            me === null ? null : drawOfferForm(legal.offers, offerForm, again, play),
            drawActions(view, groups, play),
        ].filter((x) => x !== null);
        // a pick sends a card back to its owner's hand: the picker picks the
        // other player's card (rules: duels and Civil war)
        const opponent = drawPrincipality(ctx, view, other, {...none, picks: legal.picks, play}, recent, drawOtherHand(view, other));
        const story = drawFinal(state) ?? drawNews(accounts.report() ?? rollOfView(view));
        redraw(body, [
            drawTurn(ctx, view, mine),
            h("div", {class: "ct-opponent"}, opponent),
            h("div", {class: "ct-middle"},
              h("div", {class: "ct-centre-col"}, story, drawStacks(view, legal, selected, play)),
              h("div", {class: "ct-side-col"},
                controls.length ? h("div", {class: "ct-controls"}, controls) : null,
                me === null ? null : drawHand(ctx, view, legal, selected, choose, play))),
            h("div", {class: "ct-own"}, drawPrincipality(ctx, view, bottom, me === null ? none : {
                legal, selected, picks: [], play,
                arrange: legal.arranges.size ? {slots, clear: (i) => { slots[i] = null; again(); }} : null}, recent)),
        ]);
        popover.refresh();
    }

    /** @type {import("../types.js").ActionEvent[] | null} the events of the log line pointed at */
    let logged = null;

    /** Lights the places of the principalities the pointed log line's events name. */
    function drawLogged() {
        for (const el of body.querySelectorAll(".ct-lit")) el.classList.remove("ct-lit");
        for (const e of logged ?? []) {
            if (typeof e.col !== "number" || typeof e.seat !== "number") continue;
            const place = `${e.seat},${e.col},${typeof e.row === "number" ? e.row : 0}`;
            body.querySelector(`[data-place="${place}"]`)?.classList.add("ct-lit");
        }
    }

    return {
        /** @param {string} action */
        words: (action) => actionWords(action),
        update(state) {
            latest = state;
            accounts.take(state);
            draw(state);
            drawLogged();
            accounts.arrived();
        },
        light(events) {
            logged = events;
            drawLogged();
        },
        picture(events) {
            // the card built or sent back, or the region laid, as the page names them in a line
            const card = events.find((e) => (e.kind === "expansion_built" || e.kind === "card_returned") &&
                                             typeof e.card === "string" && e.card !== "?");
            if (card) return cardChip(card.card);
            const region = events.find((e) => e.kind === "region_placed");
            return region ? regionChip(`${region.region}${region.number}`) : null;
        },
        destroy() {
            popover.destroy();
            root.replaceChildren();
            latest = null;
        },
    };
}

/**
 * The latest roll as the view has it, for a page that joined after it (its
 * accounts begin with the next change): the dice, and the event card when
 * it lies face up under the deck; what it did is not known.
 * @param {any} view
 * @returns {import("./account.mjs").Report | null}
 */
function rollOfView(view) {
    if (!view.turn || !view.die || !view.event_die) return null;
    /** @type {string[]} */
    const deck = view.event_deck ?? [];
    const last = deck.length ? deck[deck.length - 1] : "?";
    return {seat: null, turn: view.turn, die: view.die, alchemist: false, face: view.event_die,
            card: view.event_die === "event" && last !== "?" ? last : null, events: [], open: false};
}

/**
 * A card's or piece's cost by resource name (the accounts name resources).
 * @param {string} what  "road", "settlement", "city" or a card code
 * @returns {Record<string, number>}
 */
function costByName(what) {
    const cost = CENTRAL[what]?.cost ?? cardFacts(what)?.cost ?? {};
    return Object.fromEntries(Object.entries(cost).map(([code, n]) => [RES_NAME[code] ?? code, n]));
}

