// new-table.mjs -- the form that makes a table: the game (its name and
// what it is, in words), its options each with a line on what it does
// (options.mjs), each seat a person or a bot (seat-kinds.mjs), and under
// "details" the game string it makes and an optional seed.  It sends
// `create`; the caller gets `created`.  A chosen seed is for practice tables
// (at most one person, the others bots): the same seed deals the same
// hidden cards at another table, so the server refuses it at a table of
// people, and the field is disabled, saying why, while two seats are people.
// Where the table is played: on the server, or on this device (the engine
// in the page, local/): a device's table has the bots the page runs, and
// none of the server's options (private, rated, clock, invitations); its
// people share the screen.  With one place only, no choice is shown.

import {h} from "../table/dom.mjs";
import {swatch} from "../table/seats.mjs";
import {t, catalog, seatWord} from "../words/catalog.mjs";
import {parseParam, gameString} from "./params.mjs";
import {optionField, fitValue, gameWords} from "./options.mjs";
import {seatChoices, seatChoiceAbout, botsFor, OTHER} from "./seat-kinds.mjs";
import {tableOptions} from "./table-options.mjs";
import {clockChoice} from "./clock-choice.mjs";

/** @typedef {import("../types.js").GamesInfo} GamesInfo */
/** @typedef {import("./params.mjs").Param} Param */

const DEFAULT_BOT = "medium";

/** @typedef {"server" | "device"} Place */

/**
 * @param {GamesInfo} info the server's games and bots (or the device's, with no server)
 * @param {(game: string, seats: string[], seed: number | null,
 *   options: {private?: boolean, rated?: boolean, clock?: string}, place: Place) => void} create
 * @param {{places?: Place[], deviceBots?: import("../types.js").BotInfo[]}} [where]
 *   the places offered (by default the server only), and the bots of the device
 * @returns {{el: HTMLElement, showError: (text: string) => void, busy: (on: boolean) => void}}
 */
