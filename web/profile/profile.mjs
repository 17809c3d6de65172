// profile.mjs -- the page /p/<name>: a player's (or a bot's) games, rating
// and results, from GET /api/players/<name> (docs/club.md, "Ratings").
// Per game: the rating with its deviation (shown as provisional while RD is
// above 110, as lichess does), played / won / drawn / lost, and the rating
// history as a small SVG plot with a title, a description and the same
// points as a table for those who do not see it.  Then the latest results:
// when, the game, the place, the other players (linked to their profiles),
// the rating change, and a link to the table's replay (/t/<id>).

import {h, s} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {chosenLanguage, languageSwitch} from "../words/language.mjs";
import {gameWords} from "../lobby/options.mjs";
import {ago} from "../lobby/ago.mjs";
import {shownName} from "../table/seats.mjs";

/**
 * A profile as GET /api/players/<name> answers.
 * @typedef {{at: number, rating: number, rd: number, table: string}} HistoryPoint
 * @typedef {{rating: number, rd: number, games: number, provisional: boolean,
 *   history: HistoryPoint[]}} GameRating
 * @typedef {{played: number, won: number, lost: number, drawn: number}} GameRecord
 * An opponent is unnamed in a private game to a viewer who was not at it.
 * @typedef {{name?: string, kind?: string, place: number}} Opponent
 * @typedef {{table: string, game: string, at: number, place: number, players: number,
 *   score: number | null, rating_before: number | null, rating_after: number | null,
 *   replay?: string, private?: boolean, opponents: Opponent[]}} Result
 * @typedef {{name: string, kind: "account" | "bot", since: number,
 *   games: Record<string, GameRecord>, ratings: Record<string, GameRating>,
 *   results: Result[]}} Profile
 */

/** The provisional threshold of the server (ratings.h). */
export const PROVISIONAL_RD = 110;

/** The profile page's address of a player. @param {string} name */
export function profileHref(name) {
    return `/p/${encodeURIComponent(name)}`;
}

/**
 * A player's name, linked to the profile unless a guest's (guests have none).
 * @param {string} name
 * @param {string} kind
 */
export function playerLink(name, kind) {
    if (kind === "guest") return h("span", {class: "player-name", text: shownName(name, kind)});
    return h("a", {class: "player-name", href: profileHref(name), text: shownName(name, kind)});
}

/**
 * A rating in words: "1623" or "1500?" while provisional.
 * @param {number} rating
 * @param {number} rd
 */
export function ratingText(rating, rd) {
    return `${Math.round(rating)}${rd > PROVISIONAL_RD ? "?" : ""}`;
}

