// engine.test.mjs -- the engine built as WebAssembly plays exactly as the
// native one, through the JS shim the page uses (web/engine/tafel.mjs).
//
//   TAFEL=build/tafel TAFEL_WASM=build/wasm/tafel.wasm node --test tests/wasm/engine.test.mjs
//
// 1. The bench games of `tafel bench` (the same games, seeds and random
//    decisions, src/cli/bench.c), played in node through the module, give
//    the native program's "Bench:" signature, which the test reads from
//    `tafel bench --runs 1` rather than from a number written here.
// 2. A seeded game of the `hard` bot (against greedy) equals, move for move,
//    the one `tafel sim --out` plays natively: same seeds, same bots (sim.c:
//    the chance rng from mix(S, 0), seat k's bot from mix(mix(S, 0), k + 1)).
//    hard searches 5,000 iterations under its own 2 s cap; a Cardcassonne
//    search takes some 0.25 s in wasm here and a tenth of that natively, so
//    the cap never cuts it and both sides search exactly alike (a machine so
//    slow that it did would play another game, and the test would say where).

import {test} from "node:test";
import assert from "node:assert/strict";
import {readFileSync, mkdtempSync, rmSync} from "node:fs";
import {execFile} from "node:child_process";
import {promisify} from "node:util";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {loadEngine, CHANCE, TERMINAL} from "../../web/engine/tafel.mjs";

const run = promisify(execFile);
const TAFEL = process.env.TAFEL ?? "build/tafel";
const WASM = process.env.TAFEL_WASM ?? "build/wasm/tafel.wasm";

const engine = await loadEngine(readFileSync(WASM));

// ---- FNV-1a 64 over 64-bit words (bench.c's fnv_add), in two 32-bit halves:
// exact in doubles, and some ten times faster than BigInt per action.
const FNV_OFFSET = [0x84222325, 0xcbf29ce4];   // lo, hi

/** @param {number[]} h [lo, hi], changed in place @param {number} lo @param {number} hi */
function fnvAdd(h, lo, hi) {
    const a = (h[0] ^ lo) >>> 0, b = (h[1] ^ hi) >>> 0;
    // (b:a) * (2^40 + 0x1b3) mod 2^64
    const low = a * 0x1b3;
    const carry = Math.floor(low / 0x100000000);
    h[0] = low >>> 0;
    h[1] = (b * 0x1b3 + carry + ((a << 8) >>> 0)) % 0x100000000;
}

/** @param {number[]} h @param {number} v a whole number, |v| < 2^53 */
function fnvAddNumber(h, v) {
    const big = BigInt.asUintN(64, BigInt(v));
    fnvAdd(h, Number(big & 0xffffffffn), Number(big >> 32n));
}

/** @param {number[]} h */
const hex = (h) => h[1].toString(16).padStart(8, "0") + h[0].toString(16).padStart(8, "0");

/** cli_mix (src/cli/util.c). @param {bigint} seed @param {bigint} i */
function mix(seed, i) {
    const rng = engine.rng(0n);
    rng.state = engine.rngSeed(seed) ^ BigInt.asUintN(64, i * 0xD1B54A32D192ED03n);
    const v = rng.next();
    rng.free();
    return v;
}

/** bench.c's bench_run: n random games of game, their signature. */
function benchRun(gameString, n) {
    const game = engine.game(gameString);
    const initial = game.newState(), state = game.newState();
    const rng = engine.rng(0n);
    const h = FNV_OFFSET.slice();
    let steps = 0;
    for (let i = 0; i < n; i++) {
        state.copyFrom(initial);
        rng.state = engine.rngSeed(mix(0xBE4C8n, BigInt(i)));
        let a;
        while ((a = state.playRandom(rng)) !== null) {
            fnvAdd(h, a >>> 0, a < 0 ? 0xffffffff : 0);
            steps++;
        }
        assert.equal(state.current(), TERMINAL);
        for (const s of state.scores()) fnvAddNumber(h, Math.round(s * 1000));
    }
    rng.free();
    state.free();
    initial.free();
    game.free();
    return {h, steps};
}

