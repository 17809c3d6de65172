// chat.mjs -- the chat at a table: the lines of the players (everyone at
// the table reads them) and, for a spectator, the spectators' lines apart
// (the server never sends those to a player: kibitzing stays away from
// the game).  Every line is text (textContent): a name or a message full
// of markup shows as written.  A person can be muted: their lines are
// hidden here (remembered in localStorage under "tafel.muted", by name),
// with a count of the lines hidden and a way to show them again; one's own
// lines offer no mute (it would hide what one just said).  The
// input counts bytes as the server does (UTF-8, at most 500).

import {h} from "./dom.mjs";
import {seatWord, t, tn} from "../words/catalog.mjs";
import {readStored, writeStored} from "../stored.mjs";
import {me} from "../account/identity.mjs";
import {shownName} from "./seats.mjs";

/** @typedef {import("../types.js").ChatLine} ChatLine */
/** @typedef {import("../types.js").StateMessage} StateMessage */

export const CHAT_MAX = 500;
const MUTED_KEY = "tafel.muted";
/** Lines kept on the page (the server sends the latest 100 on join). */
const KEEP = 300;

/** @param {string} text */
function bytes(text) {
    return new TextEncoder().encode(text).length;
}

/** Who said a line, in words. @param {ChatLine} line */
export function speaker(line) {
    if (!line.name) return line.seat === null ? t("social.chat.spectator") : seatWord(line.seat);
    if (line.player === "guest") return t("social.player.guest", {name: shownName(line.name, "guest")});
    return line.name;
}

/** Whether the page's own player said the line (by name and kind, as the server names it). @param {ChatLine} line */
function ownLine(line) {
    const self = me();
    return line.player !== null && line.player === self.kind && line.name === self.name;
}

/**
 * @param {(text: string) => boolean} say sends a line; false when not connected
 */
export function createChat(say) {
    /** @type {ChatLine[]} */
    let lines = [];
    /** @type {Set<string>} */
    const muted = new Set(Object.keys(readStored(MUTED_KEY)));
    let spectator = false;

    const players = h("ol", {class: "chat-lines", "aria-label": t("social.chat.players")});
    const watchers = h("ol", {class: "chat-lines", "aria-label": t("social.chat.spectators")});
    const watchersBox = h("div", {class: "chat-spectators", hidden: true},
        h("h3", {class: "chat-sub", text: t("social.chat.spectators")}), watchers);
    const mutedNote = h("p", {class: "small muted chat-muted", hidden: true});
    const unmute = h("button", {type: "button", class: "small", text: t("social.chat.unmute_all"),
                                onclick: () => {
        muted.clear();
        writeStored(MUTED_KEY, {});
        draw();
    }});
    const mutedBox = h("div", {class: "chat-muted-box", hidden: true}, mutedNote, unmute);
    const input = h("input", {type: "text", id: "chat-input", class: "chat-input", autocomplete: "off",
                              maxlength: String(CHAT_MAX), "aria-describedby": "chat-count",
                              "aria-label": t("social.chat.input_label"),
                              placeholder: t("social.chat.placeholder")});
    const count = h("span", {class: "small muted chat-count", id: "chat-count", "aria-live": "off"});
    const send = h("button", {type: "submit", text: t("social.chat.send")});
    const error = h("p", {class: "error small", role: "alert", hidden: true});
    const form = h("form", {class: "chat-form", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text || bytes(text) > CHAT_MAX) return;
        if (say(text)) {
            input.value = "";
            counted();
        }
    }}, input, send, count);
    const el = h("section", {class: "panel chat-panel", "aria-labelledby": "chat-title"},
        h("h2", {id: "chat-title", text: t("social.chat.title")}),
        players, watchersBox, mutedBox, form, error);

    function counted() {
        const n = bytes(input.value.trim());
        count.textContent = t("social.chat.count", {n, max: CHAT_MAX});
        const over = n > CHAT_MAX;
        count.classList.toggle("over", over);
        send.disabled = over || n === 0;
    }
    input.addEventListener("input", counted);

    /** @param {ChatLine} line */
    function lineEl(line) {
        const who = speaker(line);
        const li = h("li", {class: "chat-line", "data-n": String(line.n)},
            h("span", {class: "chat-who", text: who, translate: line.name ? "no" : null}), " ",
            h("span", {class: "chat-text", text: line.text}));
        li.title = new Date(line.at).toLocaleString();
        if (line.name && !ownLine(line)) {
            li.append(" ", h("button", {type: "button", class: "link small chat-mute",
                                        text: t("social.chat.mute"),
                                        "aria-label": t("social.chat.mute_label", {name: shownName(line.name, line.player)}),
                                        onclick: () => {
                muted.add(line.name);
                writeStored(MUTED_KEY, Object.fromEntries([...muted].map((m) => [m, 1])));
                draw();
                input.focus();
            }}));
        }
        return li;
    }

    function draw() {
        let hidden = 0;
        /** @type {HTMLElement[]} */
        const mine = [];
        /** @type {HTMLElement[]} */
        const theirs = [];
        for (const line of lines) {
            if (line.name && muted.has(line.name) && !ownLine(line)) { hidden++; continue; }
            (line.seat === null ? theirs : mine).push(lineEl(line));
        }
        players.replaceChildren(...(mine.length ? mine
            : [h("li", {class: "muted small chat-empty", text: t("social.chat.empty")})]));
        watchers.replaceChildren(...theirs);
        watchersBox.hidden = !spectator;
        mutedBox.hidden = hidden === 0;
        mutedNote.textContent = tn("social.chat.muted", hidden);
        players.lastElementChild?.scrollIntoView?.({block: "nearest"});
    }

    counted();
    draw();
    return {
        el,
        /** @param {import("../types.js").ChatMessage} m */
        onChat(m) {
            const known = new Set(lines.map((l) => l.n));
            for (const l of m.lines) if (!known.has(l.n)) lines.push(l);
            lines.sort((a, b) => a.n - b.n);
            if (lines.length > KEEP) lines = lines.slice(-KEEP);
            error.hidden = true;
            draw();
        },
        /** Before a join: its history replaces the lines (another seat reads others). */
        reset() {
            lines = [];
            draw();
        },
        /** @param {StateMessage} st */
        update(st) {
            if (spectator !== (st.seat === null)) {
                spectator = st.seat === null;
                draw();
            }
        },
        /** A refusal of a line: said in words. @param {string} code */
        onError(code) {
            const known = ["chat_too_fast", "chat_full", "bad_chat", "no_identity"];
            if (!known.includes(code)) return false;
            error.textContent = t(`social.chat.error.${code}`);
            error.hidden = false;
            return true;
        },
    };
}
