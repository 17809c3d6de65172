// header.mjs -- whose turn it is, and the seats: name and colour, who
// plays them, connected or not, resigned, score, and the winners at the end.
//
// The seats are drawn once and then updated in place, so a score can count
// up to its new value when the accounts of a state gave points (`points`
// of its events), with the gain rising next to it for a moment; a score
// that changed without points (an undo, a join) is simply set.  With
// prefers-reduced-motion the score is set at once and nothing rises.

import {h} from "./dom.mjs";
import {seatName, playerLabel, playerName, swatch} from "./seats.mjs";
import {t, tn, botWord} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */

const COUNT_MS = 600;   // how long a score takes to count up
const GAIN_MS = 1400;   // how long the "+10" stays (its CSS animation's length)

/**
 * The words for whose turn it is.
 * @param {StateMessage} st
 */
export function turnText(st) {
    if (st.status === "over") {
        if (st.reason === "abandoned") return t("page.turn.over_abandoned");
        if (st.reason === "aborted") return t("page.turn.over_aborted");
        if (st.reason === "declined") return t("page.turn.over_declined");
        if (st.reason === "expired") return t("page.turn.over_expired");
        const w = st.winners ?? [];
        if (w.length === 0) return t("page.turn.over_nobody");
        if (w.length === 1) {
            return w[0] === st.seat ? t("page.turn.over_you_win") : t("page.turn.over_wins", {seat: w[0]});
        }
        if (st.seat !== null && w.includes(st.seat)) {
            return t("page.turn.over_you_share", {seats: w.filter((i) => i !== st.seat)});
        }
        return t("page.turn.over_share", {seats: w});
    }
    if (st.waiting) {
        const mine = st.seat !== null && st.seats[st.seat]?.invited;
        return t(mine ? "page.turn.invited" : "page.turn.invitations");
    }
    if (typeof st.to_move !== "number") return t("page.turn.wait");
    if (st.legal && st.legal.length) return t("page.turn.yours");
    const who = st.seats[st.to_move];
    if (!who) return t("page.turn.wait");
    const player = playerName(who, st.to_move, st.seat);
    if (who.resigned) return t("page.turn.resigned", {player, bot: botWord("greedy")});
    return t(who.kind === "bot" ? "page.turn.thinking" : "page.turn.to_move", {player});
}

