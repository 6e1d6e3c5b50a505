// Match page: a game and its return match (GET /api/games/{id}/match).
import { el, clear, sideName } from './util.js';
import { t, tn } from './i18n.js';

const body = document.body;
// how the winner of a match was decided (GET /api/games/{id}/match: decided_by)
const DECIDED_BY = { medals: t('medals'), 'games won': t('games won') };
async function load() {
  const invite = new URLSearchParams(location.search).get('invite');    // a private game's
  const r = await fetch(`${body.dataset.apiBase || '/api'}/games/${body.dataset.gameId}/match${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`);
  const m = await r.json();
  const box = clear(document.getElementById('match-body'));
  if (!r.ok) { box.append(el('div', { class: 'error' }, (m.error && m.error.message) || `HTTP ${r.status}`)); return; }
  const table = el('table', { class: 'match-table', id: 'match-table' },
    el('tr', {}, el('th', {}, t('Game')), el('th', {}, sideName('AXIS')), el('th', {}, sideName('ALLIES')), el('th', {}, t('Result'))));
  m.games.forEach((g, i) => {
    const cell = (side) => { const s = g.sides[side]; return el('td', {}, s ? `${s.player}: ${tn('{n} medal', '{n} medals', s.medals)}` : '—'); };
    table.append(el('tr', { 'data-game': g.id }, el('td', {}, el('a', { href: g.url }, i ? t('Return match') : t('First game')), ' ',
      g.status === 'finished' ? el('a', { href: `${g.url}/replay`, class: 'muted' }, t('(replay)')) : ''),
    cell('AXIS'), cell('ALLIES'), el('td', {}, g.status === 'finished' ? (g.winner ? t('{side} won', { side: sideName(g.winner) }) : t('no winner')) : t('being played'))));
  });
  box.append(table);
  const totals = el('ul', { id: 'match-totals' });
  for (const p of m.players) totals.append(el('li', { 'data-player': p.name }, `${p.name}: ${tn('{n} medal', '{n} medals', p.medals)}, ${tn('{n} game won', '{n} games won', p.wins)}`));
  box.append(totals);
  let verdict;
  if (!m.second) verdict = t('The return match has not been created yet.');
  else if (!m.finished) verdict = t('The match is still being played.');
  else if (m.winner) verdict = t('{name} wins the match ({reason}).', { name: m.winner, reason: DECIDED_BY[m.decided_by] || m.decided_by });
  else verdict = t('The match is drawn.');
  box.append(el('p', { id: 'match-result', class: 'banner' }, verdict));
}
load();
