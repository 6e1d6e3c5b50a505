// How each terrain family looks and what the tooltip says about it.
// Purely presentational: the rules live in the engine. If the server sends a tile
// "effect"/"summary" text, the tooltip shows that instead of the text below.
import { W, H, edgePoint } from './hex.js';
import { svg } from './util.js';
import { t, LANG } from './i18n.js';

export const FACE_BASE = {
  COUNTRY: '#c9d59b', WINTER: '#e4eaee', DESERT: '#e3cf98', BEACH: '#c9d59b',
};

// family -> { fill, label, desc, pattern }
export const FAMILIES = {
  open:     { fill: null, label: '', desc: t('Open countryside: no effect.') },
  forest:   { fill: '#5d8a3f', pattern: 'pat-forest', label: t('Woods'),
              desc: t('Woods: units entering must stop and cannot battle this turn. Battle into it: Infantry -1 die, Armor -2. Blocks line of sight.') },
  jungle:   { fill: '#3f7a45', pattern: 'pat-jungle', label: t('Jungle'),
              desc: t('Jungle: must stop. Battle into it: Infantry -1, Armor -2. Blocks line of sight.') },
  hedgerow: { fill: '#7fa257', pattern: 'pat-hedgerow', label: t('Hedgerow'),
              desc: t('Hedgerow: may only be entered from an adjacent hex; must stop; cannot battle the turn it enters. Battle into it: Infantry -1, Armor -2. Blocks line of sight.') },
  village:  { fill: '#d1c0a2', pattern: 'pat-village', label: t('Town'),
              desc: t('Town / village: must stop, cannot battle the turn it enters; Armor inside battles at -2. Battle into it: Infantry -1, Armor -2. Blocks line of sight.') },
  fortress: { fill: '#a89f95', pattern: 'pat-village', label: t('Fortress'),
              desc: t('Fortress: impassable to Armor and Artillery. Battle into it: Infantry -1, Armor -2. Occupant may ignore flags.') },
  hill:     { fill: '#bfa36a', pattern: 'pat-hill', label: t('Hill'),
              desc: t('Hill: battle into it from lower ground: Infantry and Armor -1 die. Blocks line of sight (except along the same hill mass).') },
  mountain: { fill: '#9a8a78', pattern: 'pat-mountain', label: t('Mountain'),
              desc: t('Mountain: impassable to Armor and Artillery; Infantry enter only from a hill. Battle into it: Infantry and Armor -2. Blocks line of sight.') },
  lake:     { fill: '#6e9fd0', label: t('Lake'), desc: t('Lake: impassable.') },
  river:    { line: '#4f8fd6', label: t('River'), desc: t('River: impassable except over a bridge or ford.') },
  ford:     { line: '#7db3e6', label: t('Ford'), desc: t('Ford: must stop; units in it battle at -1 die.') },
  bridge:   { label: t('Bridge'), desc: t('Bridge: lets units cross the river on this hex.') },
  road:     { line: '#d9c391', label: '', desc: t('Road: a unit that moves only along the road gets +1 hex of movement.') },
  rail:     { line: '#4a4036', label: t('Rail'), desc: t('Railroad: Armor and Artillery must stop.') },
  beach:    { fill: '#ead9a4', pattern: 'pat-beach', label: t('Beach'),
              desc: t('Beach: moves onto or across beach hexes are limited to 2 hexes.') },
  ocean:    { fill: '#5f93c8', pattern: 'pat-ocean', label: t('Sea'),
              desc: t('Ocean: units entering must stop and cannot battle from it; never a retreat hex.') },
  marsh:    { fill: '#9db58f', pattern: 'pat-marsh', label: t('Marsh'),
              desc: t('Marsh: must stop; leaving is a 1-hex move; impassable to Artillery. Armor cannot battle the turn it enters or leaves.') },
  bunker:   { label: t('Bunker'), desc: t('Bunker: impassable to Armor and Artillery. Battle into it: Infantry -1, Armor -2 (protects its owner). Occupant may ignore 1 flag. Blocks line of sight.') },
  sandbag:  { label: t('Sandbags'), desc: t('Sandbags: battle into it: Infantry and Armor -1 die. Occupant may ignore 1 flag. Removed when the unit leaves.') },
  wire:     { label: t('Wire'), desc: t('Barbed wire: must stop; Infantry battling from it -1 die; Armor entering removes it. Infantry may remove it instead of battling.') },
  hedgehog: { label: t('Hedgehog'), desc: t('Hedgehogs: impassable to Armor and Artillery. Occupant may ignore 1 flag.') },
  trench:   { line: '#6b5233', label: t('Trench'), desc: t('Trenches: must stop; impassable to Artillery; Armor inside cannot battle. Battle into it: Infantry and Armor -1. Infantry may ignore 1 flag.') },
  ravine:   { fill: '#b8a27e', pattern: 'pat-hill', label: t('Ravine'), desc: t('Ravine: impassable to Armor and Artillery. Occupant may ignore 1 flag.') },
  wadi:     { fill: '#d6bf8a', line: '#a88652', label: t('Wadi'), desc: t('Wadi: enter and leave only by its open ends. Battle into it: -1 die unless the attacker is in a wadi.') },
  oasis:    { fill: '#8fbf6a', label: t('Oasis'), desc: t('Oasis: must stop. Battle into it: -1 die. Blocks line of sight.') },
  airfield: { fill: '#b9b6a8', label: t('Airfield'), desc: t('Airfield: no effect on movement or battle.') },
  cemetery: { fill: '#b7c29a', label: t('Cemetery'), desc: t('Cemetery: occupant may ignore 1 flag.') },
  dam:      { fill: '#a7a7a7', label: t('Dam'), desc: t('Dam: occupant may ignore 1 flag. Blocks line of sight.') },
  roadblock:{ label: t('Roadblock'), desc: t('Road block: must stop; impassable to Armor and Artillery. Battle into it: Infantry and Armor -1.') },
  hq:       { fill: '#c7b48a', pattern: 'pat-village', label: t('HQ'), desc: t('HQ / supply / hospital tents. Blocks line of sight.') },
  minefield:{ label: t('Mines'), desc: t('Minefield: units entering must stop (no take ground out of it that turn); enemies entering roll dice for hits.') },
  broken_bridge: { label: t('Broken bridge'), desc: t('Broken bridge: no longer lets units cross the river.') },
  depot:    { fill: '#c7b48a', pattern: 'pat-village', label: t('Depot'), desc: t('Supply depot. Blocks line of sight.') },
  dragonteeth: { label: t("Dragon's teeth"), desc: t("Dragon's teeth: must stop; impassable to Armor and Artillery.") },
  escarpment: { fill: '#8b7560', pattern: 'pat-mountain', label: t('Escarpment'), desc: t('Escarpment: impassable. Blocks line of sight.') },
  frozen_river: { line: '#bfe0f5', label: t('Frozen river'), desc: t('Frozen river: passable, but a unit moving or retreating onto it rolls 2 dice: each star is a hit.') },
  stream:   { line: '#7db3e6', label: t('Stream'), desc: t('Fordable stream: units entering must stop.') },
  highground: { fill: null, label: '', desc: t('High ground: no rule effect.') },
  hospital: { fill: '#d8cfb8', pattern: 'pat-village', label: t('Hospital'), desc: t('Hospital. Blocks line of sight.') },
  pier:     { line: '#8a6a45', label: t('Pier'), desc: t('Pier.') },
  rice:     { fill: '#a9c28a', pattern: 'pat-marsh', label: t('Rice'), desc: t('Rice paddies: as marsh — must stop; leaving is a 1-hex move; impassable to Artillery.') },
  seawall:  { label: t('Sea wall'), desc: t('Sea wall: battle into it: Infantry and Armor -1 die (protects its owner). Occupant may ignore 1 flag.') },
  smoke:    { label: t('Smoke'), desc: t('Smoke screen: blocks line of sight.') },
  unknown:  { fill: '#e7b0d8', pattern: 'pat-unknown', label: '?', desc: t('Terrain not recognised by this client.') },
};

