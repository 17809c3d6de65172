// rows.mjs -- the four rows from the board outwards: cards, face-down
// cards, big followers and the cards each follower claims (underlined in
// its seat's colour); what the other players put in since this seat last
// acted, marked with their names; the cards a round's scoring takes, shown
// going; and at the open end the places where a legal action puts
// something (a card, a follower, a setup joker), as buttons that play that
// action's text.
import {h, button, seatLook} from "../cards/dom.mjs";
import {ROW_COLOURS, ROW_ORDER, entryElement, cardFace} from "./cards.mjs";
import {icon, svgMeeple} from "./icons.mjs";
import {pt, rowName, seatWord} from "./words.mjs";

/** @typedef {import("./cards.mjs").Entry} Entry */

/**
 * Which seat's follower claims each entry of a row (undefined: none yet).
 * A follower claims the entries between itself and the previous follower
 * or the start of the row (docs/rules/cardcassonne.md, Turns).
 * @param {Entry[]} entries
 * @returns {(number | undefined)[]}
 */
export function securedBy(entries) {
    /** @type {(number | undefined)[]} */
    const out = entries.map(() => undefined);
    let start = 0;
    entries.forEach((entry, i) => {
        if (entry.follower === undefined) return;
        for (let j = start; j < i; j++) out[j] = entry.follower;
        start = i + 1;
    });
    return out;
}

/**
 * @typedef {{
 *   legal: import("./legal.mjs").Legal,
 *   selected: string | null,
 *   play: (text: string) => void,
 *   arrivals: import("./arrivals.mjs").Arrivals,
 *   leaving: import("./leaving.mjs").Leaving | null,
 *   firstDown: boolean
 * }} RowsInput
 * firstDown: the seat's next card goes face down (its first this round)
 */

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view  the engine's view
 * @param {RowsInput} input
 * @returns {HTMLElement}
 */
export function drawRows(ctx, view, input) {
    /** @type {Map<string, number>} */
    const lasts = new Map();
    (view.seats ?? []).forEach((/** @type {any} */ seat, /** @type {number} */ i) => {
        if (seat.last && i !== ctx.seat) lasts.set(`${seat.last.row}:${seat.last.index}`, i);
    });
    const rows = ROW_ORDER.map((row) => {
        /** @type {Entry[]} */
        const entries = view.rows?.[row] ?? [];
        const owners = securedBy(entries);
        const cells = entries.map((entry, i) => {
            const owner = owners[i];
            const arrived = input.arrivals.at(row, i);
            const more = [];
            if (owner !== undefined) more.push(pt("tip.claimed", {seat: owner}));
            if (arrived) more.push(pt("tip.arrived", {seat: arrived.seat}));
            const el = entryElement(ctx, entry, more);
            el.dataset.key = `entry-${row}-${i}`;
            el.tabIndex = -1;
            if (owner !== undefined) {
                el.classList.add("cc-secured");
                el.style.setProperty("--by", seatLook(ctx, owner).colour);
            }
            const lastOf = lasts.get(`${row}:${i}`);
            if (arrived) {
                el.classList.add("cc-arrived");
                if (arrived.fresh) el.classList.add("cc-arrive");
                el.dataset.arrived = String(arrived.seat);
                el.style.setProperty("--last", seatLook(ctx, arrived.seat).colour);
                el.append(h("span", {class: "cc-last-tag", "aria-hidden": "true"}, seatWord(arrived.seat)));
            } else if (lastOf !== undefined) {
                el.classList.add("cc-last");
                el.style.setProperty("--last", seatLook(ctx, lastOf).colour);
            }
            const gone = input.leaving?.slots.get(row)?.get(i);
            if (gone) el.append(ghosts(ctx, [gone], "cc-leaving cc-leaving-slot"));
            return el;
        });
        // one tab stop a row; the arrows go along it (see rowKeys)
        const first = cells.find((c) => c.dataset.entry !== "taken") ?? cells[0];
        if (first) first.tabIndex = 0;
        const gone = input.leaving?.prefix.get(row);
        return h("div", {class: "cc-row", style: {"--row": ROW_COLOURS[row]}, data: {row},
                         role: "group", "aria-label": pt("aria.row", {name: rowName(row), count: entries.length})},
                 h("div", {class: "cc-row-head"},
                   icon(row, "cc-icon cc-row-icon"),
                   h("span", {class: "cc-row-title"}, rowName(row)),
                   h("span", {class: "cc-row-count", "aria-hidden": "true"}, String(entries.length))),
                 h("div", {class: "cc-row-cards", onkeydown: rowKeys},
                   gone ? ghosts(ctx, gone, "cc-leaving") : null,
                   cells, targets(ctx, row, input)));
    });
    return h("section", {class: "cc-rows", "aria-label": pt("aria.rows")}, rows);
}

