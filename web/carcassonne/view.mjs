// view.mjs -- the Carcassonne game view: createView(root, ctx) (web/README.md).
//
// The board (tiles.mjs, board.mjs) in one SVG whose world group pans and
// zooms (panzoom.mjs); the followers in their seats' colours
// (followers.mjs); a bar with the prompt, the tile in hand and the choices
// (over the board on a phone, beside it on a wide screen); then the end
// (final.mjs), the players and the pile (pile.mjs).  Every word is the
// catalog's (words.mjs).  The accounts of each state (state.events) light
// what scored (scoring.mjs) and mark the others' moves until this seat's
// next one (recent.mjs); the engine's features light the whole feature of
// a follower spot, a follower or an end scoring line pointed at
// (highlight.mjs), and so does light(events) for a log line pointed at
// (with the tile it laid outlined); hint(action) draws a hinted action
// (hint.mjs).  Every
// control is made from `state.legal`:
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
import {drawFollowers, followerSpots, drawFollowerSpots, meeple, matchFollowers, spotKey,
  tileOrigin} from "./followers.mjs";
import {placesFrom, drawPlaces, drawPreview, stepCursor} from "./placement.mjs";
import {drawPile} from "./pile.mjs";
import {createPanZoom} from "./panzoom.mjs";
import {drawSegments} from "./highlight.mjs";
import {createScoring} from "./scoring.mjs";
import {createRecent} from "./recent.mjs";
import {drawHint} from "./hint.mjs";
import {drawFinal} from "./final.mjs";
import {say, tileName, tileText, seatName, spotLabel} from "./words.mjs";
import {t} from "../words/catalog.mjs";
import {actionWords} from "./action-words.mjs";

/** @typedef {import("../types.js").GameContext} GameContext */
/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").GameView} GameView */
/** @typedef {import("../types.js").ActionEvent} ActionEvent */
/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./followers.mjs").Placed} Placed */
/** @typedef {import("./followers.mjs").Follower} Follower */
/** @typedef {import("./followers.mjs").Spot} Spot */
/** @typedef {import("./placement.mjs").Place} Place */
/** @typedef {import("./highlight.mjs").SegmentRef} SegmentRef */

/**
 * The engine's view of a Carcassonne position (tafel_state_view_json;
 * docs/events-carcassonne.md for features and final_events).
 * @typedef {{game: string, seat: number, players: number, next: number | string,
 *   phase: "draw" | "place" | "follower" | "crop_choice" | "crop_act" | "over",
 *   active: number, tile: string | null, board: Placed[], followers: Follower[],
 *   supply: number[], scores: number[], projected: number[], pile: Record<string, number>,
 *   pile_size: number, removed: string[],
 *   crop: null | {kind: string, mode: null | "add" | "remove", acting: number},
 *   features?: {kind: string, segments: SegmentRef[]}[],
 *   final_events?: ActionEvent[]}} CarcView
 */

const FALLBACK_COLOURS = ["#d33b2f", "#2f62c4", "#e0b400", "#2f9a45", "#222"];

/** A name as a heading: its first letter a capital. @param {string} text */
const capital = (text) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

/**
 * @param {HTMLElement} root
 * @param {GameContext} ctx
 * @returns {GameView}
 */
