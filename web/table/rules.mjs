// rules.mjs -- the rules at hand: a dialog with the game's how-to
// (<game>.howto, one screen) and a reference of its tiles or cards, each
// named and explained by the catalog (carcassonne.tile.<id> with
// carcassonne.tile_text.<id>, cardcassonne.card.<id> with card_text,
// catan_cards.card.<id> with card_text, its event cards, event die and
// pieces), in the page's language.
//
// The ids are the catalog's own keys (a thing with a name and a text), so
// the reference lists what the catalog explains; the game's pieces (GET
// /api/games) only group them (a Cardcassonne card's row, a Catan card's
// kind) and count the copies.  The dialog is modal: Esc or its button
// closes it, and the focus goes back to the button that opened it.  A game
// with a guided first game (guide/) links to it under the how-to.

import {h} from "./dom.mjs";
import {t, tn, catalog} from "../words/catalog.mjs";
import {gameTitle} from "./game-title.mjs";
import {GUIDES, guideHref} from "../guide/guide.mjs";

/**
 * One thing of the reference.
 * @typedef {{id: string, name: string, text: string}} Entry
 * @typedef {{title: string, entries: Entry[], counts?: Record<string, number>}} Group
 */

/**
 * Every thing the catalog names under namePrefix and explains under
 * textPrefix, in the catalog's order; named by listPrefix where the
 * catalog has a name without an article there (Cardcassonne's "cards").
 * @param {string} namePrefix e.g. "carcassonne.tile."
 * @param {string} textPrefix e.g. "carcassonne.tile_text."
 * @param {string} [listPrefix] e.g. "cardcassonne.cards."
 * @returns {Entry[]}
 */
function explained(namePrefix, textPrefix, listPrefix) {
    const c = catalog();
    /** @type {Entry[]} */
    const out = [];
    for (const key of c.texts.keys()) {
        if (!key.startsWith(namePrefix)) continue;
        const id = key.slice(namePrefix.length);
        if (!c.has(textPrefix + id)) continue;
        const name = listPrefix && c.has(listPrefix + id) ? c.text(listPrefix + id) : c.text(key);
        out.push({id, name, text: c.text(textPrefix + id)});
    }
    return out;
}

/**
 * entries split by a key of each (in the order keys are first met).
 * @param {Entry[]} entries
 * @param {(e: Entry) => string} by
 */
