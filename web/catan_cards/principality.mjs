// principality.mjs -- one player's principality as a grid: the centre row
// (roads, settlements, cities), regions above and below with their dice
// numbers and stock, expansion cards on their sites (rows -2 to +2, rows -1
// and -2 above the centre line as `tafel play` draws them).  Legal actions
// that go to a place are buttons in that place: a chosen hand card's builds,
// roads and settlements at the ends, cities, the picks of a duel or Civil
// war, and the six places of the start regions while arranging.
import {h, button, seatLook} from "../cards/dom.mjs";
import {cardFace, regionCard, resChip, RESOURCES} from "./cards.mjs";

/**
 * @typedef {{
 *   legal: import("./legal.mjs").Legal | null,
 *   selected: string | null,
 *   picks: import("./legal.mjs").Spot[],
 *   play: (text: string) => void,
 *   arrange: {slots: (string | null)[], clear: (i: number) => void} | null
 * }} Controls
 */

/** The places #1 to #6 of the start regions (docs/catan_cards.md). */
export const PLACES = [[-1, -1], [1, -1], [3, -1], [-1, 1], [1, 1], [3, 1]];

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number} who
 * @param {Controls} controls
 * @returns {HTMLElement}
 */
export function drawPrincipality(ctx, view, who, controls) {
    const p = view.players_info?.[who];
    const look = seatLook(ctx, who);
    if (!p) return h("section", {class: "ct-principality"}, look.name);
    const legal = controls.legal;
    /** @type {{col: number, what: string}[]} */
    const centre = p.centre ?? [];
    const left = Math.min(...centre.map((c) => c.col), 0);
    const right = Math.max(...centre.map((c) => c.col), 2);
    const cols = [left - 1, right + 1];
    for (const r of p.regions ?? []) cols.push(r.col);
    const lo = Math.min(...cols), hi = Math.max(...cols);
    const what = new Map(centre.map((c) => [c.col, c.what]));
    const cities = centre.some((c) => c.what === "city");
    const rows = cities || [...(legal?.builds.values() ?? [])].flat().some((s) => Math.abs(s.row) === 2)
        ? [-2, -1, 0, 1, 2] : [-1, 0, 1];
    const lastAt = lastSpot(p.last_build);

    /** @type {Map<string, HTMLElement>} */
    const cells = new Map();
    /**
     * @param {number} col
     * @param {number} row
     * @param {HTMLElement} el
     */
    const put = (col, row, el) => {
        el.style.gridColumn = String(col - lo + 2);
        el.style.gridRow = String(rows.indexOf(row) + 1);
        el.classList.add("ct-cell");
        if (lastAt && lastAt[0] === col && lastAt[1] === row) el.classList.add("ct-last");
        cells.set(`${col},${row}`, el);
    };

    // centre row
    for (const c of centre) put(c.col, 0, centrePiece(c.what, c.col, legal, controls.play));
    // the ends: roads and settlements to build
    for (const [side, col] of /** @type {[string, number][]} */ ([["left", left - 1], ["right", right + 1]])) {
        const road = legal?.roads.get(side);
        const settle = legal?.settlements.get(side) ?? [];
        if (!road && !settle.length) continue;
        const el = h("div", {class: "ct-ghost"},
            road ? button("road", () => controls.play(road), {class: "ct-target", title: road, data: {key: road}}) : null,
            settle.map((text) => button(text.endsWith("scout") ? "settlement + scout" : "settlement",
                                        () => controls.play(text), {class: "ct-target", title: text, data: {key: text}})));
        put(col, 0, el);
    }
    // regions
    for (const r of p.regions ?? []) put(r.col, r.row, h("div", null, regionCard(r)));
    // sites and their cards
    /** @type {Map<string, string>} */
    const built = new Map((p.expansions ?? []).map((/** @type {any} */ e) => [`${e.col},${e.row}`, e.card]));
    const targets = controls.selected ? legal?.builds.get(controls.selected) ?? [] : [];
    for (const [col, kind] of what) {
        if (kind !== "settlement" && kind !== "city") continue;
        for (const row of kind === "city" ? [-2, -1, 1, 2] : [-1, 1]) {
            const key = `${col},${row}`;
            const card = built.get(key);
            const target = targets.find((t) => t.col === col && t.row === row);
            /** @type {HTMLElement} */
            let el;
            if (card) el = h("div", null, cardFace(card, {small: true}));
            else if (target) el = button("build here", () => controls.play(target.text),
                                         {class: "ct-target ct-site", title: target.text, data: {key: target.text},
                                          "aria-label": target.text});
            else el = h("div", {class: "ct-site ct-empty", title: `building site ${col} ${row}`}, "site");
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
        const b = button("pick", () => controls.play(pick.text),
                         {class: "ct-target ct-pick", title: pick.text, data: {key: pick.text}});
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
                                                "aria-label": `place #${i + 1}: ${res}, click to clear`})
                : h("div", {class: "ct-place"}, `#${i + 1}`));
            if (res) cells.get(`${col},${row}`)?.append(`#${i + 1} `, resChip(res));
        });
    }

    const labels = rows.map((row, i) => h("div", {class: "ct-rowlabel", style: {"grid-row": String(i + 1), "grid-column": "1"}},
                                           row > 0 ? `+${row}` : String(row)));
    const grid = h("div", {class: "ct-grid", style: {"--cols": String(hi - lo + 1)}}, labels, [...cells.values()]);
    return h("section", {class: `ct-principality${who === ctx.seat ? " ct-mine" : ""}${view.next === who ? " ct-to-move" : ""}`,
                         style: {"--owner": look.colour}, "aria-label": `${look.name}'s principality`},
             titleLine(ctx, view, who), h("div", {class: "ct-scroll"}, grid));
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
    const el = h("div", {class: `ct-centre ct-${what}`, title: `${what} at column ${col}`},
                 h("span", {class: "ct-centre-icon", "aria-hidden": "true"},
                   what === "road" ? "" : what === "city" ? "▲▲" : "▲"), what);
    if (city) el.append(button("city", () => play(city), {class: "ct-target", title: city, data: {key: city}}));
    return el;
}

