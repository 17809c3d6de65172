// log.mjs -- the move log, in words: the engine's accounts told through the
// catalog (words/tell.mjs), one line per seat's action and one per run of
// chance actions.
//
// On join the page asks for `history` (every action so far, as this seat
// may see them, each with its account); after that each `state` carries
// `last`, the notation of the actions of the latest change, `events`, the
// accounts of the actions since this socket's previous state, and
// `actions`, the length of the record.  So the record is always `actions`
// long: it is cut to `actions - last.length` (an undo cuts it, with `last`
// empty) and `last` is appended, each action with its account.  When that
// would leave a gap (a change was missed), the log asks for the history
// again.  The lines are told anew from the record and redrawn from the
// first that changed.
//
// No line is notation: each holds its notation in its tooltip, and shows it
// too when the player asks for it (the "notation" setting).  Where a line's
// move went is said in words; pointing at the line (hover, a tap, or the
// keyboard: the arrows move among the lines) lights that spot on the board,
// through light(events), the game view's (web/README.md).

import {h} from "./dom.mjs";
import {swatch} from "./seats.mjs";
import {tellLines} from "../words/tell.mjs";
import {t, tn} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").HistoryMessage} HistoryMessage */
/** @typedef {import("../types.js").LastAction} LastAction */
/** @typedef {import("../words/tell.mjs").Told} Told */
/** @typedef {import("../words/tell.mjs").LogLine} LogLine */

/**
 * One line of the log (or of the replay's list): who, what happened in
 * words (after a small picture of the piece played, when the game view
 * draws one), and the notation (shown with the notation setting; always in
 * the tooltip).
 * @param {LogLine} line
 * @param {(events: import("../types.js").ActionEvent[]) => Element | null} [picture]
 */
export function logLine(line, picture) {
    const chance = line.seat === "chance";
    const placed = line.events.some(hasPlace);
    // the sentences name the seat: the line shows whose action it is by its colour
    const who = chance ? h("span", {class: "who chance", "aria-hidden": "true", text: "⚄"})
        : swatch(/** @type {number} */ (line.seat));
    const notation = line.notation.join("; ");
    return h("li", {class: (chance ? "chance" : "") + (placed ? " placed" : ""), value: line.first,
                    title: t("page.log.notation_title", {notation}),
                    ...(placed ? {tabindex: "-1"} : {})},
        who, picture?.(line.events) ?? null,
        h("span", {class: "said", text: line.sentences.join(" ")}),
        " ", h("code", {class: "act", text: notation}));
}

/**
 * Whether an event names a place of the board (the fields the board lights:
 * Carcassonne's x, y and segments, the Catan card game's col).
 * @param {import("../types.js").ActionEvent} e
 */
function hasPlace(e) {
    return typeof e.x === "number" || typeof e.col === "number" || Array.isArray(e.segments);
}

/** A line's identity for redrawing: what it shows. @param {LogLine} l */
function lineKey(l) {
    return `${l.first}-${l.last}|${l.seat}|${l.notation.join("\n")}|${l.sentences.join("\n")}`;
}

/**
 * @param {() => void} askHistory
 * @param {{notation: boolean}} settings whether the notation is shown too
 * @param {(events: import("../types.js").ActionEvent[] | null) => void} [light] lights on the
 *   board the spot of a line's events (null: none)
 * @param {(events: import("../types.js").ActionEvent[]) => Element | null} [picture] the piece
 *   a line's events played, drawn small as the board draws it (the game view's)
 */
