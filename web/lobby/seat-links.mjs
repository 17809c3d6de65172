// seat-links.mjs -- after `created`: each seat's link to copy and send to
// its player, the spectators' link, and a way to sit down at once.

import {h, copyText} from "../table/dom.mjs";
import {seatName, swatch} from "../table/seats.mjs";
import {seatLink} from "./tokens.mjs";

/** @typedef {import("../types.js").CreatedMessage} CreatedMessage */

/**
 * A row: a label, the link in a read-only field, Copy and Open.
 * @param {(Node | string)[]} label
 * @param {string} link
 * @param {string} name for the field's label
 */
function linkRow(label, link, name) {
    const input = h("input", {type: "text", readonly: true, value: link, "aria-label": name,
                              class: "link", spellcheck: "false",
                              onfocus: () => input.select()});
    const status = h("span", {class: "copied", "aria-live": "polite"});
    const copy = h("button", {type: "button", text: "Copy", onclick: async () => {
        const ok = await copyText(link, input);
        status.textContent = ok ? "copied" : "press Ctrl+C";
        setTimeout(() => { status.textContent = ""; }, 2000);
    }});
    return h("div", {class: "link-row"},
        h("span", {class: "link-label"}, ...label),
        input, copy, h("a", {href: link, class: "button", text: "Open"}), status);
}

/**
 * @param {CreatedMessage} m
 * @param {string} game
 * @param {string[]} seats the seats' specs, as sent
 */
export function seatLinks(m, game, seats) {
    const rows = m.tokens.map((token, i) => token
        ? linkRow([swatch(i), `${seatName(i)}: human`], seatLink(m.table, token), `${seatName(i)}'s link`)
        : h("div", {class: "link-row"},
            h("span", {class: "link-label"}, swatch(i), `${seatName(i)}: ${seats[i]} bot`)));
    const first = m.tokens.findIndex((t) => t !== null);
    const sit = first >= 0
        ? h("a", {class: "button primary", href: seatLink(m.table, m.tokens[first]),
                  text: `Sit down as ${seatName(first)}`})
        : h("a", {class: "button primary", href: seatLink(m.table, null), text: "Watch the bots"});
    return h("section", {class: "card seat-links", "aria-labelledby": "sl-title"},
        h("h2", {id: "sl-title", text: "Table made"}),
        h("p", {}, h("code", {text: game}), ` — table ${m.table}. Send each human seat its link: `,
          "whoever has a link plays that seat, so keep them private."),
        ...rows,
        linkRow([h("span", {class: "swatch spectator", "aria-hidden": "true"}), "Spectators"],
                seatLink(m.table, null), "Spectators' link"),
        h("p", {}, sit));
}
