// tell.mjs -- actions told in words: the log's lines from the engine's
// accounts (tafel_state_describe, docs/events.md), as the terminal tells
// them (src/cli/tell.c).
//
// A seat's action is one line of its events' sentences.  A run of chance
// actions (the draws, deals and shuffles between two moves) is one line too,
// each of its sentences said once, with how often it happened: "Blue is
// dealt a hidden card (6 times)" — a person notices the deal, not forty
// single cards.  (The terminal folds only repeats in a row; on the page the
// order of a deal's cards tells nothing the view does not show.)  Each line
// keeps the notation of its actions, for whoever wants it.

import {catalog} from "./catalog.mjs";

/** @typedef {import("../types.js").ActionEvent} ActionEvent */

/**
 * One action of the record: its number (1-based), who acted, its notation
 * as this seat may see it, and its account (null while unknown).
 * @typedef {{n: number, seat: number | "chance", text: string, events: ActionEvent[] | null}} Told
 */

/**
 * One line of the log: the actions first..last (1-based), told.
 * @typedef {{first: number, last: number, seat: number | "chance", sentences: string[],
 *   notation: string[], events: ActionEvent[]}} LogLine
 */

/**
 * Each sentence once, in the order first said, with its count:
 * ["a", "b", "a"] -> ["a (2 times)", "b"].
 * @param {string[]} sentences
 */
export function foldRepeats(sentences) {
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const s of sentences) counts.set(s, (counts.get(s) ?? 0) + 1);
    return [...counts].map(([s, count]) => count === 1 ? s
        : catalog().text("common.play.chance_repeated", {move: s, count}));
}

/**
 * The sentences of one account; an action whose account is unknown is told
 * by its notation, marked as such.
 * @param {Told} a
 */
export function sentencesOf(a) {
    const c = catalog();
    if (!a.events) return [c.text("page.log.unknown", {text: a.text})];
    return a.events.map((e) => c.event(e));
}

/**
 * The log's lines for actions (in record order).
 * @param {Told[]} actions
 * @returns {LogLine[]}
 */
export function tellLines(actions) {
    /** @type {LogLine[]} */
    const lines = [];
    for (const a of actions) {
        const prev = lines[lines.length - 1];
        const events = a.events ?? [];
        if (a.seat === "chance" && prev && prev.seat === "chance" && prev.last === a.n - 1) {
            prev.last = a.n;
            prev.sentences.push(...sentencesOf(a));
            prev.notation.push(a.text);
            prev.events.push(...events);
            continue;
        }
        lines.push({first: a.n, last: a.n, seat: a.seat, sentences: sentencesOf(a),
            notation: [a.text], events: events.slice()});
    }
    for (const l of lines) if (l.seat === "chance") l.sentences = foldRepeats(l.sentences);
    return lines;
}
