// table.mjs -- one local table: its game, every change made to it, and the
// rules of src/server/tables/tables.c reproduced exactly.
//
// A change is worked out on a copy of the state: the seat's action (checked
// by the engine), then the chance events that follow it, each drawn from
// tafel_rng_seed(mix(seed, actions so far)) -- the server's draw, so that a
// table with seed S deals here what a `tafel serve` table with seed S deals.
// A bot's choice is seeded as the server's bot pool seeds it.  Each action is
// told (its text and its account) to every viewer when it is applied, as the
// server keeps them for its state messages.  Undo follows the online rule: a
// seat takes back its own actions of its current turn, one at a time, never
// past a chance event, another seat's action, or an action that showed it
// something hidden; the list of what may be undone lives in memory only.

import {CHANCE, TERMINAL} from "../engine/tafel.mjs";

/** @typedef {import("../engine/tafel.mjs").Engine} Engine */
/** @typedef {import("../engine/tafel.mjs").Game} Game */
/** @typedef {import("../engine/tafel.mjs").State} State */
/** @typedef {import("./record.mjs").SavedTable} SavedTable */
/** @typedef {import("./record.mjs").SavedSeat} SavedSeat */
/**
 * One action as every viewer saw it (index 0 a spectator, v the seat v-1):
 * its text, and its account (a JSON text; null: none).
 * @typedef {{seat: number, text: string[], events: (string | null)[]}} Told
 */

const UNDO_MAX = 16;              // TABLE_UNDO_MAX
const MASK64 = (1n << 64n) - 1n;

/** A refusal with the server's code and words. */
export class TableError extends Error {
    /** @param {string} code @param {string} message */
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}

/** tables.c's mix (splitmix64 of seed and i). @param {bigint} seed @param {bigint} i */
export function mix(seed, i) {
    let z = (seed + 0x9E3779B97F4A7C15n * (i + 1n)) & MASK64;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
    return z ^ (z >> 31n);
}

/** The seed of a bot's choice (tables.c new_job) or of a hint (table_ask_hint). */
export const BOT_SALT = 0x626f74n;
export const HINT_SALT = 0x68696e74n;

/** @param {() => string} fn the text, or "" when the engine cannot give it */
function orEmpty(fn) {
    try {
        return fn();
    } catch {
        return "";
    }
}

export class LocalTable {
    /**
     * An empty table (no action yet).
     * @param {Engine} engine
     * @param {{id: string, game: string, seed: bigint, seedChosen: boolean, seats: SavedSeat[],
     *   created: number}} init
     */
    constructor(engine, init) {
        this.engine = engine;
        this.id = init.id;
        this.gameString = init.game;
        /** @type {Game} */
        this.game = engine.game(init.game);
        this.players = this.game.players;
        this.state = this.game.newState();
        this.rng = engine.rng(0n);
        this.seed = init.seed;
        this.seedChosen = init.seedChosen;
        this.seats = init.seats.map((s) => ({...s}));
        this.seq = 0;
        this.over = false;
        this.created = init.created;
        this.updated = init.created;
        /** @type {string[]} every action's text, chance included */
        this.texts = [];
        /** @type {number[]} who played each (-1 chance) */
        this.actionSeats = [];
        /** @type {Told[]} the actions of the latest change */
        this.last = [];
        this.undoSeat = -1;
        /** @type {number[]} the action counts an undo goes back to */
        this.undoAt = [];
        /** The latest change by a seat: its seq before, seat and action text. */
        /** @type {{seq: number, seat: number, text: string} | null} */
        this.lastChange = null;
    }

    free() {
        this.state.free();
        this.rng.free();
        this.game.free();
    }

    /** Whether seat i is played by a bot now (a resigned person's seat too). @param {number} i */
    isBot(i) { return this.seats[i].resigned || !this.seats[i].human; }

    current() { return this.state.current(); }

    /** The people's seats (those with a token). */
    humanSeats() { return this.seats.flatMap((s, i) => (s.human ? [i] : [])); }

    /**
     * Action a, played in s, as each viewer sees it, with accounts.
     * @param {State} s @param {number} seat @param {number} a
     * @returns {Told}
     */
    tell(s, seat, a) {
        /** @type {Told} */
        const told = {seat, text: [], events: []};
        for (let v = 0; v <= this.players; v++) {
            told.text.push(orEmpty(() => s.viewText(a, v - 1)));
            let account = null;
            try {
                account = s.describe(a, v - 1);
            } catch (err) { // a defect (a is legal): told as [], and the game goes on
                console.error(`tafel: no account of '${told.text[v]}' for seat ${v - 1}: ${err}`);
            }
            told.events.push(account);
        }
        return told;
    }

    /** Whether every seat but one (or none) has resigned. */
    oneSeatLeft() { return this.seats.filter((s) => !s.resigned).length <= 1; }

