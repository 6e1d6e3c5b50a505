// Renderer "square": the 3x3 Portable Wargame (ruleset "portable") as a clean SVG grid
// with the two Reserve Areas, units as blocks (type symbol, quality, SP pips), the
// General, terrain, the river, and D6 dice drawn as dice.  The renderer interface of
// static/renderer_host.js (docs/architecture.md "Client renderers"): mount(el, ctx) once,
// render(s) after every change, unmount(), describe(event) for the host's log,
// sideLabel(side).  Every click sends one of s.legal (the engine's legal actions for this seat).
//
// Test hooks: areas <g data-area="b2">, units <g data-unit="b1">, tray pieces
// [data-tray-unit], buttons [data-action], the prompt #sq-prompt, the result
// #sq-result[data-winner], the dice #sq-dice .sq-die[data-face].
import { el, svg, clear } from '../util.js';
import { t, tn, term } from '../i18n.js';

const CELL = 150;
const RES_H = 84;
const PAD = 8;
const W = CELL * 3 + PAD * 2;
const H = CELL * 3 + RES_H * 2 + PAD * 4;
const SIDE_COLOUR = { RED: '#b8412f', BLUE: '#2d5da8' };
// the host's labels: the side's army ("the British column (red)")
export function sideLabel(side, view) {
  const army = view && view.armies && view.armies[side];
  if (!army) return '';
  return side === 'RED' ? t('the {army} (red)', { army: term(army) }) : t('the {army} (blue)', { army: term(army) });
}
const TERRAIN_FILL = { hill: '#b59b62', built_up: '#8c8c8c', wood: '#3e6b35' };
const TERRAIN_NAME = { hill: t('Hill'), built_up: t('Built-up area'), wood: t('Wood') };
const SIDE_NAME = { RED: t('RED'), BLUE: t('BLUE') };
const QUALITY_NAME = { elite: t('elite'), average: t('average'), poor: t('poor') };
const TYPE_NAME = { foot: t('foot'), mounted: t('mounted'), artillery: t('artillery') };
const QUALITY = { elite: 'E', average: 'A', poor: 'P' };
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
const ROLL_CAPTION = { attacker: t('Attacker throw [RED, BLUE]'), terrain: t('Terrain throw'),
  terrain2: t('Second terrain throw'), initiative: t('Turn throw [RED, BLUE]'), fire: t('Artillery fire'),
  close_combat: t('Close combat [attacker, defender]'), general: t('General (2D6)'), hit: t('Hit') };

// the engine's words in a roll (engine/rulesets/portable: results, modifiers, end reasons)
const RESULT_NAME = {
  lands: t('lands'), ineffective: t('ineffective'), killed: t('killed'), wounded: t('wounded'), survives: t('survives'),
  lose_sp: t('loses 1 SP'), retreat_or_lose_sp: t('retreats or loses 1 SP'), tie: t('tie'), nothing: t('no terrain'),
};
const MODIFIER_NAME = {
  'same stationary target': t('same stationary target'), 'General present': t('General present'),
  'target in cover': t('target in cover'), 'same-type support': t('same-type support'),
  'flank attack': t('flank attack'), 'rear attack': t('rear attack'),
  'attacked in the flank': t('attacked in the flank'), 'attacked in the rear': t('attacked in the rear'),
  'enemy uphill or in cover': t('enemy uphill or in cover'), 'enemy in fortifications': t('enemy in fortifications'),
  'attacking across the river': t('attacking across the river'),
};
const REASON_NAME = {
  turn_limit: t('turn limit'), army_withdraws: t('the army withdraws'), resign: t('resignation'),
  timeout: t('out of time'), forfeit: t('forfeit'), attacker: t('attacker'),
};
const words = (x) => String(x).replace(/_/g, ' ');
const resultName = (r) => RESULT_NAME[r] || FEATURE[r] || SIDE_NAME[r] || words(r);
// a unit's name: a preset army's names and the default "<Quality> <type>" are catalog terms
const unitLabel = (name) => term(name);

let root = null;
let ctx = null;
let selected = null;          // unit id chosen by a first click
let rolls = [];               // recent dice_rolled events, newest first
let last = null;              // the last render argument
let helpOpen = false;         // the Rules panel stays open across renders

