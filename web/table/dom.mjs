// dom.mjs -- small helpers to build HTML and SVG elements.
//
// h("button", {class: "x", onclick: fn, disabled: true}, "text", child):
// keys starting with "on" are listeners, `text` sets textContent, `class`
// the class, `hidden`, `disabled`, `checked` and `value` are properties,
// everything else an attribute (false/null/undefined leave it out).

/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * @param {Element} el
 * @param {Record<string, any>} attrs
 * @param {Child[]} children
 */
function fill(el, attrs, children) {
    for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k.startsWith("on") && typeof v === "function") {
            el.addEventListener(k.slice(2), v);
        } else if (k === "text") {
            el.textContent = String(v);
        } else if (k === "class") {
            el.setAttribute("class", String(v));
        } else if (["hidden", "disabled", "checked", "value", "open"].includes(k)) {
            /** @type {any} */ (el)[k] = v;
        } else {
            el.setAttribute(k, v === true ? "" : String(v));
        }
    }
    for (const c of children) {
        if (c === null || c === undefined || c === false) continue;
        el.append(typeof c === "object" ? c : String(c));
    }
    return el;
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
    return /** @type {HTMLElementTagNameMap[K]} */ (fill(document.createElement(tag), attrs, children));
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    return /** @type {SVGElement} */ (fill(el, attrs, children));
}

/**
 * Copies text to the clipboard; falls back to selecting it in `input`.
 * @param {string} text
 * @param {HTMLInputElement} [input]
 * @returns {Promise<boolean>}
 */
export async function copyText(text, input) {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    } catch {
        if (input) {
            input.focus();
            input.select();
        }
        return false;
    }
}

/**
 * Makes a <details> a drop-down menu: Escape closes it (the focus back on
 * its summary), and so does a click anywhere outside it.
 * @param {HTMLDetailsElement} menu
 * @param {HTMLElement} summary
 */
export function dropDown(menu, summary) {
    menu.addEventListener("keydown", (e) => {
        if (e.key === "Escape" && menu.open) {
            menu.open = false;
            summary.focus();
            e.stopPropagation();
        }
    });
    document.addEventListener("click", (e) => {
        if (menu.open && !menu.contains(/** @type {Node} */ (e.target))) menu.open = false;
    });
}
