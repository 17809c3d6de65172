// board.mjs -- the placed tiles and each player's last tile.
//
// The view's `board` lists the placed tiles in the order they were placed
// ({x, y, tile, rotation}); each is drawn by tiles.mjs at its square
// (followers.mjs tileOrigin: x east, y north).  A player's last tile gets a
// frame in the player's colour, held brighter while it is new to this seat
// (recent.mjs); a tile another seat lays arrives with a short drop.

import {svg, title} from "./svg.mjs";
import {SIZE} from "./segments.mjs";
import {drawTile} from "./tiles.mjs";
import {tileOrigin} from "./followers.mjs";
import {say} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./followers.mjs").Placed} Placed */

/**
 * The board by position "x,y".
 * @param {Placed[]} list
 * @returns {Map<string, Placed>}
 */
export function indexBoard(list) {
  return new Map(list.map((t) => [`${t.x},${t.y}`, t]));
}

/**
 * Draws every placed tile into layer.  Tiles are redrawn only when the
 * board changed (a tile's picture never changes once placed), keyed by
 * position, type and rotation, so that an undo is drawn too.
 * @param {SVGGElement} layer @param {Record<string, TileType>} tiles @param {Placed[]} list
 * @param {Set<string>} arriving "x,y" of tiles to draw arriving
 */
export function drawBoard(layer, tiles, list, arriving) {
  /** @type {Map<string, Element>} */
  const old = new Map();
  for (const child of Array.from(layer.children))
    old.set(child.getAttribute("data-key") || "", child);
  const keep = new Set();
  for (const t of list) {
    const key = `${t.x},${t.y},${t.tile},${t.rotation}`;
    keep.add(key);
    if (old.has(key)) continue;
    const type = tiles[t.tile];
    if (!type) continue;
    const o = tileOrigin(t.x, t.y);
    const g = svg("g", {transform: `translate(${o.x},${o.y})`, "data-key": key}, [
      svg("g", {class: arriving.has(`${t.x},${t.y}`) ? "carc-arrive" : null},
        [drawTile(t.tile, type, t.rotation, t.x, t.y)])]);
    layer.append(g);
  }
  for (const [key, child] of old) if (!keep.has(key)) child.remove();
}

/**
 * Frames each player's last tile in the player's colour; one the seat has
 * not seen yet (recent: "x,y" -> who laid it since its own last move) gets
 * a bright frame.
 * @param {SVGGElement} layer
 * @param {{seat: number, x: number, y: number, latest: boolean}[]} marks
 * @param {(seat: number) => string} colour @param {Map<string, number>} recent
 */
export function drawLastMoves(layer, marks, colour, recent) {
  layer.replaceChildren();
  for (const m of marks) {
    const o = tileOrigin(m.x, m.y), fresh = recent.get(`${m.x},${m.y}`) === m.seat;
    layer.append(svg("g", {class: "carc-last" + (m.latest ? " carc-latest" : "")
      + (fresh ? " carc-recent" : ""), transform: `translate(${o.x},${o.y})`}, [
      title(say(fresh ? "board.new_tile" : "board.last_tile", {seat: m.seat, x: m.x, y: m.y})),
      fresh ? svg("rect", {x: -3, y: -3, width: SIZE + 6, height: SIZE + 6, rx: 6,
        class: "carc-recent-glow"}) : null,
      svg("rect", {x: 2.5, y: 2.5, width: SIZE - 5, height: SIZE - 5, rx: 3, fill: "none",
        stroke: colour(m.seat), "stroke-width": 5}),
      svg("circle", {cx: SIZE - 9, cy: 9, r: 6, fill: colour(m.seat), stroke: "#fff",
        "stroke-width": 1.5}),
    ]));
  }
}

/**
 * The bounding box, in SVG units, of the tiles at the given positions.
 * @param {{x: number, y: number}[]} cells
 * @returns {{x0: number, y0: number, x1: number, y1: number}}
 */
export function bounds(cells) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const c of cells) {
    const o = tileOrigin(c.x, c.y);
    x0 = Math.min(x0, o.x), y0 = Math.min(y0, o.y);
    x1 = Math.max(x1, o.x + SIZE), y1 = Math.max(y1, o.y + SIZE);
  }
  if (x0 === Infinity) return {x0: 0, y0: 0, x1: SIZE, y1: SIZE};
  return {x0, y0, x1, y1};
}

/**
 * Who placed which tile last, as the view lets us know it: `remembered`
 * (seat -> "x,y", from the place actions of state.last as they arrived)
 * where the board still holds that tile, else the engine's turn order,
 * which places board[i] (i >= 1) by seat (first + i - 1) mod players, a
 * removed tile being redrawn by the same seat (rules §A turn; the engine's
 * view.c tile_placer).  The turn order is only the fallback of a page that
 * joined mid-game: the view does not say who placed what.
 * @param {Placed[]} list @param {number} players @param {number} first
 * @param {Map<number, string>} remembered
 * @returns {{seat: number, x: number, y: number, latest: boolean}[]}
 */
export function lastTiles(list, players, first, remembered) {
  const at = indexBoard(list);
  /** @type {{seat: number, x: number, y: number, latest: boolean}[]} */
  const marks = [];
  for (let seat = 0; seat < players; seat++) {
    let pos = remembered.get(seat);
    let tile = pos ? at.get(pos) : undefined;
    if (!tile)
      for (let i = list.length - 1; i >= 1; i--)
        if ((first + i - 1) % players === seat) {
          tile = list[i];
          break;
        }
    if (tile) marks.push({seat, x: tile.x, y: tile.y, latest: tile === list[list.length - 1]});
  }
  return marks;
}
