// Lobby: guest identity, scenario choice/upload, game creation, open/live games, invites.
import { el, clear, sideName } from './util.js';

const API = document.body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);
let me = null;
let scenarios = [];

async function api(path, opts = {}) {
  const init = { credentials: 'same-origin', ...opts };
  if (init.body && !(init.body instanceof FormData)) init.headers = { 'Content-Type': 'application/json', ...(init.headers || {}) };
  const r = await fetch(`${API}${path}`, init);
  let data = null;
  try { data = await r.json(); } catch (_) { /* no body */ }
  if (!r.ok) {
    const err = new Error((data && data.error && data.error.message) || `HTTP ${r.status}`);
    err.code = data && data.error && data.error.code;
    err.details = (data && data.error && data.error.details) || {};
    err.status = r.status;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------- identity
async function loadMe() {
  try { me = await api('/identity/me'); } catch (_) { me = null; }
  renderMe();
}
function renderMe() {
  $('identity-status').innerHTML = '';
  if (me) {
    $('identity-status').append('You are ', el('b', { 'data-me': me.name }, me.name), '.');
    $('identity-submit').textContent = 'Change name';
    $('whoami').innerHTML = '';
    $('whoami').append('Playing as ', el('b', {}, me.name));
  } else {
    $('identity-status').textContent = 'Pick a name to create or join games (a guest identity is kept in a cookie).';
    $('identity-submit').textContent = 'Enter';
  }
  $('create-submit').disabled = !me;
  $('create-submit').title = me ? '' : 'Enter a name first';
}
$('identity-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const name = $('identity-name').value.trim();
  if (!name) return;
  try {
    me = await api('/identity', { method: 'POST', body: JSON.stringify({ name }) });
    renderMe();
    refreshGames();
  } catch (e) { $('identity-status').textContent = `Could not create the identity: ${e.message}`; }
});

// ---------------------------------------------------------------- scenarios
async function loadScenarios(selectId) {
  try { scenarios = await api('/scenarios'); } catch (e) { scenarios = []; $('create-error').textContent = `Could not load scenarios: ${e.message}`; }
  const sel = clear($('scenario-select'));
  const groups = { bundled: el('optgroup', { label: 'Bundled scenarios' }), uploaded: el('optgroup', { label: 'Uploaded' }) };
  const counts = {};
  for (const s of scenarios) counts[s.name] = (counts[s.name] || 0) + 1;
  for (const s of scenarios) {
    const name = counts[s.name] > 1 ? `${s.name} — ${s.id}` : s.name;
    (groups[s.source] || groups.bundled).append(el('option', { value: s.id }, `${name} (${(s.board_type || '').toLowerCase()})`));
  }
  for (const g of Object.values(groups)) if (g.childNodes.length) sel.append(g);
  if (selectId) sel.value = selectId;
  onScenarioChange();
}
function onScenarioChange() {
  const s = scenarios.find((x) => x.id === $('scenario-select').value);
  const seat = clear($('seat-select'));
  seat.append(el('option', { value: '' }, '(decide later / watch)'));
  if (!s) { $('scenario-info').textContent = ''; return; }
  for (const side of [s.player2_side, s.player1_side]) if (side) seat.append(el('option', { value: side }, sideName(side)));
  seat.value = s.starting_side || s.player2_side || '';
  $('scenario-info').textContent = `${s.board_type || ''} board, ${(s.face || '').toLowerCase()} · ${sideName(s.player1_side)} (top) vs ${sideName(s.player2_side)} (bottom) · ${sideName(s.starting_side)} move first · modes: ${(s.modes || []).join(', ')}`;
}
$('scenario-select').addEventListener('change', onScenarioChange);

$('scenario-file').addEventListener('change', async () => {
  const f = $('scenario-file').files[0];
  const out = clear($('upload-result'));
  if (!f) return;
  const fd = new FormData();
  fd.append('file', f);
  out.append(el('span', { class: 'muted' }, `Uploading ${f.name}…`));
  try {
    const s = await api('/scenarios', { method: 'POST', body: fd });
    clear(out).append(el('span', { class: 'ok', 'data-uploaded': s.id }, `✓ ${s.name} loaded.`));
    await loadScenarios(s.id);
  } catch (e) {
    clear(out).append(uploadError(e, f.name));
  }
});

function hexList(hexes) {
  return (hexes || []).map((h) => `(row ${h[0]}, col ${h[1]})`).join(', ');
}
function uploadError(e, fname) {
  const box = el('div', { class: 'upload-errors', role: 'alert', 'data-code': e.code || '' });
  box.append(el('b', {}, `${fname} was rejected`), ` — ${e.code ? e.code + ': ' : ''}${e.message}`);
  const unknown = e.details && e.details.unknown;
  if (Array.isArray(unknown) && unknown.length) {
    const ul = el('ul');
    for (const u of unknown) {
      ul.append(el('li', { 'data-unknown-code': u.code }, `Unknown ${u.slot || 'code'} `, el('code', {}, u.code), ` at ${hexList(u.hexes)}`));
    }
    box.append(ul);
  } else if (e.details && Array.isArray(e.details.errors)) {
    const ul = el('ul');
    for (const x of e.details.errors) ul.append(el('li', {}, typeof x === 'string' ? x : (x.msg || JSON.stringify(x))));
    box.append(ul);
  }
  return box;
}

// ---------------------------------------------------------------- create
$('create-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  $('create-error').textContent = '';
  const scenario_id = $('scenario-select').value;
  if (!scenario_id) { $('create-error').textContent = 'Choose a scenario.'; return; }
  const body = { scenario_id, mode: '1v1', options: {}, private: $('private-check').checked };
  const seat = $('seat-select').value;
  if (seat) body.seat = seat;
  try {
    let g;
    try {
      g = await api('/games', { method: 'POST', body: JSON.stringify(body) });
    } catch (e) {
      // team/Overlord modes have role seats ("ALLIES:cinc"...): create without a seat,
      // the game page then offers every free seat.
      if (e.code !== 'seat_not_found' || !body.seat) throw e;
      delete body.seat;
      g = await api('/games', { method: 'POST', body: JSON.stringify(body) });
    }
    const url = g.url || `/games/${g.id}`;
    location.href = g.invite ? `${url}?invite=${encodeURIComponent(g.invite)}` : url;
  } catch (e) { $('create-error').textContent = `Could not create the game: ${e.message}`; }
});

