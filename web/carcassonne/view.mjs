// view.mjs -- the Carcassonne game view: createView(root, ctx) (web/README.md).
//
// The board (tiles.mjs, board.mjs) in one SVG whose world group pans and
// zooms (panzoom.mjs); the followers in their seats' colours
// (followers.mjs); beside it the tile in hand, the choices, the players and
// the pile (pile.mjs).  Every control is made from `state.legal`:
//
//   place X Y R         spots on the board; a chosen spot shows the tile,
//                       turned only through the rotations legal there
//                       (placement.mjs); confirm plays that exact text
//   follower/add/remove spots on the pieces they name (followers.mjs)
//   anything else       a button labelled from its text (pass, crop add,
//                       crop remove, and any action this view does not know)
//
// Coordinates: x grows east and y grows north (rules/carcassonne.md
// "Positions and rotations", and `tafel play carcassonne --seed 5` draws
// row y = 1 above y = 0), so a tile's SVG row is -y; rotations are
// clockwise, as SVG's rotate() on a y-down screen.
//
// Keys (when the focus is not in a text field): arrows move among the
// spots (or pan when there are none), Enter chooses or confirms, R rotates
// (Shift+R back), Escape steps back, P passes, + - zoom, 0 fits the board.

import {svg, html} from "./svg.mjs";
import {SIZE} from "./segments.mjs";
import {tileIcon} from "./tiles.mjs";
import {indexBoard, drawBoard, drawLastMoves, bounds, lastTiles} from "./board.mjs";
import {drawFollowers, followerSpots, drawFollowerSpots, meeple} from "./followers.mjs";
import {placesFrom, drawPlaces, drawPreview, stepCursor} from "./placement.mjs";
import {drawPile} from "./pile.mjs";
import {createPanZoom} from "./panzoom.mjs";

/** @typedef {import("../types.js").GameContext} GameContext */
/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").GameView} GameView */
/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./followers.mjs").Placed} Placed */
/** @typedef {import("./followers.mjs").Follower} Follower */
/** @typedef {import("./followers.mjs").Spot} Spot */
/** @typedef {import("./placement.mjs").Place} Place */

/**
 * The engine's view of a Carcassonne position (tafel_state_view_json).
 * @typedef {{game: string, seat: number, players: number, next: number | string,
 *   phase: "draw" | "place" | "follower" | "crop_choice" | "crop_act" | "over",
 *   active: number, tile: string | null, board: Placed[], followers: Follower[],
 *   supply: number[], scores: number[], projected: number[], pile: Record<string, number>,
 *   pile_size: number, removed: string[],
 *   crop: null | {kind: string, mode: null | "add" | "remove", acting: number},
 *   final_scoring?: FinalItem[]}} CarcView
 */

/**
 * What the end scoring paid for one feature (the engine's view at the end).
 * @typedef {{kind: "road" | "city" | "cloister" | "farm", x: number, y: number,
 *   segment: string, points: number, tiles?: number, pennants?: number,
 *   complete?: boolean, supplies?: "city" | "field", seats: number[]}} FinalItem
 */

const FALLBACK_COLOURS = ["#d33b2f", "#2f62c4", "#e0b400", "#2f9a45", "#222"];
const PLURAL = /** @type {Record<string, string>} */ (
  {knight: "knights", robber: "robbers", farmer: "farmers", monk: "monks"});

/**
 * @param {HTMLElement} root
 * @param {GameContext} ctx
 * @returns {GameView}
 */