export function familyOf(tile) {
  return FAMILIES[tile.family] ? tile.family : 'unknown';
}

// The server's own text (English) for a tile, unless the page is in another language and
// this client knows the family: then its translated text.
export function tileDescription(tile) {
  const f = FAMILIES[familyOf(tile)];
  if (LANG !== 'en' && familyOf(tile) !== 'unknown') return f.desc;
  if (tile.effect) return tile.effect;
  if (tile.summary) return tile.summary;
  return f.desc;
}

// Shape of a linear tile (river/road/rail/trench/wadi) from its code.
export function lineShape(code) {
  const c = (code || '').toLowerCase();
  if (c.includes('curve') || c === 'pond' || c === 'pmouth') return 'curve';
  if (/x$/.test(code)) return 'x';
  if (/y$/.test(code)) return 'y';
  if (/fl$/i.test(code)) return 'fl';
  if (/fr$/i.test(code)) return 'fr';
  return 'straight';
}

// Edge directions (screen degrees) joined by a linear tile at an orientation 1..6.
// Straight tiles: E-W at orientation 1, each step turns 120 degrees.
// Curves/forks: NE+SE at orientation 1, each step turns -60 degrees.
export function lineEdges(code, orientation) {
  const o = (orientation || 1) - 1;
  const norm = (d) => ((d % 360) + 360) % 360;
  switch (lineShape(code)) {
    case 'curve': return [[norm(300 - 60 * o), norm(60 - 60 * o)]];
    case 'x': { const a = norm(120 * o); return [[a, a + 180], [a + 60, a + 240]]; }
    case 'y': { const a = norm(180 * o); return [[a, 'c'], [a + 120, 'c'], [a + 240, 'c']]; }
    case 'fl': { const a = norm(-60 * o); return [[a, a + 180], [a + 180, a + 300]]; }
    case 'fr': { const a = norm(-60 * o); return [[a, a + 180], [a + 180, a + 60]]; }
    default: { const a = norm(120 * o) % 180; return [[a, a + 180]]; }
  }
}

