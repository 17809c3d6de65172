// tables.mjs -- the lobby's list of open and recent tables: the game, who
// sits where, a link to watch, and a link to play each seat whose token
// this browser knows.

import {h} from "../table/dom.mjs";
import {seatName, swatch} from "../table/seats.mjs";
import {seatLink, tokensOf} from "./tokens.mjs";

/** @typedef {import("../types.js").LobbyTable} LobbyTable */

/**
 * @param {HTMLElement} list where the rows go
 * @param {LobbyTable[]} tables
 * @param {boolean} showOver whether finished tables are listed
 */
export function drawTables(list, tables, showOver) {
    const shown = tables.filter((t) => showOver || t.status === "playing");
    if (shown.length === 0) {
        list.replaceChildren(h("p", {class: "muted",
            text: showOver ? "No tables yet." : "No table is being played now."}));
        return;
    }
    list.replaceChildren(...shown.map((t) => {
        const tokens = tokensOf(t.table);
        const seats = t.seats.map((s, i) => h("li", {class: "seat-chip"},
            swatch(i),
            `${seatName(i)}: `,
            s.kind === "bot" ? `${s.bot} bot` : s.taken ? "human" : "human, free",
            tokens[i] && t.status === "playing"
                ? h("a", {href: seatLink(t.table, tokens[i]), class: "button small",
                          text: "play", "aria-label": `play ${seatName(i)} at table ${t.table}`})
                : null));
        return h("li", {class: "table-row"},
            h("div", {class: "table-row-head"},
                h("code", {text: t.game}),
                h("span", {class: `badge ${t.status}`, text: t.status === "over" ? "over" : "playing"}),
                h("span", {class: "muted small", text: t.seq === 1 ? "1 change" : `${t.seq} changes`}),
                h("a", {href: seatLink(t.table, null), class: "button small",
                        text: t.status === "over" ? "view / replay" : "watch",
                        "aria-label": `${t.status === "over" ? "view" : "watch"} table ${t.table}`})),
            h("ul", {class: "seat-chips"}, ...seats));
    }));
}
