// France 1944 revised combat referee (ruleset "france1944", renderer "referee"):
// a combat form page, not a board. The renderer interface of static/renderer_host.js
// (docs/architecture.md "Client renderers"): mount(el, ctx) once, render(s) after every
// change, unmount(), describe(event) for the host's log, sideLabel(side).
//
// The page never computes a rule: odds, modifiers and shifts are the engine's (the
// `assessment` of each declared combat, its `lines` in words); the forms only collect
// the players' entries and send them; a refusal comes back with the engine's reason.
import { el, clear } from '../util.js';
import { t, tn } from '../i18n.js';

let root = null;
let ctx = null;
let last = null;           // the last render's state
let focus = null;          // combat id shown in Table 1 (null: the last resolved)
const draft = {            // form entries survive re-renders
  attackers: '', hqs: '', attack_hexes: '', defenders: '', defence_hexes: '',
  attack_strength: '', defence_strength: '', attacker_morale: '5', defender_morale: '4',
  terrain1: false, terrain2: false, armoured_79th: '0', heavy_bombing: '0', mobile: false,
  odds_column: '', hq: '', unit: '', sp_hq: false, sp_oos: false, air_adj: '-1',
  reaction_points: '', initiative_markers: '', air_availability: '', ratio_result: '1',
};

const SIDE = { ALLIED: t('Allied player'), GERMAN: t('German player') };
const SIDE_NAME = { ALLIED: t('the Allies'), GERMAN: t('the Germans') };
// the host's labels: "You play the Allies", "Play the Germans"
export function sideLabel(side) { return SIDE_NAME[side] || ''; }
const STEP = {
  turn_setup: t('Turn entries: each player enters his reaction points and initiative markers (the Allies also the air power availability)'),
  floor: t('Initiative: begin an Initiative Phase (activating an HQ) or pass'),
  phase: t('Phase in progress: open a combat increment or end the phase'),
  declare: t('Combat increment: declare every combat before any is resolved'),
  resolve: t('Combat increment: resolve the declared combats in the attacker\'s order'),
  chance: t('The server is rolling the die'),
  ratio_result: t('Alternative CRDT: enter the ratio result read on your original CRT'),
  reaction_offer: t('Reaction Segment offered: engage or decline'),
  segment: t('Reaction Segment: an Army Reaction Phase, or up to three Single-Piece Reaction Phases'),
  over: t('The session is over'),
};

export function mount(elem, context) {
  root = elem;
  ctx = context;
  if (!document.getElementById('f44-css')) {
    document.head.append(el('link', { id: 'f44-css', rel: 'stylesheet', href: '/static/renderers/referee.css' }));
  }
}

export function unmount() { if (root) clear(root); }

export function render(s) {
  last = s;
  if (!root || !s.view) return;
  const active = document.activeElement;
  const activeName = active && root.contains(active) ? active.getAttribute('name') : null;
  clear(root);
  root.classList.add('f44');
  root.append(statusBox(s), sidesBox(s), actBox(s), combatsBox(s), tableBox(s), logBox(s), helpBox(s));
  if (activeName) {
    const again = root.querySelector(`[name="${activeName}"]`);
    if (again) again.focus();
  }
}

function rerender() { if (last) render(last); }

// ---------------------------------------------------------------- helpers
const legalTypes = (s) => new Set((s.legal || []).map((a) => a.type));
function send(action) { ctx.sendAction({ ...action, seat: last && last.seat }); }
function list(text) { return String(text || '').split(',').map((x) => x.trim()).filter(Boolean); }
function num(text) { const n = Number(String(text).trim()); return Number.isInteger(n) ? n : text; }
function signed(n) { return n > 0 ? `+${n}` : String(n); }