function linePath(geo, cx, cy, a, b) {
  const [x1, y1] = edgePoint(cx, cy, geo.rot(a), 1.02);
  if (b === 'c') return `M${x1},${y1} L${cx},${cy}`;
  const [x2, y2] = edgePoint(cx, cy, geo.rot(b), 1.02);
  const diff = Math.abs(((a - b) % 360 + 360) % 360);
  if (diff === 180) return `M${x1},${y1} L${x2},${y2}`;
  return `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`;
}

export function defs() {
  const d = svg('defs');
  d.innerHTML = `
  <pattern id="pat-forest" width="20" height="20" patternUnits="userSpaceOnUse">
    <rect width="20" height="20" fill="#5d8a3f"/>
    <circle cx="5" cy="6" r="4.2" fill="#3f6d2a"/><circle cx="15" cy="15" r="4.6" fill="#36612a"/>
    <circle cx="15" cy="4" r="2.6" fill="#497b33"/><circle cx="5" cy="16" r="2.4" fill="#497b33"/>
  </pattern>
  <pattern id="pat-jungle" width="16" height="16" patternUnits="userSpaceOnUse">
    <rect width="16" height="16" fill="#3f7a45"/>
    <path d="M2 14 Q5 4 8 10 Q11 2 14 12" stroke="#2a5a2f" stroke-width="2" fill="none"/>
  </pattern>
  <pattern id="pat-hedgerow" width="14" height="14" patternUnits="userSpaceOnUse">
    <rect width="14" height="14" fill="#9dbb70"/>
    <circle cx="7" cy="7" r="4" fill="#4e7b33"/>
  </pattern>
  <pattern id="pat-village" width="22" height="22" patternUnits="userSpaceOnUse">
    <rect width="22" height="22" fill="#d1c0a2"/>
    <rect x="3" y="4" width="7" height="6" fill="#f0e6d2" stroke="#7a5a3a" stroke-width="0.8"/>
    <path d="M2.5 4.5 L6.5 1 L10.5 4.5 Z" fill="#b0472f"/>
    <rect x="13" y="13" width="7" height="6" fill="#f0e6d2" stroke="#7a5a3a" stroke-width="0.8"/>
    <path d="M12.5 13.5 L16.5 10 L20.5 13.5 Z" fill="#b0472f"/>
  </pattern>
  <pattern id="pat-hill" width="24" height="14" patternUnits="userSpaceOnUse">
    <rect width="24" height="14" fill="#bfa36a"/>
    <path d="M0 10 Q6 3 12 10 T24 10" stroke="#8f7440" stroke-width="1.3" fill="none"/>
  </pattern>
  <pattern id="pat-mountain" width="20" height="16" patternUnits="userSpaceOnUse">
    <rect width="20" height="16" fill="#9a8a78"/>
    <path d="M1 14 L7 3 L13 14 Z" fill="#7b6c5c"/><path d="M6 5 L7 3 L8 5 Z" fill="#f4f4f4"/>
    <path d="M11 15 L16 7 L21 15 Z" fill="#85766a"/>
  </pattern>
  <pattern id="pat-beach" width="10" height="10" patternUnits="userSpaceOnUse">
    <rect width="10" height="10" fill="#ead9a4"/>
    <circle cx="2" cy="3" r="0.8" fill="#c4ad6c"/><circle cx="7" cy="7" r="0.8" fill="#c4ad6c"/>
  </pattern>
  <pattern id="pat-ocean" width="20" height="10" patternUnits="userSpaceOnUse">
    <rect width="20" height="10" fill="#5f93c8"/>
    <path d="M0 6 Q5 2 10 6 T20 6" stroke="#8fb8e0" stroke-width="1.2" fill="none"/>
  </pattern>
  <pattern id="pat-marsh" width="14" height="10" patternUnits="userSpaceOnUse">
    <rect width="14" height="10" fill="#9db58f"/>
    <path d="M2 4 h5 M8 8 h5" stroke="#4f86b8" stroke-width="1.2"/>
    <path d="M10 4 v-3 M11.5 4 v-2.5" stroke="#4f7a3a" stroke-width="0.8"/>
  </pattern>
  <pattern id="pat-unknown" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
    <rect width="10" height="10" fill="#efd0e6"/><path d="M0 0 v10" stroke="#c77fb3" stroke-width="3"/>
  </pattern>
  <filter id="unit-shadow" x="-20%" y="-20%" width="140%" height="140%">
    <feDropShadow dx="0.8" dy="1.2" stdDeviation="0.8" flood-opacity="0.45"/>
  </filter>`;
  return d;
}

