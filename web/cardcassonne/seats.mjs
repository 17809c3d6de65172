// seats.mjs -- one panel a seat: name, score (counting up after a change,
// with the points won rising beside it), cards in hand (backs for the
// others), its big follower (in a row or still free), animals, chest and
// points by kind.
import {h, seatLook} from "../cards/dom.mjs";
import {svgMeeple} from "./icons.mjs";
import {drawAnimals, drawChest, drawPoints} from "./chests.mjs";
import {countUp} from "./motion.mjs";
import {pt, seatWord} from "./words.mjs";

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {number[] | null} before  the scores shown before this change (null: no change to show)
 * @returns {HTMLElement}
 */
export function drawSeats(ctx, view, before) {
    const panels = (view.seats ?? []).map((/** @type {any} */ seat, /** @type {number} */ i) => {
        const colour = seatLook(ctx, i).colour;
        const toMove = view.next === i;
        const backs = [];
        for (let k = 0; k < (seat.hand_count ?? 0); k++)
            backs.push(h("span", {class: "cc-mini-back", style: {"--owner": colour}}));
        const score = Number(seat.score ?? 0);
        const was = before?.[i] ?? score;
        const scoreEl = h("span", {class: "cc-score-value", data: {score: String(score)}}, String(score));
        countUp(scoreEl, was, score);
        return h("section", {
            class: `cc-seat${toMove ? " cc-to-move" : ""}${i === ctx.seat ? " cc-me" : ""}`,
            style: {"--owner": colour}, data: {seat: String(i)},
            "aria-label": pt(toMove ? "seat.label_to_act" : "seat.label", {seat: i, score}),
        },
        h("header", null,
          h("span", {class: "cc-dot"}), h("b", null, seatWord(i)),
          i === view.dealer ? h("span", {class: "cc-badge"}, pt("seat.dealer")) : null,
          toMove ? h("span", {class: "cc-badge cc-badge-move"}, pt("seat.to_act")) : null,
          h("span", {class: "cc-score"},
            score > was ? h("span", {class: "cc-rise-bubble", "aria-hidden": "true"}, `+${score - was}`) : null,
            scoreEl)),
        h("div", {class: "cc-seat-line"},
          h("span", null, pt("seat.hand", {count: seat.hand_count ?? 0})), h("span", {class: "cc-backs"}, backs)),
        view.phase === "over" ? null : h("div", {class: "cc-seat-line"},
          svgMeeple(seat.follower ? "#bbb" : colour),
          h("span", null, seat.follower ? pt("seat.follower_in", {row: seat.follower}) : pt("seat.follower_free"))),
        drawAnimals(seat), drawChest(seat), drawPoints(seat));
    });
    return h("section", {class: "cc-seats", "aria-label": pt("aria.seats")}, panels);
}
