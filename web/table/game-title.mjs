// game-title.mjs -- a game's name in the page's language ("Carcassonne",
// "Das Kartenspiel Die Siedler von Catan"), from the catalog's names of the
// lobby's games; a game the catalog does not name is called by its own name.

import {t, catalog} from "../words/catalog.mjs";

/** @param {string} name the engine's name ("catan_cards") */
export function gameTitle(name) {
    const key = `lobby.game.${name}`;
    return catalog().has(key) ? t(key) : name;
}
