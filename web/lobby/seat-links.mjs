// seat-links.mjs -- after `created`: each seat's link to copy and send to
// its player, the spectators' link, and a way to sit down at once.

import {h, copyText} from "../table/dom.mjs";
import {swatch} from "../table/seats.mjs";
import {t, botWord} from "../words/catalog.mjs";
import {seatLink} from "./tokens.mjs";
import {gameWords} from "./options.mjs";
import {gameName} from "./params.mjs";

/** @typedef {import("../types.js").CreatedMessage} CreatedMessage */

/**
 * A row: a label, the link in a read-only field, Copy and Open.
 * @param {(Node | string)[]} label
 * @param {string} link
 * @param {{field: string, copy: string, open: string}} names the field's, Copy's and Open's labels
 */
function linkRow(label, link, names) {
    const input = h("input", {type: "text", readonly: true, value: link, "aria-label": names.field,
                              class: "link", spellcheck: "false",
                              onfocus: () => input.select()});
    const status = h("span", {class: "copied", "aria-live": "polite"});
    const copy = h("button", {type: "button", text: t("lobby.made.copy"), "aria-label": names.copy,
                              onclick: async () => {
        const ok = await copyText(link, input);
        status.textContent = t(ok ? "lobby.made.copied" : "lobby.made.press_copy");
        setTimeout(() => { status.textContent = ""; }, 2000);
    }});
    return h("div", {class: "link-row"},
        h("span", {class: "link-label"}, ...label),
        input, copy,
        h("a", {href: link, class: "button", text: t("lobby.made.open"), "aria-label": names.open}),
        status);
}

/**
 * @param {CreatedMessage} m
 * @param {string} game the game string
 * @param {string[]} seats the seats' specs, as sent
 */
export function seatLinks(m, game, seats) {
    const rows = m.tokens.map((token, seat) => token
        ? linkRow([swatch(seat), t("lobby.made.seat_human", {seat})], seatLink(m.table, token),
                  {field: t("lobby.made.link_of", {seat}), copy: t("lobby.made.copy_label", {seat}),
                   open: t("lobby.made.open_label", {seat})})
        : h("div", {class: "link-row"},
            h("span", {class: "link-label"}, swatch(seat),
              t("lobby.made.seat_bot", {seat, bot: botWord(seats[seat])}))));
    const first = m.tokens.findIndex((token) => token !== null);
    const sit = first >= 0
        ? h("a", {class: "button primary", href: seatLink(m.table, m.tokens[first]),
                  text: t("lobby.made.sit", {seat: first})})
        : h("a", {class: "button primary", href: seatLink(m.table, null),
                  text: t("lobby.made.watch_bots")});
    return h("section", {class: "card seat-links", "aria-labelledby": "sl-title"},
        h("h2", {id: "sl-title", text: t("lobby.made.title")}),
        h("p", {text: t("lobby.made.about", {game: gameWords(gameName(game))})}),
        ...rows,
        linkRow([h("span", {class: "swatch spectator", "aria-hidden": "true"}), t("lobby.made.spectators")],
                seatLink(m.table, null),
                {field: t("lobby.made.spectators_link"), copy: t("lobby.made.copy_spectators"),
                 open: t("lobby.made.open_spectators")}),
        h("p", {}, sit));
}
