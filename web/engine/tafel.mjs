// tafel.mjs -- the engine in WebAssembly (build/wasm/tafel.wasm, built by
// cmake/wasm.cmake from the same C sources as the program), called from JS.
//
// A thin shim over include/tafel.h and nothing else: the rules, the bots and
// every word of an account stay in the engine.  It runs in a page, a Web
// Worker and node alike (no DOM, no node APIs): the caller hands it the
// module's bytes or a Response.  The module is a WASI "reactor" that needs
// only a clock (the bots' time budgets) and a way to print (the engine never
// prints in normal use; what it would say goes to console.error).
//
// Memory: the engine's objects (games, states, bots) live in the module's
// heap and are freed by free() here; strings go in and out through malloc'd
// UTF-8.  A state is plain memory, as in C: clone() copies it.  A call that
// fails throws an EngineError with the engine's own message and status.

const ERROR_SIZE = 4 + 256;            // sizeof(tafel_error)
const ACTION_TEXT_MAX = 64;            // TAFEL_ACTION_TEXT_MAX
const MAX_PLAYERS = 5;                 // TAFEL_MAX_PLAYERS
const BOT_MOVE_SIZE = 24;              // sizeof(tafel_bot_move) on wasm32: i32, pad, f64, f64
const ESTATE = 10;                     // TAFEL_ESTATE
export const CHANCE = -1;
export const TERMINAL = -2;
/** The status codes of tafel.h, in order (tafel_status). */
export const STATUS = ["OK", "EINVAL", "EGAME", "EPARAM", "EILLEGAL", "EPARSE", "ERECORD",
                       "EBOT", "ENOMEM", "EIO", "ESTATE"];

/** An engine call that failed: `status` is the tafel_status name ("EILLEGAL"). */
export class EngineError extends Error {
    /** @param {number} code @param {string} message */
    constructor(code, message) {
        super(message);
        this.name = "EngineError";
        this.code = code;
        this.status = STATUS[code] ?? String(code);
    }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The WASI imports the module asks for: clock_time_get and fd_write do
 * work, fd_prestat_get says there are no folders; the others are never
 * reached in use and say "not supported".
 * @param {() => WebAssembly.Memory} memory
 */
function wasiImports(memory) {
    const ENOSYS = 52, EBADF = 8;
    let pending = "";
    return new Proxy({
        /** @param {number} id @param {bigint} _precision @param {number} out */
        clock_time_get(id, _precision, out) {
            const ns = id === 0 ? BigInt(Date.now()) * 1000000n
                : BigInt(Math.round(performance.now() * 1e6));
            new DataView(memory().buffer).setBigUint64(out, ns, true);
            return 0;
        },
        /** @param {number} _fd @param {number} iovs @param {number} count @param {number} written */
        fd_write(_fd, iovs, count, written) {
            const view = new DataView(memory().buffer);
            let n = 0;
            for (let i = 0; i < count; i++) {
                const ptr = view.getUint32(iovs + 8 * i, true);
                const len = view.getUint32(iovs + 8 * i + 4, true);
                pending += decoder.decode(new Uint8Array(memory().buffer, ptr, len));
                n += len;
            }
            const lines = pending.split("\n");
            pending = lines.pop() ?? "";
            for (const line of lines) console.error(`tafel: ${line}`);
            view.setUint32(written, n, true);
            return 0;
        },
        // No preopened folders: wasi-libc asks for them at start since the
        // module has file reading (tafel_net_read), and stops at EBADF;
        // any other answer (ENOSYS) makes it exit with 71.
        fd_prestat_get() { return EBADF; },
        fd_close() { return 0; },
        fd_seek() { return ENOSYS; },
        fd_fdstat_get() { return ENOSYS; },
        /** @param {number} code */
        proc_exit(code) { throw new Error(`tafel: the engine exited (${code})`); },
    }, {
        get(target, name) {
            return name in target ? target[/** @type {keyof typeof target} */ (name)] : () => ENOSYS;
        },
    });
}

/**
 * Loads the module.
 * @param {BufferSource | Response | Promise<Response>} source its bytes, or a fetch of it
 * @returns {Promise<Engine>}
 */
export async function loadEngine(source) {
    /** @type {WebAssembly.Memory | null} */
    let memory = null;
    const imports = {wasi_snapshot_preview1: wasiImports(() => /** @type {WebAssembly.Memory} */ (memory))};
    const resolved = await source;
    let instance;
    if (resolved instanceof Response) {
        if (!resolved.ok) throw new Error(`tafel: the engine's module: HTTP ${resolved.status}`);
        const bytes = await resolved.arrayBuffer();
        instance = (await WebAssembly.instantiate(bytes, imports)).instance;
    } else {
        instance = (await WebAssembly.instantiate(resolved, imports)).instance;
    }
    const exports = /** @type {any} */ (instance.exports);
    memory = exports.memory;
    exports._initialize?.();
    return new Engine(exports);
}

/** The module's exports, with helpers for memory. */
export class Engine {
    /** @param {any} x the instance's exports */
    constructor(x) {
        this.x = x;
        /** @type {{buffer: ArrayBuffer, u8: Uint8Array, dv: DataView} | undefined} */
        this.heap = undefined;
        // scratch the calls share (one call at a time: JS is single-threaded)
        this.err = this.alloc(ERROR_SIZE);
        this.text = this.alloc(ACTION_TEXT_MAX);
        this.ptrOut = this.alloc(8);
        this.doubles = this.alloc(8 * 16);
        this.ints = this.alloc(4 * 16);
        this.names = this.alloc(4 * 16);
        /** @type {Map<number, {ptr: number, cap: number}>} an action list per size */
        this.lists = new Map();
        /** @type {{name: string, summary: string, games: string[], players: Record<string, number[]>}[] | null} bots(), once found */
        this.botList = null;
    }