export function createLog(askHistory, settings, light = () => {}, picture = () => null) {
    /** @type {Told[]} */
    let entries = [];
    /** @type {string[]} the keys of the lines drawn */
    let drawn = [];
    let known = false;
    let latestSeq = -1;
    let shownActions = -1;
    /** @type {number | null | undefined} the seat the lines were told to (undefined: none yet) */
    let viewer;
    const list = h("ol", {class: "log", tabindex: "0", "aria-label": t("page.log.label")});
    /** @type {Element | null} the line whose spot is lit */
    let lit = null;
    /** @param {Element | null} li */
    const lightLine = (li) => {
        if (li === lit) return;
        lit?.classList.remove("lit");
        lit = li;
        li?.classList.add("lit");
        const i = li ? [...list.children].indexOf(li) : -1;
        light(i >= 0 && lines[i] ? lines[i].events : null);
    };
    /** @param {Event} e */
    const lineOf = (e) => e.target instanceof Element ? e.target.closest("li.placed") : null;
    list.addEventListener("mouseover", (e) => lightLine(lineOf(e)));
    list.addEventListener("mouseleave", () => {
        if (!list.contains(document.activeElement)) lightLine(null);
    });
    list.addEventListener("click", (e) => lightLine(lineOf(e)));   // a tap
    list.addEventListener("focusin", (e) => lightLine(lineOf(e)));
    list.addEventListener("focusout", (e) => {
        if (!(e.relatedTarget instanceof Node && list.contains(e.relatedTarget))) lightLine(null);
    });
    list.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
        const placed = [...list.querySelectorAll("li.placed")];
        if (!placed.length) return;
        const at = document.activeElement ? placed.indexOf(document.activeElement) : -1;
        const next = e.key === "ArrowDown" ? (at < 0 ? 0 : Math.min(at + 1, placed.length - 1))
            : (at < 0 ? placed.length - 1 : Math.max(at - 1, 0));
        /** @type {HTMLElement} */ (placed[next]).focus();
        e.preventDefault();
        e.stopPropagation();   // the board's own arrow keys must not move it too
    });
    const count = h("span", {class: "muted small"});
    const toggle = h("input", {type: "checkbox", onchange: () => {
        list.classList.toggle("hide-chance", toggle.checked);
    }});
    const el = h("section", {class: "panel log-panel", "aria-labelledby": "log-title"},
        h("div", {class: "panel-head"},
            h("h2", {id: "log-title", text: t("page.log.title")}), count,
            h("label", {class: "small"}, toggle, " ", t("page.log.hide_chance"))),
        list);
    showNotation(settings.notation);

    /** @type {LogLine[]} the lines told, kept so that a state tells only what it changed */
    let lines = [];

    /**
     * Tells the record again from action index `changed` (0-based) on: the
     * lines before it stay, but for a chance run just before it, which an
     * action from there on may lengthen.
     * @param {number} changed
     */
    function draw(changed) {
        const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
        let k = 0;
        while (k < lines.length && lines[k].last <= changed) k++;
        if (k > 0 && lines[k - 1].seat === "chance") k--;
        const start = k < lines.length ? lines[k].first - 1 : Math.min(changed, entries.length);
        lines = lines.slice(0, k).concat(tellLines(entries.slice(start)));
        const keys = drawn.slice(0, k).concat(lines.slice(k).map(lineKey));
        let from = 0;
        while (from < keys.length && from < drawn.length && keys[from] === drawn[from]) from++;
        while (list.children.length > from) list.lastElementChild?.remove();
        if (lit && !lit.isConnected) lightLine(null);
        const frag = document.createDocumentFragment();
        for (let i = from; i < lines.length; i++) frag.append(logLine(lines[i], picture));
        list.append(frag);
        drawn = keys;
        count.textContent = tn("page.log.count", entries.length);
        if (atBottom) list.scrollTop = list.scrollHeight;
    }

    /** @param {HistoryMessage} m */
    function onHistory(m) {
        // no further than the state shown: the states still to be shown bring the rest
        const upTo = shownActions >= 0 ? Math.min(shownActions, m.actions.length) : m.actions.length;
        entries = m.actions.slice(0, upTo).map((a, i) => ({n: i + 1, seat: a.seat, text: a.text,
                                                          events: a.events ?? null}));
        known = true;
        lines = [];
        draw(0);
        list.scrollTop = list.scrollHeight;
        if (latestSeq > m.seq) askHistory();   // a change came meanwhile
    }

    /** @param {StateMessage} st */
    function onState(st) {
        latestSeq = Math.max(latestSeq, st.seq);
        shownActions = st.actions;
        if (viewer !== undefined && st.seat !== viewer) {
            // another seat's eyes now (a device passed on, a seat taken): the lines
            // told to the one before may hold its hidden cards, so they go at once
            entries = [];
            known = false;
            draw(0);
            askHistory();
        }
        viewer = st.seat;
        if (!known) return;
        const base = st.actions - st.last.length;
        if (base > entries.length || base < 0) {
            known = false;
            askHistory();
            return;
        }
        /** @type {Map<number, import("../types.js").ActionEvent[]>} */
        const told = new Map((st.events ?? []).map((a) => [a.n, a.events]));
        const kept = entries.slice(base);
        entries.length = base;
        st.last.forEach((a, i) => {
            const n = base + i + 1;
            // an action told before (a state with nothing new repeats `last`) keeps its account
            const before = kept[i] && kept[i].text === a.text ? kept[i].events : null;
            entries.push({n, seat: a.seat, text: a.text, events: told.get(n) ?? before});
        });
        draw(base);
    }

    /** After a reconnect: the history is asked for again. */
    function reset() {
        known = false;
    }

    /** Shows or hides the notation of each line. @param {boolean} on */
    function showNotation(on) {
        list.classList.toggle("show-notation", on);
    }

    /** Draws every line again (the game view that draws their pictures has come). */
    function redraw() {
        drawn = [];
        list.replaceChildren();
        draw(entries.length);
    }

    return {el, onHistory, onState, reset, showNotation, redraw, entries: () => entries};
}
