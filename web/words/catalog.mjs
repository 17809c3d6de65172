// catalog.mjs -- the page's words: one language's catalog, and templates
// filled from an event or from the page's own fields.
//
// The catalogs are those of the terminal (web/i18n/<lang>/<part>.json,
// docs/catalogs.md), read the same way: a key is looked up in the chosen
// language, then in English; a template's {field} puts in a field in words
// (seat numbers as colours, per-seat arrays as "Red 3 and Blue 1", symbols
// as <game>.<field>.<value>), {field:key} the plural phrase key_one /
// key_other chosen by the number in field (key_zero for 0, when there is
// one), with {n} in it.  This file is the
// one place the page turns keys into text: a module says t("page.log.title"),
// never an English word.
//
// The page loads one language once (language.mjs picks it); a switch of
// language reloads the page, so nothing drawn has to be redrawn in another.

/** @typedef {Record<string, any>} Fields */

/** How deep phrases may nest ({a:k} whose text has {b:k2} ...). */
const MAX_DEPTH = 4;

/** The parts that are no game's; each game's are listed in web/i18n/parts.json. */
const COMMON_PARTS = ["common", "howto", "page", "lobby", "account", "ratings", "social", "clocks", "local",
                      "guide"];

export class Catalog {
    /**
     * @param {string} lang the language's folder name ("en", "nl", "de", "it", "qps")
     * @param {string} game the game whose symbols {field} looks up ("" for none yet)
     * @param {Record<string, string>[]} tables the chosen language's files, then English's
     */
    constructor(lang, game, tables) {
        this.lang = lang;
        this.game = game;
        /** @type {Map<string, string>} */
        this.texts = new Map();
        for (let i = tables.length - 1; i >= 0; i--) {
            for (const [k, v] of Object.entries(tables[i])) if (typeof v === "string") this.texts.set(k, v);
        }
        /** @type {Intl.PluralRules} */
        this.plurals = pluralRules(lang);
    }

    /** @param {string} key */
    has(key) {
        return this.texts.has(key);
    }

    /**
     * The template of key filled from fields; a missing key shows itself,
     * so a test finds it.
     * @param {string} key
     * @param {Fields} [fields]
     */
    text(key, fields = {}) {
        const tmpl = this.texts.get(key);
        return tmpl === undefined ? key : this.expand(tmpl, {fields, n: null, seat: null, depth: 0});
    }

    /**
     * The phrase key_one / key_other for n, filled ({n} is n).
     * @param {string} key
     * @param {number} n
     * @param {Fields} [fields]
     */
    count(key, n, fields = {}) {
        return this.phrase(key, n, {fields, n: null, seat: null, depth: 0}, null);
    }

    /**
     * A seat's colour name ("Red"); a number outside the seats says so.
     * @param {number} seat
     */
    seat(seat) {
        return this.texts.get(`common.seat.${seat}`) ?? `#${seat + 1}`;
    }

    /**
     * One event of an account as a sentence: <game>.event.<kind>, else
     * common.event.<kind>.
     * @param {import("../types.js").ActionEvent} event
     */
    event(event) {
        const kind = typeof event.kind === "string" ? event.kind : "?";
        const own = `${this.game}.event.${kind}`;
        return this.text(this.has(own) ? own : `common.event.${kind}`, event);
    }

    /**
     * A symbol of the game in words: <game>.<field>.<value>, else the value.
     * @param {string} field
     * @param {string} value
     * @param {string | null} [form]
     */
    symbol(field, value, form = null) {
        // a form ({card@acc}): the language's own entry for the name where it stands
        const word = (form === null ? undefined : this.texts.get(`${this.game}.${field}.${value}@${form}`)) ??
            this.texts.get(`${this.game}.${field}.${value}`);
        if (word !== undefined) return word;
        return value === "?" ? this.text("common.hidden") : value;
    }

    // ---- filling templates (the same grammar as src/cli/catalog.c) ----

    /**
     * @typedef {{fields: Fields, n: number | null, seat: number | null, depth: number}} Fill
     */

    /**
     * @param {string} key
     * @param {number} n
     * @param {Fill} f
     * @param {number | null} seat
     * @returns {string}
     */
    phrase(key, n, f, seat) {
        if (f.depth >= MAX_DEPTH) return String(n);
        let category = "other";
        try { category = this.plurals.select(n); } catch { /* not a number the rules know */ }
        // n = 0 says key_zero when there is one (it may be empty: a part worth nothing left out)
        const zero = n === 0 ? this.texts.get(`${key}_zero`) : undefined;
        const tmpl = zero ?? this.texts.get(`${key}_${category}`) ?? this.texts.get(`${key}_other`) ??
            this.texts.get(key) ?? key;
        return this.expand(tmpl, {fields: f.fields, n, seat, depth: f.depth + 1});
    }

    /** "a, b and c" @param {string[]} items */
    list(items) {
        if (items.length < 2) return items.join("");
        const sep = this.texts.get("common.list_sep") ?? ", ";
        return items.slice(0, -1).join(sep) + " " + (this.texts.get("common.and") ?? "and") + " " +
            items[items.length - 1];
    }

    /**
     * Each seat with a number, as its phrase: "Red +3 and Blue -1".
     * @param {string} field
     * @param {any[]} values
     * @param {Fill} f
     */
    perSeat(field, values, f) {
        /** @type {string[]} */
        const items = [];
        values.forEach((v, seat) => {
            if (typeof v !== "number" || v === 0) return;
            const lost = `common.per_seat.${field}_lost`, gained = `common.per_seat.${field}`;
            if (v < 0 && this.has(`${lost}_other`)) items.push(this.phrase(lost, -v, f, seat));
            else if (this.has(`${gained}_other`)) items.push(this.phrase(gained, v, f, seat));
            else items.push(`${this.seat(seat)} ${v}`);
        });
        if (items.length) return this.list(items);
        // every seat at 0: "nobody" tells a score, but not totals that are level
        // at 0 ("level (nobody)"), which say so in their own words
        const none = `common.per_seat.${field}_none`;
        return this.text(this.has(none) ? none : "common.nobody");
    }

