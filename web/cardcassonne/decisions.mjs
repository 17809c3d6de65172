// decisions.mjs -- the choices outside the rows: a setup joker's row, a
// wrongly placed animal or building (`ten` / `keep`), an animal joker's
// kind (`assign KIND`), and any legal text no other control offers.
import {h, button} from "../cards/dom.mjs";
import {cardFace} from "./cards.mjs";
import {pt, rowName} from "./words.mjs";

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
        const mine = d.seat === ctx.seat;
        if (d.kind === "row") {
            parts.push(h("p", null, pt(mine ? "decision.row_mine" : "decision.row", {seat: d.seat, card: d.card})),
                       cardFace(ctx.pieces, d.card));
        } else if (d.kind === "ten_or_keep") {
            parts.push(h("p", null, pt(mine ? "decision.wrong_mine" : "decision.wrong",
                                       {seat: d.seat, card: d.card, row: d.row})),
                       cardFace(ctx.pieces, d.card));
        } else if (d.kind === "assign") {
            const held = view.seats?.[d.seat]?.unassigned_jokers ?? 0;
            parts.push(h("p", null, pt(mine ? "decision.assign_mine" : "decision.assign",
                                       {seat: d.seat, new_jokers: d.new_jokers ?? 0, held})));
        }
    }
    const rowButtons = [...legal.rowChoices].map(([row, text]) =>
        button(rowName(row), () => play(text), {data: {key: `dec-${text}`, action: text}}));
    const choiceButtons = legal.choices.map((c) =>
        button(c.label, () => play(c.text), {class: `cc-choice cc-choice-${c.kind}`,
                                            data: {key: `dec-${c.text}`, action: c.text}}));
    const other = legal.other.map((text) =>
        button(pt("button.other", {text}), () => play(text), {data: {key: `dec-${text}`, action: text}}));
    const buttons = [...rowButtons, ...choiceButtons, ...other];
    if (!parts.length && !buttons.length) return null;
    return h("section", {class: "cc-decision", "aria-label": pt("decision.label")},
             parts, buttons.length ? h("div", {class: "cc-buttons"}, buttons) : null);
}
