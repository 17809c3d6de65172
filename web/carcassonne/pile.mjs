// pile.mjs -- the tiles left in the pile by kind, and the tiles removed.
//
// From the view's `pile` ({type: count}, types used up left out),
// `pile_size` and `removed`; every type of the game is shown, in the
// engine's order, a used-up one faded, so that a player sees at a glance
// what can still come.

import {html} from "./svg.mjs";
import {tileIcon} from "./tiles.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */

/**
 * @param {HTMLElement} box
 * @param {Record<string, TileType>} tiles
 * @param {{pile: Record<string, number>, pile_size: number, removed: string[], game: string}} view
 */
export function drawPile(box, tiles, view) {
  const crop = /crop_circles=true/.test(view.game || "");
  const items = [];
  for (const [id, tile] of Object.entries(tiles)) {
    if (tile.crop && !crop) continue;
    const n = (view.pile || {})[id] || 0;
    items.push(html("li", {class: "carc-pile-item" + (n ? "" : " carc-gone"),
      title: `${id} (${tile.edges}${tile.crop ? ", crop circle: " + tile.crop + "s" : ""}): ${n} left`}, [
      tileIcon(id, tile, 0, 34),
      html("span", {class: "carc-pile-id"}, [id]),
      html("span", {class: "carc-pile-n"}, [String(n)]),
    ]));
  }
  const removed = view.removed || [];
  box.replaceChildren(
    html("h3", {}, [`Tiles left: ${view.pile_size}`]),
    html("ul", {class: "carc-pile-list", "aria-label": "tiles left in the pile by type"}, items),
  );
  if (removed.length)
    box.append(html("p", {class: "carc-removed"}, [`Removed (fit nowhere): ${removed.join(" ")}`]));
}