export function newTableForm(info, create, where = {}) {
    const places = where.places ?? ["server"];
    /** @type {Place} */
    let place = places[0];
    /** @type {Record<string, string>} */
    let values = {};
    /** @type {string[]} the seat specs, as chosen */
    const seatSpecs = ["human"];
    /** @type {string[]} a name invited to each person's seat ("" none; social) */
    const invites = [""];
    const extra = tableOptions(() => updateSeed());

    const gameSelect = h("select", {id: "nt-game", "aria-describedby": "nt-game-about",
                                    onchange: () => { values = {}; drawOptions(); }},
        ...info.games.map((g) => h("option", {value: g.name, text: gameWords(g.name)})));
    const about = h("p", {class: "muted small", id: "nt-game-about"});
    const optionsBox = h("div", {class: "nt-options"});
    const seatsBox = h("fieldset", {class: "nt-seats", "aria-describedby": "nt-seats-about"});
    const gameCode = h("code", {class: "nt-game-string"});
    const seedInput = h("input", {id: "nt-seed", type: "number", min: "0", step: "1",
                                  inputmode: "numeric", "aria-describedby": "nt-seed-about",
                                  placeholder: t("lobby.new.seed_placeholder")});
    const seedAbout = h("p", {class: "small muted", id: "nt-seed-about", text: t("lobby.new.seed_about")});
    const error = h("p", {class: "error", role: "alert", hidden: true});
    const submit = h("button", {type: "submit", class: "primary", text: t("lobby.new.create")});
    const clock = clockChoice();

    /** The place's bots, for any game. */
    function placeBots() {
        return place === "device" ? where.deviceBots ?? [] : info.bots;
    }

    /** The bots offered for the chosen game and count (expert only where it has a net). */
    function bots() {
        return botsFor(placeBots(), game().name, players());
    }

    /** A seat's bot when its choice is not offered here: the page's default level if it is. */
    function fallbackBot() {
        const offered = bots();
        return offered.some((b) => b.name === DEFAULT_BOT) ? DEFAULT_BOT : offered[0]?.name ?? "human";
    }

    /**
     * Whether a seat's spec must change to be offered here: a bot of the
     * place that does not play this game with this many players (expert
     * where it has no net), or on a device, whose tables take no typed
     * spec, anything not offered.
     * @param {string} spec
     * @param {{value: string}[]} choices
     */
    function notOffered(spec, choices) {
        if (choices.some((c) => c.value === spec)) return false;
        return place === "device" || placeBots().some((b) => b.name === spec);
    }

    /** What a seat's choice does, here. @param {string} value */
    function seatAbout(value) {
        return value === "human" && place === "device" ? t("local.seat.human_about") : seatChoiceAbout(value, bots());
    }

    function game() {
        return info.games.find((g) => g.name === gameSelect.value) ?? info.games[0];
    }

    /** @returns {Param[]} */
    function params() {
        return /** @type {Param[]} */ (game().params.map(parseParam).filter((p) => p !== null));
    }

    function players() {
        const p = params().find((q) => q.name === "players");
        const v = Number(values.players ?? p?.def ?? game().players);
        return Number.isFinite(v) && v > 0 ? v : game().players;
    }

    /** The chosen values, each one the table can have (a seat it has). */
    function chosen() {
        /** @type {Record<string, string>} */
        const fitted = {};
        for (const p of params()) {
            if (values[p.name] !== undefined) fitted[p.name] = fitValue(p, values[p.name], players());
        }
        return fitted;
    }

    function drawOptions() {
        const g = game();
        const summary = `lobby.summary.${g.name}`;
        about.textContent = catalog().has(summary) ? t(summary) : g.summary;
        const fields = params()
            .filter((p) => !(p.kind === "range" && p.min === p.max))   // nothing to choose
            .map((p) => optionField(g.name, p, values[p.name] ?? p.def, players(), (v) => {
                values[p.name] = v;
                if (p.name === "players") drawOptions();   // the seats, and who may begin
                else updateGameString();
            }));
        optionsBox.replaceChildren(...(fields.length
            ? [h("h3", {class: "nt-sub", text: t("lobby.new.options")}), ...fields] : []));
        const focused = document.activeElement?.id;
        drawSeats();
        updateGameString();
        if (focused) document.getElementById(focused)?.focus();
    }

    /** The game string, shown only while "details" is open: it is no word of the page. */
    function updateGameString() {
        gameCode.textContent = details.open ? gameString(game().name, params(), chosen()) : "";
    }

    function drawSeats() {
        const n = players();
        while (seatSpecs.length < n) seatSpecs.push(fallbackBot());
        seatSpecs.length = n;
        while (invites.length < n) invites.push("");
        invites.length = n;
        seatsBox.replaceChildren(h("legend", {text: t("lobby.new.seats")}),
            h("p", {class: "small muted", id: "nt-seats-about",
                    text: t(place === "device" ? "local.seats_about" : "lobby.new.seats_about")}));
        // at a table on this device the people share its screen: nobody gets a link
        const choices = seatChoices(bots(), place === "server")
            .map((c) => (c.value === "human" && place === "device" ? {...c, text: t("local.seat.human")} : c));
        for (let i = 0; i < n; i++) {
            if (notOffered(seatSpecs[i], choices)) seatSpecs[i] = fallbackBot();
            seatsBox.append(seatField(i, choices));
        }
        updateSeed();
    }

    /** Whether a seed may be chosen: at most one seat is a person's. */
    function practice() {
        return seatSpecs.filter((s) => s.trim() === "human").length <= 1;
    }

    function updateSeed() {
        extra.seatsChanged(seatSpecs.map((s) => s.trim()));
        const ok = practice() && !extra.rated();
        seedInput.disabled = !ok;
        seedAbout.textContent = t(ok ? "lobby.new.seed_about" : "lobby.new.seed_people");
    }

    /**
     * @param {number} i
     * @param {{value: string, text: string}[]} choices
     */
    function seatField(i, choices) {
        const id = `nt-seat-${i}`;
        const select = h("select", {id, "aria-describedby": `${id}-about`},
            ...choices.map((c) => h("option", {value: c.value, text: c.text})));
        const known = choices.some((c) => c.value === seatSpecs[i]);
        select.value = known ? seatSpecs[i] : OTHER;
        const other = h("input", {type: "text", class: "nt-other", value: known ? "" : seatSpecs[i],
                                  placeholder: "mcts:ms=500", spellcheck: "false", autocomplete: "off",
                                  "aria-label": t("lobby.seat.other_label", {seat: i}),
                                  hidden: known});
        const aboutSeat = h("p", {class: "small muted seat-about", id: `${id}-about`,
                                  text: seatAbout(select.value)});
        const invite = h("input", {type: "text", class: "nt-invite", id: `${id}-invite`,
                                   value: invites[i], maxlength: "24", autocomplete: "off",
                                   spellcheck: "false", placeholder: t("social.new.invite_placeholder"),
                                   "aria-label": t("social.new.invite_label", {seat: i}),
                                   hidden: seatSpecs[i] !== "human" || place === "device"});
        invite.addEventListener("input", () => { invites[i] = invite.value; });
        select.addEventListener("change", () => {
            seatSpecs[i] = select.value === OTHER ? other.value : select.value;
            updateSeed();
            invite.hidden = select.value !== "human" || place === "device";
            other.hidden = select.value !== OTHER;
            aboutSeat.textContent = seatAbout(select.value);
            if (!other.hidden) other.focus();
        });
        other.addEventListener("input", () => { seatSpecs[i] = other.value; });
        return h("div", {class: "field seat-field"},
            h("label", {for: id}, swatch(i), seatWord(i)), select, other, invite, aboutSeat);
    }

    const details = h("details", {class: "nt-details", ontoggle: () => updateGameString()},
        h("summary", {text: t("lobby.new.details")}),
        h("p", {class: "small"}, t("lobby.new.game_string"), " ", gameCode),
        h("div", {class: "field"},
            h("label", {for: "nt-seed", text: t("lobby.new.seed")}),
            seedInput,
            seedAbout));

    const form = h("form", {class: "card new-table", "aria-labelledby": "nt-title",
                            onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        error.hidden = true;
        const specs = seatSpecs.map((s) => s.trim());
        const empty = specs.findIndex((s) => s === "" || s === OTHER);
        if (empty >= 0) {
            showError(t("lobby.new.error.spec", {seat: empty}));
            return;
        }
        const seedText = seedInput.value.trim();
        const seed = seedText === "" || seedInput.disabled ? null : Number(seedText);
        if (seed !== null && !(Number.isSafeInteger(seed) && seed >= 0)) {
            showError(t("lobby.new.error.seed"));
            return;
        }
        // a person's seat with a name: an invitation, bound to that player at once
        if (place === "device") {
            create(gameString(game().name, params(), chosen()), specs, seed, {}, place);
            return;
        }
        const seats = specs.map((s, i) => (s === "human" && invites[i]?.trim() ? `player:${invites[i].trim()}` : s));
        const clockText = clock.value();
        create(gameString(game().name, params(), chosen()), seats, seed,
               {...extra.values(), ...(clockText ? {clock: clockText} : {})}, place);
    }},
        h("h2", {id: "nt-title", text: t("lobby.new.title")}),
        placeField(),
        h("div", {class: "field"}, h("label", {for: "nt-game", text: t("lobby.new.game")}), gameSelect),
        about,
        optionsBox,
        seatsBox,
        extra.el,
        clock.el,
        details,
        error,
        submit);

    /** Server or device: radio buttons while both are offered, else a line saying which. */
    function placeField() {
        const aboutPlace = h("p", {class: "small muted", id: "nt-place-about", text: t(`local.place.${place}_about`)});
        if (places.length < 2) return place === "device" ? aboutPlace : null;
        const radios = places.map((p) => h("label", {class: "nt-place"},
            h("input", {type: "radio", name: "nt-place", value: p, checked: p === place,
                        "aria-describedby": "nt-place-about",
                        onchange: () => { place = p; placeChanged(); aboutPlace.textContent = t(`local.place.${p}_about`); }}),
            t(`local.place.${p}`)));
        return h("fieldset", {class: "nt-places"}, h("legend", {text: t("local.place.legend")}), ...radios, aboutPlace);
    }

    function placeChanged() {
        extra.el.hidden = place === "device";
        clock.el.hidden = place === "device";
        drawSeats();
    }

    /** @param {string} text */
    function showError(text) {
        error.textContent = text;
        error.hidden = false;
    }

    drawOptions();
    placeChanged();
    return {
        el: form,
        showError,
        busy: (on) => { submit.disabled = on; },
    };
}