const CSS = `
.sq { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.sq-board { background: #e9e3cf; border-radius: 8px; max-width: 100%; height: auto; }
.sq-side { min-width: 240px; flex: 1; color: #eee; }
.sq-side .panel { margin-bottom: 8px; }
.sq-prompt { font-weight: bold; margin: 4px 0; }
.sq-actions button { margin: 2px 4px 2px 0; }
.sq-dice { display: flex; flex-direction: column; gap: 4px; }
.sq-roll { display: flex; gap: 4px; align-items: center; flex-wrap: wrap; font-size: 13px; }
.sq-die { width: 26px; height: 26px; }
.sq-tray { display: flex; flex-wrap: wrap; gap: 4px; }
.sq-tray svg { cursor: pointer; }
.sq-result { font-size: 18px; font-weight: bold; padding: 6px; border-radius: 6px; background: #3b3b2a; }
.sq-area { cursor: pointer; }
.sq-unit { cursor: pointer; }
.sq-small { font-size: 12px; color: #bbb; }
`;

export function mount(elem, context) {
  root = elem;
  ctx = context;
  rolls = [];                 // a new mount shows its own rolls only
  last = null;
  if (!document.getElementById('sq-style')) {
    document.head.append(el('style', { id: 'sq-style' }, CSS));
  }
}

export function unmount() {
  if (root) clear(root);
  root = null;
}

function mine(s) { return s.legal || []; }
function flipped(s) { return s.seat === 'RED'; }

// Area geometry: {x, y, w, h} in SVG units.  BLUE's baseline (rank 1) at the bottom
// unless the viewer plays RED.
function areaBox(s, id) {
  const flip = flipped(s);
  const top = { x: PAD, y: PAD, w: CELL * 3, h: RES_H };
  const bottom = { x: PAD, y: PAD * 3 + RES_H + CELL * 3, w: CELL * 3, h: RES_H };
  if (id === 'red_reserve') return flip ? bottom : top;
  if (id === 'blue_reserve') return flip ? top : bottom;
  let col = 'abc'.indexOf(id[0]);
  let row = Number(id[1]) - 1;            // 0 = rank 1
  if (flip) { col = 2 - col; row = 2 - row; }
  return { x: PAD + col * CELL, y: PAD * 2 + RES_H + (2 - row) * CELL, w: CELL, h: CELL };
}

