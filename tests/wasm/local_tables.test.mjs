// local_tables.test.mjs -- the local tables (web/local/) against `tafel
// serve`: the same seeded game at a local table and at a server table sends
// the same `state` messages, field by field; the bots it offers play the
// games and counts of players the server's do (expert only where a net is
// built in); undo, records, reloading from the store and the hot seat's
// `pass`.
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

test("info: each bot with the games it plays, as GET /api/games lists them; expert too", async () => {
    const loc = localClient();
    const [info] = await loc.send({type: "info"});
    assert.equal(info.type, "info");
    const served = await (await fetch(new URL("/api/games", server.base))).json();
    const servedGames = new Map(served.bots.map((b) => [b.name, b.games]));
    const servedCounts = new Map(served.bots.map((b) => [b.name, b.players]));
    assert.deepEqual(info.bots.map((b) => b.name), ["random", "greedy", "easy", "medium", "hard", "expert"]);
    for (const b of info.bots) {
        assert.deepEqual(b.games, servedGames.get(b.name), b.name);
        // and the counts of players it plays each game with
        assert.deepEqual(b.players, servedCounts.get(b.name), b.name);
    }
    const expert = info.bots.find((b) => b.name === "expert");
    assert.ok(expert.games.includes("cardcassonne") && !expert.games.includes("carcassonne"), expert.games.join());
    assert.deepEqual(expert.players, {cardcassonne: [2]});
    assert.deepEqual(info.bots.find((b) => b.name === "hard").players.carcassonne, [2, 3, 4, 5]);
    // asked again, the same (found once), and a copy the caller may change
    engine.bots()[0].games.length = 0;
    engine.bots()[0].players.carcassonne.length = 0;
    const [again] = await loc.send({type: "info"});
    assert.deepEqual(again.bots, info.bots);
    // the device refuses expert where it has no net, as the server does
    const [refused] = await loc.send({type: "create", game: "carcassonne", seats: ["human", "expert"]});
    assert.equal(refused.type, "error");
    assert.match(refused.message, /seat 1: expert: no net is built in for carcassonne/);
    const [three] = await loc.send({type: "create", game: "cardcassonne(players=3)",
                                    seats: ["human", "expert", "easy"]});
    assert.equal(three.type, "error");
    assert.match(three.message, /seat 1: expert: no net is built in for cardcassonne with 3 players/);
});

/** A local table made and joined: the client, its id and the join's state. */
async function localTable(game, seats, seed, token) {
    const loc = localClient();
    const [created] = await loc.send({type: "create", game, seats, seed});
    assert.equal(created.type, "created", JSON.stringify(created));
    const answer = await loc.send({type: "join", table: created.table, ...(token ? {token} : {})});
    return {loc, id: created.table, state: answer.filter((m) => m.type === "state").at(-1), answer};
}

/** The local client's request: its answer messages; the latest state. */
async function act(loc, msg) {
    const out = await loc.send(msg);
    return {out, state: out.filter((m) => m.type === "state").at(-1), error: out.find((m) => m.type === "error")};
}

