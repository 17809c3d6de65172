// header.mjs -- whose turn it is, and the seats: name and colour, who
// plays them, connected or not, resigned, score, and the winners at the end.

import {h} from "./dom.mjs";
import {seatName, playerLabel, playerName, swatch} from "./seats.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */

/**
 * The words for whose turn it is.
 * @param {StateMessage} st
 */
export function turnText(st) {
    if (st.status === "over") {
        const w = st.winners ?? [];
        if (w.length === 0) return "Game over: nobody wins.";
        const names = w.map((i) => (i === st.seat ? "you" : seatName(i)));
        if (w.length === 1) return w[0] === st.seat ? "Game over: you win!" : `Game over: ${names[0]} wins.`;
        return `Game over: ${names.join(" and ")} share the win.`;
    }
    if (typeof st.to_move !== "number") return "…";
    if (st.legal && st.legal.length) return "Your turn.";
    const who = st.seats[st.to_move];
    if (!who) return "…";
    const name = playerName(who, st.to_move, st.seat);
    if (who.resigned) return `${name} resigned: the greedy bot plays its turn…`;
    return who.kind === "bot" ? `${name} is thinking…` : `${name} to move.`;
}

export function createHeader() {
    const banner = h("p", {class: "turn", "aria-live": "polite"});
    const seats = h("ol", {class: "seats", "aria-label": "Seats and scores"});
    const el = h("section", {class: "head"}, banner, seats);

    /** @param {StateMessage} st */
    function update(st) {
        banner.textContent = turnText(st);
        banner.dataset.mine = String(!!st.legal?.length && st.status === "playing");
        seats.replaceChildren(...st.seats.map((seat, i) => {
            const toMove = st.status === "playing" && st.to_move === i;
            const won = st.status === "over" && (st.winners ?? []).includes(i);
            const flags = [];
            if (toMove) flags.push(h("span", {class: "flag to-move", text: "to move"}));
            if (won) flags.push(h("span", {class: "flag won", text: "winner"}));
            // an external bot that broke its protocol lost the seat: say why
            if (seat.forfeit) flags.push(h("span", {class: "flag resigned", text: "forfeited", title: seat.forfeit}));
            else if (seat.resigned) flags.push(h("span", {class: "flag resigned", text: "resigned"}));
            if (seat.kind === "human" && i !== st.seat) {
                flags.push(h("span", {class: `flag ${seat.connected ? "online" : "offline"}`,
                                      text: seat.connected ? "online" : "away"}));
            }
            return h("li", {class: "seat" + (toMove ? " active" : "") + (i === st.seat ? " mine" : ""),
                            "aria-current": toMove ? "true" : false},
                swatch(i),
                h("span", {class: "seat-name"}, h("strong", {text: seatName(i)}), " ",
                  h("span", {class: "muted", text: playerLabel(seat, i, st.seat)})),
                h("span", {class: "score", "aria-label": `score ${st.scores[i] ?? 0}`,
                           text: String(st.scores[i] ?? 0)}),
                ...flags);
        }));
    }
    return {el, update};
}