function input(name, label, opts = {}) {
  const attrs = { name, value: draft[name], oninput: (e) => { draft[name] = e.target.value; }, ...opts };
  return el('label', { class: 'f44-field' }, el('span', {}, label), el('input', attrs));
}
function check(name, label) {
  return el('label', { class: 'f44-check' }, el('input', { type: 'checkbox', name, checked: draft[name],
    onchange: (e) => { draft[name] = e.target.checked; } }), ` ${label}`);
}
function select(name, label, values) {
  const sel = el('select', { name, onchange: (e) => { draft[name] = e.target.value; } },
    values.map(([v, text]) => el('option', { value: v, selected: String(draft[name]) === String(v) }, text)));
  return el('label', { class: 'f44-field' }, el('span', {}, label), sel);
}
function button(text, action, primary = false) {
  return el('button', { type: 'button', class: primary ? 'primary' : '', onclick: () => send(action) }, text);
}

// ---------------------------------------------------------------- status and sides
function statusBox(s) {
  const v = s.view;
  const who = (v.to_act || []).map((x) => (x === 'chance' ? t('the dice') : SIDE[x] || x)).join(', ');
  const mine = (v.to_act || []).includes(s.seat);
  return el('section', { class: 'panel f44-status', id: 'f44-status' },
    el('div', { class: 'f44-turn' }, t('France 1944 — game turn {n} of {total}', { n: v.turn, total: v.turns })),
    el('div', {}, STEP[v.step] || v.step),
    v.game_over ? null : el('div', { class: mine ? 'f44-you' : 'muted' },
      mine ? t('Your move.') : t('Waiting for {names}.', { names: who })),
    el('div', { class: 'muted' }, s.seat ? t('You are the {side}.', { side: SIDE[s.seat] || s.seat }) : t('You are watching (spectator).')));
}

function sidesBox(s) {
  const v = s.view;
  const rows = ['ALLIED', 'GERMAN'].map((side) => {
    const e = (v.entries || {})[side];
    const hqs = ((v.hq_activations || {})[side] || []).join(', ') || '—';
    return el('tr', {}, el('th', {}, SIDE[side]),
      el('td', {}, e ? e.reaction_points : '…'), el('td', {}, e ? e.initiative_markers : '…'),
      el('td', {}, side === 'ALLIED' && e ? t('{n} in 6', { n: e.air_availability }) : '—'), el('td', {}, hqs));
  });
  const where = [];
  if (v.phase) where.push(t('{phase} of the {side}', { phase: phaseName(v.phase), side: SIDE[v.phase.side] }));
  if (v.segment) where.push(tn('Reaction Segment of the {side}: {n} point spent', 'Reaction Segment of the {side}: {n} points spent', v.segment.spent, { side: SIDE[v.segment.side] }));
  if (v.increment) where.push(t('combat increment {n} (attacker: {side})', { n: v.increment.number, side: SIDE[v.increment.attacker] }));
  return el('section', { class: 'panel', id: 'f44-sides' },
    el('table', { class: 'f44-sides' },
      el('tr', {}, el('th', {}, ''), el('th', {}, t('Reaction points')), el('th', {}, t('Initiative markers')),
        el('th', {}, t('Air power availability')), el('th', {}, t('HQs activated this turn'))), rows),
    where.length ? el('div', { class: 'f44-where' }, where.join(' — ')) : null);
}

function phaseName(p) {
  if (p.kind === 'initiative') return t('Initiative Phase (HQ {hq})', { hq: p.hq });
  if (p.kind === 'army') return t('Army Reaction Phase (HQ {hq})', { hq: p.hq });
  return p.out_of_supply ? t('Single-Piece Reaction Phase ({unit}, out of supply)', { unit: p.unit }) : t('Single-Piece Reaction Phase ({unit})', { unit: p.unit });
}