/** Whether the page should not animate. */
export function reducedMotion() {
    return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The points the accounts of a state gave each seat.
 * @param {StateMessage} st
 * @returns {number[]}
 */
export function pointsOf(st) {
    const sum = st.seats.map(() => 0);
    for (const account of st.events ?? []) {
        for (const ev of account.events ?? []) {
            if (!Array.isArray(ev.points)) continue;
            ev.points.forEach((/** @type {unknown} */ p, /** @type {number} */ i) => {
                if (typeof p === "number" && i < sum.length) sum[i] += p;
            });
        }
    }
    return sum;
}

/**
 * One seat's score: the number, counted up to a new value, and the gain
 * rising beside it.
 */
function scoreBox() {
    const number = h("span", {class: "score-number"});
    const el = h("span", {class: "score"}, number);
    let shown = 0;
    let target = 0;
    /** @type {number | null} */
    let frame = null;

    /** @param {number} v */
    function set(v) {
        if (frame !== null) cancelAnimationFrame(frame);
        frame = null;
        shown = target = v;
        number.textContent = String(v);
    }

    /** Counts from the shown value to v; gain is what the accounts gave. @param {number} v @param {number} gain */
    function countTo(v, gain) {
        if (reducedMotion() || v === target) {
            set(v);
            return;
        }
        const from = shown, start = performance.now();
        target = v;
        if (frame !== null) cancelAnimationFrame(frame);
        const step = () => {
            const k = Math.min(1, (performance.now() - start) / COUNT_MS);
            shown = Math.round(from + (v - from) * k);
            number.textContent = String(shown);
            frame = k < 1 ? requestAnimationFrame(step) : null;
        };
        frame = requestAnimationFrame(step);
        const rise = h("span", {class: "gain" + (gain < 0 ? " loss" : ""), "aria-hidden": "true",
                                text: gain > 0 ? `+${gain}` : String(gain)});
        el.append(rise);
        setTimeout(() => rise.remove(), GAIN_MS);
    }

    return {el, set, countTo};
}

/** @param {boolean} [oneScreen] a table on this device: its people share the screen */
export function createHeader(oneScreen = false) {
    const banner = h("p", {class: "turn", "aria-live": "polite"});
    const seats = h("ol", {class: "seats", "aria-label": t("page.seats.label")});
    // a practice table's chosen seed, for everyone at it (docs/protocol.md)
    const seed = h("p", {class: "small muted seed", hidden: true, title: t("page.seed_about")});
    const el = h("section", {class: "head"}, banner, seats, seed);
    /** @type {{li: HTMLLIElement, label: HTMLElement, flags: HTMLElement, score: ReturnType<typeof scoreBox>}[]} */
    let rows = [];
    /** @type {number[] | null} */
    let lastScores = null;

    /** @param {number} n */
    function build(n) {
        rows = Array.from({length: n}, (_, i) => {
            const label = h("span", {class: "muted"});
            const flags = h("span", {class: "flags"});
            const score = scoreBox();
            const li = h("li", {class: "seat"}, swatch(i),
                h("span", {class: "seat-name"}, h("strong", {text: seatName(i)}), " ", label),
                score.el, flags);
            return {li, label, flags, score};
        });
        seats.replaceChildren(...rows.map((r) => r.li));
        lastScores = null;
    }

    /** @param {StateMessage} st */
    function update(st) {
        banner.textContent = turnText(st);
        seed.hidden = st.seed === undefined;
        seed.textContent = st.seed === undefined ? "" : t("page.seed", {seed: st.seed});
        banner.dataset.mine = String(!!st.legal?.length && st.status === "playing");
        if (rows.length !== st.seats.length) build(st.seats.length);
        const gains = pointsOf(st);
        st.seats.forEach((seat, i) => {
            const row = rows[i];
            // nobody moves while an invitation waits: the seat says it is invited instead
            const toMove = st.status === "playing" && !st.waiting && st.to_move === i;
            const won = st.status === "over" && (st.winners ?? []).includes(i);
            const flags = [];
            if (toMove) flags.push(h("span", {class: "flag to-move", text: t("page.seats.to_move")}));
            if (seat.invited) flags.push(h("span", {class: "flag invited", text: t("page.seats.invited")}));
            if (won) flags.push(h("span", {class: "flag won", text: t("page.seats.winner")}));
            // an external bot that broke its protocol lost the seat: say why
            if (seat.forfeit) {
                flags.push(h("span", {class: "flag resigned", text: t("page.seats.forfeited"),
                                      title: t("page.seats.forfeit_why", {why: seat.forfeit})}));
            } else if (seat.resigned) flags.push(h("span", {class: "flag resigned", text: t("page.seats.resigned")}));
            // people at one screen (a table on this device) are neither online nor away
            if (seat.kind === "human" && i !== st.seat && !oneScreen) {
                flags.push(h("span", {class: `flag ${seat.connected ? "online" : "offline"}`,
                                      text: t(seat.connected ? "page.seats.online" : "page.seats.away")}));
            }
            // a seat held by more than one socket: another window, or someone else
            if (seat.kind === "human" && (seat.sockets ?? 0) > 1) {
                flags.push(h("span", {class: "flag windows", text: tn("page.seats.windows", seat.sockets ?? 0)}));
            }
            row.li.className = "seat" + (toMove ? " active" : "") + (i === st.seat ? " mine" : "");
            if (toMove) row.li.setAttribute("aria-current", "true");
            else row.li.removeAttribute("aria-current");
            row.label.textContent = playerLabel(seat, i, st.seat);
            row.flags.replaceChildren(...flags);
            const score = st.scores[i] ?? 0;
            row.score.el.setAttribute("aria-label", t("page.seats.score", {score}));
            if (lastScores && gains[i] !== 0 && lastScores[i] !== score) row.score.countTo(score, gains[i]);
            else row.score.set(score);
        });
        lastScores = st.scores.slice();
    }
    return {el, update};
}
