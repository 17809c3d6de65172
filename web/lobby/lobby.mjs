// lobby.mjs -- the page at /: make a table, copy its seat links, and join,
// watch or replay the tables of the server (asked for every 5 s while the
// page is seen: the server does not push the lobby).  Every word is the
// catalog's (lobby.*); the language switch is in the header.
//
// Tables on this device (local/) are offered beside the server's when the
// page can run the engine; from the static site, with no server, they are
// all there is: the form makes only those, and the server's parts (open
// tables, my games, the leaderboard) are left out.  With the engine in the
// page, a newcomer's "learn by playing" comes first (guide/entry.mjs).

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
import {deviceGames} from "./device-games.mjs";
import {localTableHref} from "../net/site.mjs";
import {learnToPlay} from "../guide/entry.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("./tables.mjs").ListedTable} ListedTable */
/** @typedef {import("../net/connection.mjs").Connection} Connection */
/** @typedef {import("../local/connection.mjs").LocalConnection} LocalConnection */
/** @typedef {{conn: LocalConnection, info: GamesInfo, kept: boolean}} Device */

const POLL = 5000;

/** The lobby's own look (lobby.css), next to this module; once. */
function linkStyle() {
    const href = new URL("./lobby.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/**
 * @param {HTMLElement} root
 * @param {Connection | null} conn the server (null: the static site, no server)
 * @param {GamesInfo | null} info the server's games
 * @param {Device | null} device the engine in this page, when it runs here
 */
export function showLobby(root, conn, info, device) {
    if (!conn) {
        showDeviceLobby(root, device);
        return;
    }
    linkStyle();
    document.title = t("lobby.page_title");
    const created = h("div", {class: "created"});
    const list = h("div", {class: "table-lists", "aria-live": "off"});
    /** @type {ListedTable[]} */
    let tables = [];
    /** @type {{game: string, seats: string[]} | null} */
    let creating = null;

    const form = info && info.games.length
        ? newTableForm(info, (game, seats, seed, options, place) => {
            if (place === "device" && device) {
                createOnDevice(device, game, seats, seed, form);
                return;
            }
            creating = {game, seats};
            form?.busy(true);
            const sent = conn.send({type: "create", game, seats, ...(seed !== null ? {seed} : {}),
                                    ...options});
            if (!sent) {
                creating = null;
                form?.busy(false);
                form?.showError(t("lobby.new.error.not_connected"));
            }
        }, device ? {places: ["server", "device"], deviceBots: device.info.bots} : {})
        : null;

    // my games, and a word when it becomes the player's turn at one (clocks)
    const settings = readSettings();
    const alerts = createTurnAlerts(settings, false);
    const myGames = createMyGames(h("div", {class: "my-games-tools"}, alerts.button, alerts.line),
        (table, accept) => conn.send({type: accept ? "accept" : "decline", table}));
    document.addEventListener("pointerdown", () => { if (settings.sound) wakeAudio(); }, {once: true});

    conn.onMessage((m) => {
        if (m.type === "turn") {
            alerts.onTurn(m);
            myGames.refresh();
        } else if (m.type === "invited" || (m.type === "ack" && m.table)) {
            myGames.refresh();   // an invitation came, or was answered
        } else if (m.type === "lobby") {
            tables = m.tables;
            drawTables(list, tables, info);
            myGames.lobbyChanged(m.tables);
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
            device ? learnToPlay(device.info.games.map((g) => g.name)) : null,
            myGames.el,
            h("div", {class: "lobby-new"},
                form ? form.el : h("p", {class: "error", text: t("lobby.no_games")}),
                created),
            device ? deviceGames(device.conn, device.kept).el : null,
            h("section", {class: "card lobby-tables", "aria-labelledby": "tables-title"},
                h("h2", {id: "tables-title", text: t("lobby.tables.title")}),
                list),
            info && info.games.length ? leaderboard(info) : null));
}

/**
 * Makes a table on this device and goes to it.
 * @param {Device} device
 * @param {string} game
 * @param {string[]} seats
 * @param {number | null} seed
 * @param {{showError: (text: string) => void, busy: (on: boolean) => void} | null} form
 */
async function createOnDevice(device, game, seats, seed, form) {
    form?.busy(true);
    try {
        const table = await device.conn.create(game, seats, seed);
        location.href = localTableHref(table);
    } catch (err) {
        form?.busy(false);
        form?.showError(t("lobby.new.error.refused", {reason: err instanceof Error ? err.message : String(err)}));
    }
}

/**
 * The lobby of the static site: tables on this device only.
 * @param {HTMLElement} root
 * @param {Device | null} device
 */
function showDeviceLobby(root, device) {
    linkStyle();
    document.title = t("lobby.page_title");
    /** @type {{el: HTMLElement, showError: (text: string) => void, busy: (on: boolean) => void} | null} */
    let form = null;
    if (device && device.info.games.length) {
        form = newTableForm(device.info, (game, seats, seed) => createOnDevice(device, game, seats, seed, form),
                            {places: ["device"], deviceBots: device.info.bots});
    }
    root.classList.add("lobby-page");
    root.replaceChildren(
        h("header", {class: "top"},
            h("h1", {text: "tafel"}),
            h("span", {class: "muted tagline", text: t("lobby.tagline")}),
            h("span", {class: "top-tools"}, languageSwitch(chosenLanguage()))),
        h("main", {class: "lobby"},
            device ? learnToPlay(device.info.games.map((g) => g.name)) : null,
            h("div", {class: "lobby-new"},
                form ? form.el : h("p", {class: "error", text: device ? t("lobby.no_games")
                    : t("local.no_engine", {reason: "WebAssembly"})})),
            device ? deviceGames(device.conn, device.kept).el : null));
}
