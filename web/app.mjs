// app.mjs -- the page's entry: routes by address.
//   /                           the lobby
//   /t/<table>?token=<token>    a seat at a table (the token keeps the seat on reload)
//   /t/<table>                  a spectator
// It opens the one connection, and reads GET /api/games (the games, their
// options and pieces, the bots), the catalog of the page's language
// (words/language.mjs) and who the page is (account/identity.mjs: an
// account, or a guest made now) before drawing either page: the
// WebSocket opens afterwards, with the login's cookie.

import {Connection} from "./net/connection.mjs";
import {showLobby} from "./lobby/lobby.mjs";
import {showTable} from "./table/table.mjs";
import {speak} from "./words/language.mjs";
import {identify} from "./account/identity.mjs";

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

async function main() {
    const root = document.getElementById("app");
    if (!root) return;
    const [info] = await Promise.all([readGames(), speak(), identify()]);
    const conn = new Connection();
    // other routes (a player's profile, /p/NAME) go here, before the table's
    const m = /^\/t\/([0-9a-f]+)\/?$/.exec(location.pathname);
    if (m) {
        const token = new URLSearchParams(location.search).get("token");
        showTable(root, conn, info, m[1], token && /^[0-9a-f]+$/.test(token) ? token : null);
    } else {
        showLobby(root, conn, info);
    }
    conn.open();
}

main();
