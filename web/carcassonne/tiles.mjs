// tiles.mjs -- a land tile as SVG, drawn from the engine's segments.
//
// The picture is made from `pieces.tiles[T].segments` alone, never from a
// table of our own: the field is the background; each road runs from its
// edges to the centre (a bend through it, or ending there at a junction, a
// cloister, a crop circle or a city gate); each city is one polygon that
// covers its edges, its open sides curving in (a cap on one edge, a corner,
// a band across, a tile with a bite); then pennants, the cloister and the
// crop circle sign.  The tile is drawn at rotation 0 in a SIZE square and
// turned as a whole; the signs are turned back so that they stay upright.

import {svg, title} from "./svg.mjs";
import {SIZE, CENTRE, CORNER, EDGE_MID, edgeMask, mix, pennantSpot, signSpot} from "./segments.mjs";
import {say, tileName} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./segments.mjs").Point} Point */

const COLOURS = {
  field: "#8dbb5a", fieldEdge: "#6f9a41", city: "#d9b779", wall: "#7d5b2e",
  road: "#f3eee0", roadEdge: "#6e5f48", roof: "#b4473a", building: "#efe4cf",
};

/** @param {Point} p */
const xy = (p) => `${round(p.x)},${round(p.y)}`;
/** @param {number} v */
const round = (v) => Math.round(v * 10) / 10;

/**
 * The outline of a city on the edges of mask m (N = 1, E = 2, S = 4, W = 8):
 * along the tile's border where it has a city edge; across the tile, curving
 * in, over each run of other edges.
 * @param {number} m
 */
export function cityPath(m) {
  if (m === 15) return `M0,0H${SIZE}V${SIZE}H0Z`;
  let start = 0;
  while (!((m >> start & 1) && !(m >> ((start + 3) & 3) & 1))) start++;
  let d = `M${xy(CORNER[start])}`;
  for (let k = 0; k < 4;) {
    const i = (start + k) & 3;
    if (m >> i & 1) {
      d += `L${xy(CORNER[(i + 1) & 3])}`;
      k++;
      continue;
    }
    let run = 0;
    while (run < 4 - k && !(m >> ((i + run) & 3) & 1)) run++;
    const end = CORNER[(i + run) & 3];
    const control = run === 1 ? mix(EDGE_MID[i], CENTRE, 1.3)
      : run === 2 ? mix(CORNER[(i + 3) & 3], CENTRE, 0.2)
      : mix(EDGE_MID[(i + 3) & 3], CENTRE, 1.2);
    d += `Q${xy(control)} ${xy(end)}`;
    k += run;
  }
  return d + "Z";
}

/**
 * The centre line of a road on the edges of mask m: from each edge to the
 * centre, a bend through it, or straight across.
 * @param {number} m
 */
export function roadPath(m) {
  const list = [0, 1, 2, 3].filter((e) => m >> e & 1);
  if (list.length === 1) return `M${xy(EDGE_MID[list[0]])}L${xy(CENTRE)}`;
  const [a, b] = list;
  if (b - a === 2) return `M${xy(EDGE_MID[a])}L${xy(EDGE_MID[b])}`;
  return `M${xy(EDGE_MID[a])}Q${xy(CENTRE)} ${xy(EDGE_MID[b])}`;
}

/** A small pennant (a shield), centred on 0,0. */
export function pennantShape() {
  return svg("path", {d: "M-7,-8H7V-1Q7,6 0,9Q-7,6 -7,-1Z", fill: "#2c5ea8",
    stroke: "#fff", "stroke-width": 1.6, class: "carc-pennant"});
}

/**
 * The sign of a crop circle: rings in the corn, with the symbol of the
 * followers concerned (shield: knights, club: robbers, pitchfork: farmers).
 * @param {"knight" | "robber" | "farmer"} kind
 */
export function cropSign(kind) {
  const ink = {fill: "none", stroke: "#4a3b1f", "stroke-width": 2.2, "stroke-linecap": "round"};
  const glyph = kind === "knight" ? svg("path", {...ink, d: "M-5,-6H5V0Q5,4 0,7Q-5,4 -5,0Z"})
    : kind === "robber" ? svg("path", {...ink, d: "M-4,7L2,-3M0,-5a3.5,3.5 0 1 0 5,5"})
    : svg("path", {...ink, d: "M0,8V-2M-5,-8V-2H5V-8M0,-8V-2"});
  return svg("g", {class: "carc-crop"}, [
    svg("circle", {r: 17, fill: "#e4d58f", stroke: "#b8a550", "stroke-width": 2}),
    svg("circle", {r: 11, fill: "none", stroke: "#b8a550", "stroke-width": 1.5}),
    glyph,
  ]);
}

