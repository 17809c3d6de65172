// my-games.mjs -- the lobby's "My games": the player's unfinished tables
// (GET /api/my-games), those where it is their turn first and marked, each
// a link to its table (the player's seat: a remembered link, else the
// table, where a player's bound seat is theirs without a token).  Read
// when the lobby opens, every 20 s while the page is seen, and at once
// when the server says it became the player's turn somewhere (`turn`), or
// when the lobby's list shows one of them changed (lobbyChanged: a move, a
// seat taken); a row with an open seat is read again with every lobby
// message, as a private table is never listed there.  The whole row is its
// link (the link's box covers the row: a click or a touch anywhere, one
// stop for the keyboard).
// Hidden for a page with no login (401; not asked when identity.mjs found
// nobody).

import {h} from "../table/dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {gameTitle} from "../table/game-title.mjs";
import {gameName} from "./params.mjs";
import {tokensOf} from "./tokens.mjs";
import {ago} from "./ago.mjs";
import {clockDigits, spanWords, lowTime, clockStyle} from "../table/clock.mjs";
import {me} from "../account/identity.mjs";
import {shownName} from "../table/seats.mjs";
import {invitationWords, answerButtons} from "../table/invitation.mjs";

/** @typedef {import("../types.js").MyGame} MyGame */
/** @typedef {import("../types.js").LobbyTable} LobbyTable */

const POLL = 20000;

/** The link of the player's seat at a table. @param {MyGame} g */
function seatHref(g) {
    const token = tokensOf(g.table)[g.seat];
    return `/t/${g.table}` + (token ? `?token=${token}` : "");
}

/** The player's time, in words, or "". @param {MyGame} g */
function timeWords(g) {
    if (!g.clock || g.left_ms === undefined) return "";
    return g.clock.kind === "realtime" ? t("clocks.my.realtime_left", {time: clockDigits(g.left_ms)})
        : g.your_turn ? t("clocks.left", {time: spanWords(g.left_ms)}) : "";
}

/**
 * An invitation waiting for the player's answer: who, what, and the answers.
 * @param {MyGame} g
 * @param {(table: string, accept: boolean) => boolean} answer
 */
function invitationEntry(g, answer) {
    return h("li", {class: "my-game invitation", "data-table": g.table},
        h("a", {href: seatHref(g), text: invitationWords({game: g.game, by: g.by, rated: g.rated, clock: g.clock?.text})}),
        " ",
        ...answerButtons((accept) => answer(g.table, accept)));
}

/** @param {MyGame} g */
function entry(g) {
    const low = g.clock && g.left_ms !== undefined && g.your_turn && lowTime(g.clock, g.left_ms);
    const others = g.players.map((n, i) => n === null ? t("clocks.my.open_seat")
        : shownName(n, g.player_kinds?.[i])).filter((_, i) => i !== g.seat);
    return h("li", {class: "my-game" + (g.your_turn ? " yours" : ""), "data-table": g.table},
        h("a", {href: seatHref(g), class: "my-game-link", text: gameTitle(gameName(g.game)),
                "aria-describedby": `my-game-${g.table}`}),
        " ",
        h("span", {class: "muted", id: `my-game-${g.table}`,
                   text: t("clocks.my.with", {names: catalog().list(others)})}),
        " ",
        h("strong", {class: "my-turn", text: g.waiting_for?.length
            ? t("social.invite.waiting_for", {names: catalog().list(g.waiting_for)})
            : t(g.your_turn ? "clocks.my.your_turn" : "clocks.my.waiting")}),
        " ",
        h("span", {class: "my-time" + (low ? " low" : ""), text: timeWords(g)}),
        " ",
        h("span", {class: "small muted", text: ago(g.updated)}));
}

/**
 * @param {HTMLElement} [extra] shown under the title (the notifications button)
 * @param {(table: string, accept: boolean) => boolean} [answer] answers an invitation (false: not sent)
 */
export function createMyGames(extra, answer = () => false) {
    clockStyle();
    const list = h("ul", {class: "my-games-list"});
    const empty = h("p", {class: "muted", text: t("clocks.my.empty"), hidden: true});
    const el = h("section", {class: "card my-games", "aria-labelledby": "my-games-title", hidden: true},
        h("h2", {id: "my-games-title", text: t("clocks.my.title")}), extra ?? null, list, empty);
    let asking = false;
    /** @type {MyGame[]} */
    let games = [];
    /** Each listed table's seq and seats' names at the lobby's latest message. @type {Map<string, string>} */
    let listed = new Map();

    async function refresh() {
        if (asking || me().kind === null) return;   // nobody (no accounts here): no games
        asking = true;
        try {
            const r = await fetch("/api/my-games", {credentials: "same-origin"});
            if (r.status === 401) {
                el.hidden = true;
                return;
            }
            if (!r.ok) return;
            /** @type {{games: MyGame[]}} */
            const body = await r.json();
            el.hidden = false;
            games = body.games;
            list.replaceChildren(...body.games.map((g) => g.invited ? invitationEntry(g, answer) : entry(g)));
            empty.hidden = body.games.length > 0;
            el.dataset.yours = String(body.games.filter((g) => g.your_turn).length);
        } catch {
            /* the server may be restarting: the next poll */
        } finally {
            asking = false;
        }
    }

    setInterval(() => { if (document.visibilityState === "visible") refresh(); }, POLL);
    /**
     * The lobby's list came (every 5 s while seen): read my games again when
     * one of them moved or had a seat taken, or while one shows an open seat.
     * @param {LobbyTable[]} tables
     */
    function lobbyChanged(tables) {
        const before = listed;
        listed = new Map(tables.map((x) => [x.table, JSON.stringify([x.seq, x.seats.map((s) => s.name ?? null)])]));
        const changed = games.some((g) => listed.get(g.table) !== before.get(g.table) ||
                                          g.players.includes(null));
        if (changed) refresh();
    }

    refresh();
    return {el, refresh, lobbyChanged};
}
