// rows.mjs -- the four rows from the board outwards: cards, face-down
// cards, big followers and the cards each follower secures (underlined in
// its seat's colour), each seat's last entry ringed; at the open end, the
// places where a legal action puts something (a card, a follower, a setup
// joker), as buttons that play that action's text.
import {h, button, seatLook} from "../cards/dom.mjs";
import {ROW_COLOURS, ROW_ORDER, rowTitle, entryElement, cardFace, svgMeeple} from "./cards.mjs";

/**
 * @typedef {{card?: string, down?: number, follower?: number, taken?: boolean,
 *            turned?: boolean}} Entry
 */

/**
 * Which seat's follower secures each entry of a row (undefined: none yet).
 * A follower secures the entries between itself and the previous follower
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
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view  the engine's view
 * @param {import("./legal.mjs").Legal} legal
 * @param {string | null} selected  the hand card chosen, if any
 * @param {(text: string) => void} play
 * @returns {HTMLElement}
 */
export function drawRows(ctx, view, legal, selected, play) {
    /** @type {Map<string, number[]>} */
    const lasts = new Map();
    (view.seats ?? []).forEach((/** @type {any} */ seat, /** @type {number} */ i) => {
        if (!seat.last) return;
        const key = `${seat.last.row}:${seat.last.index}`;
        lasts.set(key, [...(lasts.get(key) ?? []), i]);
    });
    const rows = ROW_ORDER.map((row) => {
        /** @type {Entry[]} */
        const entries = view.rows?.[row] ?? [];
        const owners = securedBy(entries);
        const cells = entries.map((entry, i) => {
            const el = entryElement(ctx, entry);
            const owner = owners[i];
            if (owner !== undefined) {
                el.classList.add("cc-secured");
                el.style.setProperty("--by", seatLook(ctx, owner).colour);
                el.title += `; secured by ${seatLook(ctx, owner).name}`;
            }
            const last = lasts.get(`${row}:${i}`);
            if (last) {
                el.classList.add("cc-last");
                el.style.setProperty("--last", seatLook(ctx, last[0]).colour);
                const names = last.map((s) => seatLook(ctx, s).name).join(", ");
                el.title += `; last played by ${names}`;
                el.append(h("span", {class: "cc-last-tag"}, names));
            }
            return el;
        });
        return h("div", {class: "cc-row", style: {"--row": ROW_COLOURS[row]},
                         role: "group", "aria-label": `${rowTitle(ctx.pieces, row)} row`},
                 h("div", {class: "cc-row-head"},
                   h("span", {class: "cc-row-letter"}, row),
                   h("span", {class: "cc-row-title"}, rowTitle(ctx.pieces, row)),
                   h("span", {class: "cc-row-count"}, `${entries.length}`)),
                 h("div", {class: "cc-row-cards"}, cells, targets(ctx, row, legal, selected, play)));
    });
    return h("section", {class: "cc-rows", "aria-label": "the four rows"}, rows);
}

/**
 * The buttons at the open end of one row.
 * @param {import("../types.js").GameContext} ctx
 * @param {string} row
 * @param {import("./legal.mjs").Legal} legal
 * @param {string | null} selected
 * @param {(text: string) => void} play
 * @returns {HTMLElement[]}
 */
function targets(ctx, row, legal, selected, play) {
    const out = [];
    const title = rowTitle(ctx.pieces, row);
    const cardText = selected ? legal.plays.get(selected)?.get(row) : undefined;
    if (cardText) {
        const b = button("", () => play(cardText),
                         {class: "cc-target", data: {key: `play-${row}`},
                          title: cardText, "aria-label": `${cardText}: play ${selected} in the ${title} row`});
        b.append(h("span", {class: "cc-target-label"}, "play here"),
                 cardFace(ctx.pieces, /** @type {string} */ (selected)));
        out.push(b);
    } else if (legal.plays.size && !selected) {
        out.push(h("span", {class: "cc-slot", title: "choose a card of your hand first"}, "+"));
    }
    const followerText = legal.followers.get(row);
    if (followerText) {
        const look = seatLook(ctx, ctx.seat ?? 0);
        const b = button("", () => play(followerText),
                         {class: "cc-target cc-target-follower", data: {key: `follower-${row}`},
                          title: followerText,
                          "aria-label": `${followerText}: place your big follower at the end of the ${title} row`});
        b.append(svgMeeple(look.colour), h("span", {class: "cc-target-label"}, "follower here"));
        out.push(b);
    }
    const rowText = legal.rowChoices.get(row);
    if (rowText) {
        out.push(button(`put the joker here`, () => play(rowText),
                        {class: "cc-target", data: {key: `row-${row}`}, title: rowText}));
    }
    return out;
}
