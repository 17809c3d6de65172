// leaderboard.mjs -- the lobby's leaderboard: the players (people and the
// rated bots) of one game by rating, from GET /api/leaderboard?game=GAME.
// A game chooser above it (the choice kept for the next visit); each name links to its profile (/p/<name>); a
// provisional rating (RD above 110: few games yet) is marked "?" as
// lichess marks it, and listed in its place by rating.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {gameWords} from "./options.mjs";
import {playerLink, ratingText} from "../profile/profile.mjs";
import {readStored, writeStored} from "../stored.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/**
 * @typedef {{name: string, kind: string, rating: number, rd: number, games: number,
 *   provisional: boolean}} BoardEntry
 */

/** Asked again this often while the lobby is seen. */
const REFRESH = 60000;
/** Where the chosen game is kept, for the next visit. */
const STORED = "tafel.leaderboard";

/** The page's style for the leaderboard (profile.css), once. */
function linkStyle() {
    const href = new URL("../profile/profile.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/**
 * The board of one game as a table.
 * @param {string} game
 * @param {BoardEntry[]} players
 */
function boardTable(game, players) {
    if (!players.length) return h("p", {class: "muted", text: t("ratings.leaderboard.empty", {game: gameWords(game)})});
    const rows = players.map((p, i) => h("tr", {class: p.provisional ? "provisional" : ""},
        h("td", {class: "num", text: String(i + 1)}),
        h("td", {}, playerLink(p.name, p.kind),
            p.kind === "bot" ? h("span", {class: "muted", text: ` (${t("ratings.bot")})`}) : null),
        h("td", {class: "num", title: t("ratings.rd", {rd: Math.round(p.rd)}),
            text: ratingText(p.rating, p.rd)}),
        h("td", {class: "num", text: String(p.games)})));
    const note = players.some((p) => p.provisional)
        ? h("p", {class: "muted small", text: t("ratings.leaderboard.provisional_note")}) : null;
    return h("div", {class: "table-scroll"},
        h("table", {class: "leaderboard-table"},
            h("caption", {class: "visually-hidden", text: t("ratings.leaderboard.caption", {game: gameWords(game)})}),
            h("thead", {}, h("tr", {},
                h("th", {scope: "col", class: "num", text: t("ratings.col.rank")}),
                h("th", {scope: "col", text: t("ratings.col.player")}),
                h("th", {scope: "col", class: "num", text: t("ratings.col.rating")}),
                h("th", {scope: "col", class: "num", text: t("ratings.col.games")}))),
            h("tbody", {}, ...rows)),
        note);
}

/**
 * The leaderboard section for the lobby.
 * @param {GamesInfo} info
 * @returns {HTMLElement}
 */
export function leaderboard(info) {
    linkStyle();
    const games = info.games.map((g) => g.name);
    const body = h("div", {class: "leaderboard-body", "aria-live": "polite"});
    const select = /** @type {HTMLSelectElement} */ (h("select", {id: "leaderboard-game"},
        ...games.map((g) => h("option", {value: g, text: gameWords(g)}))));
    const kept = readStored(STORED).game;
    if (games.includes(kept)) select.value = kept;
    let asked = 0;
    async function load() {
        const game = select.value;
        const mine = ++asked;
        try {
            const r = await fetch(`/api/leaderboard?game=${encodeURIComponent(game)}`);
            if (mine !== asked) return;
            if (!r.ok) throw new Error(String(r.status));
            const board = /** @type {{game: string, players: BoardEntry[]}} */ (await r.json());
            if (mine === asked) body.replaceChildren(boardTable(game, board.players));
        } catch {
            if (mine === asked) body.replaceChildren(h("p", {class: "error", text: t("ratings.leaderboard.failed")}));
        }
    }
    select.addEventListener("change", () => {
        writeStored(STORED, {game: select.value});
        load();
    });
    setInterval(() => { if (document.visibilityState === "visible") load(); }, REFRESH);
    if (games.length) load();
    return h("section", {class: "card lobby-leaderboard", "aria-labelledby": "leaderboard-title"},
        h("h2", {id: "leaderboard-title", text: t("ratings.leaderboard.title")}),
        h("p", {class: "leaderboard-pick"},
            h("label", {for: "leaderboard-game", text: t("ratings.leaderboard.game")}), select),
        body);
}
