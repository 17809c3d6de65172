// guide.mjs -- a guided first game: a table on this device (local/) with a
// fixed deal, and a panel over the board that says what to do next and
// why, and lights the control that does it (docs/guide.md).
//
// A guide (carcassonne.mjs, cardcassonne.mjs, catan_cards.mjs) is a game
// string, its seats (the newcomer and the bot `easy`), a seed and a list of
// steps.  Each step is one decision of the newcomer: its words
// (guide.<game>.<key>) and the actions it asks for, best first; the first
// one in the state's `legal` is asked.  The guide never plays: it only
// lights a control the game's view drew from `legal` ([data-action] or
// [data-key] naming the action, else the guide's own point(): the first of
// several clicks, such as a card in the hand).  The words are written for
// the fixed deal, move by move: when the newcomer plays something else, the
// guide says kindly that this is a legal move too and that free play begins
// (an undo, while it is still their turn, takes them back into the guide);
// a step with nothing legal to ask starts free play too.
// After the last step the free-play words stay until the newcomer's next
// move; at the end of the game, the closing words.
//
// Where it is in the guide is kept in localStorage by table, with the game:
// a reload, or the table opened again from "Games on this device" (an
// address without &guide=: guidedGame), goes on at the same step.  The
// count of actions seen keeps a state told again (a reload, a reconnect)
// from counting a move twice, and tells an undo (fewer actions), after
// which the step before is asked again.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {gameTitle} from "../table/game-title.mjs";
import {SITE_ROOT, localTableHref} from "../net/site.mjs";
import {guide as carcassonne} from "./carcassonne.mjs";
import {guide as cardcassonne} from "./cardcassonne.mjs";
import {guide as catanCards} from "./catan_cards.mjs";

/**
 * One decision of the newcomer: its words guide.<game>.<key>, the actions
 * it asks for, best first (a text, or a pattern of texts), and the moves
 * that do as well as the one asked (alike: a choice of taste, such as the
 * order of the start regions, after which the next words still fit).
 * @typedef {{key: string, want: (string | RegExp)[], alike?: RegExp}} Step
 */
/**
 * A guided game: what table to make, the steps, and what to click first for
 * an action no control names (null: nothing).
 * @typedef {{game: string, seats: string[], seed: number, steps: Step[],
 *   point: (action: string, board: HTMLElement) => Element | null}} Guide
 */
/**
 * Where the newcomer is: the step asked (or next), the action asked, the
 * actions of the game seen, the step where they went their own way (null:
 * they did not), and whether the guide is over (free play told) or closed.
 * @typedef {{step: number, asked: string | null, seen: number, own: number | null,
 *   freeTold: boolean, closed: boolean}} Progress
 */

/** @type {Record<string, Guide>} */
export const GUIDES = {carcassonne, cardcassonne, catan_cards: catanCards};

/** The class of the control the guide points at. */
export const TARGET = "guide-target";

/** The address that starts a guided game of name (app.mjs). @param {string} name */
export function guideHref(name) {
    return `${SITE_ROOT.pathname}?guide=${encodeURIComponent(name)}`;
}

