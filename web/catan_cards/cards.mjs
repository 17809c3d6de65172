// cards.mjs -- what the Catan card game's cards and regions look like, and
// what they say.  The facts are the engine's own (`pieces` of GET
// /api/games, tafel_game_pieces_json: each card's colour, kind, cost and
// points, the resources and the road's, settlement's and city's costs),
// given to usePieces by the view; the words are the catalog's
// (catan_cards.card.<code>, catan_cards.card_text.<code>, ...); only the
// screen colours are the page's.  Each card face names its card, shows its
// cost and points as icons, and carries `data-pop`, the key of its whole
// text in the popover (popover.mjs).
import {h} from "../cards/dom.mjs";
import {t, tn, catalog} from "../words/catalog.mjs";
import {RES_LOOK, resGlyph, pointBadges} from "./icons.mjs";

/** The resource codes in the notation's order ("L", "W", ...). */
export const RESOURCES = /** @type {string[]} */ ([]);
/** Resource code -> its name as events and catalog keys say it ("L" -> "lumber"). */
export const RES_NAME = /** @type {Record<string, string>} */ ({});
/** Region kind -> the resource code it produces ("forest" -> "L"). */
export const KIND_RES = /** @type {Record<string, string>} */ ({});

/**
 * @typedef {{colour: string, what: string, cost: Record<string, number>, vp: number,
 *   strength: number, tournament: number, trade: number}} CardFacts
 */

/** code -> the engine's facts of the card */
const CARDS = /** @type {Record<string, CardFacts>} */ ({});
/** road, settlement, city -> cost by resource code and points */
export const CENTRAL = /** @type {Record<string, {cost: Record<string, number>, vp: number}>} */ ({});

/**
 * Takes the game's pieces (docs/catan_cards.md, "The game's pieces").
 * @param {any} pieces
 */
export function usePieces(pieces) {
    RESOURCES.length = 0;
    for (const r of pieces?.resources ?? []) {
        RESOURCES.push(r.code);
        RES_NAME[r.code] = r.name;
        KIND_RES[r.region] = r.code;
    }
    for (const [code, c] of Object.entries(pieces?.cards ?? {}))
        CARDS[code] = {colour: c.colour, what: c.what, cost: c.cost ?? {}, vp: c.vp ?? 0,
                       strength: c.strength ?? 0, tournament: c.tournament ?? 0, trade: c.trade ?? 0};
    for (const [name, p] of Object.entries(pieces?.central ?? {})) CENTRAL[name] = {cost: p.cost ?? {}, vp: p.vp ?? 0};
}

/**
 * @param {string} code
 * @returns {CardFacts | null}
 */
export function cardFacts(code) {
    return CARDS[code] ?? null;
}

/** A card's name. @param {string} code */
export function cardName(code) {
    return code === "?" ? t("common.hidden") : t(`catan_cards.card.${code}`);
}

/** A resource's name ("lumber"). @param {string} code */
export function resWord(code) {
    return t(`catan_cards.resource.${RES_NAME[code] ?? code}`);
}

/** "3 lumber". @param {string} code @param {number} n */
export function resCount(code, n) {
    return tn(`catan_cards.n_${RES_NAME[code] ?? code}`, n);
}

/**
 * A cost in words: "2 ore and 1 lumber", or "Free".
 * @param {Record<string, number>} cost
 */
export function costWords(cost) {
    const items = RESOURCES.filter((r) => cost[r]).map((r) => resCount(r, cost[r]));
    return items.length ? t("catan_cards.card_cost", {cost: catalog().list(items)}) : t("catan_cards.card_free");
}

/**
 * A resource chip: its glyph on its colour, with a count.
 * @param {string} code
 * @param {number} [count]
 * @returns {HTMLElement}
 */
export function resChip(code, count) {
    const [bg, fg] = RES_LOOK[code] ?? ["#888", "#fff"];
    const label = count === undefined ? resWord(code) : resCount(code, count);
    return h("span", {class: "ct-res", style: {"--res": bg, "--res-ink": fg}, role: "img", "aria-label": label, title: label},
             resGlyph(code), count !== undefined ? h("b", {"aria-hidden": "true"}, count) : null);
}

