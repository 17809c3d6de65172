// scoring.mjs -- scoring as it happens, told by the engine's accounts.
//
// Each state brings the accounts of the actions since the previous one
// (state.events).  An event that scores a feature, or finishes one nobody
// holds, carries the feature's segments (docs/events-carcassonne.md): the
// feature lights up whole, and its points rise over it, "+10" in each
// scorer's colour.  `followers_returned` says where each follower stood: a
// ghost of it leaves the board.  Several scorings (the end of the game)
// follow one another.  Nothing here compares views: what scored, and for
// whom, is the account's word.  Effects stay a few seconds, over whatever
// the board draws meanwhile; carcassonne.css animates them, unless the
// player asks for less motion.

import {svg} from "./svg.mjs";
import {meeple, spotOnBoard} from "./followers.mjs";
import {drawSegments, segmentsMiddle} from "./highlight.mjs";
import {say} from "./words.mjs";

/** @typedef {import("./segments.mjs").TileType} TileType */
/** @typedef {import("./followers.mjs").Placed} Placed */
/** @typedef {import("./highlight.mjs").SegmentRef} SegmentRef */
/** @typedef {import("../types.js").ActionAccount} ActionAccount */
/** @typedef {import("../types.js").ActionEvent} ActionEvent */

/** How long an effect stays (ms), and the step between scorings told at once. */
export const SHOW_MS = 6000;
const STEP_MS = 900, FADE_MS = 500;

/** Whether an event scores a feature (or finishes one) that it names whole. @param {ActionEvent} ev */
export function isFeatureEvent(ev) {
  return Array.isArray(ev.segments) && ev.kind !== "followers_returned";
}

/**
 * @param {SVGGElement} layer the board's layer for these effects
 * @param {Record<string, TileType>} tiles
 * @param {(seat: number) => string} colour
 */
export function createScoring(layer, tiles, colour) {
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();

  /** @param {number} ms @param {() => void} then */
  function later(ms, then) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      then();
    }, ms);
    timers.add(timer);
  }

  /** Fades el out at the end of its time, then removes it. @param {Element} el @param {number} ms */
  function expire(el, ms) {
    later(ms - FADE_MS, () => el.classList.add("carc-fading"));
    later(ms, () => el.remove());
  }

  /**
   * A scored feature: its segments lit, its points rising in the
   * scorers' colours.
   * @param {ActionEvent} ev @param {Map<string, Placed>} at
   */
  function feature(ev, at) {
    const segments = /** @type {SegmentRef[]} */ (ev.segments);
    const g = drawSegments(tiles, at, segments, "carc-scored");
    g.setAttribute("data-kind", ev.kind);
    const mid = segmentsMiddle(tiles, at, segments);
    const points = /** @type {number[]} */ (Array.isArray(ev.points) ? ev.points : []);
    const scorers = points.map((p, seat) => ({p, seat})).filter((s) => s.p > 0);
    scorers.forEach(({p, seat}, i) => {
      const dx = (i - (scorers.length - 1) / 2) * 44;
      const text = svg("text", {"text-anchor": "middle", y: 8, fill: colour(seat), "data-seat": seat},
        [say("board.points", {points: p})]);
      const rise = svg("g", {class: "carc-rise", transform: `translate(${mid.x},${mid.y})`}, [
        svg("g", {class: "carc-fixed"}, [svg("g", {transform: `translate(${dx},0)`}, [text])])]);
      text.addEventListener("animationend", () => rise.remove());   // gone: not painted on
      g.append(rise);
    });
    return g;
  }

  /**
   * The followers of a seat leaving a scored feature, from where they stood.
   * @param {ActionEvent} ev @param {Map<string, Placed>} at
   */
  function goingHome(ev, at) {
    const g = svg("g", {class: "carc-going-home"});
    for (const s of /** @type {SegmentRef[]} */ (ev.segments)) {
      const placed = at.get(`${s[0]},${s[1]}`);
      const [kind, name] = s[2].split(" ");
      const p = placed ? spotOnBoard(tiles, placed, kind, name) : null;
      if (!p) continue;
      const move = svg("g", {class: "carc-home-move"}, [meeple(colour(ev.seat), kind === "field")]);
      const ghost = svg("g", {class: "carc-ghost-home", transform: `translate(${p.x},${p.y})`}, [move]);
      move.addEventListener("animationend", () => ghost.remove());
      g.append(ghost);
    }
    return g;
  }

  return {
    /**
     * Shows what the accounts scored.
     * @param {ActionAccount[]} accounts @param {Map<string, Placed>} at the board now
     */
    show(accounts, at) {
      let step = 0;
      for (const acc of accounts)
        for (const ev of acc.events || []) {
          /** @type {Element | null} */
          let el = null;
          if (isFeatureEvent(ev)) el = feature(ev, at), step++;
          else if (ev.kind === "followers_returned" && Array.isArray(ev.segments)) el = goingHome(ev, at);
          if (!el) continue;
          const shown = /** @type {Element} */ (el);
          // one scoring after the other (its followers with it): the end scores many
          const delay = Math.max(0, step - 1) * STEP_MS;
          if (delay) later(delay, () => layer.append(shown)); else layer.append(shown);
          expire(shown, delay + SHOW_MS);
        }
    },
    clear() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      layer.replaceChildren();
    },
  };
}
