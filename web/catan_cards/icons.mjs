// icons.mjs -- the little pictures of the Catan card game's page: a glyph
// per resource on its colour, the die, and the four kinds of points a card
// can carry (victory, strength, tournament, trade).  Pictures carry no
// words: each has an aria-label (and a title) from the catalog, said by the
// caller or here from the resource's name.
import {h} from "../cards/dom.mjs";
import {tn} from "../words/catalog.mjs";

const SVG = "http://www.w3.org/2000/svg";

/** Resource code -> [background, glyph colour]: dark glyphs on the light chips. */
export const RES_LOOK = /** @type {Record<string, [string, string]>} */ ({
    L: ["#2e7d32", "#fff"], W: ["#9ccc65", "#1f3310"], B: ["#b5532f", "#fff"],
    O: ["#6b7780", "#fff"], G: ["#e6c34a", "#3d2e00"], Au: ["#b8860b", "#fff"],
});

/** The glyphs, in a 16x16 box: tree, sheep, bricks, rocks, ear of grain, coin. */
const GLYPHS = /** @type {Record<string, [string, Record<string, string>][]>} */ ({
    L: [["path", {d: "M8 1 13.5 9.5H10.5L14 13H2L5.5 9.5H2.5Z"}], ["rect", {x: "7", y: "12.5", width: "2", height: "3"}]],
    W: [["circle", {cx: "6", cy: "8", r: "3.3"}], ["circle", {cx: "10", cy: "7.5", r: "3.5"}],
        ["circle", {cx: "8.5", cy: "10", r: "3"}], ["rect", {x: "5", y: "11.5", width: "1.5", height: "3.5"}],
        ["rect", {x: "10", y: "11.5", width: "1.5", height: "3.5"}]],
    B: [["rect", {x: "1", y: "3", width: "6.5", height: "4"}], ["rect", {x: "8.5", y: "3", width: "6.5", height: "4"}],
        ["rect", {x: "1", y: "8", width: "3", height: "4"}], ["rect", {x: "5", y: "8", width: "6", height: "4"}],
        ["rect", {x: "12", y: "8", width: "3", height: "4"}]],
    O: [["path", {d: "M1 14 5.5 5 8.5 9.5 11 6 15 14Z"}]],
    G: [["path", {d: "M7.3 15V6h1.4v9Z"}], ["ellipse", {cx: "8", cy: "3.5", rx: "1.6", ry: "2.5"}],
        ["ellipse", {cx: "5.8", cy: "7", rx: "1.4", ry: "2.3", transform: "rotate(-30 5.8 7)"}],
        ["ellipse", {cx: "10.2", cy: "7", rx: "1.4", ry: "2.3", transform: "rotate(30 10.2 7)"}],
        ["ellipse", {cx: "5.8", cy: "11", rx: "1.4", ry: "2.3", transform: "rotate(-30 5.8 11)"}],
        ["ellipse", {cx: "10.2", cy: "11", rx: "1.4", ry: "2.3", transform: "rotate(30 10.2 11)"}]],
    Au: [["circle", {cx: "8", cy: "8", r: "6.5"}], ["circle", {cx: "8", cy: "8", r: "4", fill: "none", "stroke-width": "1.3"}]],
});

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string>} attrs
 * @param {SVGElement[]} [kids]
 * @returns {SVGElement}
 */
export function svg(tag, attrs, kids = []) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.append(...kids);
    return el;
}

/**
 * A resource's glyph, coloured for its chip (decorative: the chip is labelled).
 * @param {string} code
 * @returns {SVGElement}
 */
export function resGlyph(code) {
    const fg = RES_LOOK[code]?.[1] ?? "#fff";
    const shapes = (GLYPHS[code] ?? []).map(([tag, attrs]) =>
        svg(tag, {fill: fg, stroke: fg, "stroke-width": "0", ...attrs}));
    return svg("svg", {viewBox: "0 0 16 16", class: "ct-glyph", "aria-hidden": "true", focusable: "false"}, shapes);
}

/**
 * The production die's face with pips (labelled by the caller).
 * @param {number} n
 * @returns {SVGElement}
 */
export function dieFace(n) {
    /** @type {Record<number, number[][]>} */
    const at = {1: [[15, 15]], 2: [[8, 8], [22, 22]], 3: [[8, 8], [15, 15], [22, 22]],
                4: [[8, 8], [22, 8], [8, 22], [22, 22]], 5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
                6: [[8, 8], [22, 8], [8, 15], [22, 15], [8, 22], [22, 22]]};
    const pips = (at[n] ?? []).map(([x, y]) => svg("circle", {cx: String(x), cy: String(y), r: "2.8", fill: "#222"}));
    return svg("svg", {viewBox: "0 0 30 30", class: "ct-die", "aria-hidden": "true", focusable: "false"},
               [svg("rect", {x: "1", y: "1", width: "28", height: "28", rx: "5", fill: "#fff", stroke: "#333", "stroke-width": "1.5"}),
                ...pips]);
}

/** The kinds of points, their symbol and their catalog phrase (key_one / key_other). */
export const POINTS = /** @type {[string, string, string][]} */ ([
    ["vp", "\u2605", "catan_cards.vp"],                  // a star
    ["strength", "\u2694", "catan_cards.strength"],      // crossed swords
    ["tournament", "\u2691", "catan_cards.tournament"],  // a pennant
    ["trade", "\u2696", "catan_cards.trade_points"],     // scales
]);

/**
 * One kind of points as a badge: the symbol and the number, labelled.
 * @param {string} kind  vp, strength, tournament, trade
 * @param {number} n
 * @returns {HTMLElement}
 */
export function pointBadge(kind, n) {
    const [, symbol, key] = POINTS.find((p) => p[0] === kind) ?? ["", "?", ""];
    const label = tn(key, n);
    return h("span", {class: `ct-pt ct-pt-${kind}`, role: "img", "aria-label": label, title: label},
             h("span", {class: "ct-pt-sym", "aria-hidden": "true"}, symbol), h("b", {"aria-hidden": "true"}, n));
}

/**
 * The points a card carries, each kind it has.
 * @param {{vp?: number, strength?: number, tournament?: number, trade?: number}} worth
 * @returns {HTMLElement[]}
 */
export function pointBadges(worth) {
    /** @type {Record<string, number | undefined>} */
    const w = worth;
    return POINTS.filter(([kind]) => (w[kind] ?? 0) > 0).map(([kind]) => pointBadge(kind, w[kind] ?? 0));
}