/**
 * The place of a last build, when its text names one.
 * @param {string | null} text
 * @returns {[number, number] | null}
 */
function lastSpot(text) {
    if (!text) return null;
    const w = text.split(" ");
    if (w[0] === "build" && w.length === 4) return [Number(w[2]), Number(w[3])];
    if (w[0] === "city") return [Number(w[1]), 0];
    return null;
}

/**
 * The title line: points, tokens, resources, hand, strength, tournament
 * and trade points, and the last build or action card.
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number} who
 * @returns {HTMLElement}
 */
function titleLine(ctx, view, who) {
    const p = view.players_info[who];
    const look = seatLook(ctx, who);
    const tokens = [view.knight_token === who ? "knight token" : null,
                    view.windmill === who ? "windmill" : null].filter(Boolean);
    return h("header", {class: "ct-title"},
             h("span", {class: "ct-dot"}), h("b", null, look.name),
             view.next === who ? h("span", {class: "ct-badge"}, "to act") : null,
             h("span", {class: "ct-vp", title: "victory points"}, `${p.vp} VP`),
             tokens.map((t) => h("span", {class: "ct-token"}, t)),
             h("span", {class: "ct-res-line"}, RESOURCES.map((r) => resChip(r, p.resources?.[r] ?? 0))),
             h("span", {class: "ct-stat", title: "cards in hand / hand limit"}, `hand ${p.hand_count}/${p.hand_limit}`),
             h("span", {class: "ct-stat", title: "strength (knight token)"}, `strength ${p.strength}`),
             h("span", {class: "ct-stat", title: "tournament points"}, `tournament ${p.tournament}`),
             h("span", {class: "ct-stat", title: "trade points (windmill)"}, `trade ${p.trade}`),
             p.last_build ? h("span", {class: "ct-lastbuild", title: "last build or action card"},
                              `last (turn ${p.last_build_turn}): ${p.last_build}`) : null);
}