// ---------------------------------------------------------------- what I may do
function actBox(s) {
  const types = legalTypes(s);
  const box = el('section', { class: 'panel f44-act', id: 'f44-act' }, el('h3', {}, t('Your entries')));
  if (!types.size) { box.append(el('div', { class: 'muted' }, t('Nothing to enter now.'))); return box; }
  if (types.has('turn_entries')) box.append(turnEntriesForm(s));
  if (types.has('begin_initiative_phase')) {
    box.append(el('div', { class: 'f44-row' }, input('hq', t('HQ activated')),
      el('button', { type: 'button', class: 'primary', onclick: () => send({ type: 'begin_initiative_phase', hq: draft.hq }) }, t('Begin Initiative Phase'))));
  }
  if (types.has('declare_combat')) box.append(declareForm(s));
  if (types.has('army_reaction') || types.has('single_piece_reaction')) box.append(reactionForm(types));
  if (types.has('enter_ratio_result')) {
    box.append(el('div', { class: 'f44-row' }, select('ratio_result', t('Ratio result (original CRT)'), [1, 2, 3, 4, 5].map((n) => [n, n])),
      el('button', { type: 'button', class: 'primary', onclick: () => send({ type: 'enter_ratio_result', ratio_result: num(draft.ratio_result) }) }, t('Enter ratio result'))));
  }
  const simple = {
    pass: t('Pass (no Initiative Phase)'), open_increment: t('Open a combat increment'), end_phase: t('End the phase'),
    end_declarations: t('All combats declared: resolve'), engage_reaction: t('Engage a Reaction Segment'),
    decline_reaction: t('Decline the Reaction Segment'), end_segment: t('End the Reaction Segment'),
  };
  const bar = el('div', { class: 'actions-bar f44-buttons' });
  for (const [type, text] of Object.entries(simple)) {
    if (types.has(type)) bar.append(button(text, { type }, type === 'end_declarations' || type === 'open_increment'));
  }
  if (bar.childNodes.length) box.append(bar);
  if (types.has('resolve_combat')) box.append(el('div', { class: 'muted' }, t('Pick the next combat to resolve below (any order).')));
  return box;
}

function turnEntriesForm(s) {
  const allied = s.seat === 'ALLIED';
  const send_ = () => {
    const a = { type: 'turn_entries', reaction_points: num(draft.reaction_points), initiative_markers: num(draft.initiative_markers) };
    if (allied) a.air_availability = num(draft.air_availability);
    send(a);
  };
  return el('div', { class: 'f44-row' },
    input('reaction_points', t('Reaction points'), { type: 'number', min: 0, max: 30 }),
    input('initiative_markers', t('Initiative markers'), { type: 'number', min: 0, max: 10 }),
    allied ? input('air_availability', t('Air power availability (die ≤)'), { type: 'number', min: 0, max: 6 }) : null,
    el('button', { type: 'button', class: 'primary', onclick: send_ }, t('Enter')));
}

function declaration(opts) {
  const a = {
    type: 'declare_combat', attackers: list(draft.attackers), hqs: list(draft.hqs),
    attack_hexes: list(draft.attack_hexes), defenders: list(draft.defenders), defence_hexes: list(draft.defence_hexes),
    attack_strength: num(draft.attack_strength), defence_strength: num(draft.defence_strength),
    attacker_morale: num(draft.attacker_morale), defender_morale: num(draft.defender_morale),
    terrain: [draft.terrain1 ? 1 : null, draft.terrain2 ? 2 : null].filter((x) => x !== null),
    armoured_79th: num(draft.armoured_79th), heavy_bombing: num(draft.heavy_bombing), mobile: !!draft.mobile,
  };
  if (opts.attacker_may_choose_lower_odds && draft.odds_column) a.odds_column = draft.odds_column;
  return a;
}