    /** @param {number} size */
    alloc(size) {
        const p = this.x.malloc(size);
        if (!p) throw new EngineError(8, "out of memory");
        return p;
    }

    /** @param {number} p */
    free(p) { if (p) this.x.free(p); }

    // Views of the heap, made again only when it grew (a new buffer): every
    // step of a playout reads through them, and a view per read cost more
    // than the step itself in Cardcassonne.
    get u8() { return this.views().u8; }
    get dv() { return this.views().dv; }

    views() {
        const buffer = this.x.memory.buffer;
        const heap = this.heap;
        if (heap && heap.buffer === buffer) return heap;
        return (this.heap = {buffer, u8: new Uint8Array(buffer), dv: new DataView(buffer)});
    }

    /** A zero-terminated UTF-8 copy of text in the heap: the caller frees it. @param {string} text */
    cstring(text) {
        const bytes = encoder.encode(text);
        const p = this.alloc(bytes.length + 1);
        const u8 = this.u8;
        u8.set(bytes, p);
        u8[p + bytes.length] = 0;
        return p;
    }

    /** @param {number} p a zero-terminated UTF-8 string in the heap */
    read(p) {
        if (!p) return "";
        const u8 = this.u8;
        let end = p;
        while (u8[end]) end++;
        return decoder.decode(u8.subarray(p, end));
    }

    /** Reads a malloc'd string the engine returned and frees it. @param {number} p */
    take(p) {
        if (!p) throw new EngineError(8, "out of memory");
        const s = this.read(p);
        this.free(p);
        return s;
    }

    /** Throws the engine's error when rc is not TAFEL_OK. @param {number} rc */
    check(rc) {
        if (rc === 0) return;
        const code = this.dv.getInt32(this.err, true);
        const message = this.read(this.err + 4) || this.read(this.x.tafel_status_string(rc));
        throw new EngineError(code || rc, message);
    }

    /** A scratch list of cap actions, kept for reuse. @param {number} cap */
    list(cap) {
        let l = this.lists.get(cap);
        if (!l) {
            l = {ptr: this.alloc(4 * Math.max(cap, 1)), cap};
            this.lists.set(cap, l);
        }
        return l.ptr;
    }

    /** @returns {{name: string, summary: string, params: string[]}[]} the registry of games */
    games() {
        const out = [];
        const help = this.alloc(4096);
        for (let i = 0; ; i++) {
            const name = this.x.tafel_game_info(i, this.ptrOut, help, 4096);
            if (!name) break;
            out.push({
                name: this.read(name),
                summary: this.read(this.dv.getUint32(this.ptrOut, true)),
                params: this.read(help).split("\n").filter((l) => l.length > 0),
            });
        }
        this.free(help);
        return out;
    }

