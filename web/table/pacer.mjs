// pacer.mjs -- other seats' moves shown one after another, not all at once.
//
// The server sends a `state` for each change as soon as it is made, and a
// bot answers in milliseconds: drawn as they come, a bot's turn would be
// over before anyone saw it.  So the table queues the states and draws
// each, in order, when its time comes: a state made by another seat's
// action (or a bot's) waits until the state before it has been in view for
// the chosen time (settings: the bot speed).  Nothing else waits beyond
// its turn in the queue: the player's own moves, an undo, a state that
// only says who is connected.  The first state after a join is drawn at
// once and drops what was queued (it is the latest position).  A state
// that asks the player to act is so never held longer than the pacing of
// those before it.  A tab in the background, or a long backlog (a game of
// bots watched), is not paced.
//
// What the page shows is always a state that was drawn: the #app
// attributes and the controls follow it, and a move is only offered when
// nothing is queued (the shown state is the latest; conn.move sends the
// latest seq).

/** @typedef {import("../types.js").StateMessage} StateMessage */

/** More queued than this, and the queue is drawn without pauses. */
const MAX_BACKLOG = 24;

/**
 * Whether a state was made by another seat's action: its accounts name a
 * seat that is not the viewer's.
 * @param {StateMessage} st
 */
export function byOthers(st) {
    return (st.events ?? []).some((a) => a.seat !== "chance" && a.seat !== st.seat);
}

/**
 * @param {(st: StateMessage) => void} draw shows a state
 * @param {() => number} hold how long (ms) a state stays in view before
 *   another seat's next one
 */
export function createPacer(draw, hold) {
    /** @type {StateMessage[]} */
    const queue = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    let timer = null;
    let drawnAt = -Infinity;

    /** @param {StateMessage} st */
    function show(st) {
        drawnAt = performance.now();
        draw(st);
    }

    function pump() {
        while (queue.length) {
            const next = queue[0];
            const wait = byOthers(next) ? drawnAt + hold() - performance.now() : 0;
            if (wait > 0 && queue.length <= MAX_BACKLOG && document.visibilityState !== "hidden") {
                timer ??= setTimeout(() => {
                    timer = null;
                    pump();
                }, wait);
                return;
            }
            queue.shift();
            show(next);
        }
    }

    /**
     * A state from the server.
     * @param {StateMessage} st
     * @param {boolean} first the first after a join: drawn now, the queue dropped
     */
    function push(st, first) {
        if (first) {
            queue.length = 0;
            if (timer) clearTimeout(timer);
            timer = null;
            show(st);
            return;
        }
        queue.push(st);
        pump();
    }

    /** The speed changed: what waits may be due now. */
    function changed() {
        if (timer) clearTimeout(timer);
        timer = null;
        pump();
    }

    document.addEventListener("visibilitychange", changed);

    return {push, changed, pending: () => queue.length};
}
