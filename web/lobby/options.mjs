// options.mjs -- a game and its options in words: the game's name
// (lobby.game.<game>), each option's name and a line on what it does
// (lobby.option.<game>.<param> and .about), its values where a value needs
// words (.value.<value>), and the field that chooses it.  The options themselves, their ranges and defaults are the engine's
// (GET /api/games `params`, read by params.mjs); an option the catalog does
// not know shows its own name and the engine's description.
//
// The field follows the kind of value: a seat is one of the table's seats
// by colour (only as many as play), yes/no a checkbox, a few numbers or
// named values a list, a wide range a number field.

import {h} from "../table/dom.mjs";
import {t, catalog, seatWord} from "../words/catalog.mjs";
import {isSeatParam} from "./params.mjs";

/** @typedef {import("./params.mjs").Param} Param */

/** How many numbers a list may offer before a number field is simpler. */
const MAX_LISTED = 10;

/**
 * A game's name in words; an unknown game its own name.
 * @param {string} name
 */
export function gameWords(name) {
    const key = `lobby.game.${name}`;
    return catalog().has(key) ? t(key) : name;
}

/**
 * @param {string} game
 * @param {Param} p
 */
export function optionName(game, p) {
    const key = `lobby.option.${game}.${p.name}`;
    return catalog().has(key) ? t(key) : p.name;
}

/**
 * @param {string} game
 * @param {Param} p
 */
export function optionAbout(game, p) {
    const key = `lobby.option.${game}.${p.name}.about`;
    return catalog().has(key) ? t(key) : p.about;
}

/** @param {Param} p */
function isYesNo(p) {
    return p.kind === "choice" && p.values.length === 2 && p.values.includes("true") &&
        p.values.includes("false");
}

/**
 * A value of an option in words: a seat's colour, yes or no, the
 * catalog's words for a named value, else the value itself (a number).
 * @param {string} game
 * @param {Param} p
 * @param {string} value
 */
export function valueWords(game, p, value) {
    if (isSeatParam(p)) return seatWord(Number(value));
    if (isYesNo(p)) return t(value === "true" ? "common.yes" : "common.no");
    const key = `lobby.option.${game}.${p.name}.value.${value}`;
    return catalog().has(key) ? t(key) : value;
}

/**
 * The options of a game string that differ from their defaults, in words
 * ("Crop circles: yes"); the number of players aside, which its seats show.
 * @param {string} game
 * @param {Param[]} params
 * @param {Record<string, string>} values
 */
export function optionsInWords(game, params, values) {
    return params
        .filter((p) => p.name !== "players" && values[p.name] !== undefined &&
                       values[p.name] !== p.def)
        .map((p) => t("lobby.option.in_words",
                      {option: optionName(game, p), value: valueWords(game, p, values[p.name])}));
}

/**
 * The values a list offers for an option, or null for a number field.
 * @param {Param} p
 * @param {number} players the seats of the table, for a seat's option
 * @returns {string[] | null}
 */
function listedValues(p, players) {
    if (p.kind === "choice") return p.values;
    const max = isSeatParam(p) ? Math.min(p.max, players - 1) : p.max;
    if (max - p.min > MAX_LISTED) return null;
    return Array.from({length: max - p.min + 1}, (_, k) => String(p.min + k));
}

/**
 * A value the field can show: a seat the table does not have becomes the
 * last it has.
 * @param {Param} p
 * @param {string} value
 * @param {number} players
 */
export function fitValue(p, value, players) {
    if (isSeatParam(p) && Number(value) > players - 1) return String(players - 1);
    return value;
}

/**
 * One option's field: its name, what it does, the control.
 * @param {string} game
 * @param {Param} p
 * @param {string} value
 * @param {number} players
 * @param {(value: string) => void} onChange
 */
export function optionField(game, p, value, players, onChange) {
    const id = `nt-opt-${p.name}`;
    const about = h("p", {class: "option-about small muted", id: `${id}-about`,
                          text: optionAbout(game, p)});
    if (isYesNo(p)) {
        const box = h("input", {type: "checkbox", id, checked: value === "true",
                                "aria-describedby": about.id,
                                onchange: () => onChange(box.checked ? "true" : "false")});
        return h("div", {class: "field option-field check-field"},
            h("label", {for: id}, box, optionName(game, p)), about);
    }
    const listed = listedValues(p, players);
    /** @type {HTMLInputElement | HTMLSelectElement} */
    const input = listed || p.kind !== "range"
        ? h("select", {id}, ...(listed ?? []).map((v) => h("option", {value: v, text: valueWords(game, p, v)})))
        : h("input", {id, type: "number", min: p.min, max: p.max, step: 1, inputmode: "numeric"});
    input.setAttribute("aria-describedby", about.id);
    input.value = fitValue(p, value, players);
    input.addEventListener("change", () => onChange(input.value));
    return h("div", {class: "field option-field"},
        h("label", {for: id, text: optionName(game, p)}), input, about);
}
