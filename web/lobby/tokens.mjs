// tokens.mjs -- the seat tokens this browser knows, by table.
//
// A seat's token lives in its link (/t/<table>?token=<token>), so a reload
// keeps the seat.  The tokens of the tables made here, and of every seat
// link opened here, are also kept in localStorage, so the lobby can offer
// "play as Red" again.  Nothing else is stored.

import {readStored, writeStored} from "../stored.mjs";

const KEY = "tafel.tokens";

/** @returns {Record<string, (string | null)[]>} */
function readAll() {
    return readStored(KEY);
}

/** @param {Record<string, (string | null)[]>} all */
function writeAll(all) {
    writeStored(KEY, all); /* refused: the links still work */
}

/**
 * The tokens of a table, by seat (null: unknown).
 * @param {string} table
 */
export function tokensOf(table) {
    return readAll()[table] ?? [];
}

/**
 * @param {string} table
 * @param {(string | null)[]} tokens
 */
export function rememberTokens(table, tokens) {
    const all = readAll();
    all[table] = tokens;
    writeAll(all);
}

/**
 * @param {string} table
 * @param {number} seat
 * @param {string} token
 */
export function rememberToken(table, seat, token) {
    const all = readAll();
    const list = all[table] ?? [];
    while (list.length <= seat) list.push(null);
    list[seat] = token;
    all[table] = list;
    writeAll(all);
}

/**
 * The link of a seat (token null: a spectator's), absolute.
 * @param {string} table
 * @param {string | null} token
 */
export function seatLink(table, token) {
    const path = `/t/${table}` + (token ? `?token=${token}` : "");
    return `${location.origin}${path}`;
}
