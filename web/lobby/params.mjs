// params.mjs -- a game's options, read from the `params` of GET /api/games.
//
// The engine describes each option as one line:
//   "players=2..5 (default 2)  number of players"
//   "farmers=2000|modern (default 2000)  2000: 4 per completed city ..."
// A range gives a number field, a list of values a choice.  The game string
// names only the options that differ from their default, and always the
// number of players when the game has that option (as the terminal does).

/**
 * @typedef {{name: string, kind: "range", min: number, max: number, def: string, about: string}
 *         | {name: string, kind: "choice", values: string[], def: string, about: string}} Param
 */

/**
 * @param {string} line
 * @returns {Param | null}
 */
export function parseParam(line) {
    const m = /^([A-Za-z_][\w]*)=(\S+)\s+\(default ([^)]*)\)\s*(.*)$/.exec(line);
    if (!m) return null;
    const [, name, spec, def, about] = m;
    const r = /^(-?\d+)\.\.(-?\d+)$/.exec(spec);
    if (r) return {name, kind: "range", min: Number(r[1]), max: Number(r[2]), def, about};
    return {name, kind: "choice", values: spec.split("|"), def, about};
}

/**
 * Whether an option's value is a seat ("first=0..4  seat of the first
 * player"): the form offers the table's seats by colour, only as many as
 * play.  The engine says so in its description of the option.
 * @param {Param} p
 */
export function isSeatParam(p) {
    return p.kind === "range" && p.min === 0 && /^seat of\b/.test(p.about);
}

/**
 * The game string of `game` with option values `values` (name -> text).
 * @param {string} game
 * @param {Param[]} params
 * @param {Record<string, string>} values
 */
export function gameString(game, params, values) {
    const parts = [];
    for (const p of params) {
        const v = values[p.name] ?? p.def;
        if (v !== p.def || p.name === "players") parts.push(`${p.name}=${v}`);
    }
    return parts.length ? `${game}(${parts.join(",")})` : game;
}

/**
 * The options given in a game string: "carcassonne(players=3)" -> {players: "3"}.
 * @param {string} game
 * @returns {Record<string, string>}
 */
export function optionsOf(game) {
    /** @type {Record<string, string>} */
    const out = {};
    const m = /\((.*)\)\s*$/.exec(game);
    if (!m) return out;
    for (const part of m[1].split(",")) {
        const [k, v] = part.split("=");
        if (k && v !== undefined) out[k.trim()] = v.trim();
    }
    return out;
}

/**
 * The game's name: the part of the game string before "(".
 * @param {string} game
 */
export function gameName(game) {
    return game.split("(")[0].trim();
}
