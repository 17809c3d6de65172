// seats.mjs -- one panel a seat: name, score, cards in hand (backs for the
// others), its big follower (in a row or still free), its last entry in
// the rows, animals, chest and points by kind.
import {h, seatLook} from "../cards/dom.mjs";
import {svgMeeple} from "./cards.mjs";
import {drawAnimals, drawChest, drawPoints} from "./chests.mjs";

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @returns {HTMLElement}
 */
export function drawSeats(ctx, view) {
    const panels = (view.seats ?? []).map((/** @type {any} */ seat, /** @type {number} */ i) => {
        const look = seatLook(ctx, i);
        const toMove = view.next === i;
        const backs = [];
        for (let k = 0; k < (seat.hand_count ?? 0); k++)
            backs.push(h("span", {class: "cc-mini-back", style: {"--owner": look.colour}}));
        return h("section", {
            class: `cc-seat${toMove ? " cc-to-move" : ""}${i === ctx.seat ? " cc-me" : ""}`,
            style: {"--owner": look.colour}, "aria-label": `${look.name}${toMove ? ", to act" : ""}`,
        },
        h("header", null,
          h("span", {class: "cc-dot"}), h("b", null, look.name),
          i === view.dealer ? h("span", {class: "cc-badge", title: "dealer of this round"}, "dealer") : null,
          toMove ? h("span", {class: "cc-badge cc-badge-move"}, "to act") : null,
          h("span", {class: "cc-score", title: "score"}, seat.score)),
        h("div", {class: "cc-seat-line", title: `${seat.hand_count} card(s) in hand`},
          h("span", null, `hand ${seat.hand_count}`), h("span", {class: "cc-backs"}, backs)),
        h("div", {class: "cc-seat-line"},
          svgMeeple(seat.follower ? "#bbb" : look.colour),
          seat.follower ? ` follower in the ${seat.follower} row` : " follower free",
          seat.last ? h("span", {class: "cc-muted"}, ` · last: ${seat.last.row} #${seat.last.index + 1}`) : null),
        drawAnimals(seat), drawChest(seat), drawPoints(seat));
    });
    return h("section", {class: "cc-seats", "aria-label": "players"}, panels);
}
