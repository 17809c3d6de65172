// hand.mjs -- the seat's own hand (from its own view; the other hand is
// backs, or the cards this seat has seen).  A card with a legal build or a
// legal `exchange/discard/put` is a toggle: choosing it lights up its sites
// and stacks.  Action cards that may be played now (`play CARD`) get a
// button each.  Every card shows its whole text in the popover.
import {h, button} from "../cards/dom.mjs";
import {t} from "../words/catalog.mjs";
import {cardChip, cardFace, cardName} from "./cards.mjs";

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
    const me = view.players_info?.[ctx.seat];
    /** @type {string[]} */
    const hand = me?.hand ?? [];
    /** @type {Set<string>} */
    const seen = new Set();
    const cards = hand.map((code, i) => {
        const usable = legal.builds.has(code) || legal.under.has(code);
        const first = !seen.has(code);
        seen.add(code);
        const pressed = selected === code && first;
        if (!usable || (!first && selected === code)) return h("span", {class: "ct-hand-idle"}, cardFace(code));
        const verb = legal.builds.has(code) ? "build" : legal.under.get(code)?.verb ?? "build";
        return h("button", {type: "button", class: `ct-hand-card${pressed ? " ct-selected" : ""}`,
                            "aria-pressed": String(pressed),
                            "aria-label": t(`catan_cards.page.hand_${verb}`, {name: cardName(code)}),
                            data: {key: `hand-${i}-${code}`, pop: `card:${code}`},
                            onclick: () => choose(pressed ? null : code)},
                 cardFace(code, {inButton: true}));
    });
    const plays = (legal.groups.get("play") ?? []).map((text) =>
        button(t("catan_cards.page.play_card", {name: cardName(text.slice(5))}), () => play(text),
               {class: "ct-action ct-yellow-action", data: {key: text, pop: `card:${text.slice(5)}`}}));
    const hint = selected
        ? t(legal.builds.has(selected) ? "catan_cards.page.hint_site" : "catan_cards.page.hint_stack", {name: cardName(selected)})
        : legal.builds.size || legal.under.size ? t("catan_cards.page.hint_choose") : null;
    return h("section", {class: "ct-hand", "aria-label": t("catan_cards.page.your_hand")},
             h("h3", null, t("catan_cards.page.hand_title", {count: hand.length, limit: me?.hand_limit ?? 0})),
             h("div", {class: "ct-hand-cards"}, cards.length ? cards : h("em", {class: "ct-muted"}, t("catan_cards.page.empty"))),
             plays.length ? h("div", {class: "ct-buttons"}, plays) : null,
             hint ? h("p", {class: "ct-hint"}, hint) : null);
}

/**
 * The other player's hand, for its title line: small backs, and the cards
 * this seat knows by name.
 * @param {any} view
 * @param {number} who
 * @returns {HTMLElement}
 */
export function drawOtherHand(view, who) {
    /** @type {string[]} */
    const hand = view.players_info?.[who]?.hand ?? [];
    return h("span", {class: "ct-other-hand", role: "group", "aria-label": t("catan_cards.page.other_hand", {seat: who})},
             h("span", {class: "ct-muted"}, t("catan_cards.page.other_hand", {seat: who})),
             hand.length ? hand.map((c) => cardChip(c)) : h("em", {class: "ct-muted"}, t("catan_cards.page.empty")));
}
