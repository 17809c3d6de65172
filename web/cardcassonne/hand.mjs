// hand.mjs -- the seat's own hand (only from its own view: other seats'
// views carry no `hand`).  A card with a legal `play` is a toggle button:
// choosing it lights up the rows where that play is legal, and the hand
// tells what the chosen card does (a tap shows no tip on a phone).
import {h} from "../cards/dom.mjs";
import {cardFace, cardTip} from "./cards.mjs";
import {withTip} from "./tip.mjs";
import {pt, cardName, cardText} from "./words.mjs";

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {import("./legal.mjs").Legal} legal
 * @param {string | null} selected
 * @param {(code: string | null) => void} choose
 * @returns {HTMLElement | null}
 */
export function drawHand(ctx, view, legal, selected, choose) {
    if (ctx.seat === null) return null;
    const me = view.seats?.[ctx.seat];
    /** @type {string[] | undefined} */
    const hand = me?.hand;
    if (!hand) return null;
    /** @type {Map<string, number>} */
    const seen = new Map();
    const cards = hand.map((code) => {
        const n = seen.get(code) ?? 0;
        seen.set(code, n + 1);
        const rows = legal.plays.get(code);
        const playable = !!rows && rows.size > 0;
        const pressed = selected === code && n === 0;
        const b = h("button", {
            type: "button", class: `cc-hand-card${pressed ? " cc-selected" : ""}`,
            disabled: !playable, "aria-pressed": playable ? String(pressed) : undefined,
            "aria-label": cardName(code), data: {key: `hand-${code}-${n}`, card: code},
            onclick: () => choose(pressed ? null : code),
        }, cardFace(ctx.pieces, code, {tip: false}));
        return withTip(b, cardTip(code));
    });
    const firstDown = me.played === 0 && legal.plays.size > 0;
    const hint = legal.plays.size === 0 ? null
        : selected ? pt(firstDown ? "hand.hint_chosen_down" : "hand.hint_chosen", {card: selected})
        : firstDown ? pt("hand.hint_first") : pt("hand.hint_choose");
    return h("section", {class: "cc-hand", "aria-label": pt("hand.label")},
             h("h3", null, pt("hand.title", {count: hand.length})),
             h("div", {class: "cc-hand-cards"}, cards.length ? cards : h("em", null, pt("hand.empty"))),
             hint ? h("p", {class: "cc-hint", "aria-live": "polite"}, hint) : null,
             selected ? h("p", {class: "cc-hand-text"}, h("b", {class: "cc-tip-name"}, cardName(selected)), " ",
                          cardText(selected)) : null);
}
