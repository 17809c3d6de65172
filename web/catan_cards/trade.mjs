// trade.mjs -- trades: the bank (`trade A B`) and the Caravan (`swap A B`)
// as a table of give/get buttons; an offer to the opponent (`offer 2L 1O`,
// up to 270 of them) as a form of four choices that plays the one legal
// text it names; an offer received, with `accept` and `decline`.
import {h, button} from "../cards/dom.mjs";
import {t} from "../words/catalog.mjs";
import {resChip, RES_NAME, RESOURCES} from "./cards.mjs";
import {offerSide} from "./turn.mjs";

/**
 * Bank trades or Caravan swaps: one line per resource given.
 * @param {string} title
 * @param {import("./legal.mjs").Swap[]} swaps
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawSwaps(title, swaps, play) {
    if (!swaps.length) return null;
    const gives = RESOURCES.filter((r) => swaps.some((s) => s.give === r));
    return h("section", {class: "ct-panel ct-trade", "aria-label": title}, h("h3", null, title),
             gives.map((give) => h("div", {class: "ct-trade-line"},
                 h("span", {class: "ct-trade-give"}, t("catan_cards.page.give"), resChip(give)),
                 swaps.filter((s) => s.give === give).map((s) => {
                     const b = button("", () => play(s.text), {class: "ct-res-button", data: {key: s.text},
                         "aria-label": t("catan_cards.page.swap_label", {give: RES_NAME[give], get: RES_NAME[s.get]})});
                     b.append(t("catan_cards.page.get"), resChip(s.get));
                     return b;
                 }))));
}

/** @typedef {{gr?: string, gc?: number, tr?: string, tc?: number}} OfferForm */

/**
 * The offer form: what to give, how many, what to get, how many.  Each
 * choice lists only values some legal offer has, given the choices above.
 * @param {import("./legal.mjs").Offer[]} offers
 * @param {OfferForm} form  changed in place by the buttons
 * @param {() => void} redraw
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawOfferForm(offers, form, redraw, play) {
    if (!offers.length) return null;
    const pick = (/** @type {import("./legal.mjs").Offer[]} */ list, /** @type {(o: any) => any} */ f) =>
        [...new Set(list.map(f))];
    const gives = RESOURCES.filter((r) => offers.some((o) => o.gr === r));
    if (!form.gr || !gives.includes(form.gr)) form.gr = gives[0];
    let list = offers.filter((o) => o.gr === form.gr);
    const gcs = pick(list, (o) => o.gc).sort();
    if (!form.gc || !gcs.includes(form.gc)) form.gc = gcs[0];
    list = list.filter((o) => o.gc === form.gc);
    const trs = RESOURCES.filter((r) => list.some((o) => o.tr === r));
    if (!form.tr || !trs.includes(form.tr)) form.tr = trs[0];
    list = list.filter((o) => o.tr === form.tr);
    const tcs = pick(list, (o) => o.tc).sort();
    if (!form.tc || !tcs.includes(form.tc)) form.tc = tcs[0];
    const chosen = list.find((o) => o.tc === form.tc);
    /**
     * @param {string} label
     * @param {any[]} values
     * @param {any} current
     * @param {(v: any) => void} set
     * @param {(v: any) => Node | string} show
     * @param {string} key
     */
    const choice = (label, values, current, set, show, key) =>
        h("div", {class: "ct-choice", role: "group", "aria-label": label}, h("span", {class: "ct-choice-label"}, label),
          values.map((v) => {
              const b = button("", () => { set(v); redraw(); },
                               {class: `ct-toggle${v === current ? " ct-on" : ""}`, "aria-pressed": String(v === current),
                                data: {key: `${key}-${v}`}});
              b.append(show(v));
              return b;
          }));
    return h("section", {class: "ct-panel ct-offer", "aria-label": t("catan_cards.page.offer_title")},
             h("h3", null, t("catan_cards.page.offer_title")),
             choice(t("catan_cards.page.you_give"), gives, form.gr, (v) => { form.gr = v; }, (v) => resChip(v), "gr"),
             choice(t("catan_cards.page.count_label"), gcs, form.gc, (v) => { form.gc = v; }, (v) => String(v), "gc"),
             choice(t("catan_cards.page.you_get"), trs, form.tr, (v) => { form.tr = v; }, (v) => resChip(v), "tr"),
             choice(t("catan_cards.page.count_label"), tcs, form.tc, (v) => { form.tc = v; }, (v) => String(v), "tc"),
             chosen ? button(t("catan_cards.page.offer_send", {give_count: chosen.gc, give: RES_NAME[chosen.gr],
                                                               get_count: chosen.tc, get: RES_NAME[chosen.tr]}),
                             () => play(chosen.text), {class: "ct-action ct-primary", data: {key: "offer-send"}})
                    : null);
}

/**
 * An offer received: what each side gives, and the answers.
 * @param {any} view
 * @param {string[]} answers  the legal `accept` / `decline`
 * @param {(text: string) => void} play
 * @returns {HTMLElement | null}
 */
export function drawIncomingOffer(view, answers, play) {
    if (!view.offer || !answers.length) return null;
    const [gc, gr] = offerSide(view.offer.give), [tc, tr] = offerSide(view.offer.get);
    return h("section", {class: "ct-panel ct-incoming", "aria-label": t("catan_cards.page.offer_in_title", {seat: view.active})},
             h("h3", null, t("catan_cards.page.offer_in_title", {seat: view.active})),
             h("p", null, t("catan_cards.page.offer_in", {give_count: gc, give: gr, get_count: tc, get: tr})),
             h("div", {class: "ct-buttons"}, answers.map((text) =>
                 button(t(`catan_cards.page.answer.${text}`), () => play(text),
                        {class: `ct-action${text === "accept" ? " ct-primary" : ""}`, data: {key: text}}))));
}
