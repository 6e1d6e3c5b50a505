// The game page of every ruleset: the host owns the one websocket client
// (static/client.js: reconnect with jitter, `since`, `invite`, `watch`) and the chrome
// (status line, seats, log); the ruleset's module static/renderers/<renderer>.js draws
// the game ("hex": the Memoir '44 board, which draws its own chrome, see `receive`).
//
// Renderer module interface (docs/architecture.md "Client renderers"):
//   export function mount(el, ctx)   once: el = the board container; ctx = {
//       ruleset, renderer, seat, seats,        // this connection's seat(s) (null: spectator)
//       sendAction(action),                    // submit an engine action (the "onAction")
//       say(text),                             // a line in the page's log
//       cfg, client }                          // the page's settings, the websocket client
//   export function render(s)        on every hello/update/sync: s = {
//       view, board, legal, seq, status, seat, seats, events }  // events: update only
//   export function unmount()        optional: the page is going away
//   export function describe(event)  optional: the log line of an event ('' = none; default: its type)
//   export function sideLabel(side, view) optional: a side's proper name ("the Allies")
//   export function receive(msg)     optional: the renderer takes every protocol message and
//                                    draws the page's chrome itself (the host then draws only
//                                    the connection line); with it: since() the seq it holds,
//                                    notice(text) a notice to the user
//
// The host also gives the other games what the hex games have (static/remote.js): resign,
// undo where the server offers it, the turn clocks, presence, the "your turn" title.
import { el, clear, mergePatch, titleCase } from './util.js';
import { ChatPanel } from './chat.js';
import { ClockView, sideExtras, renderRemoteBar, TurnNotifier } from './remote.js';
import { loadSeatDesk, creatorDesk, slotsOf, botSeatClaimable } from './seatdesk.js';
import { GameClient, pageConfig, connText } from './client.js';

const body = document.body;
const cfg = pageConfig(body);
const $ = (id) => document.getElementById(id);
const S = { seq: null, board: null, view: null, legal: [], seat: null, seats: [], status: null,
  side: null, mode: null, allSeats: [], presence: null, undo: null, match: undefined, creator: undefined };
const clockView = new ClockView();
const notifier = new TurnNotifier();
// the status in words (never the raw `open` / `live`)
const STATUS_TEXT = { open: 'Waiting for players', live: 'In play', finished: 'Game over', unplayable: 'This game can no longer be replayed' };
window.__game = S;

function say(text) {
  const log = $('log');
  if (log) log.prepend(el('div', { class: 'log-line' }, text));
}

const mod = await import(`/static/renderers/${encodeURIComponent(cfg.renderer)}.js`);
const whole = !!mod.receive;   // the renderer takes the whole protocol (hex)

const conn = new GameClient(cfg, {
  since: () => (whole ? mod.since() : S.seq),
  onMessage: (msg) => (whole ? mod.receive(msg) : handle(msg)),
  onState: (ok, code) => {
    const c = $('conn');
    c.classList.toggle('ok', ok);
    c.textContent = connText(ok, code);
    c.dataset.state = ok ? 'ok' : 'down';
  },
  notConnected: () => (whole ? mod.notice : say)('Not connected — retrying…'),
});
window.__conn = conn;   // tests: force a reconnect
const send = (obj) => conn.send(obj);

// chat: the same panel and channels as the hex game page (docs/protocol.md "Chat channels")
let lastChatChannel = null;
const chat = !whole && $('chat') ? new ChatPanel($('chat'), (channel, text) => {
  lastChatChannel = channel;
  send({ type: 'chat', channel, text });
}) : null;
function chatContext() { return { seat: S.seat, side: S.seat, role: null }; }

mod.mount($('board'), {
  ruleset: cfg.ruleset, renderer: cfg.renderer,
  get seat() { return S.seat; }, get seats() { return S.seats; },
  sendAction: (action) => send({ type: 'action', seq: S.seq, action }),
  say, cfg, client: conn,
});

// a side's proper name: the renderer's ("the Allies", "the British column (red)")
function sideLabel(side) {
  return (mod.sideLabel && mod.sideLabel(side, S.view)) || titleCase(String(side || '').toLowerCase());
}

// the seats: who holds each, a button for each seat one may take (a free one, or a
// bot's before the start), and the creator's desk of an open game (bots, start)
function drawSeats(seats) {
  const bar = $('seat-bar');
  if (!bar) return;
  if (seats) S.allSeats = seats;
  clear(bar);
  for (const x of slotsOf(S.allSeats)) {
    const name = sideLabel(x.seat);
    const takeable = !S.seat && S.status !== 'finished' && (!x.taken || botSeatClaimable(x, S.status, S.mode));
    if (takeable) {
      bar.append(el('button', { type: 'button', class: 'primary', 'data-claim': x.seat, onclick: () => claim(x.slot || x.seat) },
        `Play ${name}${x.is_bot ? ' (in place of the bot)' : ''}`));
    } else {
      bar.append(el('span', { class: 'seat-chip', 'data-seat': x.seat }, `${name}: ${x.taken ? (x.is_bot ? 'bot' : x.name || '?') : 'free'}`));
    }
  }
  if (S.status === 'open' && S.creator === undefined) {
    S.creator = null;
    loadSeatDesk('/api', cfg.gameId).then((mine) => { S.creator = mine; drawSeats(); });
  }
  const desk = creatorDesk({ seats: S.allSeats, status: S.status, isCreator: !!S.creator, apiBase: '/api',
    gameId: cfg.gameId, label: sideLabel, onError: say });
  if (desk) bar.append(desk);
}
async function claim(slot) {
  const invite = cfg.invite || null;
  const r = await fetch(`/api/games/${cfg.gameId}/seats/${encodeURIComponent(slot)}/claim`, {
    method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ invite }) });
  if (!r.ok) { say(`Could not take ${slot} (HTTP ${r.status})`); return; }
  S.seq = null;
  conn.reconnect();
}

