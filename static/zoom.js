// Board zoom and pan for small screens: the board fills the width; on a phone it opens
// zoomed so that hexes are ~40 px wide (the Overlord board more than the standard one),
// and the player zooms with the +/−/fit buttons or a two-finger pinch, and pans by
// scrolling (one finger) inside the board's frame.
import { el } from './util.js';
import { t } from './i18n.js';

const TARGET_HEX_PX = 40;

export class BoardZoom {
  constructor(wrap) {
    this.wrap = wrap;
    this.scroll = el('div', { class: 'board-scroll' });
    this.zoom = 1;
    this.auto = true;
    const bar = el('div', { class: 'zoom-bar' },
      el('button', { type: 'button', id: 'zoom-out', title: t('Zoom out'), 'aria-label': t('Zoom out'), onclick: () => this.by(1 / 1.4) }, '−'),
      el('button', { type: 'button', id: 'zoom-fit', title: t('Fit the board to the width'), 'aria-label': t('Fit the board to the width'), onclick: () => this.set(1) }, '⤢'),
      el('button', { type: 'button', id: 'zoom-in', title: t('Zoom in'), 'aria-label': t('Zoom in'), onclick: () => this.by(1.4) }, '+'));
    wrap.append(bar, this.scroll);
    // a new board drawing (flip, reconnect) keeps the zoom
    new MutationObserver(() => this.apply()).observe(this.scroll, { childList: true });
    this.pinch();
  }
  get container() { return this.scroll; }
  // the zoom a phone opens with: hexes ~40 px wide (1 on a wide screen)
  fitFor(board) {
    if (!this.auto || !board) return;
    const w = this.scroll.clientWidth || this.wrap.clientWidth;
    const hexes = (board.max_col || 25) / 2 + 1;
    const z = w && w < 800 ? (TARGET_HEX_PX * hexes) / w : 1;
    this.set(Math.max(1, Math.min(3.5, z)), false);
  }
  by(f) { this.set(this.zoom * f); }
  set(z, user = true) {
    if (user) this.auto = false;
    const old = this.zoom;
    this.zoom = Math.max(1, Math.min(4, z));
    const s = this.scroll;
    const cx = (s.scrollLeft + s.clientWidth / 2) / (s.scrollWidth || 1);
    const cy = (s.scrollTop + s.clientHeight / 2) / (s.scrollHeight || 1);
    this.apply();
    if (old !== this.zoom) {          // keep the same point in the middle
      s.scrollLeft = cx * s.scrollWidth - s.clientWidth / 2;
      s.scrollTop = cy * s.scrollHeight - s.clientHeight / 2;
    }
    this.wrap.dataset.zoom = this.zoom.toFixed(2);
  }
  apply() {
    const svg = this.scroll.querySelector('svg.board-svg');
    if (svg) { svg.style.width = `${this.zoom * 100}%`; svg.style.maxWidth = 'none'; }
  }
  pinch() {
    let start = null;
    const dist = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
    this.scroll.addEventListener('touchstart', (ev) => {
      if (ev.touches.length === 2) { start = { d: dist(ev.touches), z: this.zoom }; ev.preventDefault(); }
    }, { passive: false });
    this.scroll.addEventListener('touchmove', (ev) => {
      if (start && ev.touches.length === 2) { ev.preventDefault(); this.set(start.z * dist(ev.touches) / (start.d || 1)); }
    }, { passive: false });
    this.scroll.addEventListener('touchend', (ev) => { if (ev.touches.length < 2) start = null; });
  }
}
