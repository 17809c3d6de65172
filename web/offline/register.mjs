// register.mjs -- registers the static site's service worker (sw.js, made
// by cmake/site_build.cmake; docs/site.md), which keeps the site for
// offline play.  Only the static site's page says it is one (<meta
// name="tafel-site" content="static">, added by the build): tafel serve's
// page registers nothing, so a server's own pages are never cached.

import {isStaticSite} from "../net/site.mjs";

/**
 * Registers ../sw.js (beside the site's index.html) for the site's folder,
 * once the page is the static site's and the browser has service workers.
 * Never throws and never rejects: offline play is a bonus, the page works
 * without it.
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
export async function registerOffline() {
    try {
        if (!isStaticSite()) return null;
        if (!("serviceWorker" in navigator)) return null;
        // updateViaCache "none": a host's HTTP caching never hides a new version
        return await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url),
            {scope: new URL("../", import.meta.url).href, updateViaCache: "none"});
    } catch {
        return null; /* private mode, file://, a host without HTTPS: no offline play */
    }
}
