// Lobby: guest identity, scenario choice/upload, game creation, open/live games, invites.
import { el, clear, sideName, onSubmit } from './util.js';
import { t, tn, term, errorText, LANG } from './i18n.js';

const API = document.body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);
let me = null;
let scenarios = [];
let rulesets = [];     // GET /api/rulesets: {name, title, summary, setup, renderer, modes, options}

async function api(path, opts = {}) {
  const init = { credentials: 'same-origin', ...opts };
  if (init.body && !(init.body instanceof FormData)) init.headers = { 'Content-Type': 'application/json', ...(init.headers || {}) };
  const r = await fetch(`${API}${path}`, init);
  let data = null;
  try { data = await r.json(); } catch (_) { /* no body */ }
  if (!r.ok) {
    const err = new Error((data && data.error && errorText(data.error)) || `HTTP ${r.status}`);
    err.code = data && data.error && data.error.code;
    err.details = (data && data.error && data.error.details) || {};
    err.status = r.status;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------- identity
async function loadMe() {
  // an anonymous visitor has no identity to ask for (no 401 in the console)
  if (document.body.dataset.signedIn === '0' && !me) me = null;
  else { try { me = await api('/identity/me'); } catch (_) { me = null; } }
  renderMe();
}
function renderMe() {
  $('identity-status').innerHTML = '';
  if (me) {
    $('identity-status').append(t('You are'), ' ', el('b', { 'data-me': me.name }, me.name), '.');
    $('identity-submit').textContent = t('Change name');
    $('whoami').innerHTML = '';
    $('whoami').append(t('Playing as'), ' ', el('b', {}, me.name));
  } else {
    $('identity-status').textContent = t('Pick a name to create or join games (a guest identity is kept in a cookie).');
    $('identity-submit').textContent = t('Enter');
  }
  $('create-submit').disabled = !me;
  $('create-submit').title = me ? '' : t('Enter a name first');
}
onSubmit($('identity-form'), async () => {
  const name = $('identity-name').value.trim();
  if (!name) return;
  try {
    me = await api('/identity', { method: 'POST', body: JSON.stringify({ name }) });
    renderMe();
    refreshGames();
  } catch (e) { $('identity-status').textContent = t('Could not create the identity: {error}', { error: e.message }); }
});

// ---------------------------------------------------------------- scenarios
async function loadScenarios(selectId) {
  try { scenarios = await api('/scenarios'); } catch (e) { scenarios = []; $('create-error').textContent = t('Could not load scenarios: {error}', { error: e.message }); }
  if (needsNoScenario()) return;      // a ruleset without scenarios was chosen meanwhile
  const sel = clear($('scenario-select'));
  const groups = { bundled: el('optgroup', { label: t('Bundled scenarios') }), uploaded: el('optgroup', { label: t('Uploaded') }) };
  const counts = {};
  for (const s of scenarios) counts[s.name] = (counts[s.name] || 0) + 1;
  // battles only: a rules example (a board drawn to show a rule, ScenarioSummary.kind) is
  // not a scenario to play
  for (const s of scenarios.filter((x) => acceptedHere(x) && (x.kind || 'battle') === 'battle')) {
    const name = counts[s.name] > 1 ? `${term(s.name)} — ${s.id}` : term(s.name);
    (groups[s.source] || groups.bundled).append(el('option', { value: s.id, title: summaryLine(s) }, name));
  }
  for (const g of Object.values(groups)) if (g.childNodes.length) sel.append(g);
  // default: a playable classic (Pegasus Bridge), never a rules-examples file
  const playable = scenarios.filter((x) => !x.error && acceptedHere(x) && (x.kind || 'battle') === 'battle');
  const dflt = playable.find((x) => x.id === '2-PegasusBridge') || playable.find((x) => /pegasus/i.test(x.name || '')) || playable[0];
  if (selectId && playable.some((x) => x.id === selectId)) sel.value = selectId;
  else if (dflt) sel.value = dflt.id;
  onScenarioChange();
}
// Ways to share a side's role seats among players: players per side -> groups of roles,
// each group held by one player. Taken from the API (ScenarioSummary.layouts:
// {mode: {players: [[roles]]}}, the engine's seat_layouts); FALLBACK_LAYOUTS only while a
// server does not send them yet.
const FALLBACK_LAYOUTS = {
  overlord: { 4: [['cinc'], ['left'], ['centre'], ['right']], 3: [['cinc', 'centre'], ['left'], ['right']],
              2: [['cinc', 'centre'], ['left', 'right']], 1: [['cinc', 'left', 'centre', 'right']] },
  team: { 3: [['cinc', 'centre'], ['left'], ['right']], 2: [['cinc', 'centre'], ['left', 'right']], 1: [['cinc', 'left', 'centre', 'right']] },
};
const ROLE_NAMES = { cinc: t('C-in-C'), left: t('Left FG'), centre: t('Centre FG'), right: t('Right FG') };
function layoutsOf(s, mode) {
  const api = s && s.layouts && s.layouts[mode];
  if (api && typeof api === 'object' && Object.keys(api).length) {
    // a one-seat-per-side mode (1v1) has nothing to choose
    const groups = Object.values(api);
    if (groups.every((g) => Array.isArray(g) && g.length === 1 && (!Array.isArray(g[0]) || g[0].length <= 1)) && !FALLBACK_LAYOUTS[mode]) return null;
    return api;
  }
  return FALLBACK_LAYOUTS[mode] || null;
}
function layoutText(s) {
  return ((s && s.modes) || []).map((m) => {
    const ls = layoutsOf(s, m);
    const n = ls ? Object.keys(ls).sort((a, b) => b - a).join('/') : null;
    return `${MODE_NAMES[m] || m}${n ? ` (${t('{n} players per side', { n })})` : ''}`;
  }).join(' · ');
}
const MODE_NAMES = { '1v1': t('1 vs 1'), team: t('Team play (004)'), overlord: t('Overlord (up to 4 per side)') };

// A scenario in one line: when, where, what wins ("6 June 1944 · Western front · 4 medals
// to win"), and its own subtitle.
const FRONTS = { western: t('Western front'), eastern: t('Eastern front'), pacific: t('Pacific front'), mediterranean: t('Mediterranean front') };
function summaryLine(s) {
  const parts = [];
  if (s.date && /^\d{4}-\d{2}-\d{2}$/.test(s.date)) {
    const d = new Date(`${s.date}T12:00:00Z`);
    parts.push(Number.isNaN(d.getTime()) ? s.date : d.toLocaleDateString(LANG, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
  }
  if (s.front) parts.push(FRONTS[s.front] || s.front);
  const v = s.victory || {};
  const medals = [...new Set(Object.values(v))];
  if (medals.length === 1) parts.push(tn('{n} medal to win', '{n} medals to win', medals[0]));
  else if (medals.length > 1) parts.push(Object.entries(v).map(([side, n]) => tn('{side}: {n} medal', '{side}: {n} medals', n, { side: sideName(side) })).join(', '));
  if (s.subtitle) parts.push(term(s.subtitle));
  return parts.join(' · ');
}

// ---------------------------------------------------------------- rulesets
// The rule systems the server plays (GET /api/rulesets). "" = any ruleset that accepts the
// chosen scenario (the ruleset is then the first whose modes include the chosen mode:
// ScenarioSummary.rulesets). A ruleset whose setup is "none" needs no scenario.
function chosenRuleset() { return rulesets.find((r) => r.name === $('ruleset-select').value) || null; }
function acceptedHere(s) {
  const rs = chosenRuleset();
  if (!rs) return true;
  if (!s.rulesets) return rs.name === 'm44';      // an older server: only m44 known
  return !!s.rulesets[rs.name];
}
async function loadRulesets() {
  try { rulesets = await api('/rulesets'); } catch (_) { rulesets = []; }
  // one list of rule systems, named as players know them (the engine's titles); the
  // standard game first and chosen
  const sel = clear($('ruleset-select'));
  for (const r of rulesets) sel.append(el('option', { value: r.name, title: term(r.summary), 'data-setup': r.setup }, term(r.title)));
  if (rulesets.some((r) => r.name === 'm44')) sel.value = 'm44';
  $('ruleset-label').classList.toggle('hidden', rulesets.length < 2);
  $('ruleset-info').textContent = chosenRuleset() ? term(chosenRuleset().summary) : '';
}
async function onRulesetChange() {
  const rs = chosenRuleset();
  const none = !!rs && rs.setup === 'none';
  $('ruleset-info').textContent = rs ? term(rs.summary) : '';
  for (const id of ['scenario-label', 'scenario-info', 'upload-label', 'upload-result']) $(id).classList.toggle('hidden', none);
  $('scenario-select').required = !none;
  if (!await loadOptions(rs ? rs.name : 'm44')) return;   // another ruleset chosen meanwhile
  if (none) {
    clear($('scenario-select'));
    const mode = clear($('mode-select'));
    for (const m of rs.modes || []) mode.append(el('option', { value: m }, MODE_NAMES[m] || m));
    clear($('seat-select')).append(el('option', { value: '' }, t('(choose on the game page)')));
    $('layout-label').classList.add('hidden');
    $('bots-label').classList.remove('hidden');   // you take the first seat, the bot the others
    $('bots-note').classList.add('hidden');
    $('opponent-label').classList.add('hidden');
    onOpponentChange();
    return;
  }
  await loadScenarios($('scenario-select').value);
}
function modesOf(s) {
  const rs = chosenRuleset();
  if (rs && s && s.rulesets) return s.rulesets[rs.name] || [];
  return (s && s.modes) || ['1v1'];
}
// the ruleset a (scenario, mode) choice means
function rulesetFor(s, mode) {
  const rs = chosenRuleset();
  if (rs) return rs.name;
  const table = (s && s.rulesets) || {};
  return Object.keys(table).find((n) => table[n].includes(mode)) || null;
}

function onScenarioChange() {
  const s = scenarios.find((x) => x.id === $('scenario-select').value);
  const mode = clear($('mode-select'));
  for (const m of modesOf(s)) mode.append(el('option', { value: m }, MODE_NAMES[m] || m));
  onModeChange();
}

// the computer players' levels (engine/ai, app.engine_api.bot_levels): what each does
const BOT_LEVELS = [
  ['normal', t('normal'), t('weighs every move by its expected dice, plans each card\'s whole order')],
  ['easy', t('easy'), t('plays sensibly, looks one step ahead, one move in four at random')],
  ['hard', t('hard'), t('more dice rolls per move, deeper planning, the replies foreseen')],
];
for (const id of ['level-select', 'timeout-level']) {
  for (const [v, name] of BOT_LEVELS) $(id).append(el('option', { value: v }, name));
}
function showLevelInfo() {
  const lv = BOT_LEVELS.find(([v]) => v === $('level-select').value);
  $('level-info').textContent = lv ? `${lv[1]}: ${lv[2]}` : '';
}
// "play against the computer": offered for every game of two seats (1 vs 1), or with
// the "bots play every other seat" box of a game set up without a scenario
function onOpponentChange() {
  const oneVsOne = !$('opponent-label').classList.contains('hidden');
  const computer = (oneVsOne && $('opponent-select').value === 'computer')
    || (!$('bots-label').classList.contains('hidden') && $('bots-check').checked);
  $('level-label').classList.toggle('hidden', !computer);
  $('level-info').classList.toggle('hidden', !computer);
  showLevelInfo();
}
$('opponent-select').addEventListener('change', onOpponentChange);
$('bots-check').addEventListener('change', onOpponentChange);
$('level-select').addEventListener('change', showLevelInfo);
$('clock-timeout').addEventListener('change', () => {
  $('timeout-level-label').classList.toggle('hidden', $('clock-timeout').value !== 'bot');
});

function needsNoScenario() { const rs = chosenRuleset(); return !!rs && rs.setup === 'none'; }

function onModeChange() {
  if (needsNoScenario()) return;      // seats and bots: onRulesetChange
  const s = scenarios.find((x) => x.id === $('scenario-select').value);
  const mode = $('mode-select').value || '1v1';
  const layouts = layoutsOf(s, mode);
  $('layout-label').classList.toggle('hidden', !layouts);
  // team / Overlord: bots take seats from the game's page (per seat, or at the start),
  // never at creation: a friend must find his seat free
  $('bots-label').classList.add('hidden');
  $('bots-note').classList.toggle('hidden', !layouts);
  $('opponent-label').classList.toggle('hidden', !!layouts);    // 1 vs 1: the computer may play
  onOpponentChange();
  if (layouts) {
    const ls = clear($('layout-select'));
    for (const n of Object.keys(layouts).sort((a, b) => b - a)) ls.append(el('option', { value: n }, n > 1 ? t('{n} players per side', { n }) : t('1 player per side')));
  }
  onLayoutChange(s);
}

function onLayoutChange(s = scenarios.find((x) => x.id === $('scenario-select').value)) {
  const mode = $('mode-select').value || '1v1';
  const seat = clear($('seat-select'));
  seat.append(el('option', { value: '' }, t('(decide later / watch)')));
  $('layout-info').textContent = '';
  if (!s) { $('scenario-info').textContent = ''; return; }
  const layouts = layoutsOf(s, mode);
  if (layouts) {
    const groups = layouts[$('layout-select').value] || layouts[Object.keys(layouts).pop()];
    for (const side of [s.player2_side, s.player1_side]) {
      if (!side) continue;
      for (const g of groups) {
        seat.append(el('option', { value: g.map((r) => `${side}:${r}`).join(',') }, `${sideName(side)}: ${g.map((r) => ROLE_NAMES[r]).join(' + ')}`));
      }
    }
    seat.selectedIndex = 1;
    $('layout-info').textContent = t('Each player holds: {roles}. Players joining later take the free seats on the game page.', { roles: groups.map((g) => g.map((r) => ROLE_NAMES[r]).join(' + ')).join(' · ') });
  } else {
    for (const side of [s.player2_side, s.player1_side]) if (side) seat.append(el('option', { value: side }, sideName(side)));
    seat.value = s.starting_side || s.player2_side || '';
  }
  $('scenario-info').textContent = '';
  if (summaryLine(s)) $('scenario-info').append(el('div', { 'data-summary': s.id }, summaryLine(s)));
  $('scenario-info').append(t('{board} board, {face} · {top} (top) vs {bottom} (bottom) · {first} move first', { board: term(s.board_type || ''), face: term((s.face || '').toLowerCase()), top: sideName(s.player1_side), bottom: sideName(s.player2_side), first: sideName(s.starting_side) }));
  $('scenario-info').append(el('div', { class: 'muted', 'data-modes': (s.modes || []).join(',') }, t('Modes: {modes}', { modes: layoutText(s) || t('1 vs 1') })));
  if (s.error) $('scenario-info').append(el('div', { class: 'error' }, t('This scenario cannot be played yet: {error}', { error: errorText(s.error) })));
}
$('scenario-select').addEventListener('change', onScenarioChange);
$('mode-select').addEventListener('change', onModeChange);
$('layout-select').addEventListener('change', () => onLayoutChange());

$('scenario-file').addEventListener('change', async () => {
  const f = $('scenario-file').files[0];
  const out = clear($('upload-result'));
  if (!f) return;
  const fd = new FormData();
  fd.append('file', f);
  out.append(el('span', { class: 'muted' }, t('Uploading {file}…', { file: f.name })));
  try {
    const s = await api('/scenarios', { method: 'POST', body: fd });
    clear(out).append(el('span', { class: 'ok', 'data-uploaded': s.id }, `✓ ${t('{name} loaded.', { name: s.name })}`));
    await loadScenarios(s.id);
  } catch (e) {
    clear(out).append(uploadError(e, f.name));
  }
});

function hexList(hexes) {
  return (hexes || []).map((h) => t('(row {row}, col {col})', { row: h[0], col: h[1] })).join(', ');
}
function uploadError(e, fname) {
  const box = el('div', { class: 'upload-errors', role: 'alert', 'data-code': e.code || '' });
  box.append(el('b', {}, t('{file} was rejected', { file: fname })), ` — ${e.code ? e.code + ': ' : ''}${e.message}`);
  const unknown = e.details && e.details.unknown;
  if (Array.isArray(unknown) && unknown.length) {
    const ul = el('ul');
    for (const u of unknown) {
      ul.append(el('li', { 'data-unknown-code': u.code }, t('Unknown {slot} code', { slot: u.slot || '' }), ' ', el('code', {}, u.code), ' ', t('at {hexes}', { hexes: hexList(u.hexes) })));
    }
    box.append(ul);
  } else if (e.details && Array.isArray(e.details.errors)) {
    const ul = el('ul');
    for (const x of e.details.errors) ul.append(el('li', {}, typeof x === 'string' ? x : (x.msg || JSON.stringify(x))));
    box.append(ul);
  }
  return box;
}

// ---------------------------------------------------------------- optional rules
// The engine's named optional rules (GET /api/options): a checkbox each, or a choice
// when the rule takes one of a few values (e.g. the side using Blitzkrieg).  Rules the
// engine does not implement yet are listed, disabled, so nobody wonders where they are.
// an optional rule's name or value as shown ("no_retreat" -> "No retreat"), a catalog term
// (scripts/i18n_terms.py ``label``); the sides by their names, numbers as they are
function label(x) {
  const s = String(x);
  if (s === 'AXIS' || s === 'ALLIES') return sideName(s);
  if (/^\d+$/.test(s)) return s;
  const w = s.replace(/_/g, ' ');
  return term(w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
}
// The optional rules of `ruleset` laid out; false when another ruleset was chosen while
// they were asked (its own call lays them out).
async function loadOptions(ruleset = 'm44') {
  let rules = [];
  try { rules = await api(`/options?ruleset=${encodeURIComponent(ruleset)}`); } catch (_) { rules = []; }
  const now = chosenRuleset();
  if (now && now.name !== ruleset) return false;   // another ruleset was chosen meanwhile
  const list = clear($('options-list'));
  for (const r of rules) {
    const id = `opt-${r.name}`;
    const title = `${term(r.description)} (${term(r.source)})`;
    let input;
    if (r.values && r.values.length) {
      input = el('select', { id, 'data-option': r.name, title });
      input.append(el('option', { value: '' }, t('off')));
      for (const v of r.values) input.append(el('option', { value: String(v) }, label(v)));
    } else {
      input = el('input', { type: 'checkbox', id, 'data-option': r.name, title });
    }
    if (!r.implemented) input.disabled = true;
    input.addEventListener('change', countOptions);
    const name = label(r.name);
    const row = el('div', { class: `option-row${r.implemented ? '' : ' muted'}` },
      el('label', { for: id, title }, input, ' ', el('b', {}, name), r.implemented ? '' : ` (${t('not yet available')})`),
      el('div', { class: 'muted option-desc' }, `${term(r.description)} — ${term(r.source)}`));
    if (r.value_descriptions) {
      // a rule whose values are different rule sets (the 004 variants): the chosen one's summary
      const summary = el('div', { class: 'muted option-desc value-summary', 'data-summary-for': r.name });
      input.addEventListener('change', () => { summary.textContent = term(r.value_descriptions[input.value] || ''); });
      row.append(summary);
    }
    if (r.example) {
      // a rule whose value is a JSON object (which units, which hexes): typed in as JSON,
      // checked by the engine when the game is created
      const names = r.unit_types ? Object.entries(r.unit_types).map(([k, v]) => `${k} (${v})`).join(', ') : '';
      const example = JSON.stringify(r.example);
      const area = el('textarea', { id: `${id}-map`, 'data-map-for': r.name, rows: 2, class: 'hidden',
        placeholder: example, title: names ? t('Types: {names}', { names }) : term(r.description) });
      if (r.prefill) area.value = example;   // a table the players complete (e.g. France 1944 control limits)
      const help = el('div', { class: 'muted option-desc hidden' },
        t('Value as JSON, e.g. {example}', { example }) + (names ? ` — ${t('a start hex "row,col" or a unit code (e.g. tankger) -> a type. Types: {names}', { names })}` : ` ${t('(see the description above; empty: the default)')}`));
      input.addEventListener('change', () => { area.classList.toggle('hidden', !input.checked); help.classList.toggle('hidden', !input.checked); });
      row.append(help, area);
    }
    list.append(row);
  }
  presetAlone('young_generals');
  countOptions();
  return true;
}

// A preset that excludes every other optional rule (004 "Variant For Young Generals":
// "Do not use any Optional Rules"): while it is on, the other rules are switched off.
function presetAlone(name) {
  const preset = document.querySelector(`#options-list [data-option="${name}"]`);
  if (!preset) return;
  preset.addEventListener('change', () => {
    for (const x of document.querySelectorAll('#options-list [data-option]')) {
      if (x === preset) continue;
      if (preset.checked) {
        if (x.disabled) continue;           // a rule not implemented stays as it is
        if (x.tagName === 'SELECT') x.value = ''; else x.checked = false;
        x.dataset.presetOff = '1';
        x.disabled = true;
      } else if (x.dataset.presetOff) {
        delete x.dataset.presetOff;
        x.disabled = false;
      }
    }
    countOptions();
  });
}
function chosenOptions() {
  const out = {};
  for (const x of document.querySelectorAll('#options-list [data-option]')) {
    if (x.disabled) continue;
    if (x.tagName === 'SELECT') { if (x.value) out[x.dataset.option] = x.value; }
    else if (x.checked) out[x.dataset.option] = mappingOf(x.dataset.option);
  }
  return out;
}
function mappingOf(name) {
  const area = document.querySelector(`[data-map-for="${name}"]`);
  const text = area ? area.value.trim() : '';
  if (!text) return true;
  try { return JSON.parse(text); } catch (_) { return text; }   // the server names the error
}
function countOptions() {
  const n = Object.keys(chosenOptions()).length;
  $('options-count').textContent = n ? `(${t('{n} on', { n })})` : `(${t('standard rules')})`;
}

// ---------------------------------------------------------------- create
onSubmit($('create-form'), async () => {
  $('create-error').textContent = '';
  const rs = chosenRuleset();
  const needsScenario = !rs || rs.setup === 'scenario';
  const scenario_id = needsScenario ? $('scenario-select').value : null;
  if (needsScenario && !scenario_id) { $('create-error').textContent = t('Choose a scenario.'); return; }
  const mode = $('mode-select').value || (needsScenario ? '1v1' : null);
  const body = { options: chosenOptions(), private: $('private-check').checked, rated: $('rated-check').checked };
  if (scenario_id) body.scenario_id = scenario_id;
  if (mode) body.mode = mode;
  const rsName = rulesetFor(scenarios.find((x) => x.id === scenario_id), mode);
  if (rsName) body.ruleset = rsName;
  const clock = clockChoice();
  if (clock) body.clock = clock;
  const mine = ($('seat-select').value || '').split(',').filter(Boolean);   // a layout group: several role seats
  const scn = scenarios.find((x) => x.id === scenario_id);
  const layouts = layoutsOf(scn, mode);
  const vsComputer = needsScenario && !layouts && $('opponent-select').value === 'computer';
  if (vsComputer) {        // your side (the one chosen, else the first to move); the bot the other
    if (!mine.length) mine.push(scn.starting_side || scn.player2_side);
    body.bots = [scn.player1_side, scn.player2_side].filter((x) => x && x !== mine[0]);
  }
  if (vsComputer || $('bots-check').checked) body.bot_level = $('level-select').value;
  if (mine.length) body.seat = mine[0];
  if (layouts && $('layout-select').value) {
    body.layout = {};
    for (const side of [scn.player1_side, scn.player2_side]) if (side) body.layout[side] = $('layout-select').value;
  }
  try {
    const g = await api('/games', { method: 'POST', body: JSON.stringify(body) });
    const claim = g.invite ? { invite: g.invite } : {};
    const held = new Set((g.seats || []).filter((x) => x.mine).map((x) => x.seat));
    for (const seat of mine.slice(1)) {
      if (!held.has(seat)) await api(`/games/${g.id}/seats/${encodeURIComponent(seat)}/claim`, { method: 'POST', body: JSON.stringify(claim) });
    }
    if (!needsScenario && !mine.length && $('bots-check').checked && (g.seats || []).length) {
      // a ruleset without a scenario (its seats known once the game exists): the creator
      // takes the first seat, the server's bot every other one
      const seats = g.seats.map((x) => x.seat);
      await api(`/games/${g.id}/seats/${encodeURIComponent(seats[0])}/claim`, { method: 'POST', body: JSON.stringify(claim) });
      for (const seat of seats.slice(1)) await api(`/games/${g.id}/seats/${encodeURIComponent(seat)}/bot`, { method: 'POST', body: JSON.stringify({ level: body.bot_level }) });
      mine.push(seats[0]);
    }
    const url = new URL(g.url || `/games/${g.id}`, location.href);
    if (g.invite) url.searchParams.set('invite', g.invite);
    // no ?seat=: the connection plays every seat of the slot (?as= is the one shown first)
    if (mine.length) url.searchParams.set('as', mine[0]);
    location.href = url.pathname + url.search;
  } catch (e) { $('create-error').textContent = t('Could not create the game: {error}', { error: e.message }); }
});

// ---------------------------------------------------------------- tutorial
// a lesson (app/tutorial.py): a game against the bot (POST /api/tutorials/{name}); in
// Overlord's the player holds every Allied seat and is shown the C-in-C's first
for (const b of document.querySelectorAll('#learn-panel button[data-lesson]')) {
  b.addEventListener('click', async () => {
    $('tutorial-error').textContent = '';
    if (!me) { $('tutorial-error').textContent = t('Enter a name first.'); $('identity-name').focus(); return; }
    try {
      const g = await api(`/tutorials/${b.dataset.lesson}`, { method: 'POST' });
      const url = new URL(g.url || `/games/${g.id}`, location.href);
      const mine = (g.seats || []).filter((s) => s.mine).map((s) => s.seat);
      if (mine.length > 1) url.searchParams.set('as', mine[0]);
      location.href = url.pathname + url.search;
    } catch (e) { $('tutorial-error').textContent = t('Could not create the game: {error}', { error: e.message }); }
  });
}

// ---------------------------------------------------------------- invites
onSubmit($('invite-form'), async () => {
  $('invite-error').textContent = '';
  let code = $('invite-input').value.trim();
  if (!code) return;
  const m = code.match(/(?:join\/|invite=)([^/?&#\s]+)/);
  if (m) code = decodeURIComponent(m[1]);
  try {
    const r = await api(`/invites/${encodeURIComponent(code)}`);
    location.href = `/games/${r.game_id}?invite=${encodeURIComponent(code)}`;
  } catch (e) { $('invite-error').textContent = t('Unknown invite: {error}', { error: e.message }); }
});

// ---------------------------------------------------------------- game lists
async function claim(g, seat) {
  if (!me) { alert(t('Enter a name first.')); $('identity-name').focus(); return; }
  try {
    await api(`/games/${g.id}/seats/${encodeURIComponent(seat)}/claim`, { method: 'POST', body: JSON.stringify({}) });
    location.href = g.url || `/games/${g.id}`;
  } catch (e) { alert(t('Could not take the seat: {error}', { error: e.message })); }
}

function clockLabel(c) {
  if (!c) return '';
  const m = (s) => (s >= 86400 ? `${Math.round(s / 86400)} d` : s >= 60 ? `${Math.round(s / 60)} min` : `${s} s`);
  return c.kind === 'bank' ? ` · ${t('clock {time} + {inc} s', { time: m(c.initial_seconds), inc: c.increment_seconds })}` : ` · ${t('clock {time} per move', { time: m(c.move_seconds) })}`;
}

function gameItem(g, live) {
  const li = el('li', { 'data-game': g.id, 'data-status': g.status });
  li.append(el('span', { class: 'name' }, el('a', { href: g.url || `/games/${g.id}` }, term(g.scenario_name) || g.scenario_id),
    g.scenario_id && g.scenario_name && g.scenario_name !== g.scenario_id ? el('span', { class: 'muted' }, ` (${g.scenario_id})`) : null,
    el('span', { class: 'muted' }, ` · ${MODE_NAMES[g.mode] || g.mode}${g.private ? ' · ' + t('private') : ''}${g.rated ? ' · ' + t('rated') : ''}${g.turn ? ' · ' + t('turn {n}', { n: g.turn }) : ''}${clockLabel(g.clock)}`)));
  for (const s of g.seats || []) {
    li.append(el('span', { class: `seat-chip${s.taken ? '' : ' free'}` }, `${sideName(s.seat)}: ${s.taken ? (s.name || '?') + (s.is_bot ? ` (${t('bot')})` : '') : t('free')}`));
  }
  const mine = (g.seats || []).some((s) => s.mine);
  if (mine) li.append(el('a', { class: 'btn', href: g.url || `/games/${g.id}`, 'data-open': g.id }, t('Rejoin')));
  else if (!live) {
    for (const s of (g.seats || []).filter((x) => !x.taken)) {
      li.append(el('button', { type: 'button', class: 'primary', 'data-claim': s.seat, onclick: () => claim(g, s.seat) }, t('Play {side}', { side: sideName(s.seat) })));
    }
  }
  li.append(el('a', { class: 'btn', href: g.url || `/games/${g.id}`, 'data-watch': g.id }, t('Watch')));
  const dice = g.fair_dice || {};
  if (dice.commitment) {     // the server's seed commitment, published at creation
    li.append(el('span', { class: 'muted dice-commitment', title: `${t('dice commitment')} SHA-256(seed || salt) = ${dice.commitment}` },
      ` · ${t('dice')} ${dice.commitment.slice(0, 12)}…`));
  }
  if (g.status === 'finished' && dice.verify_url) li.append(el('a', { class: 'btn', href: dice.verify_url, 'data-verify': g.id }, t('Verify dice')));
  return li;
}

// the turn clock chosen at creation ("kind:seconds[:increment]")
function clockChoice() {
  const [kind, a, b] = ($('clock-kind').value || 'none').split(':');
  if (kind === 'none') return null;
  const on_timeout = $('clock-timeout').value;
  const extra = on_timeout === 'bot' ? { bot_level: $('timeout-level').value } : {};
  if (kind === 'bank') return { kind, initial_seconds: Number(a), increment_seconds: Number(b), on_timeout, ...extra };
  return { kind, move_seconds: Number(a), on_timeout, ...extra };
}

async function refreshFinished() {
  let games = [];
  try { games = await api('/games?status=finished'); } catch (_) { return; }
  const list = clear($('finished-games'));
  for (const g of games.slice(0, 15)) {
    const who = [...new Set((g.seats || []).map((s) => s.held_by || s.name).filter(Boolean))].join(' vs ');
    list.append(el('li', { 'data-finished': g.id },
      el('b', {}, term(g.scenario_name)), ` · ${MODE_NAMES[g.mode] || g.mode}${who ? ' · ' + who : ''} · ${g.winner ? t('{side} won', { side: sideName(g.winner) }) : t('no winner')} `,
      el('a', { class: 'btn', href: `/games/${g.id}/replay`, 'data-replay': g.id }, t('Replay'))));
  }
  if (!list.childNodes.length) list.append(el('li', { class: 'muted' }, t('No finished game yet.')));
}

// the lobby's open and live games, a page each (GET /api/games offset/limit, the total
// in X-Total-Count): a flood of games cannot push the others out of reach
const PAGE = 20;
const pages = { open: 0, live: 0 };

async function gamesPage(status) {
  const r = await fetch(`${API}/games?status=${status}&offset=${pages[status] * PAGE}&limit=${PAGE}`,
    { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return { games: await r.json(), total: Number(r.headers.get('X-Total-Count') || 0) };
}

function pager(status, total) {
  const last = Math.max(0, Math.ceil(total / PAGE) - 1);
  if (pages[status] > last) pages[status] = last;
  const box = clear($(`${status}-pager`));
  if (total <= PAGE) return;
  const go = (d) => { pages[status] += d; refreshGames(); };
  box.append(
    el('button', { class: 'btn', 'data-page': 'prev', disabled: pages[status] === 0, onclick: () => go(-1) }, '‹ Newer'),
    ` ${pages[status] * PAGE + 1}–${Math.min(total, (pages[status] + 1) * PAGE)} of ${total} `,
    el('button', { class: 'btn', 'data-page': 'next', disabled: pages[status] >= last, onclick: () => go(1) }, 'Older ›'));
}

async function refreshGames() {
  let open, live;
  try { [open, live] = await Promise.all([gamesPage('open'), gamesPage('live')]); } catch (e) {
    clear($('open-games')).append(el('li', { class: 'error' }, e.message));
    return;
  }
  for (const [status, got, empty] of [['open', open, t('No open game. Create one!')], ['live', live, t('No game in progress.')]]) {
    const list = clear($(`${status}-games`));
    for (const g of got.games) list.append(gameItem(g, status === 'live'));
    if (!list.childNodes.length) list.append(el('li', { class: 'muted' }, empty));
    pager(status, got.total);
  }
}

loadMe();
loadRulesets().then(() => { loadScenarios(); loadOptions(chosenRuleset() ? chosenRuleset().name : 'm44'); });
$('ruleset-select').addEventListener('change', onRulesetChange);
refreshGames();
refreshFinished();
setInterval(refreshGames, 5000);
setInterval(refreshFinished, 30000);