// ---------------------------------------------------------------- invites
$('invite-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  $('invite-error').textContent = '';
  let code = $('invite-input').value.trim();
  if (!code) return;
  const m = code.match(/(?:join\/|invite=)([^/?&#\s]+)/);
  if (m) code = decodeURIComponent(m[1]);
  try {
    const r = await api(`/invites/${encodeURIComponent(code)}`);
    location.href = `/games/${r.game_id}?invite=${encodeURIComponent(code)}`;
  } catch (e) { $('invite-error').textContent = `Unknown invite: ${e.message}`; }
});

// ---------------------------------------------------------------- game lists
async function claim(g, seat) {
  if (!me) { alert('Enter a name first.'); $('identity-name').focus(); return; }
  try {
    await api(`/games/${g.id}/seats/${encodeURIComponent(seat)}/claim`, { method: 'POST', body: JSON.stringify({}) });
    location.href = g.url || `/games/${g.id}`;
  } catch (e) { alert(`Could not take the seat: ${e.message}`); }
}

function gameItem(g, live) {
  const li = el('li', { 'data-game': g.id, 'data-status': g.status });
  li.append(el('span', { class: 'name' }, el('a', { href: g.url || `/games/${g.id}` }, g.scenario_name || g.scenario_id),
    g.scenario_name && g.scenario_name !== g.scenario_id ? el('span', { class: 'muted' }, ` (${g.scenario_id})`) : null,
    el('span', { class: 'muted' }, ` · ${g.mode}${g.private ? ' · private' : ''}${g.turn ? ' · turn ' + g.turn : ''}`)));
  for (const s of g.seats || []) {
    li.append(el('span', { class: `seat-chip${s.taken ? '' : ' free'}` }, `${sideName(s.seat)}: ${s.taken ? (s.name || '?') + (s.is_bot ? ' (bot)' : '') : 'free'}`));
  }
  const mine = (g.seats || []).some((s) => s.mine);
  if (mine) li.append(el('a', { class: 'btn', href: g.url || `/games/${g.id}`, 'data-open': g.id }, 'Rejoin'));
  else if (!live) {
    for (const s of (g.seats || []).filter((x) => !x.taken)) {
      li.append(el('button', { type: 'button', class: 'primary', 'data-claim': s.seat, onclick: () => claim(g, s.seat) }, `Play ${sideName(s.seat)}`));
    }
  }
  li.append(el('a', { class: 'btn', href: g.url || `/games/${g.id}`, 'data-watch': g.id }, 'Watch'));
  return li;
}

async function refreshGames() {
  let games = [];
  try { games = await api('/games?status=open,live'); } catch (e) {
    clear($('open-games')).append(el('li', { class: 'error' }, e.message));
    return;
  }
  const open = clear($('open-games')), live = clear($('live-games'));
  for (const g of games) (g.status === 'live' ? live : open).append(gameItem(g, g.status === 'live'));
  if (!open.childNodes.length) open.append(el('li', { class: 'muted' }, 'No open game. Create one!'));
  if (!live.childNodes.length) live.append(el('li', { class: 'muted' }, 'No game in progress.'));
}

loadMe();
loadScenarios();
refreshGames();
setInterval(refreshGames, 5000);
