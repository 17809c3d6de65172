// words.mjs -- the Cardcassonne board's words: every text the board shows
// comes from the catalog (web/i18n/<lang>/cardcassonne*.json); this file
// only names the keys the board reads most.
import {t, tn, seatWord} from "../words/catalog.mjs";

export {t, tn, seatWord};

/**
 * A text of the board: cardcassonne.page.<key>.
 * @param {string} key
 * @param {Record<string, any>} [fields]
 */
export function pt(key, fields) {
    return t(`cardcassonne.page.${key}`, fields);
}

/**
 * A plural phrase of the board: cardcassonne.page.<key>_one / _other.
 * @param {string} key
 * @param {number} n
 * @param {Record<string, any>} [fields]
 */
export function ptn(key, n, fields) {
    return tn(`cardcassonne.page.${key}`, n, fields);
}

/** A card's bare name ("red sheep"), for labels and lists. @param {string} code */
export function cardName(code) {
    return t(`cardcassonne.cards.${code}`);
}

/** What a card does, in whole. @param {string} code */
export function cardText(code) {
    return t(`cardcassonne.card_text.${code}`);
}

/** A row's name as a heading ("Cloister row"). @param {string} row */
export function rowName(row) {
    return pt(`row.${row}`);
}