// Draw the tiles of one hex into group `g`; `clip` is the id of the hex clip path.
export function drawTiles(g, geo, hex, tiles, face) {
  const [cx, cy] = geo.center(hex);
  const order = { engine: 0, terrain: 1, rect_terrain: 2, obstacle: 3 };
  const sorted = [...tiles].sort((a, b) => (order[a.slot] ?? 1) - (order[b.slot] ?? 1));
  for (const t of sorted) {
    const fam = familyOf(t);
    const spec = FAMILIES[fam];
    switch (fam) {
      case 'river': case 'road': case 'rail': case 'trench': case 'ford': case 'wadi': case 'frozen_river': case 'stream': case 'pier': {
        if (fam === 'wadi' && spec.fill) g.append(svg('polygon', { points: hexPts(cx, cy, 0.97), fill: spec.fill }));
        const widths = { river: 13, road: 9, rail: 3, trench: 5, ford: 13, wadi: 10, frozen_river: 13, stream: 9, pier: 10 };
        for (const [a, b] of lineEdges(t.code, t.orientation)) {
          const d = linePath(geo, cx, cy, a, b);
          if (fam === 'river' || fam === 'ford' || fam === 'frozen_river' || fam === 'stream') {
            g.append(svg('path', { d, stroke: '#2f6aa8', 'stroke-width': widths[fam] + 3, fill: 'none', 'stroke-linecap': 'butt' }));
          }
          if (fam === 'road') {
            g.append(svg('path', { d, stroke: '#a48d5a', 'stroke-width': widths[fam] + 2, fill: 'none' }));
          }
          const p = svg('path', { d, stroke: spec.line, 'stroke-width': widths[fam], fill: 'none', 'stroke-linecap': 'butt' });
          if (fam === 'trench') p.setAttribute('stroke-dasharray', '6 2');
          if (fam === 'ford') p.setAttribute('stroke-dasharray', '4 3');
          g.append(p);
          if (fam === 'rail') {
            g.append(svg('path', { d, stroke: '#4a4036', 'stroke-width': 9, 'stroke-dasharray': '2 5', fill: 'none' }));
          }
        }
        break;
      }
      case 'bridge': case 'broken_bridge': {
        // Deck perpendicular to the river base direction, turned 30 degrees per step.
        const ang = geo.rot(90 + 30 * ((t.orientation || 1) - 1));
        const broken = fam === 'broken_bridge' || /brk/.test(t.code);
        const b = svg('g', { transform: `translate(${cx},${cy}) rotate(${ang})` });
        b.append(svg('rect', { x: -W / 2 + 2, y: -8, width: W - 4, height: 16, rx: 2, fill: broken ? '#6d5a48' : '#9a6b3c', stroke: '#4c3218', 'stroke-width': 1.5 }));
        for (let i = -3; i <= 3; i++) b.append(svg('line', { x1: i * 7, y1: -8, x2: i * 7, y2: 8, stroke: '#6e4a26', 'stroke-width': 1 }));
        if (broken) b.append(svg('path', { d: 'M-4 -9 L3 0 L-4 9', stroke: '#222', 'stroke-width': 2, fill: 'none' }));
        g.append(b);
        break;
      }
      case 'bunker': {
        const b = svg('g', { transform: `translate(${cx},${cy - H * 0.22})` });
        b.append(svg('path', { d: 'M-16 6 L-12 -6 L12 -6 L16 6 Z', fill: '#8d8d88', stroke: '#4b4b48', 'stroke-width': 1.2 }));
        b.append(svg('rect', { x: -8, y: -2, width: 16, height: 3, fill: '#2b2b2b' }));
        g.append(b);
        break;
      }
      case 'sandbag': case 'seawall': {
        const top = ((t.orientation || 1) % 2 === 0) !== geo.flipped;
        const sy = top ? -1 : 1;
        for (let i = -2; i <= 2; i++) {
          const ang = (90 + i * 24) * Math.PI / 180;
          const x = cx + Math.cos(ang) * W * 0.38, y = cy + sy * Math.sin(ang) * W * 0.38;
          g.append(svg('ellipse', { cx: x, cy: y, rx: 5.5, ry: 3.5, fill: '#d9c08a', stroke: '#7d6434', 'stroke-width': 1,
                                    transform: `rotate(${-i * 24} ${x} ${y})` }));
        }
        break;
      }
      case 'wire': {
        const y = cy - H * 0.22;
        g.append(svg('path', { d: `M${cx - 18},${y} l4,-4 l4,8 l4,-8 l4,8 l4,-8 l4,8 l4,-8 l4,4`, stroke: '#222', 'stroke-width': 1.4, fill: 'none' }));
        g.append(svg('path', { d: `M${cx - 18},${y} h36`, stroke: '#555', 'stroke-width': 0.8 }));
        break;
      }
      case 'hedgehog': case 'roadblock': case 'dragonteeth': {
        for (const dx of [-11, 0, 11]) {
          const x = cx + dx, y = cy - H * 0.22 + (dx === 0 ? -3 : 2);
          g.append(svg('path', { d: `M${x - 4},${y - 4} L${x + 4},${y + 4} M${x + 4},${y - 4} L${x - 4},${y + 4} M${x},${y - 5} v10`, stroke: '#2a2a2a', 'stroke-width': 1.8 }));
        }
        break;
      }
      case 'smoke': {
        g.append(svg('circle', { cx: cx - 8, cy: cy - 6, r: 12, fill: 'rgba(235,235,235,.75)' }));
        g.append(svg('circle', { cx: cx + 9, cy: cy - 2, r: 13, fill: 'rgba(220,220,220,.75)' }));
        break;
      }
      case 'minefield': {
        g.append(svg('circle', { cx, cy: cy - H * 0.22, r: 6, fill: '#444', stroke: '#000' }));
        break;
      }
      case 'open': break;
      default: {
        const fill = spec.pattern ? `url(#${spec.pattern})` : (spec.fill || '#ccc');
        g.append(svg('polygon', { points: hexPts(cx, cy, 1), fill }));
      }
    }
  }
}