/**
 * A cost as icons: "2" and the glyph per resource, labelled in words.
 * @param {Record<string, number>} cost
 * @returns {HTMLElement}
 */
export function costIcons(cost) {
    const label = costWords(cost);
    const parts = RESOURCES.filter((r) => cost[r]).map((r) => {
        const [bg, fg] = RES_LOOK[r] ?? ["#888", "#fff"];
        return h("span", {class: "ct-cost-one"}, cost[r] > 1 ? h("b", null, cost[r]) : null,
                 h("span", {class: "ct-res ct-res-mini", style: {"--res": bg, "--res-ink": fg}}, resGlyph(r)));
    });
    return h("span", {class: "ct-cost", role: "img", "aria-label": label, title: label}, parts);
}

/**
 * A smaller font for a name whose longest word would not fit the card's
 * width: a compound such as "Handelskantoor" must not break mid-word, and
 * the browser has no hyphenation dictionary for every language.
 * @param {string} name
 * @param {boolean} small
 * @returns {Record<string, string> | null} the style (null: the usual size)
 */
function nameSize(name, small) {
    const fits = small ? 10 : 12;   // letters of the usual size across the card
    const longest = Math.max(...name.split(/\s+/).map((w) => w.length));
    if (longest <= fits) return null;
    return {"--name": `${Math.max(0.56, 0.76 * fits / longest).toFixed(2)}rem`};
}

/**
 * An expansion card's face: name, cost and points; its whole text in the
 * popover.  `inButton`: the face is inside a button, which takes the focus
 * and the popover.
 * @param {string} code  "?" for a hidden card
 * @param {{small?: boolean, inButton?: boolean}} [opts]
 * @returns {HTMLElement}
 */
export function cardFace(code, opts = {}) {
    const size = opts.small ? " ct-small" : "";
    const facts = code === "?" ? null : cardFacts(code);
    if (!facts) {
        const label = t("common.hidden");
        return h("span", {class: `ct-card ct-back${size}`, role: "img", "aria-label": label, title: label}, "?");
    }
    const name = cardName(code);
    return h("span", {class: `ct-card ct-${facts.colour}${size}`,
                      ...(opts.inButton ? {} : {tabindex: "0", role: "group", "aria-label": name, data: {pop: `card:${code}`}})},
             h("span", {class: "ct-card-name", style: nameSize(name, !!opts.small)}, name),
             h("span", {class: "ct-card-foot"},
               facts.colour === "yellow" ? null : costIcons(facts.cost), pointBadges(facts)));
}

/**
 * A card in a line of text (the other player's hand): its name on its
 * colour, its text in the popover; a hidden card is a small back.
 * @param {string} code
 * @returns {HTMLElement}
 */
export function cardChip(code) {
    const facts = code === "?" ? null : cardFacts(code);
    if (!facts) return h("span", {class: "ct-mini-back", role: "img", "aria-label": t("common.hidden"), title: t("common.hidden")});
    const name = cardName(code);
    return h("span", {class: `ct-chip ct-${facts.colour}`, tabindex: "0", role: "group", "aria-label": name,
                      data: {pop: `card:${code}`}}, name);
}

/**
 * What a card's popover says: name and kind, cost, worth, its text, where
 * it goes.
 * @param {string} code
 * @returns {Node[] | null}
 */
export function cardText(code) {
    const facts = cardFacts(code);
    if (!facts) return null;
    const worth = [["vp", "catan_cards.vp"], ["strength", "catan_cards.strength"],
                   ["tournament", "catan_cards.tournament"], ["trade", "catan_cards.trade_points"]]
        .filter(([k]) => /** @type {Record<string, any>} */ (facts)[k] > 0)
        .map(([k, key]) => tn(key, /** @type {Record<string, any>} */ (facts)[k]));
    return [h("b", {class: "ct-pop-title"}, cardName(code)),
            h("span", {class: "ct-pop-kind"}, t(`catan_cards.what.${facts.what}`)),
            h("p", {class: "ct-pop-cost"}, costWords(facts.cost)),
            worth.length ? h("p", null, t("catan_cards.card_points", {worth: catalog().list(worth)})) : null,
            h("p", {class: "ct-pop-text"}, t(`catan_cards.card_text.${code}`)),
            h("p", {class: "ct-pop-note"}, t(`catan_cards.when.${facts.colour}`))].filter((x) => x !== null);
}

