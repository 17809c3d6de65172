// clock-choice.mjs -- the new-table form's clock: none, real time (minutes
// for each player's game plus seconds a move) or correspondence (days a
// move), as the clock texts the server reads ("10+5", "3d": clocks.h).

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {clockAbout} from "../table/clock.mjs";

const REALTIME = ["3+2", "5+3", "10+5", "15+10", "30+0"];
const CORRESPONDENCE = ["1d", "2d", "3d", "7d"];

/** A clock text in words ("10 min + 5 s a move"). @param {string} text */
function words(text) {
    const rt = /^(\d+)\+(\d+)$/.exec(text);
    if (rt) return clockAbout({kind: "realtime", text, base_ms: Number(rt[1]) * 60000,
                               increment_ms: Number(rt[2]) * 1000, left_ms: [], running: null});
    return clockAbout({kind: "correspondence", text, per_move_ms: parseInt(text, 10) * 86400000,
                       left_ms: [], running: null});
}

/** @returns {{el: HTMLElement, value: () => string | null}} */
export function clockChoice() {
    const select = h("select", {id: "nt-clock", "aria-describedby": "nt-clock-about"},
        h("option", {value: "", text: t("clocks.choice.none")}),
        h("optgroup", {label: t("clocks.choice.realtime")},
            ...REALTIME.map((c) => h("option", {value: c, text: words(c)}))),
        h("optgroup", {label: t("clocks.choice.correspondence")},
            ...CORRESPONDENCE.map((c) => h("option", {value: c, text: words(c)}))));
    const el = h("div", {class: "field nt-clock"},
        h("label", {for: "nt-clock", text: t("clocks.choice.label")}),
        select,
        h("p", {class: "small muted", id: "nt-clock-about", text: t("clocks.choice.about")}));
    return {el, value: () => select.value || null};
}