function unitBlock(u, x, y, opts = {}) {
  const g = svg('g', { class: 'sq-unit', 'data-unit': u.id, transform: `translate(${x},${y})` });
  const colour = SIDE_COLOUR[u.side];
  if (u.type === 'general') {
    g.append(svg('circle', { cx: 18, cy: 18, r: 16, fill: colour, stroke: opts.sel ? '#ffd94a' : opts.can ? '#f0d040' : '#222',
      'stroke-width': opts.sel ? 4 : opts.can ? 2.5 : 1.5, 'stroke-dasharray': opts.can && !opts.sel ? '5 3' : null }));
    g.append(svg('text', { x: 18, y: 24, 'text-anchor': 'middle', 'font-size': 18, fill: '#fff' }, '★'));
    if (u.sp < 2) g.append(svg('text', { x: 36, y: 10, 'font-size': 11, fill: '#600' }, t('wounded')));
    g.append(svg('title', {}, t('{name} (General, {n} SP)', { name: unitLabel(u.name), n: u.sp })));
    return g;
  }
  const w = 64;
  const h = 40;
  g.append(svg('rect', { width: w, height: h, rx: 4, fill: colour, stroke: opts.sel ? '#ffd94a' : opts.target ? '#ff4040' : opts.can ? '#f0d040' : '#222',
    'stroke-width': opts.sel || opts.target ? 4 : opts.can ? 2.5 : 1.5, 'stroke-dasharray': opts.can && !opts.sel ? '5 3' : null,
    opacity: u.activated || u.fought || u.fired ? 0.75 : 1 }));
  // type symbol (NATO style box): foot = X, mounted = /, artillery = dot
  const bx = 6;
  const by = 6;
  const bw = 30;
  const bh = 20;
  g.append(svg('rect', { x: bx, y: by, width: bw, height: bh, fill: 'none', stroke: '#fff', 'stroke-width': 1.5 }));
  if (u.type === 'foot') {
    g.append(svg('line', { x1: bx, y1: by, x2: bx + bw, y2: by + bh, stroke: '#fff', 'stroke-width': 1.5 }));
    g.append(svg('line', { x1: bx + bw, y1: by, x2: bx, y2: by + bh, stroke: '#fff', 'stroke-width': 1.5 }));
  } else if (u.type === 'mounted') {
    g.append(svg('line', { x1: bx, y1: by + bh, x2: bx + bw, y2: by, stroke: '#fff', 'stroke-width': 1.5 }));
  } else {
    g.append(svg('circle', { cx: bx + bw / 2, cy: by + bh / 2, r: 5, fill: '#fff' }));
  }
  g.append(svg('text', { x: 48, y: 22, 'text-anchor': 'middle', 'font-size': 15, 'font-weight': 'bold', fill: '#fff' },
    QUALITY[u.quality] || '?'));
  for (let i = 0; i < 2; i += 1) {
    g.append(svg('rect', { x: 8 + i * 12, y: 30, width: 9, height: 6, fill: i < u.sp ? '#fff' : 'none', stroke: '#fff' }));
  }
  if (u.engaged) g.append(svg('text', { x: 58, y: 37, 'text-anchor': 'middle', 'font-size': 10, fill: '#fff' }, '⚔'));
  g.append(svg('title', {}, `${t('{name}: {quality} {type}, {n} SP', { name: unitLabel(u.name), quality: QUALITY_NAME[u.quality] || u.quality, type: TYPE_NAME[u.type] || u.type, n: u.sp })}${u.engaged ? ', ' + t('in close combat') : ''}`));
  return g;
}

function terrainShapes(feature, b) {
  const out = [];
  if (feature === 'hill') {
    out.push(svg('ellipse', { cx: b.x + b.w / 2, cy: b.y + b.h / 2, rx: b.w * 0.42, ry: b.h * 0.36, fill: '#c9ad70', stroke: '#8a7340' }));
    out.push(svg('ellipse', { cx: b.x + b.w / 2, cy: b.y + b.h / 2, rx: b.w * 0.25, ry: b.h * 0.2, fill: 'none', stroke: '#8a7340' }));
  } else if (feature === 'wood') {
    for (const [dx, dy] of [[0.72, 0.1], [0.88, 0.16], [0.9, 0.5], [0.1, 0.9], [0.62, 0.9], [0.88, 0.86]]) {
      out.push(svg('circle', { cx: b.x + b.w * dx, cy: b.y + b.h * dy, r: 10, fill: '#2f5a27', opacity: 0.75 }));
    }
  } else if (feature === 'built_up') {
    for (const [dx, dy] of [[0.8, 0.06], [0.84, 0.42], [0.06, 0.84], [0.8, 0.84]]) {
      out.push(svg('rect', { x: b.x + b.w * dx, y: b.y + b.h * dy, width: 18, height: 14, fill: '#6a6a6a', stroke: '#333' }));
    }
  }
  return out;
}

function riverLine(s, edge) {
  // "1-2": the line between ranks 1 and 2
  const low = Number(edge[0]);        // rank below the line
  const a = areaBox(s, `a${low}`);
  const b = areaBox(s, `a${low + 1}`);
  const yy = Math.max(a.y, b.y);      // the shared edge
  let d = `M ${PAD} ${yy}`;
  for (let i = 0; i < 9; i += 1) d += ` q ${CELL / 6} ${i % 2 ? 10 : -10} ${CELL / 3} 0`;
  return svg('path', { d, stroke: '#3d7fc4', 'stroke-width': 9, fill: 'none', opacity: 0.85, 'data-river': edge,
                      'pointer-events': 'none' });   // a drawing: clicks reach the areas under it
}

