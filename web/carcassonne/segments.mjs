// segments.mjs -- where the pieces of a tile lie: the geometry shared by the
// tile pictures, the followers and the follower spots.
//
// A tile is drawn in a square of SIZE units, north up, at rotation 0 (the
// table orientation of the engine's tile data, `pieces.tiles`), then turned
// as a whole.  The engine names edges (N E S W) and half-edges (NNW .. WNW)
// as they lie on the board after rotation (rules/carcassonne.md, "Naming a
// piece of a tile"); a tile turned by r degrees clockwise shows its table
// edge e as board edge e + r/90 and its half-edge h as h + 2r/90.  This
// module turns board names back into table segments and table points into
// board points, and nothing else: it knows no rule.

/** The side of a tile in SVG units. */
export const SIZE = 100;

/** @typedef {"N" | "E" | "S" | "W"} Edge */
/** @typedef {{kind: "city" | "road" | "field" | "cloister", edges?: string[], pennant?: boolean,
 *   halves?: string[], borders?: number[]}} Segment */
/** @typedef {{count: number, edges: string, crop: null | "knight" | "robber" | "farmer",
 *   segments: Segment[]}} TileType */
/** @typedef {{x: number, y: number}} Point */

export const EDGES = ["N", "E", "S", "W"];
export const HALVES = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"];

const C = SIZE / 2;

/** The middles of the edges N E S W. */
export const EDGE_MID = [{x: C, y: 0}, {x: SIZE, y: C}, {x: C, y: SIZE}, {x: 0, y: C}];
/** The corners NW NE SE SW: corner i lies between edges i-1 and i. */
export const CORNER = [{x: 0, y: 0}, {x: SIZE, y: 0}, {x: SIZE, y: SIZE}, {x: 0, y: SIZE}];
/** The middles of the half-edges NNW .. WNW. */
export const HALF_MID = [
  {x: C / 2, y: 0}, {x: SIZE - C / 2, y: 0}, {x: SIZE, y: C / 2}, {x: SIZE, y: SIZE - C / 2},
  {x: SIZE - C / 2, y: SIZE}, {x: C / 2, y: SIZE}, {x: 0, y: SIZE - C / 2}, {x: 0, y: C / 2},
];
export const CENTRE = {x: C, y: C};

/**
 * a + (b - a) * t
 * @param {Point} a @param {Point} b @param {number} t
 * @returns {Point}
 */
export function mix(a, b, t) {
  return {x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t};
}

/**
 * A point of the tile in table orientation, turned by rotation degrees
 * clockwise about the tile's centre (SVG's y grows downward, so clockwise
 * on screen is (x, y) -> (C - (y - C), C + (x - C))).
 * @param {Point} p @param {number} rotation 0, 90, 180 or 270
 * @returns {Point}
 */
export function turn(p, rotation) {
  let {x, y} = p;
  for (let i = 0; i < ((rotation / 90) & 3); i++) [x, y] = [2 * C - y, x];
  return {x, y};
}

/**
 * The bit set of a segment's table edges (N = 1, E = 2, S = 4, W = 8).
 * @param {Segment} seg
 */
export function edgeMask(seg) {
  let m = 0;
  for (const e of seg.edges || []) m |= 1 << EDGES.indexOf(e);
  return m;
}