/** The guide's look (guide.css), next to this module; once. */
export function guideStyle() {
    const href = new URL("./guide.css", import.meta.url).href;
    const links = [...document.querySelectorAll("link[rel=stylesheet]")];
    if (links.some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/**
 * Makes the guided table of name on this device; resolves to its address.
 * @param {import("../local/connection.mjs").LocalConnection} conn
 * @param {string} name
 */
export async function startGuide(conn, name) {
    const g = GUIDES[name];
    if (!g) throw new Error(`no guide for '${name}'`);
    const table = await conn.create(g.game, g.seats, g.seed);
    return `${localTableHref(table)}&guide=${encodeURIComponent(name)}`;
}

/**
 * The first of want that legal holds, or null.
 * @param {(string | RegExp)[]} want @param {string[]} legal
 */
export function pick(want, legal) {
    for (const w of want) {
        const found = legal.find((a) => (typeof w === "string" ? a === w : w.test(a)));
        if (found) return found;
    }
    return null;
}

/** What is kept of a table's guide, or null. @param {string} table */
function readKept(table) {
    try {
        const saved = JSON.parse(localStorage.getItem(`tafel.guide.${table}`) ?? "null");
        return saved && typeof saved === "object" ? saved : null;
    } catch {
        return null;   // no storage: the guide starts again on a reload
    }
}

/**
 * The game of the guide a table on this device was made for (null: none),
 * for an address that does not say it.
 * @param {string} table
 */
export function guidedGame(table) {
    const game = readKept(table)?.game;
    return typeof game === "string" && Object.hasOwn(GUIDES, game) ? game : null;
}

/** @param {string} table @returns {Progress} */
function readProgress(table) {
    /** @type {Progress} */
    const fresh = {step: 0, asked: null, seen: -1, own: null, freeTold: false, closed: false};
    const saved = readKept(table);
    return saved && typeof saved.step === "number" ? {...fresh, ...saved} : fresh;
}

/** @param {string} table @param {string} game @param {Progress} p */
function keepProgress(table, game, p) {
    try {
        localStorage.setItem(`tafel.guide.${table}`, JSON.stringify({...p, game}));
    } catch { /* no storage: kept in memory only */ }
}

/**
 * The control on the board that plays action, or the first click towards it.
 * @param {Guide} g @param {string} action @param {HTMLElement} board
 * @returns {Element | null}
 */
function controlOf(g, action, board) {
    const name = CSS.escape(action);
    const direct = board.querySelector(
        `[data-action="${name}"]:not([disabled]), [data-key="${name}"]:not([disabled])`);
    return direct ?? g.point(action, board);
}

/**
 * The guide's panel for a table: update(state) after each state drawn.
 * @param {string} name the game's name (a key of GUIDES)
 * @param {string} table
 * @param {HTMLElement} board the element the game's view draws into
 */
export function createGuide(name, table, board) {
    const g = GUIDES[name];
    guideStyle();
    const heading = h("h2", {class: "guide-title",
                             text: t("guide.heading", {game: gameTitle(name)})});
    const count = h("span", {class: "guide-count muted small"});
    const own = h("p", {class: "guide-own", hidden: true, text: t("guide.own_way")});
    const text = h("div", {class: "guide-text", "aria-live": "polite"});
    // a cross (guide.css draws it), named in words for screen readers and on
    // hover: on a phone the words would take a line of their own
    const close = h("button", {type: "button", class: "guide-close small",
                               "aria-label": t("guide.close"), title: t("guide.close"),
                               onclick: () => {
                                   progress.closed = true;
                                   keepProgress(table, name, progress);
                                   draw(null);
                               }});
    const el = h("section", {class: "panel guide", "aria-label": t("guide.label")},
                 h("div", {class: "guide-head"},
                   h("div", {class: "guide-names"}, heading, count), close),
                 own, text);
    const progress = readProgress(table);
    /** @type {string | null} the action pointed at */
    let pointing = null;
    /** @type {Element | null} */
    let target = null;
    let frame = 0;

    /** The words shown (a key), so that a screen reader hears them once. */
    let said = "";

    /** @param {string} key */
    function say(key) {
        if (key === said) return;
        said = key;
        text.replaceChildren(...t(key).split("\n").map((line) => h("p", {text: line})));
    }

    /** Lights the control of the action pointed at (again after the board changed). */
    function point() {
        frame = 0;
        const now = pointing ? controlOf(g, pointing, board) : null;
        if (now === target) return;
        target?.classList.remove(TARGET);
        target = now;
        if (!target) return;
        target.classList.add(TARGET);
        const r = target.getBoundingClientRect();
        if (r.bottom < 0 || r.top > innerHeight) target.scrollIntoView({block: "center"});
    }
    // the view redraws its controls on clicks (a card chosen) and states
    new MutationObserver(() => { if (!frame) frame = requestAnimationFrame(point); })
        .observe(board, {childList: true, subtree: true});

    /**
     * What the guide asks now, from the state drawn (null: hidden).
     * @param {import("../types.js").StateMessage | null} st
     */
    function draw(st) {
        pointing = null;
        el.dataset.step = "";
        el.classList.remove("guide-waiting");
        if (!st || progress.closed) {
            el.hidden = true;
            point();
            return;
        }
        el.hidden = false;
        own.hidden = progress.own === null;
        count.textContent = "";
        if (st.status === "over") {
            own.hidden = true;
            say(`guide.${name}.end`);
        } else if (st.legal?.length && st.to_move === st.seat) {
            const step = g.steps[progress.step];
            const asked = step ? pick(step.want, st.legal) : null;
            if (step && asked) {
                progress.asked = asked;
                pointing = asked;
                el.dataset.step = step.key;
                count.textContent = t("guide.count",
                                      {step: progress.step + 1, steps: g.steps.length});
                say(`guide.${name}.${step.key}`);
            } else if (!progress.freeTold) {
                progress.step = g.steps.length;
                progress.asked = null;
                say(`guide.${name}.free`);
            } else {
                el.hidden = true;
            }
        } else if (!progress.freeTold) {
            el.classList.add("guide-waiting");   // the words stay; the other seat plays
        } else {
            el.hidden = true;
        }
        el.dataset.action = pointing ?? "";
        el.dataset.phase = progress.step >= g.steps.length ? "free" : "guided";
        keepProgress(table, name, progress);
        point();
    }

    /**
     * A state drawn: the newcomer's move since the last one moves the guide
     * on a step (the move asked) or to free play (another); an undo back.
     * @param {import("../types.js").StateMessage} st
     */
    function update(st) {
        try {
            follow(st);
        } catch (err) {   // the guide's fault must never stop the table: it goes quiet
            console.error(`tafel: the guide stopped: ${err instanceof Error ? err.message : err}`);
            progress.closed = true;
            draw(null);
        }
    }

    /** @param {import("../types.js").StateMessage} st */
    function follow(st) {
        if (st.seat === null) return;
        if (st.actions > progress.seen) {
            const played = (st.last ?? []).filter((a) => a.seat === st.seat).map((a) => a.text);
            if (progress.seen >= 0 && played.length) {
                if (progress.step < g.steps.length && progress.asked !== null) {
                    const alike = g.steps[progress.step].alike;
                    const followed = played.includes(progress.asked)
                        || (!!alike && played.some((a) => alike.test(a)));
                    // the next words are written for the move asked: after another, free play
                    progress.own = followed ? null : progress.step;
                    progress.step = followed ? progress.step + 1 : g.steps.length;
                    progress.asked = null;
                } else if (progress.step >= g.steps.length) {
                    progress.freeTold = true;   // the free-play words were read: they go
                    progress.own = null;
                }
            }
            progress.seen = st.actions;
        } else if (st.actions < progress.seen) {
            // an undo took the newcomer's last move back: ask that step again
            progress.seen = st.actions;
            if (progress.own !== null) progress.step = progress.own;
            else if (progress.step > 0 && !progress.freeTold) progress.step--;
            progress.asked = null;
            progress.own = null;
        }
        draw(st);
    }

    return {el, update};
}
