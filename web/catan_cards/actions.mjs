// actions.mjs -- the legal actions no board control offers, as buttons
// grouped by their first word: rolling, ending the main phase, going to the
// bank or to negotiate, gaining, taking and paying resources, taking a
// card, a new settlement's regions, counters, the Conflict's `under`...
// Every label is the catalog's; a card shows its face (and its text in the
// popover).
import {h, button} from "../cards/dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {cardFace, cardFacts, cardName, regionChip, regionWords, resChip, resWord, RES_NAME} from "./cards.mjs";
import {dieFace} from "./icons.mjs";

/** Verbs whose one button says it all. */
const SINGLE = new Set(["roll", "end", "bank", "negotiate", "done", "pass", "no-counter", "accept", "decline"]);

/**
 * A group's title: the page's own words for the verb, else the catalog's action.
 * @param {string} verb
 * @param {string} first  the first text of the group
 */
export function groupTitle(verb, first) {
    const rest = first.split(" ")[1] ?? "";
    const key = verb === "take" ? (RES_NAME[rest] ? "catan_cards.page.group.take_resource" : "catan_cards.page.group.take_card")
        : `catan_cards.page.group.${verb}`;
    if (catalog().has(key)) return t(key);
    return catalog().has(`catan_cards.action.${verb}`) ? t(`catan_cards.action.${verb}`) : verb;
}

/**
 * @param {any} view
 * @param {Map<string, string[]>} groups
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawActions(view, groups, play) {
    if (!groups.size) return null;
    /** @type {HTMLElement[]} */
    const singles = [];
    /** @type {HTMLElement[]} */
    const sections = [];
    for (const [verb, texts] of groups) {
        if (SINGLE.has(verb) && texts.length === 1 && texts[0] === verb) {
            const key = `catan_cards.page.do.${verb}`;
            singles.push(button(catalog().has(key) ? t(key) : groupTitle(verb, verb), () => play(verb),
                                {class: `ct-action${verb === "roll" ? " ct-primary" : ""}`, data: {key: verb}}));
            continue;
        }
        const byCard = verb === "under";
        /** @type {Map<string, HTMLElement[]>} */
        const lines = new Map();
        for (const text of texts) {
            const rest = text.split(" ").slice(1);
            const line = byCard ? rest[0] : "";
            const b = labelled(verb, rest, view, () => play(text), text);
            lines.set(line, [...(lines.get(line) ?? []), b]);
        }
        const title = groupTitle(verb, texts[0]);
        sections.push(h("div", {class: "ct-group", role: "group", "aria-label": title},
                        h("span", {class: "ct-group-title"}, title),
                        [...lines].map(([card, buttons]) =>
                            h("div", {class: "ct-buttons"}, card ? cardFace(card, {small: true}) : null, buttons))));
    }
    return h("section", {class: "ct-panel ct-actions", "aria-label": t("catan_cards.page.actions")},
             singles.length ? h("div", {class: "ct-buttons"}, singles) : null, sections);
}

/**
 * The button of one text: what the rest of the text names, in pictures and words.
 * @param {string} verb
 * @param {string[]} rest  the words after the verb
 * @param {any} view
 * @param {() => void} act
 * @param {string} text  the action's text (its key, to keep the focus)
 * @returns {HTMLElement}
 */
function labelled(verb, rest, view, act, text) {
    const b = button("", act, {class: "ct-res-button", data: {key: text}});
    const word = rest.join(" ");
    if (verb === "under") {
        b.append(t("catan_cards.page.stack_n", {stack: rest[1]}));
    } else if (RES_NAME[word]) {
        b.append(resChip(word), resWord(word));
    } else if (verb === "take" && cardFacts(word)) {
        b.classList.add("ct-card-button");
        b.dataset.pop = `card:${word}`;
        b.setAttribute("aria-label", t("catan_cards.page.take_card", {name: cardName(word)}));
        b.append(cardFace(word, {inButton: true}));
    } else if (verb === "take" && word === "?") {
        b.append(cardFace("?", {small: true}));
    } else if (verb === "above") {
        /** @type {string[]} */
        const drawn = view.drawn_regions ?? [];
        const other = drawn.find((r) => r !== word) ?? word;
        b.append(t("catan_cards.page.above_label", {above: regionWords(word), below: regionWords(other)}));
    } else if (verb === "choose") {
        b.append(regionChip(word));
    } else if (verb === "alchemist") {
        const label = t("catan_cards.page.alchemist_number", {number: word});
        b.setAttribute("aria-label", label);
        b.append(dieFace(Number(word)), label);
    } else {
        b.append(word);
    }
    return b;
}
