// hint.mjs -- a hinted action drawn on the board (GameView.hint).
//
// The table asks the hard bot for this seat's best moves and may show one
// on the board: `place X Y R` as the tile in hand ghosted there, turned R
// degrees, behind a dashed outline; a follower (`follower kind name`, `add
// x y kind name`) as a ghost follower on its spot; `remove ...` as a dashed
// ring round the follower.  Anything else (pass, a crop circle choice) has
// no place on the board.  The spots are found as the controls find theirs,
// from the text alone (placement.mjs, followers.mjs).

import {svg} from "./svg.mjs";
import {SIZE} from "./segments.mjs";
import {drawTile} from "./tiles.mjs";
import {tileOrigin, meeple, followerSpots} from "./followers.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./followers.mjs").Placed} Placed */
/** @typedef {import("./followers.mjs").Follower} Follower */

/**
 * Draws action into layer (or nothing); returns the box it covers in
 * board units, or null.
 * @param {SVGGElement} layer
 * @param {string | null} action
 * @param {{tiles: Record<string, TileType>, at: Map<string, Placed>, hand: string | null,
 *   newest: Placed | undefined, followers: Follower[], colour: string}} on
 * @returns {{x0: number, y0: number, x1: number, y1: number} | null}
 */
export function drawHint(layer, action, on) {
  layer.replaceChildren();
  if (!action) return null;
  const m = /^place (-?\d+) (-?\d+) (\d+)$/.exec(action);
  if (m) {
    const type = on.hand ? on.tiles[on.hand] : undefined;
    if (!on.hand || !type) return null;
    const o = tileOrigin(Number(m[1]), Number(m[2]));
    layer.append(svg("g", {class: "carc-hint carc-hint-tile", transform: `translate(${o.x},${o.y})`,
      "data-action": action}, [
      svg("g", {class: "carc-hint-body"}, [drawTile(on.hand, type, Number(m[3]))]),
      svg("rect", {x: 1, y: 1, width: SIZE - 2, height: SIZE - 2, class: "carc-hint-box"}),
    ]));
    return {x0: o.x, y0: o.y, x1: o.x + SIZE, y1: o.y + SIZE};
  }
  const {spots} = followerSpots([action], on.tiles, on.at, on.newest, on.followers);
  const spot = spots[0];
  if (!spot) return null;
  const p = spot.at;
  layer.append(svg("g", {class: "carc-hint carc-hint-follower", transform: `translate(${p.x},${p.y})`,
    "data-action": action}, [svg("g", {class: "carc-fixed"}, [
    svg("circle", {r: 22, class: "carc-hint-box"}),
    spot.verb === "remove" ? null : svg("g", {class: "carc-hint-body"}, [meeple(on.colour, spot.kind === "field")]),
  ])]));
  return {x0: p.x - 24, y0: p.y - 24, x1: p.x + 24, y1: p.y + 24};
}
