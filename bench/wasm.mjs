#!/usr/bin/env node
// wasm.mjs -- the engine's speed as WebAssembly, beside the native program,
// on the same machine: the figures behind the browser's bot budgets.
//
//   node bench/wasm.mjs [--tafel build/tafel] [--wasm build/wasm/tafel.wasm]
//                       [--browser [--site build/site] [--throttle 4]] [--runs 3] [--json]
//
// For each game it prints, as medians over --runs:
// - mcts iterations a second from the position `tafel bench` searches from
//   (bench.c: 40% into a seeded random game; the same bot specs), native
//   (read from `tafel bench`) and wasm;
// - the `hard` bot's move time (5,000 iterations under its own 2 s cap; the
//   browser's tighter cap, web/local/budgets.mjs, lifted) over the
//   first 12 decisions of a seeded random game: median and slowest.
// Wasm runs in node, or with --browser in Debian's chromium (a page of the
// static site served on 127.0.0.1 loads the engine and searches there);
// --throttle N slows chromium's CPU N times (DevTools' CPU throttling: 4 is
// what Lighthouse takes for a mid-range phone) for a phone-class estimate.

import {readFileSync, existsSync} from "node:fs";
import {execFile} from "node:child_process";
import {promisify} from "node:util";
import {fileURLToPath} from "node:url";
import {dirname, join} from "node:path";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);

const argv = process.argv.slice(2);
/** @param {string} name @param {string} def */
const option = (name, def) => {
    const i = argv.indexOf(name);
    return i >= 0 && i + 1 < argv.length ? argv[i + 1] : def;
};
if (argv.includes("--help")) {
    console.log(readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1, 18)
        .map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
    process.exit(0);
}
const TAFEL = option("--tafel", join(ROOT, "build", "tafel"));
const WASM = option("--wasm", join(ROOT, "build", "wasm", "tafel.wasm"));
const SITE = option("--site", join(ROOT, "build", "site"));
const RUNS = Number(option("--runs", "3"));
const THROTTLE = Number(option("--throttle", "1"));
const JSON_OUT = argv.includes("--json");
const BROWSER = argv.includes("--browser");

const PLAN = {
    runs: RUNS,
    searches: [
        {game: "carcassonne(players=2)", bot: "mcts:policy=0,depth=-1,iters=20000", iters: 20000},
        {game: "cardcassonne(players=4)", bot: "mcts:iters=20000", iters: 20000},
        {game: "catan_cards", bot: "mcts:iters=20000", iters: 20000},
    ],
    hard: {spec: "hard", decisions: 12, seed: 11},
};

/**
 * The measurements, self-contained so that it runs in node and, as text, in
 * a page (page.evaluate).
 * @param {any} engine a loaded engine (web/engine/tafel.mjs)
 * @param {typeof PLAN} plan
 */
async function measure(engine, plan) {
    const SEED = 0x5EA4Cn, TERMINAL = -2;
    const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    /** bench.c's search_position */
    function searchPosition(game) {
        const whole = game.newState();
        let rng = engine.rng(SEED);
        while (whole.playRandom(rng) !== null);
        const length = whole.moveNumber();
        whole.free();
        rng.free();
        rng = engine.rng(SEED);
        const state = game.newState();
        const stop = Math.floor(length * 40 / 100);
        for (let i = 0; i < stop && state.current() !== TERMINAL; i++) state.playRandom(rng);
        while (state.current() !== TERMINAL && (state.current() < 0 || state.legal().length < 2))
            state.playRandom(rng);
        rng.free();
        return state;
    }
    const out = {searches: [], hard: []};
    for (const s of plan.searches) {
        const game = engine.game(s.game);
        const state = searchPosition(game);
        const rates = [];
        for (let r = 0; r < plan.runs; r++) {
            const bot = game.bot(s.bot, SEED);
            const t0 = performance.now();
            bot.analyse(state, 8);
            rates.push(s.iters / ((performance.now() - t0) / 1000));
            bot.free();
        }
        out.searches.push({game: s.game, bot: s.bot, rate: median(rates)});
        state.free();
        game.free();
    }
    for (const s of plan.searches) {
        const game = engine.game(s.game);
        const state = game.newState();
        const rng = engine.rng(BigInt(plan.hard.seed));
        const bot = game.bot(plan.hard.spec, 1n);
        bot.setTimeCap(0);   // no cap but hard's own: what the browser's cap is chosen against
        const times = [];
        while (times.length < plan.hard.decisions && state.current() !== TERMINAL) {
            if (state.current() >= 0 && state.legal().length > 1) {
                const t0 = performance.now();
                bot.choose(state);
                times.push(performance.now() - t0);
            }
            state.playRandom(rng);
        }
        out.hard.push({game: s.game, median_ms: median(times), max_ms: Math.max(...times)});
        bot.free();
        rng.free();
        state.free();
        game.free();
    }
    return out;
}

