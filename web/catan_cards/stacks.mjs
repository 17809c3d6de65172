// stacks.mjs -- the common supply: the five expansion stacks (their size,
// any cards this seat knows in them, top first), the region stack, the
// event deck (with the last event card turned up) and the roads,
// settlements and cities left, each with its cost.  The legal `draw K`,
// `search K`, and a chosen hand card's `exchange/discard/put CARD K` are
// buttons on their stack.
import {h, button} from "../cards/dom.mjs";
import {t, tn} from "../words/catalog.mjs";
import {cardFace, cardName, costIcons, CENTRAL} from "./cards.mjs";

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
    // a list of known cards opens by itself where this step is about that stack alone: not
    // when any of the five may be searched, which would stack five lists under one another
    const onlySearch = legal.searches.size === 1 ? [...legal.searches.keys()][0] : null;
    const items = stacks.map((cards, i) => {
        const k = i + 1;
        const known = cards.map((c, j) => [c, j]).filter(([c]) => c !== "?");
        const draw = legal.draws.get(k), search = legal.searches.get(k), put = under?.stacks.get(k);
        const count = tn("catan_cards.n_cards", cards.length);
        return h("div", {class: `ct-stack${draw || search || put ? " ct-stack-live" : ""}`,
                         role: "group", "aria-label": t("catan_cards.page.stack_label", {stack: k, cards: count})},
                 h("div", {class: "ct-stack-pile", "aria-hidden": "true"}, h("b", null, k), h("span", null, count)),
                 known.length ? h("details", {class: "ct-stack-known", open: put || onlySearch === k ? true : undefined},
                                  h("summary", null, t("catan_cards.page.known", {count: known.length})),
                                  h("ol", {class: "ct-known-list"},
                                    known.map(([c, j]) => h("li", {value: String(Number(j) + 1)},
                                                            h("small", null, `${Number(j) + 1}.`), cardFace(String(c), {small: true}))))) : null,
                 draw || search || put ? h("div", {class: "ct-stack-buttons"},
                   draw ? button(t("catan_cards.page.draw_top"), () => play(draw), {class: "ct-target", data: {key: draw}}) : null,
                   search ? button(t("catan_cards.page.search"), () => play(search), {class: "ct-target", data: {key: search}}) : null,
                   put && selected ? button(t(`catan_cards.page.under_${under?.verb}`, {name: cardName(selected)}), () => play(put),
                                            {class: "ct-target", data: {key: put}}) : null) : null);
    });
    const central = view.central ?? {};
    /** @type {string[]} */
    const events = view.event_deck ?? [];
    const last = events.length && events[events.length - 1] !== "?" ? events[events.length - 1] : null;
    /** @param {string} what @param {number} left */
    const supply = (what, left) => h("span", {class: "ct-supply-item", tabindex: "0", role: "group",
                                              "aria-label": t(`catan_cards.page.left_${what}`, {count: left}), data: {pop: `piece:${what}`}},
        t(`catan_cards.page.left_${what}`, {count: left}), CENTRAL[what] ? costIcons(CENTRAL[what].cost) : null);
    const live = legal.draws.size || legal.searches.size || !!under;
    return h("section", {class: `ct-stacks${live ? " ct-live" : ""}`, "aria-label": t("catan_cards.page.stacks")},
             h("div", {class: "ct-stack-row"}, items),
             h("div", {class: "ct-supply"},
               supply("road", central.roads ?? 0), supply("settlement", central.settlements ?? 0),
               supply("city", central.cities ?? 0),
               h("span", null, t("catan_cards.page.left_regions", {count: (view.region_stack ?? []).length})),
               h("span", null, t("catan_cards.page.left_events", {count: events.length})),
               last ? h("span", {class: "ct-event-chip", tabindex: "0", role: "group", data: {pop: `event:${last}`},
                                 "aria-label": t("catan_cards.page.last_event", {name: t(`catan_cards.event_card.${last}`)})},
                        t("catan_cards.page.last_event", {name: t(`catan_cards.event_card.${last}`)})) : null));
}
