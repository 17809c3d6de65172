// seat-kinds.mjs -- who may sit at a seat of a new table, in words: a
// person, each bot the server offers for the game and its count of players
// (GET /api/games `bots`, each with the games and counts it plays), or
// another bot spec typed in.  A bot is named by its level in the page's
// language (botWord); what it does comes from the catalog
// (lobby.bot.<name>), and only for a bot the catalog does not know (an
// external one) from the server's own summary.

import {t, catalog, botWord} from "../words/catalog.mjs";

/** @typedef {import("../types.js").BotInfo} BotInfo */

export const HUMAN = "human";
export const OTHER = "other…";

/**
 * The bots offered for game with players seats: those whose `players` give
 * that count for it (expert plays only where a net is built in: two-player
 * Cardcassonne); a bot without `players`, from an older server, plays every
 * count of the games its `games` name, and one without either every game.
 * @param {BotInfo[]} bots
 * @param {string} game its name, as GET /api/games names it
 * @param {number} players
 * @returns {BotInfo[]}
 */
export function botsFor(bots, game, players) {
    return bots.filter((b) => (b.players ? (b.players[game] ?? []).includes(players)
                                         : !b.games || b.games.includes(game)));
}

/**
 * The seat choices, in the order of the list: value and text.
 * @param {BotInfo[]} bots
 * @param {boolean} [other] whether another spec may be typed in (a server's table)
 * @returns {{value: string, text: string}[]}
 */
export function seatChoices(bots, other = true) {
    return [
        {value: HUMAN, text: t("lobby.seat.human")},
        ...bots.map((b) => ({value: b.name, text: t("lobby.seat.bot", {bot: botWord(b.name)})})),
        ...(other ? [{value: OTHER, text: t("lobby.seat.other")}] : []),
    ];
}

/**
 * One line on what a choice does.
 * @param {string} value
 * @param {BotInfo[]} bots
 */
export function seatChoiceAbout(value, bots) {
    if (value === HUMAN) return t("lobby.seat.human_about");
    if (value === OTHER) return t("lobby.seat.other_about");
    const key = `lobby.bot.${value}`;
    if (catalog().has(key)) return t(key);
    return bots.find((b) => b.name === value)?.summary ?? "";
}