function dieSvg(face, colour) {
  const d = svg('svg', { class: 'sq-die', viewBox: '-15 -15 30 30', 'data-face': face });
  d.append(svg('rect', { x: -14, y: -14, width: 28, height: 28, rx: 5, fill: colour || '#f7f3e8', stroke: '#555' }));
  for (const [px, py] of PIPS[face] || []) d.append(svg('circle', { cx: px * 7, cy: py * 7, r: 2.8, fill: colour ? '#fff' : '#222' }));
  return d;
}

function rollLine(r) {
  const line = el('div', { class: 'sq-roll' });
  const who = (r.for === 'close_combat') ? ` ${r.unit} v ${r.target}` : (r.unit ? ` ${r.unit}` : '');
  line.append(el('span', {}, `${ROLL_CAPTION[r.for] || r.for}${who}:`));
  const colours = (r.for === 'attacker' || r.for === 'initiative') ? [SIDE_COLOUR.RED, SIDE_COLOUR.BLUE] : [];
  (r.dice || []).forEach((f, i) => line.append(dieSvg(f, colours[i])));
  let res = '';
  if (r.score !== undefined && typeof r.score !== 'object') res += ` = ${r.score}`;
  if (r.score && typeof r.score === 'object' && r.for === 'close_combat') res += ` → ${Object.entries(r.score).map(([k, v]) => `${k} ${v}`).join(', ')}`;
  if (r.result) res += ` (${resultName(r.result)})`;
  if (r.hit) res += r.hit.length ? ` ${t('hit: {units}', { units: r.hit.join(', ') })}` : ` ${t('no hits')}`;
  const mods = Array.isArray(r.modifiers) ? r.modifiers : r.modifiers ? Object.values(r.modifiers).flat() : [];
  line.append(el('span', { class: 'sq-small' }, res + (mods.length ? ` [${mods.map((m) => `${MODIFIER_NAME[m[0]] || m[0]} ${m[1] > 0 ? '+' : ''}${m[1]}`).join('; ')}]` : '')));
  return line;
}

function prompt(s) {
  const v = s.view;
  if (!v) return '';
  if (v.game_over) return outcome(v.winner, v.reason);
  const p = v.pending || {};
  const me = s.seat && p.seat === s.seat;
  const who = me ? t('You') : SIDE_NAME[p.seat] || p.seat;
  switch (p.type) {
    case 'place_terrain': return `${p.feature === 'river' ? t('{who}: place the river', { who }) : t('{who}: place the {terrain}', { who, terrain: TERRAIN_NAME[p.feature] || p.feature })} ${p.feature === 'river' ? t('(choose the line)') : t('(click an area)')}`;
    case 'deploy': return t('{who}: deploy your units - click a piece, then an area of your baseline or reserve', { who });
    case 'redeploy': return t('{who}: you may move one unit to a new position, or pass', { who });
    case 'choose_first': return t('{who}: choose who moves first this turn', { who });
    case 'activate': return tn('{who}: {n} activation left - click a unit, then where it moves or what it attacks', '{who}: {n} activations left - click a unit, then where it moves or what it attacks', v.activations, { who });
    case 'hit_choice': return t('{who}: unit {unit} must retreat to {area} or lose 1 SP', { who, unit: p.unit, area: p.to });
    case 'advance': return t('{who}: unit {unit} may advance into {area}', { who, unit: p.unit, area: p.to });
    case 'roll': return t('Throwing dice…');
    default: return p.type || '';
  }
}

// the end of the battle: its winner and why (engine/rulesets/portable/victory.py)
function outcome(winner, reason) {
  const why = REASON_NAME[reason] || words(reason);
  return winner ? t('{side} wins ({reason})', { side: SIDE_NAME[winner] || winner, reason: why }) : t('Draw ({reason})', { reason: why });
}

function send(a) {
  selected = null;
  ctx.sendAction(a);
}

function actionLabel(a) {
  switch (a.type) {
    case 'end_phase': return t('End phase');
    case 'pass': return t('Keep deployment');
    case 'retreat': return t('Retreat');
    case 'lose_sp': return t('Lose 1 SP');
    case 'advance': return t('Advance');
    case 'stay': return t('Stay');
    case 'choose_first': return t('{side} moves first', { side: SIDE_NAME[a.first] || a.first });
    case 'place_terrain': return a.at.includes('-') ? t('River between ranks {ranks}', { ranks: a.at }) : t('Place at {area}', { area: a.at });
    default: return a.type;
  }
}

