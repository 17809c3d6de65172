// log.mjs -- the move log, in the engine's words.
//
// On join the page asks for `history` (every action so far, as this seat
// may see them); after that each `state` carries `last`, the actions of the
// latest change, and `actions`, the length of the record.  So the log is
// always `actions` long: it is cut to `actions - last.length` (an undo cuts
// it, with `last` empty) and `last` is appended.  When that would leave a
// gap (a change was missed), the log asks for the history again.

import {h} from "./dom.mjs";
import {seatName, swatch} from "./seats.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").HistoryMessage} HistoryMessage */
/** @typedef {import("../types.js").LastAction} LastAction */

/**
 * One log line.
 * @param {LastAction} a
 * @param {number} i its index in the record
 */
export function logLine(a, i) {
    const who = typeof a.seat === "number"
        ? [swatch(a.seat), h("span", {class: "who", text: seatName(a.seat)})]
        : [h("span", {class: "who chance", text: "chance"})];
    return h("li", {class: typeof a.seat === "number" ? "" : "chance", value: i + 1},
        ...who, " ", h("span", {class: "act", text: a.text}));
}

/** @param {() => void} askHistory */
export function createLog(askHistory) {
    /** @type {LastAction[]} */
    let entries = [];
    let known = false;
    let latestSeq = -1;
    let hideChance = false;
    const list = h("ol", {class: "log", tabindex: "0", "aria-label": "Move log"});
    const count = h("span", {class: "muted small"});
    const toggle = h("input", {type: "checkbox", onchange: () => {
        hideChance = toggle.checked;
        list.classList.toggle("hide-chance", hideChance);
    }});
    const el = h("section", {class: "panel log-panel", "aria-labelledby": "log-title"},
        h("div", {class: "panel-head"},
            h("h2", {id: "log-title", text: "Moves"}), count,
            h("label", {class: "small"}, toggle, " hide chance")),
        list);

    /** Redraws the lines from index `from` on. @param {number} from */
    function draw(from) {
        const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
        while (list.children.length > from) list.lastElementChild?.remove();
        const frag = document.createDocumentFragment();
        for (let i = list.children.length; i < entries.length; i++) frag.append(logLine(entries[i], i));
        list.append(frag);
        count.textContent = entries.length === 1 ? "1 action" : `${entries.length} actions`;
        if (atBottom) list.scrollTop = list.scrollHeight;
    }

    /** @param {HistoryMessage} m */
    function onHistory(m) {
        entries = m.actions.slice();
        known = true;
        draw(0);
        list.scrollTop = list.scrollHeight;
        if (latestSeq > m.seq) askHistory();   // a change came meanwhile
    }

    /** @param {StateMessage} st */
    function onState(st) {
        latestSeq = Math.max(latestSeq, st.seq);
        if (!known) return;
        const base = st.actions - st.last.length;
        if (base > entries.length || base < 0) {
            known = false;
            askHistory();
            return;
        }
        const from = Math.min(base, entries.length);
        entries.length = base;
        entries.push(...st.last);
        draw(from);
    }

    /** After a reconnect: the history is asked for again. */
    function reset() {
        known = false;
    }

    return {el, onHistory, onState, reset, entries: () => entries};
}
