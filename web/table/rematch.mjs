// rematch.mjs -- "Rematch" at a finished table: asks the server for the
// rematch (the same players and options, the seats turned by one, a new
// deal); every player's page is sent its seat there and moves to it.  Once
// the rematch exists the button goes to it (asking again is answered with
// the same table).

import {h} from "./dom.mjs";
import {t} from "../words/catalog.mjs";
import {rememberToken} from "../lobby/tokens.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").RematchMessage} RematchMessage */

/**
 * @param {() => boolean} ask sends {"type":"rematch"}; false when not connected
 * @param {boolean} hasToken the page came with a seat's token (a player's, even after resigning)
 */
export function createRematch(ask, hasToken) {
    const button = h("button", {type: "button", class: "primary rematch-button",
                                "aria-describedby": "rematch-about",
                                onclick: () => { if (ask()) button.disabled = true; }});
    const about = h("p", {class: "small muted", id: "rematch-about", text: t("social.rematch.about")});
    const el = h("div", {class: "panel rematch-panel", hidden: true}, button, about);
    return {
        el,
        /** @param {StateMessage} st */
        update(st) {
            el.hidden = st.status !== "over" || (st.seat === null && !hasToken);
            button.textContent = t(st.rematch ? "social.rematch.go" : "social.rematch.button");
            if (st.status !== "over") button.disabled = false;
        },
        /** The server made (or found) the rematch: this page moves there. @param {RematchMessage} m */
        onRematch(m) {
            if (m.token) rememberToken(m.table, m.seat, m.token);
            const query = m.token ? `?token=${encodeURIComponent(m.token)}` : "";
            location.assign(`/t/${encodeURIComponent(m.table)}${query}`);
        },
        /** A refused rematch: the button may be pressed again. */
        refused() { button.disabled = false; },
    };
}