test("undo: never past a bot's move, never past an action that showed something hidden", async () => {
    // a bot moves first: its move is no person's to take back
    const {loc, state} = await localTable("carcassonne(players=2)", ["greedy", "human"], 5);
    assert.equal(state.to_move, 1, "the bot has played");
    assert.equal(state.undo, false);
    const {error} = await act(loc, {type: "undo", seq: state.seq});
    assert.equal(error?.code, "no_undo");
    assert.match(error.message, /another player's action/);

    // Catan: searching a stack shows its cards; a move that shows nothing may be undone
    const hot = await localTable("catan_cards", ["human", "human"], 21, "0");
    let s = hot.state, revealed = false, undone = false;
    const table = hot.loc.tables.loaded.get(hot.id);
    for (let i = 0; i < 400 && s.status === "playing" && !(revealed && undone); i++) {
        if (s.to_move !== s.seat) {
            ({state: s} = await act(hot.loc, {type: "join", table: hot.id, token: String(s.to_move)}));
            continue;
        }
        const shows = s.legal.find((t) => t.startsWith("search") && table.state.reveals(table.state.fromText(t)));
        const action = !revealed && shows ? shows : s.legal[0];
        const before = s;
        ({state: s} = await act(hot.loc, {type: "move", seq: s.seq, action}));
        const alone = s.last.length === 1 && s.to_move === before.seat;
        if (action === shows && alone) {
            revealed = true;
            assert.equal(s.undo, false, `${action} showed the seat cards`);
            const r = await act(hot.loc, {type: "undo", seq: s.seq});
            assert.equal(r.error?.code, "no_undo", action);
        } else if (alone && s.undo && !undone) {
            const r = await act(hot.loc, {type: "undo", seq: s.seq});
            assert.equal(r.out.find((m) => m.type === "ack")?.seq, s.seq + 1, `${action} is taken back`);
            assert.equal(r.state.actions, before.actions);
            assert.deepEqual(r.state.view, before.view);
            s = r.state;
            undone = true;
        }
    }
    assert.ok(revealed, "a search was played and not taken back");
    assert.ok(undone, "an action that showed nothing was taken back");
});

test("records: exported, replayed by tafel replay to the same result, imported; broken ones refused", async () => {
    const {loc, id} = await localTable("cardcassonne(players=2,dealer=1)", ["human", "greedy"], 31);
    let s = loc.states().at(-1);
    while (s.status === "playing") ({state: s} = await act(loc, {type: "move", seq: s.seq, action: s.legal[0]}));
    const [rec] = await loc.send({type: "export", table: id});
    assert.equal(rec.type, "record");
    assert.deepEqual(rec.record.players, ["human", "greedy"]);
    assert.equal(rec.record.seed, 31);
    assert.deepEqual(rec.record.scores, s.scores);
    assert.deepEqual(rec.record.winners, s.winners);
    const file = joinPath(tempDir("tafel-local-"), "local.json");
    writeFileSync(file, JSON.stringify(rec.record));
    const replayed = JSON.parse(execFileSync(TAFEL, ["replay", file, "--json"], {encoding: "utf8"}));
    assert.deepEqual(replayed.scores, s.scores);
    assert.deepEqual(replayed.winners, s.winners);
    assert.equal(replayed.terminal, true);
    // a result that is not the replay's is refused by tafel replay: the check bites
    writeFileSync(file, JSON.stringify({...rec.record, scores: s.scores.map((x) => x + 1)}));
    assert.throws(() => execFileSync(TAFEL, ["replay", file], {stdio: "pipe"}));

    const [imported] = await loc.send({type: "import", record: JSON.stringify(rec.record)});
    assert.equal(imported.type, "imported", JSON.stringify(imported));
    const {state: again} = await act(loc, {type: "join", table: imported.table});
    assert.equal(again.status, "over");
    assert.deepEqual(again.scores, s.scores);
    assert.deepEqual(again.winners, s.winners);
    assert.deepEqual(again.view, s.view);

    const bad = rec.record.actions.slice();
    bad[5] = "deal 0 ZZ";
    for (const [text, reason] of [["{not json", /^not JSON/],
                                  [JSON.stringify({...rec.record, actions: bad}), /^action 5: /],
                                  [JSON.stringify({...rec.record, game: "chess"}), /^game: .*chess/],
                                  [JSON.stringify({players: ["human"], actions: []}), /no "game"/],
                                  [JSON.stringify({game: "catan_cards", actions: [1]}), /"actions" must be an array of strings/],
                                  [JSON.stringify({game: "catan_cards", actions: [], seed: -1}), /"seed"/],
                                  [JSON.stringify({...rec.record, scores: s.scores.map((x) => x + 1)}),
                                   /^scores: the record gives seat 0 /]]) {
        const [e] = await loc.send({type: "import", record: text});
        assert.equal(e.type, "error", text.slice(0, 80));
        assert.equal(e.code, "bad_record");
        assert.match(e.message, reason);
    }
});

test("a table read back from the store plays on as it was", async () => {
    const store = memoryStore();
    const loc = localClient(store);
    const [created] = await loc.send({type: "create", game: "carcassonne(players=2)", seats: ["human", "random"], seed: 41});
    await loc.send({type: "join", table: created.table});
    let s = loc.states().at(-1);
    for (let i = 0; i < 12; i++) ({state: s} = await act(loc, {type: "move", seq: s.seq, action: s.legal[0]}));
    while (s.undo) ({state: s} = await act(loc, {type: "move", seq: s.seq, action: s.legal[0]}));
    const {state: here} = await act(loc, {type: "join", table: created.table});
    // read back into a store of its own (a shared one is two tabs of one game: below)
    const copy = memoryStore();
    await copy.put(await store.get(created.table));
    const other = localClient(copy);
    const {state: back} = await act(other, {type: "join", table: created.table});
    assert.deepEqual(back, here);
    const next = {type: "move", seq: s.seq, action: s.legal[0]};
    assert.deepEqual((await other.send(next)).map(comparable), (await loc.send(next)).map(comparable));
    // a stored table whose actions the engine refuses is not loaded, and stays as it was
    const saved = await store.get(created.table);
    await store.put({...saved, table: "00000000000000ff", actions: ["draw D", "draw D"]});
    const {error} = await act(localClient(store), {type: "join", table: "00000000000000ff"});
    assert.equal(error?.code, "bad_record");
    assert.match(error.message, /^action 1: /);
    assert.deepEqual((await store.get("00000000000000ff")).actions, ["draw D", "draw D"]);
});

test("two tabs of one game: the second plays on from what the first stored, nothing is lost", async () => {
    const store = memoryStore();
    const first = localClient(store);
    const [created] = await first.send({type: "create", game: "cardcassonne(players=2,dealer=1)",
                                        seats: ["human", "random"], seed: 61});
    let {state: a} = await act(first, {type: "join", table: created.table});
    const second = localClient(store);
    const {state: b} = await act(second, {type: "join", table: created.table});
    assert.deepEqual(b, a);
    ({state: a} = await act(first, {type: "move", seq: a.seq, action: a.legal[0]}));
    const stored = (await store.get(created.table)).actions.length;
    // the second tab still shows the old position: its move is stale, and it is sent the stored game
    const out = await second.send({type: "move", seq: b.seq, action: b.legal[b.legal.length - 1]});
    assert.deepEqual(out.map((m) => m.type), ["state", "error"]);
    assert.equal(out[1].code, "stale");
    assert.equal(out[0].seq, a.seq);
    assert.deepEqual(out[0].view, a.view);
    assert.equal((await store.get(created.table)).actions.length, stored, "the first tab's move is kept");
    // and it plays on from there
    const {state: c} = await act(second, {type: "move", seq: out[0].seq, action: out[0].legal[0]});
    assert.ok(c.seq > a.seq);
    assert.ok((await store.get(created.table)).actions.length > stored);
});

test("two people at one screen: pass to the other, and the screen between holds neither hand", async () => {
    const {loc, id, state: watch} = await localTable("cardcassonne(players=2,dealer=1)", ["human", "human"], 51);
    assert.equal(watch.seat, null, "two people: a join without token watches");
    let {state: s} = await act(loc, {type: "join", table: id, token: "0"});
    assert.equal(s.seat, 0);
    assert.ok(s.view.seats[0].hand.length > 0, "the seat sees its hand");
    let out;
    while (s.to_move === 0) ({out, state: s} = await act(loc, {type: "move", seq: s.seq, action: s.legal[0]}));
    assert.deepEqual(out.at(-1), {type: "pass", table: id, seat: 1}, "pass, after the state and the ack");
    assert.deepEqual(out.map((m) => m.type), ["state", "ack", "pass"]);
    const {state: between} = await act(loc, {type: "join", table: id});
    assert.equal(between.seat, null);
    assert.equal(between.legal, undefined);
    const spectator = loc.tables.loaded.get(id).state.viewJson(-1);
    assert.deepEqual(between.view, JSON.parse(spectator));
    for (const seat of between.view.seats) assert.equal(seat.hand, undefined, "no hand on the screen between");
    const {state: one} = await act(loc, {type: "join", table: id, token: "1"});
    assert.equal(one.seat, 1);
    assert.ok(one.legal.length > 0);
    assert.equal(one.view.seats[0].hand, undefined, "seat 1 does not see seat 0's hand");
    // with one person at the table, a join seats that person, and nobody is passed to
    const single = await localTable("cardcassonne(players=2,dealer=1)", ["human", "random"], 52);
    assert.equal(single.state.seat, 0);
    const after = await single.loc.send({type: "move", seq: single.state.seq, action: single.state.legal[0]});
    assert.ok(!after.some((m) => m.type === "pass"));
});