    /**
     * The registry of bots, each with the games it can be made for, each game
     * as it comes by default (`expert`: those with a net built in), and the
     * counts of players it can be made for in each game it plays
     * (`players`: {"cardcassonne": [2]}, the counts tried those of the
     * game's "players=MIN..MAX" line), as GET /api/games lists them.
     * Finding that makes every bot for every game and count (expert loads
     * its net), so it is found once per engine.
     * @returns {{name: string, summary: string, games: string[], players: Record<string, number[]>}[]}
     */
    bots() {
        if (!this.botList) {
            /** @type {{name: string, summary: string, games: string[], players: Record<string, number[]>}[]} */
            const out = [];
            for (let i = 0; ; i++) {
                const name = this.x.tafel_bot_info(i, this.ptrOut);
                if (!name) break;
                out.push({name: this.read(name), summary: this.read(this.dv.getUint32(this.ptrOut, true)),
                          games: [], players: {}});
            }
            for (const {name, params} of this.games()) {
                const range = params.map((l) => /^players=(\d+)\.\.(\d+)\s/.exec(l)).find((m) => m);
                let def = 0;
                try {
                    const game = this.game(name);
                    def = game.players;
                    game.free();
                } catch (err) {
                    if (!(err instanceof EngineError)) throw err;
                    continue;
                }
                const min = range ? Math.max(1, Number(range[1])) : def;
                const max = range ? Math.min(MAX_PLAYERS, Number(range[2])) : def;
                for (let k = min; k <= max; k++) {
                    let game;
                    try {
                        game = this.game(range ? `${name}(players=${k})` : name);
                    } catch (err) {
                        if (!(err instanceof EngineError)) throw err;
                        continue;
                    }
                    try {
                        for (const b of out) {
                            try {
                                game.bot(b.name, 1n).free();
                                (b.players[name] ??= []).push(k);
                                if (k === def) b.games.push(name);
                            } catch (err) {
                                if (!(err instanceof EngineError)) throw err;
                            }
                        }
                    } finally {
                        game.free();
                    }
                }
            }
            this.botList = out;
        }
        return this.botList.map((b) => ({...b, games: [...b.games],
            players: Object.fromEntries(Object.entries(b.players).map(([g, ks]) => [g, [...ks]]))}));
    }

    /** @param {string} gameString @returns {Game} */
    game(gameString) {
        const s = this.cstring(gameString);
        try {
            this.check(this.x.tafel_game_load(s, this.ptrOut, this.err));
        } finally {
            this.free(s);
        }
        return new Game(this, this.dv.getUint32(this.ptrOut, true));
    }

    /** A random number generator (tafel_rng_seed) in the heap. @param {bigint} seed */
    rng(seed) {
        return new Rng(this, seed);
    }

    /** tafel_rng_seed: a good state from any seed. @param {bigint} seed */
    rngSeed(seed) {
        return BigInt.asUintN(64, this.x.tafel_rng_seed(BigInt.asUintN(64, seed)));
    }
}

/** tafel_rng_*: 64 bits of state in the heap, so that the engine draws from it. */
export class Rng {
    /** @param {Engine} e @param {bigint} seed */
    constructor(e, seed) {
        this.e = e;
        this.ptr = e.alloc(8);
        this.state = e.rngSeed(seed);
    }

    get state() { return this.e.dv.getBigUint64(this.ptr, true); }
    set state(v) { this.e.dv.setBigUint64(this.ptr, BigInt.asUintN(64, v), true); }

    /** 64 random bits. */
    next() { return BigInt.asUintN(64, this.e.x.tafel_rng_next(this.ptr)); }

    /** 0..n-1 @param {number} n */
    below(n) { return this.e.x.tafel_rng_below(this.ptr, n) >>> 0; }

    free() { this.e.free(this.ptr); this.ptr = 0; }
}

/** A loaded game (tafel_game). */
export class Game {
    /** @param {Engine} e @param {number} ptr */
    constructor(e, ptr) {
        this.e = e;
        this.ptr = ptr;
        const x = e.x;
        this.name = e.read(x.tafel_game_name(ptr));
        this.string = e.read(x.tafel_game_string(ptr));
        this.players = x.tafel_game_players(ptr);
        this.maxActions = x.tafel_game_max_actions(ptr);
        this.hidden = x.tafel_game_hidden_information(ptr) !== 0;
    }

