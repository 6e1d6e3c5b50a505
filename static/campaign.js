// Campaign pages (004 Simplified Campaign Rules): the list + creation form, or one
// campaign's standings, battles and next battle (GET/POST /api/campaigns...).
import { el, clear, sideName, onSubmit } from './util.js';
import { t, term } from './i18n.js';

const API = document.body.dataset.apiBase || '/api';
const CID = document.body.dataset.campaignId;
const $ = (id) => document.getElementById(id);
const FACES = { inf: t('infantry'), armor: t('tank'), grenade: t('grenade'), star: t('star'), flag: t('flag') };

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

const STATUS = { live: t('being played'), finished: t('finished'), open: t('waiting for players') };

function result(b) {
  if (!b.medals) return b.status === 'pending' ? t('not started') : (STATUS[b.status] || b.status);
  const m = t('{axis}–{allies} medals ({axis_side}–{allies_side})', { axis: b.medals.AXIS ?? 0, allies: b.medals.ALLIES ?? 0, axis_side: sideName('AXIS'), allies_side: sideName('ALLIES') });
  return b.winner ? `${t('{side} won', { side: sideName(b.winner) })}, ${m}` : `${t('no winner')}, ${m}`;
}

function renderCampaign(c) {
  $('campaign-name').textContent = `${c.name}${c.status === 'finished' ? ' ' + t('(finished)') : ''}`;
  const w = c.wins;
  clear($('campaign-standings')).append(el('p', { class: 'standings' },
    t('Victories: {axis_side} {axis}, {allies_side} {allies}', { axis_side: sideName('AXIS'), axis: w.AXIS, allies_side: sideName('ALLIES'), allies: w.ALLIES })
    + (c.status === 'finished' ? ` — ${c.winner ? t('campaign won by {side}', { side: sideName(c.winner) }) : t('campaign drawn')}` : '')));
  const body = clear($('campaign-battles').querySelector('tbody'));
  const rows = [...c.battles, ...(c.next ? [c.next] : [])];
  for (let i = rows.length; i < c.scenarios.length; i += 1) {
    rows.push({ index: i, scenario_id: c.scenarios[i], scenario_name: (c.scenario_names || [])[i], status: 'later', dice: {} });
  }
  for (const b of rows) {
    const game = b.game_id ? el('a', { href: `/games/${b.game_id}` }, t('open the game')) : '';
    body.append(el('tr', { 'data-index': String(b.index) }, el('td', {}, String(b.index + 1)),
      el('td', { 'data-scenario': b.scenario_id }, term(b.scenario_name) || b.scenario_id), el('td', {}, b.status === 'later' ? '' : dice(b.dice)),
      el('td', {}, game), el('td', {}, b.status === 'later' ? '' : result(b))));
  }
  const next = clear($('campaign-next'));
  if (c.next) {
    const btn = el('button', { class: 'primary', id: 'campaign-next-button' },
      t('Start battle {n}: {scenario} (dice {dice})', { n: c.next.index + 1, scenario: term(c.next.scenario_name) || c.next.scenario_id, dice: dice(c.next.dice) }));
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
  for (const s of scenarios) if ((s.board_type || '').toUpperCase() !== 'OVERLORD') sel.append(el('option', { value: s.id }, term(s.name)));
  const list = clear($('campaign-list'));
  for (const c of await api('/campaigns').catch(() => [])) {
    list.append(el('li', {}, el('a', { href: `/campaigns/${c.id}` }, c.name),
      ` — ${t('{done}/{total} battles, victories {axis_side} {axis} / {allies_side} {allies}', { done: c.battles.length, total: c.scenarios.length, axis_side: sideName('AXIS'), axis: c.wins.AXIS, allies_side: sideName('ALLIES'), allies: c.wins.ALLIES })}`));
  }
  onSubmit($('campaign-form'), async () => {
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