/**
 * Entries that are leaving the row, drawn once, fading out (none at all
 * when the player asked for less motion: view.css).
 * @param {import("../types.js").GameContext} ctx
 * @param {Entry[]} entries
 * @param {string} cls
 * @returns {HTMLElement}
 */
function ghosts(ctx, entries, cls) {
    const group = h("span", {class: cls, "aria-hidden": "true",
                             onanimationend: (/** @type {AnimationEvent} */ e) => {
                                 if (e.target === group) group.remove();
                             }},
                    entries.map((e) => {
                        const el = entryElement(ctx, e);
                        delete el.dataset.entry;
                        el.removeAttribute("role");
                        el.removeAttribute("aria-label");
                        el.classList.remove("cc-tipped");
                        return el;
                    }));
    return group;
}

/**
 * Left and right arrows move the focus along a row's cards.
 * @param {KeyboardEvent} e
 */
function rowKeys(e) {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    const here = e.target instanceof HTMLElement ? e.target : null;
    const box = e.currentTarget instanceof HTMLElement ? e.currentTarget : null;
    if (!here || !box || !here.dataset.entry) return;
    const cells = [...box.querySelectorAll(":scope > [data-entry]")];
    const i = cells.indexOf(here);
    const next = cells[i + (e.key === "ArrowRight" ? 1 : -1)];
    if (next instanceof HTMLElement) {
        e.preventDefault();
        next.focus();
    }
}

/**
 * The buttons at the open end of one row.
 * @param {import("../types.js").GameContext} ctx
 * @param {string} row
 * @param {RowsInput} input
 * @returns {HTMLElement[]}
 */
function targets(ctx, row, input) {
    const {legal, selected, play} = input;
    const out = [];
    const cardText = selected ? legal.plays.get(selected)?.get(row) : undefined;
    if (cardText && selected) {
        const b = button("", () => play(cardText),
                         {class: "cc-target", data: {key: `play-${row}`, action: cardText},
                          "aria-label": pt(input.firstDown ? "target.down_label" : "target.play_label",
                                           {card: selected, row})});
        b.append(h("span", {class: "cc-target-label"}, pt(input.firstDown ? "target.down" : "target.play")),
                 cardFace(ctx.pieces, selected, {tip: false}));
        out.push(b);
    } else if (legal.plays.size && !selected) {
        out.push(h("span", {class: "cc-slot", "aria-hidden": "true"}, "+"));
    }
    const followerText = legal.followers.get(row);
    if (followerText) {
        const colour = seatLook(ctx, ctx.seat ?? 0).colour;
        const b = button("", () => play(followerText),
                         {class: "cc-target cc-target-follower", data: {key: `follower-${row}`, action: followerText},
                          "aria-label": pt("target.follower_label", {row})});
        b.append(svgMeeple(colour), h("span", {class: "cc-target-label"}, pt("target.follower")));
        out.push(b);
    }
    const rowText = legal.rowChoices.get(row);
    if (rowText) {
        out.push(button(pt("target.joker"), () => play(rowText),
                        {class: "cc-target", data: {key: `row-${row}`, action: rowText},
                         "aria-label": pt("target.joker_label", {row})}));
    }
    return out;
}