    /**
     * Plays seat's action text and the chance events after it (seat -1: only
     * the chance events, the opening deal), as one change.
     * @param {number} seat @param {string | null} text
     */
    play(seat, text) {
        const after = this.state.clone();
        try {
            /** @type {{texts: string[], seats: number[], last: Told[], reveals: boolean}} */
            const c = {texts: [], seats: [], last: [], reveals: false};
            /** @param {number} who @param {number} a */
            const add = (who, a) => {
                c.texts.push(after.toText(a));
                c.seats.push(who);
                c.last.push(this.tell(after, who, a));
                after.apply(a);
            };
            if (seat >= 0) {
                let a;
                try {
                    if (text === null) throw new Error("no action");
                    a = this.state.fromText(text);
                } catch (err) {
                    throw new TableError("illegal", err instanceof Error ? err.message : String(err));
                }
                c.reveals = !this.isBot(seat) && this.state.reveals(a);
                add(seat, a);
            }
            while (after.current() === CHANCE) {
                const n = BigInt(this.texts.length + c.texts.length);
                this.rng.state = this.engine.rngSeed(mix(this.seed, n));
                add(-1, after.sampleChance(this.rng));
            }
            this.commit(after, c, seat);
        } finally {
            after.free();
        }
    }

    /**
     * The change applied: actions, state, seq, last actions; undo as the rule says.
     * @param {State} after
     * @param {{texts: string[], seats: number[], last: Told[], reveals: boolean}} c
     * @param {number} seat
     */
    commit(after, c, seat) {
        const over = after.current() === TERMINAL || this.oneSeatLeft();
        const before = this.texts.length;
        this.texts.push(...c.texts);
        this.actionSeats.push(...c.seats);
        this.state.copyFrom(after);
        this.lastChange = seat >= 0 ? {seq: this.seq, seat, text: c.texts[0]} : null;
        this.changed();
        if (over) this.over = true;
        this.last = c.last;
        const chanceAfter = c.texts.length > 1;
        if (seat < 0 || this.isBot(seat) || chanceAfter || c.reveals || this.current() !== seat) {
            this.undoAt = [];
            this.undoSeat = -1;
        } else {
            if (this.undoSeat !== seat) this.undoAt = [];
            this.undoSeat = seat;
            if (this.undoAt.length === UNDO_MAX) this.undoAt.shift();
            this.undoAt.push(before);
        }
    }

    changed() {
        this.seq++;
        this.updated = Math.floor(Date.now() / 1000);
    }

    /**
     * A move from seat at seq: played, or refused with a TableError.
     * "again" when it is the seat's latest move sent once more (a lost ack).
     * @param {number} seat @param {number} seq @param {string} text
     * @returns {"played" | "again"}
     */
    move(seat, seq, text) {
        if (this.over) throw new TableError("over", "the game is over");
        if (seq !== this.seq) {
            const l = this.lastChange;
            if (seq === this.seq - 1 && l && l.seq === seq && l.seat === seat && l.text === text)
                return "again";
            throw new TableError("stale", `seq ${seq} is stale: the table is at ${this.seq}`);
        }
        const current = this.current();
        if (current !== seat) {
            if (current === TERMINAL) throw new TableError("over", "the game is over");
            throw new TableError("not_your_turn", "it is not your turn");
        }
        this.play(seat, text);
        return "played";
    }

    /** Why seat may not undo now, or null when it may. @param {number} seat */
    whyNoUndo(seat) {
        if (this.over) return "the game is over";
        if (this.undoSeat !== seat || this.undoAt.length === 0)
            return "only your own actions of this turn can be taken back, never past a "
                + "chance event, another player's action or a card you were shown";
        if (this.current() !== seat) return "your turn is over";
        return null;
    }

    /** @param {number} seat @param {number} seq */
    undo(seat, seq) {
        if (seq !== this.seq) throw new TableError("stale", `seq ${seq} is stale: the table is at ${this.seq}`);
        const why = this.whyNoUndo(seat);
        if (why) throw new TableError("no_undo", why);
        const keep = /** @type {number} */ (this.undoAt.pop());
        const s = this.replayed(keep);
        this.state.copyFrom(s);
        s.free();
        this.texts.length = keep;
        this.actionSeats.length = keep;
        this.lastChange = null;
        this.changed();
        this.last = [];
    }

    /** A new state after the first n actions (the caller frees it). @param {number} n */
    replayed(n) {
        const s = this.game.newState();
        try {
            for (let i = 0; i < n; i++) s.applyText(this.texts[i]);
        } catch (err) {
            s.free();
            throw new TableError("storage", `the table no longer replays: ${err}`);
        }
        return s;
    }

    /** @param {number} seq */
    checkSeq(seq) {
        if (this.over) throw new TableError("over", "the game is over");
        if (seq !== this.seq) throw new TableError("stale", `seq ${seq} is stale: the table is at ${this.seq}`);
    }

