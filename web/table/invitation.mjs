// invitation.mjs -- an invitation at its table (docs/club.md, "Invitations
// by name"): the invited player sees who invites, the game, rated or not and
// the clock, and accepts or declines; everyone else sees whom the game waits
// for.  Nothing is played, and no clock runs, until every invitation is
// accepted.

import {h} from "./dom.mjs";
import {t, catalog} from "../words/catalog.mjs";
import {gameTitle} from "./game-title.mjs";
import {gameName} from "../lobby/params.mjs";

/** @typedef {import("../types.js").StateMessage} StateMessage */

/**
 * Who invites, to what: the words of an invitation, for this table's panel
 * and for "My games".
 * @param {{game: string, by?: string, rated?: boolean, clock?: string}} inv
 */
export function invitationWords(inv) {
    const game = gameTitle(gameName(inv.game));
    return [inv.by ? t("social.invite.from", {name: inv.by, game}) : t("social.invite.from_nobody", {game}),
        t(inv.rated ? "social.invite.rated" : "social.invite.unrated"),
        inv.clock ? t("social.invite.clock", {clock: inv.clock}) : t("social.invite.no_clock")].join(" · ");
}

/**
 * The two answers, each sending its message once.
 * @param {(accept: boolean) => boolean} answer sends accept or decline; false when not connected
 */
export function answerButtons(answer) {
    /** @param {boolean} accept */
    const press = (accept) => () => {
        if (answer(accept)) for (const b of buttons) b.disabled = true;
    };
    const buttons = [h("button", {type: "button", class: "primary invite-accept", text: t("social.invite.accept"), onclick: press(true)}),
        h("button", {type: "button", class: "invite-decline", text: t("social.invite.decline"), onclick: press(false)})];
    return buttons;
}

/** @param {(accept: boolean) => boolean} answer */
export function createInvitation(answer) {
    const text = h("p", {class: "invite-text"});
    const note = h("p", {class: "small muted", text: t("social.invite.your_answer")});
    const buttons = h("div", {class: "invite-buttons"});
    const el = h("div", {class: "panel invitation", role: "status", hidden: true}, text, buttons, note);
    return {
        el,
        /** @param {StateMessage} st */
        update(st) {
            el.hidden = !st.waiting;
            if (!st.waiting) return;
            const mine = st.seat !== null && st.seats[st.seat]?.invited === true;
            if (mine) {
                text.textContent = invitationWords({game: st.game, by: st.invited_by, rated: st.rated, clock: st.clock?.text});
                if (!buttons.childElementCount) buttons.replaceChildren(...answerButtons(answer));
            } else {
                const names = st.seats.filter((s) => s.invited).map((s) => s.name ?? "");
                text.textContent = t("social.invite.waiting_for", {names: catalog().list(names)});
                buttons.replaceChildren();
            }
        },
    };
}