// ---------------------------------------------------------------- explanations
// An assessment's or a resolution's steps (engine/rulesets/france1944/combat.py: a step and
// its numbers) in the reader's language; `lines` (the engine's English) for an old event.
const sg = (n) => (n >= 0 ? `+${n}` : String(n));
function stepText(x) {
  switch (x.step) {
    case 'odds': return t('Odds {attack} : {defence} -> {odds} (rounded in the defender\'s favour)', x);
    case 'lower_column': return t('Attacker uses the lower column {odds}', x);
    case 'morale_adjustment': {
      const parts = [t('terrain {n} (best only)', { n: sg(x.terrain) })];
      if (x.armoured_79th) parts.push(t('79th Armoured {n}', { n: sg(x.armoured_79th) }));
      if (x.heavy_bombing) parts.push(t('heavy bombing {n}', { n: sg(x.heavy_bombing) }));
      if (x.air_power) parts.push(t('air power {n}', { n: sg(x.air_power) }));
      const line = t('Defender morale adjustment: {parts} = {total}', { parts: parts.join(', '), total: sg(x.total) });
      return x.kept === null || x.kept === undefined ? line : `${line}, ${t('kept within -3..+2: {n}', { n: sg(x.kept) })}`;
    }
    case 'defender_morale': {
      const line = t('Defender morale {morale} {adjustment} = {total}', { ...x, adjustment: sg(x.adjustment) });
      return x.kept === null || x.kept === undefined ? line : `${line}, ${t('kept within 1..6: {n}', { n: x.kept })}`;
    }
    case 'original_crt': return t('Original CRT at {odds} with the die; Alternative CRDT with attacker morale {attacker_morale} and defender morale {defender_morale}', x);
    case 'morale_modifier': return t('Morale modifier: attacker {attacker_morale} - defender {defender_morale} = {modifier}', { ...x, modifier: sg(x.modifier) });
    case 'control_modifier': return `${tn('Control modifier: {n} attacking unit', 'Control modifier: {n} attacking units', x.units)}${x.hqs ? ` (${tn('{n} HQ not counted', '{n} HQs not counted', x.hqs)})` : ''}, ${t('control limit {limit} (morale {attacker_morale}) -> {modifier}', { ...x, modifier: sg(x.modifier) })}`;
    case 'combat_modifier': return `${t('Combat modifier {a} {b} = {m}', { a: sg(x.morale_modifier), b: sg(x.control_modifier), m: sg(x.modifier) })}: ${x.modifier >= 0
      ? tn('{n} column shift right', '{n} column shifts right', Math.abs(x.modifier)) : tn('{n} column shift left', '{n} column shifts left', Math.abs(x.modifier))}, ${x.from} -> ${x.to}`;
    case 'excess_shifts': return t('Excess shifts beyond {odds}: die roll modifier {modifier}', { ...x, modifier: sg(x.modifier) });
    case 'die': {
      if (!x.modifier) return t('Die {die}', x);
      const line = t('Die {die} {modifier} = {total}', { ...x, modifier: sg(x.modifier) });
      return x.adjusted === x.total ? line : `${line}, ${t('treated as {n}', { n: x.adjusted })}`;
    }
    case 'table': return t('Table 1, roll {row}, column {odds}: {cell} -> {result} ({kind})', { ...x, kind: x.mobile ? t('mobile combat') : t('set-piece combat') });
    default: return x.step;
  }
}
function explained(o) { return o && Array.isArray(o.steps) ? o.steps.map(stepText) : ((o && o.lines) || []); }

// The engine's assessment of the form before declaring (POST /api/rulesets/{name}/preview:
// nothing applied): a declaration is final, so the attacker sees its odds and shifts first.
const preview = { timer: null, lines: [], error: '', n: 0 };
function schedulePreview() {
  clearTimeout(preview.timer);
  preview.timer = setTimeout(runPreview, 250);
}
async function runPreview() {
  if (!last || !last.view) return;
  const n = ++preview.n;
  let lines = [];
  let error = '';
  try {
    const r = await fetch(`/api/rulesets/${encodeURIComponent(ctx.cfg.ruleset)}/preview`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ options: last.view.options || {}, action: declaration(last.view.options || {}) }) });
    const body = await r.json();
    if (r.ok) lines = explained(body.preview.assessment);
    else error = (body.error && body.error.message) || `HTTP ${r.status}`;
  } catch (e) { error = String(e); }
  if (n !== preview.n) return;      // a newer preview is on its way
  Object.assign(preview, { lines, error });
  const box = root && root.querySelector('#f44-preview');
  if (box) box.replaceWith(previewBox());
}
function previewBox() {
  return el('div', { id: 'f44-preview', class: 'f44-preview' },
    el('div', { class: 'muted' }, t('Before you declare (computed by the server, nothing declared yet):')),
    preview.error ? el('div', { class: 'error' }, preview.error)
      : preview.lines.length ? el('ol', { class: 'f44-lines' }, preview.lines.map((line) => el('li', {}, line)))
        : el('div', { class: 'muted' }, t('fill in the strengths and morale')));
}

