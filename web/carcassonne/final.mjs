// final.mjs -- the end of the game on the Carcassonne panel: the final
// scores, and the end scoring feature by feature.
//
// The end scoring is the engine's: the view at the end holds the very
// events the account of the last action told (`final_events`,
// docs/events-carcassonne.md), each said in the catalog's words
// (catalog().event).  Pointing at a line, focusing it or tapping it lights
// its feature on the board (the event's segments).

import {html, svg} from "./svg.mjs";
import {meeple} from "./followers.mjs";
import {say} from "./words.mjs";
import {catalog} from "../words/catalog.mjs";
import {isFeatureEvent} from "./scoring.mjs";

/** @typedef {import("../types.js").ActionEvent} ActionEvent */
/** @typedef {import("../types.js").StateMessage} StateMessage */

/**
 * @param {HTMLElement} box
 * @param {StateMessage} state
 * @param {{players: number, final_events?: ActionEvent[]}} view
 * @param {(seat: number) => string} colour
 * @param {(ev: ActionEvent | null, tapped?: boolean) => void} point a line pointed at (null:
 *   none); tapped: chosen, so that its feature is brought into sight
 */
export function drawFinal(box, state, view, colour, point) {
  if (state.status !== "over") {
    if (box.firstChild) box.replaceChildren();
    delete box.dataset.drawn;
    return;
  }
  const winners = new Set(state.winners || []), scores = state.scores;
  const order = Array.from({length: view.players}, (_, s) => s)
    .sort((a, b) => scores[b] - scores[a]);
  const key = String(state.seq);
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  const items = (view.final_events || []).filter(isFeatureEvent);
  /** the line a tap keeps lit @type {ActionEvent | null} */
  let pinned = null;
  /** the line pointed at or focused now @type {ActionEvent | null} */
  let shown = null;
  /** @param {ActionEvent} ev */
  const show = (ev) => point(shown = ev);
  /** leaving a line puts back the tapped one, unless another line is lit meanwhile @param {ActionEvent} ev */
  const hide = (ev) => {
    if (shown !== ev) return;
    shown = null;
    point(pinned);
  };
  const lines = items.map((ev) => {
    const b = html("button", {type: "button", class: "carc-final-item", "aria-pressed": "false"},
      [catalog().event(ev)]);
    b.addEventListener("pointerenter", () => show(ev));
    b.addEventListener("focus", () => show(ev));
    b.addEventListener("pointerleave", () => hide(ev));
    b.addEventListener("blur", () => hide(ev));
    b.addEventListener("click", () => {
      pinned = pinned === ev ? null : ev;
      lines.forEach((l, i) => l.setAttribute("aria-pressed", String(items[i] === pinned)));
      shown = ev;
      point(ev, true);
    });
    return b;
  });
  box.replaceChildren(
    html("h3", {}, [say("final.title")]),
    html("ol", {}, order.map((s) => html("li", {}, [
      svg("svg", {viewBox: "-12 -12 24 24", width: 18, height: 18, "aria-hidden": "true"}, [meeple(colour(s))]),
      " ",
      say(winners.has(s) ? "final.winner" : "final.line", {seat: s, score: scores[s]}),
    ]))),
    html("p", {class: "carc-note"}, [say("final.note")]),
    ...(lines.length ? [
      html("h3", {}, [say("final.events")]),
      html("p", {class: "carc-note"}, [say("final.events_help")]),
      html("ul", {class: "carc-final-items"}, lines.map((b) => html("li", {}, [b]))),
    ] : []),
  );
}
