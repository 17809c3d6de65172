// placement.mjs -- the legal placements of the drawn tile: spots, the tile
// shown at the chosen spot, its rotations, confirm.
//
// Made from the `place X Y R` texts of `legal` alone: each distinct X Y is a
// spot, and the rotations offered there are exactly those of its texts, in
// the engine's order (a tile that looks alike turned is listed once).  What
// is played is the very text of the chosen spot and rotation.

import {svg, title} from "./svg.mjs";
import {SIZE} from "./segments.mjs";
import {drawTile} from "./tiles.mjs";
import {tileOrigin} from "./followers.mjs";
import {say} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {{x: number, y: number, key: string, rotations: number[], texts: string[]}} Place */

/**
 * The spots of the legal `place` texts, in the order they first appear.
 * @param {string[]} legal
 * @returns {Place[]}
 */
export function placesFrom(legal) {
  /** @type {Map<string, Place>} */
  const byKey = new Map();
  for (const text of legal) {
    const m = /^place (-?\d+) (-?\d+) (\d+)$/.exec(text);
    if (!m) continue;
    const x = Number(m[1]), y = Number(m[2]), key = `${x},${y}`;
    let p = byKey.get(key);
    if (!p) byKey.set(key, p = {x, y, key, rotations: [], texts: []});
    p.rotations.push(Number(m[3]));
    p.texts.push(text);
  }
  return Array.from(byKey.values());
}

/**
 * Draws the spots (a highlighted square each) into layer.
 * @param {SVGGElement} layer @param {Place[]} places
 * @param {string | null} selected key of the chosen spot
 * @param {(place: Place) => void} choose
 */
export function drawPlaces(layer, places, selected, choose) {
  layer.replaceChildren();
  for (const p of places) {
    if (p.key === selected) continue;
    const o = tileOrigin(p.x, p.y);
    const label = say("board.place", {x: p.x, y: p.y, ways: p.rotations.length});
    const g = svg("g", {class: "carc-spot carc-place", transform: `translate(${o.x},${o.y})`,
      role: "button", "aria-label": label, "data-place": p.key}, [
      title(label),
      svg("rect", {x: 6, y: 6, width: SIZE - 12, height: SIZE - 12, rx: 8, class: "carc-place-box"}),
      svg("text", {x: SIZE / 2, y: SIZE / 2 + 6, "text-anchor": "middle", class: "carc-place-n"},
        [p.rotations.length > 1 ? `${p.rotations.length}×` : "+"]),
    ]);
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      choose(p);
    });
    layer.append(g);
  }
}

/**
 * Draws the drawn tile at the chosen spot and rotation, with a rotate and a
 * confirm button under it; a click on the tile rotates it.
 * @param {SVGGElement} layer @param {string} id @param {TileType} tile
 * @param {Place} place @param {number} index into place.rotations
 * @param {() => void} rotate @param {() => void} confirm
 */
export function drawPreview(layer, id, tile, place, index, rotate, confirm) {
  layer.replaceChildren();
  const o = tileOrigin(place.x, place.y);
  const many = place.rotations.length > 1;
  const turnLabel = say("board.turn", {ways: place.rotations.length}), layLabel = say("board.lay");
  const body = svg("g", {class: "carc-preview", role: "button",
    "aria-label": many ? turnLabel : layLabel}, [
    drawTile(id, tile, place.rotations[index]),
    svg("rect", {x: 1, y: 1, width: SIZE - 2, height: SIZE - 2, class: "carc-preview-box"}),
  ]);
  body.addEventListener("click", (ev) => {
    ev.stopPropagation();
    if (many) rotate(); else confirm();
  });
  /**
   * A round button under the tile that keeps a finger's size on the
   * screen at any zoom (carcassonne.css, --carc-k); dx: screen pixels from
   * the tile's middle.
   * @param {number} dx @param {string} label @param {string} glyph @param {() => void} act
   * @param {string} cls
   */
  const button = (dx, label, glyph, act, cls) => {
    const b = svg("g", {class: "carc-svgbutton " + cls, transform: `translate(${SIZE / 2},${SIZE})`,
      role: "button", "aria-label": label}, [
      title(label),
      svg("g", {class: "carc-fixed"}, [svg("g", {transform: `translate(${dx},28)`}, [
        svg("circle", {r: 22}),
        svg("text", {y: 8, "text-anchor": "middle"}, [glyph]),
      ])]),
    ]);
    b.addEventListener("click", (ev) => {
      ev.stopPropagation();
      act();
    });
    return b;
  };
  layer.append(svg("g", {transform: `translate(${o.x},${o.y})`}, [
    body,
    many ? button(-26, turnLabel, "⟳", rotate, "carc-rotate") : null,
    button(many ? 26 : 0, layLabel, "✓", confirm, "carc-confirm"),
  ]));
}

/**
 * The index of the point nearest to points[from] in direction (dx, dy),
 * favouring those straight ahead; from itself when none lies that way.
 * @param {{x: number, y: number}[]} points @param {number} from
 * @param {number} dx @param {number} dy
 */
export function stepCursor(points, from, dx, dy) {
  if (from < 0 || from >= points.length) return points.length ? 0 : -1;
  const a = points[from];
  let best = from, bestScore = Infinity;
  points.forEach((b, i) => {
    const vx = b.x - a.x, vy = b.y - a.y, ahead = vx * dx + vy * dy;
    if (i === from || ahead <= 0) return;
    const side = Math.abs(vx * dy - vy * dx), score = ahead + 2 * side;
    if (score < bestScore) best = i, bestScore = score;
  });
  return best;
}