export function render(s) {
  if (!root) return;
  if (s !== last) for (const e of s.events || []) if (e.type === 'dice_rolled') rolls.unshift(e);
  last = s;
  if (!(s.events || []).length && !rolls.length && s.view && s.view.last_roll) rolls = [s.view.last_roll];
  rolls = rolls.slice(0, 8);
  const v = s.view;
  const legal = mine(s);
  if (selected && !legal.some((a) => a.unit === selected)) selected = null;
  const byUnit = legal.filter((a) => a.unit && a.unit === selected);
  const moveTo = new Set(byUnit.filter((a) => ['move', 'deploy', 'redeploy'].includes(a.type)).map((a) => a.to));
  const fireAt = new Set(byUnit.filter((a) => a.type === 'fire').map((a) => a.target));
  const attackT = new Set(byUnit.filter((a) => a.type === 'attack').map((a) => a.target));
  const canAct = new Set(selected ? [] : legal.filter((a) => a.unit).map((a) => a.unit));
  const placeAt = new Set(legal.filter((a) => a.type === 'place_terrain' && !a.at.includes('-')).map((a) => a.at));
  const p = (v && v.pending) || {};
  if (legal.length && (p.type === 'hit_choice' || p.type === 'advance')) moveTo.add(p.to);

  clear(root);
  const wrap = el('div', { class: 'sq' });
  const board = svg('svg', { class: 'sq-board', viewBox: `0 0 ${W} ${H}`, width: W, height: H, 'data-ruleset': 'portable' });
  const areas = (s.board && s.board.areas) || [];
  const terrain = Object.fromEntries(((v && v.terrain) || []).map((t) => [t.area, t.feature]));
  const units = (v && v.units) || [];
  for (const a of areas) {
    const b = areaBox(s, a.id);
    const g = svg('g', { class: 'sq-area', 'data-area': a.id });
    const hl = moveTo.has(a.id) ? '#5fb35f' : fireAt.has(a.id) ? '#e08a2c' : placeAt.has(a.id) ? '#d0c040' : null;
    const fill = a.kind === 'reserve' ? (a.side === 'RED' ? '#e8cfc8' : '#cbd6ea') : (TERRAIN_FILL[terrain[a.id]] ? '#e0d8b8' : '#e6dfc4');
    g.append(svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, fill, stroke: hl || '#7b7356', 'stroke-width': hl ? 6 : 1.5 }));
    for (const t of terrainShapes(terrain[a.id], b)) g.append(t);
    const role = v && (v.attacker === a.side ? ` · ${t('attacker')}` : v.defender === a.side ? ` · ${t('defender')}` : '');
    const label = a.kind === 'reserve' ? `${t('{side} reserve', { side: SIDE_NAME[a.side] || a.side })}${role || ''}` : a.id;
    g.append(svg('text', { x: b.x + 5, y: b.y + 14, 'font-size': 12, fill: '#4a4330' }, label + (terrain[a.id] ? ` · ${TERRAIN_NAME[terrain[a.id]]}` : '')));
    g.addEventListener('click', () => clickArea(a.id));
    board.append(g);
  }
  if (v && v.river) board.append(riverLine(s, v.river));
  for (const a of areas) {
    const b = areaBox(s, a.id);
    const here = units.filter((u) => u.area === a.id && !u.lost);
    const troops = here.filter((u) => u.type !== 'general');
    const gens = here.filter((u) => u.type === 'general');
    troops.forEach((u, i) => {
      const x = a.kind === 'reserve' ? b.x + 10 + i * 72 : b.x + 10 + (i % 2) * 70;
      const y = a.kind === 'reserve' ? b.y + 24 : b.y + 30 + Math.floor(i / 2) * 46;
      const g = unitBlock(u, x, y, { sel: u.id === selected, target: attackT.has(u.id), can: canAct.has(u.id) });
      g.addEventListener('click', (ev) => { ev.stopPropagation(); clickUnit(u); });
      board.append(g);
    });
    gens.forEach((u) => {
      const x = a.kind === 'reserve' ? b.x + b.w - 46 : b.x + b.w / 2 - 18;
      const y = a.kind === 'reserve' ? b.y + 26 : b.y + b.h - 42;
      const g = unitBlock(u, x, y, { sel: u.id === selected, can: canAct.has(u.id) });
      g.addEventListener('click', (ev) => { ev.stopPropagation(); clickUnit(u); });
      board.append(g);
    });
  }
  wrap.append(board);

  const side = el('div', { class: 'sq-side' });
  const info = el('div', { class: 'panel' });
  if (v) {
    if (v.game_over) {
      info.append(el('div', { id: 'sq-result', class: 'sq-result', 'data-winner': v.winner || 'draw' }, prompt(s)));
    }
    const sn = (x) => SIDE_NAME[x] || x;
    info.append(el('div', {}, t('Turn {n} of {total}', { n: v.turn || 0, total: v.turn_limit }) + (v.attacker ? ` · ${t('attacker {a}, defender {d}', { a: sn(v.attacker), d: sn(v.defender) })}` : '')));
    if (v.active) info.append(el('div', {}, `${t('Phase: {side}', { side: sn(v.active) })}${v.first ? ` (${t('first: {side}', { side: sn(v.first) })})` : ''} · ${t('scores {red} {r}, {blue} {b}', { red: sn('RED'), r: v.dice.RED ?? '-', blue: sn('BLUE'), b: v.dice.BLUE ?? '-' })}`));
    info.append(el('div', {}, t('Armies: {red} {ra} (lost {rl}) · {blue} {ba} (lost {bl})', { red: sn('RED'), ra: term(v.armies.RED), rl: v.lost.RED, blue: sn('BLUE'), ba: term(v.armies.BLUE), bl: v.lost.BLUE })));
    info.append(el('div', { class: 'sq-small' }, t('Blocks: X foot, / mounted, ● artillery, ★ General; E/A/P elite/average/poor; white squares = SP; ⚔ in close combat; dashed = may act')));
    const minePending = !!(s.seat && v.pending && v.pending.seat === s.seat);
    info.append(el('div', { id: 'sq-prompt', class: 'sq-prompt', 'data-pending': (v.pending && v.pending.type) || 'over', 'data-mine': minePending ? '1' : '0' }, prompt(s)));
  }
  side.append(info);

  // pieces still to deploy (mine, when deploying)
  if (v && v.pending && v.pending.type === 'deploy' && s.seat === v.pending.seat) {
    const tray = el('div', { class: 'panel sq-tray', id: 'sq-tray' });
    for (const u of units.filter((x) => x.side === s.seat && !x.area && !x.lost)) {
      const t = svg('svg', { width: 72, height: 46, 'data-tray-unit': u.id });
      t.append(unitBlock(u, 4, 3, { sel: u.id === selected }));
      t.addEventListener('click', () => { selected = u.id; render(last); });
      tray.append(t);
    }
    side.append(tray);
  }

  const bar = el('div', { class: 'panel sq-actions', id: 'sq-actions' });
  for (const a of legal) {
    if (a.unit || (a.type === 'place_terrain' && !a.at.includes('-'))) continue;
    bar.append(el('button', { type: 'button', 'data-action': a.type, 'data-value': a.first || a.at || '', onclick: () => send(a) }, actionLabel(a)));
  }
  if (selected) bar.append(el('button', { type: 'button', 'data-action': 'unselect', onclick: () => { selected = null; render(last); } }, t('Cancel')));
  side.append(bar);

  if (s.board && s.board.help) {
    const help = el('details', { class: 'panel', id: 'sq-help', open: helpOpen, ontoggle: (e) => { helpOpen = e.target.open; } },
      el('summary', {}, t('Rules')));
    for (const h of s.board.help) {
      help.append(el('h4', {}, term(h.heading)));
      if (h.text) help.append(el('p', {}, term(h.text)));
      if (h.house) help.append(el('p', { class: 'sq-small' }, t('House rule: {text}', { text: term(h.house) })));
    }
    side.append(help);
  }
  const dice = el('div', { class: 'panel sq-dice', id: 'sq-dice' });
  dice.append(el('h3', {}, t('Dice')));
  for (const r of rolls) dice.append(rollLine(r));
  side.append(dice);
  wrap.append(side);
  root.append(wrap);
}

