// bar.mjs -- "who am I": the page's player (name, and a mark for a guest)
// and what it may do: log in, sign up, rename the guest, change password,
// log out.  Shown in the lobby's and the table's header.

import {h, dropDown} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {me, post} from "./identity.mjs";
import {openForm} from "./forms.mjs";
import {shownName} from "../table/seats.mjs";

/** The account's look (account.css), next to this module; once. */
function linkStyle() {
    const href = new URL("./account.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/**
 * The bar: the page's player as a menu button (its name, a guest's mark),
 * whose menu holds what it may do -- one line of the header, on a phone too.
 * @returns {HTMLElement} (empty when the page is nobody: no accounts here)
 */
export function accountBar() {
    linkStyle();
    const who = me();
    const bar = h("span", {class: "account-bar", role: "group", "aria-label": t("account.bar.label")});
    if (!who.kind) return bar;
    /**
     * @param {string} key
     * @param {string} action
     * @param {() => void} fn
     */
    const button = (key, action, fn) => h("button", {type: "button", class: "small", "data-account": action,
        text: t(key), onclick: () => { menu.open = false; fn(); }});
    const actions = who.kind === "guest"
        ? [button("account.rename", "rename", () => openForm("rename")),
           button("account.login", "login", () => openForm("login")),
           button("account.signup", "signup", () => openForm("signup"))]
        : [button("account.password", "password", () => openForm("password")),
           button("account.logout", "logout", async () => {
               await post("/api/logout", {});
               location.reload();
           })];
    // a name, not a word: translate="no" (no translator touches it; the
    // tests of the catalogs know it is no text of theirs)
    const summary = h("summary", {class: "button account-summary", title: t("account.bar.label")},
        h("span", {class: "account-name", "data-kind": who.kind, translate: "no", text: shownName(who.name ?? "", who.kind)}),
        who.kind === "guest" ? h("span", {class: "account-guest", text: t("account.guest")}) : null);
    const menu = h("details", {class: "account-menu"}, summary,
        h("div", {class: "account-actions"}, ...actions));
    dropDown(/** @type {HTMLDetailsElement} */ (menu), summary);
    bar.append(menu);
    return bar;
}
