// cards.mjs -- one Cardcassonne card as a small element: a face (its
// colour, its symbol, what it counts for: a person's value, an animal's
// kind, a building, the dragon, the fairy, a joker), a back with its owner,
// a big follower, the empty place of a card taken at round scoring.  Every
// word is the catalog's; each card's tip tells its name and whole text.
import {h, seatLook} from "../cards/dom.mjs";
import {icon, svgMeeple} from "./icons.mjs";
import {withTip} from "./tip.mjs";
import {pt, cardName, cardText, seatWord} from "./words.mjs";

/** The rows' colours (the card colours, not the players'). */
export const ROW_COLOURS = /** @type {Record<string, string>} */ (
    {Y: "#c99a06", R: "#c8442f", G: "#3f8a33", B: "#3565b8"});
export const JOKER_COLOUR = "#7b4fa8";
export const ROW_ORDER = ["Y", "R", "G", "B"];

/** The animal on each colour's animal cards (docs/rules/cardcassonne.md). */
const ANIMALS = /** @type {Record<string, string>} */ ({Y: "chicken", R: "sheep", G: "horse", B: "pig"});

/**
 * @typedef {{colour: string | null, kind: string, value: number, animal: string | null}} CardInfo
 * @typedef {{card?: string, down?: number, follower?: number, taken?: boolean,
 *            turned?: boolean}} Entry
 */

/**
 * What a card code is: from the engine's card data (`pieces.cards`) when
 * the page has it, else from the code (docs/cardcassonne.md, Notation).
 * @param {any} pieces
 * @param {string} code
 * @returns {CardInfo}
 */
export function cardInfo(pieces, code) {
    const known = pieces?.cards?.[code];
    if (known && typeof known.kind === "string") {
        return {colour: known.colour ?? null, kind: known.kind, value: Number(known.value) || 0,
                animal: known.animal ?? null};
    }
    const colour = ROW_COLOURS[code[0]] && code.length === 2 ? code[0] : null;
    const last = code.slice(1);
    const kind = code === "DRAGON" ? "dragon" : code === "FAIRY" ? "fairy"
        : code === "AJ" ? "animal_joker" : code === "HJ" ? "building_joker"
        : last === "A" ? "animal" : last === "H" ? "building" : "person";
    return {colour, kind, value: kind === "person" ? Number(last) : 0,
            animal: kind === "animal" && colour ? ANIMALS[colour] : null};
}

/** The colour a card is drawn in. @param {CardInfo} info */
export function cardColour(info) {
    return info.colour ? ROW_COLOURS[info.colour] ?? JOKER_COLOUR : JOKER_COLOUR;
}

/**
 * The face's symbols: the corner icon, the big middle (a value or an icon)
 * and the word under it.
 * @param {CardInfo} info
 * @returns {{corner: string, big: string | null, bigIcon: string, word: string}}
 */
function look(info) {
    switch (info.kind) {
    case "person": return {corner: "person", big: String(info.value), bigIcon: "", word: pt("face.person")};
    case "animal": return {corner: "animal", big: null, bigIcon: "animal",
                           word: pt(`face.${info.animal ?? "animal"}`)};
    case "building": return {corner: "building", big: null, bigIcon: "building", word: pt("face.building")};
    case "dragon": return {corner: "dragon", big: null, bigIcon: "dragon", word: pt("face.dragon")};
    case "fairy": return {corner: "fairy", big: null, bigIcon: "fairy", word: pt("face.fairy")};
    case "animal_joker": return {corner: "star", big: null, bigIcon: "animal", word: pt("face.animal_joker")};
    case "building_joker": return {corner: "star", big: null, bigIcon: "building", word: pt("face.building_joker")};
    default: return {corner: "star", big: null, bigIcon: "star", word: ""};
    }
}

/**
 * A card's tip: its name, its whole text, and what the board adds.
 * @param {string} code
 * @param {string[]} [more]
 * @returns {() => (Node | string)[]}
 */
export function cardTip(code, more = []) {
    return () => [h("b", {class: "cc-tip-name"}, cardName(code)),
                  h("p", null, cardText(code)), ...more.map((line) => h("p", {class: "cc-tip-more"}, line))];
}

/**
 * A face-up card (or the viewer's own face-down card: `down`).
 * @param {any} pieces
 * @param {string} code
 * @param {{down?: boolean, tag?: string, tip?: boolean, more?: string[]}} [opts]
 *   tag: the element (a span); tip: false for a card inside a control, whose
 *   own label says it; more: lines the tip adds
 * @returns {HTMLElement}
 */