    /** tafel_game_pieces_json, parsed. @returns {object} */
    pieces() { return JSON.parse(this.e.take(this.e.x.tafel_game_pieces_json(this.ptr))); }

    /** The first position. */
    newState() {
        const p = this.e.x.tafel_state_new(this.ptr);
        if (!p) throw new EngineError(8, "out of memory");
        return new State(this, p);
    }

    /**
     * A bot of spec (tafel_bot_new), its random choices from seed.
     * @param {string} spec @param {bigint} seed
     */
    bot(spec, seed) {
        const e = this.e;
        const s = e.cstring(spec);
        try {
            e.check(e.x.tafel_bot_new(s, this.ptr, BigInt.asUintN(64, seed), e.ptrOut, e.err));
        } finally {
            e.free(s);
        }
        return new Bot(this, e.dv.getUint32(e.ptrOut, true));
    }

    free() { this.e.x.tafel_game_free(this.ptr); this.ptr = 0; }
}

/** A position (tafel_state). */
export class State {
    /** @param {Game} game @param {number} ptr */
    constructor(game, ptr) {
        this.game = game;
        this.e = game.e;
        this.ptr = ptr;
    }

    clone() {
        const p = this.e.x.tafel_state_clone(this.ptr);
        if (!p) throw new EngineError(8, "out of memory");
        return new State(this.game, p);
    }

    /** Becomes a copy of other (same game). @param {State} other */
    copyFrom(other) { this.e.x.tafel_state_copy(this.ptr, other.ptr); }

    free() { this.e.x.tafel_state_free(this.ptr); this.ptr = 0; }

    /** A seat, CHANCE or TERMINAL. */
    current() { return this.e.x.tafel_state_current(this.ptr); }
    moveNumber() { return this.e.x.tafel_state_move_number(this.ptr); }
    players() { return this.e.x.tafel_state_players(this.ptr); }

    /** The legal actions (chance outcomes at a chance node), ascending. @returns {number[]} */
    legal() {
        const e = this.e, cap = this.game.maxActions;
        const list = e.list(cap);
        const n = Math.min(e.x.tafel_state_legal_actions(this.ptr, list, cap), cap);
        return Array.from(new Int32Array(e.x.memory.buffer, list, n));
    }

    /** @param {number} a */
    isLegal(a) { return this.e.x.tafel_state_is_legal(this.ptr, a) !== 0; }

    /** The canonical text of a legal action. @param {number} a */
    toText(a) {
        const e = this.e;
        if (e.x.tafel_action_to_text(this.ptr, a, e.text, ACTION_TEXT_MAX) < 0)
            throw new EngineError(1, `no action ${a} here`);
        return e.read(e.text);
    }

    /** The action's text as seat sees it (-1: a spectator). @param {number} a @param {number} seat */
    viewText(a, seat) {
        const e = this.e;
        if (e.x.tafel_action_view_text(this.ptr, seat, a, e.text, ACTION_TEXT_MAX) < 0)
            throw new EngineError(1, `no action ${a} for seat ${seat} here`);
        return e.read(e.text);
    }

    /** The action of a text (any spelling the notation allows); throws EPARSE or EILLEGAL. @param {string} text */
    fromText(text) {
        const e = this.e;
        const s = e.cstring(text);
        try {
            e.check(e.x.tafel_action_from_text(this.ptr, s, e.ints, e.err));
        } finally {
            e.free(s);
        }
        return e.dv.getInt32(e.ints, true);
    }

    /** @param {number} a */
    apply(a) { this.e.check(this.e.x.tafel_state_apply(this.ptr, a, this.e.err)); }

    /** @param {string} text */
    applyText(text) { this.apply(this.fromText(text)); }

    /** A chance outcome drawn from rng (a chance node only). @param {Rng} rng */
    sampleChance(rng) {
        const e = this.e;
        const rc = e.x.tafel_state_sample_chance(this.ptr, rng.ptr, e.ints);
        if (rc) throw new EngineError(rc, "not a chance node");
        return e.dv.getInt32(e.ints, true);
    }

