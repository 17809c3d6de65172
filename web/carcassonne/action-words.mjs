// action-words.mjs -- a legal action of Carcassonne in words, for the list
// of all legal actions: "Lay the tile 1 tile north of the start tile, turned
// 90°" for `place 0 1 90`.  Places are said from the start tile, as players
// point at the table; the notation stays beside it when the player asks.

import {t, tn, catalog} from "../words/catalog.mjs";
import {pieceFields} from "./words.mjs";

/**
 * Where a square is, from the start tile: "2 tiles north and 1 tile east of the start tile".
 * @param {number} x @param {number} y
 */
function fromStart(x, y) {
    /** @type {string[]} */
    const steps = [];
    if (y) steps.push(tn(y > 0 ? "carcassonne.actions.north" : "carcassonne.actions.south", Math.abs(y)));
    if (x) steps.push(tn(x > 0 ? "carcassonne.actions.east" : "carcassonne.actions.west", Math.abs(x)));
    return t("carcassonne.actions.from_start", {steps: catalog().list(steps)});
}

/** On which tile: "on the start tile", "on the tile 1 tile east of the start tile". @param {number} x @param {number} y */
function onTile(x, y) {
    return x === 0 && y === 0 ? t("carcassonne.actions.on_start") : t("carcassonne.actions.on_tile", {where: fromStart(x, y)});
}

/**
 * @param {string} text a legal action's notation
 * @returns {string | null} null for a text this game does not have
 */
export function actionWords(text) {
    const w = text.split(" ");
    const n = (/** @type {number} */ i) => Number(w[i]);
    switch (w[0]) {
    case "draw": return t("carcassonne.action.draw");
    case "pass": return t("carcassonne.action.pass");
    case "crop": return w[1] === "add" || w[1] === "remove" ? t(`carcassonne.action.crop_${w[1]}`) : null;
    case "place": return w.length === 4 ? t("carcassonne.actions.place", {where: fromStart(n(1), n(2)), turn: n(3)}) : null;
    case "follower":
        return w[1] === "cloister" ? t("carcassonne.page.spot.monk", pieceFields("cloister"))
            : w.length === 3 ? t("carcassonne.page.spot.follower", pieceFields(w[1], w[2])) : null;
    case "add":
    case "remove":
        return w.length === 5 ? t(`carcassonne.actions.${w[0]}`, {...pieceFields(w[3], w[4]), at: onTile(n(1), n(2))}) : null;
    default: return null;
    }
}
