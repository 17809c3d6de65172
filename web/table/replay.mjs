// replay.mjs -- a finished game, move by move, on the board.
//
// The move list is the table's record (GET /t/<table>/record: every
// action's true text, hidden cards included, allowed once the game is
// over), each with its seat from the history.  Each step asks the server
// for the position after that many actions (`{"type":"replay","actions":N}`,
// docs/protocol.md): its answer has the fields of a `state` message, as
// this seat saw the game then, and the table hands it to the game view
// (showAt).  Only the answer for the step shown now is drawn, so dragging
// the slider never draws an old step last.  Closing the replay, or the
// last step, gives the board back the final position.  Each step is told
// in words from the account this seat was given (the log's), the record's
// notation in its tooltip.

import {h} from "./dom.mjs";
import {downloadJson} from "./download.mjs";
import {logLine} from "./log.mjs";
import {scoreList} from "./plot.mjs";
import {sentencesOf} from "../words/tell.mjs";
import {t} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").ReplayMessage} ReplayMessage */
/** @typedef {import("../types.js").LastAction} LastAction */
/** @typedef {import("../types.js").GameRecord} GameRecord */
/** @typedef {import("../words/tell.mjs").Told} Told */

const PLAY_EVERY = 700;   // ms a step when playing

/**
 * @param {string} table
 * @param {{
 *   logEntries: () => Told[],
 *   ask: (actions: number) => boolean,
 *   showAt: (m: ReplayMessage | null, last: LastAction[], consecutive: boolean) => void,
 *   onStep: (actions: number) => void,
 *   record?: () => Promise<GameRecord>
 * }} io  logEntries: the log as this seat saw it (for the seats); ask: sends
 *   `replay` (false when not connected); showAt: draws a position on the
 *   board (null: the final one again); onStep: marks the step on the plot;
 *   record: the finished game's record (by default GET /t/<table>/record;
 *   a table on this device has it from its worker)
 */
