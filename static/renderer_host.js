// The game page of every ruleset (templates/game.html). The host owns the session and the
// page's shared parts, the same for every renderer: the one websocket client
// (static/client.js: reconnect with jitter, `since`, `invite`, `watch`), the session state
// (seq, view, legal, seats, the seat shown), the connection line, the seat bar, each
// side's presence and clock, the remote bar, the log, the chat and the notices. The
// ruleset's module static/renderers/<renderer>.js draws the game from what it is given.
//
// Renderer module interface (docs/architecture.md "Client renderers"), one shape for all:
//   export function mount(el, ctx)   once: el = the board container (#board); ctx = {
//       cfg,                  the page's settings (client.js pageConfig)
//       sendAction(action),   submit an engine action at the seq held; returns the
//                             message id (null: not connected)
//       notice(text),         a short notice to the user
//       sideStatus(side) }    the host's element for a side's presence and clock, kept up
//                             to date: a renderer that draws side boxes puts it in them
//                             (else the host shows it in its own row, #host-sides)
//   export function render(s)        after every change: s = {
//       view, legal,          the seat shown: its view and legal actions
//       board, seq, status, mode,
//       panels,               the optional panels the ruleset declares for the game's mode
//                             (Ruleset.panels_for)
//       seat, side, role,     the seat shown (null: spectator), its side and role
//       mySeats, seats,       this connection's seats; every seat and who holds it
//       events,               the new events of an update ([] otherwise)
//       pending }             the id of an action sent and not yet answered (or null)
//   export function unmount()                    optional: the page is going away
//   export function describe(event, seq, past)   optional: the log entry of an event (text
//       or element; '' none; without it: the event's type), asked once per event: live
//       ones as they come, a late joiner's history (`past`) once it has loaded
//   export function history(units, upTo)         optional: that history (its events up to
//       seq `upTo`) is about to be described; units: the game's first units
//   export function sideLabel(seat, view)        optional: a side's or seat's proper name
//   export function refused(msg)                 optional: a `reject` of an action; true
//       when the renderer has shown it itself
import { el, clear, mergePatch, sideName, keepFocus } from './util.js';
import { t, term, errorText } from './i18n.js';
import { ChatPanel } from './chat.js';
import { ClockView, sideExtras, renderRemoteBar, TurnNotifier } from './remote.js';
import { loadSeatDesk, creatorDesk, seatBar } from './seatdesk.js';
import { GameClient, pageConfig, connText } from './client.js';
import { displaySeqs } from './unitnames.js';

const body = document.body;
const cfg = pageConfig(body);
const $ = (id) => document.getElementById(id);

// The session: the server's state (hello / update / sync, docs/protocol.md) and the page's.
const S = {
  seq: null, board: null, view: null, legal: [], status: null, seats: [], mode: null, panels: [], standIn: false,
  identity: null, presence: null, undo: null, serverView: null,   // serverView: the view_patch base
  seat: null, side: null, role: null,                                // the seat shown (?as=)
  mySeats: [], views: null, allLegal: [],                            // several seats over one connection
  pendingSend: null, logSeq: null, historyLoaded: false, autoFocused: null,
  match: undefined, creator: undefined, rematchOffer: null, lastChatChannel: null,
};
window.__game = S;   // tests
const clockView = new ClockView();
const notifier = new TurnNotifier();
const sideOf = (seat) => (seat ? String(seat).split(':')[0] : null);
const roleOf = (seat) => (seat ? String(seat).split(':')[1] || null : null);
// the status in words (never the raw `open` / `live`)
const STATUS_TEXT = { open: t('Waiting for players'), live: t('In play'), finished: t('Game over'), unplayable: t('This game can no longer be played.') };

const mod = await import(`/static/renderers/${encodeURIComponent(cfg.renderer)}.js`);
const conn = new GameClient(cfg, {
  since: () => S.seq,
  onMessage: handle,
  onState: (ok, code) => {
    const c = $('conn');
    c.classList.toggle('ok', ok);
    c.dataset.state = ok ? 'ok' : 'down';
    c.textContent = ok && S.status ? statusText() : connText(ok, code);
  },
  notConnected: () => toast(t('Not connected — retrying…')),
});
window.__conn = conn;   // tests: force a reconnect

