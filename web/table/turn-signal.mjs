// turn-signal.mjs -- "your turn" where a player looks when the tab is not:
// the tab's title begins with a marker ("● Your turn — Carcassonne —
// tafel"), the favicon turns the seat's colour (neutral grey otherwise),
// and, when the player asked for it (settings), a short beep when the turn
// becomes theirs.  The beep is made with WebAudio: no sound files.

import {t} from "../words/catalog.mjs";
import {seatColour} from "./seats.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */

const NEUTRAL = "#8a877f";

/** @param {string} colour */
function iconHref(colour) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
        `<rect x="3" y="3" width="26" height="26" rx="6" fill="${colour}" stroke="#222" stroke-width="2.5"/></svg>`;
    return "data:image/svg+xml," + encodeURIComponent(svg);
}

/** The page's icon link, made when index.html has none. */
function iconLink() {
    let link = /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel~='icon']"));
    if (!link) {
        link = document.createElement("link");
        link.rel = "icon";
        document.head.append(link);
    }
    return link;
}

/** @type {AudioContext | null} */
let audio = null;

/** Makes the audio context (browsers allow it only after a gesture: the setting's click). */
export function wakeAudio() {
    try {
        audio ??= new AudioContext();
        if (audio.state === "suspended") audio.resume().catch(() => {});
    } catch {
        audio = null;   // no WebAudio: no sound
    }
}

/** Two short notes, quiet (also for a turn at another table: turn-alerts.mjs). */
export function beep() {
    if (!audio || audio.state !== "running") return;
    const now = audio.currentTime;
    [660, 880].forEach((freq, k) => {
        if (!audio) return;
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.frequency.value = freq;
        const start = now + k * 0.14;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.12, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.12);
        osc.connect(gain).connect(audio.destination);
        osc.start(start);
        osc.stop(start + 0.13);
    });
}

/**
 * @param {{sound: boolean}} settings
 * @param {() => void} [becameMine] told when the turn becomes the seat's (not on the first state)
 */
export function createTurnSignal(settings, becameMine) {
    const link = iconLink();
    let wasMine = false;
    let first = true;
    /** @type {string | null} */
    let icon = null;

    /**
     * @param {StateMessage} st the state shown
     * @param {string} game the game's name in words
     * @param {string} turn whose turn, in words
     */
    function update(st, game, turn) {
        const mine = !!st.legal?.length && st.status === "playing";
        document.title = mine ? t("page.title.yours", {game}) : t("page.title.other", {turn, game});
        const colour = mine && st.seat !== null ? seatColour(st.seat) : NEUTRAL;
        if (colour !== icon) {
            icon = colour;
            link.href = iconHref(colour);
        }
        if (mine && !wasMine && !first) {
            if (settings.sound) beep();
            becameMine?.();
        }
        wasMine = mine;
        first = false;
    }

    return {update};
}
