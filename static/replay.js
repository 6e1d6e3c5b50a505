// Replay page: a finished game step by step from the server's log
// (GET /api/games/{id}/replay: one step per player entry with its dice, events and the
// public view after it).  Forward, back, jump to a turn, autoplay at a chosen speed; the
// URL (?step=N) is the shareable link to a step.
//
// The board is drawn by the game's renderer (the replay's `renderer`, as on the game page):
// the hex board (Memoir '44, Overlord, Fast Play) by this page's own hex replay; any other
// renderer (square, referee, plain) by its module static/renderers/<renderer>.js through
// the interface static/renderer_host.js uses (mount once, render each step's public view
// with no legal action, describe each event for the log), as a spectator of a finished game.
import { BoardView } from './board.js';
import { el, clear, sideName } from './util.js';
import { t, errorText } from './i18n.js';
import { renderDice } from './cards.js';
import { logEntry, eventDice, describeEvent } from './log.js';
import { UnitNames } from './unitnames.js';
import { BoardZoom } from './zoom.js';

const body = document.body;
const gameId = body.dataset.gameId;
const api = body.dataset.apiBase || '/api';
const $ = (id) => document.getElementById(id);
const R = { data: null, step: 0, lines: [], dice: [], timer: null, mod: null };
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
  if (data.renderer && data.renderer !== 'hex') { await loadRenderer(data); return; }
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
  controls(data);
}

// the controls every renderer shares: the turns, the links, the first step shown
function controls(data) {
  const slider = $('rp-slider');
  slider.max = String(data.steps.length - 1);
  const turns = $('rp-turn');
  const seen = new Set();
  data.steps.forEach((s, i) => {
    if (s.turn === null || s.turn === undefined || seen.has(s.turn)) return;
    seen.add(s.turn);
    turns.append(el('option', { value: String(i) }, t('Turn {n}', { n: s.turn })));
  });
  $('rp-export').href = `${api}/games/${gameId}/log${inviteQ ? '?' + inviteQ : ''}`;
  $('rp-export').setAttribute('download', `${gameId}.json`);
  if (data.verify_url) $('rp-verify').append(' · ', el('a', { href: data.verify_url + (inviteQ ? '?' + inviteQ : ''), id: 'rp-verify-link' }, t('Verify dice')));
  fetch(`${api}/games/${gameId}/match${inviteQ ? '?' + inviteQ : ''}`).then((m) => m.ok ? m.json() : null).then((m) => {
    if (m && m.second) $('rp-match').append(' · ', el('a', { href: m.url }, t('Match')));
  }).catch(() => {});
  const q = Number(new URLSearchParams(location.search).get('step'));
  show(Number.isInteger(q) && q >= 0 ? Math.min(q, data.steps.length - 1) : 0);
}

// A renderer other than the hex board: its module draws each step (renderer interface).
async function loadRenderer(data) {
  const mod = await import(`/static/renderers/${encodeURIComponent(data.renderer)}.js`);
  R.mod = mod;
  body.dataset.renderer = data.renderer;
  // the dice box is the hex board's: a renderer draws its own rolls
  $('dice-panel').classList.add('hidden');
  R.ctx = {
    cfg: { gameId, api, ruleset: data.ruleset, renderer: data.renderer, invite },
    sendAction: () => null,                      // a replay sends nothing
    notice: () => {},
    sideStatus: () => el('div', { class: 'side-status' }),
  };
  mod.mount($('board'), R.ctx);
  if (mod.history) mod.history(data.steps[0].view.units, 0);
  data.steps.forEach((s) => {
    // the renderer's words for each event, as the game page's log (renderer_host.js
    // `entry`: an element as it is, a text in an entry, '' none)
    R.lines.push(s.events.map((e) => {
      const d = mod.describe ? mod.describe(e, s.seq, true) : e.type;
      if (!d || d instanceof Node) return d || null;
      return el('div', { class: 'entry', 'data-type': e.type }, el('span', { class: 'seq' }, `#${s.seq}`), String(d));
    }).filter(Boolean));
    R.dice.push(null);
  });
  controls(data);
}