function declareForm(s) {
  const opts = s.view.options || {};
  const morale = [1, 2, 3, 4, 5, 6].map((n) => [n, n]);
  const adj = [0, -1, -2, -3].map((n) => [n, n ? String(n) : t('none')]);
  const declare = () => send(declaration(opts));
  const odds = (last.board && last.board.odds) || [];
  return el('fieldset', { class: 'f44-declare', oninput: schedulePreview, onchange: schedulePreview },
    el('legend', {}, t('Declare a combat (final once declared: no change, no cancel)')),
    el('div', { class: 'f44-row' },
      input('attackers', t('Attacking combat units (comma separated, at most 8)')),
      input('hqs', t('Attacking HQs (not counted for control)')),
      input('attack_hexes', t('Attacking hex(es): 1 or 2'))),
    el('div', { class: 'f44-row' },
      input('defenders', t('Defending units')), input('defence_hexes', t('Defending hex(es): 1 or 2 (3 hexes at most in all)'))),
    el('div', { class: 'f44-row' },
      input('attack_strength', t('Attack strength'), { type: 'number', min: 1 }),
      input('defence_strength', t('Defence strength'), { type: 'number', min: 1 }),
      select('attacker_morale', t('Attacker morale'), morale), select('defender_morale', t('Defender morale (printed)'), morale)),
    el('div', { class: 'f44-row' },
      el('span', { class: 'f44-field' }, el('span', {}, t('Terrain (best only)')),
        el('span', { class: 'f44-checks' }, check('terrain1', '+1'), check('terrain2', '+2'))),
      select('armoured_79th', t('79th Armoured'), adj), select('heavy_bombing', t('Heavy bombing'), adj),
      check('mobile', t('Mobile combat (second letter)')),
      opts.attacker_may_choose_lower_odds ? select('odds_column', t('Use odds column'), [['', t('computed')], ...odds.map((o) => [o, o])]) : null),
    previewBox(),
    el('button', { type: 'button', class: 'primary', onclick: declare }, t('Declare this combat')));
}

function reactionForm(types) {
  return el('div', { class: 'f44-react' },
    types.has('army_reaction') ? el('div', { class: 'f44-row' }, input('hq', t('HQ')),
      el('button', { type: 'button', onclick: () => send({ type: 'army_reaction', hq: draft.hq }) }, t('Army Reaction Phase (3 points)'))) : null,
    types.has('single_piece_reaction') ? el('div', { class: 'f44-row' }, input('unit', t('Unit')),
      check('sp_hq', t('it is an HQ')), check('sp_oos', t('out of supply (loses a step first)')),
      el('button', { type: 'button', onclick: () => send({ type: 'single_piece_reaction', unit: draft.unit, hq: !!draft.sp_hq, out_of_supply: !!draft.sp_oos }) }, t('Single-Piece Reaction Phase (1 point)'))) : null,
    el('div', { class: 'muted' }, t('All or nothing: a segment in which you spend points costs 3 in all; the rest is lost when it ends.')));
}