    /** The seat resigns: its turns are taken by `greedy`. @param {number} seat @param {number} seq */
    resign(seat, seq) {
        this.checkSeq(seq);
        if (this.seats[seat].resigned) throw new TableError("over", "you have resigned");
        this.seats[seat] = {...this.seats[seat], resigned: true, spec: "greedy"};
        this.seatChanged();
    }

    /** The seat is played by bot spec from now on. @param {number} seat @param {number} seq @param {string} spec */
    handOver(seat, seq, spec) {
        this.checkSeq(seq);
        if (this.seats[seat].resigned)
            throw new TableError("over", "you have resigned: the seat is no longer yours");
        if (this.isBot(seat)) throw new TableError("not_seated", "a bot plays this seat already");
        this.checkBot(spec);
        this.seats[seat] = {spec, human: false, resigned: false};
        this.seatChanged();
    }

    seatChanged() {
        const over = this.current() === TERMINAL || this.oneSeatLeft();
        this.lastChange = null;
        this.changed();
        if (over) this.over = true;
        this.undoAt = [];
        this.undoSeat = -1;
        this.last = [];
    }

    /** Throws bad_game unless the engine makes a bot of spec. @param {string} spec */
    checkBot(spec) {
        if (spec.length >= 128) throw new TableError("bad_game", "the spec is too long");
        try {
            this.game.bot(spec, 1n).free();
        } catch (err) {
            throw new TableError("bad_game", err instanceof Error ? err.message : String(err));
        }
    }

    /**
     * The winning seats (tables.c table_winners) at the position now, or at
     * another of this table's (a replay's), its seats as they are now.
     * @param {State} [state]
     */
    winners(state = this.state) {
        const left = this.seats.flatMap((s, i) => (s.resigned ? [] : [i]));
        if (left.length === 1) return left;
        if (state.current() !== TERMINAL) return [];
        const scores = state.scores();
        let best = -Infinity;
        for (const i of left) best = Math.max(best, scores[i]);
        return left.filter((i) => scores[i] === best);
    }

    /** The seat a bot must play now, or -1. */
    botToMove() {
        const seat = this.current();
        return !this.over && seat >= 0 && this.isBot(seat) ? seat : -1;
    }

    /** The seat to move: a seat, "chance" or "terminal". */
    toMove() {
        const c = this.over ? TERMINAL : this.current();
        return c === CHANCE ? "chance" : c === TERMINAL ? "terminal" : c;
    }

    /** The latest change as the actions tell it: the last seat's action and the chance after it. */
    guessLast() {
        let from = this.texts.length;
        while (from > 0 && this.actionSeats[from - 1] < 0) from--;
        if (from > 0) from--;
        const g = this.replayed(from);
        try {
            for (let i = from; i < this.texts.length; i++) {
                const a = g.fromText(this.texts[i]);
                const text = [];
                for (let v = 0; v <= this.players; v++) text.push(orEmpty(() => g.viewText(a, v - 1)));
                this.last.push({seat: this.actionSeats[i], text, events: text.map(() => null)});
                g.apply(a);
            }
        } finally {
            g.free();
        }
    }

    /** What the store keeps. @returns {SavedTable} */
    saved() {
        return {
            table: this.id, game: this.gameString, seed: this.seed.toString(),
            seed_chosen: this.seedChosen, seats: this.seats.map((s) => ({...s})),
            actions: this.texts.slice(), seq: this.seq, created: this.created,
            updated: this.updated, status: this.over ? "over" : "playing",
            to_move: this.toMove(), scores: this.state.scores(), winners: this.over ? this.winners() : [],
        };
    }

    /**
     * A table from what the store kept: its actions replayed (a TableError
     * "bad_record" naming the action the engine refuses).  The latest change
     * is guessed as the server guesses it after a restart: the last seat's
     * action and the chance events after it, without accounts.
     * @param {Engine} engine @param {SavedTable} saved
     */
    static fromSaved(engine, saved) {
        let t;
        try {
            t = new LocalTable(engine, {id: saved.table, game: saved.game, seed: BigInt(saved.seed),
                                        seedChosen: saved.seed_chosen, seats: saved.seats,
                                        created: saved.created});
        } catch (err) {
            throw new TableError("bad_record", `game: ${err instanceof Error ? err.message : err}`);
        }
        if (saved.seats.length !== t.players) {
            t.free();
            throw new TableError("bad_record", `players: ${saved.seats.length} seats for a game of ${t.players}`);
        }
        try {
            const s = t.state;
            saved.actions.forEach((text, i) => {
                const current = s.current();
                let a;
                try {
                    a = s.fromText(text);
                } catch (err) {
                    throw new TableError("bad_record", `action ${i}: ${err instanceof Error ? err.message : err}`);
                }
                t.texts.push(s.toText(a));
                t.actionSeats.push(current >= 0 ? current : -1);
                s.apply(a);
            });
            t.guessLast();
        } catch (err) {
            t.free();
            throw err;
        }
        t.seq = saved.seq;
        t.over = saved.status === "over";
        t.updated = saved.updated;
        return t;
    }
}