function groupBy(entries, by) {
    /** @type {Map<string, Entry[]>} */
    const groups = new Map();
    for (const e of entries) {
        const k = by(e);
        groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    return groups;
}

/**
 * The copies of each thing, from the game's pieces ({id: {count}}).
 * @param {any} things
 * @returns {Record<string, number>}
 */
function countsOf(things) {
    /** @type {Record<string, number>} */
    const out = {};
    if (things && typeof things === "object") {
        for (const [id, v] of Object.entries(things)) if (typeof v?.count === "number") out[id] = v.count;
    }
    return out;
}

/**
 * The how-to's lines as paragraphs: the catalog wraps them for a terminal
 * (about 90 columns), the page wraps them to its width.  A line continues
 * the one before when it is indented without columns in it (a table row,
 * "  road      1 per tile", keeps its line) or begins in lower case.
 * @param {string} text
 * @returns {string[]}
 */
export function paragraphs(text) {
    /** @type {string[]} */
    const out = [];
    for (const line of text.split("\n")) {
        const body = line.trim();
        const indented = /^\s/.test(line);
        const continues = out.length > 0 && body !== "" &&
            ((indented && !/\S {2,}\S/.test(body)) || (!indented && /^\p{Ll}/u.test(body)));
        if (continues) out[out.length - 1] += " " + body;
        else out.push(line);
    }
    return out;
}

/**
 * The reference of a game, in groups.
 * @param {string} game
 * @param {any} pieces the game's pieces (null: unknown)
 * @returns {Group[]}
 */
export function referenceOf(game, pieces) {
    if (game === "carcassonne") {
        const counts = countsOf(pieces?.tiles);
        const tiles = groupBy(explained("carcassonne.tile.", "carcassonne.tile_text."),
            (e) => e.id.startsWith("CC") ? "crop" : "base");
        return [
            {title: t("page.rules.tiles"), entries: tiles.get("base") ?? [], counts},
            {title: t("page.rules.crop_tiles"), entries: tiles.get("crop") ?? [], counts},
        ];
    }
    if (game === "cardcassonne") {
        const cards = pieces?.cards ?? {};
        const counts = countsOf(cards);
        const byRow = groupBy(explained("cardcassonne.card.", "cardcassonne.card_text.", "cardcassonne.cards."),
            (e) => cards[e.id]?.colour ?? "");
        return [...byRow].map(([row, entries]) => ({
            title: row && pieces?.rows?.[row] ? t("page.rules.row_cards", {row}) : t("page.rules.jokers"),
            entries, counts}));
    }
    if (game === "catan_cards") {
        const cards = pieces?.cards ?? {};
        const counts = countsOf(cards);
        const byWhat = groupBy(explained("catan_cards.card.", "catan_cards.card_text."),
            (e) => cards[e.id]?.what ?? "");
        const order = ["unit", "building", "action"];
        return [
            ...[...byWhat].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0])).map(([what, entries]) => ({
                title: catalog().has(`page.rules.what.${what}`) ? t(`page.rules.what.${what}`) : t("page.rules.cards"),
                entries, counts})),
            {title: t("page.rules.event_cards"), entries: explained("catan_cards.event_card.", "catan_cards.event_card_text."),
             counts: countsOf(pieces?.events)},
            {title: t("page.rules.event_die"), entries: explained("catan_cards.event_die.", "catan_cards.event_die_text.")},
            {title: t("page.rules.pieces"), entries: explained("catan_cards.piece.", "catan_cards.piece_text.")},
        ];
    }
    return [];
}

/**
 * The Rules button and its dialog.
 * @param {string} game
 * @param {any} pieces
 */
export function createRules(game, pieces) {
    const dialog = h("dialog", {class: "rules", "aria-labelledby": "rules-title"});
    const button = h("button", {type: "button", class: "rules-button", text: t("page.rules.button"),
                                "aria-haspopup": "dialog", onclick: () => open()});

    function build() {
        const howtoKey = `${game}.howto`;
        const close = h("button", {type: "button", class: "rules-close", text: t("page.rules.close"),
                                   onclick: () => dialog.close()});
        const groups = referenceOf(game, pieces).filter((g) => g.entries.length);
        dialog.replaceChildren(
            h("div", {class: "rules-head"},
                h("h2", {id: "rules-title", text: t("page.rules.title", {game: gameTitle(game)})}), close),
            catalog().has(howtoKey)
                ? h("div", {class: "howto"}, ...paragraphs(t(howtoKey)).map((line) => h("p", {text: line})))
                : h("p", {class: "muted", text: t("page.rules.no_howto")}),
            h("p", {class: "rules-guide", hidden: !Object.hasOwn(GUIDES, game)},
              h("a", {href: guideHref(game), text: t("guide.rules_link")})),
            ...groups.map((g) => h("section", {class: "rules-group"},
                h("h3", {text: g.title}),
                h("dl", {},
                    ...g.entries.flatMap((e) => [
                        h("dt", {}, e.name, g.counts?.[e.id] !== undefined
                            ? h("span", {class: "muted small", text: " " + tn("page.rules.copies", g.counts[e.id])})
                            : null),
                        h("dd", {text: e.text})])))));
    }

    function open() {
        if (!dialog.firstChild) build();
        dialog.showModal();
        /** @type {HTMLElement | null} */ (dialog.querySelector(".rules-close"))?.focus();
    }

    dialog.addEventListener("close", () => button.focus());
    // a click on the backdrop (outside the dialog's box) closes it too
    dialog.addEventListener("click", (e) => {
        if (e.target !== dialog) return;
        const r = dialog.getBoundingClientRect();
        const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
        if (!inside) dialog.close();
    });
    return {button, dialog, open};
}
