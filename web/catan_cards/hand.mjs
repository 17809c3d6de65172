// hand.mjs -- the seat's own hand (from its own view; the other hand is
// backs, or the cards this seat has seen).  A card with a legal build or a
// legal `exchange/discard/put` is a toggle: choosing it lights up its sites
// and stacks.  Action cards that may be played now (`play CARD`) get a
// button each.
import {h, button, seatLook} from "../cards/dom.mjs";
import {cardFace, cardInfo} from "./cards.mjs";

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {import("./legal.mjs").Legal} legal
 * @param {string | null} selected
 * @param {(code: string | null) => void} choose
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawHand(ctx, view, legal, selected, choose, play) {
    if (ctx.seat === null) return null;
    /** @type {string[]} */
    const hand = view.players_info?.[ctx.seat]?.hand ?? [];
    /** @type {Set<string>} */
    const seen = new Set();
    const cards = hand.map((code, i) => {
        const usable = legal.builds.has(code) || legal.under.has(code);
        const first = !seen.has(code);
        seen.add(code);
        const pressed = selected === code && first;
        const what = legal.builds.has(code) ? "build" : legal.under.get(code)?.verb ?? "";
        return h("button", {type: "button", class: `ct-hand-card${pressed ? " ct-selected" : ""}`,
                            disabled: !usable || (!first && selected === code),
                            "aria-pressed": usable ? String(pressed) : undefined,
                            "aria-label": `${cardInfo(code).name}${usable ? `: ${what}` : ""}`,
                            data: {key: `hand-${i}-${code}`}, onclick: () => choose(pressed ? null : code)},
                 cardFace(code));
    });
    const plays = (legal.groups.get("play") ?? []).map((text) =>
        button(`Play ${cardInfo(text.slice(5)).name}`, () => play(text),
               {class: "ct-action ct-yellow-action", title: text, data: {key: text}}));
    const hint = selected
        ? `${cardInfo(selected).name}: choose a lit ${legal.builds.has(selected) ? "site" : "stack"}.`
        : legal.builds.size || legal.under.size ? "Choose a card to build or to put under a stack." : null;
    return h("section", {class: "ct-hand", "aria-label": "your hand"},
             h("h3", null, `Your hand (${hand.length}/${view.players_info?.[ctx.seat]?.hand_limit ?? "?"})`),
             h("div", {class: "ct-hand-cards"}, cards.length ? cards : h("em", null, "empty")),
             plays.length ? h("div", {class: "ct-buttons"}, plays) : null,
             hint ? h("p", {class: "ct-hint"}, hint) : null);
}

/**
 * The other player's hand: backs, or the cards this seat knows.
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number} who
 * @returns {HTMLElement}
 */
export function drawOtherHand(ctx, view, who) {
    /** @type {string[]} */
    const hand = view.players_info?.[who]?.hand ?? [];
    return h("div", {class: "ct-other-hand", "aria-label": `${seatLook(ctx, who).name}'s hand`},
             h("span", {class: "ct-muted"}, `${seatLook(ctx, who).name}'s hand: `),
             hand.length ? hand.map((c) => cardFace(c, {small: true})) : h("em", {class: "ct-muted"}, "empty"));
}
