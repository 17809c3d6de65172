// gameview.mjs -- loads the game's own view (web/<game>/view.mjs) by name.
//
// When there is none, or it fails, the table shows the position as JSON
// (the engine's view for this seat) and the generic list of legal actions
// plays the game.  A view that throws in update() is replaced by the JSON
// one, so the table stays playable.

import {h} from "./dom.mjs";

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
    const pre = h("pre", {class: "json-view", tabindex: "0", "aria-label": "The position, as the engine describes it"});
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
    if (!/^[a-z0-9_]+$/.test(name)) return {view: jsonView(root, "Unknown game."), real: false};
    /** @type {any} */
    let mod;
    try {
        mod = await import(`/${name}/view.mjs`);
    } catch {
        return {view: jsonView(root, `No board for ${name} yet: the position as JSON, and the legal actions below.`), real: false};
    }
    if (typeof mod.createView !== "function") {
        return {view: jsonView(root, `${name}/view.mjs has no createView.`), real: false};
    }
    try {
        /** @type {GameView} */
        const view = mod.createView(root, ctx);
        return {view: guarded(root, view, name, onBroken), real: true};
    } catch (err) {
        console.error(err);
        root.replaceChildren();
        return {view: jsonView(root, `The ${name} board failed to start: the position as JSON.`), real: false};
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
                fallback = jsonView(root, `The ${name} board failed to draw this position: the position as JSON.`);
                fallback.update(st);
                onBroken();
            }
        },
        destroy() {
            if (fallback) fallback.destroy();
            else view.destroy();
        },
    };
}
