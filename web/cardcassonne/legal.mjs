// legal.mjs -- the seat's legal actions (state.legal), sorted by what the
// page does with them.  Nothing here decides what is legal: every control
// the view draws plays one of these texts, unchanged.
import {t, pt} from "./words.mjs";

/**
 * @typedef {{
 *   plays: Map<string, Map<string, string>>,
 *   followers: Map<string, string>,
 *   rowChoices: Map<string, string>,
 *   choices: {text: string, label: string, kind: string}[],
 *   other: string[]
 * }} Legal
 * plays: card code -> row -> text (`play Y1 R`); followers: row -> text
 * (`follower G`); rowChoices: row -> text (`row B`, a setup joker);
 * choices: `ten`, `keep`, `assign KIND` as buttons; other: anything else.
 */

/**
 * @param {string[] | undefined} legal
 * @returns {Legal}
 */
export function sortLegal(legal) {
    /** @type {Legal} */
    const out = {plays: new Map(), followers: new Map(), rowChoices: new Map(), choices: [],
                 other: []};
    for (const text of legal ?? []) {
        const words = text.split(" ");
        if (words[0] === "play" && words.length === 3) {
            const rows = out.plays.get(words[1]) ?? new Map();
            rows.set(words[2], text);
            out.plays.set(words[1], rows);
        } else if (words[0] === "follower" && words.length === 2) {
            out.followers.set(words[1], text);
        } else if (words[0] === "row" && words.length === 2) {
            out.rowChoices.set(words[1], text);
        } else if (text === "ten") {
            out.choices.push({text, label: t("cardcassonne.action.ten"), kind: "ten"});
        } else if (text === "keep") {
            out.choices.push({text, label: t("cardcassonne.action.keep"), kind: "keep"});
        } else if (words[0] === "assign" && words.length === 2) {
            out.choices.push({text, label: pt("button.assign", {animal: words[1]}), kind: "assign"});
        } else {
            out.other.push(text);
        }
    }
    return out;
}
