// hint.mjs -- the hint button: asks the server's `hard` bot for this seat's
// best moves (its own turn only) and shows them, best first, in words (each
// move's account: what it would do), with the bot's estimate of the chance
// to win after each and the part of the search spent on it.  Each can be
// played at once (it is one of `state.legal`).  A hint for an older
// position (another `seq`) is dropped.
//
// While the hint is shown, the game's board draws one hinted move
// (GameView.hint): the best one, or the one the player points at or
// focuses; null takes it away when the hint goes.

import {h} from "./dom.mjs";
import {t, catalog, botWord} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").HintMessage} HintMessage */
/** A hinted move, with its account for this seat (docs/protocol.md, `hint`).
 *  @typedef {import("../types.js").HintMove & {events?: import("../types.js").ActionEvent[]}} HintMove */

/** @param {number} x a share 0..1 */
function percent(x) {
    return Math.round(x * 100);
}

/**
 * A hinted move in words: its account's sentences (the notation when it
 * has none).
 * @param {HintMove} mv
 */
function said(mv) {
    const events = mv.events ?? [];
    if (events.length === 0) return t("page.log.unknown", {text: mv.action});
    return events.map((e) => catalog().event(e)).join(" ");
}

/**
 * @param {{
 *   ask: () => boolean,
 *   play: (action: string) => void,
 *   show: (action: string | null) => void,
 *   settings: {notation: boolean}
 * }} io  ask sends `hint` (false when not connected); show draws a hinted
 *   move on the board (null: none)
 */
export function createHint(io) {
    /** @type {StateMessage | null} */
    let st = null;
    let waitingSeq = -1;
    /** @type {string | null} the best move, drawn on the board while no other is pointed at */
    let best = null;
    /** @type {string | null} the move drawn on the board */
    let drawn = null;
    const button = h("button", {type: "button", class: "hint-button", text: t("page.hint.button"),
                                title: t("page.hint.title", {bot: botWord("hard")}),
                                onclick: () => request()});
    const out = h("div", {class: "hint-out", "aria-live": "polite"});
    const el = h("div", {class: "hint"}, button, out);

    /** @param {string | null} action */
    function draw(action) {
        if (action === drawn) return;
        drawn = action;
        io.show(action);
    }

    function clear() {
        out.replaceChildren();
        best = null;
        draw(null);
    }

    function request() {
        if (!st || !st.legal || st.status !== "playing") return;
        if (!io.ask()) {
            out.replaceChildren(h("p", {class: "error small", text: t("page.hint.offline")}));
            return;
        }
        waitingSeq = st.seq;
        button.disabled = true;
        out.replaceChildren(h("p", {class: "muted small",
                                    text: t("page.hint.thinking", {bot: botWord("hard")})}));
    }

    /** @param {HintMove} mv @param {string[]} legal */
    function moveItem(mv, legal) {
        const words = said(mv);
        const li = h("li", {tabindex: "0", title: t("page.log.notation_title", {notation: mv.action}),
                            "data-action": mv.action},
            h("span", {class: "said", text: words}),
            h("code", {class: "act", text: mv.action}),
            mv.winrate === null || mv.winrate === undefined
                ? h("span", {class: "muted small", text: t("page.hint.no_estimate")})
                : h("span", {class: "winrate"},
                    h("meter", {min: "0", max: "1", value: String(mv.winrate),
                                "aria-label": t("page.hint.win_label", {percent: percent(mv.winrate)})}),
                    " ", t("page.hint.win", {percent: percent(mv.winrate)})),
            h("span", {class: "muted small", text: t("page.hint.share", {percent: percent(mv.share)})}),
            legal.includes(mv.action)
                ? h("button", {type: "button", class: "small", text: t("page.hint.play"),
                               "aria-label": t("page.hint.play_label", {move: words}),
                               onclick: () => io.play(mv.action)})
                : null);
        const point = () => draw(mv.action);
        const leave = () => draw(best);
        li.addEventListener("mouseenter", point);
        li.addEventListener("focusin", point);
        li.addEventListener("mouseleave", leave);
        li.addEventListener("focusout", leave);
        return li;
    }

    /** @param {HintMessage} m */
    function onHint(m) {
        if (!st || m.seq !== st.seq) return;
        waitingSeq = -1;
        button.disabled = !st.legal;
        const legal = st.legal ?? [];
        if (m.moves.length === 0) {
            out.replaceChildren(h("p", {class: "muted small", text: t("page.hint.none")}));
            return;
        }
        out.replaceChildren(
            h("p", {class: "small muted", text: t("page.hint.intro", {bot: botWord(m.bot)})}),
            h("ol", {class: "hint-moves"}, ...m.moves.map((mv) => moveItem(mv, legal))));
        best = legal.includes(m.moves[0].action) ? m.moves[0].action : null;
        draw(best);
    }

    /** @param {StateMessage} next */
    function update(next) {
        const changed = !st || st.seq !== next.seq;
        st = next;
        const mine = !!next.legal && next.status === "playing";
        el.hidden = next.seat === null || next.status === "over" || next.seats[next.seat]?.kind === "bot";
        if (changed) {
            clear();
            waitingSeq = -1;
        }
        button.disabled = !mine || waitingSeq === next.seq;
        button.title = t(mine ? "page.hint.title" : "page.hint.not_now", {bot: botWord("hard")});
    }

    /** Shows or hides the notation of each move. @param {boolean} on */
    function showNotation(on) {
        out.classList.toggle("show-notation", on);
    }
    showNotation(io.settings.notation);

    /** The view was made anew: it draws the hinted move again. */
    function redraw() {
        const again = drawn;
        drawn = null;
        if (again) draw(again);
    }

    /** Forgets the hint shown (the page now sits in another seat). */
    function reset() {
        clear();
        waitingSeq = -1;
    }

    return {el, update, onHint, request, showNotation, redraw, reset};
}
