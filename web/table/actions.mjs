// actions.mjs -- every legal action as a button, grouped by its first word
// ("place", "follower", "pass"...), built only from `state.legal`.
//
// It is always there, so any action is reachable even where a game view
// has no control for it; when a game view exists it starts folded.  A
// filter field narrows the list as one types; Enter in it plays the action
// when one is left (or the text is exactly a legal action); the arrow keys
// move between buttons.  A group is named in words (<game>.action.<verb>)
// where the catalog has a name for it; each button says its action in
// words where the game's view can (its `words`), with the engine's notation
// beside it when the notation setting is on (and always where it cannot).
// The filter finds an action by its words or its notation.

import {h} from "./dom.mjs";
import {t, catalog} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */

const GROUP_OPEN_LIMIT = 40;   // groups this small start unfolded

/**
 * A group's name: the verb in words where the game's catalog names it.
 * @param {string} verb
 */
function groupName(verb) {
    const key = `${catalog().game}.action.${verb}`;
    return catalog().game && catalog().has(key) ? t(key) : verb;
}

/** @param {(action: string) => void} play */
export function createActions(play) {
    /** @type {string[]} */
    let legal = [];
    /** The game view's words for an action (null: it has none). @type {((action: string) => string | null) | null} */
    let words = null;
    /** @param {string} a */
    const said = (a) => words?.(a) ?? null;
    /** Whether an action's words or notation hold q (lower case). @param {string} a @param {string} q */
    const matches = (a, q) => a.toLowerCase().includes(q) || (said(a) ?? "").toLowerCase().includes(q);
    let busy = false;
    /** Groups the player opened or closed, by first word: kept across redraws,
     *  so that another player's move does not fold what one was reading.
     *  @type {Map<string, boolean>} */
    const chosen = new Map();
    const filter = h("input", {type: "search", class: "filter", placeholder: t("page.actions.filter"),
                               "aria-label": t("page.actions.filter_label"), spellcheck: "false",
                               autocomplete: "off"});
    const groups = h("div", {class: "action-groups"});
    const summaryCount = h("span", {class: "muted small"});
    const details = h("details", {class: "panel actions-panel"},
        h("summary", {}, h("h2", {text: t("page.actions.title")}), " ", summaryCount),
        filter, groups);
    const el = details;

    /** The filtered list, grouped by first word, in the engine's order. */
    function draw() {
        const q = filter.value.trim().toLowerCase();
        const shown = q ? legal.filter((a) => matches(a, q)) : legal;
        /** @type {Map<string, string[]>} */
        const byWord = new Map();
        for (const a of shown) {
            const w = a.split(" ")[0];
            const g = byWord.get(w);
            if (g) g.push(a);
            else byWord.set(w, [a]);
        }
        summaryCount.textContent = legal.length ? `(${legal.length})` : t("page.actions.none");
        if (legal.length === 0) {
            groups.replaceChildren(h("p", {class: "muted small", text: t("page.actions.nothing")}));
            return;
        }
        if (shown.length === 0) {
            groups.replaceChildren(h("p", {class: "muted small", text: t("page.actions.no_match")}));
            return;
        }
        groups.replaceChildren(...[...byWord].map(([word, acts]) => {
            const open = q !== "" || byWord.size === 1 ||
                (chosen.get(word) ?? acts.length <= GROUP_OPEN_LIMIT);
            const group = h("details", {class: "action-group", open},
                h("summary", {}, h("strong", {text: groupName(word)}), ` (${acts.length})`),
                h("div", {class: "action-buttons", role: "group", "aria-label": groupName(word)},
                    ...acts.map((a) => {
                        const text = said(a);
                        return h("button", {type: "button", class: text === null ? "action" : "action said",
                                            "aria-disabled": busy ? "true" : false, "data-action": a,
                                            title: text === null ? false : t("page.log.notation_title", {notation: a}),
                                            onclick: () => play(a)},
                                 ...(text === null ? [a] : [h("span", {text}), " ", h("code", {class: "act", text: a})]));
                    })));
            const summary = group.querySelector("summary");
            // only the player's own clicks count, not the open set here
            summary?.addEventListener("click", () => chosen.set(word, !group.open));
            return group;
        }));
    }

    filter.addEventListener("input", draw);
    filter.addEventListener("keydown", (e) => {
        if (e.key === "Enter") {
            e.preventDefault();
            const q = filter.value.trim();
            const exact = legal.find((a) => a === q);
            const found = legal.filter((a) => matches(a, q.toLowerCase()));
            const pick = exact ?? (found.length === 1 ? found[0] : null);
            if (pick && !busy) play(pick);
        } else if (e.key === "ArrowDown") {
            e.preventDefault();
            e.stopPropagation();
            /** @type {HTMLButtonElement | null} */ (groups.querySelector("button.action"))?.focus();
        }
    });
    groups.addEventListener("keydown", (e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (!target.classList.contains("action")) return;
        const buttons = /** @type {HTMLButtonElement[]} */ ([...groups.querySelectorAll("button.action")])
            .filter((b) => b.offsetParent !== null);
        const i = buttons.indexOf(/** @type {HTMLButtonElement} */ (target));
        let j = -1;
        if (e.key === "ArrowDown" || e.key === "ArrowRight") j = Math.min(buttons.length - 1, i + 1);
        else if (e.key === "ArrowUp" || e.key === "ArrowLeft") j = i - 1;
        else if (e.key === "Home") j = 0;
        else if (e.key === "End") j = buttons.length - 1;
        else return;
        e.preventDefault();
        e.stopPropagation();   // the board's own keys must not move it too
        if (j < 0) filter.focus();
        else buttons[j]?.focus();
    });

    /**
     * @param {StateMessage} st
     * @param {boolean} hasView whether a game view draws the table
     */
    function update(st, hasView) {
        const next = st.legal ?? [];
        const same = next.length === legal.length && next.every((a, i) => a === legal[i]);
        legal = next;
        if (!same) {
            const focused = groups.contains(document.activeElement);
            if (!legal.some((a) => matches(a, filter.value.trim().toLowerCase()))) filter.value = "";
            draw();
            if (focused) (/** @type {HTMLElement | null} */ (groups.querySelector("button.action")) ?? filter).focus();
        }
        filter.disabled = legal.length === 0;
        if (!hasView) details.open = true;
    }

    /** @param {boolean} on */
    function setBusy(on) {
        busy = on;
        for (const b of groups.querySelectorAll("button.action")) {
            if (on) b.setAttribute("aria-disabled", "true");
            else b.removeAttribute("aria-disabled");
        }
    }

    /** Folds or unfolds the list. @param {boolean} open */
    function setOpen(open) {
        details.open = open;
    }

    /**
     * The game view's words for actions (null: the notation alone); the list is said again.
     * @param {((action: string) => string | null) | null} fn
     */
    function setWords(fn) {
        words = fn;
        draw();
    }

    /** Shows or hides the notation beside the words. @param {boolean} on */
    function showNotation(on) {
        details.classList.toggle("show-notation", on);
    }

    draw();
    return {el, update, setBusy, setOpen, setWords, showNotation};
}