/** The profile's own look (profile.css), once. */
function linkStyle() {
    const href = new URL("./profile.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/** A date in the page's language. @param {number} seconds */
function dateText(seconds) {
    try {
        return new Date(seconds * 1000).toLocaleDateString(chosenLanguage(), {dateStyle: "medium"});
    } catch {
        return new Date(seconds * 1000).toISOString().slice(0, 10);
    }
}

/** A date on the plot's time axis: day and month, the year too when the games span years. */
function shortDate(/** @type {number} */ seconds, /** @type {boolean} */ withYear) {
    const options = /** @type {Intl.DateTimeFormatOptions} */ (withYear
        ? {day: "numeric", month: "short", year: "numeric"} : {day: "numeric", month: "short"});
    try {
        return new Date(seconds * 1000).toLocaleDateString(chosenLanguage(), options);
    } catch {
        return new Date(seconds * 1000).toISOString().slice(0, 10);
    }
}

/**
 * Round ratings for the plot's axis: a step of 10, 20, 25, 50, 100, ... so
 * that at most 4 ticks fall within lo..hi.
 * @param {number} lo
 * @param {number} hi
 */
function ratingTicks(lo, hi) {
    const steps = [10, 20, 25, 50, 100, 200, 250, 500, 1000];
    const step = steps.find((d) => (hi - lo) / d <= 4) ?? 1000;
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
    return ticks;
}

/** The plot's box, and its margins for the axes' labels (left: ratings, bottom: dates). */
const W = 360, H = 170, PAD = 8, LEFT = 54, BOTTOM = 36;
/** Every player's rating before their first game (Glicko-2's, src/server/club/glicko2.h). */
const START_RATING = 1500;

/**
 * The rating history of one game as an SVG line (an image with a title
 * and a description), and the same points as a table in a <details>.
 * @param {string} game
 * @param {HistoryPoint[]} history
 */
function historyPlot(game, history) {
    const title = t("ratings.history.title", {game: gameWords(game)});
    const ratings = history.map((p) => p.rating);
    // the line starts where every player starts (1500), so that one game is
    // a line too; the dots are the games
    const line = [START_RATING, ...ratings];
    const lo = Math.min(...line) - 25, hi = Math.max(...line) + 25;
    const x = (/** @type {number} */ i) => LEFT + (i * (W - LEFT - PAD)) / history.length;
    const y = (/** @type {number} */ r) => PAD + ((hi - r) * (H - PAD - BOTTOM)) / (hi - lo);
    const points = line.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
    const first = ratings[0], last = ratings[ratings.length - 1];
    const id = `plot-${game}`;
    const svg = s("svg", {class: "rating-plot", viewBox: `0 0 ${W} ${H}`, role: "img",
        "aria-labelledby": `${id}-title ${id}-desc`},
    s("title", {id: `${id}-title`, text: title}),
    s("desc", {id: `${id}-desc`, text: t("ratings.history.describe",
        {games: history.length, first: Math.round(first), last: Math.round(last),
            low: Math.round(Math.min(...ratings)), high: Math.round(Math.max(...ratings))})}),
    ...axes(history, lo, hi, x, y),
    s("polyline", {points, fill: "none", stroke: "currentColor", "stroke-width": "2"}),
    ...history.map((p, i) => s("circle", {cx: x(i + 1).toFixed(1), cy: y(p.rating).toFixed(1), r: "3"})));
    const rows = history.map((p) => h("tr", {},
        h("td", {text: dateText(p.at)}),
        h("td", {text: String(Math.round(p.rating))}),
        h("td", {text: String(Math.round(p.rd))}),
        h("td", {}, h("a", {href: `/t/${p.table}`, text: t("ratings.replay")}))));
    return h("figure", {class: "rating-history"}, svg,
        h("details", {},
            h("summary", {text: t("ratings.history.as_table")}),
            h("table", {class: "history-table"},
                h("caption", {text: title}),
                h("thead", {}, h("tr", {},
                    h("th", {scope: "col", text: t("ratings.col.date")}),
                    h("th", {scope: "col", text: t("ratings.col.rating")}),
                    h("th", {scope: "col", text: t("ratings.col.rd")}),
                    h("th", {scope: "col", text: t("ratings.col.replay")}))),
                h("tbody", {}, ...rows))));
}

/**
 * The plot's axes: ratings on the left (round values, with light grid
 * lines), the games' dates below (the first game's, the last's, and one
 * between), each axis named.  The games are evenly spaced, in order: the
 * dates say when they were played.
 * @param {HistoryPoint[]} history
 * @param {number} lo
 * @param {number} hi
 * @param {(i: number) => number} x
 * @param {(r: number) => number} y
 * @returns {SVGElement[]}
 */
function axes(history, lo, hi, x, y) {
    const bottom = H - BOTTOM, out = [];
    out.push(s("line", {class: "plot-axis", x1: LEFT, y1: PAD, x2: LEFT, y2: bottom}),
             s("line", {class: "plot-axis", x1: LEFT, y1: bottom, x2: W - PAD, y2: bottom}));
    for (const r of ratingTicks(lo, hi)) {
        out.push(s("line", {class: "plot-grid", x1: LEFT, y1: y(r).toFixed(1), x2: W - PAD, y2: y(r).toFixed(1)}),
                 s("text", {class: "plot-tick", x: LEFT - 4, y: (y(r) + 4).toFixed(1), "text-anchor": "end",
                            text: String(r)}));
    }
    const n = history.length;
    const years = new Set(history.map((p) => new Date(p.at * 1000).getFullYear())).size > 1;
    for (const i of new Set([1, Math.ceil((n + 1) / 2), n])) {
        const anchor = i === n ? "end" : i === 1 ? "start" : "middle";
        out.push(s("line", {class: "plot-axis", x1: x(i).toFixed(1), y1: bottom, x2: x(i).toFixed(1), y2: bottom + 4}),
                 s("text", {class: "plot-tick", x: x(i).toFixed(1), y: bottom + 15, "text-anchor": anchor,
                            text: shortDate(history[i - 1].at, years)}));
    }
    out.push(s("text", {class: "plot-label", x: (LEFT + W - PAD) / 2, y: H - 4, "text-anchor": "middle",
                        text: t("ratings.plot.games")}),
             s("text", {class: "plot-label", x: 11, y: (PAD + bottom) / 2, "text-anchor": "middle",
                        transform: `rotate(-90 11 ${(PAD + bottom) / 2})`, text: t("ratings.col.rating")}));
    return out;
}

/**
 * One game's card: rating, record, history.
 * @param {string} game
 * @param {GameRecord | undefined} record
 * @param {GameRating | undefined} rating
 */
function gameCard(game, record, rating) {
    const words = [];
    if (rating) {
        words.push(h("p", {class: "rating-now"},
            h("strong", {class: "rating-value", text: ratingText(rating.rating, rating.rd)}),
            " ",
            h("span", {class: "muted", text: rating.rd > PROVISIONAL_RD
                ? t("ratings.provisional_rd", {rd: Math.round(rating.rd)})
                : t("ratings.rd", {rd: Math.round(rating.rd)})})));
    } else {
        words.push(h("p", {class: "muted", text: t("ratings.unrated_only")}));
    }
    if (record) words.push(h("p", {class: "record", text: t("ratings.record", record)}));
    return h("section", {class: "card game-rating", "aria-label": gameWords(game)},
        h("h3", {text: gameWords(game)}),
        ...words,
        rating && rating.history.length ? historyPlot(game, rating.history) : null);
}

/** A result's rating change: "+12", "−8", or unrated. @param {Result} r */
function changeText(r) {
    if (r.rating_before === null || r.rating_after === null) return t("ratings.unrated");
    const d = Math.round(r.rating_after - r.rating_before);
    return `${d > 0 ? "+" : d < 0 ? "\u2212" : "±"}${Math.abs(d)}`;
}

/** @param {Result[]} results */
function resultsTable(results) {
    if (!results.length) return h("p", {class: "muted", text: t("ratings.results.none")});
    const rows = results.map((r) => h("tr", {},
        h("td", {title: dateText(r.at), text: ago(r.at)}),
        h("td", {text: gameWords(r.game)}),
        h("td", {text: t(r.opponents.some((o) => o.place === r.place) ? "ratings.place_shared" : "ratings.place",
            {place: r.place, players: r.players})}),
        h("td", {class: "opponents"}, ...r.opponents.flatMap((o, i) =>
            [i ? ", " : "", o.name ? playerLink(o.name, o.kind || "account")
                : h("span", {class: "muted", text: t("ratings.private_player")})])),
        h("td", {class: "change", text: changeText(r)}),
        h("td", {}, r.replay ? h("a", {class: "replay-link", href: r.replay, text: t("ratings.replay")})
            : h("span", {class: "muted", text: t("ratings.private_game")}))));
    return h("div", {class: "table-scroll"}, h("table", {class: "results-table"},
        h("caption", {class: "visually-hidden", text: t("ratings.results.title")}),
        h("thead", {}, h("tr", {},
            h("th", {scope: "col", text: t("ratings.col.when")}),
            h("th", {scope: "col", text: t("ratings.col.game")}),
            h("th", {scope: "col", text: t("ratings.col.place")}),
            h("th", {scope: "col", text: t("ratings.col.opponents")}),
            h("th", {scope: "col", text: t("ratings.col.change")}),
            h("th", {scope: "col", text: t("ratings.col.replay")}))),
        h("tbody", {}, ...rows)));
}

/**
 * The profile itself.
 * @param {Profile} p
 */
export function profileView(p) {
    const games = [...new Set([...Object.keys(p.ratings), ...Object.keys(p.games)])].sort();
    return h("main", {class: "profile"},
        h("section", {class: "card profile-head"},
            h("h2", {class: "profile-name", text: shownName(p.name, p.kind)}),
            h("p", {class: "muted"},
                t(p.kind === "bot" ? "ratings.kind.bot" : "ratings.kind.account"),
                " · ",
                t("ratings.since", {date: dateText(p.since)}))),
        games.length
            ? h("div", {class: "game-ratings"}, ...games.map((g) => gameCard(g, p.games[g], p.ratings[g])))
            : h("p", {class: "muted", text: t("ratings.no_games")}),
        h("section", {class: "card profile-results", "aria-labelledby": "results-title"},
            h("h2", {id: "results-title", text: t("ratings.results.title")}),
            resultsTable(p.results)));
}

/**
 * Shows the profile page of name in root.
 * @param {HTMLElement} root
 * @param {string} name
 */
export async function showProfile(root, name) {
    linkStyle();
    document.title = t("ratings.page_title", {name});
    root.classList.add("profile-page");
    const header = h("header", {class: "top"},
        h("h1", {}, h("a", {href: "/", text: "tafel"})),
        h("a", {class: "back", href: "/", text: t("ratings.back")}),
        h("span", {class: "top-tools"}, languageSwitch(chosenLanguage())));
    const body = h("div", {class: "profile-body", "aria-live": "polite"},
        h("p", {class: "loading", text: t("ratings.loading")}));
    root.replaceChildren(header, body);
    let r;
    try {
        r = await fetch(`/api/players/${encodeURIComponent(name)}`);
    } catch {
        body.replaceChildren(h("p", {class: "error", text: t("ratings.load_failed")}));
        return;
    }
    if (r.status === 404) {
        body.replaceChildren(h("p", {class: "error", text: t("ratings.not_found", {name})}));
        return;
    }
    if (!r.ok) {
        body.replaceChildren(h("p", {class: "error", text: t("ratings.load_failed")}));
        return;
    }
    body.replaceChildren(profileView(/** @type {Profile} */ (await r.json())));
}
