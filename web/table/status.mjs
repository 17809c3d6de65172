// status.mjs -- the connection's state in a few words, kept up to date:
// "connected", "connecting…", "offline: trying again in 4 s" (with a button
// to try at once), or why the login ended (with a button to reload: the
// page then finds out again who it is).

import {h} from "./dom.mjs";
import {t} from "../words/catalog.mjs";

/** @typedef {import("../net/connection.mjs").Connection} Connection */

/** @param {Connection} conn */
export function connectionBadge(conn) {
    const text = h("span", {});
    const retry = h("button", {type: "button", class: "small", text: t("page.conn.retry"), hidden: true,
                               onclick: () => conn.reconnectNow()});
    const reload = h("button", {type: "button", class: "small", text: t("page.conn.reload"), hidden: true,
                                onclick: () => location.reload()});
    const el = h("span", {class: "conn", role: "status"}, h("span", {class: "dot", "aria-hidden": "true"}), text, retry,
                 reload);
    /** @type {ReturnType<typeof setInterval> | null} */
    let tick = null;
    conn.onStatus((s) => {
        if (tick) clearInterval(tick);
        tick = null;
        el.dataset.state = s.state;
        retry.hidden = s.state !== "closed";
        reload.hidden = s.state !== "ended";
        if (s.state === "ended") text.textContent = t(s.ended === "disabled" ? "page.conn.disabled" : "page.conn.logged_out");
        else if (s.state === "open") text.textContent = t("page.conn.open");
        else if (s.state === "connecting") text.textContent = t("page.conn.connecting");
        else if (s.retryIn !== undefined) {
            const until = Date.now() + s.retryIn;
            const show = () => {
                const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
                text.textContent = t(s.restarting ? "page.conn.restarting" : "page.conn.retry_in", {seconds});
            };
            show();
            tick = setInterval(show, 1000);
        } else text.textContent = t("page.conn.offline");
    });
    return el;
}
