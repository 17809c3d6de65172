// seats.mjs -- the seats' names and colours, and how a player is named.
//
// The names are those of the terminal and the engine ("Red" is seat 0 on
// every board and in every message).  The colours are for swatches and
// pieces, never for text: each swatch has a dark outline, and the plot adds
// a dash pattern per seat, so no colour carries meaning alone.

/** @typedef {import("../types.js").SeatInfo} SeatInfo */
/** @typedef {import("../types.js").LobbySeat} LobbySeat */

export const SEAT_NAMES = ["Red", "Blue", "Yellow", "Green", "Black"];
export const SEAT_COLOURS = ["#d33", "#36c", "#db0", "#3a3", "#333"];
export const SEAT_DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2"];

/** @param {number} i */
export function seatName(i) {
    return SEAT_NAMES[i] ?? `Seat ${i + 1}`;
}

/** @param {number} i */
export function seatColour(i) {
    return SEAT_COLOURS[i] ?? "#888";
}

/**
 * Who sits at a seat, in a few words: "you", "human", "hard bot".
 * @param {SeatInfo | LobbySeat} seat
 * @param {number} i
 * @param {number | null} [mine]
 */
export function playerLabel(seat, i, mine = null) {
    if (seat.kind === "bot") return `${seat.bot ?? "?"} bot` + (i === mine ? " (your seat)" : "");
    if (i === mine) return "you";
    return "human";
}

/**
 * "Red (hard bot)".
 * @param {SeatInfo | LobbySeat} seat
 * @param {number} i
 * @param {number | null} [mine]
 */
export function playerName(seat, i, mine = null) {
    return `${seatName(i)} (${playerLabel(seat, i, mine)})`;
}

/**
 * A coloured square for seat i.
 * @param {number} i
 */
export function swatch(i) {
    const el = document.createElement("span");
    el.className = "swatch";
    el.style.background = seatColour(i);
    el.setAttribute("aria-hidden", "true");
    return el;
}
