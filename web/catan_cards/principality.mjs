// principality.mjs -- one player's principality as a grid: the centre row
// (roads, settlements, cities), regions above and below with their dice
// numbers and stock, expansion cards on their sites (rows -2 and -1 above
// the centre line, as `tafel play` draws them).  Legal actions that go to a
// place are buttons in that place: a chosen hand card's builds, roads and
// settlements at the ends, cities, the picks of a duel or Civil war, and
// the six places of the start regions while arranging.  What the latest
// accounts did shows on it: regions that produced or lost, and another
// seat's builds (account.mjs).
import {h, button} from "../cards/dom.mjs";
import {t, seatWord} from "../words/catalog.mjs";
import {cardFace, cardName, regionCard, resChip, resCount, RESOURCES, RES_NAME} from "./cards.mjs";
import {pointBadge} from "./icons.mjs";
import {placeKey} from "./account.mjs";

/**
 * @typedef {{
 *   legal: import("./legal.mjs").Legal | null,
 *   selected: string | null,
 *   picks: import("./legal.mjs").Spot[],
 *   play: (text: string) => void,
 *   arrange: {slots: (string | null)[], clear: (i: number) => void} | null
 * }} Controls
 * @typedef {import("./account.mjs").Recent} Recent
 */

/** The places #1 to #6 of the start regions (docs/catan_cards.md). */
export const PLACES = [[-1, -1], [1, -1], [3, -1], [-1, 1], [1, 1], [3, 1]];

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number} who
 * @param {Controls} controls
 * @param {Recent} recent
 * @param {HTMLElement | null} [more]  more for the title line (the other player's hand)
 * @returns {HTMLElement}
 */
export function drawPrincipality(ctx, view, who, controls, recent, more = null) {
    const p = view.players_info?.[who];
    const colour = ctx.colours?.[who] ?? "#777";
    const name = seatWord(who);
    if (!p) return h("section", {class: "ct-principality"}, name);
    const legal = controls.legal;
    /** @type {{col: number, what: string}[]} */
    const centre = p.centre ?? [];
    const left = Math.min(...centre.map((c) => c.col), 0);
    const right = Math.max(...centre.map((c) => c.col), 2);
    const ends = [["left", left - 1], ["right", right + 1]].filter(([side]) =>
        legal?.roads.has(String(side)) || legal?.settlements.has(String(side)));
    // the columns that hold something: the centre row, the regions (the start regions' from the
    // setup on), the ends where a build is offered
    const cols = [-1, 3, ...centre.map((c) => c.col), ...ends.map(([, col]) => Number(col))];
    for (const r of p.regions ?? []) cols.push(r.col);
    const lo = Math.min(...cols), hi = Math.max(...cols);
    const what = new Map(centre.map((c) => [c.col, c.what]));
    const cities = centre.some((c) => c.what === "city");
    const rows = cities || [...(legal?.builds.values() ?? [])].flat().some((s) => Math.abs(s.row) === 2)
        ? [-2, -1, 0, 1, 2] : [-1, 0, 1];

    /** @type {Map<string, HTMLElement>} */
    const cells = new Map();
    /**
     * @param {number} col
     * @param {number} row
     * @param {HTMLElement} el
     */
    const put = (col, row, el) => {
        el.style.gridColumn = String(col - lo + 1);
        el.style.gridRow = String(rows.indexOf(row) + 1);
        el.classList.add("ct-cell");
        el.dataset.place = `${who},${col},${row}`;   // what a log line lights (view.mjs light)
        const key = placeKey(who, col, row);
        if (recent.built.has(key)) el.classList.add("ct-fresh");
        if (recent.arrived.has(key)) el.classList.add("ct-arrive");
        cells.set(`${col},${row}`, el);
    };

    // centre row
    for (const c of centre) put(c.col, 0, centrePiece(c.what, c.col, legal, controls.play));
    // the ends: roads and settlements to build
    for (const [side, col] of ends) {
        const road = legal?.roads.get(String(side));
        const settle = legal?.settlements.get(String(side)) ?? [];
        put(Number(col), 0, h("div", {class: "ct-ghost"},
            road ? button(t("catan_cards.page.build_road"), () => controls.play(road),
                          {class: "ct-target", data: {key: road}}) : null,
            settle.map((text) => button(t(text.endsWith("scout") ? "catan_cards.page.build_settlement_scout"
                                                                 : "catan_cards.page.build_settlement"),
                                        () => controls.play(text), {class: "ct-target", data: {key: text}}))));
    }
    // regions
    for (const r of p.regions ?? []) put(r.col, r.row, h("div", null, regionCard(r, recent.regions.get(placeKey(who, r.col, r.row)))));
    // sites and their cards
    /** @type {Map<string, string>} */
    const built = new Map((p.expansions ?? []).map((/** @type {any} */ e) => [`${e.col},${e.row}`, e.card]));
    const targets = controls.selected ? legal?.builds.get(controls.selected) ?? [] : [];
    for (const [col, kind] of what) {
        if (kind !== "settlement" && kind !== "city") continue;
        for (const row of kind === "city" ? [-2, -1, 1, 2] : [-1, 1]) {
            const card = built.get(`${col},${row}`);
            const target = targets.find((s) => s.col === col && s.row === row);
            /** @type {HTMLElement} */
            let el;
            if (card) el = h("div", null, cardFace(card, {small: true}));
            else if (target && controls.selected)
                el = button(t("catan_cards.page.build_here"), () => controls.play(target.text),
                            {class: "ct-target ct-site", data: {key: target.text},
                             "aria-label": t("catan_cards.page.build_at", {name: cardName(controls.selected), col, row})});
            else el = h("div", {class: "ct-site ct-empty", title: t("catan_cards.page.free_site")});
            put(col, row, el);
        }
    }
    // cards built where no site is expected (kept visible all the same)
    for (const [key, card] of built) {
        if (cells.has(key)) continue;
        const [col, row] = key.split(",").map(Number);
        if (rows.includes(row)) put(col, row, h("div", null, cardFace(card, {small: true})));
    }
    // picks (a card to go back to its owner's hand)
    for (const pick of controls.picks) {
        const el = cells.get(`${pick.col},${pick.row}`);
        const card = built.get(`${pick.col},${pick.row}`);
        const b = button(t("catan_cards.page.pick"), () => controls.play(pick.text),
                         {class: "ct-target ct-pick", data: {key: pick.text},
                          "aria-label": t(card ? "catan_cards.page.pick_label" : "catan_cards.page.pick_place", {name: card ? cardName(card) : "", seat: who, col: pick.col, row: pick.row})});
        if (el) { el.classList.add("ct-pickable"); el.append(b); }
        else put(pick.col, pick.row, h("div", null, b));
    }
    // arranging the start regions
    if (controls.arrange) {
        const slots = controls.arrange.slots;
        PLACES.forEach(([col, row], i) => {
            const res = slots[i];
            const clear = controls.arrange?.clear;
            put(col, row, res
                ? button("", () => clear?.(i), {class: "ct-place ct-place-full", data: {key: `place-${i}`},
                                                "aria-label": t("catan_cards.page.place_clear", {place: i + 1, resource: RES_NAME[res] ?? res})})
                : h("div", {class: "ct-place"}, `#${i + 1}`));
            if (res) cells.get(`${col},${row}`)?.append(`#${i + 1} `, resChip(res));
        });
    }

    const grid = h("div", {class: "ct-grid", style: {"--cols": String(hi - lo + 1), "--rows": String(rows.length)}},
                   [...cells.values()]);
    return h("section", {class: `ct-principality${who === ctx.seat ? " ct-mine" : ""}${view.next === who ? " ct-to-move" : ""}`,
                         style: {"--owner": colour}, "aria-label": t("catan_cards.page.principality", {seat: who})},
             titleLine(ctx, view, who, recent, more), h("div", {class: "ct-scroll"}, grid));
}

/**
 * A piece of the centre row, with the `city` button on a settlement.
 * @param {string} what
 * @param {number} col
 * @param {import("./legal.mjs").Legal | null} legal
 * @param {(text: string) => void} play
 * @returns {HTMLElement}
 */
function centrePiece(what, col, legal, play) {
    const city = legal?.cities.get(col);
    const name = t(`catan_cards.piece.${what}`);
    const el = h("div", {class: `ct-centre ct-${what}`},
                 h("span", {class: "ct-piece", tabindex: "0", role: "group", "aria-label": name, data: {pop: `piece:${what}`}},
                   what === "road" ? null : h("span", {class: "ct-centre-icon", "aria-hidden": "true"}, what === "city" ? "\u25B2\u25B2" : "\u25B2"),
                   h("span", {class: "ct-centre-name"}, name)));
    if (city) el.append(button(t("catan_cards.page.build_city"), () => play(city), {class: "ct-target", data: {key: city}}));
    return el;
}

/**
 * The title line: name, points (their breakdown in the popover), tokens,
 * resources (and what they gained or lost since this seat's last move),
 * hand, strength, tournament and trade points.
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number} who
 * @param {Recent} recent
 * @param {HTMLElement | null} more
 * @returns {HTMLElement}
 */
function titleLine(ctx, view, who, recent, more) {
    const p = view.players_info[who];
    const tokens = [view.knight_token === who ? "knight_token" : null, view.windmill === who ? "windmill" : null]
        .filter((x) => x !== null);
    const delta = recent.res[who] ?? {};
    const vpLabel = t("catan_cards.page.vp_label", {seat: who, vp: p.vp});
    const hand = t("catan_cards.page.hand_stat", {count: p.hand_count, limit: p.hand_limit});
    const since = ctx.seat === null ? "turn" : "move";
    return h("header", {class: "ct-title"},
             h("span", {class: "ct-dot", "aria-hidden": "true"}),
             h("b", {class: "ct-name"}, seatWord(who), who === ctx.seat ? h("span", {class: "ct-you"}, t("catan_cards.page.you")) : null),
             view.next === who ? h("span", {class: "ct-badge"}, t("catan_cards.page.to_act")) : null,
             h("span", {class: "ct-vp", tabindex: "0", role: "group", "aria-label": vpLabel, data: {pop: `vp:${who}`}},
               h("span", {class: "ct-pt-sym", "aria-hidden": "true"}, "\u2605"), h("b", {"aria-hidden": "true"}, p.vp)),
             tokens.map((tok) => h("span", {class: "ct-token", tabindex: "0", role: "group", data: {pop: `piece:${tok}`}},
                                   t(`catan_cards.piece.${tok}`))),
             h("span", {class: "ct-res-line", role: "group", "aria-label": t("catan_cards.page.resources")},
               RESOURCES.map((r) => {
                   const d = delta[RES_NAME[r]] ?? 0;
                   return h("span", {class: "ct-res-have"}, resChip(r, p.resources?.[r] ?? 0),
                            d ? h("span", {class: `ct-delta ${d > 0 ? "ct-up" : "ct-down"}`,
                                           title: t(`catan_cards.page.delta_${d > 0 ? "up" : "down"}_${since}`,
                                                    {amount: resCount(r, Math.abs(d))})},
                                  d > 0 ? `+${d}` : `\u2212${-d}`) : null);
               })),
             h("span", {class: "ct-stat", role: "img", "aria-label": hand, title: hand},
               h("span", {class: "ct-mini-back", "aria-hidden": "true"}), h("b", {"aria-hidden": "true"}, `${p.hand_count}/${p.hand_limit}`)),
             pointBadge("strength", p.strength), pointBadge("tournament", p.tournament), pointBadge("trade", p.trade), more);
}
