// motion.mjs -- numbers that move: a score counting up to its new value
// after a change.  Nothing moves for a player who asked for less motion
// (prefers-reduced-motion); the CSS animations stop there too (view.css).
export {};

/** Whether the player asked for less motion. */
export function lessMotion() {
    return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Shows `to` in el, counting from `from` first (about a second).
 * @param {HTMLElement} el
 * @param {number} from
 * @param {number} to
 */
export function countUp(el, from, to) {
    el.textContent = String(to);
    if (from === to || lessMotion()) return;
    const start = performance.now(), ms = 900;
    el.textContent = String(from);
    /** @param {number} now */
    const step = (now) => {
        if (!el.isConnected) return;
        const k = Math.min(1, (now - start) / ms);
        el.textContent = String(Math.round(from + (to - from) * (1 - (1 - k) ** 3)));
        if (k < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
}