export function hexPts(cx, cy, s) {
  const w = (W / 2) * s, h = (H / 2) * s;
  return [[0, -h], [w, -h / 2], [w, h / 2], [0, h], [-w, h / 2], [-w, -h / 2]]
    .map(([x, y]) => `${(cx + x).toFixed(2)},${(cy + y).toFixed(2)}`).join(' ');
}

// Short text drawn at the bottom of a hex: the most telling family of its tiles.
export function shortLabel(tiles) {
  const prio = ['bunker', 'bridge', 'broken_bridge', 'seawall', 'dragonteeth', 'escarpment', 'rice', 'depot', 'hospital', 'frozen_river', 'stream', 'smoke', 'village', 'fortress', 'forest', 'jungle', 'hedgerow', 'mountain', 'hill',
    'marsh', 'lake', 'ford', 'trench', 'sandbag', 'wire', 'hedgehog', 'roadblock', 'wadi', 'oasis',
    'airfield', 'rail', 'hq', 'cemetery', 'dam', 'ravine', 'unknown'];
  const fams = tiles.map(familyOf);
  const parts = [];
  for (const p of prio) if (fams.includes(p) && FAMILIES[p].label) parts.push(FAMILIES[p].label);
  if (tiles.some((t) => familyOf(t) === 'unknown')) {
    const u = tiles.find((t) => familyOf(t) === 'unknown');
    return `? ${u.code}`;
  }
  return parts.slice(0, 2).join('+');
}
