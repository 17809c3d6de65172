// tables.mjs -- the local tables: the part of `tafel serve` that a page
// needs, in JS over the engine in WebAssembly (docs/local.md).
//
// One client (the page, through a Web Worker) sits at one table at a time,
// like one socket.  Its messages are those of docs/protocol.md, answered
// with the same messages (created, state, ack, error, hint, history,
// replay), plus the local ones: list, delete, export, import, info.  After
// a change the bots to move play one by one, each change its own `state`;
// then, at a table of several people at one screen, `pass` names the person
// to move when that is not the seat joined.  Every change is saved through
// the store before it is told; a table not in memory is read back from the
// store by replaying its actions.

import {botTimeCap, HINT_TIME_CAP_MS, LOCAL_LEVELS} from "./budgets.mjs";
import {hintMessage, historyMessage, replayMessage, stateMessage} from "./messages.mjs";
import {readRecord, toRecord} from "./record.mjs";
import {BOT_SALT, HINT_SALT, LocalTable, mix, TableError} from "./table.mjs";

/** @typedef {import("../engine/tafel.mjs").Engine} Engine */
/** @typedef {import("./store.mjs").Store} Store */
/** @typedef {import("./record.mjs").SavedSeat} SavedSeat */
/** @typedef {Record<string, unknown>} Message */

const KEEP_IN_MEMORY = 4;     // tables kept loaded besides the one joined
const SEED_MAX = 2 ** 53;

