// cards.mjs -- what the Catan card game's cards look like: names, colour
// (green: any site; red: a city's site; yellow: action), cost, as shown to
// the player.  The data is the engine's own (`pieces` of GET /api/games,
// tafel_game_pieces_json), given to usePieces by the view; only the
// resources' screen colours are the page's.  The engine decides what can be
// built where.
import {h} from "../cards/dom.mjs";

/** The resource codes in the notation's order ("L", "W", ...). */
export const RESOURCES = /** @type {string[]} */ ([]);
/** Resource code -> its name ("L" -> "lumber"). */
export const RES_NAMES = /** @type {Record<string, string>} */ ({});
/** Region kind -> the resource it produces ("forest" -> "L"). */
export const KIND_RES = /** @type {Record<string, string>} */ ({});
/** Event code -> its name ("civil-war" -> "Civil war"). */
export const EVENT_NAMES = /** @type {Record<string, string>} */ ({});
export const RES_COLOURS = /** @type {Record<string, string>} */ (
    {L: "#2e7d32", W: "#8bc34a", B: "#c1603a", O: "#78858f", G: "#e0b93a", Au: "#c99a06"});

/** code -> [name, colour, cost as "2O L"] */
const CARDS = /** @type {Record<string, [string, string, string]>} */ ({});

/**
 * Takes the game's pieces: {resources: [{code, name, region}], cards: {code:
 * {name, colour, cost: {L: 1, ...}}}, events: {code: {name}}}.
 * @param {any} pieces
 */
export function usePieces(pieces) {
    RESOURCES.length = 0;
    for (const r of pieces?.resources ?? []) {
        RESOURCES.push(r.code);
        RES_NAMES[r.code] = r.name;
        KIND_RES[r.region] = r.code;
    }
    for (const [code, c] of Object.entries(pieces?.cards ?? {})) {
        const cost = RESOURCES.filter((r) => c.cost?.[r])
            .map((r) => (c.cost[r] > 1 ? `${c.cost[r]}${r}` : r)).join(" ");
        CARDS[code] = [c.name, c.colour, cost];
    }
    for (const [code, e] of Object.entries(pieces?.events ?? {})) EVENT_NAMES[code] = e.name;
}

/**
 * @param {string} code
 * @returns {{name: string, colour: string, cost: string}}
 */
export function cardInfo(code) {
    const c = CARDS[code];
    return c ? {name: c[0], colour: c[1], cost: c[2]} : {name: code, colour: "unknown", cost: ""};
}

/**
 * A resource chip: the code on its colour.
 * @param {string} res
 * @param {number | string} [count]
 * @returns {HTMLElement}
 */
export function resChip(res, count) {
    return h("span", {class: "ct-res", style: {"--res": RES_COLOURS[res] ?? "#888"},
                      title: RES_NAMES[res] ?? res},
             count !== undefined ? h("b", null, count) : null, res);
}

/**
 * An expansion card's face (a hand card, a built card, a stack's known card).
 * @param {string} code  "?" for a hidden card
 * @param {{small?: boolean}} [opts]
 * @returns {HTMLElement}
 */
export function cardFace(code, opts = {}) {
    if (code === "?")
        return h("span", {class: `ct-card ct-back${opts.small ? " ct-small" : ""}`, title: "a hidden card"}, "?");
    const info = cardInfo(code);
    return h("span", {class: `ct-card ct-${info.colour}${opts.small ? " ct-small" : ""}`,
                      title: `${info.name}${info.cost ? ` (cost ${info.cost})` : ""}: ${code}`},
             h("span", {class: "ct-card-name"}, info.name),
             info.cost ? h("span", {class: "ct-card-cost"}, info.cost) : null);
}

/**
 * A region card: kind colour, production number, resources held (0 to 3).
 * @param {{region: string, kind: string, number: number, stock: number}} r
 * @returns {HTMLElement}
 */
export function regionCard(r) {
    const res = KIND_RES[r.kind] ?? "?";
    const pips = [];
    for (let i = 0; i < 3; i++) pips.push(h("span", {class: `ct-pip${i < r.stock ? " ct-full" : ""}`}));
    return h("span", {class: "ct-region", style: {"--res": RES_COLOURS[res] ?? "#888"},
                      title: `${r.region}: ${r.kind}, produces on a ${r.number}, holds ${r.stock} ${RES_NAMES[res] ?? res}`},
             h("span", {class: "ct-region-kind"}, r.kind),
             h("span", {class: "ct-region-number"}, r.number),
             h("span", {class: "ct-pips", "aria-label": `${r.stock} of 3`}, pips),
             h("span", {class: "ct-region-stock"}, `${r.stock} ${res}`));
}

/**
 * A region card known only by its name (drawn regions, the region stack).
 * @param {string} name  e.g. "forest6"
 * @returns {HTMLElement}
 */
export function regionName(name) {
    const m = /^([a-z]+)(\d)$/.exec(name);
    const kind = m ? m[1] : name;
    const res = KIND_RES[kind] ?? "?";
    return h("span", {class: "ct-region ct-region-small", style: {"--res": RES_COLOURS[res] ?? "#888"},
                      title: name},
             h("span", {class: "ct-region-kind"}, kind),
             h("span", {class: "ct-region-number"}, m ? m[2] : "?"));
}