/** @param {number} m */
function bits(m) {
  return (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
}

/**
 * Whether a tile has something at its centre that a field's follower
 * should keep clear of: a cloister, a crop circle, roads meeting there.
 * @param {TileType} tile
 */
function centreTaken(tile) {
  return !!tile.crop || tile.segments.some((s) => s.kind === "cloister" || s.kind === "road");
}

/**
 * Where a follower stands on segment index i, in table orientation: a city
 * inside its walls, a road half way from an edge to the centre (or on its
 * bend), a field inside its halves, a monk on its cloister.
 * @param {TileType} tile @param {number} i
 * @returns {Point}
 */
export function segmentAnchor(tile, i) {
  const seg = tile.segments[i];
  if (seg.kind === "cloister") return CENTRE;
  if (seg.kind === "city") {
    const m = edgeMask(seg), n = bits(m);
    if (n === 4) return CENTRE;
    if (n === 1) return mix(EDGE_MID[Math.log2(m)], CENTRE, 0.3);
    if (n === 3) return mix(CENTRE, EDGE_MID[Math.log2(~m & 15)], -0.3);
    if (m === 5 || m === 10) return CENTRE;
    for (let c = 0; c < 4; c++) // two edges meeting at corner c
      if ((m >> ((c + 3) & 3) & 1) && (m >> c & 1)) return mix(CORNER[c], CENTRE, 0.5);
    return CENTRE;
  }
  if (seg.kind === "road") {
    const m = edgeMask(seg), list = [0, 1, 2, 3].filter((e) => m >> e & 1);
    if (list.length === 1) return mix(EDGE_MID[list[0]], CENTRE, 0.45);
    const [a, b] = list;
    if (b - a === 2) return mix(CENTRE, EDGE_MID[a], 0.3); // straight: beside the middle
    // a bend, drawn as a quadratic through the centre: its middle point
    return mix(mix(EDGE_MID[a], EDGE_MID[b], 0.5), CENTRE, 0.5);
  }
  // a field: the mean of its half-edges, drawn toward the centre
  const halves = (seg.halves || []).map((h) => HALF_MID[HALVES.indexOf(h)]);
  if (!halves.length) return CENTRE;
  const mean = {x: 0, y: 0};
  for (const h of halves) mean.x += h.x / halves.length, mean.y += h.y / halves.length;
  let p = mix(mean, CENTRE, 0.3);
  if (Math.hypot(p.x - C, p.y - C) < 18 && centreTaken(tile)) p = mix(halves[0], CENTRE, 0.3);
  if (tile.crop) { // keep clear of the crop circle sign
    const sign = signSpot(tile), d = Math.hypot(p.x - sign.x, p.y - sign.y);
    if (d < 26) p = d ? mix(sign, p, 26 / d) : mix(sign, CENTRE, 1);
  }
  return p;
}

/**
 * Where a crop circle's sign lies (table orientation): at the centre, where
 * roads end at it, but beside a road that bends through the centre.
 * @param {TileType} tile
 * @returns {Point}
 */
export function signSpot(tile) {
  const bend = tile.segments.find((s) => s.kind === "road" && bits(edgeMask(s)) === 2);
  if (!bend) return CENTRE;
  const m = edgeMask(bend);
  for (let c = 0; c < 4; c++) // the corner away from the bend
    if (!(m >> ((c + 3) & 3) & 1) && !(m >> c & 1)) return mix(CENTRE, CORNER[c], 0.4);
  return CENTRE;
}

/**
 * Where a pennant goes in city segment i (table orientation): near a corner
 * of the city, clear of its follower.
 * @param {TileType} tile @param {number} i
 * @returns {Point}
 */
export function pennantSpot(tile, i) {
  const m = edgeMask(tile.segments[i]);
  for (let c = 0; c < 4; c++)
    if ((m >> ((c + 3) & 3) & 1) && (m >> c & 1)) return mix(CORNER[c], CENTRE, 0.24);
  const first = [0, 1, 2, 3].find((e) => m >> e & 1) ?? 0;
  return mix(EDGE_MID[first], CENTRE, 0.45);
}

/**
 * The segment index of a tile that a board name stands for, as the engine
 * names pieces in actions and views: "city N", "road E", "field WNW",
 * "cloister" (kind, then an edge or half-edge as it lies on the board).
 * @param {TileType} tile @param {number} rotation
 * @param {string} kind @param {string} [name]
 * @returns {number} -1 when the tile has no such piece
 */
export function segmentAt(tile, rotation, kind, name) {
  const q = (rotation / 90) & 3;
  if (kind === "cloister")
    return tile.segments.findIndex((s) => s.kind === "cloister");
  if (kind === "field") {
    const h = HALVES.indexOf(name || "");
    if (h < 0) return -1;
    const table = HALVES[(h - 2 * q + 8) & 7];
    return tile.segments.findIndex((s) => s.kind === "field" && (s.halves || []).includes(table));
  }
  const e = EDGES.indexOf(name || "");
  if (e < 0) return -1;
  const table = EDGES[(e - q + 4) & 3];
  return tile.segments.findIndex((s) => s.kind === kind && (s.edges || []).includes(table));
}

/**
 * Where a follower on a board-named piece of a placed tile stands, in the
 * tile's own square after rotation (add the tile's board offset).
 * @param {TileType} tile @param {number} rotation @param {string} kind @param {string} [name]
 * @returns {Point | null}
 */
export function pieceSpot(tile, rotation, kind, name) {
  const i = segmentAt(tile, rotation, kind, name);
  return i < 0 ? null : turn(segmentAnchor(tile, i), rotation);
}
