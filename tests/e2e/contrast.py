"""WCAG 2.x contrast of the text a page shows: every visible element with text of its own
under a selector (SVG text aside: it is painted on shapes), its colour against the first opaque background behind it (a gradient:
each of its colours, the worst counts).  AA: 4.5:1, large text (24px, or 18.66px bold) 3:1."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

_JS = r"""(sel) => {
  const rgb = (s) => { const m = String(s).match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map((x) => parseFloat(x)); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const backs = (node) => {
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const grad = cs.backgroundImage && cs.backgroundImage.includes('gradient')
        ? (cs.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map(rgb) : [];
      if (grad.length) return grad;
      const c = rgb(cs.backgroundColor);
      if (c && c.a > 0.5) return [c];
    }
    return [{ r: 255, g: 255, b: 255, a: 1 }];
  };
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    for (const e of [root, ...root.querySelectorAll('*')]) {
      const own = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join(' ').trim();
      if (!own || e.closest('svg')) continue;    // SVG text: painted on shapes, not boxes
      const r = e.getBoundingClientRect();
      const cs = getComputedStyle(e);
      if (!r.width || !r.height || cs.visibility === 'hidden' || cs.display === 'none') continue;
      let op = 1;
      for (let n = e; n && n.nodeType === 1; n = n.parentElement) op *= parseFloat(getComputedStyle(n).opacity);
      if (op < 0.6) continue;      // disabled controls (WCAG exempts inactive components)
      const fg = rgb(cs.color);
      const size = parseFloat(cs.fontSize), bold = parseInt(cs.fontWeight, 10) >= 700;
      const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
      const worst = Math.min(...backs(e).map((b) => ratio(fg, b)));
      if (worst < need) out.push({ text: own.slice(0, 60), ratio: Math.round(worst * 100) / 100, need, color: cs.color, id: e.id || e.className });
    }
  }
  return out;
}"""


def low_contrast(page: Page, selector: str) -> list[dict[str, Any]]:
    """The text under ``selector`` below WCAG AA contrast (empty: all readable)."""
    return list(page.evaluate(_JS, selector))
