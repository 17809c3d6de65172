// actions.mjs -- the legal actions no board control offers, as buttons
// grouped by their first word: rolling, ending the main phase, going to the
// bank or to negotiate, gaining, taking and paying resources, taking a
// card, a new settlement's regions, counters, the Conflict's `under`...
import {h, button} from "../cards/dom.mjs";
import {cardFace, cardInfo, regionName, resChip, RES_COLOURS, RES_NAMES} from "./cards.mjs";

const TITLES = /** @type {Record<string, string>} */ ({
    roll: "Roll", alchemist: "Alchemist: set the production die", end: "End the main phase",
    bank: "Trade with the bank", negotiate: "Make an offer", gain: "Gain a resource",
    take: "Take", pay: "Pay for the search", give: "Give a resource back", above: "New regions: which goes above",
    choose: "Choose a region (Scout)", done: "Done", pass: "Pass", "no-counter": "Do not counter",
    under: "Put a card of the opponent's hand under a stack", accept: "Accept", decline: "Decline",
    play: "Play",
});

/** Verbs whose one button says it all. */
const SINGLE = new Set(["roll", "end", "bank", "negotiate", "done", "pass", "no-counter", "accept", "decline"]);

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
            singles.push(button(TITLES[verb] ?? verb, () => play(verb),
                                {class: `ct-action${verb === "roll" ? " ct-primary" : ""}`, title: verb, data: {key: verb}}));
            continue;
        }
        const byCard = verb === "under";
        /** @type {Map<string, HTMLElement[]>} */
        const lines = new Map();
        for (const text of texts) {
            const rest = text.split(" ").slice(1);
            const line = byCard ? rest[0] : "";
            const label = byCard ? `stack ${rest[1]}` : rest.join(" ");
            const b = button("", () => play(text), {class: "ct-res-button", title: text, data: {key: text}});
            b.append(labelFor(verb, label, view));
            lines.set(line, [...(lines.get(line) ?? []), b]);
        }
        sections.push(h("div", {class: "ct-group", role: "group", "aria-label": TITLES[verb] ?? verb},
                        h("span", {class: "ct-group-title"}, TITLES[verb] ?? verb),
                        [...lines].map(([card, buttons]) =>
                            h("div", {class: "ct-buttons"}, card ? cardFace(card, {small: true}) : null, buttons))));
    }
    return h("section", {class: "ct-panel ct-actions", "aria-label": "actions"},
             singles.length ? h("div", {class: "ct-buttons"}, singles) : null, sections);
}

/**
 * What a button shows for the rest of a text.
 * @param {string} verb
 * @param {string} rest
 * @param {any} view
 * @returns {Node | string}
 */
function labelFor(verb, rest, view) {
    if (RES_COLOURS[rest]) return h("span", null, resChip(rest), ` ${RES_NAMES[rest]}`);
    if (verb === "take" && rest !== "?" && cardInfo(rest).colour !== "unknown") return cardFace(rest, {small: true});
    if (verb === "above") {
        /** @type {string[]} */
        const drawn = view.drawn_regions ?? [];
        const other = drawn.find((r) => r !== rest) ?? drawn[0];
        return h("span", {class: "ct-above"}, regionName(rest), " above, ", other ? regionName(other) : "", " below");
    }
    if (verb === "choose") return regionName(rest);
    if (verb === "alchemist") return `die ${rest}`;
    return rest || verb;
}
