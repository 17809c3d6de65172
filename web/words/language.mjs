// language.mjs -- which language the page speaks, and the switch.
//
// In this order: ?lang=xx in the address (kept for the next visit), the
// language chosen before (localStorage), the first of the browser's
// languages the page has, English.  A language is a folder of web/i18n; the
// switch lists those of LANGUAGES, each named in itself.  Any other folder
// can be asked for by address (the browser tests' pseudo-language "qps").

import {loadCatalog, useCatalog, t} from "./catalog.mjs";
import {h} from "../table/dom.mjs";

/** The languages the switch offers, in its order. */
export const LANGUAGES = ["en", "nl", "de", "it"];

const KEY = "tafel.lang";

/** @param {string | null | undefined} lang */
function wellFormed(lang) {
    return typeof lang === "string" && /^[a-z]{2,3}$/.test(lang);
}

/** The language the page should speak now. */
export function chosenLanguage() {
    const asked = new URLSearchParams(location.search).get("lang");
    if (wellFormed(asked)) {
        try { localStorage.setItem(KEY, /** @type {string} */ (asked)); } catch { /* private mode */ }
        return /** @type {string} */ (asked);
    }
    let kept = null;
    try { kept = localStorage.getItem(KEY); } catch { /* private mode */ }
    if (wellFormed(kept)) return /** @type {string} */ (kept);
    for (const tag of navigator.languages ?? [navigator.language]) {
        const base = tag.toLowerCase().split("-")[0];
        if (LANGUAGES.includes(base)) return base;
    }
    return "en";
}

/** Loads the chosen language's catalog and makes it the page's. */
export async function speak() {
    const catalog = await loadCatalog(chosenLanguage());
    useCatalog(catalog);
    return catalog;
}

/**
 * The switch: a select of the languages; a choice is kept and the page
 * reloaded in it (without a ?lang= that would override it).
 * @param {string} current
 */
export function languageSwitch(current) {
    const select = h("select", {class: "language", "aria-label": t("page.language.choose"),
        title: t("page.language.choose")},
        ...LANGUAGES.map((l) => h("option", {value: l, text: t(`page.language.${l}`)})));
    select.value = LANGUAGES.includes(current) ? current : "en";
    select.addEventListener("change", () => {
        try { localStorage.setItem(KEY, select.value); } catch { /* private mode */ }
        const url = new URL(location.href);
        url.searchParams.delete("lang");
        location.replace(url.toString());
    });
    return select;
}
