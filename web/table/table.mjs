// table.mjs -- the page of one table: /t/<table>?token=<token> for a seat,
// /t/<table> for a spectator.
//
// It joins the table over the connection (again after every reconnect),
// asks for the history once per join, and hands every `state` to its
// parts: the header (whose turn, seats, scores), the game's own view (or
// the JSON of the position), the controls (hint, undo, resign, hand over),
// the generic list of legal actions, the move log, and at the end the
// score plot and the replay.  A move is sent only if its text is in the
// latest `legal`; while a request is on its way, no other is sent.

import {h} from "./dom.mjs";
import {SEAT_NAMES, SEAT_COLOURS, seatName} from "./seats.mjs";
import {connectionBadge} from "./status.mjs";
import {createHeader, turnText} from "./header.mjs";
import {createLog} from "./log.mjs";
import {createActions} from "./actions.mjs";
import {createHint} from "./hint.mjs";
import {createControls} from "./controls.mjs";
import {createPlot} from "./plot.mjs";
import {createReplay} from "./replay.mjs";
import {loadGameView} from "./gameview.mjs";
import {rememberToken} from "../lobby/tokens.mjs";
import {gameName} from "../lobby/params.mjs";
import {useGame} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("../types.js").GameView} GameView */
/** @typedef {import("../types.js").GameContext} GameContext */
/** @typedef {import("../net/connection.mjs").Connection} Connection */

/** What an error code means to a player. @type {Record<string, string>} */
const ERROR_WORDS = {
    stale: "The table changed meanwhile: here is the latest position.",
    not_your_turn: "It is not your turn.",
    over: "The game is over.",
    not_seated: "Spectators cannot play.",
};

/**
 * @param {HTMLElement} root
 * @param {Connection} conn
 * @param {GamesInfo | null} info
 * @param {string} table
 * @param {string | null} token
 */