export function createView(root, ctx) {
  /** @type {Record<string, TileType>} */
  const tiles = (ctx.pieces && ctx.pieces.tiles) || {};
  const colour = (/** @type {number} */ s) => ctx.colours[s] || FALLBACK_COLOURS[s % 5];
  const name = (/** @type {number} */ s) => ctx.names[s] || `Seat ${s}`;

  // ---- the elements ----
  const layers = {
    tiles: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-tiles"})),
    marks: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-marks"})),
    places: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-places"})),
    preview: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-preview"})),
    followers: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-followers"})),
    spots: /** @type {SVGGElement} */ (svg("g", {class: "carc-l-spots"})),
  };
  const world = /** @type {SVGGElement} */ (svg("g", {}, [layers.tiles, layers.marks,
    layers.places, layers.preview, layers.followers, layers.spots]));
  const board = /** @type {SVGSVGElement} */ (svg("svg", {class: "carc-board", role: "application",
    "aria-label": "Carcassonne board: drag to pan, wheel or pinch to zoom"}, [world]));
  const zoomIn = html("button", {type: "button", title: "zoom in (+)", "aria-label": "zoom in"}, ["+"]);
  const zoomOut = html("button", {type: "button", title: "zoom out (-)", "aria-label": "zoom out"}, ["−"]);
  const zoomFit = html("button", {type: "button", title: "fit the board (0)", "aria-label": "fit the board"}, ["⤢"]);
  const prompt = html("p", {class: "carc-prompt", "aria-live": "polite"});
  const hand = html("div", {class: "carc-hand"});
  const choices = html("div", {class: "carc-choices"});
  const players = html("ul", {class: "carc-players"});
  const pile = html("section", {class: "carc-pile"});
  const final = html("section", {class: "carc-final"});
  const style = html("link", {rel: "stylesheet", href: new URL("./carcassonne.css", import.meta.url).href});
  const top = html("div", {class: "carc"}, [
    html("div", {class: "carc-boardbox"}, [board, html("div", {class: "carc-zoom"}, [zoomIn, zoomOut, zoomFit])]),
    html("div", {class: "carc-side"}, [prompt, hand, choices, final, players, pile]),
  ]);
  root.replaceChildren(style, top);
  const pz = createPanZoom(board, world);
  zoomIn.addEventListener("click", () => pz.zoom(1.25));
  zoomOut.addEventListener("click", () => pz.zoom(0.8));
  zoomFit.addEventListener("click", () => pz.fit(boardBox(), true));

  // ---- what the view knows ----
  /** @type {StateMessage | null} */
  let state = null;
  /** @type {CarcView | null} */
  let view = null;
  /** @type {Follower[] | null} */
  let prevFollowers = null;
  /** @type {Map<string, Placed>} */
  let at = new Map();
  /** @type {Place[]} */
  let places = [];
  /** @type {Spot[]} */
  let spots = [];
  /** @type {string[]} */
  let rest = [];
  let legalKey = "";
  /** the chosen spot of placement, its rotation index, the keyboard's follower spot */
  let sel = /** @type {Place | null} */ (null), rot = 0, cursor = -1;
  /** a move was sent: wait for the next state */
  let pending = false;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pendingTimer;
  /** seat -> "x,y" of its latest `place`, from state.last as it arrived */
  const remembered = new Map();

  /** @param {string} text */
  function play(text) {
    if (pending || !state || !(state.legal || []).includes(text)) return;
    pending = true;
    ctx.play(text);
    render();
    // a refused move brings no new state: offer the controls again
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      pending = false;
      render();
    }, 5000);
  }

  function boardBox() {
    const cells = [...(view ? view.board : []), ...places];
    return bounds(cells);
  }

  /** @param {Place} p @param {number} [index] */
  function select(p, index = 0) {
    sel = p, rot = index;
    render();
    const o = {x: p.x * SIZE, y: -p.y * SIZE};
    pz.reveal({x0: o.x - 10, y0: o.y - 10, x1: o.x + SIZE + 10, y1: o.y + SIZE + 34});
  }

  /** @param {number} [by] */
  function rotate(by = 1) {
    if (!sel || sel.rotations.length < 2) return;
    rot = (rot + by + sel.rotations.length) % sel.rotations.length;
    render();
  }

  function confirm() {
    if (sel) play(sel.texts[rot]);
  }

  function back() {
    sel = null, cursor = -1;
    render();
  }

  // ---- drawing ----
  function render() {
    if (!state || !view) return;
    const v = view, me = state.seat;
    drawBoard(layers.tiles, tiles, v.board);
    const first = Number((/first=(\d+)/.exec(v.game || "") || [])[1] || 0);
    drawLastMoves(layers.marks, lastTiles(v.board, v.players, first, remembered), colour, name);
    drawFollowers(layers.followers, tiles, at, v.followers, colour, name, freshFollowers());
    const mine = me === null ? "#888" : colour(me);
    if (sel && v.tile && tiles[v.tile]) {
      drawPreview(layers.preview, v.tile, tiles[v.tile], sel, rot, () => rotate(), confirm);
    } else {
      layers.preview.replaceChildren();
    }
    drawPlaces(layers.places, places, sel ? sel.key : null, select);
    drawFollowerSpots(layers.spots, spots, mine, cursor, (s) => play(s.text));
    top.classList.toggle("carc-pending", pending);
    top.classList.toggle("carc-my-turn", (state.legal || []).length > 0);
    renderPrompt(v);
    renderHand(v);
    renderChoices(v);
    renderPlayers(v);
    renderFinal(v);
    drawPile(pile, tiles, v);
  }

  /** The followers that are new since the previous view. */
  function freshFollowers() {
    const fresh = new Set();
    if (!view || !prevFollowers) return fresh;
    const count = new Map();
    const key = (/** @type {Follower} */ f) => `${f.player} ${f.x} ${f.y} ${f.kind} ${f.segment}`;
    for (const f of prevFollowers) count.set(key(f), (count.get(key(f)) || 0) + 1);
    view.followers.forEach((f, i) => {
      const n = count.get(key(f)) || 0;
      if (n > 0) count.set(key(f), n - 1); else fresh.add(i);
    });
    return fresh;
  }

  /** @param {CarcView} v */
  function renderPrompt(v) {
    const over = state && state.status === "over";
    const mineToAct = (state && state.legal || []).length > 0;
    const who = typeof v.next === "number" ? name(v.next) : "";
    let text = "";
    if (over) text = "The game is over.";
    else if (v.phase === "place")
      text = mineToAct
        ? (sel ? (sel.rotations.length > 1
          ? `Tile ${v.tile} at ${sel.x} ${sel.y}: turn it (R, ⟳ or a click on it), then place it (✓ or Enter).`
          : `Tile ${v.tile} at ${sel.x} ${sel.y}: place it (✓ or Enter).`)
          : `Your tile: ${v.tile}. Choose one of the ${places.length} highlighted places (click, or arrows and Enter).`)
        : `${who} is placing tile ${v.tile}.`;
    else if (v.phase === "follower")
      text = mineToAct ? "Put a follower on the tile you placed (a spot on it), or pass."
        : `${who} may put a follower on the new tile.`;
    else if (v.crop) {
      const kinds = PLURAL[v.crop.kind] || v.crop.kind;
      if (v.crop.mode === null)
        text = mineToAct ? `Crop circle (${kinds}): choose A, add, or B, remove.`
          : `Crop circle (${kinds}): ${who} chooses A, add, or B, remove.`;
      else if (v.crop.mode === "add")
        text = mineToAct ? `Crop circle A: you may add a ${v.crop.kind} where you have one (a spot), or pass.`
          : `Crop circle A: each player may add a ${v.crop.kind}; now ${who}.`;
      else
        text = mineToAct ? `Crop circle B: take back one of your ${kinds} (a marked follower).`
          : `Crop circle B: each player takes back a ${v.crop.kind}; now ${who}.`;
    } else text = who ? `${who} to play.` : "";
    if (cursor >= 0 && spots[cursor]) text += ` Enter: ${spots[cursor].text}.`;
    if (pending) text = "Sent…";
    prompt.textContent = text;
  }

  /** @param {CarcView} v */
  function renderHand(v) {
    const id = v.tile;
    if (!id || !tiles[id] || state?.status === "over") {
      hand.replaceChildren();
      return;
    }
    const tile = tiles[id], r = sel ? sel.rotations[rot] : 0;
    const icon = tileIcon(id, tile, r, 84);
    const children = [
      html("div", {class: "carc-hand-tile"}, [icon]),
      html("div", {class: "carc-hand-text"}, [
        html("strong", {}, [`Tile ${id}`]),
        html("span", {}, [tile.crop ? ` crop circle: ${PLURAL[tile.crop]}` : ""]),
        html("br"),
        html("span", {}, [sel ? `at ${sel.x} ${sel.y}, turned ${r}°` : `${v.pile_size} left after it`]),
      ]),
    ];
    hand.replaceChildren(...children);
    if (sel && sel.rotations.length > 1) {
      icon.classList.add("carc-clickable");
      icon.addEventListener("click", () => rotate());
    }
  }

  /** A label for a legal text the board does not show. @param {string} text @param {CarcView} v */
  function label(text, v) {
    const kind = v.crop ? v.crop.kind : "follower";
    if (text === "pass") return v.phase === "follower" ? "Pass: no follower (P)"
      : v.crop && v.crop.mode === "add" ? `Pass: add no ${kind} (P)` : "Pass (P)";
    if (text === "crop add") return `A: add — each player may add a ${kind}`;
    if (text === "crop remove") return `B: remove — each player takes back a ${kind}`;
    return text;
  }

  /** @param {CarcView} v */
  function renderChoices(v) {
    const buttons = [];
    if (sel) {
      if (sel.rotations.length > 1)
        buttons.push(button(`⟳ Rotate (R) ${rot + 1}/${sel.rotations.length}`, () => rotate(), "carc-b-rotate"));
      buttons.push(button(`✓ Place ${sel.texts[rot].slice(6)} (Enter)`, confirm, "carc-b-confirm"));
      buttons.push(button("✕ Back (Esc)", back, "carc-b-back"));
    }
    for (const text of rest) buttons.push(button(label(text, v), () => play(text), "carc-b-action", text));
    choices.replaceChildren(...buttons);
  }

  /**
   * @param {string} text @param {() => void} act @param {string} cls @param {string} [action]
   */
  function button(text, act, cls, action) {
    const b = html("button", {type: "button", class: cls, "data-action": action, disabled: pending}, [text]);
    b.addEventListener("click", act);
    return b;
  }

  /** @param {CarcView} v */
  function renderPlayers(v) {
    const items = [];
    for (let s = 0; s < v.players; s++) {
      const icon = svg("svg", {viewBox: "-12 -12 24 24", width: 22, height: 22, "aria-hidden": "true"},
        [meeple(colour(s))]);
      const active = state?.status !== "over" && v.next === s;
      const proj = v.projected[s] !== v.scores[s] && state?.status !== "over"
        ? ` · ${v.projected[s]} if it ended now` : "";
      items.push(html("li", {class: "carc-player" + (active ? " carc-active" : "")}, [
        icon,
        html("span", {class: "carc-pname"}, [name(s) + (s === state?.seat ? " (you)" : "")]),
        html("span", {class: "carc-pscore"}, [`${v.scores[s]}`]),
        html("span", {class: "carc-psupply"},
          [`${v.supply[s]} follower${v.supply[s] === 1 ? "" : "s"} left${proj}`]),
      ]));
    }
    players.replaceChildren(...items);
  }

  /** @param {CarcView} v */
  function renderFinal(v) {
    if (!state || state.status !== "over") {
      final.replaceChildren();
      return;
    }
    const winners = new Set(state.winners || []), scores = state.scores;
    const order = Array.from({length: v.players}, (_, s) => s)
      .sort((a, b) => scores[b] - scores[a]);
    final.replaceChildren(
      html("h3", {}, ["Final scores"]),
      html("ol", {}, order.map((s) => html("li", {}, [
        svg("svg", {viewBox: "-12 -12 24 24", width: 18, height: 18, "aria-hidden": "true"}, [meeple(colour(s))]),
        ` ${name(s)}: ${scores[s]}${winners.has(s) ? " — wins" : ""}`,
      ]))),
      html("p", {class: "carc-note"}, ["Includes the end scoring: incomplete roads, cities and cloisters, then farmers."]),
      ...finalItems(v.final_scoring ?? []),
    );
  }

  /**
   * The end scoring feature by feature, as the engine reports it.
   * @param {FinalItem[]} items
   */
  function finalItems(items) {
    if (!items.length) return [];
    return [
      html("h3", {}, ["End scoring, feature by feature"]),
      html("ul", {class: "carc-final-items"}, items.map((it) => html("li", {}, [
        `${describe(it)} at ${it.x} ${it.y}: ${it.points} to `,
        it.seats.map((s) => name(s)).join(" and "),
      ]))),
    ];
  }

  /** @param {FinalItem} it */
  function describe(it) {
    if (it.kind === "farm")
      return it.supplies === "city" ? "Farmers supplying the completed city" : "Farmers of the field";
    if (it.kind === "cloister") return "Cloister";
    const size = `${it.tiles} tile${it.tiles === 1 ? "" : "s"}`;
    const pennants = it.pennants ? `, ${it.pennants} pennant${it.pennants === 1 ? "" : "s"}` : "";
    return `${it.kind === "road" ? "Road" : "City"} of ${size}${pennants}${it.complete ? "" : " (incomplete)"}`;
  }

  // ---- keys ----
  /** @param {KeyboardEvent} ev */
  function key(ev) {
    if (!root.isConnected || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t instanceof HTMLElement) {
      if (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)) return;
      if (/^(BUTTON|A|SUMMARY)$/.test(t.tagName) && (ev.key === "Enter" || ev.key === " ")) return;
    }
    const dirs = /** @type {Record<string, [number, number]>} */ (
      {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]});
    const dir = dirs[ev.key];
    let done = true;
    if (dir && places.length && !pending) {
      const pts = places.map((p) => ({x: p.x, y: -p.y}));
      const i = sel ? places.indexOf(sel) : -1;
      select(places[i < 0 ? nearestToView(pts) : stepCursor(pts, i, dir[0], dir[1])]);
    } else if (dir && spots.length && !pending) {
      const pts = spots.map((s) => s.at);
      cursor = cursor < 0 ? 0 : stepCursor(pts, cursor, dir[0], dir[1]);
      render();
      const p = spots[cursor].at;
      pz.reveal({x0: p.x - 20, y0: p.y - 20, x1: p.x + 20, y1: p.y + 20});
    } else if (dir) pz.panBy(-dir[0] * 60, -dir[1] * 60);
    else if (ev.key === "Enter" || ev.key === " ") {
      if (sel) confirm();
      else if (places.length) select(places[0]);
      else if (cursor >= 0 && spots[cursor]) play(spots[cursor].text);
      else done = false;
    } else if (ev.key === "r" || ev.key === "R") rotate(ev.shiftKey ? -1 : 1);
    else if (ev.key === "Escape") back();
    else if (ev.key === "p" || ev.key === "P") {
      if (rest.includes("pass")) play("pass"); else done = false;
    } else if (ev.key === "+" || ev.key === "=") pz.zoom(1.25);
    else if (ev.key === "-" || ev.key === "_") pz.zoom(0.8);
    else if (ev.key === "0") pz.fit(boardBox(), true);
    else done = false;
    if (done) ev.preventDefault();
  }

  /** The index of the point nearest to the start tile. @param {{x: number, y: number}[]} pts */
  function nearestToView(pts) {
    let best = 0;
    pts.forEach((p, i) => {
      if (Math.hypot(p.x, p.y) < Math.hypot(pts[best].x, pts[best].y)) best = i;
    });
    return best;
  }

  document.addEventListener("keydown", key);
  // refit when the board's box changes size (the style sheet arriving, a
  // turned phone, the page's layout), unless the user moved the view
  const resize = new ResizeObserver(() => pz.fit(boardBox()));
  resize.observe(board);

  return {
    update(next) {
      prevFollowers = view && next.actions > (state ? state.actions : 0) ? view.followers : null;
      state = next;
      view = /** @type {CarcView} */ (next.view);
      pending = false;
      clearTimeout(pendingTimer);
      for (const a of next.last || []) {
        const m = /^place (-?\d+) (-?\d+) \d+$/.exec(a.text);
        if (m && typeof a.seat === "number") remembered.set(a.seat, `${m[1]},${m[2]}`);
      }
      at = indexBoard(view.board);
      const legal = next.legal || [];
      const fresh = legal.join("\n") !== legalKey;
      if (fresh) {
        legalKey = legal.join("\n");
        sel = null, rot = 0, cursor = -1;
      }
      places = placesFrom(legal);
      const others = legal.filter((t) => !t.startsWith("place "));
      ({spots, rest} = followerSpots(others, tiles, at, view.board[view.board.length - 1],
        view.followers));
      if (sel) sel = places.find((p) => p.key === sel?.key) || null;
      render();
      pz.fit(boardBox());
      if (fresh && spots.length && spots.every((s) => s.verb === "follower")) { // small on a large board
        const b = bounds(spots.map((s) => ({x: s.x, y: s.y})));
        pz.focus({x0: b.x0 - 10, y0: b.y0 - 10, x1: b.x1 + 10, y1: b.y1 + 10}, 1.4);
      }
    },
    destroy() {
      document.removeEventListener("keydown", key);
      resize.disconnect();
      clearTimeout(pendingTimer);
      pz.destroy();
      root.replaceChildren();
    },
  };
}
