// 004 Kriegspiel & The Fog Of War (option `kriegspiel`): the view of a fogged game carries
// `fog` = {side, detected: [enemy unit ids on this side's board], ranges: {own unit id:
// battle range}}; undetected enemy units are simply absent from `view.units`.  This module
// draws the side's own detection range on demand (a veil over the hexes none of its units
// sees), the "fog" legend, the spectator's choice of side, and log texts of fogged events.
import { svg, el, sideName } from './util.js';
import { polygonPoints } from './hex.js';

// hex distance on the doubled-width (row, col) grid
export function hexDistance(a, b) {
  const dr = Math.abs(a[0] - b[0]), dc = Math.abs(a[1] - b[1]);
  return dr + Math.max(0, (dc - dr) / 2);
}

// hexes of the board seen by the viewer's units (Set of "r,c"); null without fog
export function seenHexes(view, allHexes) {
  const fog = view && view.fog;
  if (!fog || !fog.ranges || view.game_over) return null;
  const eyes = (view.units || []).filter((u) => u.hex && fog.ranges[u.id] !== undefined)
    .map((u) => [u.hex, fog.ranges[u.id]]);
  const out = new Set();
  for (const h of allHexes) {
    if (eyes.some(([e, r]) => hexDistance(e, h) <= r)) out.add(`${h[0]},${h[1]}`);
  }
  return out;
}

// the veil over hexes outside the detection range (drawn into `layer` when `on`)
export function drawVeil(layer, geo, view, on) {
  if (!on) return;
  const seen = seenHexes(view, geo.allHexes());
  if (!seen) return;
  const g = svg('g', { class: 'fog-veil', 'data-seen': seen.size });
  for (const h of geo.allHexes()) {
    if (seen.has(`${h[0]},${h[1]}`)) continue;
    const [cx, cy] = geo.center(h);
    g.append(svg('polygon', { points: polygonPoints(cx, cy, 0.98), class: 'fog-hex', 'data-fog': `${h[0]},${h[1]}`,
                              fill: '#9aa3ad', 'fill-opacity': 0.55, stroke: 'none' }));
  }
  layer.append(g);
}

// the legend box (side panel) of a fogged game; onToggle(bool) shows / hides the range
export function fogLegend(view, showing, onToggle, watching) {
  const fog = view && view.fog;
  if (!fog || view.game_over) return null;
  const n = (fog.detected || []).length;
  const box = el('div', { class: 'side-box fog-box', id: 'fog-box', 'data-detected': n, style: 'flex:0 0 auto;border-left-color:#7d8793',
    title: 'Kriegspiel & The Fog Of War (optional rule): an enemy unit is on your board only while it is within the battle range of one of your units (a camouflaged one: next to one of them). The opponent\'s cards and orders are hidden.' },
  el('b', {}, 'Fog of war'),
  el('div', { class: 'muted' }, fog.side ? `${sideName(fog.side)} board: ${n} enemy unit${n === 1 ? '' : 's'} in sight` : `what both sides see: ${n} unit${n === 1 ? '' : 's'} in contact`));
  if (fog.side) {
    const cb = el('input', { type: 'checkbox', id: 'fog-range' });
    cb.checked = !!showing;
    cb.addEventListener('change', () => onToggle(cb.checked));
    box.append(el('label', { class: 'muted', for: 'fog-range' }, cb, ' show my detection range'));
  }
  if (watching !== undefined) box.append(watchLinks(watching));
  return box;
}

// a spectator's choice: watch one side's board, or what both sides see
function watchLinks(current) {
  const wrap = el('div', { class: 'muted', id: 'fog-watch' }, 'Watch: ');
  for (const [side, label] of [['', 'both (public)'], ['AXIS', sideName('AXIS')], ['ALLIES', sideName('ALLIES')]]) {
    const u = new URL(location.href);
    if (side) u.searchParams.set('watch', side); else u.searchParams.delete('watch');
    const a = el('a', { href: u.toString(), 'data-watch': side || 'public' }, label);
    if ((current || '') === side) a.style.fontWeight = 'bold';
    wrap.append(a, ' ');
  }
  return wrap;
}

function hexText(h) { return Array.isArray(h) ? `(${h[0]},${h[1]})` : ''; }

// log texts of the fogged events (a hidden end of a move, an unseen firer, detection)
export const FOG_TEXT = {
  detection_changed: (e, n) => [
    (e.detected || []).length ? `Spotted: ${e.detected.map(n).join(', ')}` : '',
    (e.camouflaged || []).length ? `camouflaged unit${e.camouflaged.length > 1 ? 's' : ''} in close assault at ${e.camouflaged.map(hexText).join(', ')}` : '',
    (e.lost || []).length ? `lost from sight: ${e.lost.map(n).join(', ')}` : ''].filter(Boolean).join('; '),
};

export function fogMoveText(e, n, verb) {
  if (e.to === null && e.from) return `${n(e.unit)} ${verb} ${hexText(e.from)} → out of sight`;
  if (e.from === null && e.to) return `${n(e.unit)} ${verb} into sight at ${hexText(e.to)}`;
  return null;
}