test("the bench games give the native Bench: signature", async () => {
    const native = await run(TAFEL, ["bench", "--runs", "1"], {maxBuffer: 1 << 20});
    const lines = native.stdout.trim().split("\n");
    const expected = /^Bench: ([0-9a-f]{16})$/.exec(lines[lines.length - 1])?.[1];
    assert.ok(expected, `no Bench: line in\n${native.stdout}`);
    /** @type {Map<string, {games: number, signature: string}>} */
    const perGame = new Map();
    for (const line of lines) {
        const m = /^(\S+)\s+(\d+) games x .*signature ([0-9a-f]{16})/.exec(line);
        if (m) perGame.set(m[1], {games: Number(m[2]), signature: m[3]});
    }
    assert.equal(perGame.size, 3, `three bench games in\n${native.stdout}`);
    const total = FNV_OFFSET.slice();
    for (const [gameString, {games, signature}] of perGame) {
        const t0 = performance.now();
        const {h, steps} = benchRun(gameString, games);
        const seconds = (performance.now() - t0) / 1000;
        console.log(`wasm ${gameString}: ${games} games, ${(seconds * 1e9 / steps).toFixed(1)} ns/step, ` +
                    `signature ${hex(h)}`);
        assert.equal(hex(h), signature, `${gameString}: the wasm engine played other games`);
        fnvAdd(total, h[0], h[1]);
    }
    assert.equal(hex(total), expected);
});

test("a seeded hard game is the native one, move for move", async () => {
    const gameString = "cardcassonne(players=2)";
    const specs = ["hard", "greedy"];
    const seed = 2026n;
    const dir = mkdtempSync(join(tmpdir(), "tafel-wasm-"));
    try {
        const out = join(dir, "game.jsonl");
        const native = run(TAFEL, ["sim", gameString, "--players", specs.join(","), "--games", "1",
                                   "--seed", String(seed), "--out", out]);
        const game = engine.game(gameString);
        const state = game.newState();
        const gameSeed = mix(seed, 0n);
        const chance = engine.rng(gameSeed);
        const bots = specs.map((spec, k) => game.bot(spec, mix(gameSeed, BigInt(k + 1))));
        const actions = [];
        const t0 = performance.now();
        let searches = 0;
        for (let seat; (seat = state.current()) !== TERMINAL;) {
            const a = seat === CHANCE ? state.sampleChance(chance) : bots[seat].choose(state);
            if (seat === 0) searches++;
            actions.push(state.toText(a));
            state.apply(a);
        }
        const seconds = (performance.now() - t0) / 1000;
        console.log(`wasm: a hard game of ${gameString}: ${actions.length} actions, ` +
                    `${searches} searches, ${(seconds * 1000 / searches).toFixed(0)} ms a search`);
        await native;
        const record = JSON.parse(readFileSync(out, "utf8").split("\n")[0]);
        assert.equal(record.actions.length, actions.length, "as many actions");
        for (let i = 0; i < actions.length; i++)
            assert.equal(actions[i], record.actions[i], `action ${i + 1}`);
        assert.deepEqual(state.scores(), record.scores);
        assert.deepEqual(state.winners(), record.winners);
        for (const b of bots) b.free();
        chance.free();
        state.free();
        game.free();
    } finally {
        rmSync(dir, {recursive: true, force: true});
    }
});

// 3. The level expert plays in the page's engine: the module is built from
//    the library's sources with the nets of nets/ embedded (build/
//    builtin_nets.c, cmake/wasm.cmake), so a Cardcassonne expert is made and
//    plays a whole game against random, every move legal; a game with no
//    net built in has no expert, in wasm as natively, and says so.
test("expert plays a whole Cardcassonne game in wasm, on its built-in net", () => {
    const game = engine.game("cardcassonne(players=2)");
    const state = game.newState();
    const rng = engine.rng(38n);
    const expert = game.bot("expert:iters=50", 5n);
    let moves = 0;
    const t0 = performance.now();
    for (let seat; (seat = state.current()) !== TERMINAL;) {
        if (seat !== 0) {
            state.playRandom(rng);
            continue;
        }
        const a = expert.choose(state);
        assert.ok(state.isLegal(a), `move ${moves + 1}: ${a} is not legal`);
        state.apply(a);
        moves++;
    }
    console.log(`wasm: expert played ${moves} moves in ` +
                `${((performance.now() - t0) / 1000).toFixed(1)} s`);
    assert.ok(moves > 5, `only ${moves} moves`);
    assert.equal(state.scores().length, 2);
    expert.free();
    rng.free();
    state.free();
    game.free();

    const five = engine.game("carcassonne(players=5)");
    assert.throws(() => five.bot("expert", 1n),
                  /no net is built in for carcassonne with 5 players/);
    five.free();
});
