// new-table.mjs -- the form that makes a table: the game, its options (from
// the engine's own description of them), each seat a human or a bot level,
// and an optional seed.  It sends `create`; the caller gets `created`.

import {h} from "../table/dom.mjs";
import {seatName, swatch} from "../table/seats.mjs";
import {parseParam, gameString} from "./params.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("../types.js").GameInfo} GameInfo */
/** @typedef {import("./params.mjs").Param} Param */

const DEFAULT_BOT = "medium";
const OTHER = "other…";

/**
 * @param {GamesInfo} info
 * @param {(game: string, seats: string[], seed: number | null) => void} create
 * @returns {{el: HTMLElement, showError: (text: string) => void, busy: (on: boolean) => void}}
 */
export function newTableForm(info, create) {
    /** @type {Record<string, string>} */
    let values = {};
    /** @type {string[]} the seat specs, as chosen */
    let seatSpecs = ["human"];
    /** @type {string[]} the text of "other…" seats */
    let otherSpecs = [];

    const gameSelect = h("select", {id: "nt-game", onchange: () => { values = {}; drawOptions(); }},
        ...info.games.map((g) => h("option", {value: g.name, text: g.summary})));
    const about = h("p", {class: "muted small", id: "nt-game-about"});
    const optionsBox = h("div", {class: "nt-options"});
    const seatsBox = h("fieldset", {class: "nt-seats"});
    const seedInput = h("input", {id: "nt-seed", type: "number", min: "0", step: "1",
                                  inputmode: "numeric", placeholder: "random"});
    const error = h("p", {class: "error", role: "alert", hidden: true});
    const submit = h("button", {type: "submit", class: "primary", text: "Create table"});

    function game() {
        return info.games.find((g) => g.name === gameSelect.value) ?? info.games[0];
    }

    /** @returns {Param[]} */
    function params() {
        return /** @type {Param[]} */ (game().params.map(parseParam).filter((p) => p !== null));
    }

    function players() {
        const p = params().find((q) => q.name === "players");
        const v = Number(values.players ?? p?.def ?? game().players);
        return Number.isFinite(v) && v > 0 ? v : game().players;
    }

    function drawOptions() {
        updateAbout();
        optionsBox.replaceChildren();
        for (const p of params()) {
            const id = `nt-opt-${p.name}`;
            const value = values[p.name] ?? p.def;
            /** @type {HTMLInputElement | HTMLSelectElement} */
            let input;
            if (p.kind === "range" && p.min === p.max) continue;   // nothing to choose
            if (p.kind === "range" && p.max - p.min <= 10) {
                input = h("select", {id},
                    ...Array.from({length: p.max - p.min + 1}, (_, k) => {
                        const v = String(p.min + k);
                        return h("option", {value: v, text: v});
                    }));
            } else if (p.kind === "range") {
                input = h("input", {id, type: "number", min: p.min, max: p.max, step: 1,
                                    inputmode: "numeric"});
            } else {
                input = h("select", {id}, ...p.values.map((v) => h("option", {value: v, text: v})));
            }
            input.value = value;
            input.addEventListener("change", () => {
                values[p.name] = input.value;
                updateAbout();
                if (p.name === "players") drawSeats();
            });
            optionsBox.append(h("div", {class: "field"},
                h("label", {for: id}, h("code", {text: p.name}), " ", p.about),
                input));
        }
        drawSeats();
    }

    function updateAbout() {
        about.replaceChildren("Game string: ", h("code", {text: gameString(game().name, params(), values)}));
    }

    function drawSeats() {
        const n = players();
        while (seatSpecs.length < n) seatSpecs.push(DEFAULT_BOT);
        seatSpecs.length = n;
        seatsBox.replaceChildren(h("legend", {text: "Seats"}));
        const choices = ["human", ...info.bots.map((b) => b.name), OTHER];
        for (let i = 0; i < n; i++) {
            const id = `nt-seat-${i}`;
            const select = h("select", {id},
                ...choices.map((c) => {
                    const bot = info.bots.find((b) => b.name === c);
                    const label = c === "human" ? "human (a seat link)" : bot ? `${c} bot` : c;
                    return h("option", {value: c, text: label, title: bot?.summary ?? ""});
                }));
            const known = choices.includes(seatSpecs[i]);
            select.value = known ? seatSpecs[i] : OTHER;
            const other = h("input", {type: "text", class: "nt-other", value: known ? "" : seatSpecs[i],
                                      placeholder: "mcts:ms=500", "aria-label": `${seatName(i)}: bot spec`,
                                      hidden: known, spellcheck: "false", autocomplete: "off"});
            otherSpecs[i] = other.value;
            select.addEventListener("change", () => {
                seatSpecs[i] = select.value === OTHER ? other.value : select.value;
                other.hidden = select.value !== OTHER;
                if (!other.hidden) other.focus();
            });
            other.addEventListener("input", () => {
                otherSpecs[i] = other.value;
                seatSpecs[i] = other.value;
            });
            seatsBox.append(h("div", {class: "field seat-field"},
                h("label", {for: id}, swatch(i), seatName(i)), select, other));
        }
    }

    const form = h("form", {class: "card new-table", "aria-labelledby": "nt-title",
                            onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        error.hidden = true;
        const specs = seatSpecs.map((s) => s.trim());
        const empty = specs.findIndex((s) => s === "" || s === OTHER);
        if (empty >= 0) {
            showError(`${seatName(empty)}: write a bot spec, such as mcts:ms=500`);
            return;
        }
        const seedText = seedInput.value.trim();
        const seed = seedText === "" ? null : Number(seedText);
        if (seed !== null && !(Number.isSafeInteger(seed) && seed >= 0)) {
            showError("The seed is a whole number from 0 to 2^53.");
            return;
        }
        create(gameString(game().name, params(), values), specs, seed);
    }},
        h("h2", {id: "nt-title", text: "New table"}),
        h("div", {class: "field"}, h("label", {for: "nt-game", text: "Game"}), gameSelect),
        about,
        optionsBox,
        seatsBox,
        h("div", {class: "field"}, h("label", {for: "nt-seed", text: "Seed (optional: the same seed deals the same cards)"}), seedInput),
        error,
        submit);

    /** @param {string} text */
    function showError(text) {
        error.textContent = text;
        error.hidden = false;
    }

    drawOptions();
    return {
        el: form,
        showError,
        busy: (on) => { submit.disabled = on; },
    };
}
