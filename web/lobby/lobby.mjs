// lobby.mjs -- the page at /: make a table, copy its seat links, and join
// or watch the tables of the server (asked for every 5 s while the page is
// seen: the server does not push the lobby).

import {h} from "../table/dom.mjs";
import {newTableForm} from "./new-table.mjs";
import {seatLinks} from "./seat-links.mjs";
import {drawTables} from "./tables.mjs";
import {rememberTokens} from "./tokens.mjs";
import {connectionBadge} from "../table/status.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("../types.js").LobbyTable} LobbyTable */
/** @typedef {import("../net/connection.mjs").Connection} Connection */

const POLL = 5000;

/**
 * @param {HTMLElement} root
 * @param {Connection} conn
 * @param {GamesInfo | null} info
 */
export function showLobby(root, conn, info) {
    document.title = "tafel — lobby";
    const created = h("div", {class: "created"});
    const list = h("ul", {class: "tables", "aria-live": "off"});
    const showOver = h("input", {type: "checkbox", id: "show-over", checked: true,
                                 onchange: () => drawTables(list, tables, showOver.checked)});
    /** @type {LobbyTable[]} */
    let tables = [];
    let shown = "";
    /** @type {{game: string, seats: string[]} | null} */
    let creating = null;

    const form = info && info.games.length
        ? newTableForm(info, (game, seats, seed) => {
            creating = {game, seats};
            form?.busy(true);
            const sent = conn.send({type: "create", game, seats, ...(seed !== null ? {seed} : {})});
            if (!sent) {
                creating = null;
                form?.busy(false);
                form?.showError("Not connected to the server; try again in a moment.");
            }
        })
        : null;

    conn.onMessage((m) => {
        if (m.type === "lobby") {
            const text = JSON.stringify(m.tables);
            if (text === shown) return;   // redraw only on a change: keeps the focus
            shown = text;
            tables = m.tables;
            drawTables(list, tables, showOver.checked);
        } else if (m.type === "created" && creating) {
            rememberTokens(m.table, m.tokens);
            created.replaceChildren(seatLinks(m, creating.game, creating.seats));
            creating = null;
            form?.busy(false);
            created.querySelector("input")?.focus();
            conn.send({type: "lobby"});
        } else if (m.type === "error" && creating) {
            creating = null;
            form?.busy(false);
            form?.showError(m.message || m.code);
        }
    });
    conn.onStatus((s) => {
        if (s.state === "open") conn.send({type: "lobby"});
        if (s.state !== "open" && creating) {
            creating = null;
            form?.busy(false);
            form?.showError("The connection dropped; the table may not have been made.");
        }
    });
    setInterval(() => {
        if (document.visibilityState === "visible") conn.send({type: "lobby"});
    }, POLL);

    root.replaceChildren(
        h("header", {class: "top"},
            h("h1", {text: "tafel"}),
            h("span", {class: "muted", text: "Carcassonne, Cardcassonne and the Catan card game, against people and bots"}),
            connectionBadge(conn)),
        h("main", {class: "lobby"},
            h("div", {class: "lobby-new"},
                form ? form.el : h("p", {class: "error", text: "Could not read /api/games: reload the page."}),
                created),
            h("section", {class: "card lobby-tables", "aria-labelledby": "tables-title"},
                h("h2", {id: "tables-title", text: "Tables"}),
                h("p", {class: "small"},
                    h("label", {}, showOver, " show finished tables")),
                list)));
}
