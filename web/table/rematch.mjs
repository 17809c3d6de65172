// rematch.mjs -- "Rematch" at a finished table, offered and answered as on
// Board Game Arena: a player offers it (the same players and options, the
// seats turned by one, a new deal); the other people see "NAME offers a
// rematch" with Accept and Decline; the asker may withdraw.  The state's
// rematch_offer says who offered and who is still to answer; a
// rematch_ended message says why an offer ended.  When everyone accepted,
// every player's page is sent its seat there and moves to it.  Once the
// rematch exists the button goes to it (asking again is answered with the
// same table).

import {h} from "./dom.mjs";
import {catalog, t} from "../words/catalog.mjs";
import {rememberToken, tokensOf} from "../lobby/tokens.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").RematchMessage} RematchMessage */
/** @typedef {import("../types.js").RematchEndedMessage} RematchEndedMessage */

/**
 * @param {(decline: boolean) => boolean} ask sends {"type":"rematch"} (with "decline": true to
 *   decline or withdraw); false when not connected
 * @param {string} table this table's id
 * @param {string | null} token the seat's token the page came with (a player's, even after resigning)
 * @param {(seat: number) => string} nameOf a seat's name as the page shows it
 */
export function createRematch(ask, table, token, nameOf) {
    /** The page's own seat at this table, also once it watches (resigned): -1 unknown. */
    let mine = -1;
    /** @param {boolean} decline */
    const send = (decline) => {
        if (ask(decline)) for (const b of [button, accept, decline_]) b.disabled = true;
    };
    const button = h("button", {type: "button", class: "primary rematch-button",
                                "aria-describedby": "rematch-about", onclick: () => send(false)});
    const accept = h("button", {type: "button", class: "primary rematch-accept",
                                text: t("social.rematch.accept"), onclick: () => send(false)});
    const decline_ = h("button", {type: "button", class: "rematch-decline", onclick: () => send(true)});
    const about = h("p", {class: "small muted", id: "rematch-about", text: t("social.rematch.about")});
    const offer = h("p", {class: "rematch-offer", role: "status"});
    const ended = h("p", {class: "rematch-ended small", role: "status", hidden: true});
    const el = h("div", {class: "panel rematch-panel", hidden: true},
        offer, h("div", {class: "rematch-buttons"}, button, accept, decline_), about, ended);

    /** @param {number[]} seats */
    const namesOf = (seats) => seats.map((i) => nameOf(i));

    return {
        el,
        /** @param {StateMessage} st */
        update(st) {
            if (st.seat !== null) mine = st.seat;
            else if (mine < 0 && token) mine = tokensOf(table).indexOf(token);
            el.hidden = st.status !== "over" || (st.seat === null && !token);
            const o = st.rematch_offer;
            for (const b of [button, accept, decline_]) b.disabled = false;
            el.classList.toggle("offered", !!o);
            if (st.rematch || !o) {   // nothing offered: "Rematch", or "Go to the rematch"
                offer.hidden = accept.hidden = decline_.hidden = true;
                button.hidden = about.hidden = false;
                about.hidden = !!st.rematch;
                button.textContent = t(st.rematch ? "social.rematch.go" : "social.rematch.button");
                return;
            }
            ended.hidden = true;
            offer.hidden = about.hidden = false;
            button.hidden = true;
            const waiting = namesOf(o.waiting);
            const asker = mine === o.from;
            const answered = !asker && o.accepted.includes(mine);
            if (asker || answered) {
                offer.textContent = t(asker ? "social.rematch.offered" : "social.rematch.accepted",
                                      {names: catalog().list(waiting)});
                accept.hidden = true;
            } else {
                offer.textContent = t("social.rematch.offer", {name: nameOf(o.from)});
                accept.hidden = false;
            }
            decline_.hidden = false;
            decline_.textContent = t(asker ? "social.rematch.withdraw" : "social.rematch.decline");
        },
        /** The server made (or found) the rematch: this page moves there. @param {RematchMessage} m */
        onRematch(m) {
            if (m.token) rememberToken(m.table, m.seat, m.token);
            const query = m.token ? `?token=${encodeURIComponent(m.token)}` : "";
            location.assign(`/t/${encodeURIComponent(m.table)}${query}`);
        },
        /** An offer ended without a table: said until the next offer. @param {RematchEndedMessage} m */
        onEnded(m) {
            const yours = m.by === mine && m.reason !== "left";
            ended.textContent = t(`social.rematch.ended.${m.reason}${yours ? "_you" : ""}`,
                                  {name: m.by === null ? "" : nameOf(m.by)});
            ended.hidden = false;
        },
        /** A refused rematch: the buttons may be pressed again. */
        refused() {
            for (const b of [button, accept, decline_]) b.disabled = false;
        },
    };
}
