// app.mjs -- the page's entry: routes by address.
//   /                           the lobby
//   /t/<table>?token=<token>    a seat at a table (the token keeps the seat on reload)
//   /t/<table>                  a spectator
//   /p/<name>                   a player's profile (profile/profile.mjs)
//   ?local=<table>              a table on this device (local/: the engine
//                               in a worker), under the server or the static site
//   ?guide=<game>               a guided first game (guide/): a new table on
//                               this device, then its ?local=<table>&guide=<game>
// The static site (<meta name="tafel-site" content="static">) has no server:
// it asks none, and offers the tables on this device only.
// It opens the one connection, and reads GET /api/games (the games, their
// options and pieces, the bots), the catalog of the page's language
// (words/language.mjs) and who the page is (account/identity.mjs: an
// account, or a guest made now) before drawing either page: the
// WebSocket opens afterwards, with the login's cookie.

import {Connection} from "./net/connection.mjs";
import {showLobby} from "./lobby/lobby.mjs";
import {showTable} from "./table/table.mjs";
import {showProfile} from "./profile/profile.mjs";
import {speak} from "./words/language.mjs";
import {identify} from "./account/identity.mjs";
import {LocalConnection} from "./local/connection.mjs";
import {isStaticSite} from "./net/site.mjs";
import {registerOffline} from "./offline/register.mjs";
import {GUIDES, guidedGame, startGuide} from "./guide/guide.mjs";

/** @typedef {import("./types.js").GamesInfo} GamesInfo */

/** @returns {Promise<GamesInfo | null>} */
async function readGames() {
    for (let attempt = 0; attempt < 3; attempt++) {
        try {
            const r = await fetch("/api/games");
            if (r.ok) return await r.json();
        } catch {
            /* the server may be restarting: try again */
        }
        await new Promise((ok) => setTimeout(ok, 1000 * (attempt + 1)));
    }
    return null;
}

/**
 * The engine in this page, when this browser can run it: its worker, the
 * games and bots it offers, and whether the browser keeps its games.
 * @returns {Promise<import("./lobby/lobby.mjs").Device | null>}
 */
async function openDevice() {
    if (!await LocalConnection.available()) return null;
    const conn = new LocalConnection();
    conn.open();
    // the worker ends with the page: a worker left to die after it would keep
    // the site's old service worker in charge (a new version waits for no client)
    addEventListener("pagehide", () => conn.close());
    try {
        const info = await conn.info();
        return {conn, info, kept: info.persistent !== false};
    } catch {
        conn.close();
        return null;
    }
}

async function main() {
    const root = document.getElementById("app");
    if (!root) return;
    const staticSite = isStaticSite();
    registerOffline();   // the static site's only: it checks
    const params = new URLSearchParams(location.search);
    const local = params.get("local");
    const guide = params.get("guide");
    if (local !== null) {
        const [device] = await Promise.all([openDevice(), speak()]);
        // a guided table opened again from the device's games says no &guide=: the guide knows it
        const guided = guide !== null && Object.hasOwn(GUIDES, guide) ? guide : guidedGame(local);
        if (device) showTable(root, device.conn, device.info, local, null, device.conn, guided);
        else showLobby(root, null, null, null);
        return;
    }
    if (guide !== null && Object.hasOwn(GUIDES, guide)) {
        const [device] = await Promise.all([openDevice(), speak()]);
        // the guided table replaces this address: Back leads to where the newcomer came from
        if (device) {
            location.replace(await startGuide(device.conn, guide));
            return;
        }
        // no engine here: the lobby, at its own address
        if (!staticSite) history.replaceState(null, "", location.pathname);
    }
    if (staticSite) {
        const [device] = await Promise.all([openDevice(), speak()]);
        showLobby(root, null, null, device);
        return;
    }
    // other routes (a player's profile, /p/NAME) go here, before the table's
    const m = /^\/t\/([0-9a-f]+)\/?$/.exec(location.pathname);
    const p = /^\/p\/([^/]+)\/?$/.exec(location.pathname);
    const lobby = !m && !p;
    const [info, , , device] = await Promise.all([readGames(), speak(), identify(),
                                                  lobby ? openDevice() : null]);
    const conn = new Connection();
    if (p) {
        showProfile(root, decodeURIComponent(p[1]));
        return;
    }
    if (m) {
        const token = new URLSearchParams(location.search).get("token");
        showTable(root, conn, info, m[1], token && /^[0-9a-f]+$/.test(token) ? token : null);
    } else {
        showLobby(root, conn, info, device);
    }
    conn.open();
}

main();