/** A cloister: a chapel with a red roof and a cross, centred on 0,0. */
export function cloisterShape() {
  return svg("g", {class: "carc-cloister"}, [
    svg("rect", {x: -13, y: -5, width: 26, height: 18, fill: COLOURS.building,
      stroke: "#5b4a35", "stroke-width": 1.5}),
    svg("path", {d: "M-16,-4L0,-17L16,-4Z", fill: COLOURS.roof, stroke: "#5b2a22",
      "stroke-width": 1.5}),
    svg("path", {d: "M0,-25V-15M-3.5,-21.5H3.5", stroke: "#5b2a22", "stroke-width": 2}),
    svg("rect", {x: -3.5, y: 4, width: 7, height: 9, fill: "#5b4a35"}),
  ]);
}

/**
 * A tile of type `id` at `rotation`, in the square 0..SIZE: a <g> to place
 * with a transform; its title names it by what it shows (and where it lies,
 * when x and y are given).
 * @param {string} id
 * @param {TileType} tile
 * @param {number} rotation 0, 90, 180 or 270 (clockwise)
 * @param {number} [x] @param {number} [y]
 * @returns {SVGGElement}
 */
export function drawTile(id, tile, rotation, x, y) {
  const body = svg("g", {transform: rotation ? `rotate(${rotation} ${SIZE / 2} ${SIZE / 2})` : null});
  const upright = (/** @type {Point} */ p) =>
    `translate(${xy(p)}) rotate(${-rotation})`;
  body.append(svg("rect", {width: SIZE, height: SIZE, fill: COLOURS.field}));
  let ends = 0, centreSign = false;
  for (const seg of tile.segments) {
    if (seg.kind !== "road") continue;
    const m = edgeMask(seg), d = roadPath(m);
    if ((m & (m - 1)) === 0) ends++;
    body.append(svg("path", {d, fill: "none", stroke: COLOURS.roadEdge, "stroke-width": 12,
      "stroke-linecap": "butt"}));
    body.append(svg("path", {d, fill: "none", stroke: COLOURS.road, "stroke-width": 8,
      "stroke-linecap": "butt", class: "carc-road"}));
  }
  tile.segments.forEach((seg, i) => {
    if (seg.kind !== "city") return;
    body.append(svg("path", {d: cityPath(edgeMask(seg)), fill: COLOURS.city, stroke: COLOURS.wall,
      "stroke-width": 3, "stroke-linejoin": "round", class: "carc-city"}));
    if (seg.pennant)
      body.append(svg("g", {transform: upright(pennantSpot(tile, i))}, [pennantShape()]));
  });
  for (const seg of tile.segments)
    if (seg.kind === "cloister") {
      body.append(svg("g", {transform: upright(CENTRE)}, [cloisterShape()]));
      centreSign = true;
    }
  if (tile.crop) {
    centreSign = true;
    body.append(svg("g", {transform: upright(signSpot(tile))}, [cropSign(tile.crop)]));
  }
  if (ends >= 2 && !centreSign) // roads ending at a junction: a little village
    body.append(svg("g", {transform: upright(CENTRE)}, [
      svg("rect", {x: -8, y: -8, width: 16, height: 16, rx: 2, fill: COLOURS.building,
        stroke: "#5b4a35", "stroke-width": 1.5}),
      svg("path", {d: "M-8,-2L0,-10L8,-2", fill: COLOURS.roof, stroke: "#5b2a22",
        "stroke-width": 1.2}),
    ]));
  body.append(svg("rect", {width: SIZE, height: SIZE, fill: "none", stroke: COLOURS.fieldEdge,
    "stroke-width": 1, class: "carc-tile-edge"}));
  return /** @type {SVGGElement} */ (svg("g", {class: "carc-tile", "data-tile": id}, [
    title(x === undefined ? tileName(id) : say("board.tile", {tile: id, x, y, turn: rotation})),
    body]));
}

/**
 * A tile alone in its own small <svg>, for the drawn tile and the pile.
 * @param {string} id @param {TileType} tile @param {number} rotation @param {number} px size
 */
export function tileIcon(id, tile, rotation, px) {
  return svg("svg", {viewBox: `-2 -2 ${SIZE + 4} ${SIZE + 4}`, width: px, height: px,
    class: "carc-tile-icon", role: "img", "aria-label": tileName(id)}, [drawTile(id, tile, rotation)]);
}
