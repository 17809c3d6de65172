// site.mjs -- where the page lives, so that its links work under `tafel
// serve` (at /) and from a static site at any folder of any host.  A table
// on this device is the site's own page with ?local=<table>: a static host
// serves nothing but files, so the page cannot have a path of its own.

/** The folder of the page (web/): "/" under tafel serve. */
export const SITE_ROOT = new URL("../", import.meta.url);

/** The lobby's address. */
export function lobbyHref() {
    return SITE_ROOT.pathname;
}

/** The address of a table on this device. @param {string} table */
export function localTableHref(table) {
    return `${SITE_ROOT.pathname}?local=${encodeURIComponent(table)}`;
}

/** Whether this is the static site (cmake --build build --target site), with no server behind it. */
export function isStaticSite() {
    return document.querySelector('meta[name="tafel-site"]')?.getAttribute("content") === "static";
}
