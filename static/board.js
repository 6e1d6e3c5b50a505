// The SVG hex board: terrain from board_for, units/objectives from view_for,
// highlights computed by the caller from the engine's legal actions.
import { unitMarkers } from './fastplay.js';
import { Geometry, W, H, key, polygonPoints } from './hex.js';
import { svg, el, clear, sideName } from './util.js';
import { t, tn, term } from './i18n.js';
import { FACE_BASE, FAMILIES, defs, drawTiles, familyOf, shortLabel, tileDescription } from './terrain.js';
import { nationStyle, unitLetter, unitTitle, unitDescription } from './units.js';
import { variantMarks } from './variants.js';
import { bridgeText, firstActiveTurn, supplyText, supplyTurns } from './conditions.js';
import { drawVeil } from './fog.js';

const SIDE_COLOUR = { AXIS: '#3f474f', ALLIES: '#4d7a2a' };

// Big Gun cross-hairs if the view carries them (`crosshairs`/`cross_hairs`: a list of
// {hex} or hexes, or a map unit -> such a list).
function crossHairHexes(view) {
  const raw = view && (view.crosshairs || view.cross_hairs);
  if (!raw) return [];
  const list = Array.isArray(raw) ? raw : Object.values(raw).flat();
  const isHex = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
  return list.map((x) => (isHex(x) ? x : x && (x.hex || x.target))).filter(isHex);
}

