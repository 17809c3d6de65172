// plot.mjs -- the scores over time, drawn as SVG at the end of a game.
//
// The points (actions played, scores) come from the server: `history`
// gives the scores after every action so far (asked for on every join, so
// a table joined when already over has its whole plot too), and each later
// `state` adds the scores of its position.  An undo drops the points after
// it.
//
// Each seat's line has its colour and its own dash pattern, and ends in a
// label, so no colour carries meaning alone; a table of the numbers is
// there for screen readers and for reading exact values.

import {h, s} from "./dom.mjs";
import {seatName, seatColour, seatScore, SEAT_DASHES} from "./seats.mjs";
import {t, catalog} from "../words/catalog.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").HistoryMessage} HistoryMessage */
/** @typedef {number[]} Point  [actions, score of seat 0, score of seat 1, ...] */

/**
 * The nicest step of about n ticks for values up to max.
 * @param {number} max
 * @param {number} n
 */
function tickStep(max, n) {
    const raw = Math.max(1, max / n);
    const p = 10 ** Math.floor(Math.log10(raw));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
}

/**
 * "Red 10, Blue 4": each seat with its score (zeros too, unlike an account's points).
 * @param {number[]} scores
 */
export function scoreList(scores) {
    return scores.map((v, i) => seatScore(i, v)).join(catalog().text("common.list_sep"));
}

export function createPlot() {
    /** @type {Point[]} */
    let points = [];
    /** @type {StateMessage | null} */
    let last = null;
    let marker = -1;
    const figure = h("figure", {class: "plot"});
    const el = h("section", {class: "panel plot-panel", hidden: true, "aria-labelledby": "plot-title"},
        h("h2", {id: "plot-title", text: t("page.plot.title")}), figure);

    /** Records the scores of a state. @param {StateMessage} st */
    function record(st) {
        const n = st.actions;
        points = points.filter((p) => p[0] < n);
        points.push([n, ...st.scores]);
    }

    /** The scores after every action, from the server. @param {HistoryMessage} m */
    function onHistory(m) {
        const later = points.filter((p) => p[0] > m.actions.length);   // states after it
        points = m.actions.map((a, i) => [i + 1, ...(a.scores ?? [])]).filter((p) => p.length > 1);
        points.push(...later);
        if (last && !el.hidden) draw();
    }

    /** Scores at `actions` played, as recorded (null: none recorded by then). @param {number} actions */
    function scoresAt(actions) {
        /** @type {Point | null} */
        let best = null;
        for (const p of points) if (p[0] <= actions) best = p;
        return best ? best.slice(1) : null;
    }

    function draw() {
        if (!last) return;
        const players = last.seats.length;
        if (points.length < 2) {
            figure.replaceChildren(h("p", {class: "muted small", text: t("page.plot.unknown")}),
                h("p", {}, ...last.scores.map((v, i) => h("span", {class: "final-score"},
                    h("span", {class: "swatch", style: `background:${seatColour(i)}`, "aria-hidden": "true"}),
                    seatScore(i, v)))));
            return;
        }
        // drawn at the figure's own width, so the text stays legible on a phone
        const W = Math.max(320, Math.min(720, figure.clientWidth || 640));
        const H = Math.round(Math.max(220, Math.min(320, W * 0.55))), L = 40, R = 78, T = 14, B = 36;
        const xMax = Math.max(1, points[points.length - 1][0]);
        const xMin = points[0][0];
        let yMax = 1, yMin = 0;
        for (const p of points) for (const v of p.slice(1)) { yMax = Math.max(yMax, v); yMin = Math.min(yMin, v); }
        /** @param {number} x */
        const X = (x) => L + ((x - xMin) / Math.max(1, xMax - xMin)) * (W - L - R);
        /** @param {number} y */
        const Y = (y) => T + (1 - (y - yMin) / (yMax - yMin)) * (H - T - B);
        const g = [];
        const yStep = tickStep(yMax - yMin, 6);
        for (let v = Math.ceil(yMin / yStep) * yStep; v <= yMax; v += yStep) {
            g.push(s("line", {x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid"}));
            g.push(s("text", {x: L - 6, y: Y(v) + 4, "text-anchor": "end", class: "tick", text: v}));
        }
        const xStep = tickStep(xMax - xMin, 6);
        for (let v = Math.ceil(xMin / xStep) * xStep; v <= xMax; v += xStep) {
            g.push(s("line", {x1: X(v), x2: X(v), y1: H - B, y2: H - B + 4, class: "axis"}));
            g.push(s("text", {x: X(v), y: H - B + 16, "text-anchor": "middle", class: "tick", text: v}));
        }
        g.push(s("line", {x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis"}));
        g.push(s("line", {x1: L, x2: L, y1: T, y2: H - B, class: "axis"}));
        g.push(s("text", {x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "label",
                          text: t("page.plot.x_axis")}));
        /** @type {{y: number, i: number, v: number}[]} */
        const ends = [];
        for (let i = 0; i < players; i++) {
            // a step line: a score holds until the next change
            let d = "";
            let prevY = 0;
            points.forEach((p, k) => {
                const x = X(p[0]).toFixed(1), y = Y(p[i + 1] ?? 0).toFixed(1);
                d += k === 0 ? `M${x},${y}` : `H${x}V${y}`;
                prevY = p[i + 1] ?? 0;
            });
            g.push(s("path", {d, fill: "none", stroke: seatColour(i), "stroke-width": 2.5,
                              "stroke-dasharray": SEAT_DASHES[i] || false, class: "series"}));
            ends.push({y: Y(prevY), i, v: prevY});
        }
        // end labels, pushed apart so they do not overlap
        ends.sort((a, b) => a.y - b.y);
        for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + 14);
        for (const e of ends) {
            g.push(s("text", {x: W - R + 6, y: e.y + 4, class: "end-label", text: seatScore(e.i, e.v)}));
        }
        if (marker >= 0) {
            g.push(s("line", {x1: X(Math.max(xMin, Math.min(xMax, marker))), x2: X(Math.max(xMin, Math.min(xMax, marker))),
                              y1: T, y2: H - B, class: "marker"}));
        }
        const svg = s("svg", {viewBox: `0 0 ${W} ${H}`, role: "img",
                              "aria-label": t("page.plot.label", {scores: scoreList(last.scores)})},
            ...g);
        const rows = points.filter((p, k) => k === 0 || k === points.length - 1 ||
            p.slice(1).some((v, i) => v !== points[k - 1][i + 1]));
        const numbers = h("details", {class: "small"},
            h("summary", {text: t("page.plot.numbers")}),
            h("table", {class: "numbers"},
                h("thead", {}, h("tr", {}, h("th", {text: t("page.plot.actions")}),
                    ...last.seats.map((_, i) => h("th", {text: seatName(i)})))),
                h("tbody", {}, ...rows.map((p) => h("tr", {}, ...p.map((v) => h("td", {text: v})))))));
        figure.replaceChildren(svg, numbers);
    }

    /** @param {StateMessage} st */
    function update(st) {
        last = st;
        record(st);
        el.hidden = st.status !== "over";
        if (!el.hidden) draw();
    }

    /** A vertical line at `actions` (the replay's step); -1 removes it. @param {number} actions */
    function mark(actions) {
        marker = actions;
        if (!el.hidden) draw();
    }

    return {el, update, onHistory, mark, scoresAt};
}