function clickUnit(u) {
  const legal = mine(last);
  if (selected) {
    const atk = legal.find((a) => a.type === 'attack' && a.unit === selected && a.target === u.id);
    if (atk) { send(atk); return; }
    // a click on a piece standing in the area the selected unit may go to / fire at
    const into = legal.find((a) => a.unit === selected && ((['move', 'deploy', 'redeploy'].includes(a.type) && a.to === u.area) || (a.type === 'fire' && a.target === u.area)));
    if (into) { send(into); return; }
  }
  if (legal.some((a) => a.unit === u.id)) { selected = u.id === selected ? null : u.id; render(last); return; }
  clickArea(u.area);
}

function clickArea(id) {
  const legal = mine(last);
  const place = legal.find((a) => a.type === 'place_terrain' && a.at === id);
  if (place) { send(place); return; }
  const p = (last.view && last.view.pending) || {};
  const step = { hit_choice: 'retreat', advance: 'advance' }[p.type];
  const a0 = step && p.to === id && legal.find((x) => x.type === step);
  if (a0) { send(a0); return; }
  if (!selected) return;
  const a = legal.find((x) => x.unit === selected && ((['move', 'deploy', 'redeploy'].includes(x.type) && x.to === id) || (x.type === 'fire' && x.target === id)));
  if (a) send(a);
}