/**
 * A region card: its name in full, production number, resource and the
 * resources it holds (0 to 3), and what the latest roll did to it.
 * @param {{region: string, kind: string, number: number, stock: number}} r
 * @param {{gain: number, lost: number, loss: number} | undefined} mark
 * @returns {HTMLElement}
 */
export function regionCard(r, mark) {
    const res = KIND_RES[r.kind] ?? "?";
    const [bg, fg] = RES_LOOK[res] ?? ["#888", "#fff"];
    const pips = [];
    for (let i = 0; i < 3; i++) pips.push(h("span", {class: `ct-pip${i < r.stock ? " ct-full" : ""}`}));
    const label = t("catan_cards.page.region_label", {name: t(`catan_cards.region.${r.kind}`), number: r.number,
                                                       stock: resCount(res, r.stock)});
    const name = RES_NAME[res] ?? res;
    return h("div", {class: `ct-region${mark?.gain ? " ct-produced" : ""}${mark?.loss ? " ct-hit" : ""}`,
                     style: {"--res": bg, "--res-ink": fg}, role: "group", "aria-label": label,
                     data: {pop: `region:${r.kind}:${r.number}:${r.stock}`}},
             h("span", {class: "ct-region-kind"}, t(`catan_cards.region.${r.kind}`)),
             h("span", {class: "ct-region-number", "aria-hidden": "true"}, r.number),
             h("span", {class: "ct-region-stock", "aria-hidden": "true"},
               h("span", {class: "ct-res ct-res-mini"}, resGlyph(res)), h("span", {class: "ct-pips"}, pips)),
             mark?.gain ? h("span", {class: "ct-mark ct-gain"}, t("catan_cards.page.gain", {count: mark.gain, resource: name})) : null,
             mark?.loss ? h("span", {class: "ct-mark ct-loss"}, t("catan_cards.page.loss", {count: mark.loss, resource: name})) : null,
             mark?.lost ? h("span", {class: "ct-mark ct-spilled"}, t("catan_cards.page.spilled", {count: mark.lost, resource: name})) : null);
}

/**
 * What a region's popover says.
 * @param {string} kind
 * @param {number} number
 * @param {number} stock
 * @returns {Node[]}
 */
export function regionText(kind, number, stock) {
    const res = KIND_RES[kind] ?? "?";
    return [h("b", {class: "ct-pop-title"}, t(`catan_cards.region.${kind}`)),
            h("p", null, t("catan_cards.page.region_text", {resource: RES_NAME[res] ?? res, number,
                                                             stock: resCount(res, stock)}))];
}

/** A region card's name in words ("Forest 6"). @param {string} name  e.g. "forest6" */
export function regionWords(name) {
    const m = /^([a-z]+)\d$/.exec(name);
    return catalog().has(`catan_cards.region.${name}`) ? t(`catan_cards.region.${name}`) : t(`catan_cards.region.${m ? m[1] : name}`);
}

/**
 * A region card known by its name only ("forest6": drawn regions, the
 * Scout's choice), with its number and resource.
 * @param {string} name
 * @returns {HTMLElement}
 */
export function regionChip(name) {
    const m = /^([a-z]+)(\d)$/.exec(name);
    const kind = m ? m[1] : name;
    const res = KIND_RES[kind] ?? "?";
    const [bg, fg] = RES_LOOK[res] ?? ["#888", "#fff"];
    return h("span", {class: "ct-region-chip", style: {"--res": bg, "--res-ink": fg}},
             h("span", {class: "ct-res ct-res-mini"}, resGlyph(res)), regionWords(name));
}

/**
 * A road, settlement or city: its name, and its text in the popover.
 * @param {string} what
 * @returns {Node[]}
 */
export function pieceText(what) {
    const cost = CENTRAL[what]?.cost;
    return [h("b", {class: "ct-pop-title"}, t(`catan_cards.piece.${what}`)),
            cost ? h("p", {class: "ct-pop-cost"}, costWords(cost)) : null,
            h("p", {class: "ct-pop-text"}, t(`catan_cards.piece_text.${what}`))].filter((x) => x !== null);
}
