// dom.mjs -- a tiny element builder for the card games' views, and focus
// keeping across redraws (every update redraws from the state message).
export {};

/**
 * @typedef {Node | string | number | null | undefined | false} Kid
 */

/**
 * An element with attributes, listeners (`on<event>`) and children.
 * `class` is the class name, `text` the text content, `data` a dataset.
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...(Kid | Kid[])} kids
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs ?? {})) {
        if (value === undefined || value === null || value === false) continue;
        if (key === "class") el.className = String(value);
        else if (key === "text") el.textContent = String(value);
        else if (key === "data") Object.assign(el.dataset, value);
        else if (key.startsWith("on") && typeof value === "function")
            el.addEventListener(key.slice(2), value);
        else if (key === "style" && typeof value === "object")
            for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, String(v));
        else el.setAttribute(key, value === true ? "" : String(value));
    }
    for (const kid of kids.flat()) {
        if (kid === null || kid === undefined || kid === false) continue;
        el.append(typeof kid === "object" ? kid : String(kid));
    }
    return el;
}

/**
 * A button that runs `act` on click (Enter and Space come with <button>).
 * @param {string} label
 * @param {(() => void) | null} act  null: disabled
 * @param {Record<string, any>} [attrs]
 * @returns {HTMLElement}
 */
export function button(label, act, attrs = {}) {
    return h("button", {type: "button", ...attrs, disabled: !act,
                        onclick: act ? () => act() : undefined}, label);
}

/**
 * Replaces root's children by `kids`, keeping the keyboard focus on the
 * element with the same `data-key` when there is one.
 * @param {HTMLElement} root
 * @param {Node[]} kids
 */
export function redraw(root, kids) {
    const active = document.activeElement;
    const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : undefined;
    root.replaceChildren(...kids);
    if (key === undefined) return;
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again instanceof HTMLElement && !again.hasAttribute("disabled")) again.focus();
}

/**
 * A seat's name and colour from the context, with fallbacks.
 * @param {import("../types.js").GameContext} ctx
 * @param {number} seat
 * @returns {{name: string, colour: string}}
 */
export function seatLook(ctx, seat) {
    const fallback = ["#c0392b", "#2e6fd8", "#2f9e44", "#d4a017", "#8e44ad"];
    return {name: ctx.names?.[seat] ?? `Seat ${seat}`,
            colour: ctx.colours?.[seat] ?? fallback[seat % fallback.length]};
}

/**
 * The link element of a view's style sheet.
 * @param {string} href  an absolute address: new URL("./view.css", import.meta.url).href
 * @returns {HTMLElement}
 */
export function styleSheet(href) {
    return h("link", {rel: "stylesheet", href});
}

/**
 * The top of the room a tip may take: below the page's header and the
 * table's turn banner where they show, so that a tip never hides whose turn
 * it is or that the game is over.
 * @returns {number} a y in the window, 0 when neither is on screen
 */
export function tipCeiling() {
    let y = 0;
    for (const el of document.querySelectorAll("header.top, section.head")) {
        const r = el.getBoundingClientRect();
        if (r.height && r.bottom > 0) y = Math.max(y, r.bottom);
    }
    return Math.min(y, window.innerHeight);
}
