// status.mjs -- the connection's state in a few words, kept up to date:
// "connected", "connecting…", "offline: trying again in 4 s" (with a button
// to try at once).

import {h} from "./dom.mjs";

/** @typedef {import("../net/connection.mjs").Connection} Connection */

/** @param {Connection} conn */
export function connectionBadge(conn) {
    const text = h("span", {});
    const retry = h("button", {type: "button", class: "small", text: "retry now", hidden: true,
                               onclick: () => conn.reconnectNow()});
    const el = h("span", {class: "conn", role: "status"}, h("span", {class: "dot", "aria-hidden": "true"}), text, retry);
    /** @type {ReturnType<typeof setInterval> | null} */
    let tick = null;
    conn.onStatus((s) => {
        if (tick) clearInterval(tick);
        tick = null;
        el.dataset.state = s.state;
        retry.hidden = s.state !== "closed";
        if (s.state === "open") text.textContent = "connected";
        else if (s.state === "connecting") text.textContent = "connecting…";
        else if (s.retryIn !== undefined) {
            const until = Date.now() + s.retryIn;
            const show = () => {
                const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
                text.textContent = `offline: trying again in ${left} s`;
            };
            show();
            tick = setInterval(show, 1000);
        } else text.textContent = "offline";
    });
    return el;
}
