// clock.mjs -- the table's clocks (docs/protocol.md, the state's "clock"):
// each seat's time, counted down on the page, the running one marked, low
// time marked (under 10 s or a tenth of the time), a line saying who ran
// out of time, and "claim the game" once the correspondence deadline of
// the seat to move has passed.
//
// The server sends each seat's time left as of the message (left_ms) and
// whose clock runs; the page subtracts the time since it received the
// state (performance.now: no drift from the computer's own clock).  Real
// time shows m:ss (h:mm:ss from an hour on); correspondence "2 d 3 h left".

import {h} from "./dom.mjs";
import {swatch, seatName} from "./seats.mjs";
import {t, botWord} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").ClockInfo} ClockInfo */

const TICK_MS = 250;

/** The clocks' look (clock.css, next to this module), once per page. */
export function clockStyle() {
    const href = new URL("./clock.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/** Real time as m:ss or h:mm:ss (whole seconds, rounded up: 0:00 is out). @param {number} ms */
export function clockDigits(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const hh = Math.floor(s / 3600), mm = Math.floor(s % 3600 / 60), ss = s % 60;
    const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
    return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** A span in words, its two largest units: "2 d 3 h", "4 min 5 s". @param {number} ms */
export function spanWords(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const d = Math.floor(s / 86400), hr = Math.floor(s % 86400 / 3600);
    const m = Math.floor(s % 3600 / 60), sec = s % 60;
    if (d) return t(hr ? "clocks.span.dh" : "clocks.span.d", {d, h: hr});
    if (hr) return t(m ? "clocks.span.hm" : "clocks.span.h", {h: hr, m});
    if (m) return t(sec ? "clocks.span.ms" : "clocks.span.m", {m, s: sec});
    return t("clocks.span.s", {s: sec});
}

/** The clock's kind and pace in words: "10 min + 5 s a move", "3 d a move". @param {ClockInfo} c */
export function clockAbout(c) {
    if (c.kind === "realtime") {
        return t("clocks.about.realtime", {minutes: (c.base_ms ?? 0) / 60000,
                                           seconds: (c.increment_ms ?? 0) / 1000});
    }
    return t("clocks.about.correspondence", {time: spanWords(c.per_move_ms ?? 0)});
}

/** Whether time ms is low: under 10 s, or a tenth of the time. @param {ClockInfo} c @param {number} ms */
export function lowTime(c, ms) {
    const whole = c.kind === "realtime" ? c.base_ms ?? 0 : c.per_move_ms ?? 0;
    return ms < 10000 || ms < whole / 10;
}

/**
 * The seat's time as shown: real time always, correspondence only while
 * the seat is to move.
 * @param {ClockInfo} c
 * @param {number | null} ms
 */
export function timeText(c, ms) {
    if (ms === null) return t("clocks.idle");
    return c.kind === "realtime" ? clockDigits(ms) : t("clocks.left", {time: spanWords(ms)});
}

/** @param {() => void} claim sends `claim` (the caller keeps one request at a time) */
export function createClock(claim) {
    clockStyle();
    const rows = h("div", {class: "clock-seats"});
    const about = h("span", {class: "clock-about small muted"});
    const note = h("p", {class: "clock-note", hidden: true});
    const claimButton = h("button", {type: "button", class: "clock-claim", hidden: true,
                                     text: t("clocks.claim"), onclick: () => claim()});
    const claimAbout = h("p", {class: "small clock-claim-about", hidden: true});
    const el = h("section", {class: "panel clocks", hidden: true, "aria-label": t("clocks.label")},
        h("h2", {class: "clock-title"}, t("clocks.label"), " ", about), rows, note, claimAbout,
        claimButton);
    /** @type {StateMessage | null} */
    let st = null;
    let received = 0;
    /** @type {ReturnType<typeof setInterval> | null} */
    let timer = null;
    /** @type {HTMLElement[]} */
    let times = [];
    /** @type {HTMLElement[]} */
    let seatRows = [];

    /** Seat i's time left now, or null (no time to show). @param {number} i */
    function leftNow(i) {
        const c = st?.clock;
        const left = c?.left_ms?.[i];
        if (!c || left === null || left === undefined) return null;
        const running = c.running === i && st?.status === "playing";
        return running ? Math.max(0, left - (performance.now() - received)) : left;
    }

    function draw() {
        const c = st?.clock;
        if (!st || !c) return;
        for (let i = 0; i < times.length; i++) {
            const ms = leftNow(i);
            times[i].textContent = timeText(c, ms);
            seatRows[i].classList.toggle("low", ms !== null && lowTime(c, ms) && st.status === "playing");
            seatRows[i].classList.toggle("out", ms !== null && ms <= 0);
        }
        const running = c.running;
        const mine = st.seat;
        const claimable = c.kind === "correspondence" && st.status === "playing" && mine !== null &&
            running !== null && running !== mine && (leftNow(running) ?? 1) <= 0 &&
            !st.seats[mine]?.resigned;
        claimButton.hidden = !claimable;
        claimAbout.hidden = !claimable;
        if (claimable && running !== null) claimAbout.textContent = t("clocks.claim_about", {seat: running});
        if (timer && (st.status !== "playing" || running === null)) {
            clearInterval(timer);
            timer = null;
        }
    }

    /** Who ran out of time, in words (or ""). @param {StateMessage} s */
    function timeoutWords(s) {
        /** @type {string[]} */
        const lines = [];
        s.seats.forEach((seat, i) => {
            if (seat.forfeit !== "time") return;
            if (seat.kind === "bot" && !seat.resigned) {
                lines.push(t("clocks.timeout.bot", {seat: i, bot: botWord(seat.bot)}));
            } else if (s.status === "over" && s.reason === "timeout") {
                lines.push(t("clocks.timeout.lost", {seat: i, seats: s.winners ?? []}));
            }
        });
        return lines.join(" ");
    }

    /** @param {StateMessage} state */
    function update(state) {
        st = state;
        received = performance.now();
        const words = timeoutWords(state);
        note.textContent = words;
        note.hidden = !words;
        const c = state.clock;
        el.hidden = !c && !words;
        el.dataset.running = c && c.running !== null ? String(c.running) : "";
        if (!c) {
            rows.replaceChildren();
            times = [];
            seatRows = [];
            return;
        }
        about.textContent = clockAbout(c);
        if (seatRows.length !== state.seats.length) {
            times = state.seats.map(() => h("span", {class: "clock-time"}));
            seatRows = state.seats.map((_, i) => h("div", {class: "clock-seat", "data-seat": String(i)},
                swatch(i), h("span", {class: "clock-name", text: seatName(i)}), times[i]));
            rows.replaceChildren(...seatRows);
        }
        seatRows.forEach((row, i) => {
            const running = c.running === i && state.status === "playing";
            row.classList.toggle("running", running);
            if (running) row.setAttribute("aria-current", "true");
            else row.removeAttribute("aria-current");
        });
        draw();
        if (!timer && state.status === "playing" && c.running !== null) timer = setInterval(draw, TICK_MS);
    }

    return {el, update};
}