    /**
     * @param {string} name
     * @param {string | null} key
     * @param {Fill} f
     * @returns {string}
     */
    field(name, key, f) {
        const at = name.indexOf("@");
        const form = at < 0 ? null : name.slice(at + 1);
        if (at >= 0) name = name.slice(0, at);
        if (name === "n" && f.n !== null) return String(f.n);
        if (name === "seat" && f.seat !== null) return this.seat(f.seat);
        const v = f.fields[name];
        if (v === undefined || v === null) return `{${name}}`;   // left visible, for the tests
        if (key !== null) {
            const n = typeof v === "number" ? v : Array.isArray(v) ? v.length : 0;
            return this.phrase(key, n, f, null);
        }
        const seatField = name === "seat" || name.endsWith("_seat");
        const seatsField = name === "seats" || name.endsWith("_seats");
        const perSeatField = name === "points" || name.endsWith("_by_seat");
        if (seatField && typeof v === "number") return this.seat(v);
        if (seatsField && Array.isArray(v)) {
            return v.length ? this.list(v.map((s) => this.seat(Number(s)))) : this.text("common.nobody");
        }
        if (perSeatField && Array.isArray(v)) return this.perSeat(name, v, f);
        if (typeof v === "string") return this.symbol(name, v, form);
        if (typeof v === "number") return String(v);
        if (typeof v === "boolean") return this.text(v ? "common.yes" : "common.no");
        if (Array.isArray(v)) {
            const sep = this.texts.get("common.list_sep") ?? ", ";
            return v.map((s) => typeof s === "string" ? this.symbol(name, s, form) : String(s)).join(sep);
        }
        return String(v);
    }

    /**
     * @param {string} tmpl
     * @param {Fill} f
     * @returns {string}
     */
    expand(tmpl, f) {
        return tmpl.replace(/\{([^{}:]{1,120})(?::([^{}]{1,150}))?\}/g,
            (_, /** @type {string} */ name, /** @type {string | undefined} */ key) =>
                this.field(name, key ?? null, f));
    }
}

/** @param {string} lang */
function pluralRules(lang) {
    try {
        return new Intl.PluralRules(lang);
    } catch {
        return new Intl.PluralRules("en");   // the pseudo-language counts as English does
    }
}

/**
 * One file of a language; null when it is missing or not a flat object.
 * @param {string} lang
 * @param {string} part
 * @returns {Promise<Record<string, string> | null>}
 */
async function readPart(lang, part) {
    try {
        const r = await fetch(new URL(`../i18n/${lang}/${part}.json`, import.meta.url));
        if (!r.ok) return null;
        const data = await r.json();
        return data && typeof data === "object" && !Array.isArray(data) ? data : null;
    } catch {
        return null;
    }
}

/** @type {Promise<Record<string, string[]>> | null} */
let partsIndex = null;

/**
 * The parts of each game (web/i18n/parts.json): {"carcassonne": ["carcassonne", ...]}.
 * @returns {Promise<Record<string, string[]>>}
 */
function gameParts() {
    partsIndex ??= fetch(new URL("../i18n/parts.json", import.meta.url)).then((r) => r.ok ? r.json() : {}).catch(() => ({}));
    return partsIndex;
}

/**
 * A language's catalog: every part of every game (a page may show any game,
 * and all of them are ~150 KB), the language's files over English's.
 * @param {string} lang
 */
export async function loadCatalog(lang) {
    const index = await gameParts();
    const parts = [...COMMON_PARTS, ...Object.values(index).flat()];
    const langs = lang === "en" ? ["en"] : [lang, "en"];
    const tables = await Promise.all(langs.flatMap((l) => parts.map((p) => readPart(l, p))));
    return new Catalog(lang, "", /** @type {Record<string, string>[]} */ (tables.filter((t) => t)));
}

/**
 * The game whose symbols events name ({tile} is carcassonne.tile.<id>).
 * @param {string} game
 */
export function useGame(game) {
    current.game = game;
}

/** The catalog the page speaks now (English keys until one is loaded). */
let current = new Catalog("en", "", []);

/** @param {Catalog} catalog */
export function useCatalog(catalog) {
    current = catalog;
    if (typeof document !== "undefined") document.documentElement.lang = catalog.lang === "qps" ? "en" : catalog.lang;
}

/** The catalog in use. */
export function catalog() {
    return current;
}

/**
 * The text of key in the page's language, filled from fields.
 * @param {string} key
 * @param {Fields} [fields]
 */
export function t(key, fields) {
    return current.text(key, fields);
}

/**
 * The plural phrase key_one / key_other for n ({n} is n).
 * @param {string} key
 * @param {number} n
 * @param {Fields} [fields]
 */
export function tn(key, n, fields) {
    return current.count(key, n, fields);
}

/** A seat's name in the page's language. @param {number} seat */
export function seatWord(seat) {
    return current.seat(seat);
}

/**
 * A bot as a person reads it, from its spec: a level or bot the catalog
 * names (common.bot.<spec>: "medium" is "gemiddeld" in Dutch), else the
 * spec as it was typed ("mcts:ms=500" is notation, the same in every
 * language).  Every place that shows a bot to a person names it by this.
 * @param {string | null | undefined} spec
 */
export function botWord(spec) {
    if (!spec) return "?";
    const key = `common.bot.${spec}`;
    return current.has(key) ? current.text(key) : spec;
}
