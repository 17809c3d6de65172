// cardcassonne.mjs -- the guided first game of Cardcassonne (guide.mjs runs it).
//
// Seed 1 makes the newcomer the first dealer with an animal joker turned up
// at setup (put into the red row), and deals a red person and two red
// sheep: one face-down card and one face-up card into the red row, then the
// big follower behind them claims the row, the rest of the hand goes out,
// the round is scored and the joker joins the sheep.  Each
// step names the actions it asks for, best first; the first legal one is
// asked.

/** @typedef {import("./guide.mjs").Guide} Guide */

/**
 * A card is played in two clicks: the card in the hand, then the lit end of
 * its row (web/cardcassonne/hand.mjs, rows.mjs).  What to click first.
 * @param {string} action @param {HTMLElement} board
 * @returns {Element | null}
 */
function pointCard(action, board) {
    const m = /^play (\S+) [YRGB]$/.exec(action);
    if (!m) return null;
    const chosen = board.querySelector(".cc-hand-card[aria-pressed=\"true\"]");
    // another card chosen: let go of it first
    if (chosen instanceof HTMLElement && chosen.dataset.card !== m[1]) return chosen;
    return board.querySelector(`.cc-hand-card[data-card="${m[1]}"]:not([disabled])`);
}

/** @type {Guide} */
export const guide = {
    game: "cardcassonne(players=2)",
    seats: ["human", "easy"],
    seed: 1,
    steps: [
        {key: "setup_joker", want: ["row R", /^row /]},
        {key: "face_down", want: ["play R3 R", /^play /]},
        {key: "face_up", want: ["play RA R", /^play /]},
        {key: "follower", want: ["follower R", /^follower /]},
        {key: "left_over", want: ["play RA R", /^play /]},
        {key: "own_colour", want: ["play G3 G", /^play /]},
        {key: "city_row", want: ["play B2 B", /^play /]},
        {key: "joker", want: ["play AJ Y", /^play /]},
        {key: "assign", want: ["assign sheep", /^assign /]},
    ],
    point: pointCard,
};
