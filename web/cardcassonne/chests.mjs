// chests.mjs -- what lies in front of a seat: its animals by kind (the
// animal jokers assigned to a kind counted in, and said apart), the jokers
// waiting for an animal, the building cards under its chest by colour
// (public in tafel: docs/cardcassonne.md, Decisions), and its points so far
// by kind.
import {h} from "../cards/dom.mjs";
import {ROW_COLOURS, ROW_ORDER, JOKER_COLOUR} from "./cards.mjs";
import {icon} from "./icons.mjs";
import {pt, ptn} from "./words.mjs";

const KIND_COLOUR = /** @type {Record<string, string>} */ (
    {chicken: "Y", sheep: "R", horse: "G", pig: "B"});

/**
 * @param {any} seat  one of view.seats
 * @returns {HTMLElement}
 */
export function drawAnimals(seat) {
    const kinds = Object.keys(seat.animals ?? {});
    const items = kinds.filter((k) => seat.animals[k] > 0).map((kind) => {
        const jokers = seat.animal_jokers?.[kind] ?? 0;
        const colour = ROW_COLOURS[KIND_COLOUR[kind] ?? ""] ?? JOKER_COLOUR;
        return h("li", {class: "cc-animal", style: {"--card": colour}, data: {kind}},
                 icon("animal", "cc-icon cc-chip-icon"), ptn(`n_${kind}`, seat.animals[kind]),
                 jokers ? h("small", null, " ", ptn("n_jokers_among", jokers)) : null);
    });
    if (seat.unassigned_jokers)
        items.push(h("li", {class: "cc-animal", style: {"--card": JOKER_COLOUR}},
                     icon("star", "cc-icon cc-chip-icon"), ptn("n_jokers_waiting", seat.unassigned_jokers)));
    return h("ul", {class: "cc-animals", "aria-label": pt("animals.label")},
             items.length ? items : h("li", {class: "cc-none"}, pt("animals.none")));
}

/**
 * The chest: building cards by colour and building jokers.
 * @param {any} seat
 * @returns {HTMLElement}
 */
export function drawChest(seat) {
    const chest = seat.chest ?? {};
    const parts = [...ROW_ORDER, "HJ"].filter((c) => chest[c] > 0).map((c) => {
        const code = c === "HJ" ? "HJ" : `${c}H`;
        return h("span", {class: "cc-chest-card", style: {"--card": ROW_COLOURS[c] ?? JOKER_COLOUR},
                          role: "img", "aria-label": pt("chest.chip", {cards: [code], count: chest[c]})},
                 icon(c === "HJ" ? "star" : "building", "cc-icon cc-chip-icon"), `×${chest[c]}`);
    });
    return h("div", {class: "cc-chest"},
             icon("chest", "cc-icon cc-chest-icon"),
             h("span", null, pt("chest.title", {count: seat.chest_count ?? 0})), parts);
}

const POINT_KINDS = ["persons", "animals", "jokers", "dragon_fairy", "wrong", "buildings"];

/**
 * The points of a seat so far, by kind.
 * @param {any} seat
 * @returns {HTMLElement}
 */
export function drawPoints(seat) {
    const points = seat.points ?? {};
    const rows = POINT_KINDS.filter((k) => points[k]).map((k) =>
        h("tr", null, h("td", null, pt(`points.${k}`)), h("td", {class: "cc-num"}, points[k])));
    return h("table", {class: "cc-points", "aria-label": pt("points.label")},
             h("tbody", null, rows.length ? rows : h("tr", null, h("td", {class: "cc-none"}, pt("points.none")))));
}