function show(i) {
  const steps = R.data.steps;
  R.step = Math.max(0, Math.min(i, steps.length - 1));
  const s = steps[R.step];
  if (R.mod) {
    // mounted afresh at every step, given the events up to it: a renderer that keeps
    // recent rolls shows those before this step, never later ones (stepping back)
    R.mod.unmount();
    R.mod.mount($('board'), R.ctx);
    const events = steps.slice(Math.max(0, R.step - 8), R.step + 1).flatMap((x) => x.events);
    R.mod.render({ view: s.view, legal: [], board: R.data.board, seq: s.seq, status: 'finished', mode: R.data.mode,
      panels: R.data.panels || [], seat: null, side: null, role: null, mySeats: [], seats: R.data.seats || [],
      events, pending: null });
  } else R.board.setView(s.view);
  $('rp-slider').value = String(R.step);
  $('rp-pos').textContent = `${t('step {n} / {total}', { n: R.step, total: steps.length - 1 })} · ${t('turn {n}', { n: s.turn ?? '-' })}${s.seat ? ' · ' + sideTitle(s.seat, s.view) : ''}`;
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
  $('roll-caption').textContent = d ? d.caption : t('No dice rolled yet.');
  renderDice(clear($('dice')), d ? d.dice : []);
  renderSides(s.view);
  const b = $('banner');
  if (s.view.game_over) { b.classList.remove('hidden'); b.textContent = s.view.winner ? t('{side} win the battle!', { side: sideTitle(s.view.winner, s.view) }) : t('The battle is over.'); } else b.classList.add('hidden');
  const u = new URL(location.href);
  u.searchParams.set('step', String(R.step));
  history.replaceState(null, '', u.toString());
  $('rp-share').href = u.toString();
}

// a side's name: the renderer's proper name where it has one (as on the game page)
function sideTitle(side, view) {
  return (R.mod && R.mod.sideLabel && R.mod.sideLabel(side, view)) || sideName(side);
}

function renderSides(v) {
  const box = clear($('sides'));
  if (R.mod) {   // the renderer draws its sides; the players' names here
    for (const side of new Set((R.data.seats || []).map((x) => x.side))) {
      const seat = R.data.seats.find((x) => x.side === side);
      box.append(el('div', { class: `side-box ${side.toLowerCase()}`, 'data-side': side },
        el('div', {}, el('b', {}, sideTitle(side, v)), el('div', { class: 'muted' }, seat && seat.held_by ? seat.held_by : ''))));
    }
    return;
  }
  for (const [side, s] of Object.entries(v.sides || {})) {
    const seat = (R.data.seats || []).find((x) => x.side === side);
    box.append(el('div', { class: `side-box ${side.toLowerCase()}`, 'data-side': side },
      el('div', {}, el('b', {}, sideName(side)), el('div', { class: 'muted' }, seat && seat.held_by ? seat.held_by : '')),
      el('div', { class: 'medals', 'data-medals': s.medals || 0 }, `${s.medals || 0}/${s.victory}`)));
  }
}

function play() {
  if (R.timer) { clearInterval(R.timer); R.timer = null; $('rp-play-text').textContent = t('Play'); return; }
  if (R.step >= R.data.steps.length - 1) show(0);
  $('rp-play-text').textContent = t('Pause');
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
  // the board's own keys (its cursor) are not steps
  if (!R.data || ev.defaultPrevented || ev.target.tagName === 'INPUT' || ev.target.tagName === 'SELECT') return;
  if (ev.key === 'ArrowRight') show(R.step + 1);
  else if (ev.key === 'ArrowLeft') show(R.step - 1);
  else if (ev.key === ' ') { ev.preventDefault(); play(); }
});
load();
