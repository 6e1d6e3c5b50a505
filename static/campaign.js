// Campaign pages (004 Simplified Campaign Rules): the list + creation form, or one
// campaign's standings, battles and next battle (GET/POST /api/campaigns...).
import { el, clear, sideName } from './util.js';

const API = document.body.dataset.apiBase || '/api';
const CID = document.body.dataset.campaignId;
const $ = (id) => document.getElementById(id);
const FACES = { inf: 'infantry', armor: 'tank', grenade: 'grenade', star: 'star', flag: 'flag' };

async function api(path, opts = {}) {
  const init = { credentials: 'same-origin', ...opts };
  if (init.body) init.headers = { 'Content-Type': 'application/json' };
  const r = await fetch(`${API}${path}`, init);
  let data = null;
  try { data = await r.json(); } catch (_) { /* no body */ }
  if (!r.ok) throw new Error((data && data.error && data.error.message) || `HTTP ${r.status}`);
  return data;
}

function dice(d) {
  const parts = Object.entries(d || {}).filter(([, n]) => n).map(([s, n]) => `${sideName(s)} ${n}`);
  return parts.length ? parts.join(', ') : '—';
}

function result(b) {
  if (!b.medals) return b.status === 'pending' ? 'not started' : b.status;
  const m = `${b.medals.AXIS ?? 0}–${b.medals.ALLIES ?? 0} medals (Axis–Allies)`;
  return b.winner ? `${sideName(b.winner)} won, ${m}` : `no winner, ${m}`;
}

function renderCampaign(c) {
  $('campaign-name').textContent = `${c.name}${c.status === 'finished' ? ' (finished)' : ''}`;
  const w = c.wins;
  clear($('campaign-standings')).append(el('p', { class: 'standings' },
    `Victories: ${sideName('AXIS')} ${w.AXIS}, ${sideName('ALLIES')} ${w.ALLIES}`
    + (c.status === 'finished' ? ` — campaign ${c.winner ? 'won by ' + sideName(c.winner) : 'drawn'}` : '')));
  const body = clear($('campaign-battles').querySelector('tbody'));
  const rows = [...c.battles, ...(c.next ? [c.next] : [])];
  for (let i = rows.length; i < c.scenarios.length; i += 1) {
    rows.push({ index: i, scenario_id: c.scenarios[i], scenario_name: (c.scenario_names || [])[i], status: 'later', dice: {} });
  }
  for (const b of rows) {
    const game = b.game_id ? el('a', { href: `/games/${b.game_id}` }, 'open the game') : '';
    body.append(el('tr', { 'data-index': String(b.index) }, el('td', {}, String(b.index + 1)),
      el('td', { 'data-scenario': b.scenario_id }, b.scenario_name || b.scenario_id), el('td', {}, b.status === 'later' ? '' : dice(b.dice)),
      el('td', {}, game), el('td', {}, b.status === 'later' ? '' : result(b))));
  }
  const next = clear($('campaign-next'));
  if (c.next) {
    const btn = el('button', { class: 'primary', id: 'campaign-next-button' },
      `Start battle ${c.next.index + 1}: ${c.next.scenario_name || c.next.scenario_id} (dice ${dice(c.next.dice)})`);
    btn.addEventListener('click', async () => {
      try { renderCampaign(await api(`/campaigns/${CID}/next`, { method: 'POST' })); } catch (e) { $('campaign-error').textContent = e.message; }
    });
    next.append(btn);
  }
}

async function showCampaign() {
  try { renderCampaign(await api(`/campaigns/${CID}`)); } catch (e) { $('campaign-error').textContent = e.message; }
}

async function showList() {
  const scenarios = await api('/scenarios').catch(() => []);
  const sel = $('campaign-scenarios');
  for (const s of scenarios) if ((s.board_type || '').toUpperCase() !== 'OVERLORD') sel.append(el('option', { value: s.id }, s.name));
  const list = clear($('campaign-list'));
  for (const c of await api('/campaigns').catch(() => [])) {
    list.append(el('li', {}, el('a', { href: `/campaigns/${c.id}` }, c.name),
      ` — ${c.battles.length}/${c.scenarios.length} battles, victories Axis ${c.wins.AXIS} / Allies ${c.wins.ALLIES}`));
  }
  $('campaign-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const ids = [...sel.selectedOptions].map((o) => o.value);
    const seat = $('campaign-seat').value;
    const other = seat === 'AXIS' ? 'ALLIES' : 'AXIS';
    try {
      const c = await api('/campaigns', { method: 'POST', body: JSON.stringify({
        name: $('campaign-name-input').value, scenario_ids: ids, seat,
        bots: $('campaign-bot').checked ? [other] : [] }) });
      window.location.href = `/campaigns/${c.id}`;
    } catch (e) { $('campaign-error').textContent = e.message; }
  });
}

export const FACE_NAMES = FACES;
if (CID) showCampaign(); else showList();
