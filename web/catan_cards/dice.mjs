// dice.mjs -- the turn: the production die (pips), the event die's face,
// the event card turned up last, and what the step of the turn is about.
import {h, seatLook} from "../cards/dom.mjs";
import {EVENT_NAMES} from "./cards.mjs";

const FACES = /** @type {Record<string, string>} */ ({
    tournament: "Tournament", trade: "Trade advantage", brigand: "Brigand attack",
    "good-year": "Good year", event: "Event card",
});

const STEPS = /** @type {Record<string, string>} */ ({
    arrange: "arranging the start regions", "start-stack": "choosing a stack for the start cards",
    "start-take": "taking start cards", roll: "rolling the dice (or an Alchemist)",
    gain: "gaining a resource", take: "taking a resource from the opponent", main: "playing, trading, building",
    "place-regions": "placing the new settlement's regions", refill: "refilling the hand",
    "pay-search": "paying for a search", "search-take": "taking a card of the stack",
    discard: "over the hand limit: discarding under stacks", "exchange-take": "taking a card after an exchange",
    offer: "answering an offer", counter: "answering an attack", pick: "picking a card to go back to hand",
    caravan: "swapping with the Caravan", "merchant-take": "taking with the Merchant",
    "merchant-give": "giving a resource back (Merchant)", spy: "looking at the opponent's hand (Spy)",
    conflict: "putting the opponent's cards under stacks (Conflict)", "master-builder": "Master builder: searching a stack or passing",
    "master-take": "taking a card (Master builder)", "master-put": "putting a card into the stack (Master builder)",
    scout: "choosing regions with the Scout", bank: "trading with the bank", negotiate: "making an offer",
    over: "the game is over",
});

/**
 * A die face with pips.
 * @param {number} n
 * @returns {SVGElement}
 */
function die(n) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 30 30");
    svg.setAttribute("class", "ct-die");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `production die ${n}`);
    const rect = document.createElementNS(ns, "rect");
    for (const [k, v] of Object.entries({x: 1, y: 1, width: 28, height: 28, rx: 5, fill: "#fff", stroke: "#333", "stroke-width": 1.5}))
        rect.setAttribute(k, String(v));
    svg.append(rect);
    /** @type {Record<number, number[][]>} */
    const at = {1: [[15, 15]], 2: [[8, 8], [22, 22]], 3: [[8, 8], [15, 15], [22, 22]],
                4: [[8, 8], [22, 8], [8, 22], [22, 22]], 5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
                6: [[8, 8], [22, 8], [8, 15], [22, 15], [8, 22], [22, 22]]};
    for (const [x, y] of at[n] ?? []) {
        const c = document.createElementNS(ns, "circle");
        c.setAttribute("cx", String(x)); c.setAttribute("cy", String(y)); c.setAttribute("r", "2.8");
        c.setAttribute("fill", "#222");
        svg.append(c);
    }
    return svg;
}

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {string | null} lastEvent  the event card named by the latest roll, if any
 * @param {boolean} mine  whether this seat must act
 * @returns {HTMLElement}
 */
export function drawTurn(ctx, view, lastEvent, mine) {
    const who = typeof view.next === "number" ? seatLook(ctx, view.next) : null;
    const step = STEPS[view.frame] ?? view.frame;
    const offer = view.offer ? h("span", {class: "ct-offer-line"},
        `${seatLook(ctx, view.active).name} offers ${view.offer.give} for ${view.offer.get}`) : null;
    return h("header", {class: "ct-turn"},
             h("span", null, view.turn ? h("b", null, `Turn ${view.turn}`) : h("b", null, "Setup"),
               view.turn ? ` · ${seatLook(ctx, view.active).name}'s turn` : null),
             view.die ? h("span", {class: "ct-dice"}, die(view.die),
                          h("span", {class: "ct-face", title: "event die"}, FACES[view.event_die] ?? view.event_die ?? "")) : null,
             lastEvent ? h("span", {class: "ct-event", title: "the event card turned up"}, EVENT_NAMES[lastEvent] ?? lastEvent) : null,
             who ? h("span", {class: `ct-next${mine ? " ct-mine-next" : ""}`, style: {"--owner": who.colour}},
                     mine ? `You: ${step}` : `${who.name}: ${step}`)
                 : h("span", {class: "ct-next"}, step),
             offer,
             view.declined_offers ? h("span", {class: "ct-muted"}, `declined offers ${view.declined_offers}/3`) : null);
}

