// arrange.mjs -- the setup's arrangement of the six start regions.  There
// are 720 legal `arrange` texts: the player fills the places #1 to #6 (on
// the principality) by choosing resources in order, and the page plays the
// legal text that names that order.
import {h, button} from "../cards/dom.mjs";
import {resChip, RES_NAMES} from "./cards.mjs";

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
                          "aria-label": `${RES_NAMES[res] ?? res} to place #${next + 1}`});
        b.append(resChip(res), ` ${RES_NAMES[res] ?? res}`);
        return b;
    });
    return h("section", {class: "ct-panel ct-arrange", "aria-label": "arrange the start regions"},
             h("h3", null, "Arrange your start regions"),
             h("p", null, next >= 0 ? `Choose the region for place #${next + 1} (places #1 to #3 above the centre line, #4 to #6 below, from the left).`
                                    : "All six placed. Click a place to change it."),
             h("div", {class: "ct-buttons"}, palette),
             h("div", {class: "ct-buttons"},
               button(ok ? `Arrange: ${slots.join(" ")}` : "Arrange", ok && text ? () => play(text) : null,
                      {class: "ct-action ct-primary", data: {key: "arrange-go"}, title: text ?? ""}),
               button("Clear", used.size ? () => { slots.fill(null); redraw(); } : null,
                      {class: "ct-action", data: {key: "arrange-clear"}}),
               button("In the shown order", () => { tokens.forEach((t, i) => { slots[i] = t; }); redraw(); },
                      {class: "ct-action", data: {key: "arrange-default"}})));
}
