// final.mjs -- each player's victory points by where they come from: the
// engine's breakdown that every state message carries (`breakdown`,
// tafel_state_score_breakdown: settlements, cities, the victory points of
// built cards, the knight token, the windmill), which adds up to the
// engine's score.  Drawn at the end as a table, and during the game in the
// popover of each player's points.
import {h} from "../cards/dom.mjs";
import {t, seatWord} from "../words/catalog.mjs";

/** The engine's categories, in its order. */
export const SOURCES = ["settlements", "cities", "expansions", "knight", "windmill"];

/**
 * The breakdown of a state message (not in its JSDoc type: read as it comes).
 * @param {import("../types.js").StateMessage} state
 * @returns {Record<string, number>[]}
 */
export function breakdownOf(state) {
    const b = /** @type {{breakdown?: unknown}} */ (/** @type {unknown} */ (state)).breakdown;
    return Array.isArray(b) ? b : [];
}

/**
 * One seat's points by source, as lines for the popover of its points.
 * @param {Record<string, number> | undefined} row
 * @returns {Node[]}
 */
export function breakdownLines(row) {
    if (!row) return [];
    return [h("ul", {class: "ct-pop-list"},
              SOURCES.map((k) => h("li", null, h("span", null, t(`catan_cards.page.vp_source.${k}`)), h("b", null, row[k] ?? 0))))];
}

/**
 * The table at the end: a row per source, a column per seat, the totals
 * (the scores), and who won.
 * @param {import("../types.js").StateMessage} state
 * @returns {HTMLElement | null}
 */
export function drawFinal(state) {
    if (state.status !== "over") return null;
    const rows = breakdownOf(state);
    if (!rows.length) return null;
    const seats = rows.map((_, i) => i);
    const winners = state.winners ?? [];
    return h("section", {class: "ct-final", "aria-label": t("catan_cards.page.final")},
             h("h3", null, t("catan_cards.page.final")),
             h("p", {class: "ct-final-result"}, winners.length ? t("common.wins", {seats: winners}) : t("common.draw")),
             h("table", {class: "ct-final-table"},
               h("thead", null, h("tr", null, h("th", {scope: "col"}, t("catan_cards.page.vp_source_head")),
                                  seats.map((s) => h("th", {scope: "col"}, seatWord(s))))),
               h("tbody", null, SOURCES.map((k) => h("tr", {data: {source: k}},
                   h("th", {scope: "row"}, t(`catan_cards.page.vp_source.${k}`)),
                   seats.map((s) => h("td", null, rows[s]?.[k] ?? 0))))),
               h("tfoot", null, h("tr", {data: {source: "total"}}, h("th", {scope: "row"}, t("catan_cards.page.vp_total")),
                                  seats.map((s) => h("td", null, state.scores?.[s] ?? 0))))));
}
