// Replay page: a finished game step by step from the server's log
// (GET /api/games/{id}/replay: one step per player entry with its dice, events and the
// public view after it).  Forward, back, jump to a turn, autoplay at a chosen speed; the
// URL (?step=N) is the shareable link to a step.
import { BoardView } from './board.js';
import { el, clear, sideName } from './util.js';
import { renderDice } from './cards.js';
import { logEntry, eventDice, describeEvent } from './log.js';
import { UnitNames } from './unitnames.js';
import { BoardZoom } from './zoom.js';

const body = document.body;
const gameId = body.dataset.gameId;
const api = body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);
const R = { data: null, step: 0, lines: [], dice: [], timer: null };
window.__replay = R;   // tests

// a private game's invite (?invite=), passed on to the API
const invite = new URLSearchParams(location.search).get('invite');
const inviteQ = invite ? `invite=${encodeURIComponent(invite)}` : '';

// the replay comes a page of steps at a time (`from`, `next_from`)
async function fetchReplay() {
  let data = null;
  for (let from = 0; from !== null && from !== undefined;) {
    const r = await fetch(`${api}/games/${gameId}/replay?from=${from}${inviteQ ? '&' + inviteQ : ''}`,
      { credentials: 'same-origin' });
    const page = await r.json();
    if (!r.ok) return { error: (page.error && page.error.message) || `HTTP ${r.status}` };
    if (data) data.steps.push(...page.steps); else data = page;
    from = page.next_from;
  }
  return { data };
}

async function load() {
  const { data, error } = await fetchReplay();
  if (error) {
    $('board').append(el('div', { class: 'panel error', id: 'replay-error' }, error));
    return;
  }
  R.data = data;
  // every step's log lines and dice, once, with the names of then (as the live page)
  const names = new UnitNames();
  names.seed(data.steps[0].view.units);
  let lastDice = null;
  data.steps.forEach((s, i) => {
    names.learn(i ? data.steps[i - 1].view.units : []);
    R.lines.push(s.events.map((e) => {
      const node = logEntry(e, (id) => names.name(id), s.seq);
      const d = eventDice(e);
      if (d) lastDice = { dice: d, caption: describeEvent(e, (id) => names.name(id)) };
      names.apply(e);
      return node;
    }));
    R.dice.push(lastDice);
  });
  const zoom = new BoardZoom($('board'));
  const board = new BoardView(zoom.container, {});
  board.setBoard(data.board, { flipped: false });
  zoom.fitFor(data.board);
  R.board = board;
  const slider = $('rp-slider');
  slider.max = String(data.steps.length - 1);
  const turns = $('rp-turn');
  const seen = new Set();
  data.steps.forEach((s, i) => {
    if (s.turn === null || s.turn === undefined || seen.has(s.turn)) return;
    seen.add(s.turn);
    turns.append(el('option', { value: String(i) }, `Turn ${s.turn}`));
  });
  $('rp-export').href = `${api}/games/${gameId}/log${inviteQ ? '?' + inviteQ : ''}`;
  $('rp-export').setAttribute('download', `${gameId}.json`);
  if (data.verify_url) $('rp-verify').append(' · ', el('a', { href: data.verify_url + (inviteQ ? '?' + inviteQ : ''), id: 'rp-verify-link' }, 'Verify the dice'));
  fetch(`${api}/games/${gameId}/match${inviteQ ? '?' + inviteQ : ''}`).then((m) => m.ok ? m.json() : null).then((m) => {
    if (m && m.second) $('rp-match').append(' · ', el('a', { href: m.url }, 'Match'));
  }).catch(() => {});
  const q = Number(new URLSearchParams(location.search).get('step'));
  show(Number.isInteger(q) && q >= 0 ? Math.min(q, data.steps.length - 1) : 0);
}

function show(i) {
  const steps = R.data.steps;
  R.step = Math.max(0, Math.min(i, steps.length - 1));
  const s = steps[R.step];
  R.board.setView(s.view);
  $('rp-slider').value = String(R.step);
  $('rp-pos').textContent = `step ${R.step} / ${steps.length - 1} · turn ${s.turn ?? '-'}${s.seat ? ' · ' + sideName(s.seat) : ''}`;
  $('rp-pos').dataset.step = String(R.step);
  const turnOpt = [...$('rp-turn').options].filter((o) => Number(o.value) <= R.step).pop();
  if (turnOpt) $('rp-turn').value = turnOpt.value;
  const log = clear($('log'));
  for (let k = 0; k <= R.step; k++) {
    for (const node of R.lines[k]) {
      const n = node.cloneNode(true);
      if (k === R.step) n.classList.add('current');
      log.append(n);
    }
  }
  log.scrollTop = log.scrollHeight;
  const d = R.dice[R.step];
  $('roll-caption').textContent = d ? d.caption : 'No dice rolled yet.';
  renderDice(clear($('dice')), d ? d.dice : []);
  renderSides(s.view);
  const b = $('banner');
  if (s.view.game_over) { b.classList.remove('hidden'); b.textContent = s.view.winner ? `${sideName(s.view.winner)} win the battle!` : 'The battle is over.'; } else b.classList.add('hidden');
  const u = new URL(location.href);
  u.searchParams.set('step', String(R.step));
  history.replaceState(null, '', u.toString());
  $('rp-share').href = u.toString();
}

function renderSides(v) {
  const box = clear($('sides'));
  for (const [side, s] of Object.entries(v.sides || {})) {
    const seat = (R.data.seats || []).find((x) => x.side === side);
    box.append(el('div', { class: `side-box ${side.toLowerCase()}`, 'data-side': side },
      el('div', {}, el('b', {}, sideName(side)), el('div', { class: 'muted' }, seat && seat.held_by ? seat.held_by : '')),
      el('div', { class: 'medals', 'data-medals': s.medals || 0 }, `${s.medals || 0}/${s.victory}`)));
  }
}

function play() {
  if (R.timer) { clearInterval(R.timer); R.timer = null; $('rp-play-text').textContent = 'Play'; return; }
  if (R.step >= R.data.steps.length - 1) show(0);
  $('rp-play-text').textContent = 'Pause';
  R.timer = setInterval(() => {
    if (R.step >= R.data.steps.length - 1) { play(); return; }
    show(R.step + 1);
  }, Number($('rp-speed').value));
}

$('rp-first').onclick = () => show(0);
$('rp-back').onclick = () => show(R.step - 1);
$('rp-fwd').onclick = () => show(R.step + 1);
$('rp-last').onclick = () => show(R.data.steps.length - 1);
$('rp-play').onclick = play;
$('rp-speed').onchange = () => { if (R.timer) { play(); play(); } };
$('rp-turn').onchange = (ev) => show(Number(ev.target.value));
$('rp-slider').oninput = (ev) => show(Number(ev.target.value));
document.addEventListener('keydown', (ev) => {
  if (!R.data || ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
  if (ev.key === 'ArrowRight') show(R.step + 1);
  else if (ev.key === 'ArrowLeft') show(R.step - 1);
  else if (ev.key === ' ') { ev.preventDefault(); play(); }
});
load();
