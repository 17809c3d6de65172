// arrange.mjs -- the setup's arrangement of the six start regions.  There
// are 720 legal `arrange` texts: the player fills the places #1 to #6 (on
// the principality) by choosing resources in order, and the page plays the
// legal text that names that order.
import {h, button} from "../cards/dom.mjs";
import {t} from "../words/catalog.mjs";
import {resChip, resWord, RES_NAME} from "./cards.mjs";

/**
 * The resources the arrangement texts name (from the first legal text).
 * @param {Set<string>} arranges
 * @returns {string[]}
 */
export function arrangeTokens(arranges) {
    const first = arranges.values().next().value;
    return first ? first.split(" ").slice(1) : [];
}

/**
 * @param {Set<string>} arranges
 * @param {(string | null)[]} slots  changed in place
 * @param {() => void} redraw
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawArrange(arranges, slots, redraw, play) {
    if (!arranges.size) return null;
    const tokens = arrangeTokens(arranges);
    const used = new Set(slots.filter(Boolean));
    const next = slots.indexOf(null);
    const text = next < 0 ? `arrange ${slots.join(" ")}` : null;
    const ok = text !== null && arranges.has(text);
    const palette = tokens.map((res) => {
        const b = button("", used.has(res) || next < 0 ? null : () => { slots[next] = res; redraw(); },
                         {class: "ct-res-button", data: {key: `arrange-${res}`},
                          "aria-label": t("catan_cards.page.arrange_pick", {resource: RES_NAME[res] ?? res, place: next + 1})});
        b.append(resChip(res), resWord(res));
        return b;
    });
    return h("section", {class: "ct-panel ct-arrange", "aria-label": t("catan_cards.page.arrange_title")},
             h("h3", null, t("catan_cards.page.arrange_title")),
             h("p", null, next >= 0 ? t("catan_cards.page.arrange_next", {place: next + 1}) : t("catan_cards.page.arrange_done")),
             h("div", {class: "ct-buttons"}, palette),
             h("div", {class: "ct-buttons"},
               button(t("catan_cards.page.arrange_go"), ok && text ? () => play(text) : null,
                      {class: "ct-action ct-primary", data: {key: "arrange-go"}}),
               button(t("catan_cards.page.arrange_clear"), used.size ? () => { slots.fill(null); redraw(); } : null,
                      {class: "ct-action", data: {key: "arrange-clear"}}),
               button(t("catan_cards.page.arrange_default"), () => { tokens.forEach((x, i) => { slots[i] = x; }); redraw(); },
                      {class: "ct-action", data: {key: "arrange-default"}})));
}
