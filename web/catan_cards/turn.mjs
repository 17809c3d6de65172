// turn.mjs -- the line above the board: the turn, whose it is, what the
// step of the turn is about (the engine's frame, in words), an offer on the
// table, and the offers declined this turn.
import {h} from "../cards/dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {RES_NAME} from "./cards.mjs";

/**
 * An offer's side as the view writes it ("2L") -> [count, resource name].
 * @param {string} side
 * @returns {[number, string]}
 */
export function offerSide(side) {
    const m = /^(\d)([A-Za-z]+)$/.exec(side ?? "");
    return m ? [Number(m[1]), RES_NAME[m[2]] ?? m[2]] : [0, side];
}

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {boolean} mine  whether this seat must act
 * @returns {HTMLElement}
 */
export function drawTurn(ctx, view, mine) {
    const frame = String(view.frame ?? "");
    const stepKey = `catan_cards.page.step.${frame}`;
    const step = catalog().has(stepKey) ? t(stepKey) : frame;
    const who = typeof view.next === "number" ? view.next : null;
    /** @type {HTMLElement | null} */
    let offer = null;
    if (view.offer) {
        const [gc, gr] = offerSide(view.offer.give), [tc, tr] = offerSide(view.offer.get);
        offer = h("span", {class: "ct-offer-line"},
                  t("catan_cards.page.offer_line", {seat: view.active, give_count: gc, give: gr, get_count: tc, get: tr}));
    }
    return h("header", {class: "ct-turn"},
             h("b", null, view.turn ? t("catan_cards.page.turn", {turn: view.turn, seat: view.active}) : t("catan_cards.page.setup")),
             who !== null ? h("span", {class: `ct-next${mine ? " ct-mine-next" : ""}`, style: {"--owner": ctx.colours?.[who] ?? "#777"}},
                              mine ? t("catan_cards.page.you_step", {step}) : t("catan_cards.page.seat_step", {seat: who, step}))
                          : h("span", {class: "ct-next"}, step),
             offer,
             view.declined_offers ? h("span", {class: "ct-muted"}, t("catan_cards.page.declined", {count: view.declined_offers})) : null);
}
