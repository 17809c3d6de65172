// turn-alerts.mjs -- "your turn at another table" (the server's `turn`
// message): a line on the page with a link to that table, the turn's beep
// when the player turned sound on (settings), and a desktop notification
// when the player allowed them -- asked only by a button (a click), never
// on load.  The notification opens that table.  The same notification
// tells of a turn at this page's own table while the page is not looked at.
// The lobby is at no table: there it is "your turn at one of your tables".

import {h} from "./dom.mjs";
import {t} from "../words/catalog.mjs";
import {beep} from "./turn-signal.mjs";
import {gameTitle} from "./game-title.mjs";
import {gameName} from "../lobby/params.mjs";

/** @typedef {import("../types.js").TurnMessage} TurnMessage */

/** Whether this browser has desktop notifications. */
function canNotify() {
    return typeof Notification === "function";
}

/**
 * @param {{sound: boolean}} settings
 * @param {boolean} [atTable] the page is a table's (the turn is at *another* table); false: the lobby
 */
export function createTurnAlerts(settings, atTable = true) {
    const button = h("button", {type: "button", class: "notify-ask small",
                                onclick: () => { ask(); }});
    const line = h("p", {class: "turn-elsewhere", role: "status", hidden: true});

    function drawButton() {
        const p = canNotify() ? Notification.permission : "denied";
        button.hidden = !canNotify() || p === "granted";
        button.disabled = p === "denied";
        button.textContent = t(p === "denied" ? "clocks.notify.denied" : "clocks.notify.ask");
        button.title = t("clocks.notify.about");
    }

    async function ask() {
        if (!canNotify()) return;
        try {
            await Notification.requestPermission();
        } catch {
            /* an old browser's callback form, or refused: nothing to do */
        }
        drawButton();
    }

    /**
     * A desktop notification, when allowed and the page is not looked at.
     * @param {string} game the game in words
     * @param {string} href the table's page
     */
    function notify(game, href) {
        if (!canNotify() || Notification.permission !== "granted" ||
            (document.visibilityState === "visible" && document.hasFocus())) return;
        try {
            const n = new Notification(t("clocks.notify.title", {game}),
                                       {body: t("clocks.notify.body"), tag: `tafel-${href}`});
            n.onclick = () => {
                window.focus();
                if (location.pathname !== href) location.href = href;
                n.close();
            };
        } catch {
            /* notifications only from a service worker here: the line and the beep stay */
        }
    }

    /** @param {TurnMessage} m */
    function onTurn(m) {
        const game = gameTitle(gameName(m.game));
        const href = `/t/${m.table}`;
        line.replaceChildren(t(atTable ? "clocks.elsewhere" : "clocks.turn_somewhere", {game}), " ",
            h("a", {href, text: t("clocks.elsewhere_go")}));
        line.hidden = false;
        if (settings.sound) beep();
        notify(game, href);
    }

    drawButton();
    /** The turn became this page's seat's (its own sound is turn-signal.mjs's). @param {string} game */
    const ownTurn = (game) => notify(game, location.pathname);
    return {button, line, onTurn, ownTurn};
}
