// followers.mjs -- followers on the board, and the follower spots a seat may
// choose.
//
// A follower of the view ({player, x, y, kind, segment}) stands at the spot
// of its piece (segments.mjs), in its seat's colour; a farmer lies down, as
// on the real board.  Spots are made from legal action texts only:
// `follower <kind> [name]` on the tile just placed, `add x y <kind> <name>`
// and `remove x y <kind> <name>` of the crop circles anywhere.

import {svg, title} from "./svg.mjs";
import {SIZE, pieceSpot} from "./segments.mjs";
import {say, pieceFields, spotLabel} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./segments.mjs").Point} Point */
/** @typedef {{x: number, y: number, tile: string, rotation: number}} Placed */
/** @typedef {{player: number, x: number, y: number, kind: string, segment: string}} Follower */

const MEEPLE = "M0,-11C3,-11 4.2,-8.4 3.4,-6L9,-3.2C11.2,-2 10.4,1.4 8,1.2L4.2,0.4L7.4,9.4"
  + "H2L0,4.6L-2,9.4H-7.4L-4.2,0.4L-8,1.2C-10.4,1.4-11.2,-2-9,-3.2L-3.4,-6C-4.2,-8.4-3,-11 0,-11Z";

/**
 * A follower's figure centred on 0,0, about 22 units tall.
 * @param {string} colour @param {boolean} [lying] a farmer
 * @param {Record<string, string | number>} [extra] attributes of the path
 */
export function meeple(colour, lying = false, extra = {}) {
  return svg("path", {d: MEEPLE, fill: colour, stroke: "#1d1d1d", "stroke-width": 1.3,
    "stroke-linejoin": "round", transform: lying ? "rotate(-90)" : null, ...extra});
}

/**
 * Board coordinates (SVG units) of tile x, y: x grows east, y grows north
 * (rules/carcassonne.md "Positions and rotations"; `tafel play` draws y = 1
 * above y = 0), so the SVG row is -y.
 * @param {number} x @param {number} y
 * @returns {Point}
 */
export function tileOrigin(x, y) {
  return {x: x * SIZE, y: -y * SIZE};
}

/**
 * The board point where a follower on piece (kind, name) of a placed tile
 * stands, or null when the tile has no such piece.
 * @param {Record<string, TileType>} tiles @param {Placed} placed
 * @param {string} kind @param {string} [name]
 * @returns {Point | null}
 */
export function spotOnBoard(tiles, placed, kind, name) {
  const type = tiles[placed.tile];
  if (!type) return null;
  const p = pieceSpot(type, placed.rotation, kind, kind === "cloister" ? undefined : name);
  if (!p) return null;
  const o = tileOrigin(placed.x, placed.y);
  return {x: o.x + p.x, y: o.y + p.y};
}

/**
 * Which followers of the view a list of recent ones names: the follower of
 * that seat on that tile and kind of feature (one a seat and tile: a
 * follower is put only on the tile just laid, or beside one's own).
 * @param {Follower[]} followers @param {{seat: number, x: number, y: number, kind: string}[]} recent
 * @returns {Set<number>} indices into followers
 */
export function matchFollowers(followers, recent) {
  const found = new Set();
  for (const r of recent) {
    for (let i = followers.length - 1; i >= 0; i--) {
      const f = followers[i];
      if (found.has(i) || f.player !== r.seat || f.x !== r.x || f.y !== r.y || f.kind !== r.kind)
        continue;
      found.add(i);
      break;
    }
  }
  return found;
}

/**
 * Draws the view's followers into layer, each in its seat's colour; two on
 * one piece (a crop circle's "add") stand side by side.  The others' recent
 * followers get a ring; those arriving now drop in.
 * @param {SVGGElement} layer
 * @param {Record<string, TileType>} tiles
 * @param {Map<string, Placed>} board by "x,y"
 * @param {Follower[]} followers
 * @param {(seat: number) => string} colour
 * @param {{recent: Set<number>, arriving: Set<number>}} marks indices of followers
 * @param {(f: Follower, on: boolean) => void} point a follower pointed at, or left (its feature is lit)
 */
export function drawFollowers(layer, tiles, board, followers, colour, marks, point) {
  layer.replaceChildren();
  /** @type {Map<string, number>} */
  const seen = new Map();
  followers.forEach((f, i) => {
    const placed = board.get(`${f.x},${f.y}`);
    if (!placed) return;
    const p = spotOnBoard(tiles, placed, f.kind, f.segment);
    if (!p) return;
    const key = `${f.x},${f.y},${f.kind},${f.segment}`, n = seen.get(key) || 0;
    seen.set(key, n + 1);
    const g = svg("g", {class: "carc-follower" + (marks.recent.has(i) ? " carc-recent" : ""),
      transform: `translate(${p.x + 9 * n},${p.y - 5 * n})`}, [
      title(say("board.follower", {...pieceFields(f.kind, f.segment), seat: f.player, x: f.x, y: f.y})),
      svg("g", {class: marks.arriving.has(i) ? "carc-arrive" : null}, [
        marks.recent.has(i) ? svg("circle", {r: 15, class: "carc-fresh", stroke: colour(f.player)}) : null,
        meeple(colour(f.player), f.kind === "field"),
      ]),
    ]);
    g.addEventListener("pointerenter", () => point(f, true));
    g.addEventListener("pointerleave", () => point(f, false));
    layer.append(g);
  });
}

