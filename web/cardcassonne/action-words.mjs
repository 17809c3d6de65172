// action-words.mjs -- a legal action of Cardcassonne in words, for the list
// of all legal actions: the board's own labels ("Play the chicken into the
// cloister row", face down when it is the player's first card of the round).

import {t} from "../words/catalog.mjs";

/**
 * @param {string} text a legal action's notation
 * @param {any} view the state's view (whether the seat's next card goes face down)
 * @param {number | null} seat
 * @returns {string | null} null for a text this game does not have
 */
export function actionWords(text, view, seat) {
    const w = text.split(" ");
    switch (w[0]) {
    case "play": {
        const down = seat !== null && view?.seats?.[seat]?.played === 0;
        return w.length === 3 ? t(down ? "cardcassonne.page.target.down_label" : "cardcassonne.page.target.play_label",
                                  {card: w[1], row: w[2]}) : null;
    }
    case "follower": return w.length === 2 ? t("cardcassonne.page.target.follower_label", {row: w[1]}) : null;
    case "row": return w.length === 2 ? t("cardcassonne.page.target.joker_label", {row: w[1]}) : null;
    case "ten": return t("cardcassonne.action.ten");
    case "keep": return t("cardcassonne.action.keep");
    case "assign": return w.length === 2 ? t("cardcassonne.actions.assign", {animal: w[1]}) : null;
    default: return null;
    }
}