// The log line of an event (the host's log).
const FEATURE = { hill: t('a hill'), built_up: t('a built-up area'), wood: t('a wood'), river: t('the river') };
export function describe(e) {
  const u = e.unit || '';
  const sn = (x) => SIDE_NAME[x] || x;
  switch (e.type) {
    case 'dice_rolled': return `${ROLL_CAPTION[e.for] || e.for}${e.unit ? ` (${e.unit})` : ''}: ${(e.dice || []).join(', ')}${e.result ? ` - ${resultName(e.result)}` : ''}`;
    case 'attacker_chosen': return t('{a} attacks, {d} defends', { a: sn(e.attacker), d: sn(e.defender) });
    case 'terrain_placed': return t('{side} places {terrain} at {area}', { side: sn(e.side), terrain: FEATURE[e.feature] || e.feature, area: e.at });
    case 'unit_deployed': return t('{unit} deployed in {area}', { unit: u, area: e.to });
    case 'unit_redeployed': return t('{unit} moved from {from} to {area}', { unit: u, from: e.from, area: e.to });
    case 'turn_started': return t('Turn {n}', { n: e.turn });
    case 'first_chosen': return t('{side} moves first', { side: sn(e.first) });
    case 'phase_started': return tn('{side}: {n} activation', '{side}: {n} activations', e.activations, { side: sn(e.side) });
    case 'phase_ended': return t('{side} ends the phase', { side: sn(e.side) });
    case 'unit_activated': return '';
    case 'unit_moved': return t('{unit} moves {from} → {hex}', { unit: u, from: e.from, hex: e.to });
    case 'artillery_fired': return t('{unit} fires at {target}', { unit: u, target: e.target });
    case 'close_combat': return t('{unit} attacks {target} ({direction})', { unit: u, target: e.target, direction: e.direction });
    case 'unit_hit': return t('{unit} is hit', { unit: u });
    case 'sp_lost': return t('{unit} loses 1 SP ({n} left)', { unit: u, n: e.sp });
    case 'unit_destroyed': return t('{unit} is destroyed', { unit: u });
    case 'unit_retreated': return t('{unit} retreats to {hex}', { unit: u, hex: e.to });
    case 'unit_advanced': return t('{unit} advances into {area}', { unit: u, area: e.to });
    case 'general_wounded': return t('General {unit} wounded', { unit: u });
    case 'general_killed': return t('General {unit} killed', { unit: u });
    case 'general_captured': return t('General {unit} captured by {side}', { unit: u, side: sn(e.by) });
    case 'game_over': return outcome(e.winner, e.reason);
    default: return e.type;
  }
}
