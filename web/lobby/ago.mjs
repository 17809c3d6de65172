// ago.mjs -- how long ago, in the catalog's language: "3 days ago",
// "vor 3 Tagen", "gisteren" (Intl.RelativeTimeFormat), and how many whole
// days a table has gone without a move.

import {catalog} from "../words/catalog.mjs";

/** The largest unit first: [unit, its length in seconds]. */
const UNITS = /** @type {const} */ ([
    ["year", 365 * 86400], ["month", 30 * 86400], ["week", 7 * 86400],
    ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1],
]);

/** @type {Intl.RelativeTimeFormat | null} */
let format = null;
let formatLang = "";

function relative() {
    const lang = catalog().lang;
    if (!format || formatLang !== lang) {
        // the pseudo-language is no locale Intl knows: it counts in English
        try { format = new Intl.RelativeTimeFormat(lang, {numeric: "auto"}); }
        catch { format = new Intl.RelativeTimeFormat("en", {numeric: "auto"}); }
        formatLang = lang;
    }
    return format;
}

/** Now, in seconds since the epoch, as the server counts. */
export function nowSeconds() {
    return Date.now() / 1000;
}

/**
 * "3 days ago" for a time `then` (seconds since the epoch); a time ahead
 * of this clock (the server's runs a little ahead) is "1 second ago".
 * @param {number} then
 * @param {number} [now]
 */
export function ago(then, now = nowSeconds()) {
    const seconds = Math.max(1, Math.floor(now - then));
    const [unit, size] = UNITS.find(([, s]) => seconds >= s) ?? UNITS[UNITS.length - 1];
    return relative().format(-Math.floor(seconds / size), unit);
}

/**
 * Whole days since `then`.
 * @param {number} then
 * @param {number} [now]
 */
export function daysSince(then, now = nowSeconds()) {
    return Math.floor(Math.max(0, now - then) / 86400);
}
