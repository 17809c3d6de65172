// stacks.mjs -- the common supply: the five expansion stacks (their size,
// any cards this seat knows in them, top first), the region stack, the
// event deck and the roads, settlements and cities left.  The legal
// `draw K`, `search K`, and a chosen hand card's `exchange/discard/put CARD
// K` are buttons on their stack.
import {h, button} from "../cards/dom.mjs";
import {cardInfo, EVENT_NAMES} from "./cards.mjs";

/**
 * @param {any} view
 * @param {import("./legal.mjs").Legal} legal
 * @param {string | null} selected
 * @param {(text: string) => void} play
 * @returns {HTMLElement}
 */
export function drawStacks(view, legal, selected, play) {
    const under = selected ? legal.under.get(selected) : undefined;
    /** @type {string[][]} */
    const stacks = view.stacks ?? [];
    const items = stacks.map((cards, i) => {
        const k = i + 1;
        const known = cards.map((c, j) => [c, j]).filter(([c]) => c !== "?");
        const draw = legal.draws.get(k), search = legal.searches.get(k), put = under?.stacks.get(k);
        return h("div", {class: `ct-stack${draw || search || put ? " ct-stack-live" : ""}`,
                         role: "group", "aria-label": `stack ${k}, ${cards.length} cards`},
                 h("div", {class: "ct-stack-pile", title: `${cards.length} cards, face down`},
                   h("b", null, k), h("span", null, `${cards.length} cards`)),
                 known.length ? h("details", {class: "ct-stack-known", open: put || search ? true : undefined},
                                  h("summary", {title: "cards of this stack you know, by place from the top"},
                                    `you know ${known.length}`),
                                  known.map(([c, j]) => knownChip(String(c), Number(j) + 1))) : null,
                 h("div", {class: "ct-stack-buttons"},
                   draw ? button("draw top", () => play(draw), {class: "ct-target", title: draw, data: {key: draw}}) : null,
                   search ? button("search", () => play(search), {class: "ct-target", title: search, data: {key: search}}) : null,
                   put ? button(`${under?.verb} ${selected} here`, () => play(put),
                                {class: "ct-target", title: put, data: {key: put}}) : null));
    });
    const central = view.central ?? {};
    /** @type {string[]} */
    const events = view.event_deck ?? [];
    const lastEvent = events.length && events[events.length - 1] !== "?" ? events[events.length - 1] : null;
    return h("section", {class: "ct-stacks", "aria-label": "stacks"},
             h("div", {class: "ct-stack-row"}, items),
             h("div", {class: "ct-supply"},
               h("span", null, `roads ${central.roads ?? "?"}`),
               h("span", null, `settlements ${central.settlements ?? "?"}`),
               h("span", null, `cities ${central.cities ?? "?"}`),
               h("span", null, `regions ${(view.region_stack ?? []).length}`),
               h("span", null, `events ${events.length}`,
                 lastEvent ? h("small", null, ` (last: ${EVENT_NAMES[lastEvent] ?? lastEvent})`) : null)));
}

/**
 * A known card of a stack, with its place from the top.
 * @param {string} code
 * @param {number} place
 * @returns {HTMLElement}
 */
function knownChip(code, place) {
    const info = cardInfo(code);
    return h("span", {class: `ct-known ct-${info.colour}`, title: `${place}. ${info.name}${info.cost ? ` (cost ${info.cost})` : ""}`},
             h("small", null, `${place}.`), info.name);
}
