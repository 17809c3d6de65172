// panzoom.mjs -- pan (drag) and zoom (wheel, pinch, buttons, keys) of one
// <g> inside an <svg>.
//
// The world group carries `translate(tx,ty) scale(k)`: a world point p is
// shown at tx + k p in the svg's pixels.  A drag of more than a few pixels
// pans and swallows the click that ends it, so that a click on a spot
// still chooses it and a drag that starts on one does not.  Two pointers
// pinch.  Until the user pans or zooms, the view keeps fitting the board.
// The scale is also the svg's CSS variable --carc-k, so that controls
// drawn on the board keep a finger's size on the screen (carcassonne.css).
// On a narrow screen a fitted board is never shown smaller than half size:
// a tile stays big enough to touch, and the part that matters is centred.

/** @typedef {{x0: number, y0: number, x1: number, y1: number}} Box */

const MIN_K = 0.15, MAX_K = 4, DRAG = 6;
/** The smallest fitted scale on a screen narrower than NARROW pixels. */
const MIN_FIT_NARROW = 0.5, NARROW = 520;

/**
 * @param {SVGSVGElement} el @param {SVGGElement} world
 */
export function createPanZoom(el, world) {
  let k = 1, tx = 0, ty = 0;
  /** whether the user moved the view (then we stop fitting it) */
  let moved = false;
  /** @type {Map<number, {x: number, y: number}>} */
  const pointers = new Map();
  let dragged = false, startX = 0, startY = 0, pinch = 0;

  let shownK = "";
  const apply = () => {
    const ks = k.toFixed(4);
    world.setAttribute("transform", `translate(${tx.toFixed(1)},${ty.toFixed(1)}) scale(${ks})`);
    // a change of the variable restyles the whole board: only when the scale changed
    if (ks !== shownK) el.style.setProperty("--carc-k", shownK = ks);
  };

  /** @param {number} factor @param {number} px @param {number} py */
  function zoomAt(factor, px, py) {
    const nk = Math.min(MAX_K, Math.max(MIN_K, k * factor));
    tx = px - (px - tx) * nk / k;
    ty = py - (py - ty) * nk / k;
    k = nk;
    moved = true;
    apply();
  }

  /** @param {number} dx @param {number} dy */
  function panBy(dx, dy) {
    tx += dx, ty += dy;
    moved = true;
    apply();
  }

  const size = () => {
    const r = el.getBoundingClientRect();
    return {w: r.width || 300, h: r.height || 300};
  };

  /** @param {PointerEvent | WheelEvent} ev */
  const local = (ev) => {
    const r = el.getBoundingClientRect();
    return {x: ev.clientX - r.left, y: ev.clientY - r.top};
  };

  /**
   * Shows the whole box, with a margin, at most at natural size; the right
   * margin leaves room for the zoom buttons (carcassonne.css, .carc-zoom),
   * which would hide a place on a narrow board.  When a narrow screen
   * cannot show it all at half size, the middle of `centre` is shown.
   * @param {Box} box @param {boolean} [force] also after the user moved the view
   * @param {Box} [centre] what matters most (the places to choose from)
   */
  function fit(box, force = false, centre = box) {
    if (moved && !force) return;
    const {w, h} = size(), pad = 24, right = 52;
    const bw = box.x1 - box.x0, bh = box.y1 - box.y0;
    const least = w < NARROW ? MIN_FIT_NARROW : MIN_K;
    k = Math.min(1.6, Math.max(least, Math.min((w - pad - right) / bw, (h - 2 * pad) / bh)));
    const whole = k * bw <= w - pad - right && k * bh <= h - 2 * pad;
    const c = whole ? box : centre;
    tx = (pad + w - right - k * (c.x0 + c.x1)) / 2;
    ty = (h - k * (c.y0 + c.y1)) / 2;
    if (force) moved = false;
    apply();
  }

  /**
   * Pans the least needed for a world box to be in view.
   * @param {Box} box
   */
  function reveal(box) {
    const {w, h} = size(), pad = 16;
    const x0 = tx + k * box.x0, x1 = tx + k * box.x1, y0 = ty + k * box.y0, y1 = ty + k * box.y1;
    let dx = 0, dy = 0;
    if (x0 < pad) dx = pad - x0; else if (x1 > w - pad) dx = w - pad - x1;
    if (y0 < pad) dy = pad - y0; else if (y1 > h - pad) dy = h - pad - y1;
    if (dx || dy) tx += dx, ty += dy, apply();
  }

  /**
   * Zooms in to at least scale minK if needed and shows the box: for the
   * follower spots of one tile, which are small when the board is large.
   * @param {Box} box @param {number} minK
   */
  function focus(box, minK) {
    const {w, h} = size(), pad = 12;
    const most = Math.min((w - 2 * pad) / (box.x1 - box.x0), (h - 2 * pad) / (box.y1 - box.y0));
    if (k < minK) {
      k = Math.max(k, Math.min(minK, MAX_K, most));
      tx = w / 2 - k * (box.x0 + box.x1) / 2;
      ty = h / 2 - k * (box.y0 + box.y1) / 2;
      apply();
    }
    reveal(box);
  }

  /** @param {PointerEvent} ev */
  function down(ev) {
    if (ev.button !== 0 && ev.pointerType === "mouse") return;
    pointers.set(ev.pointerId, local(ev));
    if (pointers.size === 1) {
      dragged = false;
      startX = ev.clientX, startY = ev.clientY;
    } else if (pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
      dragged = true;
    }
  }

  /** @param {PointerEvent} ev */
  function move(ev) {
    const prev = pointers.get(ev.pointerId);
    if (!prev) return;
    const now = local(ev);
    if (pointers.size === 1) {
      if (!dragged && Math.hypot(ev.clientX - startX, ev.clientY - startY) < DRAG) return;
      if (!dragged) el.setPointerCapture(ev.pointerId);
      dragged = true;
      panBy(now.x - prev.x, now.y - prev.y);
    } else if (pointers.size === 2) {
      pointers.set(ev.pointerId, now);
      const [a, b] = Array.from(pointers.values());
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch > 0 && d > 0) zoomAt(d / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch = d;
      return;
    }
    pointers.set(ev.pointerId, now);
  }

  /** @param {PointerEvent} ev */
  function up(ev) {
    pointers.delete(ev.pointerId);
    if (pointers.size < 2) pinch = 0;
  }

  /** A click that ends a drag is not a click. @param {MouseEvent} ev */
  function click(ev) {
    if (!dragged) return;
    dragged = false;
    ev.stopPropagation();
    ev.preventDefault();
  }

  /** @param {WheelEvent} ev */
  function wheel(ev) {
    ev.preventDefault();
    const p = local(ev);
    const unit = ev.deltaMode === 1 ? 20 : ev.deltaMode === 2 ? 300 : 1;
    zoomAt(Math.exp(-ev.deltaY * unit * 0.0015), p.x, p.y);
  }

  el.addEventListener("pointerdown", down);
  el.addEventListener("pointermove", move);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("click", click, true);
  el.addEventListener("wheel", wheel, {passive: false});
  apply();

  return {
    fit,
    reveal,
    /** The scale: screen pixels per board unit. */
    scale: () => k,
    focus,
    panBy,
    /** Zooms by factor about the middle of the board. @param {number} factor */
    zoom(factor) {
      const {w, h} = size();
      zoomAt(factor, w / 2, h / 2);
    },
    destroy() {
      el.removeEventListener("pointerdown", down);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      el.removeEventListener("click", click, true);
      el.removeEventListener("wheel", wheel);
    },
  };
}
