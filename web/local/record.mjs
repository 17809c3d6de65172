// record.mjs -- a local table as a record, the JSON `tafel replay` reads, and
// a record read back (src/core/record.c's format: {"game", "players", "seed",
// "actions", "forfeit", "scores", "winners"}).
//
// A seed above 2^53 is no exact JSON number, so it is written as a decimal
// string, and a string is read back.  A record carries the result only when
// `tafel replay` works out the same one: the game ended by its rules, or by
// the resignation of one seat (written as its "forfeit").  readRecord checks
// every field and throws an Error whose message names what is wrong; the
// actions themselves are checked by replaying them (tables.mjs).

const SEED_EXACT_MAX = 2n ** 53n;
const UINT64_MAX = 2n ** 64n - 1n;
const MAX_PLAYERS = 5;
export const MAX_ACTIONS = 10000;
const MAX_TEXT = 16 << 20;

/**
 * @typedef {{spec: string, human: boolean, resigned: boolean}} SavedSeat
 * @typedef {{table: string, game: string, seed: string, seed_chosen: boolean,
 *   seats: SavedSeat[], actions: string[], seq: number, created: number, updated: number,
 *   status: "playing" | "over", to_move: number | "chance" | "terminal",
 *   scores: number[], winners: number[]}} SavedTable
 * @typedef {{game: string, players: (string | null)[], seed: bigint, actions: string[],
 *   forfeit: {seat: number, reason: string} | null, scores: number[] | null,
 *   winners: number[] | null}} ReadRecord
 */

/**
 * The record of a saved table.
 * @param {SavedTable} saved
 */
export function toRecord(saved) {
    const seed = BigInt(saved.seed);
    /** @type {Record<string, unknown>} */
    const record = {
        game: saved.game,
        players: saved.seats.map((s) => (s.human ? "human" : s.spec)),
        seed: seed <= SEED_EXACT_MAX ? Number(seed) : seed.toString(),
        actions: saved.actions.slice(),
    };
    const resigned = saved.seats.flatMap((s, i) => (s.resigned ? [i] : []));
    if (resigned.length > 0)
        record.forfeit = {seat: resigned[0], reason: "resigned"};
    if (saved.status === "over" && resigned.length <= 1) {
        record.scores = saved.scores.slice();
        record.winners = saved.winners.slice();
    }
    return record;
}

/** @param {unknown} v @returns {v is Record<string, unknown>} */
function isObject(v) {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** @param {unknown} v */
function readSeed(v) {
    if (v === undefined) return 0n;
    if (typeof v === "number") {
        if (!Number.isInteger(v) || v < 0 || v > Number(SEED_EXACT_MAX))
            throw new Error("\"seed\" must be an integer 0..2^53 (write larger seeds as a string)");
        return BigInt(v);
    }
    if (typeof v === "string") {
        if (!/^[0-9]{1,20}$/.test(v) || BigInt(v) > UINT64_MAX)
            throw new Error(`"seed" string '${v.slice(0, 40)}' is not a 64-bit unsigned number`);
        return BigInt(v);
    }
    throw new Error("\"seed\" must be a number or a decimal string");
}

/** @param {unknown} v */
function readPlayers(v) {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) throw new Error("\"players\" must be an array");
    if (v.length > MAX_PLAYERS)
        throw new Error(`"players" has ${v.length} names, at most ${MAX_PLAYERS}`);
    return v.map((p, i) => {
        if (p !== null && typeof p !== "string")
            throw new Error(`"players" item ${i} must be a string or null`);
        return p;
    });
}

/** @param {unknown} v */
function readActions(v) {
    if (v === undefined) throw new Error("no \"actions\"");
    if (!Array.isArray(v)) throw new Error("\"actions\" must be an array of strings");
    if (v.length > MAX_ACTIONS)
        throw new Error(`"actions" has ${v.length} actions, at most ${MAX_ACTIONS.toLocaleString("en")}`);
    v.forEach((a, i) => {
        if (typeof a !== "string")
            throw new Error(`"actions" must be an array of strings (item ${i} is not)`);
    });
    return /** @type {string[]} */ (v);
}

/** @param {unknown} v */
function readForfeit(v) {
    if (v === undefined) return null;
    if (!isObject(v) || typeof v.seat !== "number" || typeof v.reason !== "string")
        throw new Error("\"forfeit\" must be {\"seat\": N, \"reason\": \"...\"}");
    if (!Number.isInteger(v.seat) || v.seat < 0 || v.seat >= MAX_PLAYERS)
        throw new Error(`"forfeit" seat must be 0..${MAX_PLAYERS - 1}`);
    return {seat: v.seat, reason: v.reason};
}

/** @param {unknown} scores @param {unknown} winners */
function readResult(scores, winners) {
    if (scores === undefined && winners === undefined) return {scores: null, winners: null};
    if (scores === undefined || winners === undefined)
        throw new Error(`"${scores !== undefined ? "scores" : "winners"}" without "${
            scores !== undefined ? "winners" : "scores"}" (a result gives both)`);
    if (!Array.isArray(scores) || scores.length < 1 || scores.length > MAX_PLAYERS)
        throw new Error(`"scores" must be an array of 1 to ${MAX_PLAYERS} numbers`);
    scores.forEach((s, i) => {
        if (typeof s !== "number" || !Number.isFinite(s))
            throw new Error(`"scores" item ${i} is not a number`);
    });
    if (!Array.isArray(winners) || winners.length > scores.length)
        throw new Error(`"winners" must be an array of at most ${scores.length} seats`);
    winners.forEach((w, i) => {
        if (typeof w !== "number" || !Number.isInteger(w) || w < 0 || w >= scores.length)
            throw new Error(`"winners" item ${i} is not a seat 0..${scores.length - 1}`);
        if (winners.indexOf(w) !== i) throw new Error(`"winners" names seat ${w} twice`);
    });
    return {scores: /** @type {number[]} */ (scores), winners: /** @type {number[]} */ (winners)};
}

/**
 * A record's text read and checked field by field; throws an Error saying
 * what is wrong.
 * @param {string} text
 * @returns {ReadRecord}
 */
export function readRecord(text) {
    if (typeof text !== "string") throw new Error("a record is a text");
    if (text.length > MAX_TEXT) throw new Error(`the record is over ${MAX_TEXT >> 20} MB`);
    // a JSON-lines file: the record is its first line, as tafel replay reads it
    const first = text.trimStart().split("\n", 1)[0] ?? "";
    /** @type {unknown} */
    let root;
    try {
        root = JSON.parse(first.trim().startsWith("{") && first.trim().endsWith("}") ? first : text);
    } catch (err) {
        throw new Error(`not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!isObject(root)) throw new Error("not a JSON object");
    if (root.game === undefined) throw new Error("no \"game\"");
    if (typeof root.game !== "string") throw new Error("\"game\" must be a string");
    const seed = readSeed(root.seed);
    const players = readPlayers(root.players);
    const actions = readActions(root.actions);
    const forfeit = readForfeit(root.forfeit);
    const {scores, winners} = readResult(root.scores, root.winners);
    return {game: root.game, players, seed, actions, forfeit, scores, winners};
}
