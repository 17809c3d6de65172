// pass-cover.mjs -- "pass the device": people sharing one screen at a table
// on this device.  When another person is to play, the page sits as a
// spectator (table.mjs) and this cover hides the whole table until that
// person says they hold the device; only then does the page join their
// seat, so one person's hand is never on the screen during another's turn.

import {h} from "./dom.mjs";
import {swatch} from "./seats.mjs";
import {t} from "../words/catalog.mjs";

/**
 * @param {(seat: number) => void} ready the person of the seat holds the device
 * @returns {{el: HTMLElement, show: (seat: number, name: string) => void, hide: () => void,
 *   shown: () => boolean}}
 */
export function createPassCover(ready) {
    let seat = -1;
    const title = h("h2", {id: "pass-title"});
    const about = h("p", {id: "pass-about"});
    const button = h("button", {type: "button", class: "primary", "data-pass": "ready",
                                onclick: () => { if (seat >= 0) ready(seat); }});
    const mark = h("span", {class: "pass-mark"});
    const el = h("div", {class: "pass-cover", role: "dialog", "aria-modal": "true",
                         "aria-labelledby": "pass-title", "aria-describedby": "pass-about", hidden: true},
        h("div", {class: "pass-box card"}, mark, title, about, button));

    /** @param {number} next @param {string} name */
    function show(next, name) {
        seat = next;
        mark.replaceChildren(swatch(next));
        title.textContent = t("local.pass.title", {name});
        about.textContent = t("local.pass.about", {name});
        button.textContent = t("local.pass.ready", {name});
        button.disabled = false;
        el.hidden = false;
        el.dataset.seat = String(next);
        button.focus();
    }

    function hide() {
        seat = -1;
        el.hidden = true;
    }

    return {el, show, hide, shown: () => !el.hidden};
}
