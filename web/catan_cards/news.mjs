// news.mjs -- the latest roll, explained: the production die, the event
// die's face or the event card it turned up, what that face or card does
// (the catalog's texts), and what it did, in the engine's words (the
// account's sentences, catalog().event).  Production is shown on the
// regions themselves (principality.mjs), so its sentences are left out
// here, as are the deals of a reshuffle.
import {h} from "../cards/dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {foldRepeats} from "../words/tell.mjs";
import {dieFace} from "./icons.mjs";

/** Kinds told elsewhere: the head of the report, the regions, the deals. */
const ELSEWHERE = new Set(["roll", "production_die", "event_die", "event_card", "production", "production_lost",
                           "card_dealt", "region_dealt", "event_card_dealt", "turn_started"]);

/**
 * @param {import("./account.mjs").Report | null} report
 * @returns {HTMLElement | null}
 */
export function drawNews(report) {
    if (!report || report.die === null) return null;
    const face = report.face;
    const card = face === "event" ? report.card : null;
    const title = card ? t("catan_cards.page.news_card", {name: t(`catan_cards.event_card.${card}`)})
        : face ? t(`catan_cards.event_die.${face}`) : null;
    const rule = card ? t(`catan_cards.event_card_text.${card}`) : face ? t(`catan_cards.event_die_text.${face}`) : null;
    const said = foldRepeats(report.events.filter((e) => !ELSEWHERE.has(e.kind)).map((e) => catalog().event(e)));
    const dieLabel = t(report.alchemist ? "catan_cards.page.die_alchemist" : "catan_cards.page.die", {number: report.die});
    return h("section", {class: `ct-news${card ? " ct-news-card" : ""}`, "aria-label": t("catan_cards.page.news"),
                         data: {face: face ?? "", card: card ?? ""}},
             h("div", {class: "ct-news-die", role: "img", "aria-label": dieLabel, title: dieLabel, data: {die: String(report.die)}},
               dieFace(report.die)),
             h("div", {class: "ct-news-body"},
               report.seat === null ? null
                   : h("p", {class: "ct-news-who"}, t("catan_cards.page.news_roll", {seat: report.seat, turn: report.turn})),
               title ? h("h3", {class: "ct-news-title"}, title) : null,
               rule ? h("p", {class: "ct-news-rule"}, rule) : null,
               said.length ? h("ul", {class: "ct-news-said"}, said.map((s) => h("li", null, s))) : null));
}
