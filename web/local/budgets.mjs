// budgets.mjs -- how long a bot of a local table may think about one move.
//
// In the page the engine runs in WebAssembly on the visitor's own machine,
// which may be a phone: every bot choice and every hint is capped by time
// (tafel_bot_set_time_cap), whatever its level's iterations would take, so
// that no move waits more than about 2 s (docs/local.md, "Budgets").  A
// level not listed (a typed spec such as "mcts:ms=5000") gets `default`.

/**
 * The most milliseconds one bot choice (one action) takes, by level.  One
 * second: a Carcassonne turn is two choices (the tile, then the follower),
 * so a bot's turn stays within 2 s on any machine.  In chromium on this
 * project's machine `hard` takes 0.2-0.65 s a move; with the CPU slowed four
 * times (a mid-range phone: bench/wasm.mjs --browser --throttle 4) 0.8-2 s,
 * so there the cap cuts its search by up to half -- it plays a little weaker,
 * never slower (docs/local.md, "Budgets").
 */
export const BOT_TIME_CAP_MS = Object.freeze({
    expert: 1000,
    hard: 1000,
    medium: 1000,
    easy: 1000,
    greedy: 1000,
    random: 1000,
    default: 1000,
});

/** The most milliseconds a hint (the `hard` bot's analysis of one action) takes. */
export const HINT_TIME_CAP_MS = 1500;

/**
 * The levels a local table offers, in the order of the lobby's list; each
 * only for the games it plays (expert: those with a net built in).
 */
export const LOCAL_LEVELS = Object.freeze(["random", "greedy", "easy", "medium", "hard", "expert"]);

/**
 * The cap of one choice by a bot of spec ("hard", "mcts:iters=900").
 * @param {string} spec
 */
export function botTimeCap(spec) {
    const caps = /** @type {Record<string, number>} */ (BOT_TIME_CAP_MS);
    return caps[spec] ?? caps.default;
}
