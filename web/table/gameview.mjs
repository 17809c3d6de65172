// gameview.mjs -- loads the game's own view (web/<game>/view.mjs) by name.
//
// When there is none, or it fails, the table shows the position as JSON
// (the engine's view for this seat) and the generic list of legal actions
// plays the game.  A view that throws in update() is replaced by the JSON
// one, so the table stays playable.

import {h} from "./dom.mjs";
import {t} from "../words/catalog.mjs";
import {gameTitle} from "./game-title.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */
/** @typedef {import("../types.js").GameContext} GameContext */
/** @typedef {import("../types.js").GameView} GameView */

/**
 * The fallback: the view's JSON.
 * @param {HTMLElement} root
 * @param {string} why
 * @returns {GameView}
 */
export function jsonView(root, why) {
    const pre = h("pre", {class: "json-view", tabindex: "0", "aria-label": t("page.board.json_label")});
    root.replaceChildren(h("p", {class: "muted small", text: why}), pre);
    return {
        update(st) {
            pre.textContent = JSON.stringify(st.view, null, 1);
        },
        destroy() {
            root.replaceChildren();
        },
    };
}

/**
 * @param {HTMLElement} root
 * @param {string} name the game's name ("carcassonne")
 * @param {GameContext} ctx
 * @param {() => void} onBroken called when a real view fails and the JSON one replaces it
 * @returns {Promise<{view: GameView, real: boolean}>}
 */
export async function loadGameView(root, name, ctx, onBroken) {
    if (!/^[a-z0-9_]+$/.test(name)) return {view: jsonView(root, t("page.board.unknown_game")), real: false};
    /** @type {any} */
    let mod;
    try {
        mod = await import(`/${name}/view.mjs`);
    } catch {
        return {view: jsonView(root, t("page.board.no_view", {game: gameTitle(name)})), real: false};
    }
    if (typeof mod.createView !== "function") {
        return {view: jsonView(root, t("page.board.no_create", {game: name})), real: false};
    }
    try {
        /** @type {GameView} */
        const view = mod.createView(root, ctx);
        return {view: guarded(root, view, name, onBroken), real: true};
    } catch (err) {
        console.error(err);
        root.replaceChildren();
        return {view: jsonView(root, t("page.board.failed_start", {game: gameTitle(name)})), real: false};
    }
}

/**
 * A view whose update() errors are caught: the first one swaps in the JSON view.
 * @param {HTMLElement} root
 * @param {GameView} view
 * @param {string} name
 * @param {() => void} onBroken
 * @returns {GameView}
 */
function guarded(root, view, name, onBroken) {
    /** @type {GameView | null} */
    let fallback = null;
    /**
     * @template T
     * @param {() => T} call @returns {T | null} what it gave, null when it failed
     */
    const help = (call) => {
        if (fallback) return null;
        try {
            return call();
        } catch (err) {
            console.error(err);
            return null;
        }
    };
    return {
        update(st) {
            if (fallback) {
                fallback.update(st);
                return;
            }
            try {
                view.update(st);
            } catch (err) {
                console.error(err);
                try { view.destroy(); } catch { /* already broken */ }
                fallback = jsonView(root, t("page.board.failed_draw", {game: gameTitle(name)}));
                fallback.update(st);
                onBroken();
            }
        },
        // a hint drawn on the board, a log line's spot lit or its piece pictured are helps:
        // their failure must not break the table
        hint(action) {
            help(() => view.hint?.(action));
        },
        picture(events) {
            return help(() => view.picture?.(events) ?? null);
        },
        light(events) {
            help(() => view.light?.(events));
        },
        words(action) {
            // words for the list of actions are a help too: the notation stands in for them
            return help(() => view.words?.(action) ?? null);
        },
        destroy() {
            if (fallback) fallback.destroy();
            else view.destroy();
        },
    };
}
