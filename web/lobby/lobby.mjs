// lobby.mjs -- the page at /: make a table, copy its seat links, and join,
// watch or replay the tables of the server (asked for every 5 s while the
// page is seen: the server does not push the lobby).  Every word is the
// catalog's (lobby.*); the language switch is in the header.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {chosenLanguage, languageSwitch} from "../words/language.mjs";
import {newTableForm} from "./new-table.mjs";
import {seatLinks} from "./seat-links.mjs";
import {drawTables} from "./tables.mjs";
import {leaderboard} from "./leaderboard.mjs";
import {rememberTokens} from "./tokens.mjs";
import {connectionBadge} from "../table/status.mjs";
import {createMyGames} from "./my-games.mjs";
import {createTurnAlerts} from "../table/turn-alerts.mjs";
import {readSettings} from "../table/settings.mjs";
import {wakeAudio} from "../table/turn-signal.mjs";
import {accountBar} from "../account/bar.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("./tables.mjs").ListedTable} ListedTable */
/** @typedef {import("../net/connection.mjs").Connection} Connection */

const POLL = 5000;

/** The lobby's own look (lobby.css), next to this module; once. */
function linkStyle() {
    const href = new URL("./lobby.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/**
 * @param {HTMLElement} root
 * @param {Connection} conn
 * @param {GamesInfo | null} info
 */
export function showLobby(root, conn, info) {
    linkStyle();
    document.title = t("lobby.page_title");
    const created = h("div", {class: "created"});
    const list = h("div", {class: "table-lists", "aria-live": "off"});
    /** @type {ListedTable[]} */
    let tables = [];
    /** @type {{game: string, seats: string[]} | null} */
    let creating = null;

    const form = info && info.games.length
        ? newTableForm(info, (game, seats, seed, options) => {
            creating = {game, seats};
            form?.busy(true);
            const sent = conn.send({type: "create", game, seats, ...(seed !== null ? {seed} : {}),
                                    ...options});
            if (!sent) {
                creating = null;
                form?.busy(false);
                form?.showError(t("lobby.new.error.not_connected"));
            }
        })
        : null;

    // my games, and a word when it becomes the player's turn at one (clocks)
    const settings = readSettings();
    const alerts = createTurnAlerts(settings);
    const myGames = createMyGames(h("div", {class: "my-games-tools"}, alerts.button, alerts.line));
    document.addEventListener("pointerdown", () => { if (settings.sound) wakeAudio(); }, {once: true});

    conn.onMessage((m) => {
        if (m.type === "turn") {
            alerts.onTurn(m);
            myGames.refresh();
        } else if (m.type === "lobby") {
            tables = m.tables;
            drawTables(list, tables, info);
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
            form?.showError(t("lobby.new.error.refused", {reason: m.message || m.code}));
        }
    });
    conn.onStatus((s) => {
        if (s.state === "open") conn.send({type: "lobby"});
        if (s.state !== "open" && creating) {
            creating = null;
            form?.busy(false);
            form?.showError(t("lobby.new.error.dropped"));
        }
    });
    setInterval(() => {
        if (document.visibilityState !== "visible") return;
        conn.send({type: "lobby"});
        drawTables(list, tables, info);   // "5 minutes ago" grows older
    }, POLL);

    drawTables(list, tables, info);
    root.classList.add("lobby-page");
    root.replaceChildren(
        h("header", {class: "top"},
            h("h1", {text: "tafel"}),
            h("span", {class: "muted tagline", text: t("lobby.tagline")}),
            h("span", {class: "top-tools"}, accountBar(), languageSwitch(chosenLanguage()),
                connectionBadge(conn))),
        h("main", {class: "lobby"},
            myGames.el,
            h("div", {class: "lobby-new"},
                form ? form.el : h("p", {class: "error", text: t("lobby.no_games")}),
                created),
            h("section", {class: "card lobby-tables", "aria-labelledby": "tables-title"},
                h("h2", {id: "tables-title", text: t("lobby.tables.title")}),
                list),
            info && info.games.length ? leaderboard(info) : null));
}
