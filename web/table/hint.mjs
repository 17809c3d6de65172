// hint.mjs -- the hint button: asks the server's `hard` bot for this seat's
// best moves (its own turn only) and shows them, best first, with the bot's
// estimate of the chance to win after each and the part of the search spent
// on it.  Each can be played at once (it is one of `state.legal`).  A hint
// for an older position (another `seq`) is dropped.

import {h} from "./dom.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").HintMessage} HintMessage */

/** @param {number} x a share 0..1 */
function percent(x) {
    return `${Math.round(x * 100)} %`;
}

/**
 * @param {() => boolean} ask sends `hint`; false when not connected
 * @param {(action: string) => void} play
 */
export function createHint(ask, play) {
    /** @type {StateMessage | null} */
    let st = null;
    let waitingSeq = -1;
    const button = h("button", {type: "button", class: "hint-button", text: "Hint",
                                title: "Ask the hard bot for its best moves", onclick: () => request()});
    const out = h("div", {class: "hint-out", "aria-live": "polite"});
    const el = h("div", {class: "hint"}, button, out);

    function request() {
        if (!st || !st.legal || st.status !== "playing") return;
        if (!ask()) {
            out.replaceChildren(h("p", {class: "error small", text: "Not connected."}));
            return;
        }
        waitingSeq = st.seq;
        button.disabled = true;
        out.replaceChildren(h("p", {class: "muted small", text: "The hard bot is thinking (up to 2 s)…"}));
    }

    /** @param {HintMessage} m */
    function onHint(m) {
        if (!st || m.seq !== st.seq) return;
        waitingSeq = -1;
        button.disabled = !st.legal;
        const legal = st.legal ?? [];
        if (m.moves.length === 0) {
            out.replaceChildren(h("p", {class: "muted small", text: "No hint."}));
            return;
        }
        out.replaceChildren(
            h("p", {class: "small muted", text: `The ${m.bot} bot's best moves, with its estimate of your chance to win after each:`}),
            h("ol", {class: "hint-moves"}, ...m.moves.map((mv) => h("li", {},
                h("span", {class: "act", text: mv.action}),
                mv.winrate === null
                    ? h("span", {class: "muted small", text: "no estimate"})
                    : h("span", {class: "winrate"},
                        h("meter", {min: "0", max: "1", value: String(mv.winrate),
                                    "aria-label": `chance to win ${percent(mv.winrate)}`}),
                        ` ${percent(mv.winrate)} to win`),
                h("span", {class: "muted small", text: `${percent(mv.share)} of the search`}),
                legal.includes(mv.action)
                    ? h("button", {type: "button", class: "small", text: "play",
                                   "aria-label": `play ${mv.action}`, onclick: () => play(mv.action)})
                    : null))));
    }

    /** @param {StateMessage} next */
    function update(next) {
        const changed = !st || st.seq !== next.seq;
        st = next;
        const mine = !!next.legal && next.status === "playing";
        el.hidden = next.seat === null || next.status === "over" || next.seats[next.seat]?.kind === "bot";
        if (changed) {
            out.replaceChildren();
            waitingSeq = -1;
        }
        button.disabled = !mine || waitingSeq === next.seq;
        button.title = mine ? "Ask the hard bot for its best moves" : "Hints are for your own turn";
    }

    return {el, update, onHint, request};
}
