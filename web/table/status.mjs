// status.mjs -- the connection's state in a few words, kept up to date:
// "connected", "connecting…", "offline: trying again in 4 s" (with a button
// to try at once).

import {h} from "./dom.mjs";
import {t} from "../words/catalog.mjs";

/** @typedef {import("../net/connection.mjs").Connection} Connection */

/** @param {Connection} conn */
export function connectionBadge(conn) {
    const text = h("span", {});
    const retry = h("button", {type: "button", class: "small", text: t("page.conn.retry"), hidden: true,
                               onclick: () => conn.reconnectNow()});
    const el = h("span", {class: "conn", role: "status"}, h("span", {class: "dot", "aria-hidden": "true"}), text, retry);
    /** @type {ReturnType<typeof setInterval> | null} */
    let tick = null;
    conn.onStatus((s) => {
        if (tick) clearInterval(tick);
        tick = null;
        el.dataset.state = s.state;
        retry.hidden = s.state !== "closed";
        if (s.state === "open") text.textContent = t("page.conn.open");
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