export function createReplay(table, io) {
    /** @type {Told[]} */
    let moves = [];
    /** @type {Told[]} */
    let seen = [];
    /** @type {string[]} each step in words */
    let said = [];
    let step = 0;
    /** the step whose position the board shows (-1: the final one, live) */
    let shown = -1;
    /** @type {ReturnType<typeof setInterval> | null} */
    let timer = null;
    let loaded = false;

    const load = h("button", {type: "button", class: "replay-open", text: t("page.replay.open"),
                              onclick: () => start()});
    const body = h("div", {class: "replay-body", hidden: true});
    const status = h("p", {class: "small replay-status", "aria-live": "polite"});
    const el = h("section", {class: "panel replay-panel", hidden: true, "aria-labelledby": "replay-title"},
        h("h2", {id: "replay-title", text: t("page.replay.title")}),
        h("p", {class: "small"}, load, " ",
          recordLink()),
        body);

    const slider = h("input", {type: "range", min: "0", max: "0", value: "0", "aria-label": t("page.replay.step"),
                               oninput: () => go(Number(slider.value))});
    const playBtn = h("button", {type: "button", text: `▶ ${t("page.replay.play")}`, "aria-label": t("page.replay.play"),
                                 onclick: () => toggle()});
    const list = h("ol", {class: "log replay-log", "aria-label": t("page.replay.moves")});

    /** @param {string} label @param {string} aria @param {() => void} fn */
    const btn = (label, aria, fn) => h("button", {type: "button", text: label, "aria-label": aria, onclick: fn});
    body.append(
        h("div", {class: "button-row replay-buttons"},
            btn("«", t("page.replay.first"), () => go(0)),
            btn("◀", t("page.replay.back"), () => go(step - 1)),
            playBtn,
            btn("▶|", t("page.replay.on"), () => go(step + 1)),
            btn("»", t("page.replay.last"), () => go(moves.length))),
        slider, status,
        h("p", {class: "muted small", text: t("page.replay.help")}),
        list);

    body.addEventListener("keydown", (e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (target === slider) return;   // the slider moves itself
        if (e.key === "ArrowRight") go(step + 1);
        else if (e.key === "ArrowLeft") go(step - 1);
        else if (e.key === "Home") go(0);
        else if (e.key === "End") go(moves.length);
        else if (e.key === " " && target.tagName !== "BUTTON") toggle();
        else return;
        e.preventDefault();
        e.stopPropagation();   // the board's own keys must not move it too
    });

    /** The record's link: the server's, or (a table on this device) one
    ** that saves the record the device holds. */
    function recordLink() {
        const name = `tafel-${table}.json`;
        const record = io.record;
        if (!record) return h("a", {href: `/t/${table}/record`, download: name, text: t("page.replay.record")});
        return h("a", {href: "#", class: "replay-record", text: t("page.replay.record"),
                       onclick: (/** @type {Event} */ e) => {
                           e.preventDefault();
                           record().then((r) => downloadJson(r, name),
                                         (err) => { status.textContent = String(err?.message ?? err); });
                       }});
    }

    /** @returns {Promise<GameRecord>} */
    async function fetchRecord() {
        const r = await fetch(`/t/${table}/record`);
        if (!r.ok) throw new Error(r.status === 403 ? t("page.replay.not_over") : t("page.replay.http", {status: r.status}));
        return await r.json();
    }

    async function start() {
        if (loaded) {
            body.hidden = !body.hidden;
            if (body.hidden) leave();
            else go(step);
            return;
        }
        load.disabled = true;
        status.textContent = t("page.replay.loading");
        body.hidden = false;
        try {
            const rec = io.record ? await io.record() : await fetchRecord();
            seen = io.logEntries().slice();
            const complete = seen.length === rec.actions.length;
            moves = rec.actions.map((text, i) => ({n: i + 1, seat: complete ? seen[i].seat : "chance", text,
                                                   events: complete ? seen[i].events : null}));
            said = moves.map((a) => sentencesOf(a).join(" "));
            list.replaceChildren(...moves.map((a, i) => {
                const li = logLine({first: a.n, last: a.n, seat: a.seat, sentences: [said[i]],
                                    notation: [a.text], events: a.events ?? []});
                li.tabIndex = -1;
                li.addEventListener("click", () => go(i + 1));
                return li;
            }));
            slider.max = String(moves.length);
            loaded = true;
            load.textContent = t("page.replay.toggle");
            go(0);
            if (!complete) status.textContent += " " + t("page.replay.incomplete");
        } catch (err) {
            status.textContent = t("page.replay.failed", {why: err instanceof Error ? err.message : String(err)});
        } finally {
            load.disabled = false;
        }
    }

    /** Goes to the position after `k` actions. @param {number} k */
    function go(k) {
        step = Math.max(0, Math.min(moves.length, k));
        slider.value = String(step);
        list.querySelector("[aria-current]")?.removeAttribute("aria-current");
        const cur = step > 0 ? /** @type {HTMLElement | undefined} */ (list.children[step - 1]) : undefined;
        if (cur) {
            cur.setAttribute("aria-current", "step");
            const top = cur.offsetTop - list.offsetTop;
            if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight) {
                list.scrollTop = top - list.clientHeight / 2;
            }
        } else list.scrollTop = 0;
        describe(null);
        io.onStep(step);
        if (step >= moves.length) {
            stop();
            showFinal();
        } else if (!io.ask(step)) {
            status.textContent += " " + t("page.replay.offline");
        }
    }

    /** The status line of the step; scores when the position is known. @param {number[] | null} scores */
    function describe(scores) {
        const fields = {step, total: moves.length, move: said[step - 1] ?? ""};
        status.textContent = t(step > 0 ? "page.replay.at_move" : "page.replay.at_start", fields) +
            (scores ? ` · ${t("page.replay.scores", {scores: scoreList(scores)})}` : "");
        status.dataset.step = String(step);
    }

    function showFinal() {
        const consecutive = shown === moves.length - 1;
        if (shown !== -1) io.showAt(null, [], consecutive);
        shown = -1;
        describe(null);
    }

    /** The server's position for a step. @param {ReplayMessage} m */
    function onReplay(m) {
        if (!loaded || body.hidden || m.actions !== step || step >= moves.length) return;   // an old step
        // the action that led here, as this seat saw it (the log), so the
        // board can mark it; none at the start or after a jump
        const consecutive = shown >= 0 ? m.actions === shown + 1 : m.actions === 0;
        const last = consecutive && m.actions > 0 && seen[m.actions - 1] ? [seen[m.actions - 1]] : [];
        shown = m.actions;
        io.showAt(m, last, consecutive);
        describe(m.scores);
    }

    function toggle() {
        if (timer) stop();
        else {
            if (step >= moves.length) go(0);
            timer = setInterval(() => go(step + 1), PLAY_EVERY);
            playBtn.textContent = `⏸ ${t("page.replay.pause")}`;
            playBtn.setAttribute("aria-label", t("page.replay.pause"));
        }
    }

    function stop() {
        if (timer) clearInterval(timer);
        timer = null;
        playBtn.textContent = `▶ ${t("page.replay.play")}`;
        playBtn.setAttribute("aria-label", t("page.replay.play"));
    }

    /** Closes the replay: the board shows the final position again. */
    function leave() {
        stop();
        io.onStep(-1);
        if (shown !== -1) io.showAt(null, [], false);
        shown = -1;
    }

    /** Whether the board shows a replayed position (not the live one). */
    function active() {
        return shown !== -1;
    }

    /** @param {StateMessage} st */
    function update(st) {
        el.hidden = st.status !== "over";
    }

    return {el, update, onReplay, active, destroy: stop};
}
