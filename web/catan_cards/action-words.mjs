// action-words.mjs -- a legal action of the Catan card game in words, for
// the list of all legal actions: the board's own labels where it has them
// ("Offer 2 lumber for 1 ore", "Take the Abbey"), else what the verb does
// and what it names ("Gain a resource of your choice: ore").

import {t, catalog} from "../words/catalog.mjs";
import {cardFacts, cardName, regionWords, resWord, RES_NAME} from "./cards.mjs";
import {groupTitle} from "./actions.mjs";

/** What a verb does, as the page's own controls say it, else null. @param {string} verb @param {string} text */
function verbWords(verb, text) {
    if (catalog().has(`catan_cards.page.do.${verb}`)) return t(`catan_cards.page.do.${verb}`);
    const title = groupTitle(verb, text);
    return title === verb ? null : title;
}

/** A word of an action in words: a resource, a card, a region, or a number as it is. @param {string} word */
function thing(word) {
    if (RES_NAME[word]) return resWord(word);
    if (cardFacts(word)) return cardName(word);
    if (/^[a-z]+\d?$/.test(word) && catalog().has(`catan_cards.region.${word.replace(/\d$/, "")}`)) return regionWords(word);
    return word;
}

/**
 * @param {string} text a legal action's notation
 * @returns {string | null} null for a text this game does not have
 */
export function actionWords(text) {
    const w = text.split(" ");
    const [verb, a = "", b = ""] = w;
    const offer = (/** @type {string} */ s) => /^(\d)([A-Za-z]+)$/.exec(s);
    switch (verb) {
    case "build": return w.length === 4 ? t("catan_cards.page.build_at", {name: cardName(a), col: Number(b), row: Number(w[3])}) : null;
    case "road": case "settlement":
        if (a !== "left" && a !== "right") return null;
        return t(`catan_cards.actions.${verb}_${a}${b === "scout" ? "_scout" : ""}`);
    case "city": return w.length === 2 ? t("catan_cards.actions.city", {col: Number(a)}) : null;
    case "pick": return w.length === 3 ? t("catan_cards.actions.pick", {col: Number(a), row: Number(b)}) : null;
    case "draw": return w.length === 2 ? t("catan_cards.actions.draw", {stack: Number(a)}) : null;
    case "search": return w.length === 2 ? t("catan_cards.actions.search", {stack: Number(a)}) : null;
    case "exchange": case "discard": case "put": case "under":
        return w.length === 3 ? t(`catan_cards.actions.${verb}`, {name: cardName(a), stack: Number(b)}) : null;
    case "offer": {
        const give = offer(a), get = offer(b);
        return give && get ? t("catan_cards.page.offer_send", {give_count: Number(give[1]), give: RES_NAME[give[2]] ?? give[2],
                                                                 get_count: Number(get[1]), get: RES_NAME[get[2]] ?? get[2]}) : null;
    }
    case "trade": return w.length === 3 ? t("catan_cards.actions.trade", {give: RES_NAME[a] ?? a, get: RES_NAME[b] ?? b}) : null;
    case "swap": return w.length === 3 ? t("catan_cards.actions.swap", {give: RES_NAME[a] ?? a, get: RES_NAME[b] ?? b}) : null;
    case "take": if (cardFacts(a)) return t("catan_cards.page.take_card", {name: cardName(a)}); break;
    case "alchemist": return t("catan_cards.page.alchemist_number", {number: Number(a)});
    case "above": return t("catan_cards.actions.above", {region: regionWords(a)});
    default: break;
    }
    const what = verbWords(verb, text);
    if (what === null) return null;
    const rest = w.slice(1).map(thing);
    return rest.length ? t("catan_cards.actions.with", {what, which: catalog().list(rest)}) : what;
}
