// controls.mjs -- undo, resign and hand over, for a seated human.
//
// Undo is offered only when the server says it would accept it
// (`state.undo`: own actions of this turn, never past a chance event or a
// reveal).  Resign and hand over ask to be confirmed first; hand over asks
// which bot takes the seat, of those that play the game with as many
// players as the table has (after it the link no longer plays).

import {h} from "./dom.mjs";
import {t, botWord} from "../words/catalog.mjs";
import {gameName} from "../lobby/params.mjs";
import {botsFor} from "../lobby/seat-kinds.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").BotInfo} BotInfo */

/**
 * @param {(type: "undo" | "resign" | "hand_over", extra?: object) => void} send
 * @param {BotInfo[]} bots
 */
export function createControls(send, bots) {
    /** @type {StateMessage | null} */
    let st = null;
    const undo = h("button", {type: "button", text: t("page.controls.undo"), title: t("page.controls.undo_title"),
                              onclick: () => { if (st?.undo) send("undo"); }});
    const resign = h("button", {type: "button", text: t("page.controls.resign_ask"), onclick: () => confirmBox("resign")});
    const handOver = h("button", {type: "button", text: t("page.controls.hand_over_ask"), onclick: () => confirmBox("hand")});
    const confirm = h("div", {class: "confirm", hidden: true});
    handOver.hidden = bots.length === 0;   // a table on this device: nobody to hand over to
    const row = h("div", {class: "button-row"}, undo, resign, handOver);
    const el = h("div", {class: "controls"}, row, confirm);

    /** @param {"resign" | "hand"} what */
    function confirmBox(what) {
        const no = h("button", {type: "button", text: t("page.controls.cancel"), onclick: close});
        if (what === "resign") {
            const yes = h("button", {type: "button", class: "danger", text: t("page.controls.resign"),
                                     onclick: () => { send("resign"); close(); }});
            confirm.replaceChildren(
                h("p", {text: t("page.controls.resign_confirm", {bot: botWord("greedy")})}),
                h("div", {class: "button-row"}, yes, no));
        } else {
            // the bots that play this game with this table's count of
            // players (expert only where it has a net)
            const choices = (st ? botsFor(bots, gameName(st.game), st.seats.length) : bots).map((b) => b.name);
            const select = h("select", {id: "hand-bot", "aria-label": t("page.controls.bot_label")},
                // the label says "Bot:", so each choice is the level alone
                ...choices.map((c) => h("option", {value: c, text: botWord(c)})));
            select.value = choices.includes("medium") ? "medium" : choices[0] ?? "greedy";
            const yes = h("button", {type: "button", class: "danger", text: t("page.controls.hand_over"),
                                     onclick: () => { send("hand_over", {bot: select.value}); close(); }});
            confirm.replaceChildren(
                h("p", {text: t("page.controls.hand_over_confirm")}),
                h("label", {for: "hand-bot", text: t("page.controls.bot")}), " ", select,
                h("div", {class: "button-row"}, yes, no));
        }
        confirm.hidden = false;
        row.hidden = true;
        /** @type {HTMLElement | null} */ (confirm.querySelector("select, button"))?.focus();
    }

    function close() {
        confirm.hidden = true;
        row.hidden = false;
    }

    confirm.addEventListener("keydown", (e) => {
        if (e.key === "Escape") {
            close();
            resign.focus();
        }
    });

    /** @param {StateMessage} next */
    function update(next) {
        st = next;
        const seat = next.seat;
        const active = seat !== null && next.status === "playing" && next.seats[seat]?.kind === "human"
            && !next.seats[seat]?.resigned;
        el.hidden = !active;
        if (!active) close();
        undo.disabled = !next.undo;
        undo.title = t(next.undo ? "page.controls.undo_title" : "page.controls.undo_none");
    }

    return {el, update};
}