    /**
     * One random step (tafel_state_play_random); the action played, or null at the end.
     * @param {Rng} rng
     */
    playRandom(rng) {
        const e = this.e, cap = this.game.maxActions;
        const rc = e.x.tafel_state_play_random(this.ptr, rng.ptr, e.list(cap), cap, e.ints);
        if (rc === ESTATE) return null;   // the game is over
        if (rc) throw new EngineError(rc, `random step: ${e.read(e.x.tafel_status_string(rc))}`);
        return e.dv.getInt32(e.ints, true);
    }

    /** @returns {number[]} by seat */
    scores() {
        const e = this.e, n = this.players();
        e.x.tafel_state_scores(this.ptr, e.doubles);
        return Array.from(new Float64Array(e.x.memory.buffer, e.doubles, n));
    }

    /** The winning seats at the end ([] before). @returns {number[]} */
    winners() {
        const e = this.e;
        const n = e.x.tafel_state_winners(this.ptr, e.ints);
        return Array.from(new Int32Array(e.x.memory.buffer, e.ints, n));
    }

    /** One seat's points by category. @param {number} seat @returns {Record<string, number>} */
    breakdown(seat) {
        const e = this.e;
        const n = Math.min(e.x.tafel_state_score_breakdown(this.ptr, seat, e.names, e.doubles, 16), 16);
        /** @type {Record<string, number>} */
        const out = {};
        const dv = e.dv;
        for (let i = 0; i < n; i++)
            out[e.read(dv.getUint32(e.names + 4 * i, true))] = dv.getFloat64(e.doubles + 8 * i, true);
        return out;
    }

    /** What seat may see (-1: a spectator), as the JSON text of tafel_state_view_json. @param {number} seat */
    viewJson(seat) { return this.e.take(this.e.x.tafel_state_view_json(this.ptr, seat)); }

    /**
     * The account of action a, about to be played, as seat sees it: the JSON
     * text of tafel_state_describe (an array of events).
     * @param {number} a @param {number} seat
     */
    describe(a, seat) {
        const e = this.e;
        e.check(e.x.tafel_state_describe(this.ptr, a, seat, e.ptrOut, e.err));
        return e.take(e.dv.getUint32(e.ptrOut, true));
    }

    /** Whether a shows its seat something hidden (no undo past it). @param {number} a */
    reveals(a) { return this.e.x.tafel_state_action_reveals(this.ptr, a) !== 0; }

    /** tafel_state_render: the terminal's text picture. @param {number} seat */
    render(seat) { return this.e.take(this.e.x.tafel_state_render(this.ptr, seat, 0)); }
}

/** A bot (tafel_bot). */
export class Bot {
    /** @param {Game} game @param {number} ptr */
    constructor(game, ptr) {
        this.game = game;
        this.e = game.e;
        this.ptr = ptr;
    }

    /** The action it chooses for the seat to move. @param {State} state */
    choose(state) {
        const e = this.e;
        e.check(e.x.tafel_bot_choose(this.ptr, state.ptr, e.ints, e.err));
        return e.dv.getInt32(e.ints, true);
    }

    /**
     * Its best moves, best first (tafel_bot_analyse).
     * @param {State} state @param {number} cap
     * @returns {{action: number, share: number, winrate: number | null}[]}
     */
    analyse(state, cap) {
        const e = this.e;
        const out = e.alloc(BOT_MOVE_SIZE * cap);
        try {
            e.check(e.x.tafel_bot_analyse(this.ptr, state.ptr, out, cap, e.ints, e.err));
            const n = e.dv.getInt32(e.ints, true);
            const dv = e.dv;
            const moves = [];
            for (let i = 0; i < n; i++) {
                const at = out + BOT_MOVE_SIZE * i;
                const winrate = dv.getFloat64(at + 16, true);
                moves.push({action: dv.getInt32(at, true), share: dv.getFloat64(at + 8, true),
                            winrate: winrate < 0 ? null : winrate});
            }
            return moves;
        } finally {
            e.free(out);
        }
    }

    /** Caps each later choice at ms milliseconds (0: no cap). @param {number} ms */
    setTimeCap(ms) { this.e.check(this.e.x.tafel_bot_set_time_cap(this.ptr, ms, this.e.err)); }

    free() { this.e.x.tafel_bot_free(this.ptr); this.ptr = 0; }
}

export {MAX_PLAYERS};