// a side's or seat's proper name: the renderer's ("the Allies"), else from the seat
function label(seat) {
  return (mod.sideLabel && mod.sideLabel(seat, S.view)) || sideName(seat);
}

// ---------------------------------------------------------------- the renderer
function sendAction(action) {
  if (S.seq === null) return null;
  const id = conn.send({ type: 'action', seq: S.seq, action });
  if (id) { S.pendingSend = id; draw([]); }
  return id;
}
// each side's presence and clock, in one element per side that the renderer may place
const statusEls = new Map();
function sideStatus(side) {
  if (!statusEls.has(side)) statusEls.set(side, el('div', { class: 'side-status', 'data-side-status': side }));
  const box = statusEls.get(side);
  clear(box).append(...sideExtras(side, { seats: S.seats, presence: S.presence, clock: clockView }));
  return box;
}
function refreshSides() {
  for (const side of statusEls.keys()) sideStatus(side);
  // the sides the renderer has not placed: in the host's row
  const row = $('host-sides');
  if (!row) return;
  clear(row);
  for (const side of new Set(S.seats.map((x) => x.side || sideOf(x.seat)))) {
    const box = sideStatus(side);
    if (box.isConnected) continue;
    row.append(el('div', { class: 'side-box', 'data-side': side }, el('b', {}, label(side)), box));
  }
  row.classList.toggle('hidden', !row.childNodes.length);
}
mod.mount($('board'), { cfg, sendAction, notice: toast, sideStatus });

// ---------------------------------------------------------------- several seats
// several seats over this one connection (the server sends `views` and the union of `legal`)
function multi() { return S.mySeats.length > 1 && !!S.views; }
function legalOf(seat) { return S.allLegal.filter((a) => !a.seat || a.seat === seat); }
// take a hello/update/sync payload: every held seat's view, the one shown focused
function applyPayload(msg) {
  // an update may carry only the change to the last view the server sent (`view_patch`)
  if (msg.view_patch !== undefined && msg.view === undefined) msg.view = mergePatch(S.serverView, msg.view_patch);
  S.serverView = msg.view;
  S.views = msg.views || null;
  S.allLegal = msg.legal || [];
  if (multi() && !S.views[S.seat]) S.seat = S.mySeats[0];
  if (multi()) autoFocus();
  S.side = S.seat ? sideOf(S.seat) : null;
  S.role = S.seat ? roleOf(S.seat) : null;
  S.view = (multi() && S.views[S.seat]) || msg.view;
  S.legal = multi() ? legalOf(S.seat) : S.allLegal;
}
// the seat shown has nothing to do but another held seat has: show that one
function autoFocus() {
  if (S.status === 'open' || legalOf(S.seat).length) return;
  const next = S.mySeats.find((s) => legalOf(s).length);
  if (next && next !== S.seat) { S.seat = next; S.autoFocused = next; rememberFocus(next); }
}
// ?as=<seat>: the seat shown after a reload
function rememberFocus(seat) {
  const u = new URL(location.href);
  if (u.searchParams.get('as') === seat) return;
  u.searchParams.set('as', seat);
  history.replaceState(null, '', u.toString());
}
function switchSeat(seat) {
  if (multi() && S.mySeats.includes(seat)) {
    S.autoFocused = null;
    rememberFocus(seat);
    if (seat !== S.seat) {
      S.seat = seat; S.side = sideOf(seat); S.role = roleOf(seat);
      S.view = S.views[seat]; S.legal = legalOf(seat);
      chat.setChannels(chat.lastChannels || {}, chatContext());
    }
    drawSeats();
    draw([]);
    return;
  }
  // a connection pinned to one seat (?seat=): a new connection for the other
  cfg.seat = seat;
  const u = new URL(location.href);
  u.searchParams.set('seat', seat);
  history.replaceState(null, '', u.toString());
  S.board = null; S.seq = null; S.logSeq = null;
  conn.reconnect();
}

