// table-options.mjs -- the new table's own options (not the game's): a
// private table (not listed, nobody watches), a rated one (the result
// changes the ratings: only players with an account, the bots easy, medium
// and hard, no chosen seed, no hints).  The clock is clock-choice.mjs's.
// Rated is disabled, saying why, while this page is no account or a seat
// is a bot that is not rated.

import {h} from "../table/dom.mjs";
import {t, botWord} from "../words/catalog.mjs";
import {me} from "../account/identity.mjs";

/** The bots that hold ratings. */
export const RATED_BOTS = ["easy", "medium", "hard"];
/**
 * @param {() => void} [onRated] rated was turned on or off (a rated table takes no chosen seed)
 * @returns {{el: HTMLElement, values: () => {private?: boolean, rated?: boolean},
 *   seatsChanged: (specs: string[]) => void, rated: () => boolean}}
 */
export function tableOptions(onRated = () => {}) {
    let account = false;
    /** @type {string[]} */
    let specs = [];
    const privateBox = h("input", {type: "checkbox", id: "nt-private", "aria-describedby": "nt-private-about"});
    const ratedBox = h("input", {type: "checkbox", id: "nt-rated", "aria-describedby": "nt-rated-about"});
    ratedBox.addEventListener("change", onRated);
    const ratedAbout = h("p", {class: "small muted", id: "nt-rated-about"});
    const el = h("div", {class: "nt-table-options"},
        h("h3", {class: "nt-sub", text: t("social.new.table_options")}),
        h("div", {class: "field check-field"}, h("label", {for: "nt-private"}, privateBox, t("social.new.private")),
          h("p", {class: "small muted", id: "nt-private-about", text: t("social.new.private_about")})),
        h("div", {class: "field check-field"}, h("label", {for: "nt-rated"}, ratedBox, t("social.new.rated")),
          ratedAbout));

    function update() {
        const badBot = specs.find((s) => s !== "human" && !s.startsWith("player:") && !RATED_BOTS.includes(s));
        const why = !account ? t("social.new.rated_guest")
            : badBot !== undefined ? t("social.new.rated_bot", {bot: botWord(badBot)}) : "";
        ratedBox.disabled = why !== "";
        if (ratedBox.disabled && ratedBox.checked) {
            ratedBox.checked = false;
            onRated();
        }
        ratedAbout.textContent = why || t("social.new.rated_about");
    }

    // who this page is (app.mjs asked the server before drawing the lobby;
    // nobody on the static site): an account may play rated
    account = me().kind === "account";
    update();
    return {
        el,
        values: () => ({
            ...(privateBox.checked ? {private: true} : {}),
            ...(ratedBox.checked ? {rated: true} : {}),
        }),
        seatsChanged: (s) => { specs = s; update(); },
        rated: () => ratedBox.checked,
    };
}
