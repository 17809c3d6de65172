// words.mjs -- the Carcassonne board's words, all from the catalogs.
//
// The board's own texts are `carcassonne.page.*` (web/i18n/<lang>/
// carcassonne.page.json); the game's symbols (tiles, followers, features)
// are the game catalog's `carcassonne.tile.<id>`, `carcassonne.follower.*`,
// `carcassonne.feature.*`, as the log's sentences name them.  No module of
// this folder writes a word of its own: they ask here.

import {t, seatWord} from "../words/catalog.mjs";

/** What a follower on a feature of each kind is called (the engine's names). */
export const FOLLOWER_OF = /** @type {Record<string, string>} */ (
  {city: "knight", road: "robber", field: "farmer", cloister: "monk"});

/**
 * A text of the board: carcassonne.page.<key>, filled from fields.
 * @param {string} key @param {Record<string, any>} [fields]
 */
export function say(key, fields) {
  return t(`carcassonne.page.${key}`, fields);
}

/** A tile named by what it shows: "tile F (city across, with pennant)". @param {string} id */
export function tileName(id) {
  return t(`carcassonne.tile.${id}`);
}

/** What a tile shows, in a sentence or two. @param {string} id */
export function tileText(id) {
  return t(`carcassonne.tile_text.${id}`);
}

/** A seat's colour name in the page's language. @param {number} seat */
export function seatName(seat) {
  return seatWord(seat);
}

/**
 * The fields naming a piece "city N" in words: the follower that stands on
 * it, the feature, and the side of the tile it touches (a compass point).
 * @param {string} kind city, road, field or cloister
 * @param {string} [name] the edge or half-edge (N, NNW, ...)
 */
export function pieceFields(kind, name) {
  return {
    follower: FOLLOWER_OF[kind] || kind,
    feature: kind,
    // a word already: the catalog leaves a string it has no symbol for as it is
    side: name ? t(`carcassonne.page.side.${name}`) : "",
  };
}

/**
 * What a follower spot does, in words, for its title and aria-label.
 * @param {{verb: string, x: number, y: number, kind: string, name?: string}} spot
 */
export function spotLabel(spot) {
  const fields = {...pieceFields(spot.kind, spot.name), x: spot.x, y: spot.y};
  if (spot.verb === "follower")
    return say(spot.kind === "cloister" ? "spot.monk" : "spot.follower", fields);
  return say(spot.verb === "add" ? "spot.add" : "spot.remove", fields);
}
