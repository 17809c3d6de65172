// hand.mjs -- the seat's own hand (only from its own view: other seats'
// views carry no `hand`).  A card with a legal `play` is a toggle button:
// choosing it lights up the rows where that play is legal.
import {h} from "../cards/dom.mjs";
import {cardFace} from "./cards.mjs";

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
        const face = cardFace(ctx.pieces, code);
        const label = playable ? `${code}: ${[...(rows?.keys() ?? [])].length} row(s)` : code;
        return h("button", {
            type: "button", class: `cc-hand-card${pressed ? " cc-selected" : ""}`,
            disabled: !playable, "aria-pressed": playable ? String(pressed) : undefined,
            "aria-label": label, data: {key: `hand-${code}-${n}`},
            onclick: () => choose(pressed ? null : code),
        }, face);
    });
    const firstDown = me.played === 0 && legal.plays.size > 0;
    const hint = legal.plays.size === 0 ? null
        : selected ? `Now choose a row for ${selected} (the lit places), or choose another card.`
        : firstDown ? "Your first card this round goes face down, into any row: choose it."
        : "Choose a card, then a lit row.";
    return h("section", {class: "cc-hand", "aria-label": "your hand"},
             h("h3", null, `Your hand (${hand.length})`),
             h("div", {class: "cc-hand-cards"}, cards.length ? cards : h("em", null, "empty")),
             hint ? h("p", {class: "cc-hint"}, hint) : null);
}
