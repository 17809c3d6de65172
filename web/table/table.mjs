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
//
// States are drawn through the pacer (pacer.mjs): another seat's move stays
// in view for the chosen time before the next is drawn.  Everything the
// page shows, #app's data-seq / data-status / data-actions and `busy`
// included, is of the state drawn; requests go only when it is the latest.
// Every word comes from the catalog (page.* keys).
//
// A table on this device (local/, `?local=<table>`) is drawn by the same
// code: its connection is the engine's worker, which sends the server's
// messages.  It has no chat, rematch or hand-over; its record comes from the
// worker; and when people share the screen, the worker says `pass` whenever
// another person is to play: the page first sits as a spectator (so nothing
// of the last seat's hand stays on the screen), covers the board, and
// joins the next seat's token once that person says they hold the device.

import {h} from "./dom.mjs";
import {seatNamesOf, SEAT_COLOURS} from "./seats.mjs";
import {createChat} from "./chat.mjs";
import {createRematch} from "./rematch.mjs";
import {createInvitation} from "./invitation.mjs";
import {connectionBadge} from "./status.mjs";
import {createHeader, turnText} from "./header.mjs";
import {createLog} from "./log.mjs";
import {createActions} from "./actions.mjs";
import {createHint} from "./hint.mjs";
import {createControls} from "./controls.mjs";
import {createPlot} from "./plot.mjs";
import {createReplay} from "./replay.mjs";
import {loadGameView} from "./gameview.mjs";
import {createPacer} from "./pacer.mjs";
import {createSettings, readSettings, SPEEDS} from "./settings.mjs";
import {createTurnSignal, wakeAudio} from "./turn-signal.mjs";
import {createClock} from "./clock.mjs";
import {createTurnAlerts} from "./turn-alerts.mjs";
import {createRules} from "./rules.mjs";
import {gameTitle} from "./game-title.mjs";
import {rememberToken} from "../lobby/tokens.mjs";
import {gameName} from "../lobby/params.mjs";
import {useGame, t, catalog} from "../words/catalog.mjs";
import {languageSwitch} from "../words/language.mjs";
import {accountBar} from "../account/bar.mjs";
import {lobbyHref} from "../net/site.mjs";
import {createPassCover} from "./pass-cover.mjs";
import {createGuide} from "../guide/guide.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("../types.js").GameView} GameView */
/** @typedef {import("../types.js").GameContext} GameContext */
/** @typedef {import("../net/connection.mjs").Connection} Connection */
/** @typedef {import("../local/connection.mjs").LocalConnection} LocalConnection */

/** The error codes a player is told in words (page.error.<code>); others by their code. */
const ERROR_WORDS = ["stale", "not_your_turn", "over", "not_seated"];
/** A join refused (social): the page says why instead of the table. */
const SEAT_REFUSALS = ["seat_taken", "private_table", "rated_accounts_only", "already_seated"];

/**
 * @param {HTMLElement} root
 * @param {Connection | LocalConnection} conn
 * @param {GamesInfo | null} info
 * @param {string} table
 * @param {string | null} token
 * @param {LocalConnection | null} [local] the same connection, for a table on this device
 * @param {string | null} [guided] the game whose guided first game this table is (guide/)
 */
