// pile.mjs -- the tiles left in the pile by kind, and the tiles removed.
//
// From the view's `pile` ({type: count}, types used up left out),
// `pile_size` and `removed`; every type of the game is shown, in the
// engine's order, a used-up one faded, so that a player sees at a glance
// what can still come.  Each is named by what it shows (its title).  Drawn
// again only when the pile changed: thirty small tiles are the costliest
// part of the side panel.

import {html} from "./svg.mjs";
import {tileIcon} from "./tiles.mjs";
import {say} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */

/**
 * @param {HTMLElement} box
 * @param {Record<string, TileType>} tiles
 * @param {{pile: Record<string, number>, pile_size: number, removed: string[], game: string}} view
 */
export function drawPile(box, tiles, view) {
  const crop = /crop_circles=true/.test(view.game || "");
  const removed = view.removed || [];
  const key = `${view.pile_size} ${removed.join(" ")} ${crop}`;
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  const items = [];
  for (const [id, tile] of Object.entries(tiles)) {
    if (tile.crop && !crop) continue;
    const n = (view.pile || {})[id] || 0;
    items.push(html("li", {class: "carc-pile-item" + (n ? "" : " carc-gone"),
      title: say("pile.item", {tile: id, count: n})}, [
      tileIcon(id, tile, 0, 34),
      html("span", {class: "carc-pile-id"}, [say("pile.id", {id})]),
      html("span", {class: "carc-pile-n"}, [String(n)]),
    ]));
  }
  box.replaceChildren(
    html("h3", {}, [say("pile.title", {n: view.pile_size})]),
    html("ul", {class: "carc-pile-list", "aria-label": say("pile.list")}, items),
  );
  if (removed.length)
    box.append(html("p", {class: "carc-removed"}, [say("pile.removed", {tile: removed})]));
}
