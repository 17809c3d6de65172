// cards.mjs -- one Cardcassonne card as a small styled element: a face by
// its code (colour from the engine's card data, `pieces.cards`), a back
// with its owner, a big follower, an empty place left by scoring.
import {h, seatLook} from "../cards/dom.mjs";

/** The rows' colours (the card colours, not the players'). */
export const ROW_COLOURS = /** @type {Record<string, string>} */ (
    {Y: "#e2b714", R: "#c8442f", G: "#4c9a3f", B: "#3d6cc0"});
export const ROW_ORDER = ["Y", "R", "G", "B"];
const ROW_TITLES = /** @type {Record<string, string>} */ (
    {Y: "cloister", R: "road", G: "meadow", B: "city"});

/**
 * @typedef {{colour: string | null, kind: string, value: number, animal: string | null,
 *            count: number}} CardInfo
 */

/**
 * The row's title from the pieces (`rows`), or the rules' names.
 * @param {any} pieces
 * @param {string} row
 * @returns {string}
 */
export function rowTitle(pieces, row) {
    return pieces?.rows?.[row] ?? ROW_TITLES[row] ?? row;
}

/**
 * What a card code is, from the pieces, or from the code when they lack it.
 * @param {any} pieces
 * @param {string} code
 * @returns {CardInfo}
 */
export function cardInfo(pieces, code) {
    const known = pieces?.cards?.[code];
    if (known) return known;
    const colour = ROW_COLOURS[code[0]] && code.length === 2 ? code[0] : null;
    const last = code.slice(1);
    const kind = code === "DRAGON" ? "dragon" : code === "FAIRY" ? "fairy"
        : code === "AJ" ? "animal_joker" : code === "HJ" ? "building_joker"
        : last === "A" ? "animal" : last === "H" ? "building" : "person";
    return {colour, kind, value: kind === "person" ? Number(last) : 0, animal: null, count: 0};
}

/**
 * The words a card's face shows in its middle, and its spoken name.
 * @param {CardInfo} info
 * @param {string} code
 * @returns {{big: string, small: string, name: string}}
 */
function face(info, code) {
    const colour = info.colour ? `${ROW_TITLES[info.colour] ?? info.colour} ` : "";
    switch (info.kind) {
    case "person": return {big: String(info.value), small: "person",
                           name: `${colour}person ${info.value}`};
    case "animal": return {big: "A", small: info.animal ?? "animal",
                           name: `${colour}animal (${info.animal ?? "animal"})`};
    case "building": return {big: "H", small: "building", name: `${colour}building`};
    case "dragon": return {big: "D", small: "dragon", name: "dragon"};
    case "fairy": return {big: "F", small: "fairy", name: "fairy"};
    case "animal_joker": return {big: "A*", small: "joker", name: "animal joker"};
    case "building_joker": return {big: "H*", small: "joker", name: "building joker"};
    default: return {big: code, small: "", name: code};
    }
}

/**
 * A face-up card (or the viewer's own face-down card, `down` set).
 * @param {any} pieces
 * @param {string} code
 * @param {{down?: boolean, tag?: string}} [opts]
 * @returns {HTMLElement}
 */
export function cardFace(pieces, code, opts = {}) {
    const info = cardInfo(pieces, code);
    const look = face(info, code);
    const colour = info.colour ? ROW_COLOURS[info.colour] : "#7b4fa8";
    return h(opts.tag ?? "span", {
        class: `cc-card cc-kind-${info.kind}${opts.down ? " cc-own-down" : ""}`,
        style: {"--card": colour},
        title: `${code}: ${look.name}${opts.down ? " (face down: only you see it)" : ""}`,
    }, h("span", {class: "cc-code"}, code), h("span", {class: "cc-big"}, look.big),
       h("span", {class: "cc-small"}, opts.down ? "down" : look.small));
}

/**
 * A face-down card of another seat (or of the viewer, when the code is
 * known: then the face shows, dimmed).
 * @param {import("../types.js").GameContext} ctx
 * @param {number} owner
 * @param {string} [code]
 * @returns {HTMLElement}
 */
export function cardBack(ctx, owner, code) {
    if (code) return cardFace(ctx.pieces, code, {down: true});
    const look = seatLook(ctx, owner);
    return h("span", {class: "cc-card cc-back", style: {"--owner": look.colour},
                      title: `a face-down card of ${look.name}`},
             h("span", {class: "cc-code"}, "?"), h("span", {class: "cc-big"}, "?"),
             h("span", {class: "cc-small"}, look.name));
}

/**
 * A big follower of a seat.
 * @param {import("../types.js").GameContext} ctx
 * @param {number} seat
 * @returns {HTMLElement}
 */
export function follower(ctx, seat) {
    const look = seatLook(ctx, seat);
    return h("span", {class: "cc-follower", style: {"--owner": look.colour},
                      title: `${look.name}'s big follower`},
             svgMeeple(look.colour), h("span", {class: "cc-small"}, look.name));
}

/**
 * A small meeple shape.
 * @param {string} colour
 * @returns {SVGElement}
 */
export function svgMeeple(colour) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("class", "cc-meeple");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", "M10 1.5a3 3 0 0 1 3 3c0 1-.4 1.7-1 2.2l5.5 2.3c.9.4.8 1.7-.2 "
        + "1.8l-3.3.4 3 6.8H12.5L10 13l-2.5 5H3l3-6.8-3.3-.4c-1-.1-1.1-1.4-.2-1.8L8 6.7C7.4 "
        + "6.2 7 5.5 7 4.5a3 3 0 0 1 3-3z");
    path.setAttribute("fill", colour);
    path.setAttribute("stroke", "#222");
    path.setAttribute("stroke-width", "0.8");
    svg.append(path);
    return svg;
}

/**
 * The place of a card taken at round scoring.
 * @returns {HTMLElement}
 */
export function takenPlace() {
    return h("span", {class: "cc-card cc-taken", title: "taken at round scoring"});
}

/**
 * A row entry of the view as an element.
 * @param {import("../types.js").GameContext} ctx
 * @param {{card?: string, down?: number, follower?: number, taken?: boolean,
 *          turned?: boolean}} entry
 * @returns {HTMLElement}
 */
export function entryElement(ctx, entry) {
    if (entry.follower !== undefined) return follower(ctx, entry.follower);
    if (entry.taken) return takenPlace();
    if (entry.down !== undefined) return cardBack(ctx, entry.down, entry.card);
    if (entry.card) {
        const el = cardFace(ctx.pieces, entry.card);
        if (entry.turned) {
            el.classList.add("cc-turned");
            el.title += " (was face down)";
        }
        return el;
    }
    return h("span", {class: "cc-card"}, "?");
}