export function cardFace(pieces, code, opts = {}) {
    const info = cardInfo(pieces, code);
    const l = look(info);
    const el = h(opts.tag ?? "span", {
        class: `cc-card cc-kind-${info.kind}${opts.down ? " cc-own-down" : ""}`,
        style: {"--card": cardColour(info)}, data: {card: code},
    },
    h("span", {class: "cc-corner"}, icon(l.corner, "cc-icon cc-corner-icon"),
      opts.down ? icon("down", "cc-icon cc-down-icon") : null),
    l.big !== null ? h("span", {class: "cc-big"}, l.big) : icon(l.bigIcon, "cc-icon cc-big-icon"),
    h("span", {class: "cc-small"}, l.word));
    if (opts.tip !== false) {
        el.setAttribute("role", "img");
        el.setAttribute("aria-label", opts.down ? pt("aria.own_down", {cards: [code]}) : cardName(code));
        const more = [...(opts.down ? [pt("tip.own_down")] : []), ...(opts.more ?? [])];
        withTip(el, cardTip(code, more));
    } else {
        el.setAttribute("aria-hidden", "true");
    }
    return el;
}

/**
 * A face-down card of another seat (or of the viewer, whose view tells the
 * code: then its face shows, marked face down).
 * @param {import("../types.js").GameContext} ctx
 * @param {number} owner
 * @param {string} [code]
 * @returns {HTMLElement}
 */
export function cardBack(ctx, owner, code) {
    if (code) return cardFace(ctx.pieces, code, {down: true});
    const colour = seatLook(ctx, owner).colour;
    const el = h("span", {class: "cc-card cc-back", style: {"--owner": colour}, data: {down: String(owner)},
                          role: "img", "aria-label": pt("aria.back", {seat: owner})},
                 h("span", {class: "cc-corner"}), h("span", {class: "cc-big"}, "?"),
                 h("span", {class: "cc-small"}, seatWord(owner)));
    return withTip(el, () => [h("b", {class: "cc-tip-name"}, pt("aria.back", {seat: owner})),
                              h("p", null, pt("tip.back", {seat: owner}))]);
}

/**
 * A big follower of a seat.
 * @param {import("../types.js").GameContext} ctx
 * @param {number} seat
 * @returns {HTMLElement}
 */
export function follower(ctx, seat) {
    const colour = seatLook(ctx, seat).colour;
    const el = h("span", {class: "cc-follower", style: {"--owner": colour}, data: {follower: String(seat)},
                          role: "img", "aria-label": pt("aria.follower", {seat})},
                 svgMeeple(colour), h("span", {class: "cc-small"}, seatWord(seat)));
    return withTip(el, () => [h("b", {class: "cc-tip-name"}, pt("aria.follower", {seat})),
                              h("p", null, pt("tip.follower"))]);
}

/**
 * The place of a card taken at round scoring.
 * @returns {HTMLElement}
 */
export function takenPlace() {
    return h("span", {class: "cc-card cc-taken", role: "img", "aria-label": pt("aria.taken")});
}

/**
 * A row entry of the view as an element, with `data-entry` saying what the
 * page shows there (a card, a back, a follower, a taken place).
 * @param {import("../types.js").GameContext} ctx
 * @param {Entry} entry
 * @param {string[]} [more]  lines a card's tip adds
 * @returns {HTMLElement}
 */
export function entryElement(ctx, entry, more = []) {
    let el;
    if (entry.follower !== undefined) el = follower(ctx, entry.follower);
    else if (entry.taken) el = takenPlace();
    else if (entry.down !== undefined && entry.down === ctx.seat && entry.card)
        el = cardFace(ctx.pieces, entry.card, {down: true, more});
    else if (entry.down !== undefined && entry.card)   // the game is over: shown to all
        el = cardFace(ctx.pieces, entry.card, {more: [pt("tip.shown", {seat: entry.down}), ...more]});
    else if (entry.down !== undefined) el = cardBack(ctx, entry.down);
    else if (entry.card) {
        el = cardFace(ctx.pieces, entry.card, {more: entry.turned ? [pt("tip.turned"), ...more] : more});
        if (entry.turned) el.classList.add("cc-turned");
    } else el = takenPlace();
    el.dataset.entry = entry.follower !== undefined ? "follower" : entry.taken ? "taken"
        : entry.card ? "card" : entry.down !== undefined ? "back" : "taken";
    return el;
}