// ---------------------------------------------------------------- declared combats
function combatsBox(s) {
  const inc = s.view.increment;
  const box = el('section', { class: 'panel', id: 'f44-combats' }, el('h3', {}, t('Combats of this increment')));
  if (!inc) { box.append(el('div', { class: 'muted' }, t('No combat increment open.'))); return box; }
  if (!inc.combats.length) box.append(el('div', { class: 'muted' }, t('Nothing declared yet.')));
  const legal = s.legal || [];
  for (const c of inc.combats) {
    const d = c.declaration;
    const a = c.assessment;
    const canResolve = legal.some((x) => x.type === 'resolve_combat' && x.combat === c.id);
    const canAir = legal.some((x) => x.type === 'air_power' && x.combat === c.id);
    const card = el('div', { class: `f44-combat${focus === c.id ? ' focused' : ''}${c.result ? ' done' : ''}`, dataset: { combat: c.id },
      onclick: () => { focus = c.id; rerender(); } },
      el('div', { class: 'f44-combat-head' }, `${t('Combat {id}:', { id: c.id })} `,
        el('b', {}, d.attackers.join(', ')), d.hqs.length ? ` (+ HQ ${d.hqs.join(', ')})` : '',
        ` ${t('from {hexes} against', { hexes: d.attack_hexes.join(' & ') })} `, el('b', {}, d.defenders.join(', ')),
        ` ${t('in {hexes}', { hexes: d.defence_hexes.join(' & ') })} — ${d.mobile ? t('mobile combat') : t('set-piece combat')}`),
      el('ol', { class: 'f44-lines' }, explained(a).map((line) => el('li', {}, line))),
      c.air_power ? el('div', { class: 'f44-air' }, t('Air power allocated: defender morale {n}', { n: signed(c.air_power) })) : null,
      c.result ? resultLine(c.result, s.view) : null);
    if (canResolve || canAir) {
      const bar = el('div', { class: 'actions-bar' });
      if (canResolve) bar.append(button(t('Resolve this combat (roll the die)'), { type: 'resolve_combat', combat: c.id }, true));
      if (canAir) {
        bar.append(select('air_adj', t('Air power: defender morale'), [[-1, '-1'], [-2, '-2'], [-3, '-3'], [0, '0']]),
          el('button', { type: 'button', onclick: (e) => { e.stopPropagation(); send({ type: 'air_power', combat: c.id, morale_adjustment: num(draft.air_adj) }); } }, t('Try air power (one roll this increment)')));
      }
      card.append(bar);
    }
    box.append(card);
  }
  return box;
}

function resultLine(r, view) {
  if (r.ratio_result !== undefined && r.cell === undefined) {
    return el('div', { class: 'f44-result' }, r.ratio_result == null ? t('Die {die}: waiting for the ratio result', { die: r.die })
      : t('Die {die}, ratio result {ratio}: CRDT result columns {columns}, defender morale column {morale}', { die: r.die, ratio: r.ratio_result, columns: r.result_columns, morale: r.morale_reference }));
  }
  const meaning = (view.options.result_meanings || {})[r.result];
  return el('div', { class: 'f44-result' }, explained(r).join(' — '), ' ', el('b', { class: 'f44-letter' }, r.result),
    meaning ? ` (${meaning})` : '');
}

// ---------------------------------------------------------------- Table 1
function focusedCell(s) {
  const inc = s.view.increment;
  const combats = inc ? inc.combats : [];
  let c = combats.find((x) => x.id === focus);
  if (!c) c = [...combats].reverse().find((x) => x.result && x.result.cell);
  if (c) return { col: c.assessment.final_column, from: c.assessment.column, row: c.result && c.result.row, id: c.id };
  const ev = [...(s.view.log || [])].reverse().find((e) => e.type === 'combat_resolved');
  if (!ev) return null;
  const odds = (s.board && s.board.odds) || [];
  return { col: odds.indexOf(ev.odds), from: null, row: ev.row, id: ev.combat };
}

