// tip.mjs -- one small popover for the whole view: what a card is and does
// (its name and whole text from the catalog), shown while the pointer is
// over it, while it has the keyboard focus (:focus-visible), and on a tap
// (a touch screen has no hover; a title attribute shows on neither).  One
// element, placed by the card and kept inside the screen, so a card at the
// right edge never widens the page.
import {h, tipCeiling} from "../cards/dom.mjs";

/** @type {WeakMap<Element, () => (Node | string)[]>} */
const TIPS = new WeakMap();

/**
 * Gives an element a tip; build() makes its contents when it is shown.
 * @template {Element} E
 * @param {E} el
 * @param {() => (Node | string)[]} build
 * @returns {E}
 */
export function withTip(el, build) {
    TIPS.set(el, build);
    el.classList.add("cc-tipped");
    return el;
}

let counter = 0;

/**
 * The popover of a view, listening on `host` (the view's root).
 * @param {HTMLElement} host
 * @returns {{el: HTMLElement, refresh: () => void, hide: () => void, destroy: () => void}}
 */
export function createTip(host) {
    const id = `cc-tip-${++counter}`;
    const el = h("div", {class: "cc-tip", role: "tooltip", id, hidden: true});
    /** @type {Element | null} */
    let anchor = null;
    let anchorKey = "";
    let pinned = false;

    /** @param {EventTarget | null} target */
    const tipped = (target) => target instanceof Element ? target.closest(".cc-tipped") : null;

    /**
     * @param {Element} at
     * @param {boolean} pin
     */
    function show(at, pin) {
        const build = TIPS.get(at);
        if (!build) return;
        if (anchor && anchor !== at) anchor.removeAttribute("aria-describedby");
        anchor = at;
        anchorKey = at instanceof HTMLElement || at instanceof SVGElement ? at.dataset.key ?? "" : "";
        pinned = pin;
        el.replaceChildren(...build());
        el.hidden = false;
        at.setAttribute("aria-describedby", id);
        place();
    }

    function place() {
        if (!anchor || el.hidden) return;
        const r = anchor.getBoundingClientRect();
        const margin = 6;
        el.style.left = "0px";
        el.style.top = "0px";
        const w = el.offsetWidth, hgt = el.offsetHeight;
        const left = Math.max(margin, Math.min(r.left + r.width / 2 - w / 2,
                                                document.documentElement.clientWidth - w - margin));
        const ceiling = tipCeiling() + margin;
        if (r.bottom <= ceiling) { hide(); return; }   // its card went under the header
        const above = r.top - hgt - margin;
        const top = above >= ceiling ? above : Math.min(r.bottom + margin, window.innerHeight - hgt - margin);
        el.style.left = `${Math.round(left)}px`;
        el.style.top = `${Math.round(Math.max(ceiling, top))}px`;
    }

    function hide() {
        if (anchor) anchor.removeAttribute("aria-describedby");
        anchor = null;
        anchorKey = "";
        pinned = false;
        el.hidden = true;
    }

    /** @param {PointerEvent} e */
    function onOver(e) {
        if (e.pointerType !== "mouse" || pinned) return;
        const at = tipped(e.target);
        if (at && at !== anchor) show(at, false);
    }
    /** @param {PointerEvent} e */
    function onOut(e) {
        if (e.pointerType !== "mouse" || pinned || !anchor) return;
        const to = e.relatedTarget;
        if (!(to instanceof Node && anchor.contains(to))) hide();
    }
    /** @param {FocusEvent} e */
    function onFocus(e) {
        const at = tipped(e.target);
        if (at && e.target instanceof Element && e.target.matches(":focus-visible")) show(at, false);
    }
    function onBlur() {
        if (!pinned) hide();
    }
    /** A tap on a card that is not a control shows its tip, a second tap or a tap elsewhere hides it. @param {PointerEvent} e */
    function onTap(e) {
        if (e.pointerType === "mouse") return;
        const at = tipped(e.target);
        if (!at || at.closest("button")) {
            if (pinned) hide();
            return;
        }
        if (pinned && anchor === at) hide();
        else show(at, true);
    }
    /** @param {PointerEvent} e */
    function onDocDown(e) {
        if (pinned && !(e.target instanceof Node && (host.contains(e.target)))) hide();
    }
    /** @param {KeyboardEvent} e */
    function onKey(e) {
        if (e.key === "Escape" && !el.hidden) hide();
    }
    const onMove = () => { if (!el.hidden) place(); };

    /** @type {[EventTarget, string, (e: any) => void, boolean][]} */
    const listeners = [[host, "pointerover", onOver, false], [host, "pointerout", onOut, false],
        [host, "focusin", onFocus, false], [host, "focusout", onBlur, false], [host, "pointerup", onTap, false],
        [host, "keydown", onKey, false], [document, "pointerdown", onDocDown, false],
        [window, "scroll", onMove, true], [window, "resize", onMove, false]];
    for (const [target, type, fn, capture] of listeners) target.addEventListener(type, fn, capture);

    return {
        el,
        /** After a redraw: the same card again (by its data-key), or none. */
        refresh() {
            if (!anchor || anchor.isConnected) { place(); return; }
            const again = anchorKey ? host.querySelector(`[data-key="${CSS.escape(anchorKey)}"]`) : null;
            if (again && TIPS.has(again)) show(again, pinned);
            else hide();
        },
        hide,
        destroy() {
            for (const [target, type, fn, capture] of listeners) target.removeEventListener(type, fn, capture);
            el.remove();
        },
    };
}
