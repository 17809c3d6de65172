// table-options.mjs -- the new table's own options (not the game's): a
// private table (not listed, nobody watches), a rated one (the result
// changes the ratings: only players with an account, the bots easy, medium
// and hard, no chosen seed, no hints), and its clock (none, real time:
// minutes for the game plus seconds a move, or correspondence: days a
// move).  The clock's rules are the server's; the form sends its text.
// Rated is disabled, saying why, while this page is no account or a seat
// is a bot that is not rated.

import {h} from "../table/dom.mjs";
import {t, tn} from "../words/catalog.mjs";

/** The bots that hold ratings. */
export const RATED_BOTS = ["easy", "medium", "hard"];
/** Real-time presets ("minutes+seconds") and correspondence ones ("Nd"). */
export const CLOCKS = ["none", "5+3", "10+5", "15+10", "1d", "3d"];

/** A clock's text in words. @param {string} clock */
export function clockWords(clock) {
    if (clock === "none") return t("social.clock.none");
    const rt = clock.match(/^(\d+)\+(\d+)$/);
    if (rt) return t("social.clock.realtime", {minutes: Number(rt[1]), seconds: Number(rt[2])});
    const days = clock.match(/^(\d+)d$/);
    if (days) return tn("social.clock.days", Number(days[1]));
    return clock;
}

/**
 * @param {() => void} [onRated] rated was turned on or off (a rated table takes no chosen seed)
 * @returns {{el: HTMLElement, values: () => {private?: boolean, rated?: boolean, clock?: string},
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
    const clock = h("select", {id: "nt-clock", "aria-describedby": "nt-clock-about"},
        ...CLOCKS.map((c) => h("option", {value: c, text: clockWords(c)})));
    const el = h("div", {class: "nt-table-options"},
        h("h3", {class: "nt-sub", text: t("social.new.table_options")}),
        h("div", {class: "field check-field"}, h("label", {for: "nt-private"}, privateBox, t("social.new.private")),
          h("p", {class: "small muted", id: "nt-private-about", text: t("social.new.private_about")})),
        h("div", {class: "field check-field"}, h("label", {for: "nt-rated"}, ratedBox, t("social.new.rated")),
          ratedAbout),
        h("div", {class: "field"}, h("label", {for: "nt-clock", text: t("social.new.clock")}), clock,
          h("p", {class: "small muted", id: "nt-clock-about", text: t("social.new.clock_about")})));

    function update() {
        const badBot = specs.find((s) => s !== "human" && !s.startsWith("player:") && !RATED_BOTS.includes(s));
        const why = !account ? t("social.new.rated_guest")
            : badBot !== undefined ? t("social.new.rated_bot", {bot: badBot}) : "";
        ratedBox.disabled = why !== "";
        if (ratedBox.disabled && ratedBox.checked) {
            ratedBox.checked = false;
            onRated();
        }
        ratedAbout.textContent = why || t("social.new.rated_about");
    }

    // who this page is: an account may play rated (GET /api/me)
    fetch("/api/me", {credentials: "same-origin"})
        .then((r) => (r.ok ? r.json() : null))
        .then((me) => { account = me?.kind === "account"; update(); })
        .catch(() => {});
    update();
    return {
        el,
        values: () => ({
            ...(privateBox.checked ? {private: true} : {}),
            ...(ratedBox.checked ? {rated: true} : {}),
            ...(clock.value !== "none" ? {clock: clock.value} : {}),
        }),
        seatsChanged: (s) => { specs = s; update(); },
        rated: () => ratedBox.checked,
    };
}
