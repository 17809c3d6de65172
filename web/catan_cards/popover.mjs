// popover.mjs -- the whole text of a card (or region, piece, token, event)
// in one popover: shown while the pointer is over it, while it has the
// keyboard focus, and on a tap until the next tap elsewhere.  Elements say
// what they explain with `data-pop` ("card:abbey", "region:forest:4:2");
// the view says what each key shows.  The popover lives in the top layer
// (the Popover API): nothing clips it, and it is placed inside the window.
// It holds the text of the one element it explains, and is emptied when
// hidden, so the page holds no card text it does not show.
import {h, tipCeiling} from "../cards/dom.mjs";

/**
 * @param {HTMLElement} host  the element whose descendants carry data-pop
 * @param {(key: string) => Node[] | null} content
 * @returns {{el: HTMLElement, refresh: () => void, destroy: () => void}}
 */
export function createPopover(host, content) {
    const id = `ct-pop-${Math.random().toString(36).slice(2, 8)}`;
    const pop = h("div", {class: "ct-pop", id, role: "tooltip", popover: "manual"});
    /** @type {HTMLElement | null} */
    let trigger = null;
    let pinned = false;

    /** @param {EventTarget | null} target */
    const popOf = (target) => target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest("[data-pop]")) : null;

    /** @param {HTMLElement} el  @param {boolean} pin */
    function show(el, pin) {
        const kids = content(el.dataset.pop ?? "");
        if (!kids) return;
        if (trigger && trigger !== el) trigger.removeAttribute("aria-describedby");
        trigger = el;
        pinned = pin;
        pop.replaceChildren(...kids);
        el.setAttribute("aria-describedby", id);
        if (!pop.matches(":popover-open")) pop.showPopover();
        place(el);
    }

    function hide() {
        if (pop.matches(":popover-open")) pop.hidePopover();
        pop.replaceChildren();
        trigger?.removeAttribute("aria-describedby");
        trigger = null;
        pinned = false;
    }

    /** Below the element, or above it when there is no room below; always inside the window. @param {HTMLElement} el */
    function place(el) {
        const r = el.getBoundingClientRect();
        const vw = document.documentElement.clientWidth, vh = window.innerHeight;
        pop.style.maxWidth = `${Math.min(320, vw - 16)}px`;
        const w = pop.offsetWidth, ph = pop.offsetHeight;
        const left = Math.max(8, Math.min(r.left + r.width / 2 - w / 2, vw - w - 8));
        const ceiling = tipCeiling() + 8;
        let top = r.bottom + 6;
        if (top + ph > vh - 8 && r.top - ph - 6 >= ceiling) top = r.top - ph - 6;
        top = Math.max(ceiling, Math.min(top, vh - ph - 8));
        pop.style.left = `${left}px`;
        pop.style.top = `${top}px`;
    }

    /** @param {PointerEvent} e */
    const over = (e) => {
        if (e.pointerType === "touch" || pinned) return;
        const el = popOf(e.target);
        if (el && el !== trigger) show(el, false);
    };
    /** @param {PointerEvent} e */
    const out = (e) => {
        if (pinned || !trigger || e.pointerType === "touch") return;
        const to = e.relatedTarget;
        if (to instanceof Node && trigger.contains(to)) return;
        if (document.activeElement === trigger && trigger.matches(":focus-visible")) return;
        hide();
    };
    /** @param {FocusEvent} e */
    const focusIn = (e) => {
        const el = popOf(e.target);
        if (el && el === e.target && el.matches(":focus-visible")) show(el, false);
    };
    const focusOut = () => { if (!pinned) hide(); };
    /** A tap shows the popover until the next tap elsewhere. @param {MouseEvent} e */
    const click = (e) => {
        const el = popOf(e.target);
        if (!el) return;
        const touch = e instanceof PointerEvent && e.pointerType === "touch";
        if (touch) {
            if (pinned && trigger === el) hide();
            else show(el, true);
        }
    };
    /** @param {PointerEvent} e */
    const away = (e) => {
        if (!pinned || !trigger) return;
        if (e.target instanceof Node && (trigger.contains(e.target) || pop.contains(e.target))) return;
        hide();
    };
    /** @param {KeyboardEvent} e */
    const key = (e) => { if (e.key === "Escape" && trigger) hide(); };
    const scrolled = () => { if (trigger) place(trigger); };

    /** @type {[EventTarget, string, (e: any) => void, boolean][]} */
    const listeners = [[host, "pointerover", over, false], [host, "pointerout", out, false],
                       [host, "focusin", focusIn, false], [host, "focusout", focusOut, false], [host, "click", click, false],
                       [document, "pointerdown", away, true], [document, "keydown", key, false],
                       [window, "scroll", scrolled, true], [window, "resize", scrolled, false]];
    for (const [target, type, fn, capture] of listeners) target.addEventListener(type, fn, capture);

    return {
        el: pop,
        /** After a redraw: the popover follows its element when it is still there (same data-pop, focused or hovered), else goes. */
        refresh() {
            if (!trigger || trigger.isConnected) return;
            const keyOf = trigger.dataset.pop;
            const focused = document.activeElement instanceof HTMLElement && host.contains(document.activeElement)
                ? document.activeElement : null;
            const again = focused?.dataset.pop === keyOf ? focused
                : [...host.querySelectorAll("[data-pop]")].find((el) => el instanceof HTMLElement &&
                    el.dataset.pop === keyOf && (pinned || el.matches(":hover")));
            if (again instanceof HTMLElement) show(again, pinned);
            else hide();
        },
        destroy() {
            hide();
            for (const [target, type, fn, capture] of listeners) target.removeEventListener(type, fn, capture);
        },
    };
}
