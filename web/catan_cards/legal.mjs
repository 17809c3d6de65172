// legal.mjs -- the seat's legal actions (state.legal), sorted by where the
// page offers them: on the principality (builds, roads, settlements,
// cities, picks), on the stacks (draw, search, a hand card put under a
// stack), in the trade forms (bank, caravan, offers), in the arrangement
// of the start regions, and as buttons grouped by their first word.
// Positions are read from the texts only to place the controls; every
// control plays its text unchanged.
export {};

/**
 * @typedef {{text: string, col: number, row: number}} Spot
 * @typedef {{text: string, give: string, get: string}} Swap
 * @typedef {{text: string, gc: number, gr: string, tc: number, tr: string}} Offer
 * @typedef {{
 *   builds: Map<string, Spot[]>,
 *   roads: Map<string, string>,
 *   settlements: Map<string, string[]>,
 *   cities: Map<number, string>,
 *   picks: Spot[],
 *   draws: Map<number, string>,
 *   searches: Map<number, string>,
 *   under: Map<string, {verb: string, stacks: Map<number, string>}>,
 *   trades: Swap[],
 *   swaps: Swap[],
 *   offers: Offer[],
 *   arranges: Set<string>,
 *   groups: Map<string, string[]>,
 *   all: Set<string>
 * }} Legal
 * under: hand card -> the verb (`exchange`, `discard`, `put`, `under`) and
 * stack -> text; groups: first word -> the remaining texts, in order.
 */

/**
 * @param {string[] | undefined} legal
 * @returns {Legal}
 */
export function sortLegal(legal) {
    /** @type {Legal} */
    const out = {builds: new Map(), roads: new Map(), settlements: new Map(), cities: new Map(),
                 picks: [], draws: new Map(), searches: new Map(), under: new Map(), trades: [],
                 swaps: [], offers: [], arranges: new Set(), groups: new Map(),
                 all: new Set(legal ?? [])};
    for (const text of legal ?? []) {
        const w = text.split(" ");
        const n = (/** @type {number} */ i) => Number(w[i]);
        if (w[0] === "build" && w.length === 4) {
            const spots = out.builds.get(w[1]) ?? [];
            spots.push({text, col: n(2), row: n(3)});
            out.builds.set(w[1], spots);
        } else if (w[0] === "road" && w.length === 2) {
            out.roads.set(w[1], text);
        } else if (w[0] === "settlement" && w.length >= 2) {
            out.settlements.set(w[1], [...(out.settlements.get(w[1]) ?? []), text]);
        } else if (w[0] === "city" && w.length === 2) {
            out.cities.set(n(1), text);
        } else if (w[0] === "pick" && w.length === 3) {
            out.picks.push({text, col: n(1), row: n(2)});
        } else if (w[0] === "draw" && w.length === 2) {
            out.draws.set(n(1), text);
        } else if (w[0] === "search" && w.length === 2) {
            out.searches.set(n(1), text);
        } else if (["exchange", "discard", "put"].includes(w[0]) && w.length === 3) {
            const entry = out.under.get(w[1]) ?? {verb: w[0], stacks: new Map()};
            entry.stacks.set(n(2), text);
            out.under.set(w[1], entry);
        } else if (w[0] === "trade" && w.length === 3) {
            out.trades.push({text, give: w[1], get: w[2]});
        } else if (w[0] === "swap" && w.length === 3) {
            out.swaps.push({text, give: w[1], get: w[2]});
        } else if (w[0] === "offer" && w.length === 3) {
            const a = /^(\d)([A-Za-z]+)$/.exec(w[1]), b = /^(\d)([A-Za-z]+)$/.exec(w[2]);
            if (a && b) out.offers.push({text, gc: Number(a[1]), gr: a[2], tc: Number(b[1]), tr: b[2]});
            else group(out, w, text);
        } else if (w[0] === "arrange") {
            out.arranges.add(text);
        } else {
            group(out, w, text);
        }
    }
    return out;
}

/**
 * @param {Legal} out
 * @param {string[]} words
 * @param {string} text
 */
function group(out, words, text) {
    const list = out.groups.get(words[0]) ?? [];
    list.push(text);
    out.groups.set(words[0], list);
}
