// Match page: a game and its return match (GET /api/games/{id}/match).
import { el, clear, sideName } from './util.js';

const body = document.body;
async function load() {
  const invite = new URLSearchParams(location.search).get('invite');    // a private game's
  const r = await fetch(`${body.dataset.apiBase || '/api'}/games/${body.dataset.gameId}/match${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`);
  const m = await r.json();
  const box = clear(document.getElementById('match-body'));
  if (!r.ok) { box.append(el('div', { class: 'error' }, (m.error && m.error.message) || `HTTP ${r.status}`)); return; }
  const table = el('table', { class: 'match-table', id: 'match-table' },
    el('tr', {}, el('th', {}, 'Game'), el('th', {}, 'Axis'), el('th', {}, 'Allies'), el('th', {}, 'Result')));
  m.games.forEach((g, i) => {
    const cell = (side) => { const s = g.sides[side]; return el('td', {}, s ? `${s.player}: ${s.medals} medal${s.medals === 1 ? '' : 's'}` : '—'); };
    table.append(el('tr', { 'data-game': g.id }, el('td', {}, el('a', { href: g.url }, i ? 'Return match' : 'First game'), ' ',
      g.status === 'finished' ? el('a', { href: `${g.url}/replay`, class: 'muted' }, '(replay)') : ''),
    cell('AXIS'), cell('ALLIES'), el('td', {}, g.status === 'finished' ? (g.winner ? `${sideName(g.winner)} won` : 'no winner') : 'being played')));
  });
  box.append(table);
  const totals = el('ul', { id: 'match-totals' });
  for (const p of m.players) totals.append(el('li', { 'data-player': p.name }, `${p.name}: ${p.medals} medal${p.medals === 1 ? '' : 's'}, ${p.wins} game${p.wins === 1 ? '' : 's'} won`));
  box.append(totals);
  let verdict;
  if (!m.second) verdict = 'The return match has not been created yet.';
  else if (!m.finished) verdict = 'The match is still being played.';
  else if (m.winner) verdict = `${m.winner} wins the match (${m.decided_by}).`;
  else verdict = 'The match is drawn.';
  box.append(el('p', { id: 'match-result', class: 'banner' }, verdict));
}
load();