function tableBox(s) {
  const b = s.board || {};
  const odds = b.odds || [];
  const f = focusedCell(s);
  const anomalies = new Set((b.anomalies || []).map((x) => `${x.die}|${x.odds}`));
  const head = el('tr', {}, el('th', {}, t('Die')), odds.map((o, i) => el('th', { class: f && f.col === i ? 'col-used' : (f && f.from === i ? 'col-from' : '') }, o)));
  const rows = (b.table || []).map((row, r) => el('tr', {}, el('th', {}, r + 1), row.map((cell, i) => {
    const used = f && f.col === i && f.row === r + 1;
    const cls = [used ? 'cell-used' : '', f && f.col === i ? 'col-used' : ''].filter(Boolean).join(' ');
    const mark = anomalies.has(`${r + 1}|${odds[i]}`) ? '*' : '';
    return el('td', { class: cls, title: t('roll {n}, {odds}: set-piece {a}, mobile {b}', { n: r + 1, odds: odds[i], a: cell[0], b: cell[1] }) }, cell, mark);
  })));
  const meanings = Object.entries((s.view.options || {}).result_meanings || {});
  return el('section', { class: 'panel', id: 'f44-table' },
    el('h3', {}, t('Table 1 — France 1944 Revised Combat Table')),
    (s.view.options || {}).alternative_crdt ? el('div', { class: 'f44-where' },
      t('This session uses the original CRT and the Alternative CRDT (option): Table 1 is shown for reference only.')) : null,
    el('div', { class: 'muted' }, f ? (f.row ? t('Combat {id}: column {odds}, roll {n}', { id: f.id, odds: odds[f.col], n: f.row }) : t('Combat {id}: column {odds} (not rolled yet)', { id: f.id, odds: odds[f.col] })) : t('The column and cell of the combat shown are highlighted.')),
    el('table', { class: 'f44-crt' }, head, rows),
    el('div', { class: 'muted' }, t('First letter: set-piece combat; second letter: mobile combat. * roll 6 / 1-1 is printed "DB" on the published page (kept as published).')),
    meanings.length ? el('ul', { class: 'f44-meanings' }, meanings.map(([k, text]) => el('li', {}, el('b', {}, k), ` ${text}`))) : null);
}

// ---------------------------------------------------------------- shared log
export function describe(e) {
  const who = SIDE[e.side] || e.side || '';
  switch (e.type) {
    case 'turn_entries': return `${t('{side}: {points} reaction points, {markers} initiative markers', { side: who, points: e.reaction_points, markers: e.initiative_markers })}${e.air_availability !== undefined ? ', ' + t('air power availability {n}', { n: e.air_availability }) : ''}`;
    case 'floor': return t('{side} may begin an Initiative Phase', { side: who });
    case 'hq_activated': return tn('{side} activates HQ {hq} ({n} time this turn)', '{side} activates HQ {hq} ({n} times this turn)', e.count, { side: who, hq: e.hq });
    case 'phase_started': return `${t('{side} begins {phase}', { side: who, phase: phaseName({ ...e, kind: e.kind }) })}${e.cost ? ' — ' + tn('{n} point, {left} left', '{n} points, {left} left', e.cost, { left: e.points_left }) : ''}`;
    case 'phase_ended': return t('{side} ends the phase', { side: who });
    case 'passed': return t('{side} passes', { side: who });
    case 'increment_opened': return t('{side} opens combat increment {n}', { side: who, n: e.number });
    case 'combat_declared': {
      const d = e.declaration;
      return t('Combat {id} declared: {attackers} ({attack}, morale {attack_morale}) against {defenders} ({defence}, morale {defence_morale}) — {lines}', {
        id: e.combat, attackers: d.attackers.join(', '), attack: d.attack_strength, attack_morale: d.attacker_morale,
        defenders: d.defenders.join(', '), defence: d.defence_strength, defence_morale: d.defender_morale, lines: explained(e.assessment).join('; ') });
    }
    case 'declarations_closed': return tn('{side} has declared {n} combat; none may now be changed or cancelled', '{side} has declared {n} combats; none may now be changed or cancelled', e.combats, { side: who });
    case 'combat_resolving': return t('{side} resolves combat {id}', { side: who, id: e.combat });
    case 'combat_resolved': return `${t('Combat {id}: {lines} — result {result}', { id: e.combat, lines: explained(e).join('; '), result: e.result })}${e.meaning ? ` (${e.meaning})` : ''}`;
    case 'combat_die_rolled': return t('Combat {id}: die {die} at {odds}', { id: e.combat, die: e.die, odds: e.odds });
    case 'ratio_result_entered': return t('Combat {id}: ratio result {ratio} — CRDT result columns {columns}, defender morale column {morale}', { id: e.combat, ratio: e.ratio_result, columns: e.result_columns, morale: e.morale_reference });
    case 'increment_closed': return t('Combat increment {n} closed', { n: e.number });
    case 'air_power_attempted': return t('Allied air power tried for combat {id} (availability {n})', { id: e.combat, n: e.availability });
    case 'air_power_rolled': return e.available ? t('Air power die {die}: available — combat {id} re-computed', { die: e.die, id: e.combat }) : t('Air power die {die}: not available this increment', { die: e.die });
    case 'reaction_offered': return t('{side} may engage a Reaction Segment', { side: who });
    case 'reaction_declined': return t('{side} declines the Reaction Segment', { side: who });
    case 'reaction_segment_started': return tn('{side} engages a Reaction Segment ({n} point)', '{side} engages a Reaction Segment ({n} points)', e.points, { side: who });
    case 'reaction_segment_ended': return t('{side} ends the Reaction Segment: {spent} spent, {lost} lost (all or nothing), {left} left', { side: who, spent: e.spent, lost: e.lost, left: e.points_left });
    case 'out_of_supply_step_loss': return t('{unit} (out of supply) is reduced a step before its first increment; attacking, it does not suffer the one-half strength reduction', { unit: e.unit });
    case 'turn_ended': return t('Game turn {n} ends', { n: e.turn });
    case 'turn_started': return t('Game turn {n} begins', { n: e.turn });
    case 'session_over': return t('The session is over');
    default: return e.type;
  }
}

