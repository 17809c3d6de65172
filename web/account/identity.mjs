// identity.mjs -- who this page is: an account or a guest (docs/server.md,
// "Players").  On start the page asks GET /api/me; when nobody, it asks
// POST /api/guest (the server names the guest "Guest NNNN"), so every page
// plays as somebody.  The login is an HttpOnly cookie the page never sees;
// a WebSocket's identity is fixed when it opens, so after logging in or out
// the page reloads (and opens its connection again).

/** @typedef {{id?: number, name?: string, kind: "account" | "guest" | "bot" | null}} Me */
/** @typedef {{ok: boolean, status: number, body: any}} Answer */

/** @type {Me} */
let current = {kind: null};

/** Who the page is (after identify). */
export function me() {
    return current;
}

/**
 * POSTs JSON to an account route; a network failure is status 0.
 * @param {string} path
 * @param {Record<string, unknown>} body
 * @returns {Promise<Answer>}
 */
export async function post(path, body) {
    try {
        const r = await fetch(path, {
            method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify(body),
            credentials: "same-origin",
        });
        let parsed = null;
        try {
            parsed = await r.json();
        } catch {
            /* not JSON */
        }
        return {ok: r.ok, status: r.status, body: parsed};
    } catch {
        return {ok: false, status: 0, body: null};
    }
}

/**
 * Finds out who the page is, making a guest when nobody: before the
 * WebSocket opens.  A server without accounts (or unreachable) leaves it
 * nobody: the page still works by seat tokens.
 * @returns {Promise<Me>}
 */
export async function identify() {
    try {
        const r = await fetch("/api/me", {credentials: "same-origin"});
        if (r.ok) current = await r.json();
    } catch {
        current = {kind: null};
    }
    if (current.kind === null) {
        const g = await post("/api/guest", {});
        if (g.ok && g.body && g.body.kind) current = g.body;
    }
    return current;
}
