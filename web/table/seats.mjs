// seats.mjs -- the seats' names and colours, and how a player is named.
//
// A seat's name is its colour in the page's language (common.seat.<i>:
// "Red" is seat 0 on every board and in every message).  The colours are
// for swatches and pieces, never for text: each swatch has a dark outline,
// and the plot adds a dash pattern per seat, so no colour carries meaning
// alone.

import {t, seatWord, botWord} from "../words/catalog.mjs";

/** @typedef {import("../types.js").SeatInfo} SeatInfo */
/** @typedef {import("../types.js").LobbySeat} LobbySeat */

export const SEAT_COLOURS = ["#d33", "#36c", "#db0", "#3a3", "#333"];
export const SEAT_DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2"];

/** The seats' names in the page's language. @param {number} n how many seats */
export function seatNames(n) {
    return Array.from({length: n}, (_, i) => seatName(i));
}

/** @param {number} i */
export function seatName(i) {
    return seatWord(i);
}

/** @param {number} i */
export function seatColour(i) {
    return SEAT_COLOURS[i] ?? "#888";
}

/** The name the server gives a new guest ("Guest 6730"), whatever the page's language. */
const GUEST_DEFAULT = /^Guest (\d+)$/;

/**
 * A player's name as the page shows it: the name they chose, or a guest's
 * default name in the page's language ("Gast 6730"); the server keeps
 * "Guest 6730".  Only a guest's: an account may be called "Guest 12".  A
 * rated bot's name is its level, in the page's language too (botWord).
 * @param {string} name
 * @param {string | null | undefined} kind "account", "guest", "bot" or none
 */
export function shownName(name, kind) {
    if (kind === "bot") return botWord(name);
    const m = kind === "guest" ? GUEST_DEFAULT.exec(name) : null;
    return m ? t("social.player.guest_default", {n: m[1]}) : name;
}

/**
 * The name of the person bound to a seat, a guest's marked ("Gus (guest)"),
 * or null (an open seat, a bot's).  Always shown as text (textContent).
 * @param {SeatInfo | LobbySeat} seat
 */
export function personName(seat) {
    if (!seat.name || !seat.player) return null;
    return seat.player === "guest" ? t("social.player.guest", {name: shownName(seat.name, "guest")})
        : seat.name;
}

/**
 * The seats' names for the game views (ctx.names): the colour, with the
 * person's name where one is bound ("Red — Alice").
 * @param {SeatInfo[]} seats
 */
export function seatNamesOf(seats) {
    return seats.map((s, i) => {
        const name = personName(s);
        return name ? t("social.seat_named", {seat: i, name}) : seatName(i);
    });
}

/**
 * Who sits at a seat, in a few words: "you", "human", "hard bot", a
 * person's name.
 * @param {SeatInfo | LobbySeat} seat
 * @param {number} i
 * @param {number | null} [mine]
 */
export function playerLabel(seat, i, mine = null) {
    const name = personName(seat);
    if (name && seat.kind === "bot") {
        return t("social.player.bot_for", {name, bot: botWord(seat.bot)});
    }
    if (name) return i === mine ? t("social.player.you_named", {name: shownName(seat.name ?? "", seat.player)}) : name;
    if (seat.kind === "bot") {
        const bot = botWord(seat.bot);
        return t(i === mine ? "page.player.bot_yours" : "page.player.bot", {bot});
    }
    return t(i === mine ? "page.player.you" : "page.player.human");
}

/**
 * "Red (hard bot)".
 * @param {SeatInfo | LobbySeat} seat
 * @param {number} i
 * @param {number | null} [mine]
 */
export function playerName(seat, i, mine = null) {
    return t("page.player.name", {seat: i, who: playerLabel(seat, i, mine)});
}

/**
 * A seat with its score, "Red 10", for lists of scores.
 * @param {number} i
 * @param {number} score
 */
export function seatScore(i, score) {
    return t("page.score_of", {seat: i, score});
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
