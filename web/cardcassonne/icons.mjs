// icons.mjs -- the game's symbols as small SVG pictures (no font has them
// all): a person, an animal, a building, the dragon, the fairy, a joker's
// star, the four rows' places, the chest and the big follower.  Each is
// decoration (aria-hidden): the words beside it say the same.
export {};

const NS = "http://www.w3.org/2000/svg";

/** Paths on a 24×24 grid, filled with currentColor. */
const PATHS = /** @type {Record<string, string>} */ ({
    person: "M12 2.5a3.3 3.3 0 1 1 0 6.6a3.3 3.3 0 0 1 0-6.6zM5.5 21.5v-5.2c0-3.6 2.9-6.1 6.5-6.1s6.5 2.5 6.5 6.1v5.2z",
    animal: "M7.2 4.3a2.1 2.6 0 1 1 0 5.2a2.1 2.6 0 0 1 0-5.2zM16.8 4.3a2.1 2.6 0 1 1 0 5.2a2.1 2.6 0 0 1 0-5.2z"
        + "M3.6 9.6a1.9 2.3 0 1 1 0 4.6a1.9 2.3 0 0 1 0-4.6zM20.4 9.6a1.9 2.3 0 1 1 0 4.6a1.9 2.3 0 0 1 0-4.6z"
        + "M12 11.2c2.9 0 6 3.8 6 6.6c0 2.4-2 3.2-3.4 2.9c-1.2-.3-1.7-.8-2.6-.8s-1.4.5-2.6.8C8 21 6 20.2 6 17.8c0-2.8 3.1-6.6 6-6.6z",
    building: "M12 2.8 2.5 10.6h2.6v10.6h5.2v-6.4h3.4v6.4h5.2V10.6h2.6z",
    dragon: "M12.5 2c.9 2.8 3.4 4.4 6.7 4.2c-.8 2.2-2.5 3.3-4.6 3.3c2.2 1 3.4 3 3.2 5.6c-1.6-1.4-3.3-1.8-5-1.2"
        + "c.4 3.4-1.2 6.2-4.6 8.1c.9-2.5.9-4.6-.1-6.4c-1.7.9-3.5.9-5.3 0c2.2-1 3.4-2.7 3.6-5c-1.4 0-2.7-.5-3.8-1.5"
        + "c3.3-.6 5.9-3.1 9.9-7.1z",
    fairy: "M12 1.8l2.3 7.9 7.9 2.3-7.9 2.3L12 22.2l-2.3-7.9L1.8 12l7.9-2.3z",
    star: "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z",
    // the rows: a cloister's bell tower, a road, meadow grass, a city's towers
    Y: "M11 1.5h2v2.2h2v2h-2v2.1l5.5 4.2v9.5h-4.3v-4.7a2.2 2.2 0 0 0-4.4 0v4.7H5.5v-9.5L11 7.8V5.7H9v-2h2z",
    R: "M9.3 2h2.4l-1 5h2.6l-1-5h2.4l4.8 20h-4.6l-1-5h-3.8l-1 5H4.5zM11 10l-.5 3.4h3L13 10z",
    G: "M3 21.5c.4-5 1.8-9.1 4-12.2c-.4 3.9-.2 7.8 1 11.7c.5-5.5 2.1-11 4.8-16.5c.3 6 1 11.5 2.6 16.5"
        + "c.9-3.9 2.6-7.4 5.6-10.6c-1.3 3.8-2 7.5-2 11.1z",
    B: "M2.5 21.5V8.5h3v2h2v-2h3v-5h3v5h3v2h2v-2h3v13h-7.5v-5a2 2 0 0 0-4 0v5z",
    // a card lying face down: an eye, struck out
    down: "M12 5.5c4.6 0 8.3 3 10 6.5c-.7 1.5-1.8 2.9-3.1 4l-2-2c.8-.6 1.5-1.3 2-2c-1.6-2.3-4.1-4.2-6.9-4.2"
        + "c-.8 0-1.6.1-2.3.4L8.1 6.6C9.3 5.9 10.6 5.5 12 5.5zM3.3 2.6l18 18-1.5 1.5-3.4-3.4c-1.4.6-2.9.9-4.4.9"
        + "c-4.6 0-8.3-3-10-6.5c.8-1.7 2-3.2 3.6-4.4L1.8 4.1zM7.1 9.3C6.3 10 5.6 10.9 5 11.9c1.6 2.4 4.1 4.3 7 4.3"
        + "c.8 0 1.5-.1 2.2-.3l-1.4-1.4c-.3.1-.5.1-.8.1a2.8 2.8 0 0 1-2.8-2.8c0-.3 0-.5.1-.8z",
    chest: "M3 9.5c0-3.2 2.2-5.3 5.4-5.3h7.2c3.2 0 5.4 2.1 5.4 5.3V11H3zM3 12.3h18v7.5H3zM10.4 10.3h3.2v4.2h-3.2z",
});

/**
 * An icon by name, coloured by the CSS `color` around it.
 * @param {string} name  a key of PATHS
 * @param {string} [cls]
 * @returns {SVGElement}
 */
export function icon(name, cls = "cc-icon") {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", cls);
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", PATHS[name] ?? PATHS.star);
    path.setAttribute("fill", "currentColor");
    svg.append(path);
    return svg;
}

/**
 * A big follower, in a seat's colour.
 * @param {string} colour
 * @returns {SVGElement}
 */
export function svgMeeple(colour) {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 20 20");
    svg.setAttribute("class", "cc-meeple");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", "M10 1.5a3 3 0 0 1 3 3c0 1-.4 1.7-1 2.2l5.5 2.3c.9.4.8 1.7-.2 "
        + "1.8l-3.3.4 3 6.8H12.5L10 13l-2.5 5H3l3-6.8-3.3-.4c-1-.1-1.1-1.4-.2-1.8L8 6.7C7.4 "
        + "6.2 7 5.5 7 4.5a3 3 0 0 1 3-3z");
    path.setAttribute("fill", colour);
    path.setAttribute("stroke", "#222");
    path.setAttribute("stroke-width", "0.8");
    svg.append(path);
    return svg;
}