/** 16 hex digits, as the server's table ids. */
export function newTableId() {
    const bytes = new Uint8Array(8);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A random seed of 53 bits. */
function randomSeed() {
    const words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return (BigInt(words[0] & 0x1fffff) << 32n) | BigInt(words[1]);
}

/** @param {unknown} err */
function words(err) {
    return err instanceof Error ? err.message : String(err);
}

/** A whole number 0..2^53, undefined when absent, null when wrong. @param {unknown} v */
function wholeNumber(v) {
    if (v === undefined) return undefined;
    return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= SEED_MAX ? v : null;
}

/**
 * Why the result a record carries is not its replay's, or null.
 * @param {import("./record.mjs").ReadRecord} r @param {LocalTable} t
 */
function resultDiffers(r, t) {
    if (!r.scores || !r.winners) return null;
    const scores = t.state.scores();
    if (r.scores.length !== scores.length)
        return `scores: the record gives ${r.scores.length} seats, the game has ${scores.length}`;
    const seat = scores.findIndex((s, i) => s !== r.scores?.[i]);
    if (seat >= 0) return `scores: the record gives seat ${seat} ${r.scores[seat]}, its replay ${scores[seat]}`;
    const winners = t.winners();
    if (winners.length !== r.winners.length || winners.some((w) => !r.winners?.includes(w)))
        return `winners: the record names seats [${r.winners.join(", ")}], its replay [${winners.join(", ")}]`;
    return null;
}

export class LocalTables {
    /**
     * @param {Engine} engine
     * @param {Store} store
     * @param {(m: Message) => void} emit
     * @param {{now?: () => number}} [options]
     */
    constructor(engine, store, emit, options = {}) {
        this.engine = engine;
        this.store = store;
        this.emit = emit;
        this.options = options;
        /** @type {Map<string, LocalTable>} loaded tables, the latest used last */
        this.loaded = new Map();
        /** The one client: its table, seat (-1 a spectator) and the actions it was told. */
        /** @type {{table: LocalTable | null, seat: number, told: number}} */
        this.socket = {table: null, seat: -1, told: -1};
    }

    /** @param {string} code @param {string} message @param {Message} [asked] */
    error(code, message, asked) {
        this.emit({type: "error", code, message, ...(asked?.id !== undefined ? {id: asked.id} : {})});
    }

    /**
     * One client message, answered through emit; resolves when every answer
     * (and every bot's move that follows) was emitted.
     * @param {unknown} message
     */
    async handle(message) {
        if (typeof message !== "object" || message === null || Array.isArray(message)) {
            this.error("malformed", "a message is a JSON object");
            return;
        }
        const m = /** @type {Message} */ (message);
        try {
            switch (m.type) {
            case "create": return await this.create(m);
            case "join": return await this.join(m);
            case "move": case "undo": case "resign": case "hand_over": return await this.change(m);
            case "hint": return this.hint();
            case "history": return this.history();
            case "replay": return this.replay(m);
            case "ping": return this.emit({type: "pong"});
            case "list": return await this.list(m);
            case "delete": return await this.remove(m);
            case "export": return await this.exportRecord(m);
            case "import": return await this.importRecord(m);
            case "info": return this.info(m);
            case undefined: return this.error("malformed", "a message needs \"type\"");
            default:
                return this.error("malformed", `unknown type '${String(m.type).slice(0, 40)}' (create, join, `
                    + "move, undo, resign, hand_over, history, hint, replay, ping, list, delete, export, "
                    + "import, info)", m);
            }
        } catch (err) {
            if (err instanceof TableError) this.error(err.code, err.message, m);
            else this.error("storage", `the local table failed: ${words(err)}`, m);
        }
    }

    // ---- tables in memory and in the store ---------------------------------

    /** @param {LocalTable} t */
    remember(t) {
        this.loaded.delete(t.id);
        this.loaded.set(t.id, t);
        for (const [id, old] of this.loaded) {
            if (this.loaded.size <= KEEP_IN_MEMORY + 1) break;
            if (old === this.socket.table || old === t) continue;
            this.loaded.delete(id);
            old.free();
        }
    }

    /** The table of id, from memory or the store; null when there is none. @param {string} id */
    async find(id) {
        const t = this.loaded.get(id);
        if (t) return t;
        const saved = await this.store.get(id);
        if (!saved) return null;
        const loaded = LocalTable.fromSaved(this.engine, saved);
        this.remember(loaded);
        return loaded;
    }

    /**
     * The table as stored now: another tab of this browser (its own worker)
     * may have played on since this one read it.  Then this worker takes the
     * stored game, and the client is sent it; the request that came with the
     * old seq is refused as stale, as the server would.  Without this, two
     * tabs of one game would each save their own and lose the other's moves.
     * @param {LocalTable} t
     */
    async fresh(t) {
        let saved;
        try {
            saved = await this.store.get(t.id);
        } catch {
            return t;   // the store failed: the game goes on in memory
        }
        if (!saved || saved.seq === t.seq) return t;
        let now;
        try {
            now = LocalTable.fromSaved(this.engine, saved);
        } catch {
            return t;   // what is stored cannot be read back: keep playing what we have
        }
        t.free();
        this.loaded.delete(t.id);
        this.remember(now);
        this.socket.table = now;
        this.socket.told = -1;
        this.broadcast(now);
        this.socket.told = now.texts.length;
        return now;
    }

    /** @param {LocalTable} t */
    async save(t) {
        try {
            await this.store.put(t.saved());
        } catch (err) { // the game goes on in memory; the page can still export it
            console.error(`tafel: local table ${t.id} not saved: ${words(err)}`);
        }
    }

    /** The state to the client, when it sits at t. @param {LocalTable} t */
    broadcast(t) {
        const s = this.socket;
        if (s.table !== t) return;
        const from = s.told < 0 || s.told > t.texts.length ? t.texts.length
            : Math.max(s.told, t.texts.length - t.last.length);
        this.emit(stateMessage(t, s.seat, from));
        s.told = t.texts.length;
    }

    /**
     * The bots to move at t play, one change each, while the client sits
     * there; then `pass` when a person other than the one seated is to move.
     * @param {LocalTable} t
     * @param {boolean} [changed] whether the table just changed (not after a join alone)
     */
    async advance(t, changed = true) {
        let seat;
        while (this.socket.table === t && (seat = t.botToMove()) >= 0) {
            const spec = t.seats[seat].spec;
            let action;
            const bot = t.game.bot(spec, mix(t.seed ^ BOT_SALT, BigInt(t.texts.length)));
            try {
                bot.setTimeCap(botTimeCap(spec));
                action = bot.choose(t.state);
            } catch (err) { // as the server: the first legal action
                console.error(`tafel: bot ${spec} failed (${words(err)}); it plays the first legal action`);
                action = t.state.legal()[0];
            } finally {
                bot.free();
            }
            t.move(seat, t.seq, t.state.toText(action));
            await this.save(t);
            this.broadcast(t);
            changed = true;
        }
        // after a join alone, no pass: the page that joined as a spectator
        // on a pass would be told to pass again, for ever
        if (changed) this.passIfNeeded(t);
    }

    /** @param {LocalTable} t */
    passIfNeeded(t) {
        const s = this.socket;
        const seat = t.current();
        if (s.table !== t || t.over || seat < 0 || t.isBot(seat) || seat === s.seat) return;
        if (t.humanSeats().length < 2) return;
        this.emit({type: "pass", table: t.id, seat});
    }

    // ---- the server's messages --------------------------------------------

    /** @param {Message} m */
    async create(m) {
        const seed = wholeNumber(m.seed);
        if (typeof m.game !== "string" || !Array.isArray(m.seats) || seed === null) {
            this.error("malformed", "create needs \"game\" (a game string), \"seats\" (an array of "
                + "\"human\" or bot specs) and optionally \"seed\" (a whole number 0..2^53)", m);
            return;
        }
        const specs = m.seats;
        for (let i = 0; i < specs.length; i++)
            if (typeof specs[i] !== "string") return this.error("malformed", `seat ${i} is not a string`, m);
        if (specs.length < 1 || specs.length > 5)
            return this.error("bad_game", `"seats" must list 1 to 5 seats, not ${specs.length}`, m);
        const id = newTableId();
        const now = Math.floor(Date.now() / 1000);
        /** @type {SavedSeat[]} */
        const seats = specs.map((spec) => ({spec, human: spec === "human", resigned: false}));
        let t;
        try {
            t = new LocalTable(this.engine, {id, game: m.game, seed: seed === undefined ? randomSeed() : BigInt(seed),
                                             seedChosen: seed !== undefined, seats, created: now});
        } catch (err) {
            return this.error("bad_game", `game '${m.game.slice(0, 40)}': ${words(err)}`, m);
        }
        try {
            if (specs.length !== t.players)
                throw new TableError("bad_game", `${m.game} has ${t.players} seats, not ${specs.length}`);
            seats.forEach((s, i) => {
                if (s.human) return;
                try {
                    t?.checkBot(s.spec);
                } catch (err) {
                    throw new TableError("bad_game", `seat ${i}: ${words(err)}`);
                }
            });
            if (t.current() === -1) t.play(-1, null); // the opening deal: the first change
        } catch (err) {
            t.free();
            if (err instanceof TableError) return this.error(err.code, `game '${m.game.slice(0, 40)}': ${err.message}`, m);
            throw err;
        }
        this.remember(t);
        await this.save(t);
        this.emit({type: "created", table: id, tokens: seats.map((s, i) => (s.human ? String(i) : null)),
                   watch: `/t/${id}`, ...(m.id !== undefined ? {id: m.id} : {})});
    }

    /** @param {Message} m */
    async join(m) {
        const token = m.token === null ? undefined : m.token;
        if (typeof m.table !== "string" || (token !== undefined && typeof token !== "string")) {
            this.error("malformed", "join needs \"table\" (an id) and optionally \"token\" (a seat's secret)");
            return;
        }
        const t = await this.find(m.table);
        if (!t) return this.error("no_table", `there is no table '${m.table.slice(0, 40)}'`);
        const humans = t.humanSeats();
        let seat = -1;
        if (token !== undefined) {
            seat = /^[0-9]$/.test(token) ? Number(token) : -1;
            if (!humans.includes(seat)) return this.error("token", `that token is no seat's at table ${t.id}`);
        } else if (humans.length === 1) {
            seat = humans[0];   // one person at the table: the page is that person
        }
        if (seat >= 0 && t.isBot(seat)) seat = -1; // resigned: watches
        const s = this.socket;
        this.socket = {table: t, seat, told: -1};
        this.remember(t);
        if (s.table === t && s.seat === seat) this.emit(stateMessage(t, seat, t.texts.length));
        else this.broadcast(t);
        this.socket.told = t.texts.length;
        await this.advance(t, false);
    }

    /** @param {Message} m */
    async change(m) {
        const type = /** @type {string} */ (m.type);
        const s = this.socket;
        if (!s.table || s.seat < 0) return this.error("not_seated", `${type}: join a table with your seat's token first`);
        const t = await this.fresh(s.table);
        const seq = wholeNumber(m.seq);
        if (seq === undefined || seq === null)
            return this.error("malformed", `${type} needs "seq", the seq of the latest state`);
        if (type === "move") {
            if (typeof m.action !== "string") return this.error("malformed", "move needs \"action\", an action's text");
            if (t.isBot(s.seat)) return this.error("not_your_turn", "a bot plays this seat now");
            if (t.move(s.seat, seq, m.action) === "again") {
                this.emit({type: "ack", seq: t.seq});
                this.emit(stateMessage(t, s.seat, this.eventsFrom(t)));
                s.told = t.texts.length;
                return;
            }
        } else if (type === "undo") {
            t.undo(s.seat, seq);
        } else if (type === "resign") {
            t.resign(s.seat, seq);
            s.seat = -1;      // the seat's people watch from now on
            s.told = -1;
        } else {
            if (typeof m.bot !== "string") return this.error("malformed", "hand_over needs \"bot\", a bot spec");
            t.handOver(s.seat, seq, m.bot);
            s.seat = -1;
            s.told = -1;
        }
        await this.save(t);
        this.broadcast(t);
        this.emit({type: "ack", seq: t.seq});
        await this.advance(t);
    }

    /** @param {LocalTable} t */
    eventsFrom(t) {
        const told = this.socket.told;
        const changeFrom = t.texts.length - t.last.length;
        return told < 0 || told > t.texts.length ? t.texts.length : Math.max(told, changeFrom);
    }

    hint() {
        const {table: t, seat} = this.socket;
        if (!t || seat < 0) return this.error("not_seated", "hint: join a table with your seat's token first");
        if (t.over) return this.error("over", "the game is over");
        if (t.current() !== seat) return this.error("not_your_turn", "a hint is for your own turn");
        const bot = t.game.bot("hard", mix(t.seed ^ HINT_SALT, BigInt(t.texts.length)));
        let moves;
        try {
            bot.setTimeCap(HINT_TIME_CAP_MS);
            moves = bot.analyse(t.state, 5);
        } catch (err) { // as the server: a failed search sends no hint
            console.error(`tafel: the hint failed: ${words(err)}`);
            return;
        } finally {
            bot.free();
        }
        this.emit(hintMessage(t, seat, moves));
    }

    history() {
        const {table: t, seat} = this.socket;
        if (!t) return this.error("not_seated", "history: join a table first");
        this.emit(historyMessage(t, seat));
    }

    /** @param {Message} m */
    replay(m) {
        const {table: t, seat} = this.socket;
        if (!t) return this.error("not_seated", "replay: join a table first");
        const n = wholeNumber(m.actions);
        if (n === undefined || n === null || n > t.texts.length)
            return this.error("malformed", `replay needs "actions", 0..${t.texts.length}`);
        if (!t.over) return this.error("not_over", "a game is replayed once it is over");
        this.emit(replayMessage(t, seat, n, seat >= 0 ? seat : null));
    }

    // ---- the local messages -----------------------------------------------

    /** @param {Message} m */
    async list(m) {
        const games = (await this.store.list()).map((g) => ({
            table: g.table, game: g.game, seats: g.seats.map((s) => (s.human ? "human" : s.spec)),
            status: g.status, actions: g.actions.length, created: g.created, updated: g.updated,
            scores: g.scores, winners: g.winners, to_move: g.to_move,
        }));
        games.sort((a, b) => b.updated - a.updated || (a.table < b.table ? -1 : 1));
        this.emit({type: "local_games", games, ...(m.id !== undefined ? {id: m.id} : {})});
    }

    /** @param {Message} m */
    async remove(m) {
        if (typeof m.table !== "string") return this.error("malformed", "delete needs \"table\"", m);
        const t = this.loaded.get(m.table);
        if (t) {
            if (this.socket.table === t) this.socket = {table: null, seat: -1, told: -1};
            this.loaded.delete(m.table);
            t.free();
        }
        await this.store.delete(m.table);
        this.emit({type: "deleted", table: m.table, ...(m.id !== undefined ? {id: m.id} : {})});
    }

    /** @param {Message} m */
    async exportRecord(m) {
        if (typeof m.table !== "string") return this.error("malformed", "export needs \"table\"", m);
        const t = await this.find(m.table);
        if (!t) return this.error("no_table", `there is no table '${m.table.slice(0, 40)}'`, m);
        this.emit({type: "record", table: t.id, record: toRecord(t.saved()),
                   ...(m.id !== undefined ? {id: m.id} : {})});
    }

    /** @param {Message} m */
    async importRecord(m) {
        if (typeof m.record !== "string") return this.error("malformed", "import needs \"record\", a record's text", m);
        let r;
        try {
            r = readRecord(m.record);
        } catch (err) {
            return this.error("bad_record", words(err), m);
        }
        let game;
        try {
            game = this.engine.game(r.game);
        } catch (err) {
            return this.error("bad_record", `game: ${words(err)}`, m);
        }
        const players = game.players;
        /** @type {SavedSeat[]} */
        const seats = [];
        try {
            if (r.players.length > players)
                return this.error("bad_record", `players: ${r.players.length} for a game of ${players}`, m);
            for (let i = 0; i < players; i++) {
                const spec = r.players[i] ?? "human";
                let bot = false;
                if (spec !== "human") { // a spec this engine runs for this game, else a person
                    try {
                        game.bot(spec, 1n).free();
                        bot = true;
                    } catch { /* a person's seat */ }
                }
                const resigned = r.forfeit?.seat === i;
                seats.push({spec: resigned ? "greedy" : bot ? spec : "human", human: !bot, resigned});
            }
        } finally {
            game.free();
        }
        const now = Math.floor(Date.now() / 1000);
        const id = newTableId();
        const t = LocalTable.fromSaved(this.engine, {
            table: id, game: r.game, seed: r.seed.toString(), seed_chosen: true, seats, actions: r.actions,
            seq: 1, created: now, updated: now, status: "playing", to_move: "chance", scores: [], winners: [],
        });
        if (t.current() === -2 || t.oneSeatLeft()) t.over = true;
        const why = t.over ? resultDiffers(r, t) : null;
        if (why) {
            t.free();
            return this.error("bad_record", why, m);
        }
        if (!t.over && t.current() === -1) t.play(-1, null);
        this.remember(t);
        await this.save(t);
        this.emit({type: "imported", table: id, ...(m.id !== undefined ? {id: m.id} : {})});
    }

    /** @param {Message} m */
    info(m) {
        const games = this.engine.games().map((g) => {
            const game = this.engine.game(g.name);
            try {
                return {name: g.name, summary: g.summary, params: g.params, players: game.players,
                        pieces: game.pieces()};
            } finally {
                game.free();
            }
        });
        // each level with the games and counts of players it plays (expert:
        // those with a net built in); one that plays none is left out
        const known = new Map(this.engine.bots().map((b) => [b.name, b]));
        const bots = LOCAL_LEVELS.flatMap((name) => {
            const b = known.get(name);
            return b && Object.keys(b.players).length
                ? [{name, summary: b.summary, external: false, games: b.games, players: b.players}] : [];
        });
        this.emit({type: "info", games, bots, persistent: this.store.persistent,
                   ...(m.id !== undefined ? {id: m.id} : {})});
    }
}