/** The native figures: `tafel bench`'s search lines. */
async function native() {
    const {stdout} = await run(TAFEL, ["bench", "--runs", String(RUNS)], {maxBuffer: 1 << 20});
    /** @type {Record<string, number>} */
    const rates = {};
    for (const line of stdout.split("\n")) {
        const m = /^(\S+)\s+\d+ iterations x \d+ runs\s+median\s+([\d.]+) iterations\/s/.exec(line);
        if (m) rates[m[1]] = Number(m[2]);
    }
    return rates;
}

async function inNode() {
    const {loadEngine} = await import("../web/engine/tafel.mjs");
    return measure(await loadEngine(readFileSync(WASM)), PLAN);
}

async function inBrowser() {
    if (!existsSync(join(SITE, "tafel.wasm"))) throw new Error(`no static site at ${SITE}`);
    const {serveStatic} = await import("../tests/web/static-server.mjs");
    const {chromium} = await import("playwright-core");
    const site = await serveStatic(SITE);
    const browser = await chromium.launch({executablePath: process.env.TAFEL_CHROMIUM || "/usr/bin/chromium",
                                           args: ["--no-sandbox"]});
    try {
        const page = await browser.newPage();
        await page.goto(site.url);
        if (THROTTLE > 1) {
            const cdp = await page.context().newCDPSession(page);
            await cdp.send("Emulation.setCPUThrottlingRate", {rate: THROTTLE});
        }
        return await page.evaluate(`(async () => {
            const {loadEngine} = await import(new URL("engine/tafel.mjs", location.href).href);
            const engine = await loadEngine(fetch(new URL("tafel.wasm", location.href)));
            return (${measure.toString()})(engine, ${JSON.stringify(PLAN)});
        })()`);
    } finally {
        await browser.close();
        await site.close();
    }
}

const [nativeRates, wasm] = [await native(), BROWSER ? await inBrowser() : await inNode()];
const where = BROWSER ? `chromium${THROTTLE > 1 ? ` (CPU ${THROTTLE}x slower)` : ""}` : "node";
const rows = wasm.searches.map((s) => ({
    game: s.game, native_rate: nativeRates[s.game] ?? null, wasm_rate: Math.round(s.rate),
    hard_median_ms: Math.round(wasm.hard.find((h) => h.game === s.game).median_ms),
    hard_max_ms: Math.round(wasm.hard.find((h) => h.game === s.game).max_ms),
}));
if (JSON_OUT) {
    console.log(JSON.stringify({where, throttle: THROTTLE, runs: RUNS, games: rows}));
} else {
    console.log(`wasm in ${where}, native from tafel bench; medians of ${RUNS} runs`);
    for (const r of rows) {
        const ratio = r.native_rate ? (r.native_rate / r.wasm_rate).toFixed(2) : "?";
        console.log(`${r.game.padEnd(26)} mcts ${String(r.native_rate ?? "?").padStart(9)} it/s native ` +
                    `${String(r.wasm_rate).padStart(9)} it/s wasm (${ratio}x)   ` +
                    `hard move ${r.hard_median_ms} ms median, ${r.hard_max_ms} ms slowest`);
    }
}
