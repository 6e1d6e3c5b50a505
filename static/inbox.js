// Inbox: accept / decline / cancel offers, challenge a player by name.
import { apiFetch, onSubmit } from './util.js';
import { term } from './i18n.js';

const API = document.body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);

const api = (path, opts = {}) => apiFetch(API, path, opts);

document.addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-accept], button[data-decline], button[data-cancel]');
  if (!b) return;
  const [verb, id] = b.dataset.accept ? ['accept', b.dataset.accept] : b.dataset.decline ? ['decline', b.dataset.decline] : ['cancel', b.dataset.cancel];
  b.disabled = true;
  try {
    const o = await api(`/offers/${encodeURIComponent(id)}/${verb}`, { method: 'POST' });
    if (o.game_url) location.href = o.game_url; else location.reload();
  } catch (e) { b.disabled = false; b.after(` ${e.message}`); }
});

const CLOCKS = { bank: { kind: 'bank', initial_seconds: 900, increment_seconds: 10 }, move: { kind: 'move', move_seconds: 86400 } };
if ($('challenge-form')) {
  const params = new URLSearchParams(location.search);
  if (params.get('challenge')) $('challenge-to').value = params.get('challenge');
  api('/scenarios').then((list) => {
    for (const s of list) { const o = document.createElement('option'); o.value = s.id; o.textContent = term(s.name); $('challenge-scenario').append(o); }
  }).catch(() => {});
  onSubmit($('challenge-form'), async () => {
    const body = { to: $('challenge-to').value.trim(), scenario_id: $('challenge-scenario').value, mode: '1v1', rated: $('challenge-rated').checked };
    if ($('challenge-clock').value) body.clock = CLOCKS[$('challenge-clock').value];
    try { await api('/challenges', { method: 'POST', body: JSON.stringify(body) }); location.reload(); } catch (e) { $('challenge-status').textContent = e.message; }
  });
}
