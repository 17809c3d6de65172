// settings.mjs -- the table's settings, a small menu in the top bar: the
// language, how long other seats' moves stay in view (bot speed), a sound
// when it becomes your turn, the notation beside the words, and whether the
// page answers bots' trade offers for you (the games with offers only).
//
// Each is remembered in localStorage (plain strings, so a test can set
// one before the page loads: tafel.botSpeed = "instant").  A change takes
// effect at once, through onChange; the language reloads the page.

import {h, dropDown} from "./dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {languageSwitch} from "../words/language.mjs";

/** How long a state made by another seat stays in view, by speed (ms). */
export const SPEEDS = /** @type {const} */ ({instant: 0, fast: 350, normal: 800, slow: 1600});

/** @typedef {keyof typeof SPEEDS} Speed */
/** How a bot's trade offer is answered: "ask" the player, or "decline" it for them. */
export const OFFER_ANSWERS = /** @type {const} */ (["ask", "decline"]);

/** @typedef {typeof OFFER_ANSWERS[number]} OfferAnswer */
/** @typedef {{botSpeed: Speed, sound: boolean, notation: boolean, botOffers: OfferAnswer}} Settings */

const KEYS = {botSpeed: "tafel.botSpeed", sound: "tafel.sound", notation: "tafel.notation",
              botOffers: "tafel.botOffers"};

/** The games whose bots make offers to answer: the setting shows only at their tables. */
const GAMES_WITH_OFFERS = ["catan_cards"];

/** @param {string} key */
function read(key) {
    try {
        return localStorage.getItem(key);
    } catch {
        return null;   // storage off: the defaults
    }
}

/** @param {string} key @param {string} value */
function write(key, value) {
    try {
        localStorage.setItem(key, value);
    } catch {
        /* not remembered, but still in effect */
    }
}

/** The settings as remembered (defaults: normal speed, no sound, no notation, ask). @returns {Settings} */
export function readSettings() {
    const speed = read(KEYS.botSpeed);
    const offers = read(KEYS.botOffers);
    return {
        botSpeed: speed !== null && speed in SPEEDS ? /** @type {Speed} */ (speed) : "normal",
        sound: read(KEYS.sound) === "on",
        notation: read(KEYS.notation) === "on",
        botOffers: offers === "decline" ? "decline" : "ask",
    };
}

/**
 * The menu.  settings is changed in place; onChange is told which changed.
 * @param {Settings} settings
 * @param {(what: keyof Settings) => void} onChange
 * @param {HTMLElement[]} [more] more controls for the menu (asking for desktop notifications)
 * @returns {{el: HTMLElement, forGame: (game: string) => void}} forGame shows the settings of a game's table
 */
export function createSettings(settings, onChange, more = []) {
    const speed = h("select", {id: "set-speed"},
        ...Object.keys(SPEEDS).map((s) => h("option", {value: s, text: t(`page.settings.speed.${s}`)})));
    speed.value = settings.botSpeed;
    speed.addEventListener("change", () => {
        settings.botSpeed = /** @type {Speed} */ (speed.value);
        write(KEYS.botSpeed, speed.value);
        onChange("botSpeed");
    });

    /** @param {"sound" | "notation"} what @param {string} id */
    const checkbox = (what, id) => {
        const box = h("input", {type: "checkbox", id, checked: settings[what]});
        box.addEventListener("change", () => {
            settings[what] = box.checked;
            write(KEYS[what], box.checked ? "on" : "off");
            onChange(what);
        });
        return box;
    };

    const offers = h("select", {id: "set-offers"},
        ...OFFER_ANSWERS.map((a) => h("option", {value: a, text: t(`page.settings.offers.${a}`)})));
    offers.value = settings.botOffers;
    offers.addEventListener("change", () => {
        settings.botOffers = offers.value === "decline" ? "decline" : "ask";
        write(KEYS.botOffers, settings.botOffers);
        onChange("botOffers");
    });
    const offersRow = h("div", {class: "setting", hidden: true},
        h("label", {for: "set-offers", text: t("page.settings.offers")}), offers);

    const language = languageSwitch(catalog().lang);
    language.id = "set-language";
    const body = h("div", {class: "settings-body"},
        h("div", {class: "setting"}, h("label", {for: "set-language", text: t("page.language.choose")}), language),
        h("div", {class: "setting"}, h("label", {for: "set-speed", text: t("page.settings.speed")}), speed),
        h("div", {class: "setting check"}, checkbox("sound", "set-sound"),
          h("label", {for: "set-sound", text: t("page.settings.sound")})),
        h("div", {class: "setting check"}, checkbox("notation", "set-notation"),
          h("label", {for: "set-notation", text: t("page.settings.notation")})),
        offersRow,
        ...more.map((el) => h("div", {class: "setting"}, el)));
    const summary = h("summary", {class: "button", title: t("page.settings.title")},
        h("span", {"aria-hidden": "true", text: "⚙"}), " ",
        h("span", {class: "settings-word", text: t("page.settings.title")}));
    const el = h("details", {class: "settings"}, summary, body);

    dropDown(/** @type {HTMLDetailsElement} */ (el), summary);
    return {el, forGame: (game) => { offersRow.hidden = !GAMES_WITH_OFFERS.includes(game); }};
}
