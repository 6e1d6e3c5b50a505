// Game page for a ruleset whose renderer is not the built-in hex board ("hex" is
// static/game.js). The host owns the websocket (docs/protocol.md) and the chrome (status
// line, seats, log); the ruleset's module static/renderers/<renderer>.js draws the game.
//
// Renderer module interface (docs/architecture.md "Client renderers"):
//   export function mount(el, ctx)   once: el = the board container; ctx = {
//       ruleset, renderer, seat, seats,        // this connection's seat(s) (null: spectator)
//       sendAction(action),                    // submit an engine action (the "onAction")
//       say(text) }                            // a line in the page's log
//   export function render(s)        on every hello/update/sync: s = {
//       view, board, legal, seq, status, seat, seats, events }  // events: update only
//   export function unmount()        optional: the page is going away
//   export function describe(event)  optional: the log line of an event ('' = none; default: its type)
import { el, clear, mergePatch } from './util.js';
import { ChatPanel } from './chat.js';

const body = document.body;
const cfg = {
  gameId: body.dataset.gameId,
  wsUrl: body.dataset.wsUrl || `/ws/games/${body.dataset.gameId}`,
  renderer: body.dataset.renderer,
  ruleset: body.dataset.ruleset,
  seat: new URLSearchParams(location.search).get('seat') || '',
};
const $ = (id) => document.getElementById(id);
const S = { seq: null, board: null, view: null, legal: [], seat: null, seats: [], status: null };
window.__game = S;

function say(text) {
  const log = $('log');
  if (log) log.prepend(el('div', { class: 'log-line' }, text));
}

let ws = null;
let msgId = 0;
let backoff = 500;
function wsUrl() {
  let base = cfg.wsUrl;
  if (!/^wss?:/.test(base)) base = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base}`;
  const u = new URL(base);
  if (cfg.seat) u.searchParams.set('seat', cfg.seat);
  if (S.seq !== null) u.searchParams.set('since', String(S.seq));
  return u.toString();
}
function send(obj) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { say('Not connected — retrying…'); return null; }
  const id = `m${++msgId}`;
  ws.send(JSON.stringify({ ...obj, id }));
  return id;
}

// chat: the same panel and channels as the hex game page (docs/protocol.md "Chat channels")
let lastChatChannel = null;
const chat = $('chat') ? new ChatPanel($('chat'), (channel, text) => {
  lastChatChannel = channel;
  send({ type: 'chat', channel, text });
}) : null;
function chatContext() { return { seat: S.seat, side: S.seat, role: null }; }

const mod = await import(`/static/renderers/${encodeURIComponent(cfg.renderer)}.js`);
mod.mount($('board'), {
  ruleset: cfg.ruleset, renderer: cfg.renderer,
  get seat() { return S.seat; }, get seats() { return S.seats; },
  sendAction: (action) => send({ type: 'action', seq: S.seq, action }),
  say,
});

// free seats of an open game: one button each (claim, then reconnect as that seat)
function drawSeats(seats) {
  const bar = $('seat-bar');
  if (!bar) return;
  clear(bar);
  for (const x of seats || []) {
    if (x.taken) { bar.append(el('span', { class: 'seat-chip' }, `${x.seat}: ${x.name || '?'}`)); continue; }
    bar.append(el('button', { type: 'button', 'data-claim': x.seat, onclick: () => claim(x.slot || x.seat) }, `Take ${x.slot || x.seat}`));
  }
}
async function claim(slot) {
  const invite = body.dataset.invite || new URLSearchParams(location.search).get('invite') || null;
  const r = await fetch(`/api/games/${cfg.gameId}/seats/${encodeURIComponent(slot)}/claim`, {
    method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ invite }) });
  if (!r.ok) { say(`Could not take ${slot} (HTTP ${r.status})`); return; }
  if (ws) { const old = ws; ws = null; old.onclose = null; old.close(1000); }
  S.seq = null;
  connect();
}

function draw(events) {
  $('conn').textContent = S.status || '';
  $('my-seat').textContent = S.seat ? `You play ${S.seat}` : 'Spectator';
  mod.render({ view: S.view, board: S.board, legal: S.legal, seq: S.seq, status: S.status,
    seat: S.seat, seats: S.seats, events: events || [] });
}

function handle(msg) {
  switch (msg.type) {
    case 'hello':
      Object.assign(S, { seq: msg.seq, board: msg.board, view: msg.view, legal: msg.legal || [],
        seat: msg.seat, seats: msg.my_seats || [], status: msg.status });
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
      if (chat && msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
      for (const e of msg.events || []) {
        const line = mod.describe ? mod.describe(e) : e.type;
        if (line) say(line);
      }
      draw(msg.events);
      break;
    case 'sync':
      Object.assign(S, { seq: msg.seq, view: msg.view, legal: msg.legal || [], status: msg.status });
      draw([]);
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

function connect() {
  const sock = new WebSocket(wsUrl());
  ws = sock;
  sock.onopen = () => { backoff = 500; };
  sock.onmessage = (ev) => { try { handle(JSON.parse(ev.data)); } catch (_) { /* ignore */ } };
  sock.onclose = (ev) => {
    if (ws !== sock || ev.code === 4401 || ev.code === 4404) return;
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 8000);
  };
}
clear($('log'));
connect();
setInterval(() => send({ type: 'ping' }), 25000);
window.addEventListener('beforeunload', () => { if (mod.unmount) mod.unmount(); });
