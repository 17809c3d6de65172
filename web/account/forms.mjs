// forms.mjs -- the account's forms: log in, sign up, change password,
// rename the guest.  Each is a labelled form in a modal <dialog> (Escape
// closes it, focus goes to its first field); the server checks everything
// and a refusal shows its own sentence under a short one from the
// catalog.  A change of who the page is reloads the page.

import {h} from "../table/dom.mjs";
import {t} from "../words/catalog.mjs";
import {post} from "./identity.mjs";

/** @typedef {"login" | "signup" | "password" | "rename"} FormKind */
/** @typedef {{name: string, key: string, type: string, autocomplete: string, hint?: string}} Field */

/** @type {Record<FormKind, {path: string, fields: Field[], reload: boolean}>} */
const FORMS = {
    login: {path: "/api/login", reload: true, fields: [
        {name: "name", key: "account.form.name", type: "text", autocomplete: "username"},
        {name: "password", key: "account.form.password", type: "password", autocomplete: "current-password"},
    ]},
    signup: {path: "/api/signup", reload: true, fields: [
        {name: "name", key: "account.form.name", type: "text", autocomplete: "username",
            hint: "account.form.hint.name"},
        {name: "password", key: "account.form.password", type: "password", autocomplete: "new-password",
            hint: "account.form.hint.password"},
    ]},
    password: {path: "/api/password", reload: false, fields: [
        {name: "old", key: "account.form.old", type: "password", autocomplete: "current-password"},
        {name: "new", key: "account.form.new", type: "password", autocomplete: "new-password",
            hint: "account.form.hint.password"},
    ]},
    rename: {path: "/api/guest", reload: true, fields: [
        {name: "name", key: "account.form.name", type: "text", autocomplete: "nickname",
            hint: "account.form.hint.name"},
    ]},
};

/** The server's error codes the catalog words (others: account.error.other). */
const CODES = ["wrong_password", "slow_down", "name_taken", "bad_name", "bad_password", "disabled",
    "busy", "not_logged_in", "not_guest"];

/**
 * Opens the form of kind in a dialog.
 * @param {FormKind} kind
 * @param {{reload?: () => void}} [opts] what a change of identity does (default: reload)
 */
export function openForm(kind, opts = {}) {
    const spec = FORMS[kind];
    const reload = opts.reload ?? (() => location.reload());
    const error = h("div", {class: "account-error", role: "alert", "aria-live": "assertive"});
    /** @type {HTMLInputElement[]} */
    const inputs = [];
    const rows = spec.fields.map((f) => {
        const id = `account-${kind}-${f.name}`;
        const hintId = f.hint ? `${id}-hint` : null;
        const input = h("input", {id, name: f.name, type: f.type, autocomplete: f.autocomplete,
            required: true, "aria-describedby": hintId});
        inputs.push(/** @type {HTMLInputElement} */ (input));
        return h("div", {class: "account-field"},
            h("label", {for: id, text: t(f.key)}),
            input,
            f.hint ? h("small", {id: hintId, text: t(f.hint)}) : null);
    });
    const submit = h("button", {type: "submit", class: "primary", text: t(`account.form.submit.${kind}`)});
    const dialog = /** @type {HTMLDialogElement} */ (h("dialog", {class: "account-dialog",
        "aria-labelledby": `account-${kind}-title`}));
    const cancel = h("button", {type: "button", text: t("account.form.cancel"),
        onclick: () => dialog.close()});
    const form = h("form", {class: "account-form", method: "dialog", "data-form": kind},
        h("h2", {id: `account-${kind}-title`, text: t(`account.form.title.${kind}`)}),
        ...rows, error,
        h("div", {class: "account-buttons"}, submit, cancel));
    form.addEventListener("submit", async (e) => {
        e.preventDefault();
        /** @type {Record<string, string>} */
        const body = {};
        for (const input of inputs) body[input.name] = input.value;
        submit.toggleAttribute("disabled", true);
        error.replaceChildren();
        const r = await post(spec.path, body);
        submit.toggleAttribute("disabled", false);
        if (r.ok) {
            if (spec.reload) {
                reload();
            } else {
                form.replaceChildren(h("p", {class: "account-done", role: "status",
                    text: t(`account.done.${kind}`)}),
                h("div", {class: "account-buttons"},
                    h("button", {type: "button", text: t("account.form.close"), onclick: () => dialog.close()})));
            }
            return;
        }
        const code = r.body && typeof r.body.error === "string" ? r.body.error : "";
        const lead = r.status === 0 ? t("account.error.network")
            : t(CODES.includes(code) ? `account.error.${code}` : "account.error.other");
        error.replaceChildren(h("strong", {text: lead}));
        if (r.body && typeof r.body.message === "string") {
            error.append(h("span", {class: "account-message", text: r.body.message}));
        }
        inputs.find((i) => i.type === "password")?.select();
    });
    dialog.append(form);
    dialog.addEventListener("close", () => dialog.remove());
    document.body.append(dialog);
    dialog.showModal();
    inputs[0]?.focus();
    return dialog;
}
