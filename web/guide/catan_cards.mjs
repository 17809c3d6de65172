// catan_cards.mjs -- the guided first game of the Catan card game (guide.mjs
// runs it).
//
// Seed 1: the regions in the page's standard order, the first stack's
// Abbey, Spy and Trade fleet (lumber) taken as the starting hand, a first
// roll, the fleet built next to a settlement, the hand refilled from a
// stack for free, the bot's offer of a trade accepted, and a second roll.
// Each step names the actions it asks for, best first; the first legal
// one is asked.

/** @typedef {import("./guide.mjs").Guide} Guide */

/**
 * What to click first for an action reached in steps: the arrangement (the
 * standard order, then the confirm button: web/catan_cards/arrange.mjs) and
 * an expansion card (the card in the hand, then its lit site).
 * @param {string} action @param {HTMLElement} board
 * @returns {Element | null}
 */
function pointSteps(action, board) {
    if (action.startsWith("arrange ")) {
        const go = board.querySelector("[data-key=\"arrange-go\"]:not([disabled])");
        return go ?? board.querySelector("[data-key=\"arrange-default\"]");
    }
    const m = /^build (\S+) /.exec(action);
    if (m) {
        const chosen = board.querySelector(".ct-hand-card[aria-pressed=\"true\"]");
        if (chosen instanceof HTMLElement && chosen.dataset.pop !== `card:${m[1]}`) return chosen;
        return board.querySelector(`.ct-hand-card[data-pop="card:${m[1]}"]:not([disabled])`);
    }
    return null;
}

/** @type {Guide} */
export const guide = {
    game: "catan_cards",
    seats: ["human", "easy"],
    seed: 1,
    steps: [
        // the regions in another order are as good: the prompts after it name none
        {key: "arrange", want: ["arrange L W B O G Au", /^arrange /], alike: /^arrange /},
        {key: "start_stack", want: ["search 1", /^search /]},
        {key: "take_abbey", want: ["take abbey", /^take /]},
        {key: "take_spy", want: ["take spy", /^take /]},
        {key: "take_fleet", want: ["take fleet-lumber", /^take /]},
        {key: "roll", want: ["roll"]},
        {key: "build", want: ["build fleet-lumber 2 -1", /^build fleet-lumber /, /^build /]},
        {key: "end_phase", want: ["end"]},
        {key: "refill", want: ["draw 1", /^draw /, "done"]},
        {key: "done", want: ["done"]},
        {key: "offer", want: ["accept", "decline"]},
        {key: "roll_again", want: ["roll"]},
    ],
    point: pointSteps,
};