export function showTable(root, conn, info, table, token, local = null, guided = null) {
    /** @type {StateMessage | null} the state shown */
    let state = null;
    /** @type {GameView | null} */
    let view = null;
    let viewLoading = false;
    let hasView = false;
    let busy = false;
    let needHistory = true;
    /** The next state is the first after a join: drawn at once. */
    let joining = true;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let noticeTimer = null;
    const settings = readSettings();

    const title = h("h1", {}, h("a", {href: lobbyHref(), text: "tafel", title: t("page.to_lobby")}));
    const gameLabel = h("span", {class: "game-name"});
    const who = h("span", {class: "who-am-i"});
    const notice = h("p", {class: "notice", role: "alert", hidden: true});
    const header = createHeader(!!local);
    const board = h("div", {class: "board", id: "board"});
    const guide = local && guided ? createGuide(guided, table, board) : null;
    const log = createLog(() => { conn.send({type: "history"}); }, settings,
                          (events) => view?.light?.(events),
                          (events) => view?.picture?.(events) ?? null);
    const actions = createActions(play);
    actions.showNotation(settings.notation);
    const hint = createHint({
        ask: () => conn.send({type: "hint"}),
        play,
        show: (action) => view?.hint?.(action),
        settings,
    });
    const controls = createControls((type, extra) => {
        if (busy || !state || pacer.pending()) return;
        setBusy(conn.request(type, extra));
    }, local ? [] : info?.bots ?? []);
    const plot = createPlot();
    const chat = createChat((text) => conn.send({type: "chat", text}));
    const rematch = createRematch((decline) => conn.send(decline ? {type: "rematch", decline} : {type: "rematch"}),
                                  table, token, (seat) => names[seat] ?? "");
    const invitation = createInvitation((accept) => conn.send({type: accept ? "accept" : "decline", table}));
    /** The seats' names the game views read (ctx.names), kept up to date in place. @type {string[]} */
    const names = [];
    const clock = createClock(() => {
        if (busy || !state || pacer.pending()) return;
        setBusy(conn.request("claim"));
    });
    const playPanel = h("div", {class: "panel play-panel"}, controls.el, hint.el);
    const replay = createReplay(table, {
        logEntries: log.entries,
        ask: (actions) => conn.send({type: "replay", actions}),
        showAt,
        onStep: plot.mark,
        ...(local ? {record: () => local.exportRecord(table)} : {}),
    });
    const cover = createPassCover((seat) => {
        joining = true;
        conn.join(table, String(seat));
    });
    if (local) {
        chat.el.hidden = true;
        rematch.el.hidden = true;
    }
    const pacer = createPacer(onState, () => SPEEDS[settings.botSpeed]);
    const alerts = createTurnAlerts(settings);
    const signal = createTurnSignal(settings,
        () => { if (state) alerts.ownTurn(gameTitle(gameName(state.game))); });
    const menu = createSettings(settings, (what) => {
        if (what === "botSpeed") pacer.changed();
        if (what === "notation") {
            log.showNotation(settings.notation);
            hint.showNotation(settings.notation);
            actions.showNotation(settings.notation);
        }
        if (what === "sound" && settings.sound) wakeAudio();
    }, [alerts.button]);
    // a sound needs a gesture first: the first click or key of the page
    for (const kind of ["pointerdown", "keydown"]) {
        document.addEventListener(kind, () => { if (settings.sound) wakeAudio(); }, {once: true});
    }
    const rulesSlot = h("span", {class: "rules-slot"});
    const language = languageSwitch(catalog().lang);
    /** What the board shows instead of the latest state (a replayed step), or null. */
    /** @type {StateMessage | null} */
    let shownInstead = null;
    /** Counts the views made, so a slow load never draws over a newer one. */
    let generation = 0;

    root.replaceChildren(
        h("a", {class: "skip", href: "#side", text: t("page.skip")}),
        h("header", {class: "top"}, title, gameLabel, who,
          local ? null : connectionBadge(/** @type {Connection} */ (conn)),
          h("span", {class: "top-tools"}, accountBar(), rulesSlot, language, menu.el)),
        cover.el,
        h("main", {class: "table-page"},
            header.el,
            guide?.el,
            clock.el,
            invitation.el,
            alerts.line,
            notice,
            h("div", {class: "layout"},
                h("section", {class: "board-area", "aria-label": t("page.board.label")}, board),
                h("aside", {class: "side", id: "side", tabindex: "-1"},
                    playPanel,
                    rematch.el,
                    actions.el,
                    plot.el,
                    replay.el,
                    log.el,
                    chat.el))));

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

    /** Sends a move: only a text of the `legal` of the latest state, shown. @param {string} action */
    function play(action) {
        if (!state?.legal?.includes(action) || pacer.pending()) {
            showNotice(t("page.error.not_legal", {move: action}));
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
            names,
            colours: SEAT_COLOURS.slice(0, st.seats.length),
            pieces: game?.pieces ?? null,
            play,
            settings,
        };
        menu.forGame(name);
        const loaded = await loadGameView(board, name, ctx, () => {
            hasView = false;
            actions.setOpen(true);
        });
        if (mine !== generation) {   // a newer view was asked for meanwhile
            loaded.view.destroy();
            return;
        }
        view = loaded.view;
        log.redraw();   // with the pictures the view draws
        actions.setWords(loaded.view.words ?? null);
        if (!hasView) actions.setOpen(!loaded.real);
        hasView = loaded.real;
        viewLoading = false;
        const show = shownInstead ?? state;
        if (show) view.update(show);
        if (!shownInstead) hint.redraw();
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

    /** Draws a state: the one the page shows from now on. @param {StateMessage} st */
    function onState(st) {
        const first = state === null;
        if (state && st.seat !== state.seat) seatChanged(st);
        if (state && st.seq > state.seq) setBusy(false);
        state = st;
        names.splice(0, names.length, ...seatNamesOf(st.seats));
        // people sharing this device, the page (re)opened: whoever is to play takes it first
        if (local && st.seat === null && st.status === "playing" && typeof st.to_move === "number"
            && st.seats[st.to_move]?.kind === "human" && st.seats.filter((x) => x.kind === "human").length > 1
            && !cover.shown()) {
            cover.show(st.to_move, names[st.to_move] ?? "");
        }
        chat.update(st);
        rematch.update(st);
        invitation.update(st);
        if (needHistory) {
            needHistory = false;
            log.reset();
            conn.send({type: "history"});
        }
        const name = gameName(st.game);
        if (first) {
            useGame(name);
            gameLabel.textContent = gameTitle(name);
            gameLabel.title = t("page.game_string", {game: st.game});
            const game = info?.games.find((g) => g.name === name);
            rulesSlot.replaceChildren(...(() => {
                const rules = createRules(name, game?.pieces ?? null);
                return [rules.button, rules.dialog];
            })());
            if (token && st.seat !== null) rememberToken(table, st.seat, token);
            startView(st);
        }
        root.dataset.seq = String(st.seq);
        root.dataset.status = st.status;
        root.dataset.actions = String(st.actions);
        root.dataset.seat = st.seat === null ? "" : String(st.seat);
        root.dataset.scores = JSON.stringify(st.scores ?? []);
        who.textContent = st.seat === null ? t("page.who.watching") : t("page.who.seat", {seat: st.seat});
        const turn = turnText(st);
        signal.update(st, gameTitle(name), turn);
        header.update(st);
        clock.update(st);
        log.onState(st);
        actions.update(st, hasView);
        actions.el.hidden = st.seat === null || st.status === "over";   // nothing to play, ever
        hint.update(st);
        controls.update(st);
        playPanel.hidden = controls.el.hidden && hint.el.hidden;
        plot.update(st);
        replay.update(st);
        if (view && !viewLoading && !shownInstead) view.update(st);
        guide?.update(st);
    }

    conn.onMessage((m) => {
        switch (m.type) {
        case "state":
            if (m.table !== table) break;
            pacer.push(m, joining);
            joining = false;
            break;
        case "history": log.onHistory(m); plot.onHistory(m); break;
        case "replay": replay.onReplay(m); break;
        case "hint": hint.onHint(m); break;
        case "chat": chat.onChat(m); break;
        case "rematch": rematch.onRematch(m); break;
        case "rematch_ended": rematch.onEnded(m); break;
        case "pass":
            if (m.table !== table) break;
            if (state?.seat !== null) {
                joining = true;
                conn.join(table, null);   // the last seat's hand leaves the screen first
            }
            cover.show(m.seat, names[m.seat] ?? "");
            break;
        case "turn": alerts.onTurn(m); break;
        case "ack": setBusy(false); break;
        case "error":
            setBusy(false);
            if (m.code === "no_table") {
                noTable(t("page.error.no_table"));
            } else if (m.code === "token" && !state) {
                noTable(t("page.error.token"));
            } else if (SEAT_REFUSALS.includes(m.code) && !state) {
                noTable(t(`social.error.${m.code}`));
            } else if (!chat.onError(m.code)) {   // a refused chat line is said in the chat
                if (["not_over", "quota", "no_offer", "server_full", "storage"].includes(m.code)) rematch.refused();
                showNotice(ERROR_WORDS.includes(m.code) ? t(`page.error.${m.code}`)
                    : t("page.error.other", {code: m.code}));
            }
            break;
        }
    });
    conn.onStatus((s) => {
        if (s.state === "open") {
            needHistory = true;   // the join follows; then the history
            joining = true;
            chat.reset();         // and the chat's latest lines
        } else if (busy) setBusy(false);
    });

    /**
     * The page now sits in another seat (people sharing a screen): what it
     * showed of the last seat goes -- the board is made anew for the new
     * seat, and the log and hint are asked again as that seat sees them.
     * @param {StateMessage} st
     */
    function seatChanged(st) {
        // a notice may name the last seat's own card ("play G2 1 is not legal now")
        if (noticeTimer) clearTimeout(noticeTimer);
        notice.hidden = true;
        notice.textContent = "";
        view?.destroy();
        view = null;
        board.replaceChildren();
        needHistory = true;
        hint.reset();
        startView(st);
        if (st.seat !== null) cover.hide();
    }

    /** @param {string} why */
    function noTable(why) {
        conn.close();
        root.replaceChildren(
            h("header", {class: "top"}, title, h("span", {class: "top-tools"}, language)),
            h("main", {class: "table-page"},
                h("p", {class: "error", text: why}),
                token ? h("p", {}, h("a", {href: `/t/${table}`, text: t("page.error.watch_instead")})) : null,
                h("p", {}, h("a", {href: lobbyHref(), text: t("page.error.to_lobby")}))));
    }

    conn.join(table, token);
}