// ---------------------------------------------------------------- protocol
function handle(msg) {
  switch (msg.type) {
    case 'hello': {
      if (msg.scenario_name) document.querySelectorAll('.scenario-title b').forEach((b) => { b.textContent = term(msg.scenario_name); });
      const dice = msg.fair_dice || {};     // the server's seed commitment, public from the start
      document.querySelectorAll('.scenario-title').forEach((x) => {
        x.title = dice.commitment ? t('dice commitment SHA-256(seed || salt) = {hash}', { hash: dice.commitment }) : t('no dice commitment (test seed or an older game)');
        x.dataset.commitment = dice.commitment || '';
      });
      S.panels = msg.panels || []; S.standIn = !!msg.bots_stand_in;
      S.mySeats = msg.my_seats || (msg.seat ? [msg.seat] : []);
      S.seat = S.mySeats.includes(S.seat) ? S.seat : (S.mySeats.includes(cfg.focus) ? cfg.focus : (msg.seat ?? null));
      S.identity = msg.identity || null; S.status = msg.status; S.seats = msg.seats || []; S.mode = msg.mode;
      if (S.identity) setWhoami(S.identity.name);
      S.presence = msg.presence || S.presence || null; S.undo = msg.undo ?? null; clockView.set(msg.clock);
      S.board = msg.board;
      S.seq = msg.seq;
      // logSeq: the last seq whose events are in the log. On a reconnect it stays at the
      // old value so that the catch-up update (first_seq = since + 1) is logged.
      if (S.logSeq === null) { clear($('log')); S.logSeq = msg.seq; S.historyLoaded = false; loadHistory(msg.seq); }
      applyPayload(msg);
      chat.setChannels(msg.chat_channels || {}, chatContext());
      chat.setHistory(msg.chat || []);
      drawSeats();
      draw([]);
      break;
    }
    case 'update': {
      const last = S.logSeq ?? S.seq;
      if (last === null || msg.seq > last) {
        if (last !== null && msg.first_seq !== undefined && msg.first_seq - 1 > last) {
          addLog(note(t('(some events were missed while disconnected)')));
        }
        for (const e of msg.events || []) addLog(entry(e, msg.first_seq ?? msg.seq, false));
        S.logSeq = msg.seq;
      }
      if (S.seq === null || msg.seq >= S.seq) {
        S.seq = msg.seq;
        if ('undo' in msg) S.undo = msg.undo;
        if ('clock' in msg) clockView.set(msg.clock);
        if (msg.status) S.status = msg.status;
        if (msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
        applyPayload(msg);
        if (multi() || S.seats.filter((x) => x.mine).length > 1) drawSeats();   // it marks the seats to act
        draw(msg.events || []);
      }
      break;
    }
    case 'sync':
      S.seq = msg.seq; S.logSeq = msg.seq; if (msg.status) S.status = msg.status; if (msg.seats) S.seats = msg.seats;
      if ('undo' in msg) S.undo = msg.undo;
      if ('clock' in msg) clockView.set(msg.clock);
      if (msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
      applyPayload(msg);
      drawSeats();
      draw([]);
      break;
    case 'ack':
      S.pendingSend = null;
      draw([]);
      break;
    case 'reject':
      S.pendingSend = null;
      if (!(mod.refused && mod.refused(msg))) {
        if (msg.code === 'engine_failure') toast(t('The server could not apply this action (a bug, please report it): {error}', { error: msg.message || '' }));
        else if (msg.code !== 'stale_seq') toast(errorText(msg));   // a `sync` follows
      }
      draw([]);
      break;
    case 'chat':
      chat.push(msg);
      break;
    case 'presence':
      S.presence = msg;
      refreshSides(); drawRemote();
      break;
    case 'seats':
      S.seats = msg.seats || S.seats; if (msg.status) S.status = msg.status;
      drawSeats();
      draw([]);
      break;
    case 'error':
      if (msg.code === 'chat_forbidden') chat.markClosed(S.lastChatChannel, (msg.details && msg.details.reason) || msg.message);
      else toast(errorText(msg));
      break;
    default: break;
  }
}

// ---------------------------------------------------------------- state -> page
function myTurn() { return !!S.seat && S.status !== 'open' && !!S.view && !S.view.game_over && S.legal.length > 0; }
function statusText() { return S.view && S.view.game_over ? t('Game over') : (STATUS_TEXT[S.status] || ''); }

function draw(events) {
  const c = $('conn');
  if (c.dataset.state === 'ok') c.textContent = statusText();
  c.dataset.status = S.status || '';
  $('my-seat').textContent = S.seat ? t('You play {side}', { side: label(S.seat) }) : t('Spectating');
  $('my-seat').dataset.seat = S.seat || '';
  notifier.update(myTurn(), '');
  drawRemote();
  if (S.view) {
    mod.render({ view: S.view, legal: S.legal, board: S.board, seq: S.seq, status: S.status, mode: S.mode,
      panels: S.panels, seat: S.seat, side: S.side, role: S.role, mySeats: S.mySeats, seats: S.seats,
      events, pending: S.pendingSend });
  }
  refreshSides();
}

function drawSeats() {
  const bar = $('seat-bar');
  if (S.status === 'open' && S.creator === undefined && S.identity) {
    S.creator = null;                    // asked once: the creator's desk
    loadSeatDesk(cfg.api, cfg.gameId).then((mine) => { S.creator = mine; drawSeats(); });
  }
  const parts = seatBar({
    seats: S.seats, seat: S.seat, status: S.status, standIn: S.standIn, label,
    named: !!(S.identity || body.dataset.identity),
    desk: creatorDesk({ seats: S.seats, status: S.status, isCreator: !!S.creator, apiBase: cfg.api, gameId: cfg.gameId, label, onError: toast }),
    inviteLink: `${location.origin}/games/${cfg.gameId}${cfg.invite ? '?invite=' + encodeURIComponent(cfg.invite) : ''}`,
    claim, switchTo: switchSeat, autoFocused: S.autoFocused, toAct: (S.view && S.view.to_act) || [],
    held: multi() ? S.mySeats.map((seat) => ({ seat, actions: legalOf(seat).length })) : null,
  });
  // drawn again on seat changes only (a name being typed stays), keeping the focus
  keepFocus(bar, () => { clear(bar).append(...parts); bar.classList.toggle('hidden', !parts.length); });
}

function setWhoami(name) {
  const w = $('whoami');
  if (!w || !name) return;
  clear(w).append(t('Playing as'), ' ', el('b', {}, name));
}

async function api(path, opts = {}) {
  const r = await fetch(`${cfg.api}${path}`, { credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, ...opts });
  let data = null;
  try { data = await r.json(); } catch (_) { /* empty */ }
  if (!r.ok) throw new Error((data && data.error && errorText(data.error)) || `HTTP ${r.status}`);
  return data;
}

async function claim(seat) {
  try {
    const nameInput = $('seat-name');
    if (nameInput) {
      const name = nameInput.value.trim();
      if (!name) { toast(t('Enter a name first')); return; }
      await api('/identity', { method: 'POST', body: JSON.stringify({ name }) });
      body.dataset.identity = name;
      setWhoami(name);
    }
    await api(`/games/${cfg.gameId}/seats/${encodeURIComponent(seat)}/claim`, { method: 'POST', body: JSON.stringify(cfg.invite ? { invite: cfg.invite } : {}) });
    cfg.seat = seat;
    S.board = null; S.seq = null; S.logSeq = null;
    conn.reconnect();
  } catch (e) { toast(e.message); }
}

// ---------------------------------------------------------------- remote play
function drawRemote() {
  if (S.view && S.view.game_over && S.match === undefined) {
    S.match = null;
    api(`/games/${cfg.gameId}/match`).then((m) => { S.match = m; drawRemote(); }).catch(() => {});
    if (S.seat && S.mode === '1v1') api(`/games/${cfg.gameId}/rematch`).then(showOffer).catch(() => {});
  }
  const bar = $('remote-bar');
  renderRemoteBar(bar, { S, presence: S.presence, send: (m) => conn.send(m), gameId: cfg.gameId, match: S.match, rematch });
  if (S.seat) { bar.append(notifier.toggle()); bar.classList.remove('hidden'); }
}
// the return match is an offer (docs/protocol.md "Offers"): "offer" and "accept" are
// both POST /rematch (the opponent's call accepts); the offerer's page follows the offer
// until it is answered and then opens the new game
let rematchPoll = null;
function showOffer(o) {
  S.rematchOffer = o;
  drawRemote();
  if (o && o.status === 'pending' && o.mine && !rematchPoll) {
    rematchPoll = setInterval(() => api(`/games/${cfg.gameId}/rematch`).then(followOffer).catch(() => {}), 2000);
  }
}
function followOffer(o) {
  if (o.status !== 'pending' && rematchPoll) { clearInterval(rematchPoll); rematchPoll = null; }
  if (o.status === 'accepted' && o.game_url && S.rematchOffer && S.rematchOffer.status === 'pending' && o.mine) { location.href = o.game_url; return; }
  showOffer(o);
}
async function rematch(verb) {
  try {
    const o = verb === 'offer' || verb === 'accept'
      ? await api(`/games/${cfg.gameId}/rematch`, { method: 'POST', body: '{}' })
      : await api(`/offers/${S.rematchOffer.id}/${verb}`, { method: 'POST', body: '{}' });
    if (o.status === 'accepted' && o.game_url) { location.href = o.game_url; return; }
    showOffer(o);
  } catch (e) { toast(e.message); }
}

// ---------------------------------------------------------------- log
// an event's entry: the renderer's (text or element), else its type
function entry(e, seq, past) {
  const d = mod.describe ? mod.describe(e, seq, past) : e.type;
  if (!d || d instanceof Node) return d || null;
  const node = el('div', { class: 'entry', 'data-type': e.type });
  if (seq !== undefined && seq !== null) node.append(el('span', { class: 'seq' }, `#${seq}`));
  node.append(String(d));
  return node;
}
function note(text) { return el('div', { class: 'entry', 'data-type': 'note' }, text); }
function addLog(node) {
  if (!node) return;
  const log = $('log');
  log.append(node);
  while (log.childNodes.length > 300) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}
// The log so far (redacted for this identity's seats), put before the live entries.
async function loadHistory(upTo) {
  if (!upTo) { S.historyLoaded = true; return; }
  // the log comes in pages (`next_since`: at most EVENTS_PAGE entries each)
  const inv = cfg.invite ? `&invite=${encodeURIComponent(cfg.invite)}` : '';
  const all = [];
  let units = null;
  let since = 0;
  while (since !== null && since !== undefined && since < upTo) {
    let data;
    try { data = await api(`/games/${cfg.gameId}/events?since=${since}${inv}`); } catch (_) { return; }
    all.push(...((data && data.entries) || []));
    if (data && data.units && !units) units = data.units;
    since = data && data.next_since;
  }
  if (mod.history) mod.history(units, upTo);
  const frag = document.createDocumentFragment();
  const shown = displaySeqs(all);
  for (const [i, en] of all.entries()) {
    if (en.seq > upTo) break;
    for (const e of en.events || []) { const node = entry(e, shown[i], true); if (node) frag.append(node); }
  }
  S.historyLoaded = true;
  if (!frag.childNodes.length) return;
  frag.append(note('— live —'));
  const log = $('log');
  log.prepend(frag);
  while (log.childNodes.length > 500) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
  draw([]);
}

// ---------------------------------------------------------------- chat, notices
// the same panel and channels for every ruleset (docs/protocol.md "Chat channels")
const chat = new ChatPanel($('chat'), (channel, text) => {
  S.lastChatChannel = channel;
  conn.send({ type: 'chat', channel, text });
});
function chatContext() { return { seat: S.seat, side: S.side, role: S.role }; }
// a nameless spectator names himself from the chat pane: a guest identity (cookie), then
// the connection is made again as that identity (an identified spectator may chat)
chat.identify = async (name) => {
  try {
    await api('/identity', { method: 'POST', body: JSON.stringify({ name }) });
    body.dataset.identity = name;
    setWhoami(name);
    conn.reconnect();
  } catch (e) { toast(e.message); }
};

let toastTimer = null;
function toast(text) {
  let box = document.querySelector('.toast');
  if (!box) { box = el('div', { class: 'toast', role: 'alert' }); document.body.append(box); }
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// tests: draw a given view and legal actions as if the server had sent them
window.__client = { setView: (view, legal) => { S.view = view; S.legal = legal || []; draw([]); } };
// the clocks tick between server messages
setInterval(() => { if (clockView.clock && (clockView.clock.running || []).length) refreshSides(); }, 1000);
clear($('log'));
conn.connect();
window.addEventListener('beforeunload', () => { if (mod.unmount) mod.unmount(); });
