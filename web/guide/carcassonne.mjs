// carcassonne.mjs -- the guided first game of Carcassonne (guide.mjs runs it).
//
// Seed 3 deals tile E (a bit of city) first: laid above the start tile it
// closes the start tile's city at once, so a newcomer sees a knight score
// and come home on the first turn; then two bending roads (a robber), a city
// on three sides and a cloister.  Each step names the actions it asks for, best
// first; the first legal one is asked.  The bot `easy` is seeded by the
// table's seed, so a player who follows the prompts always meets these.

/** @typedef {import("./guide.mjs").Guide} Guide */

/**
 * A placement "place X Y R" is reached in steps: the spot, then turns, then
 * the lay button (web/carcassonne/view.mjs).  What to click next for it.
 * @param {string} action @param {HTMLElement} board
 * @returns {Element | null}
 */
function pointPlace(action, board) {
    const m = /^place (-?\d+) (-?\d+) \d+$/.exec(action);
    if (!m) return null;
    const spot = board.querySelector(`.carc-place[data-place="${m[1]},${m[2]}"]`);
    if (spot) return spot;                     // not chosen yet
    return board.querySelector("button.carc-b-rotate");   // chosen, turned the wrong way
}

/** @type {Guide} */
export const guide = {
    game: "carcassonne(players=2)",
    seats: ["human", "easy"],
    seed: 3,
    steps: [
        {key: "city_tile", want: ["place 0 1 180", /^place /]},
        {key: "knight", want: [/^follower city /, "pass"]},
        {key: "road_tile", want: ["place 1 0 0", /^place /]},
        {key: "robber", want: [/^follower road /, "pass"]},
        {key: "longer_road", want: ["place 1 -1 90", "place 1 -1 180", /^place /]},
        {key: "keep_followers", want: ["pass"]},
        {key: "big_city", want: ["place 0 2 0", /^place /]},
        {key: "big_knight", want: [/^follower city /, "pass"]},
        {key: "cloister_tile", want: ["place 1 1 180", "place 1 1 270", /^place /]},
        {key: "monk", want: [/^follower cloister/, "pass"]},
    ],
    point: pointPlace,
};
