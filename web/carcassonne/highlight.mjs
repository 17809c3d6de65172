// highlight.mjs -- a whole feature lit on the board, segment by segment.
//
// The engine names the segments of a feature (the accounts' `segments`, the
// view's `features`: [x, y, "city N"], docs/events-carcassonne.md); this
// module draws each over its tile: a city as its walls' outline, a road as
// its line, a field as a fan from where its farmer stands to its
// half-edges, a cloister as a square round the chapel.  It finds where a
// segment lies from the tile data (segments.mjs) and decides nothing about
// which segments make a feature.

import {svg} from "./svg.mjs";
import {SIZE, CENTRE, HALVES, edgeMask, segmentAt, segmentAnchor, turn} from "./segments.mjs";
import {cityPath, roadPath} from "./tiles.mjs";
import {tileOrigin} from "./followers.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./segments.mjs").Point} Point */
/** @typedef {import("./followers.mjs").Placed} Placed */
/** A segment as the engine names it: [x, y, "city N"]. @typedef {[number, number, string]} SegmentRef */

/** The ends of each half-edge NNW .. WNW, clockwise, in table orientation. */
const HALF_ENDS = [[0, 0, 50, 0], [50, 0, 100, 0], [100, 0, 100, 50], [100, 50, 100, 100],
  [100, 100, 50, 100], [50, 100, 0, 100], [0, 100, 0, 50], [0, 50, 0, 0]];

/** "x,y,city N": the key of a segment (and of a follower spot on it). @param {SegmentRef} s */
export function segmentKey(s) {
  return `${s[0]},${s[1]},${s[2]}`;
}

/**
 * The placed tile, its type and the segment index of a segment reference,
 * or null when the board does not hold it.
 * @param {Record<string, TileType>} tiles @param {Map<string, Placed>} at @param {SegmentRef} s
 */
function locate(tiles, at, s) {
  const placed = at.get(`${s[0]},${s[1]}`);
  const type = placed && tiles[placed.tile];
  if (!placed || !type) return null;
  const [kind, name] = s[2].split(" ");
  const index = segmentAt(type, placed.rotation, kind, name);
  return index < 0 ? null : {placed, type, index};
}

/**
 * The outline of segment i of a tile, in table orientation.
 * @param {TileType} type @param {number} i
 */
function shape(type, i) {
  const seg = type.segments[i];
  if (seg.kind === "city")
    return svg("path", {d: cityPath(edgeMask(seg)), class: "carc-seg-area"});
  if (seg.kind === "road")
    return svg("path", {d: roadPath(edgeMask(seg)), class: "carc-seg-line"});
  if (seg.kind === "cloister")
    return svg("rect", {x: 20, y: 20, width: SIZE - 40, height: SIZE - 40, rx: 8,
      class: "carc-seg-area"});
  const a = segmentAnchor(type, i);
  const d = (seg.halves || []).map((h) => {
    const [x0, y0, x1, y1] = HALF_ENDS[HALVES.indexOf(h)];
    return `M${a.x},${a.y}L${x0},${y0}L${x1},${y1}Z`;
  }).join("");
  return svg("path", {d, class: "carc-seg-area"});
}

/**
 * The segments drawn, each a <g class="carc-seg"> over its tile, in a
 * group of class cls.
 * @param {Record<string, TileType>} tiles @param {Map<string, Placed>} at
 * @param {SegmentRef[]} segments @param {string} cls
 * @returns {SVGGElement}
 */
export function drawSegments(tiles, at, segments, cls) {
  const group = /** @type {SVGGElement} */ (svg("g", {class: cls}));
  for (const s of segments) {
    const found = locate(tiles, at, s);
    if (!found) continue;
    const o = tileOrigin(s[0], s[1]), r = found.placed.rotation;
    group.append(svg("g", {class: "carc-seg", "data-seg": segmentKey(s),
      transform: `translate(${o.x},${o.y})${r ? ` rotate(${r} ${SIZE / 2} ${SIZE / 2})` : ""}`},
    [shape(found.type, found.index)]));
  }
  return group;
}

/**
 * Where a segment's follower stands, on the board; null when not on it.
 * @param {Record<string, TileType>} tiles @param {Map<string, Placed>} at @param {SegmentRef} s
 * @returns {Point | null}
 */
export function segmentPoint(tiles, at, s) {
  const found = locate(tiles, at, s);
  if (!found) return null;
  const p = turn(segmentAnchor(found.type, found.index), found.placed.rotation);
  const o = tileOrigin(s[0], s[1]);
  return {x: o.x + p.x, y: o.y + p.y};
}

/**
 * The middle of a feature (the mean of its segments' follower points),
 * where its points rise.
 * @param {Record<string, TileType>} tiles @param {Map<string, Placed>} at @param {SegmentRef[]} segments
 * @returns {Point}
 */
export function segmentsMiddle(tiles, at, segments) {
  let x = 0, y = 0, n = 0;
  for (const s of segments) {
    const p = segmentPoint(tiles, at, s);
    if (p) x += p.x, y += p.y, n++;
  }
  if (!n) return {x: CENTRE.x, y: CENTRE.y};
  return {x: x / n, y: y / n};
}
