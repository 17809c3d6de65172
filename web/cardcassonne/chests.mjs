// chests.mjs -- what lies in front of a seat: its animals by kind (the
// animal jokers assigned to a kind counted in, and shown apart), the jokers
// still to assign, and the building cards under its chest by colour (public
// in tafel: docs/cardcassonne.md, Decisions).
import {h} from "../cards/dom.mjs";
import {ROW_COLOURS, ROW_ORDER} from "./cards.mjs";

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
        const colour = ROW_COLOURS[KIND_COLOUR[kind] ?? ""] ?? "#888";
        return h("li", {class: "cc-animal", style: {"--card": colour},
                        title: `${seat.animals[kind]} ${kind}${jokers ? `, ${jokers} of them joker(s)` : ""}`},
                 h("b", null, seat.animals[kind]), ` ${kind}`, jokers ? h("small", null, ` (${jokers}★)`) : null);
    });
    if (seat.unassigned_jokers)
        items.push(h("li", {class: "cc-animal", style: {"--card": "#7b4fa8"},
                            title: "animal jokers held, to assign when an animal card is won"},
                     h("b", null, seat.unassigned_jokers), " joker(s) to assign"));
    return h("ul", {class: "cc-animals", "aria-label": "animals"},
             items.length ? items : h("li", {class: "cc-none"}, "no animals"));
}

/**
 * The chest: building cards by colour and building jokers.
 * @param {any} seat
 * @returns {HTMLElement}
 */
export function drawChest(seat) {
    const chest = seat.chest ?? {};
    const parts = [...ROW_ORDER, "HJ"].filter((c) => chest[c] > 0).map((c) =>
        h("span", {class: "cc-chest-card", style: {"--card": ROW_COLOURS[c] ?? "#7b4fa8"},
                   title: c === "HJ" ? "building jokers" : `${c} buildings`},
          `${c === "HJ" ? "HJ" : c + "H"}×${chest[c]}`));
    return h("div", {class: "cc-chest", title: "building cards under the chest (scored at the end)"},
             h("span", {class: "cc-chest-icon", "aria-hidden": "true"}, "▣"),
             ` chest ${seat.chest_count ?? 0}`, parts.length ? ": " : "", parts);
}

export const POINT_LABELS = /** @type {Record<string, string>} */ ({
    persons: "persons", animals: "animals", jokers: "animal jokers (3 each)",
    dragon_fairy: "dragon / fairy", wrong: "wrongly placed (10 each)", buildings: "buildings",
});

/**
 * The points of a seat so far, by kind.
 * @param {any} seat
 * @returns {HTMLElement}
 */
export function drawPoints(seat) {
    const points = seat.points ?? {};
    const rows = Object.keys(points).filter((k) => points[k]).map((k) =>
        h("tr", null, h("td", null, POINT_LABELS[k] ?? k), h("td", {class: "cc-num"}, points[k])));
    return h("table", {class: "cc-points", "aria-label": "points by kind"},
             rows.length ? rows : h("tr", null, h("td", {class: "cc-none"}, "no points yet")));
}