function myTurn() { return !!S.seat && S.status === 'live' && !!S.view && !S.view.game_over && S.legal.length > 0; }

// per side: its name, presence and clock; then resign / undo / the after-game links
function drawRemote() {
  const sides = $('host-sides');
  if (sides) {
    clear(sides);
    const names = [...new Set(S.allSeats.map((x) => x.side || x.seat))];
    for (const side of names) {
      sides.append(el('div', { class: 'side-box', 'data-side': side },
        el('b', {}, sideLabel(side)), ...sideExtras(side, { seats: S.allSeats, presence: S.presence, clock: clockView })));
    }
  }
  if (S.view && S.view.game_over && S.match === undefined) {
    S.match = null;
    fetch(`/api/games/${cfg.gameId}/match`, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : null))
      .then((m) => { S.match = m; drawRemote(); }).catch(() => {});
  }
  const bar = $('remote-bar');
  if (bar) {
    renderRemoteBar(bar, { S, presence: S.presence, send, gameId: cfg.gameId, match: S.match, rematch });
    if (S.seat) { bar.append(notifier.toggle()); bar.classList.remove('hidden'); }
  }
}
async function rematch() {
  const r = await fetch(`/api/games/${cfg.gameId}/rematch`, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  if (r.ok) location.href = (await r.json()).url; else say(`No return match (HTTP ${r.status})`);
}

function draw(events) {
  const over = S.view && S.view.game_over;
  $('conn').textContent = over ? 'Game over' : (STATUS_TEXT[S.status] || '');
  $('conn').dataset.status = S.status || '';
  $('my-seat').textContent = S.seat ? `You play ${sideLabel(S.seat)}` : 'Spectator';
  notifier.update(myTurn(), S.seat ? `You play ${sideLabel(S.seat)}` : '');
  drawRemote();
  mod.render({ view: S.view, board: S.board, legal: S.legal, seq: S.seq, status: S.status,
    seat: S.seat, seats: S.seats, events: events || [] });
}

function handle(msg) {
  switch (msg.type) {
    case 'hello':
      Object.assign(S, { seq: msg.seq, board: msg.board, view: msg.view, legal: msg.legal || [],
        seat: msg.seat, side: msg.seat, seats: msg.my_seats || [], status: msg.status, mode: msg.mode,
        presence: msg.presence || S.presence, undo: msg.undo ?? null });
      clockView.set(msg.clock);
      drawSeats(msg.seats);
      if (chat) { chat.setChannels(msg.chat_channels || {}, chatContext()); chat.setHistory(msg.chat || []); }
      draw([]);
      break;
    case 'chat':
      if (chat) chat.push(msg);
      break;
    case 'update':
      // `view_patch`: the change to the last view the server sent (docs/protocol.md)
      if (msg.view === undefined && msg.view_patch !== undefined) msg.view = mergePatch(S.view, msg.view_patch);
      Object.assign(S, { seq: msg.seq, view: msg.view, legal: msg.legal || [], status: msg.status });
      if ('undo' in msg) S.undo = msg.undo;
      if ('clock' in msg) clockView.set(msg.clock);
      if (chat && msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
      for (const e of msg.events || []) {
        const line = mod.describe ? mod.describe(e) : e.type;
        if (line) say(line);
      }
      draw(msg.events);
      break;
    case 'sync':
      Object.assign(S, { seq: msg.seq, view: msg.view, legal: msg.legal || [], status: msg.status });
      if ('undo' in msg) S.undo = msg.undo;
      if ('clock' in msg) clockView.set(msg.clock);
      draw([]);
      break;
    case 'presence':
      S.presence = msg;
      drawRemote();
      break;
    case 'ack':
      break;
    case 'seats':
      S.status = msg.status;
      drawSeats(msg.seats);
      draw([]);
      break;
    case 'reject':
      say(`Refused: ${msg.message || msg.code}`);
      if (msg.code === 'stale_seq') send({ type: 'resync', since: S.seq });
      break;
    case 'error':
      if (chat && msg.code === 'chat_forbidden') { chat.markClosed(lastChatChannel, (msg.details && msg.details.reason) || msg.message); break; }
      say(`Error: ${msg.message || msg.code}`);
      break;
    default:
      break;
  }
}

if (!whole) {
  clear($('log'));
  // the clocks tick between server messages
  setInterval(() => { if (clockView.clock && (clockView.clock.running || []).length) drawRemote(); }, 1000);
}
conn.connect();
window.addEventListener('beforeunload', () => { if (mod.unmount) mod.unmount(); });
