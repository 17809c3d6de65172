// local_tables.test.mjs -- the local tables (web/local/) against `tafel
// serve`: the same seeded game at a local table and at a server table sends
// the same `state` messages, field by field; undo, records, reloading from
// the store and the hot seat's `pass`.
//
// Run: TAFEL=build/tafel TAFEL_WASM=build/wasm/tafel.wasm node --test
// tests/wasm/local_tables.test.mjs (ctest's wasm_local).  The server listens
// on 127.0.0.1 (port 0) with --allow-chosen-seeds, on a database in a
// temporary folder, and is killed when the tests end.

import {test, before, after} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, writeFileSync} from "node:fs";
import {execFileSync} from "node:child_process";
import {join as joinPath, resolve} from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
process.env.TAFEL_CLI ??= resolve(ROOT, process.env.TAFEL || "build/tafel");
const TAFEL = process.env.TAFEL_CLI;
const WASM = resolve(ROOT, process.env.TAFEL_WASM || "build/wasm/tafel.wasm");

const {startServer, stopAll, Client, createTable, join, tempDir} = await import("../server/helpers.mjs");
const {loadEngine} = await import("../../web/engine/tafel.mjs");
const {LocalTables} = await import("../../web/local/tables.mjs");
const {memoryStore} = await import("../../web/local/store.mjs");

let server, engine;
before(async () => {
    server = await startServer();
    engine = await loadEngine(readFileSync(WASM));
});
after(stopAll);

/** A local client: the tables, what they emitted, and a request helper. */
function localClient(store = memoryStore()) {
    const out = [];
    const tables = new LocalTables(engine, store, (m) => out.push(structuredClone(m)));
    return {
        out, tables, store,
        /** Handles m; the messages it caused. */
        async send(m) {
            const from = out.length;
            await tables.handle(m);
            return out.slice(from);
        },
        states() { return out.filter((m) => m.type === "state"); },
    };
}

/**
 * What may differ between a local and a server state: the table's id (each
 * makes its own), and per seat `connected` and `sockets` (the server counts
 * its sockets; the page is the local table's one), `name` and `rating` (the
 * club's: accounts and ratings, which local tables have not).
 */
function comparable(m) {
    const c = structuredClone(m);
    delete c.table;
    if (Array.isArray(c.seats))
        c.seats = c.seats.map(({connected, sockets, name, rating, ...rest}) => rest);
    return c;
}

const mustAct = (s) => s.status === "playing" && s.seat !== null && s.to_move === s.seat;

/** The server's states until the seat must act or the game ends. */
async function serverStatesUntilTurn(client, first) {
    const states = [first];
    let s = first;
    while (!mustAct(s) && s.status === "playing") {
        s = await client.next("state");
        states.push(s);
    }
    return states;
}

// The person moves first (a bot first would play at the server before the
// join, by a race: its state would not be the join's).
for (const [game, bot, seed] of [["carcassonne(players=2)", "greedy", 11],
                                 ["cardcassonne(players=2,dealer=1)", "random", 12],
                                 ["catan_cards", "greedy", 13]]) {
    test(`${game}: a seeded game against ${bot} sends the server's states`, async () => {
        const c = await Client.connect(server);
        const created = await createTable(c, game, ["human", bot], seed);
        const loc = localClient();
        const [lc] = await loc.send({type: "create", game, seats: ["human", bot], seed});
        assert.equal(lc.type, "created");
        assert.deepEqual(lc.tokens, ["0", null]);
        assert.match(lc.table, /^[0-9a-f]{16}$/);

        let sStates = await serverStatesUntilTurn(c, await join(c, created.table, created.tokens[0]));
        let lStates = (await loc.send({type: "join", table: lc.table})).filter((m) => m.type === "state");
        let compared = 0, undos = 0, moves = 0, justUndid = false;
        for (;;) {
            assert.deepEqual(lStates.map(comparable), sStates.map(comparable), `after ${moves} moves`);
            compared += sStates.length;
            const s = sStates.at(-1);
            if (s.status === "over") break;
            // sometimes an undo: the move taken back, then played again
            const undo = s.undo && !justUndid && (undos === 0 || moves % 4 === 0);
            justUndid = undo;
            const msg = undo ? {type: "undo", seq: s.seq} : {type: "move", seq: s.seq, action: s.legal[0]};
            if (undo) undos++;
            else moves++;
            c.send(msg);
            const local = await loc.send(msg);
            const ack = await c.next(["ack", "error"]);
            assert.equal(ack.type, "ack", JSON.stringify(ack));
            const lAck = local.find((m) => m.type !== "state");
            assert.deepEqual(lAck, ack, "the ack after the state");
            assert.equal(local[0].type, "state");
            sStates = await serverStatesUntilTurn(c, await c.next("state"));
            lStates = local.filter((m) => m.type === "state");
        }
        assert.ok(compared > 20 && moves > 10, `${compared} states compared over ${moves} moves`);
        assert.ok(undos > 0, `an undo was compared (${undos})`);
        // the history and a replay of the finished table, too
        c.send({type: "history"});
        const [lh] = await loc.send({type: "history"});
        assert.deepEqual(lh, await c.next("history"));
        const half = Math.floor(sStates.at(-1).actions / 2);
        c.send({type: "replay", actions: half});
        const [lr] = await loc.send({type: "replay", actions: half});
        assert.deepEqual(comparable(lr), comparable(await c.next("replay")));
        c.close();
    });
}