export function showTable(root, conn, info, table, token) {
    /** @type {StateMessage | null} */
    let state = null;
    /** @type {GameView | null} */
    let view = null;
    let viewLoading = false;
    let hasView = false;
    let busy = false;
    let needHistory = true;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let noticeTimer = null;

    const title = h("h1", {}, h("a", {href: "/", text: "tafel", title: "to the lobby"}));
    const gameLabel = h("code", {class: "game-string"});
    const who = h("span", {class: "who-am-i"});
    const notice = h("p", {class: "notice", role: "alert", hidden: true});
    const header = createHeader();
    const board = h("div", {class: "board", id: "board"});
    const log = createLog(() => { conn.send({type: "history"}); });
    const actions = createActions(play);
    const hint = createHint(() => conn.send({type: "hint"}), play);
    const controls = createControls((type, extra) => {
        if (busy || !state) return;
        setBusy(conn.request(type, extra));
    }, info?.bots ?? []);
    const plot = createPlot();
    const playPanel = h("div", {class: "panel play-panel"}, controls.el, hint.el);
    const replay = createReplay(table, {
        logEntries: log.entries,
        ask: (actions) => conn.send({type: "replay", actions}),
        showAt,
        onStep: plot.mark,
    });
    /** What the board shows instead of the latest state (a replayed step), or null. */
    /** @type {StateMessage | null} */
    let shownInstead = null;
    /** Counts the views made, so a slow load never draws over a newer one. */
    let generation = 0;

    root.replaceChildren(
        h("a", {class: "skip", href: "#side", text: "Skip to the controls"}),
        h("header", {class: "top"}, title, gameLabel, who, connectionBadge(conn)),
        h("main", {class: "table-page"},
            header.el,
            notice,
            h("div", {class: "layout"},
                h("section", {class: "board-area", "aria-label": "The table"}, board),
                h("aside", {class: "side", id: "side", tabindex: "-1"},
                    playPanel,
                    actions.el,
                    plot.el,
                    replay.el,
                    log.el))));

    /** @param {string} text */
    function showNotice(text) {
        notice.textContent = text;
        notice.hidden = false;
        if (noticeTimer) clearTimeout(noticeTimer);
        noticeTimer = setTimeout(() => { notice.hidden = true; }, 6000);
    }

    /** @param {boolean} on */
    function setBusy(on) {
        busy = on;
        actions.setBusy(on);
        root.classList.toggle("busy", on);
    }

    /** Sends a move: only a text of the latest `legal`. @param {string} action */
    function play(action) {
        if (!state?.legal?.includes(action)) {
            showNotice(`Not a legal action now: ${action}`);
            return;
        }
        if (busy) return;
        setBusy(true);
        conn.move(action);
    }

    /** @param {StateMessage} st */
    async function startView(st) {
        const mine = ++generation;
        viewLoading = true;
        const name = gameName(st.game);
        const game = info?.games.find((g) => g.name === name);
        /** @type {GameContext} */
        const ctx = {
            seat: st.seat,
            players: st.seats.length,
            names: SEAT_NAMES.slice(0, st.seats.length),
            colours: SEAT_COLOURS.slice(0, st.seats.length),
            pieces: game?.pieces ?? null,
            play,
        };
        const loaded = await loadGameView(board, name, ctx, () => {
            hasView = false;
            actions.setOpen(true);
        });
        if (mine !== generation) {   // a newer view was asked for meanwhile
            loaded.view.destroy();
            return;
        }
        view = loaded.view;
        if (!hasView) actions.setOpen(!loaded.real);
        hasView = loaded.real;
        viewLoading = false;
        const show = shownInstead ?? state;
        if (show) view.update(show);
    }

    /**
     * Draws a replayed position on the board (m null: the latest state
     * again).  A view follows a game change by change (a Cardcassonne round's
     * scoring, the newest tiles), so after a jump it is made anew.
     * @param {import("../types.js").ReplayMessage | null} m
     * @param {import("../types.js").LastAction[]} last
     * @param {boolean} consecutive whether m follows the position shown
     */
    function showAt(m, last, consecutive) {
        shownInstead = m ? {...m, type: "state", last, legal: undefined, undo: false} : null;
        board.classList.toggle("replaying", m !== null);
        const show = shownInstead ?? state;
        if (!show) return;
        if (!consecutive || !view) {
            view?.destroy();
            view = null;
            startView(show);
        } else if (!viewLoading) {
            view.update(show);
        }
    }

    /** @param {StateMessage} st */
    function onState(st) {
        if (st.table !== table) return;
        const first = state === null;
        if (state && st.seq > state.seq) setBusy(false);
        state = st;
        if (needHistory) {
            needHistory = false;
            log.reset();
            conn.send({type: "history"});
        }
        if (first) {
            gameLabel.textContent = st.game;
            useGame(gameName(st.game));
            if (token && st.seat !== null) rememberToken(table, st.seat, token);
            startView(st);
        }
        root.dataset.seq = String(st.seq);
        root.dataset.status = st.status;
        root.dataset.actions = String(st.actions);
        who.textContent = st.seat === null ? "watching" : `you are ${seatName(st.seat)}`;
        document.title = `${turnText(st)} — ${gameName(st.game)} — tafel`;
        header.update(st);
        log.onState(st);
        actions.update(st, hasView);
        actions.el.hidden = st.seat === null || st.status === "over";   // nothing to play, ever
        hint.update(st);
        controls.update(st);
        playPanel.hidden = controls.el.hidden && hint.el.hidden;
        plot.update(st);
        replay.update(st);
        if (view && !viewLoading && !shownInstead) view.update(st);
    }

    conn.onMessage((m) => {
        switch (m.type) {
        case "state": onState(m); break;
        case "history": log.onHistory(m); plot.onHistory(m); break;
        case "replay": replay.onReplay(m); break;
        case "hint": hint.onHint(m); break;
        case "ack": setBusy(false); break;
        case "error":
            setBusy(false);
            if (m.code === "no_table") {
                noTable("There is no such table.");
            } else if (m.code === "token" && !state) {
                noTable("This link's token is no seat's of this table.");
            } else {
                showNotice(ERROR_WORDS[m.code] ?? `Refused (${m.code}): ${m.message}`);
            }
            break;
        }
    });
    conn.onStatus((s) => {
        if (s.state === "open") needHistory = true;   // the join follows; then the history
        else if (busy) setBusy(false);
    });

    /** @param {string} why */
    function noTable(why) {
        conn.close();
        root.replaceChildren(
            h("header", {class: "top"}, title),
            h("main", {class: "table-page"},
                h("p", {class: "error", text: why}),
                token ? h("p", {}, h("a", {href: `/t/${table}`, text: "Watch this table instead"})) : null,
                h("p", {}, h("a", {href: "/", text: "To the lobby"}))));
    }

    conn.join(table, token);
}