export function createView(root, ctx) {
  /** @type {Record<string, TileType>} */
  const tiles = (ctx.pieces && ctx.pieces.tiles) || {};
  const colour = (/** @type {number} */ s) => ctx.colours[s] || FALLBACK_COLOURS[s % 5];

  // ---- the elements ----
  const layer = (/** @type {string} */ cls) => /** @type {SVGGElement} */ (svg("g", {class: cls}));
  const layers = {
    tiles: layer("carc-l-tiles"),
    marks: layer("carc-l-marks"),
    hover: layer("carc-l-hover"),
    score: layer("carc-l-score"),
    places: layer("carc-l-places"),
    preview: layer("carc-l-preview"),
    hint: layer("carc-l-hint"),
    followers: layer("carc-l-followers"),
    spots: layer("carc-l-spots"),
  };
  const world = /** @type {SVGGElement} */ (svg("g", {}, Object.values(layers)));
  const board = /** @type {SVGSVGElement} */ (svg("svg", {class: "carc-board", role: "application",
    "aria-label": say("board")}, [world]));
  const zoomButton = (/** @type {string} */ key, /** @type {string} */ glyph) =>
    html("button", {type: "button", title: say(key), "aria-label": say(key)}, [glyph]);
  const zoomIn = zoomButton("zoom_in", "+"), zoomOut = zoomButton("zoom_out", "−");
  const zoomFit = zoomButton("zoom_fit", "⤢");
  const prompt = html("p", {class: "carc-prompt", "aria-live": "polite"});
  const keys = html("p", {class: "carc-keys"});
  const hand = html("div", {class: "carc-hand"});
  const choices = html("div", {class: "carc-choices"});
  const players = html("ul", {class: "carc-players"});
  const pile = html("section", {class: "carc-pile"});
  const final = html("section", {class: "carc-final"});
  const style = html("link", {rel: "stylesheet", href: new URL("./carcassonne.css", import.meta.url).href});
  const top = html("div", {class: "carc"}, [
    html("div", {class: "carc-bar"}, [prompt, html("div", {class: "carc-barrow"}, [hand, choices]), keys]),
    html("div", {class: "carc-boardbox"}, [board, html("div", {class: "carc-zoom"}, [zoomIn, zoomOut, zoomFit])]),
    html("div", {class: "carc-side"}, [final, players, pile]),
  ]);
  root.replaceChildren(style, top);
  const pz = createPanZoom(board, world);
  zoomIn.addEventListener("click", () => pz.zoom(1.25));
  zoomOut.addEventListener("click", () => pz.zoom(0.8));
  zoomFit.addEventListener("click", () => pz.fit(boardBox(), true));
  const scoring = createScoring(layers.score, tiles, colour);
  const recent = createRecent();

  // ---- what the view knows ----
  /** @type {StateMessage | null} */
  let state = null;
  /** @type {CarcView | null} */
  let view = null;
  /** @type {Map<string, Placed>} */
  let at = new Map();
  /** segment "x,y,city N" -> every segment of its feature (the engine's features) */
  /** @type {Map<string, SegmentRef[]>} */
  let featureOf = new Map();
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
  /** followers that arrived with the latest state, drawn arriving once */
  let arrivingFollowers = /** @type {{seat: number, x: number, y: number, kind: string}[]} */ ([]);
  let arrivingTiles = new Set();
  /** the segments lit because something is pointed at (a spot, a follower, a line) */
  let pointed = /** @type {SegmentRef[] | null} */ (null), pointedBy = /** @type {unknown} */ (null);
  /** what a log line pointed at lights (light(events)), or null
   * @type {{segments: SegmentRef[], tiles: {x: number, y: number}[]} | null} */
  let logged = null;
  /** the hinted action drawn on the board */
  let hinted = /** @type {string | null} */ (null);

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

  /** What a narrow screen centres when it cannot show the whole board. */
  function centreBox() {
    if (places.length) return bounds(places);
    const last = view && view.board[view.board.length - 1];
    return bounds(last ? [last] : []);
  }

  /** @param {Place} p @param {number} [index] */
  function select(p, index = 0) {
    sel = p, rot = index;
    render();
    const o = {x: p.x * SIZE, y: -p.y * SIZE}, below = 56 / pz.scale();
    pz.reveal({x0: o.x - 10, y0: o.y - 10, x1: o.x + SIZE + 10, y1: o.y + SIZE + below});
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

  // ---- pointing at a feature ----
  /** The feature of segment key "x,y,city N", as the engine's view lists it. @param {string} key */
  function feature(key) {
    return featureOf.get(key) || null;
  }

  /**
   * Lights the segments of what `by` points at (a spot, a follower, the end
   * scoring list); leaving it (on false) takes them away, unless something
   * else was pointed at meanwhile.
   * @param {unknown} by @param {boolean} on @param {SegmentRef[] | null} segments
   */
  function point(by, on, segments) {
    if (!on && pointedBy !== by) return;
    pointedBy = on ? by : null;
    pointed = on ? segments : null;
    drawPointed();
  }

  /**
   * Pans the board to show segments, and scrolls the page to the board
   * when it is out of sight (a phone's list of the end scoring is below it).
   * @param {SegmentRef[]} segments
   */
  function bringIntoSight(segments) {
    const b = bounds(segments.map((s) => ({x: s[0], y: s[1]})));
    pz.reveal(b);
    const r = board.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight) board.scrollIntoView({block: "nearest"});
  }

  function drawPointed() {
    const segs = pointed || (cursor >= 0 && spots[cursor] ? feature(spotKey(spots[cursor])) : null);
    layers.hover.replaceChildren();
    if (segs) layers.hover.append(drawSegments(tiles, at, segs, "carc-hl"));
    else if (logged) {
      // a log line pointed at: the features its events name, and the tiles it laid
      layers.hover.append(drawSegments(tiles, at, logged.segments, "carc-hl carc-hl-log"));
      for (const p of logged.tiles) {
        const o = tileOrigin(p.x, p.y);
        layers.hover.append(svg("rect", {x: o.x, y: o.y, width: SIZE, height: SIZE,
          class: "carc-log-tile"}));
      }
    }
  }

  /**
   * What a log line's events light: every segment they name, and the tile
   * of an event that names only a tile (x, y: the tile laid, the follower
   * placed, added or taken back).
   * @param {import("../types.js").ActionEvent[]} events
   */
  function loggedSpots(events) {
    /** @type {SegmentRef[]} */
    const segments = [];
    /** @type {{x: number, y: number}[]} */
    const laid = [];
    for (const e of events) {
      if (Array.isArray(e.segments)) segments.push(...e.segments);
      else if (typeof e.x === "number" && typeof e.y === "number") laid.push({x: e.x, y: e.y});
    }
    return {segments, tiles: laid};
  }

  // ---- drawing ----
  function render() {
    if (!state || !view) return;
    const v = view, me = state.seat;
    drawBoard(layers.tiles, tiles, v.board, arrivingTiles);
    const first = Number((/first=(\d+)/.exec(v.game || "") || [])[1] || 0);
    drawLastMoves(layers.marks, lastTiles(v.board, v.players, first, remembered), colour, recent.tiles);
    drawFollowers(layers.followers, tiles, at, v.followers, colour, {
      recent: matchFollowers(v.followers, recent.followers),
      arriving: matchFollowers(v.followers, arrivingFollowers),
    }, (f, on) => point(f, on, feature(spotKey({x: f.x, y: f.y, kind: f.kind, name: f.segment}))));
    const mine = me === null ? "#888" : colour(me);
    if (sel && v.tile && tiles[v.tile]) {
      drawPreview(layers.preview, v.tile, tiles[v.tile], sel, rot, () => rotate(), confirm);
    } else {
      layers.preview.replaceChildren();
    }
    drawPlaces(layers.places, places, sel ? sel.key : null, select);
    drawFollowerSpots(layers.spots, spots, mine, cursor, (s) => play(s.text),
      (s, on) => point(s, on, feature(spotKey(s))));
    drawPointed();
    top.classList.toggle("carc-pending", pending);
    top.classList.toggle("carc-my-turn", (state.legal || []).length > 0);
    top.classList.toggle("carc-placing", places.length > 0);
    renderPrompt(v);
    renderHand(v);
    renderChoices(v);
    renderPlayers(v);
    drawFinal(final, state, v, colour, (ev, tapped) => {
      point(final, !!ev, ev ? ev.segments : null);
      if (ev && tapped) bringIntoSight(ev.segments);
    });
    drawPile(pile, tiles, v);
  }

  /** @param {CarcView} v */
  function renderPrompt(v) {
    const over = state && state.status === "over";
    const mineToAct = (state && state.legal || []).length > 0;
    const seat = typeof v.next === "number" ? v.next : -1;
    const follower = v.crop ? v.crop.kind : "";
    let key = "", fields = /** @type {Record<string, any>} */ ({seat, tile: v.tile, follower});
    if (over) key = "prompt.over";
    else if (v.phase === "place") {
      if (!mineToAct) key = "prompt.placing";
      else if (!sel) key = "prompt.place", fields.places = places.length;
      else key = sel.rotations.length > 1 ? "prompt.turn" : "prompt.lay", fields.x = sel.x, fields.y = sel.y;
    } else if (v.phase === "follower") key = mineToAct ? "prompt.follower" : "prompt.follower_other";
    else if (v.crop) {
      const mode = v.crop.mode === null ? "crop_choose" : `crop_${v.crop.mode}`;
      key = `prompt.${mode}${mineToAct ? "" : "_other"}`;
    } else if (seat >= 0) key = "prompt.to_play";
    let text = key ? say(key, fields) : "";
    if (pending) text = say("prompt.sent");
    prompt.textContent = text;
    const cursorSpot = cursor >= 0 ? spots[cursor] : null;
    keys.textContent = cursorSpot ? say("prompt.cursor", {spot: spotLabel(cursorSpot)})
      : !mineToAct || pending ? "" : places.length ? say("keys.place")
      : spots.length || rest.includes("pass") ? say("keys.spots") : "";
  }

  /** @param {CarcView} v */
  function renderHand(v) {
    const id = v.tile;
    if (!id || !tiles[id] || state?.status === "over") {
      hand.replaceChildren();
      return;
    }
    const tile = tiles[id], r = sel ? sel.rotations[rot] : 0;
    const icon = tileIcon(id, tile, r, 56);
    hand.replaceChildren(
      html("div", {class: "carc-hand-tile"}, [icon]),
      html("div", {class: "carc-hand-text"}, [
        html("strong", {}, [capital(tileName(id))]),
        html("span", {class: "carc-tile-text"}, [tileText(id)]),
        html("span", {}, [sel ? say("hand.at", {x: sel.x, y: sel.y, turn: r})
          : say("hand.left", {pile: v.pile_size})]),
      ]),
    );
    if (sel && sel.rotations.length > 1) {
      icon.classList.add("carc-clickable");
      icon.addEventListener("click", () => rotate());
    }
  }

  /**
   * A legal text the board does not show, as a button's parts: its label
   * and its key (P for pass).
   * @param {string} text @param {CarcView} v
   * @returns {[string, string]}
   */
  function label(text, v) {
    const follower = v.crop ? v.crop.kind : "";
    if (text === "pass") return [v.phase === "follower" ? say("button.no_follower")
      : v.crop && v.crop.mode === "add" ? say("button.crop_pass", {follower}) : say("button.pass"),
    say("key.pass")];
    if (text === "crop add") return [say("button.crop_add", {follower}), ""];
    if (text === "crop remove") return [say("button.crop_remove", {follower}), ""];
    const verb = `carcassonne.action.${text.split(" ")[0]}`;
    return [t(verb) === verb ? text : t(verb), ""];
  }

  /** @param {CarcView} v */
  function renderChoices(v) {
    const buttons = [];
    if (sel) {
      const n = sel.rotations.length;
      if (n > 1)
        buttons.push(button(["⟳", say("button.turn"), `${rot + 1}/${n}`], say("key.turn"), () => rotate(),
          "carc-b-rotate"));
      buttons.push(button(["✓", say("button.lay")], say("key.lay"), confirm, "carc-b-confirm", sel.texts[rot]));
      buttons.push(button(["✕", say("button.back")], say("key.back"), back, "carc-b-back"));
    }
    for (const text of rest) {
      const [words, keycap] = label(text, v);
      buttons.push(button(["", words], keycap, () => play(text), "carc-b-action", text));
    }
    choices.replaceChildren(...buttons);
  }

  /**
   * A button of the bar: a glyph, its words (hidden on a phone where the
   * glyph says enough), a count, and the key that does the same.
   * @param {string[]} parts [glyph, words, count?] @param {string} keycap
   * @param {() => void} act @param {string} cls @param {string} [action]
   */
  function button(parts, keycap, act, cls, action) {
    const [glyph, words, count] = parts;
    const b = html("button", {type: "button", class: cls, "data-action": action, disabled: pending,
      "aria-label": count ? `${words} ${count}` : words}, [
      glyph ? html("span", {class: "carc-bglyph", "aria-hidden": "true"}, [glyph]) : null,
      html("span", {class: "carc-bwords"}, [words]),
      count ? html("span", {class: "carc-bcount"}, [count]) : null,
      keycap ? html("kbd", {class: "carc-bkey"}, [keycap]) : null,
    ]);
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
      const projected = v.projected[s] !== v.scores[s] && state?.status !== "over";
      items.push(html("li", {class: "carc-player" + (active ? " carc-active" : "")}, [
        icon,
        html("span", {class: "carc-pname"}, [s === state?.seat ? say("player.you", {seat: s}) : seatName(s)]),
        html("span", {class: "carc-pscore"}, [`${v.scores[s]}`]),
        html("span", {class: "carc-psupply"}, [say(projected ? "player.supply_projected" : "player.supply",
          {supply: v.supply[s], projected: v.projected[s]})]),
      ]));
    }
    players.replaceChildren(...items);
  }

  // ---- keys ----
  /** @param {KeyboardEvent} ev */
  function key(ev) {
    if (!root.isConnected || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (document.querySelector("dialog[open]")) return;   // the keys are the dialog's (Esc closes it)
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
    /** @param {string} action */
    words: (action) => actionWords(action),
    update(next) {
      state = next;
      view = /** @type {CarcView} */ (next.view);
      pending = false;
      clearTimeout(pendingTimer);
      for (const a of next.last || []) {
        const m = /^place (-?\d+) (-?\d+) \d+$/.exec(a.text);
        if (m && typeof a.seat === "number") remembered.set(a.seat, `${m[1]},${m[2]}`);
      }
      at = indexBoard(view.board);
      featureOf = new Map();
      for (const f of view.features || [])
        for (const s of f.segments) featureOf.set(`${s[0]},${s[1]},${s[2]}`, f.segments);
      const arriving = recent.take(next.events || [], next.seat);
      arrivingTiles = arriving.tiles, arrivingFollowers = arriving.followers;
      const legal = next.legal || [];
      const fresh = legal.join("\n") !== legalKey;
      if (fresh) {
        legalKey = legal.join("\n");
        sel = null, rot = 0, cursor = -1, pointed = null, pointedBy = null, hinted = null;
      }
      places = placesFrom(legal);
      const others = legal.filter((t) => !t.startsWith("place "));
      ({spots, rest} = followerSpots(others, tiles, at, view.board[view.board.length - 1],
        view.followers));
      if (sel) sel = places.find((p) => p.key === sel?.key) || null;
      render();
      drawHinted();
      arrivingTiles = new Set(), arrivingFollowers = [];
      scoring.show(next.events || [], at);
      pz.fit(boardBox(), false, centreBox());
      if (fresh && spots.length && spots.every((s) => s.verb === "follower")) {
        // the spots of one tile a finger's width apart (carcassonne.css: 44 px)
        let near = Infinity;
        for (const a of spots) for (const b of spots)
          if (a !== b) near = Math.min(near, Math.hypot(a.at.x - b.at.x, a.at.y - b.at.y));
        const b = bounds(spots.map((s) => ({x: s.x, y: s.y})));
        pz.focus({x0: b.x0 - 10, y0: b.y0 - 10, x1: b.x1 + 10, y1: b.y1 + 10},
          Math.max(1.4, near < Infinity ? 48 / near : 0));
      }
    },
    picture(events) {
      // the tile a line laid (at its turn) or drew, as the board draws it
      const e = events.find((x) => x.kind === "tile_placed" || x.kind === "tile_drawn");
      const type = e && tiles[e.tile];
      if (!e || !type) return null;
      const icon = tileIcon(e.tile, type, e.kind === "tile_placed" ? e.turn : 0, 22);
      icon.classList.add("log-pic");
      return icon;
    },
    light(events) {
      logged = events ? loggedSpots(events) : null;
      drawPointed();
    },
    hint(action) {
      hinted = action;
      const box = drawHinted();
      if (box) pz.reveal(box);
    },
    destroy() {
      document.removeEventListener("keydown", key);
      resize.disconnect();
      clearTimeout(pendingTimer);
      scoring.clear();
      pz.destroy();
      root.replaceChildren();
    },
  };

  /** Draws the hinted action (if any) on the board; the box it covers. */
  function drawHinted() {
    if (!view) return null;
    return drawHint(layers.hint, hinted, {tiles, at, hand: view.tile,
      newest: view.board[view.board.length - 1], followers: view.followers,
      colour: state && state.seat !== null ? colour(state.seat) : "#888"});
  }
}
