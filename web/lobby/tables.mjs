// tables.mjs -- the lobby's tables in words: those being played, then the
// finished ones (the server's order: newest first, the latest to end
// first).  Each shows its game and the options that differ from the
// defaults, who sits where, when it last changed -- a table nobody has
// moved at for a day or more is marked so ("No move for 3 days") -- a link
// to watch it, or to see the end and the replay of a finished one, and a
// link to play each seat whose token this browser knows.
//
// The list is drawn again only when a text in it changes (a move, or a
// minute more of "5 minutes ago"), and the focus stays on the link it was
// on, so polling does not take a keyboard user's place away.

import {h} from "../table/dom.mjs";
import {swatch, personName} from "../table/seats.mjs";
import {t, tn, botWord} from "../words/catalog.mjs";
import {seatLink, tokensOf} from "./tokens.mjs";
import {gameName, optionsOf, parseParam} from "./params.mjs";
import {gameWords, optionsInWords} from "./options.mjs";
import {ago, daysSince} from "./ago.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("../types.js").LobbySeat} LobbySeat */
/** @typedef {import("./params.mjs").Param} Param */
/**
 * A table as the lobby lists it, with the times of docs/protocol.md
 * (seconds since the epoch; absent from an older server).
 * @typedef {import("../types.js").LobbyTable & {created?: number, updated?: number,
 *   seats: (LobbySeat & {forfeit?: string})[]}} ListedTable
 */

/** A table without a move for this many days is marked. */
const STALE_DAYS = 1;

/**
 * When the table last changed, in words, and whether nobody has moved at
 * it for long.
 * @param {ListedTable} table
 * @returns {{text: string, stale: boolean}}
 */
function when(table) {
    if (typeof table.updated !== "number") return {text: "", stale: false};
    if (table.status === "over") {
        const key = table.reason === "abandoned" ? "lobby.table.abandoned" : "lobby.table.ended";
        return {text: t(key, {ago: ago(table.updated)}), stale: false};
    }
    const days = daysSince(table.updated);
    if (days >= STALE_DAYS) return {text: tn("lobby.table.stale", days), stale: true};
    if (table.seq === 0) return {text: t("lobby.table.made_ago", {ago: ago(table.updated)}), stale: false};
    return {text: t("lobby.table.last_move", {ago: ago(table.updated)}), stale: false};
}

/**
 * Who sits at a seat, in words.
 * @param {ListedTable} table
 * @param {number} seat
 */
function seatWords(table, seat) {
    const s = table.seats[seat];
    if (s.kind === "bot" && s.forfeit) {
        return t("lobby.table.seat_forfeit", {seat, bot: botWord(s.bot)});
    }
    if (s.kind === "bot") return t("lobby.table.seat_bot", {seat, bot: botWord(s.bot)});
    const name = personName(s);
    if (name && table.status === "over") return t("social.lobby.seat_named", {seat, name});
    if (name) return t(s.taken ? "social.lobby.seat_here" : "social.lobby.seat_away", {seat, name});
    if (table.status === "over") return t("lobby.table.seat_person", {seat});
    return t(s.taken ? "lobby.table.seat_here" : "lobby.table.seat_away", {seat});
}

/**
 * The options of the table's game string that are not the defaults, in words.
 * @param {ListedTable} table
 * @param {GamesInfo | null} info
 */
function optionLines(table, info) {
    const name = gameName(table.game);
    const g = info?.games.find((x) => x.name === name);
    if (!g) return [];
    const params = /** @type {Param[]} */ (g.params.map(parseParam).filter((p) => p !== null));
    return optionsInWords(name, params, optionsOf(table.game));
}

/**
 * @param {ListedTable} table
 * @param {GamesInfo | null} info
 */
function tableRow(table, info) {
    const game = gameWords(gameName(table.game));
    const time = when(table);
    const over = table.status === "over";
    const tokens = tokensOf(table.table);
    const seats = table.seats.map((_, seat) => h("li", {class: "seat-chip"},
        swatch(seat),
        h("span", {text: seatWords(table, seat)}),
        tokens[seat] && !over
            ? h("a", {href: seatLink(table.table, tokens[seat]), class: "button small play-seat",
                      "data-key": `${table.table}/${seat}`, text: t("lobby.table.play", {seat}),
                      "aria-label": t("lobby.table.play_label", {seat, game, when: time.text})})
            : null));
    const options = optionLines(table, info);
    return h("li", {class: `table-row${time.stale ? " stale" : ""}`, "data-table": table.table,
                    "data-status": table.status},
        h("div", {class: "table-row-head"},
            h("strong", {class: "table-game", text: game}),
            time.text ? h("span", {class: `table-when small${time.stale ? " stale-mark" : " muted"}`,
                                   text: time.text}) : null,
            h("a", {href: seatLink(table.table, null), class: `button small ${over ? "replay" : "watch"}`,
                    "data-key": table.table,
                    text: t(over ? "lobby.table.replay" : "lobby.table.watch"),
                    "aria-label": t(over ? "lobby.table.replay_label" : "lobby.table.watch_label",
                                    {game, when: time.text})})),
        options.length ? h("ul", {class: "table-options small"},
            ...options.map((o) => h("li", {text: o}))) : null,
        h("ul", {class: "seat-chips"}, ...seats));
}

/**
 * One of the two lists, with its heading.
 * @param {string} id
 * @param {string} title
 * @param {string} none what it says when it is empty
 * @param {ListedTable[]} tables
 * @param {GamesInfo | null} info
 */
function tableList(id, title, none, tables, info) {
    return h("div", {class: "table-list"},
        h("h3", {id, text: title}),
        tables.length
            ? h("ul", {class: "tables", "aria-labelledby": id}, ...tables.map((x) => tableRow(x, info)))
            : h("p", {class: "muted small", text: none}));
}

/**
 * Draws the tables into box, unless nothing it shows changed.
 * @param {HTMLElement} box
 * @param {ListedTable[]} tables
 * @param {GamesInfo | null} info
 */
export function drawTables(box, tables, info) {
    const next = h("div", {},
        tableList("tables-playing", t("lobby.tables.playing"), t("lobby.tables.none_playing"),
                  tables.filter((x) => x.status !== "over"), info),
        tableList("tables-over", t("lobby.tables.over"), t("lobby.tables.none_over"),
                  tables.filter((x) => x.status === "over"), info));
    if (next.innerHTML === box.innerHTML) return;
    const active = document.activeElement;
    const key = active instanceof HTMLElement && box.contains(active) ? active.dataset.key : undefined;
    box.replaceChildren(...next.childNodes);
    if (key) /** @type {HTMLElement | null} */ (box.querySelector(`[data-key="${CSS.escape(key)}"]`))?.focus();
}
