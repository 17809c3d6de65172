// svg.mjs -- making SVG and HTML elements in one call.
//
// Every picture of the Carcassonne view is built with these two helpers, so
// that no module writes markup as strings (no escaping to get wrong).

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} [attrs] null/undefined are left out
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, children = []) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const [name, value] of Object.entries(attrs))
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  for (const child of children)
    if (child) node.append(child);
  return node;
}

/**
 * An HTML element with attributes and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 *   null, undefined and false are left out; true sets the attribute empty
 * @param {(Node | string | null | undefined | false)[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children)
    if (child) node.append(child);
  return node;
}

/**
 * A short SVG title (the tooltip and the accessible name).
 * @param {string} text
 */
export function title(text) {
  return svg("title", {}, [text]);
}