function logBox(s) {
  const log = s.view.log || [];
  const exportLog = () => {
    const data = { ruleset: s.view.ruleset, options: s.view.options, exported_at_seq: s.seq, log };
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: 'application/json' });
    const a = el('a', { href: URL.createObjectURL(blob), download: 'france1944-session-log.json' });
    document.body.append(a); a.click(); a.remove();
  };
  const gid = document.body.dataset.gameId;
  return el('section', { class: 'panel', id: 'f44-log' },
    el('h3', {}, t('Session log (shared by both players and spectators)')),
    el('button', { type: 'button', id: 'f44-export', onclick: exportLog }, t('Export the session log (JSON)')),
    s.view.game_over && gid ? el('a', { href: `/api/games/${encodeURIComponent(gid)}/log`, class: 'f44-replay' },
      ` ${t('Full replay log (actions, dice seed)')}`) : null,
    el('ol', { class: 'f44-log', reversed: true }, [...log].reverse().map((e) => el('li', { class: `ev-${e.type}` }, `T${e.turn} · ${describe(e)}`))));
}

// ---------------------------------------------------------------- rules help
function helpBox() {
  const rows = [
    [t('Odds'), t('attack : defence rounded down (defender\'s favour) to 1-4 … 4-1; above 4-1 uses 4-1; below 1-4 refused.')],
    [t('Morale modifier (rule 4)'), t('attacker morale − adjusted defender morale; defender morale kept within 1..6.')],
    [t('Terrain (clarification)'), t('only the best terrain adjustment (+1 or +2); 79th Armoured and heavy bombing add up; total adjustment within −3..+2 (air power included).')],
    [t('Control modifier (rule 5)'), t('attacking combat units − control limit of the attacker\'s morale, never positive; HQs not counted; at most 8 attacking units.')],
    [t('Shifts (rules 2, 3)'), t('combat modifier = morale + control, one column per point; shifts beyond 4-1 / 1-4 become a die modifier; die kept within 1..6.')],
    [t('Declaration order'), t('every combat of the increment declared before any is resolved; resolved in the attacker\'s order; never changed or cancelled.')],
    [t('Reaction'), t('all or nothing: 3 points or none per segment; one Army Reaction Phase (3 points) or up to three Single-Piece Reaction Phases (1 point each, different units); HQ at most twice a turn, not twice in a row after turn 1.')],
    [t('Air power'), t('the Allies try once per combat increment for one declared combat: success when the die ≤ the availability entered for the turn.')],
    [t('Dice'), t('the server rolls every die; the log shows every entry, modifier, shift, roll and result to both players and spectators.')],
  ];
  return el('details', { class: 'panel f44-help', id: 'f44-help' }, el('summary', {}, t('Rules used (France 1944 Revisions 2.0.6)')),
    el('table', {}, rows.map(([k, text]) => el('tr', {}, el('th', {}, k), el('td', {}, text)))),
    el('p', { class: 'muted' }, t('Full list with the choices made where the text is silent: docs/rules-coverage.md, "France 1944 revised combat".')));
}
