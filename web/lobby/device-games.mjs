// device-games.mjs -- the lobby's "Games on this device": the tables played
// in this browser (local/, kept in IndexedDB), newest first, each with a
// link to go on playing or to replay it, its record to export (the JSON
// `tafel replay` reads), and a way to delete it; and a record file to
// import, which opens as a table of its own.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {gameTitle} from "../table/game-title.mjs";
import {playerName} from "../table/seats.mjs";
import {gameName} from "./params.mjs";
import {ago} from "./ago.mjs";
import {localTableHref} from "../net/site.mjs";
import {downloadJson} from "../table/download.mjs";

/** @typedef {import("../local/connection.mjs").LocalConnection} LocalConnection */
/** @typedef {import("../types.js").DeviceGame} DeviceGame */

/**
 * @param {LocalConnection} local
 * @param {boolean} kept whether the browser keeps the games (IndexedDB works)
 * @returns {{el: HTMLElement, refresh: () => Promise<void>}}
 */
export function deviceGames(local, kept) {
    const list = h("ul", {class: "device-games"});
    const note = h("p", {class: "small muted", text: t("local.games.not_kept"), hidden: kept});
    const error = h("p", {class: "error", role: "alert", hidden: true});
    const file = h("input", {type: "file", id: "import-record", accept: ".json,.jsonl,application/json",
                             "aria-describedby": "import-about"});
    file.addEventListener("change", () => importFile());
    const el = h("section", {class: "card lobby-device", "aria-labelledby": "device-title"},
        h("h2", {id: "device-title", text: t("local.games.title")}),
        note,
        list,
        h("div", {class: "field"},
            h("label", {for: "import-record", text: t("local.games.import")}), file,
            h("p", {class: "small muted", id: "import-about", text: t("local.games.import_about")})),
        error);

    async function refresh() {
        const games = await local.list();
        games.sort((a, b) => b.updated - a.updated);
        list.replaceChildren(...(games.length ? games.map(entry)
            : [h("li", {class: "muted", text: t("local.games.none")})]));
    }

    /** @param {DeviceGame} g */
    function entry(g) {
        const humans = g.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
        const yours = g.status === "playing" && typeof g.to_move === "number" && humans.includes(g.to_move);
        const status = g.status === "over" ? t("local.games.over")
            : yours ? t("local.games.your_turn") : t("local.games.playing");
        const who = g.seats.map((spec, i) => playerName(spec === "human" ? {kind: "human"} : {kind: "bot", bot: spec},
                                                        i, humans.length === 1 ? humans[0] : null));
        return h("li", {class: "device-game" + (yours ? " yours" : ""), "data-table": g.table},
            h("a", {href: localTableHref(g.table), class: "device-open"},
              h("strong", {text: gameTitle(gameName(g.game))}), " ",
              h("span", {text: g.status === "over" ? t("local.games.replay") : t("local.games.continue")})),
            h("span", {class: "small"}, status, " · ", t("local.games.actions", {n: g.actions}), " · ",
              ago(g.updated)),
            h("span", {class: "small muted device-seats", text: who.join(", ")}),
            h("span", {class: "button-row"},
                h("button", {type: "button", class: "small", "data-export": g.table, text: t("local.games.export"),
                             title: t("local.games.export_title"), onclick: () => exportGame(g)}),
                h("button", {type: "button", class: "small danger", "data-delete": g.table,
                             text: t("local.games.delete"), onclick: () => removeGame(g)})));
    }

    /** Saves the record as a file the browser downloads. @param {DeviceGame} g */
    async function exportGame(g) {
        downloadJson(await local.exportRecord(g.table), `tafel-${gameName(g.game)}-${g.table}.json`);
    }

    /** @param {DeviceGame} g */
    async function removeGame(g) {
        if (!confirm(t("local.games.delete_confirm"))) return;
        await local.remove(g.table);
        await refresh();
    }

    async function importFile() {
        error.hidden = true;
        const f = file.files?.[0];
        if (!f) return;
        try {
            const table = await local.importRecord(await f.text());
            location.href = localTableHref(table);
        } catch (err) {
            error.textContent = t("local.games.import_failed", {reason: err instanceof Error ? err.message : String(err)});
            error.hidden = false;
        } finally {
            file.value = "";
        }
    }

    refresh();
    return {el, refresh};
}
