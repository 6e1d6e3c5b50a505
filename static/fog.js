// 004 Kriegspiel & The Fog Of War (option `kriegspiel`): the view of a fogged game carries
// `fog` = {side, detected: [enemy unit ids on this side's board], ranges: {own unit id:
// battle range}}; undetected enemy units are simply absent from `view.units`.  This module
// draws the side's own detection range on demand (a veil over the hexes none of its units
// sees), the "fog" legend, the spectator's choice of side, and log texts of fogged events.
import { svg, el, sideName } from './util.js';
import { polygonPoints } from './hex.js';
import { t, tn } from './i18n.js';

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
    title: t('Kriegspiel & The Fog Of War (optional rule): an enemy unit is on your board only while it is within the battle range of one of your units (a camouflaged one: next to one of them). The opponent\'s cards and orders are hidden.') },
  el('b', {}, t('Fog of war')),
  el('div', { class: 'muted' }, fog.side ? tn('{side} board: {n} enemy unit in sight', '{side} board: {n} enemy units in sight', n, { side: sideName(fog.side) }) : tn('what both sides see: {n} unit in contact', 'what both sides see: {n} units in contact', n)));
  if (fog.side) {
    const cb = el('input', { type: 'checkbox', id: 'fog-range' });
    cb.checked = !!showing;
    cb.addEventListener('change', () => onToggle(cb.checked));
    box.append(el('label', { class: 'muted', for: 'fog-range' }, cb, ' ', t('show my detection range')));
  }
  if (watching !== undefined) box.append(watchLinks(watching));
  return box;
}

// a spectator's choice: watch one side's board, or what both sides see
function watchLinks(current) {
  const wrap = el('div', { class: 'muted', id: 'fog-watch' }, `${t('Watch:')} `);
  for (const [side, label] of [['', t('both (public)')], ['AXIS', sideName('AXIS')], ['ALLIES', sideName('ALLIES')]]) {
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
    (e.detected || []).length ? t('Spotted: {units}', { units: e.detected.map(n).join(', ') }) : '',
    (e.camouflaged || []).length ? tn('camouflaged unit in close assault at {hexes}', 'camouflaged units in close assault at {hexes}', e.camouflaged.length, { hexes: e.camouflaged.map(hexText).join(', ') }) : '',
    (e.lost || []).length ? t('lost from sight: {units}', { units: e.lost.map(n).join(', ') }) : ''].filter(Boolean).join('; '),
  move_stopped: (e, n) => t('{unit} stopped by the referee at {hex}: an enemy unit ahead', { unit: n(e.unit), hex: hexText(e.hex) }),
};

// how: 'move', 'retreat' or 'take_ground' (the event's)
const OUT_OF_SIGHT = {
  move: (u, h) => t('{unit} moves {from} → out of sight', { unit: u, from: h }),
  retreat: (u, h) => t('{unit} retreats {from} → out of sight', { unit: u, from: h }),
  take_ground: (u, h) => t('{unit} takes ground {from} → out of sight', { unit: u, from: h }),
};
const INTO_SIGHT = {
  move: (u, h) => t('{unit} moves into sight at {hex}', { unit: u, hex: h }),
  retreat: (u, h) => t('{unit} retreats into sight at {hex}', { unit: u, hex: h }),
  take_ground: (u, h) => t('{unit} takes ground into sight at {hex}', { unit: u, hex: h }),
};
export function fogMoveText(e, n, how) {
  if (e.to === null && e.from) return (OUT_OF_SIGHT[how] || OUT_OF_SIGHT.move)(n(e.unit), hexText(e.from));
  if (e.from === null && e.to) return (INTO_SIGHT[how] || INTO_SIGHT.move)(n(e.unit), hexText(e.to));
  return null;
}
