// replay.mjs -- a finished game, move by move.
//
// The server gives a finished table's record (GET /t/<table>/record: the
// game, the seed and every action's true text, hidden cards included) and
// the view of the final position only.  The page has no engine, so it
// cannot rebuild the board at step k: this replay walks the move log (the
// record's texts, each with its seat from the history), with the scores at
// each step where this browser recorded them, and marks the step on the
// score plot.  The board shows the final position.
//
// A replay of the board needs, from the server, the view at step k: e.g.
// `GET /t/<table>/view?actions=k` (the engine's view for everyone of the
// record replayed to k actions, allowed once the game is over), or the
// scores and views of every step in one answer.

import {h} from "./dom.mjs";
import {logLine} from "./log.mjs";
import {seatName} from "./seats.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").LastAction} LastAction */
/** @typedef {import("../types.js").GameRecord} GameRecord */

const PLAY_EVERY = 700;   // ms a step when playing

/**
 * @param {string} table
 * @param {() => LastAction[]} logEntries the log as this seat saw it (for the seats)
 * @param {(actions: number) => number[] | null} scoresAt
 * @param {(actions: number) => void} onStep
 */
export function createReplay(table, logEntries, scoresAt, onStep) {
    /** @type {LastAction[]} */
    let moves = [];
    let step = 0;
    /** @type {ReturnType<typeof setInterval> | null} */
    let timer = null;
    let loaded = false;

    const load = h("button", {type: "button", text: "Replay move by move", onclick: () => start()});
    const body = h("div", {class: "replay-body", hidden: true});
    const status = h("p", {class: "small", "aria-live": "polite"});
    const el = h("section", {class: "panel replay-panel", hidden: true, "aria-labelledby": "replay-title"},
        h("h2", {id: "replay-title", text: "Replay"}),
        h("p", {class: "small"}, load, " ",
          h("a", {href: `/t/${table}/record`, download: `tafel-${table}.json`,
                  text: "the record (for tafel replay)"})),
        body);

    const slider = h("input", {type: "range", min: "0", max: "0", value: "0", "aria-label": "Step",
                               oninput: () => go(Number(slider.value))});
    const playBtn = h("button", {type: "button", text: "▶ play", "aria-label": "play",
                                 onclick: () => toggle()});
    const list = h("ol", {class: "log replay-log", "aria-label": "Moves of the replay"});

    /** @param {string} label @param {string} aria @param {() => void} fn */
    const btn = (label, aria, fn) => h("button", {type: "button", text: label, "aria-label": aria, onclick: fn});
    body.append(
        h("div", {class: "button-row replay-buttons"},
            btn("«", "first", () => go(0)),
            btn("◀", "back one", () => go(step - 1)),
            playBtn,
            btn("▶|", "on one", () => go(step + 1)),
            btn("»", "last", () => go(moves.length))),
        slider, status,
        h("p", {class: "muted small",
                text: "The board shows the final position: the server sends no earlier views. Keys: ← → Home End, Space plays."}),
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

    async function start() {
        if (loaded) {
            body.hidden = !body.hidden;
            return;
        }
        load.disabled = true;
        status.textContent = "Loading the record…";
        body.hidden = false;
        try {
            const r = await fetch(`/t/${table}/record`);
            if (!r.ok) throw new Error(r.status === 403 ? "the game is not over" : `HTTP ${r.status}`);
            /** @type {GameRecord} */
            const rec = await r.json();
            const seen = logEntries();
            moves = rec.actions.map((text, i) => ({
                seat: seen.length === rec.actions.length ? seen[i].seat : "chance",
                text,
            }));
            if (seen.length !== rec.actions.length) {
                status.textContent = "(the seats of the moves are unknown: the log is incomplete)";
            }
            list.replaceChildren(...moves.map((a, i) => {
                const li = logLine(a, i);
                li.tabIndex = -1;
                li.addEventListener("click", () => go(i + 1));
                return li;
            }));
            slider.max = String(moves.length);
            loaded = true;
            load.textContent = "Show / hide the replay";
            go(0);
        } catch (err) {
            status.textContent = `Could not read the record: ${err instanceof Error ? err.message : err}`;
        } finally {
            load.disabled = false;
        }
    }

    /** Shows the position after `k` actions. @param {number} k */
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
        const a = moves[step - 1];
        const scores = scoresAt(step);
        const who = a ? (typeof a.seat === "number" ? `${seatName(a.seat)}: ` : "chance: ") : "";
        status.textContent = `Step ${step} of ${moves.length}` + (a ? ` — ${who}${a.text}` : " — the start") +
            (scores ? ` · scores ${scores.map((v, i) => `${seatName(i)} ${v}`).join(", ")}` : "");
        onStep(step);
        if (step >= moves.length) stop();
    }

    function toggle() {
        if (timer) stop();
        else {
            if (step >= moves.length) go(0);
            timer = setInterval(() => go(step + 1), PLAY_EVERY);
            playBtn.textContent = "⏸ pause";
            playBtn.setAttribute("aria-label", "pause");
        }
    }

    function stop() {
        if (timer) clearInterval(timer);
        timer = null;
        playBtn.textContent = "▶ play";
        playBtn.setAttribute("aria-label", "play");
    }

    /** @param {StateMessage} st */
    function update(st) {
        el.hidden = st.status !== "over";
    }

    return {el, update, destroy: stop};
}