/**
 * @typedef {{text: string, verb: "follower" | "add" | "remove", x: number, y: number,
 *   kind: string, name?: string, at: Point}} Spot
 */

/**
 * The spots of the legal follower, add and remove actions, each at its
 * piece on the board; a text whose piece cannot be found is left to the
 * buttons (so that it still can be played).
 * @param {string[]} legal
 * @param {Record<string, TileType>} tiles
 * @param {Map<string, Placed>} board
 * @param {Placed | undefined} newest the tile just placed
 * @param {Follower[]} followers those on the board: an `add` spot stands
 *   beside them, where the added follower will be drawn
 * @returns {{spots: Spot[], rest: string[]}}
 */
export function followerSpots(legal, tiles, board, newest, followers) {
  /** @type {Spot[]} */
  const spots = [];
  const rest = [];
  for (const text of legal) {
    const w = text.split(" ");
    /** @type {Placed | undefined} */
    let placed;
    /** @type {string | undefined} */
    let verb;
    /** @type {string | undefined} */
    let kind;
    /** @type {string | undefined} */
    let name;
    /** @type {number | undefined} */
    let x;
    /** @type {number | undefined} */
    let y;
    if (w[0] === "follower" && newest) {
      verb = "follower", placed = newest, kind = w[1], name = w[2], x = newest.x, y = newest.y;
    } else if ((w[0] === "add" || w[0] === "remove") && w.length >= 4) {
      verb = w[0], x = Number(w[1]), y = Number(w[2]), kind = w[3], name = w[4];
      placed = board.get(`${x},${y}`);
    }
    let at = placed && kind ? spotOnBoard(tiles, placed, kind, name) : null;
    if (at && verb === "add") {
      const n = followers.filter((f) => f.x === x && f.y === y && f.kind === kind
        && f.segment === name).length;
      at = {x: at.x + 9 * n, y: at.y - 5 * n};
    }
    if (at && verb && x !== undefined && y !== undefined && kind)
      spots.push({text, verb: /** @type {Spot["verb"]} */ (verb), x, y, kind, name, at});
    else rest.push(text);
  }
  return {spots, rest};
}

/**
 * Draws follower spots into layer: a ghost follower of the seat's colour
 * for follower/add, a ring round the follower for remove; `cursor` is
 * the index of the keyboard's choice, or -1.  A spot keeps its size on the
 * screen whatever the zoom (carcassonne.css, --carc-k): a finger's width
 * to touch, its ring inside.  Pointing at a spot, or focusing it, calls
 * point with it (its feature is lit); Enter or Space on it chooses it.
 * @param {SVGGElement} layer @param {Spot[]} spots @param {string} colour
 * @param {number} cursor @param {(spot: Spot) => void} choose
 * @param {(spot: Spot, on: boolean) => void} point
 */
export function drawFollowerSpots(layer, spots, colour, cursor, choose, point) {
  layer.replaceChildren();
  spots.forEach((spot, i) => {
    const label = spotLabel(spot);
    const g = svg("g", {class: "carc-spot carc-fspot" + (i === cursor ? " carc-cursor" : ""),
      transform: `translate(${spot.at.x},${spot.at.y})`, role: "button", tabindex: 0,
      "aria-label": label, "data-action": spot.text, "data-seg": spotKey(spot)}, [
      title(label),
      svg("g", {class: "carc-fixed"}, [
        svg("circle", {r: 22, class: "carc-spot-hit"}),
        svg("circle", {r: spot.verb === "remove" ? 17 : 15, class: "carc-spot-ring"}),
        spot.verb === "remove" ? svg("path", {d: "M-6,-6L6,6M6,-6L-6,6", class: "carc-remove-x"})
          : svg("g", {transform: "scale(0.9)", opacity: 0.85}, [meeple(colour, spot.kind === "field")]),
      ]),
    ]);
    g.addEventListener("click", (ev) => {
      ev.stopPropagation();
      choose(spot);
    });
    g.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      ev.stopPropagation();
      choose(spot);
    });
    for (const on of ["pointerenter", "focus"]) g.addEventListener(on, () => point(spot, true));
    for (const off of ["pointerleave", "blur"]) g.addEventListener(off, () => point(spot, false));
    layer.append(g);
  });
}

/**
 * The key of the segment a spot stands on ("x,y,city N", as the engine's
 * features name it; a cloister is "x,y,cloister").
 * @param {{x: number, y: number, kind: string, name?: string}} spot
 */
export function spotKey(spot) {
  return `${spot.x},${spot.y},${spot.kind === "cloister" ? "cloister" : `${spot.kind} ${spot.name}`}`;
}