export class BoardView {
  constructor(container, { onHexClick, onHexHover } = {}) {
    this.container = container;
    this.onHexClick = onHexClick || (() => {});
    this.onHexHover = onHexHover || null;
    this.board = null;
    this.view = null;
    this.tiles = new Map();        // "r,c" -> tiles (static + changed)
    this.codeTiles = new Map();    // code -> a full tile seen on the static board
    this.unitsByHex = new Map();
    this.highlights = [];
    this.selectable = new Set();
    this.selected = null;
    this.flipped = false;
    this.tooltip = el('div', { class: 'board-tooltip', role: 'tooltip' });
    this.tooltip.hidden = true;
    // keyboard: the board takes the focus; arrow keys move a cursor over the hexes, Enter
    // or Space acts on the hex (as a click), N / P jump to the next / previous hex that
    // has something to do; the hex under the cursor is described in a live region
    this.cursor = null;
    this.liveText = el('div', { class: 'sr-only', id: 'hex-description', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.keyHelp = el('div', { class: 'sr-only', id: 'board-keys' },
      t('Arrow keys move over the hexes, Enter acts on the hex, N and P go to the next or previous hex with something to do, Escape cancels.'));
    container.setAttribute('tabindex', '0');
    container.setAttribute('role', 'application');
    container.setAttribute('aria-roledescription', t('board'));
    container.setAttribute('aria-label', t('Board'));
    container.setAttribute('aria-describedby', 'board-keys hex-description');
    container.addEventListener('keydown', (ev) => this.onKey(ev));
    container.addEventListener('focus', () => { if (!this.cursor) this.moveCursorTo(this.firstActiveHex()); else this.announce(); });
  }

  setBoard(board, { flipped = false } = {}) {
    this.board = board;
    this.flipped = flipped;
    this.tiles.clear();
    for (const h of board.hexes || []) {
      this.tiles.set(key(h.hex), h.tiles || []);
      for (const t of h.tiles || []) if (!this.codeTiles.has(t.code)) this.codeTiles.set(t.code, t);
    }
    this.geo = new Geometry(board.rows, board.max_col, flipped);
    this.render();
  }

  setFlipped(flipped) {
    if (!this.board || flipped === this.flipped) return;
    this.setBoard(this.board, { flipped });
    if (this.view) this.setView(this.view);
  }

  // Fill a tile sent in changed_hexes that may carry only its code.
  completeTile(t) {
    if (t.family) return t;
    const known = this.codeTiles.get(t.code);
    if (known) return { ...known, ...t, family: known.family, name: t.name || known.name };
    const guess = { sand: 'sandbag', wire: 'wire', brkbridge: 'bridge', bridge: 'bridge', hedgehog: 'hedgehog' }[t.code];
    return { ...t, family: guess || 'unknown', name: t.name || t.code };
  }

  hexTiles(hex) { return this.tiles.get(key(hex)) || []; }

  render() {
    const g = this.geo;
    clear(this.container);
    const root = svg('svg', {
      viewBox: `0 0 ${g.width.toFixed(1)} ${g.height.toFixed(1)}`, class: 'board-svg',
      'data-board-type': this.board.type, 'data-flipped': this.flipped ? '1' : '0',
      preserveAspectRatio: 'xMidYMid meet', role: 'img', 'aria-label': t('Board: {name}', { name: term(this.board.name || '') }),
    });
    root.append(defs());
    root.append(svg('rect', { x: 0, y: 0, width: g.width, height: g.height, rx: 8, class: 'board-bg' }));
    this.layers = {};
    for (const name of ['base', 'terrain', 'grid', 'tlabels', 'zones', 'sections', 'labels', 'marks', 'links', 'units', 'highlights', 'hit']) {
      this.layers[name] = svg('g', { class: `layer-${name}` });
      root.append(this.layers[name]);
    }
    const base = FACE_BASE[String(this.board.face || 'COUNTRY').toUpperCase()] || FACE_BASE.COUNTRY;
    for (const hex of g.allHexes()) {
      const [cx, cy] = g.center(hex);
      this.layers.base.append(svg('polygon', { points: polygonPoints(cx, cy), fill: base }));
      this.layers.grid.append(svg('polygon', { points: polygonPoints(cx, cy), class: 'hex-outline' }));
      const hit = svg('polygon', {
        points: polygonPoints(cx, cy), class: 'hit', 'data-hex': key(hex), 'data-row': hex[0], 'data-col': hex[1],
      });
      hit.addEventListener('click', (ev) => { ev.stopPropagation(); this.hideTooltip(); this.onHexClick(hex, this.unitsByHex.get(key(hex)) || null); });
      hit.addEventListener('mouseenter', (ev) => this.showTooltip(hex, ev));
      hit.addEventListener('mousemove', (ev) => this.moveTooltip(ev));
      hit.addEventListener('mouseleave', () => this.hideTooltip());
      this.layers.hit.append(hit);
    }
    this.renderTerrain();
    this.renderSections();
    this.renderLabels();
    this.renderZones();
    this.svg = root;
    this.layers.cursor = svg('g', { class: 'layer-cursor' });
    root.append(this.layers.cursor);
    this.container.append(root, this.tooltip, this.liveText, this.keyHelp);
    this.renderCursor();
  }

  renderTerrain() {
    const L = this.layers;
    clear(L.terrain);
    clear(L.tlabels);
    for (const [k, tiles] of this.tiles) {
      const hex = k.split(',').map(Number);
      const gh = svg('g', { class: 'hex-terrain', 'data-hex': k });
      drawTiles(gh, this.geo, hex, tiles, this.board.face);
      const label = shortLabel(tiles);
      if (label) {
        const [cx, cy] = this.geo.center(hex);
        L.tlabels.append(svg('text', { x: cx, y: cy + H * 0.36, class: 'terrain-label', 'data-hex': k }, label));
      }
      L.terrain.append(gh);
    }
  }

  renderSections() {
    const L = this.layers, g = this.geo;
    clear(L.sections);
    const bounds = (this.board.sections && this.board.sections.bounds) || [];
    const inner = bounds.slice(1, -1);
    for (const c of inner) {
      const x = g.colX(c);
      L.sections.append(svg('line', { x1: x, y1: 4, x2: x, y2: g.height - 4, class: 'section-line', 'data-col': c }));
    }
    const sub = (this.board.sections && (this.board.sections.sub_bounds || this.board.sections.subsections)) || [];
    for (const c of (Array.isArray(sub) ? sub.slice(1, -1) : [])) {
      if (inner.includes(c)) continue;
      const x = g.colX(c);
      L.sections.append(svg('line', { x1: x, y1: 4, x2: x, y2: g.height - 4, class: 'subsection-line', 'data-col': c }));
    }
  }

  // zones: [{cols: [from, to], label, hot}] bands of columns (a Field General's sub-sections)
  setZones(zones) {
    this.zones = zones || [];
    this.renderZones();
  }

  renderZones() {
    const L = this.layers, g = this.geo;
    if (!L || !L.zones) return;
    clear(L.zones);
    for (const z of this.zones || []) {
      const xa = g.colX(z.cols[0]), xb = g.colX(z.cols[1]);
      const x = Math.min(xa, xb), w = Math.abs(xb - xa);
      const zg = svg('g', { class: `zone${z.hot ? ' hot' : ''}`, 'data-zone': `${z.cols[0]}-${z.cols[1]}`, 'data-half': z.half ?? '' });
      zg.append(svg('rect', { x, y: 3, width: w, height: g.height - 6, rx: 6, class: 'zone-rect' }));
      zg.append(svg('text', { x: x + w / 2, y: 12, class: 'zone-label' }, z.label || ''));
      L.zones.append(zg);
    }
  }

  renderLabels() {
    const L = this.layers;
    clear(L.labels);
    for (const lab of this.board.labels || []) {
      const [cx, cy] = this.geo.center(lab.hex);
      const text = Array.isArray(lab.text) ? lab.text.join(' ') : String(lab.text);
      const t = svg('text', { x: cx, y: cy - H * 0.3, class: 'scenario-label' });
      const words = text.trim().split(/\s+/);
      // two lines when long
      if (text.length > 12 && words.length > 1) {
        const mid = Math.ceil(words.length / 2);
        t.append(svg('tspan', { x: cx, dy: -5 }, words.slice(0, mid).join(' ')));
        t.append(svg('tspan', { x: cx, dy: 9 }, words.slice(mid).join(' ')));
      } else t.textContent = text;
      L.labels.append(t);
    }
  }

  // Kriegspiel: show the viewer's detection range (a veil over the hexes it does not see)
  setFogRange(on) { this.fogRange = !!on; if (this.view) this.renderMarks(); }

  renderMarks() {
    const L = this.layers, g = this.geo;
    clear(L.marks);
    drawVeil(L.marks, g, this.view, this.fogRange);
    const holders = new Map(((this.view && this.view.objectives) || []).map((o) => [o.id, o.holder]));
    for (const o of this.board.objectives || []) {
      const holder = holders.get(o.id) || null;
      for (const hex of o.hexes || []) {
        const [cx, cy] = g.center(hex);
        const mg = svg('g', { class: 'objective', 'data-objective': o.id, 'data-holder': holder || '' ,
                              transform: `translate(${cx + W * 0.3},${cy - H * 0.2})` });
        const col = o.side ? (o.side === 'AXIS' ? '#50575e' : '#5d7d35') : '#b8902a';
        mg.append(svg('path', { d: 'M-4 -12 L-1 -4 L1 -4 L4 -12 Z', fill: '#b02a2a' }));
        mg.append(svg('circle', { r: 7, fill: holder ? (SIDE_COLOUR[holder] || '#888') : '#f1d36b', stroke: col, 'stroke-width': 2.5 }));
        mg.append(svg('text', { class: 'objective-text', y: 3 }, o.counts_for > 1 ? String(o.counts_for) : '★'));
        const tip = svg('title', {}, `${o.side ? t('Objective medal for {side}', { side: sideName(o.side) }) : t('Objective medal')}${holder ? ' — ' + t('held by {side}', { side: sideName(holder) }) : ''}`);
        mg.append(tip);
        L.marks.append(mg);
      }
    }
    for (const m of variantMarks(this.view)) {       // 004 variants: town markers
      const [cx, cy] = g.center(m.hex);
      const mg = svg('g', { class: 'variant-mark', 'data-mark': m.text, transform: `translate(${cx - W * 0.3},${cy + H * 0.22})` });
      mg.append(svg('circle', { r: 7, fill: m.colour, stroke: '#fff', 'stroke-width': 1.5 }));
      mg.append(svg('text', { class: 'objective-text', y: 3, fill: '#fff' }, m.text));
      mg.append(svg('title', {}, m.title));
      L.marks.append(mg);
    }
    for (const ex of this.board.exits || []) {
      for (const hex of ex.hexes || []) {
        const [cx, cy] = g.center(hex);
        const mg = svg('g', { class: 'exit-marker', transform: `translate(${cx - W * 0.3},${cy - H * 0.2})` });
        mg.append(svg('rect', { x: -9, y: -6, width: 18, height: 12, rx: 2, fill: SIDE_COLOUR[ex.side] || '#666', stroke: '#fff', 'stroke-width': 1 }));
        mg.append(svg('text', { class: 'exit-text', y: 3 }, 'EXIT'));
        L.marks.append(mg);
      }
    }
    // minefields: hidden (value null: '?') or revealed (its strength)
    for (const m of (this.view && this.view.mines) || []) {
      if (!m || !m.hex) continue;
      const [cx, cy] = g.center(m.hex);
      const hidden = m.value === null || m.value === undefined;
      const mg = svg('g', { class: `mine-marker${hidden ? ' hidden-mine' : ' revealed'}`, 'data-mine': key(m.hex), 'data-value': hidden ? '' : m.value,
                            transform: `translate(${cx - W * 0.28},${cy + H * 0.2})` });
      mg.append(svg('path', { d: 'M0 -9 L9 6 L-9 6 Z', fill: hidden ? '#b23' : '#e8c547', stroke: '#111', 'stroke-width': 1.2 }));
      mg.append(svg('text', { class: 'mine-text', y: 4.5 }, hidden ? '?' : String(m.value)));
      mg.append(svg('title', {}, `Minefield${m.side ? ' laid by ' + sideName(m.side) : ''}: ${hidden ? 'strength unknown until a unit enters (must stop)' : 'strength ' + m.value + ' (dice hit on unit symbol + grenade)'}`));
      L.marks.append(mg);
    }
    for (const h of (this.view && this.view.camouflage) || []) {
      const [cx, cy] = g.center(h);
      const mg = svg('g', { class: 'camo-marker', 'data-camo': key(h), transform: `translate(${cx + W * 0.3},${cy + H * 0.22})` });
      mg.append(svg('circle', { r: 6, fill: '#5b6b2f', stroke: '#e0e6c0', 'stroke-width': 1.2 }));
      mg.append(svg('title', {}, t('Camouflaged unit: may be battled only at close range')));
      L.marks.append(mg);
    }
    for (const h of crossHairHexes(this.view)) {
      const [cx, cy] = g.center(h);
      const mg = svg('g', { class: 'crosshair-marker', 'data-crosshair': key(h), transform: `translate(${cx},${cy})` });
      mg.append(svg('circle', { r: W * 0.3, fill: 'none', stroke: '#ff3b30', 'stroke-width': 1.6 }));
      mg.append(svg('path', { d: `M${-W * 0.38} 0 H${W * 0.38} M0 ${-W * 0.38} V${W * 0.38}`, stroke: '#ff3b30', 'stroke-width': 1.4 }));
      mg.append(svg('title', {}, t('Cross-hair: a Big Gun is ranged in on this target')));
      L.marks.append(mg);
    }
    // bridge_demolition: a Battle Star on a bridge with charges placed or tank hits
    for (const b of (this.view && this.view.bridges) || []) {
      if (!b || !b.hex || (!b.rigged && !b.hits)) continue;
      const [cx, cy] = g.center(b.hex);
      const mg = svg('g', { class: `bridge-marker${b.rigged ? ' rigged' : ''}`, 'data-bridge': key(b.hex), 'data-hits': b.hits || 0,
                            'data-rigged': b.rigged || '', transform: `translate(${cx - W * 0.3},${cy - H * 0.2})` });
      mg.append(svg('path', { d: starPath(12, 5.5), fill: b.rigged ? '#d9531e' : '#e8c547', stroke: '#111', 'stroke-width': 1.1 }));
      mg.append(svg('text', { class: 'bridge-text', y: 3.5 }, b.hits ? String(b.hits) : '!'));
      mg.append(svg('title', {}, bridgeText(b, sideName)));
      L.marks.append(mg);
    }
    const roll = this.view && this.view.last_roll;
    if (roll && roll.target) {
      const [cx, cy] = g.center(roll.target);
      const t = svg('g', { class: 'last-target', transform: `translate(${cx},${cy})` });
      t.append(svg('circle', { r: W * 0.42, fill: 'none', stroke: '#c0392b', 'stroke-width': 2, 'stroke-dasharray': '5 3' }));
      L.marks.append(t);
    }
  }

  // weather (game option): {code, label, visibility?} or null; a light haze when visibility is cut
  setWeather(info) { this.weather = info || null; }

  setView(view) {
    this.view = view;
    // terrain changes (sandbags added, wire removed, bridge blown...)
    if (view.changed_hexes && view.changed_hexes.length) {
      const base = new Map((this.board.hexes || []).map((h) => [key(h.hex), h.tiles || []]));
      this.tiles = base;
      for (const ch of view.changed_hexes) this.tiles.set(key(ch.hex), (ch.tiles || []).map((t) => this.completeTile(t)));
      this.renderTerrain();
    }
    const vis = view.visibility;
    if (this.layers && this.layers.base) {
      const root = this.layers.base.ownerSVGElement;
      if (root) {
        if (vis !== undefined && vis !== null && vis < 6) { root.dataset.visibility = vis; root.style.filter = `brightness(${(0.45 + 0.09 * vis).toFixed(2)}) saturate(0.8)`; } else { delete root.dataset.visibility; root.style.filter = ''; }
        const w = this.weather;
        if (w) root.dataset.weather = w.code; else delete root.dataset.weather;
        if (w && w.visibility && !root.dataset.visibility) root.style.filter = 'contrast(0.8) saturate(0.7) brightness(1.04)';
      }
    }
    this.renderMarks();
    this.renderUnits();
    this.renderHighlights();
  }

  // pieces of one train (view `train`: ids front to back): a coupling bar between them
  renderTrains() {
    const L = this.layers, g = this.geo;
    clear(L.links);
    const units = (this.view && this.view.units) || [];
    const byId = new Map(units.map((u) => [u.id, u]));
    const done = new Set();
    for (const u of units) {
      const ids = u.train || [];
      const k = ids.join('|');
      if (ids.length < 2 || done.has(k)) continue;
      done.add(k);
      const pieces = ids.map((id) => byId.get(id)).filter((p) => p && p.hex);
      for (let i = 1; i < pieces.length; i++) {
        const [x1, y1] = g.center(pieces[i - 1].hex), [x2, y2] = g.center(pieces[i].hex);
        const lg = svg('g', { class: 'train-link', 'data-train-link': `${pieces[i - 1].id}-${pieces[i].id}` });
        lg.append(svg('line', { x1, y1: y1 - 2, x2, y2: y2 - 2, stroke: '#1b1b1b', 'stroke-width': 7, 'stroke-linecap': 'round' }));
        lg.append(svg('line', { x1, y1: y1 - 2, x2, y2: y2 - 2, stroke: '#d8c07a', 'stroke-width': 2.5, 'stroke-dasharray': '4 3' }));
        lg.append(svg('title', {}, t('Train coupling: {a} and {b} are pieces of one train and move together', { a: unitTitle(pieces[i - 1]), b: unitTitle(pieces[i]) })));
        L.links.append(lg);
      }
    }
  }

  renderUnits() {
    const L = this.layers, g = this.geo;
    clear(L.units);
    this.unitsByHex.clear();
    this.renderTrains();
    for (const u of (this.view && this.view.units) || []) {
      if (!u.hex) continue;
      this.unitsByHex.set(key(u.hex), u);
      const [cx, cy] = g.center(u.hex);
      const ns = nationStyle(u);
      const side = String(u.side).split(':')[0];
      const ug = svg('g', {
        class: `unit side-${side.toLowerCase()}${u.ordered ? ' ordered' : ''}${this.selectable.has(u.id) ? ' selectable' : ''}${this.selected === u.id ? ' selected' : ''}`,
        'data-unit': u.id, 'data-hex': key(u.hex), 'data-side': side, 'data-figures': u.figures,
        transform: `translate(${cx},${cy - 2})`,
      });
      const w = 40, h = 30;
      if (u.ordered) ug.append(svg('rect', { x: -w / 2 - 4, y: -h / 2 - 4, width: w + 8, height: h + 8, rx: 7, class: 'ordered-ring' }));
      ug.append(svg('rect', { x: -w / 2, y: -h / 2, width: w, height: h, rx: 5, fill: ns.fill, stroke: ns.edge, 'stroke-width': 2, filter: 'url(#unit-shadow)' }));
      // side stripe: Axis grey band, Allies olive band
      ug.append(svg('rect', { x: -w / 2 + 2, y: -h / 2 + 2, width: w - 4, height: 4, rx: 2, fill: side === 'AXIS' ? '#2b2f33' : '#c8d39a', opacity: 0.85 }));
      const letter = unitLetter(u);
      ug.append(svg('text', { x: -w / 2 + 4, y: 5, class: `unit-letter${letter.length > 1 ? ' long' : ''}` }, letter));
      ug.append(svg('text', { x: w / 2 - 5, y: 6, class: 'unit-figs' }, String(u.figures)));
      const max = u.max_figures || u.figures;
      for (let i = 0; i < max; i++) {
        const px = -((max - 1) * 7) / 2 + i * 7;
        ug.append(svg('circle', { cx: px, cy: h / 2 - 5, r: 2.4, class: i < u.figures ? 'pip' : 'pip lost' }));
      }
      if (u.badge) {
        ug.append(svg('circle', { cx: -w / 2, cy: -h / 2, r: 6.5, fill: '#e8c547', stroke: '#7a5c0c', 'stroke-width': 1.2 }));
        ug.append(svg('text', { x: -w / 2, y: -h / 2 + 3.2, class: 'badge-text' }, '★'));
      }
      if (u.battled) ug.append(svg('text', { x: w / 2 - 2, y: -h / 2 + 1, class: 'unit-status' }, '✦'));
      else if (u.moved) ug.append(svg('text', { x: w / 2 - 2, y: -h / 2 + 1, class: 'unit-status' }, '➜'));
      if (u.train && u.train.length > 1) {
        ug.setAttribute('data-train', u.train.join(','));
        ug.append(svg('rect', { x: -w / 2 - 2, y: -h / 2 - 2, width: w + 4, height: h + 4, rx: 6, class: 'train-outline' }));
      }
      if (u.inactive_until !== undefined && u.inactive_until !== null) unitTag(ug, -w / 2 - 3, h / 2 - 1, 'inactive-marker', '#2f4f7a',
        `T${firstActiveTurn(u)}`, t('Waiting: this unit cannot be ordered before turn {n} (scenario rule)', { n: firstActiveTurn(u) }), { 'data-until': u.inactive_until });
      const oos = supplyTurns(u);
      if (oos > 0) unitTag(ug, w / 2 + 3, h / 2 - 1, 'supply-marker', '#b5411f', `✂${oos}`, supplyText(oos), { 'data-turns': oos });
      unitMarkers(u).forEach((m, i) => unitTag(ug, -w / 2 + 8 + i * 17, -h / 2 - 7, m.cls, m.fill, m.label, m.title, { 'data-marker': m.label }));   // Fast Play '44
      L.units.append(ug);
    }
  }

  // highlights: [{hex, kind, label}] kinds: select, move, battle, retreat, take_ground, target, choice
  setHighlights(highlights, selectableUnits = [], selected = null) {
    this.highlights = highlights || [];
    this.selectable = new Set(selectableUnits);
    this.selected = selected;
    if (this.view) this.renderUnits();
    this.renderHighlights();
  }

  renderHighlights() {
    const L = this.layers, g = this.geo;
    if (!L) return;
    clear(L.highlights);
    for (const id of this.selectable) {
      const u = ((this.view && this.view.units) || []).find((x) => x.id === id);
      if (!u || !u.hex) continue;
      const [cx, cy] = g.center(u.hex);
      L.highlights.append(svg('polygon', { points: polygonPoints(cx, cy, 0.9), class: `hl hl-select${this.selected === id ? ' hl-selected' : ''}`, 'data-hex': key(u.hex) }));
    }
    for (const hl of this.highlights) {
      const [cx, cy] = g.center(hl.hex);
      L.highlights.append(svg('polygon', { points: polygonPoints(cx, cy, 0.9), class: `hl hl-${hl.kind}`, 'data-hex': key(hl.hex), 'data-kind': hl.kind }));
      if (hl.label) L.highlights.append(svg('text', { x: cx, y: cy - H * 0.22, class: `hl-label hl-label-${hl.kind}` }, hl.label));
    }
  }

  // ---- keyboard cursor ------------------------------------------------------
  // hexes with something to do now: highlighted hexes, then the selectable units' hexes
  activeHexes() {
    const units = ((this.view && this.view.units) || []).filter((u) => this.selectable.has(u.id) && u.hex).map((u) => u.hex);
    const out = [...this.highlights.map((h) => h.hex), ...units];
    const seen = new Set();
    return out.filter((h) => !seen.has(key(h)) && seen.add(key(h)))
      .sort((a, b) => { const [ra, ca] = this.geo.disp(a), [rb, cb] = this.geo.disp(b); return ra - rb || ca - cb; });
  }
  firstActiveHex() {
    const act = this.geo ? this.activeHexes() : [];
    if (act.length) return act[0];
    if (!this.geo) return null;
    const r = Math.floor(this.geo.rows / 2);
    const c = Math.floor(this.geo.maxCol / 2);
    return [r, c - ((c - r) % 2 !== 0 ? 1 : 0)];
  }
  onKey(ev) {
    if (!this.geo || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const cur = this.cursor || this.firstActiveHex();
    const [r, c] = this.geo.disp(cur);
    const step = { ArrowLeft: [0, -2], ArrowRight: [0, 2], ArrowUp: [-1, -1], ArrowDown: [1, 1] }[ev.key];
    if (step) {
      ev.preventDefault();
      let nr = r + step[0], nc = c + step[1];
      if (step[0] && (nc < 0 || nc > this.geo.maxCol)) nc = c - step[1];
      if (nr < 0 || nr >= this.geo.rows || nc < 0 || nc > this.geo.maxCol) return;
      this.moveCursorTo(this.geo.disp([nr, nc]));   // disp() is its own inverse
      return;
    }
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      if (!this.cursor) { this.moveCursorTo(cur); return; }
      this.onHexClick(this.cursor, this.unitsByHex.get(key(this.cursor)) || null);
      return;
    }
    if (ev.key === 'n' || ev.key === 'p' || ev.key === 'N' || ev.key === 'P') {
      const act = this.activeHexes();
      if (!act.length) { this.announce(t('Nothing to do on the board now.')); return; }
      ev.preventDefault();
      const i = act.findIndex((h) => this.cursor && key(h) === key(this.cursor));
      const back = ev.key.toLowerCase() === 'p';
      const j = i < 0 ? (back ? act.length - 1 : 0) : (i + (back ? act.length - 1 : 1)) % act.length;
      this.moveCursorTo(act[j]);
    }
  }
  moveCursorTo(hex) {
    if (!hex) return;
    this.cursor = [hex[0], hex[1]];
    this.renderCursor();
    this.announce();
  }
  renderCursor() {
    const L = this.layers;
    if (!L || !L.cursor) return;
    clear(L.cursor);
    if (!this.cursor) return;
    const [cx, cy] = this.geo.center(this.cursor);
    L.cursor.append(svg('polygon', { points: polygonPoints(cx, cy, 0.97), class: 'kbd-cursor', 'data-hex': key(this.cursor) }));
  }
  // the live region: what is on the hex under the cursor (text of the tooltip)
  announce(text) {
    this.liveText.textContent = text || (this.cursor ? this.describeHex(this.cursor) : '');
  }
  describeHex(hex) {
    return this.hexInfo(hex).map((p) => p.textContent.trim()).filter(Boolean).join('. ').replace(/\.\./g, '.');
  }

  // ---- tooltips -------------------------------------------------------------
  bridgeAt(hex) {
    return ((this.view && this.view.bridges) || []).find((b) => b.hex && b.hex[0] === hex[0] && b.hex[1] === hex[1] && (b.rigged || b.hits));
  }

  showTooltip(hex, ev) {
    const unit = this.unitsByHex.get(key(hex));
    clear(this.tooltip).append(...this.hexInfo(hex));
    this.tooltip.hidden = false;
    this.moveTooltip(ev);
    if (this.onHexHover) this.onHexHover(hex, unit);
  }
  // what a hex holds, as lines: its coordinates, terrain, objectives, unit, what can be done
  hexInfo(hex) {
    const tiles = this.hexTiles(hex);
    const unit = this.unitsByHex.get(key(hex));
    const parts = [];
    parts.push(el('div', { class: 'tt-coord' }, t('Hex {row},{col}', { row: hex[0], col: hex[1] })));
    if (!tiles.length) parts.push(el('div', { class: 'tt-terrain' }, el('b', {}, t('Countryside')), ' — ', t('no effect')));
    for (const tile of tiles) {
      const f = FAMILIES[familyOf(tile)];
      parts.push(el('div', { class: 'tt-terrain' }, el('b', {}, f.label || tile.name || tile.code),
        tile.owner ? ` (${sideName(tile.owner)})` : '', el('div', { class: 'tt-desc' }, tileDescription(tile))));
    }
    for (const o of this.board.objectives || []) {
      if ((o.hexes || []).some((h) => h[0] === hex[0] && h[1] === hex[1])) {
        parts.push(el('div', { class: 'tt-obj' }, `${o.side ? t('Objective medal for {side}', { side: sideName(o.side) }) : t('Objective medal (either side)')}${o.counts_for > 1 ? ', ' + t('worth {n}', { n: o.counts_for }) : ''}${o.permanent ? ', ' + t('permanent once taken') : ''}.`));
      }
    }
    for (const ex of this.board.exits || []) {
      if ((ex.hexes || []).some((h) => h[0] === hex[0] && h[1] === hex[1])) {
        parts.push(el('div', { class: 'tt-obj' }, tn('Exit hex for {side}: a unit leaving the board here scores {n} medal.', 'Exit hex for {side}: a unit leaving the board here scores {n} medals.', ex.value || 1, { side: sideName(ex.side) })));
      }
    }
    const mine = ((this.view && this.view.mines) || []).find((m) => m.hex && m.hex[0] === hex[0] && m.hex[1] === hex[1]);
    if (mine) parts.push(el('div', { class: 'tt-obj' }, mine.value === null || mine.value === undefined ? t('Minefield (strength hidden): a unit entering must stop and reveals it.') : t('Minefield, strength {n}.', { n: mine.value })));
    const bridge = this.bridgeAt(hex);
    if (bridge) parts.push(el('div', { class: 'tt-obj tt-bridge' }, `${bridgeText(bridge, sideName)}.`));
    if (unit) {
      parts.push(el('div', { class: 'tt-unit' }, el('b', {}, unitTitle(unit)),
        ...unitDescription(unit).map((l) => el('div', {}, l))));
    }
    const hl = this.highlights.filter((x) => x.hex[0] === hex[0] && x.hex[1] === hex[1]);
    for (const h of hl) if (h.hint) parts.push(el('div', { class: 'tt-action' }, h.hint));
    if (unit && this.selectable.has(unit.id)) parts.push(el('div', { class: 'tt-action' }, this.selected === unit.id ? t('Selected.') : t('You can select this unit (Enter).')));
    return parts;
  }
  moveTooltip(ev) {
    if (this.tooltip.hidden) return;
    const r = this.container.getBoundingClientRect();
    const sx = this.container.scrollLeft || 0, sy = this.container.scrollTop || 0;   // a zoomed, scrolled frame
    let x = ev.clientX - r.left + 16, y = ev.clientY - r.top + 16;
    const tw = this.tooltip.offsetWidth, th = this.tooltip.offsetHeight;
    if (x + tw > r.width) x = Math.max(0, ev.clientX - r.left - tw - 12);
    if (y + th > r.height) y = Math.max(0, ev.clientY - r.top - th - 12);
    this.tooltip.style.left = `${x + sx}px`;
    this.tooltip.style.top = `${y + sy}px`;
  }
  hideTooltip() { this.tooltip.hidden = true; }
}

// A five-pointed star path (Battle Star marker), outer radius r, inner radius ri.
function starPath(r, ri) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? ri : r;
    pts.push(`${(rr * Math.cos(a)).toFixed(2)} ${(rr * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join(' L')} Z`;
}

// A small labelled tag on a unit counter (status markers), with a plain-words title.
function unitTag(ug, x, y, cls, fill, label, title, data = {}) {
  const tg = svg('g', { class: cls, transform: `translate(${x},${y})`, ...data });
  const wd = 7 + label.length * 5.2;
  tg.append(svg('rect', { x: -wd / 2, y: -6.5, width: wd, height: 13, rx: 4, fill, stroke: '#fff', 'stroke-width': 1 }));
  tg.append(svg('text', { class: 'unit-tag-text', y: 3.6 }, label));
  tg.append(svg('title', {}, title));
  ug.append(tg);
}
