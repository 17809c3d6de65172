// bar.mjs -- "who am I": the page's player (name, and a mark for a guest)
// and what it may do: log in, sign up, rename the guest, change password,
// log out.  Shown in the lobby's and the table's header.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {me, post} from "./identity.mjs";
import {openForm} from "./forms.mjs";

/** The account's look (account.css), next to this module; once. */
function linkStyle() {
    const href = new URL("./account.css", import.meta.url).href;
    if ([...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.getAttribute("href") === href)) return;
    document.head.append(h("link", {rel: "stylesheet", href}));
}

/** @returns {HTMLElement} the bar (empty when the page is nobody: no accounts here) */
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
        text: t(key), onclick: fn});
    // a name, not a word: translate="no" (no translator touches it; the
    // tests of the catalogs know it is no text of theirs)
    bar.append(h("span", {class: "account-name", "data-kind": who.kind, translate: "no", text: who.name ?? ""}));
    if (who.kind === "guest") {
        bar.append(h("span", {class: "account-guest", text: t("account.guest")}),
            button("account.rename", "rename", () => openForm("rename")),
            button("account.login", "login", () => openForm("login")),
            button("account.signup", "signup", () => openForm("signup")));
    } else {
        bar.append(button("account.password", "password", () => openForm("password")),
            button("account.logout", "logout", async () => {
                await post("/api/logout", {});
                location.reload();
            }));
    }
    return bar;
}
