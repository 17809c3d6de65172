// entry.mjs -- "Learn by playing" in the lobby: one link a game, each
// starting its guided first game on this device (guide.mjs, app.mjs's
// ?guide=), first on the page, where a newcomer looks.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {gameTitle} from "../table/game-title.mjs";
import {GUIDES, guideHref, guideStyle} from "./guide.mjs";

/**
 * The lobby's section, for the games this device runs.
 * @param {string[]} games the names of the games the device offers
 */
export function learnToPlay(games) {
    guideStyle();
    const names = Object.keys(GUIDES).filter((name) => games.includes(name));
    if (!names.length) return null;
    return h("section", {class: "card learn", "aria-labelledby": "learn-title"},
             h("h2", {id: "learn-title", text: t("guide.lobby.title")}),
             h("p", {class: "small muted", text: t("guide.lobby.about")}),
             h("ul", {class: "learn-games"},
               ...names.map((name) => h("li", {},
                   h("a", {href: guideHref(name), "data-guide": name,
                           text: t("guide.lobby.start", {game: gameTitle(name)})})))));
}
