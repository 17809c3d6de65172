// decisions.mjs -- the choices outside the rows: a setup joker's row, a
// wrongly placed animal or building (`ten` / `keep`), an animal joker's
// kind (`assign KIND`), and any legal text no other control offers.
import {h, button, seatLook} from "../cards/dom.mjs";
import {cardFace, rowTitle} from "./cards.mjs";

/**
 * @param {import("../types.js").GameContext} ctx
 * @param {any} view
 * @param {import("./legal.mjs").Legal} legal
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawDecision(ctx, view, legal, play) {
    const d = view.decision;
    const parts = [];
    if (d) {
        const who = seatLook(ctx, d.seat).name;
        const mine = d.seat === ctx.seat;
        if (d.kind === "row") {
            parts.push(h("p", null, `${mine ? "You put" : `${who} puts`} the joker turned up at setup into a row:`),
                       cardFace(ctx.pieces, d.card));
        } else if (d.kind === "ten_or_keep") {
            parts.push(h("p", null,
                         `${mine ? "You" : who} secured a wrongly placed card in the ${rowTitle(ctx.pieces, d.row)} row: `
                         + "take 10 points and remove it, or keep it like any card of its kind."),
                       cardFace(ctx.pieces, d.card));
        } else if (d.kind === "assign") {
            const seat = view.seats?.[d.seat] ?? {};
            parts.push(h("p", null, `${mine ? "You assign" : `${who} assigns`} an animal joker to a kind `
                         + `${mine ? "you hold" : "held"} (${d.new_jokers} won this round, `
                         + `${seat.unassigned_jokers ?? 0} held from before).`));
        }
    }
    const rowButtons = [...legal.rowChoices].map(([row, text]) =>
        button(rowTitle(ctx.pieces, row), () => play(text), {data: {key: `dec-${text}`}, title: text}));
    const choiceButtons = legal.choices.map((c) =>
        button(c.label, () => play(c.text), {class: `cc-choice cc-choice-${c.kind}`,
                                            data: {key: `dec-${c.text}`}, title: c.text}));
    const other = legal.other.map((text) =>
        button(text, () => play(text), {data: {key: `dec-${text}`}}));
    const buttons = [...rowButtons, ...choiceButtons, ...other];
    if (!parts.length && !buttons.length) return null;
    return h("section", {class: "cc-decision", "aria-label": "decision"},
             parts, buttons.length ? h("div", {class: "cc-buttons"}, buttons) : null);
}
