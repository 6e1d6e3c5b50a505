// The hex board renderer (ruleset renderer "hex": Memoir '44, Overlord, Fast Play): the
// state and the glue between board, cards, actions, log and chat of the game page.
// Loaded by static/renderer_host.js like every renderer (mount / render / unmount), it
// also takes the whole protocol (`receive`, docs/protocol.md) over the host's one
// websocket client (static/client.js, ctx.client) and draws the page's own chrome.
import { BoardView } from '../board.js';
import { renderTutorial } from '../tutorial.js';
import { el, clear, sideName, titleCase, mergePatch, keepFocus } from '../util.js';
import { t, term, errorText } from '../i18n.js';
import { renderHand, renderPlayed, renderDice } from '../cards.js';
import { ChatPanel } from '../chat.js';
import { logEntry, eventDice, describeEvent } from '../log.js';
import { buildModel, highlightsFor, autoSelect, actionLabel, isPrimary, describePending, describePhase, ACTIONS } from '../actions.js';
import { unitTitle } from '../units.js';
import { key } from '../hex.js';
import { weatherInfo, weatherHeadline } from '../conditions.js';
import { UnitNames, displaySeqs } from '../unitnames.js';
import { BoardZoom } from '../zoom.js';
import { ClockView, sideExtras, renderRemoteBar, TurnNotifier } from '../remote.js';
import { renderFastPlay, pathStep, promptHoldsActions, usesCards, describeFastPlayPending } from '../fastplay.js';
import { fogLegend } from '../fog.js';
import { loadSeatDesk, creatorDesk, slotsOf, botSeatClaimable } from '../seatdesk.js';
import { variantBox, campaignBox } from '../variants.js';
import { handledHere, renderCommandBar, renderDesk, renderFieldGeneral, fgZones, isRoleGame, roleOf, sideOf, seatLabel, waitingText, dispatchSentence, FGS, ROLE_NAMES } from '../overlord.js';

const body = document.body;
let cfg = null;      // the page's settings (client.js pageConfig), from the host

// The hex renderer's state, owned by this module (the host's client holds none of it);
// window.__game exposes it to the tests.
const S = {
  // the server's: hello / update / sync (docs/protocol.md)
  seq: null, board: null, view: null, legal: [], status: null, seats: [], identity: null, mode: null,
  presence: null, undo: null, serverView: null,   // serverView: the last view sent (view_patch base)
  seat: null, side: null, role: null,              // the seat shown (?as=) and its side / role
  mySeats: [], views: null, allLegal: [],          // several seats over one connection
  panels: [],   // the optional panels the ruleset declares (hello `panels`: Ruleset.panels)
  // the page's: selection and gestures
  selected: null, chooser: null, model: buildModel([]), highlights: [], phaseKey: null, fpPath: null,
  flipOverride: null, pendingSend: null, probes: new Map(), fogRange: false, autoFocused: null,
  // log and history: logSeq the last seq whose events are logged, lastDice the latest roll
  logSeq: null, lastDice: null, playedHistory: [], historyLoaded: false, lastChatChannel: null,
  match: undefined,   // the return match (fetched once the game is over)
  creator: undefined, // this identity created the open game (its seat desk; fetched once)
  // Overlord / team play
  desk: { selected: null, explain: null }, initiativeRolls: {}, dispatchSummary: null, hoverHalf: null,
};
// a panel is shown because the game's ruleset declares it, never by guessing from the view
function panel(name) { return S.panels.includes(name); }
// several seats over this one connection (the server sends `views` and the union of `legal`)
function multi() { return S.mySeats.length > 1 && !!S.views; }
function legalOf(seat) { return S.allLegal.filter((a) => !a.seat || a.seat === seat); }
// take a hello/update/sync payload: every held seat's view, the focused one rendered
function applyPayload(msg, events) {
  // an update may carry only the change to the last view the server sent (`view_patch`)
  if (msg.view_patch !== undefined && msg.view === undefined) msg.view = mergePatch(S.serverView, msg.view_patch);
  S.serverView = msg.view;
  S.views = msg.views || null;
  S.allLegal = msg.legal || [];
  if (multi() && !S.views[S.seat]) S.seat = S.mySeats[0];
  if (multi()) autoFocus();
  S.side = S.seat ? sideOf(S.seat) : null;
  S.role = S.seat ? roleOf(S.seat) : null;
  const view = (multi() && S.views[S.seat]) || msg.view;
  setView(view, multi() ? legalOf(S.seat) : S.allLegal, events);
}
// the focused seat has nothing to do but another held seat has: show that one
function autoFocus() {
  if (S.status === 'open' || legalOf(S.seat).length) return;
  const next = S.mySeats.find((s) => legalOf(s).length);
  if (next && next !== S.seat) { S.seat = next; S.autoFocused = next; S.desk = { selected: null, explain: null }; rememberFocus(next); }
}
// ?as=<seat>: the seat shown after a reload
function rememberFocus(seat) {
  const u = new URL(location.href);
  if (u.searchParams.get('as') === seat) return;
  u.searchParams.set('as', seat);
  history.replaceState(null, '', u.toString());
}
const $ = (id) => document.getElementById(id);
let zoom = null;
let boardView = null;
let chat = null;
let conn = null;     // the host's websocket client (static/client.js GameClient)

// Renderer interface (docs/architecture.md "Client renderers"): the board is drawn into
// `elem`, the panels into the game page's elements; ctx.client is the host's connection.
export function mount(elem, ctx) {
  cfg = ctx.cfg;
  conn = ctx.client;
  zoom = new BoardZoom(elem);
  boardView = new BoardView(zoom.container, { onHexClick });
  chat = new ChatPanel($('chat'), (channel, text) => {
    S.lastChatChannel = channel;
    conn.send({ type: 'chat', channel, text });
  });
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
  window.__game = S;   // for debugging and tests
  window.__client = { setView: (v, l) => setView(v, l) };   // tests: render a given view
  // the clocks tick between server messages
  setInterval(() => { if (clockView.clock && (clockView.clock.running || []).length) renderSides(); }, 1000);
  $('flip-btn').addEventListener('click', () => {
    S.flipOverride = !boardView.flipped;
    boardView.setFlipped(S.flipOverride);
    renderBoardHighlights();
    renderSides();        // "top" / "bottom" as the board is drawn now
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') { S.chooser = null; if (!autoSelect(S.model)) S.selected = null; renderAll(); }
  });
}
// a state given from outside (tests, previews): drawn like the server's
export function render(s) { setView(s.view, s.legal); }
export function unmount() { stopAmbushTimer(); }
// the whole protocol: every message of the host's connection, and the seq to resume from
export function receive(msg) { handle(msg); }
export function since() { return S.seq; }

function unitById(id) { return ((S.view && S.view.units) || []).find((u) => u.id === id); }
// names in the log and dice caption: where the unit stood when the event happened
const names = new UnitNames(unitById);
function unitName(id) { return names.name(id); }
const clockView = new ClockView();
const notifier = new TurnNotifier();
// log line + dice caption of an event, named before the event moves its unit
function logEvent(e, seq) {
  const node = logEntry(e, unitName, seq);
  const d = eventDice(e);
  if (d) S.lastDice = { dice: d, caption: describeEvent(e, unitName) };
  names.apply(e);
  return node;
}
function setWhoami(name) {
  const w = $('whoami');
  if (!w || !name) return;
  clear(w).append(t('Playing as'), ' ', el('b', {}, name));
}

// ---------------------------------------------------------------- protocol
function handle(msg) {
  switch (msg.type) {
    case 'hello': {
      if (msg.scenario_name) document.querySelectorAll('.scenario-title b').forEach((b) => { b.textContent = msg.scenario_name; });
      const dice = msg.fair_dice || {};     // the server's seed commitment, public from the start
      document.querySelectorAll('.scenario-title').forEach((t) => {
        t.title = dice.commitment ? `dice commitment SHA-256(seed || salt) = ${dice.commitment}` : 'no dice commitment (test seed or an older game)';
        t.dataset.commitment = dice.commitment || '';
      });
      S.panels = msg.panels || [];
      S.mySeats = msg.my_seats || (msg.seat ? [msg.seat] : []);
      S.seat = S.mySeats.includes(S.seat) ? S.seat : (S.mySeats.includes(cfg.focus) ? cfg.focus : (msg.seat ?? null));
      S.side = S.seat ? sideOf(S.seat) : (msg.side ?? null); S.role = msg.role ?? null;
      S.identity = msg.identity || null; S.status = msg.status; S.seats = msg.seats || []; S.mode = msg.mode;
      if (S.identity) setWhoami(S.identity.name);
      S.presence = msg.presence || S.presence || null; S.undo = msg.undo ?? null; clockView.set(msg.clock);
      if (!names.seeded && msg.seq === 0) names.seed(msg.view.units);
      names.learn(msg.view.units);
      const first = !S.board;
      S.board = msg.board;
      const flip = S.flipOverride ?? (!!S.side && msg.board.player1_side === S.side);
      if (first || boardView.flipped !== flip || boardView.board !== msg.board) boardView.setBoard(msg.board, { flipped: flip });
      $('game').classList.toggle('wide-board', msg.board.max_col > 30);   // Overlord: board on the full width
      if (first) zoom.fitFor(msg.board);
      S.seq = msg.seq;
      // logSeq: the last seq whose events are in the log. On a reconnect it stays at
      // the old value so that the catch-up update (first_seq = since + 1) is logged.
      if (first || S.logSeq === null || S.logSeq === undefined) { clear($('log')); S.logSeq = msg.seq; loadHistory(msg.seq); }
      applyPayload(msg);
      chat.setChannels(msg.chat_channels || {}, chatContext());
      chat.setHistory(msg.chat || []);
      renderSeats();
      break;
    }
    case 'update': {
      const last = S.logSeq ?? S.seq;
      if (last === null || msg.seq > last) {
        if (last !== null && msg.first_seq !== undefined && msg.first_seq - 1 > last) {
          addLog({ type: 'note', text: '(some events were missed while disconnected)' });
        }
        names.learn(S.view && S.view.units);
        for (const e of msg.events || []) {
          addLog(e, msg.first_seq ?? null);
          noteOverlordEvent(e);
          if ((e.type === 'card_played' || e.type === 'card_copied') && e.card) {
            S.playedHistory.push({ seat: e.seat || e.side, card: e.card, copied: e.type === 'card_copied' });
          }
        }
        S.logSeq = msg.seq;
      }
      if (S.seq === null || msg.seq >= S.seq) {
        S.seq = msg.seq;
        if ('undo' in msg) S.undo = msg.undo;
        if ('clock' in msg) clockView.set(msg.clock);
        if (msg.status) S.status = msg.status;
        if (msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
        applyPayload(msg, msg.events);
      }
      break;
    }
    case 'sync':
      S.seq = msg.seq; S.logSeq = msg.seq; if (msg.status) S.status = msg.status; if (msg.seats) S.seats = msg.seats;
      if ('undo' in msg) S.undo = msg.undo;
      if ('clock' in msg) clockView.set(msg.clock);
      if (msg.chat_channels) chat.setChannels(msg.chat_channels, chatContext());
      applyPayload(msg);
      renderSeats();
      break;
    case 'ack':
      S.pendingSend = null;
      renderActions();
      break;
    case 'reject':
      if (S.probes.has(msg.id)) {
        // a dispatch the engine did not offer, sent to hear why: show its reason at the desk
        S.desk.explain = { what: S.probes.get(msg.id), text: errorText(msg), code: msg.code };
        S.probes.delete(msg.id);
        renderAll();
        break;
      }
      S.pendingSend = null;
      if (msg.code === 'engine_failure') toast(t('The server could not apply this action (a bug, please report it): {error}', { error: msg.message || '' }));
      else if (msg.code !== 'stale_seq') toast(errorText(msg));
      renderActions();
      break;
    case 'chat':
      chat.push(msg);
      break;
    case 'presence':
      S.presence = msg;
      renderSides(); renderRemote();
      break;
    case 'seats':
      S.seats = msg.seats || S.seats; if (msg.status) S.status = msg.status;
      renderSeats();
      if (S.view) setView(S.view, S.legal);
      break;
    case 'error':
      if (msg.code === 'chat_forbidden') chat.markClosed(S.lastChatChannel, (msg.details && msg.details.reason) || msg.message);
      else toast(errorText(msg));
      break;
    default: break;
  }
}

// ---------------------------------------------------------------- late joiners
// The battle log so far (redacted for this identity's seats), put before the live entries.
async function loadHistory(upTo) {
  if (!upTo) return;
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
  const log = $('log');
  const frag = document.createDocumentFragment();
  let n = 0;
  const liveDice = S.lastDice;
  if (units) names.seed(units);
  const shown = displaySeqs(all);
  for (const [i, entry] of all.entries()) {
    if (entry.seq > upTo) break;
    for (const e of entry.events || []) {
      frag.append(logEvent(e, shown[i])); n++;
      if ((e.type === 'card_played' || e.type === 'card_copied') && e.card) S.playedHistory.push({ seat: e.seat || e.side, card: e.card, copied: e.type === 'card_copied' });
      if (e.type === 'orders_dispatched' || e.type === 'turn_started' || e.type === 'initiative_rolled') noteOverlordEvent(e);
    }
  }
  if (!n) return;
  if (liveDice && liveDice !== S.lastDice && S.logSeq > upTo) S.lastDice = liveDice;   // newer live dice
  if (S.lastDice) showDice(S.lastDice.dice, S.lastDice.caption);
  frag.append(logEntry({ type: 'note', text: '— live —' }, unitName, null));
  log.prepend(frag);
  S.historyLoaded = true;
  while (log.childNodes.length > 500) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
  renderAll();
}

// ---------------------------------------------------------------- state -> UI
function setView(view, legal, events) {
  S.view = view;
  S.legal = legal || [];
  // until every seat is held the server refuses actions: show nothing as playable
  S.model = buildModel(S.status === 'open' ? [] : S.legal.filter((a) => !handledHere(a, S.legal)), view);
  S.chooser = null;
  const phaseKey = `${view.turn}/${view.phase}/${view.pending && view.pending.type}`;
  if (phaseKey !== S.phaseKey) { S.selected = null; S.phaseKey = phaseKey; S.fpPath = null; }
  if (S.selected && !S.model.units.has(S.selected)) S.selected = null;
  if (!S.selected) S.selected = autoSelect(S.model);
  boardView.setWeather(weatherInfo(view.weather));
  boardView.setView(view);
  const dice = lastDice(events);
  if (dice) showDice(dice.dice, dice.caption);
  else if (!events && S.lastDice) showDice(S.lastDice.dice, S.lastDice.caption);
  else if (!events && view.last_roll) showDice(view.last_roll.dice, rollCaption(view.last_roll));   // hello / sync
  renderAll();
}

// the caption was written when the event was logged (logEvent), with the names of then
function lastDice(events) {
  return (events || []).some((e) => eventDice(e)) ? S.lastDice : null;
}
function rollCaption(r) {
  if (!r) return '';
  return `${r.unit ? unitName(r.unit) : t('Roll')}${r.target ? ' → (' + r.target[0] + ',' + r.target[1] + ')' : ''}`;
}
function showDice(dice, caption) {
  $('roll-caption').textContent = caption || '';
  renderDice($('dice'), dice);
}

function renderAll() {
  renderStatus();
  renderRemote();
  renderSides();
  renderOverlord();
  if (S.seats.filter((x) => x.mine).length > 1 || multi()) renderSeats();   // the seat switcher marks seats to act
  renderPending();
  if (panel('fastplay')) renderFastPlay($('fp-panel'), { view: S.view, legal: S.status === 'open' ? [] : S.legal, seat: S.seat, send, unitName });
  renderBoardHighlights();
  renderActions();
  renderCards();
  // the view lists this turn's cards; the history (from events) keeps earlier turns
  const fromView = (S.view && S.view.played) || [];
  const hist = S.playedHistory.slice(-3);
  renderPlayed($('played'), hist.length ? hist : fromView);
  $('played-panel').classList.toggle('hidden', !usesCards(S.view));
  renderBanner();
  if (body.dataset.tutorial) renderTutorial($('lesson'), body.dataset.tutorial, S);
}

function myTurn() { return !!S.seat && S.status !== 'open' && (S.view.to_act || []).includes(S.seat) && S.legal.length > 0; }

function renderStatus() {
  const v = S.view;
  if (!v) return;
  $('my-seat').textContent = S.seat ? t('You play {side}', { side: panel('overlord') ? seatLabel(S.seat) : sideName(S.seat) }) : t('Spectating');
  $('my-seat').dataset.seat = S.seat || '';
  $('turn').textContent = `${t('Turn {n}', { n: v.turn ?? '-' })} · ${describePhase(v.phase)}`;
  const p = $('prompt');
  p.classList.toggle('mine', myTurn());
  let text;
  if (v.game_over) text = t('The battle is over.');
  else if (S.status === 'open') text = freeSeatsText();
  else if (myTurn()) text = t('Your move: {what}', { what: guidance() });
  else if (panel('overlord')) text = waitingText(v, S.seat);
  else if (awaitedDecision(v)) text = awaitedDecision(v);
  else {
    const who = (v.to_act || []).filter((s) => s !== 'chance').map(sideName).join(', ');
    text = who ? t('Waiting for {who}…', { who }) : t('Rolling dice…');
  }
  p.textContent = text;
  p.dataset.mine = myTurn() ? '1' : '0';
  notifier.update(myTurn(), text);
}

// The other player must decide in the middle of this one's move (an interrupt: Ambush,
// Fast Play opportunity / assault / defensive fire, battle back): what is awaited.
const INTERRUPTS = new Set(['ambush', 'opportunity_fire', 'assault_fire', 'defensive_fire', 'battle_back']);
function awaitedDecision(v) {
  const p = v.pending;
  if (!p || !INTERRUPTS.has(p.type) || !(v.to_act || []).includes(p.seat) || p.seat === S.seat) return '';
  return panel('fastplay') ? describeFastPlayPending(p, unitName) : describePending(p, unitName);
}

// "Waiting for an opponent" / "for 3 more players" (the seats still free)
function freeSeatsText() {
  const free = new Set(S.seats.filter((s) => !s.taken).map((s) => s.slot || s.seat));
  const n = free.size;
  if (!n) return t('Waiting for the game to start…');
  const players = new Set(S.seats.map((s) => s.slot || s.seat)).size;
  return players <= 2 && n === 1 ? t('Waiting for an opponent to join…') : (n === 1 ? t('Waiting for 1 more player to join…') : t('Waiting for {n} more players to join…', { n }));
}

function guidance() {
  const m = S.model;
  if (S.chooser) return t('choose one of the options below.');
  const types = new Set(S.legal.map((a) => a.type));
  if (types.has('dispatch') || types.has('confirm_dispatch')) return t('give your command cards to your generals, choose whom you visit, then confirm (the dispatch desk below).');
  if (types.has('initiative')) return t('you received no card: act on initiative or do nothing (buttons below).');
  if (S.legal.some((a) => a.type === 'play_card' && a.half !== undefined)) return t('play the card you received in one of your two sections (buttons under the card below).');
  if (m.cards.size && !m.units.size && !m.freeHex.length) {
    return (S.view.pending && S.view.pending.type === 'choose_card') ? t('choose which drawn card to keep.') : t('play a command card from your hand (highlighted cards).');
  }
  if (S.selected && m.units.has(S.selected)) {
    const e = m.units.get(S.selected);
    if (e.hex.length) return t('{unit} selected — click a highlighted hex ({actions}).', { unit: unitName(S.selected), actions: [...new Set(e.hex.map((x) => (ACTIONS[x.type] || {}).label || titleCase(x.type)))].join(' / ') });
  }
  if (m.freeHex.length) return t('click a highlighted hex.');
  if (m.units.size) {
    const types = new Set();
    m.units.forEach((e) => [...e.unitOnly, ...e.hex].forEach((x) => types.add((ACTIONS[x.type] || {}).label || titleCase(x.type))));
    return m.buttons.length ? t('click a highlighted unit ({actions}), or use a button above the board.', { actions: [...types].join(' / ') }) : t('click a highlighted unit ({actions}).', { actions: [...types].join(' / ') });
  }
  if (m.cards.size) return t('play a card.');
  return t('use a button above the board.');
}

function cardsText(n) { return n === 1 ? t('1 card') : t('{n} cards', { n }); }

function renderSides() {
  const box = clear($('sides'));
  const v = S.view;
  if (!v || !v.sides) return;
  // where the side sits on the board as drawn here (the flip button turns it around)
  const where = (side) => { const pos = v.sides[side].position; return !pos ? '' : (boardView.flipped ? (pos === 'top' ? 'bottom' : 'top') : pos); };
  const order = Object.keys(v.sides).sort((a, b) => (where(a) === 'top' ? -1 : 1) - (where(b) === 'top' ? -1 : 1));
  for (const side of order) {
    const s = v.sides[side];
    const seatsOf = S.seats.filter((x) => (x.side || x.seat) === side);
    const names = [...new Set(seatsOf.map((x) => x.taken ? `${x.name || '?'}${x.is_bot ? ` (${t('bot')})` : ''}` : t('free seat')))].join(', ');
    const dots = [];
    for (let i = 0; i < (s.victory || 0); i++) dots.push(el('span', { class: `medal-dot${i < (s.medals || 0) ? ' won' : ''}` }));
    const active = v.active === side || (v.to_act || []).some((x) => String(x).split(':')[0] === side);
    box.append(el('div', { class: `side-box ${side.toLowerCase()}${active ? ' active' : ''}`, 'data-side': side },
      el('div', {}, el('b', {}, sideName(side)), el('div', { class: 'muted' }, names || ''),
        el('div', { class: 'muted', 'data-position': where(side) }, [usesCards(v) ? (s.hand_count === null && !s.hand ? t('cards unseen') : cardsText(s.hand_count ?? (s.hand ? s.hand.length : 0))) : '', where(side)].filter(Boolean).join(' · ')),
        ...sideExtras(side, { seats: S.seats, presence: S.presence, clock: clockView })),
      el('div', { class: 'medals', title: t('{n} of {victory} medals', { n: s.medals || 0, victory: s.victory }), 'data-medals': s.medals || 0 }, ...dots, ` ${s.medals || 0}/${s.victory}`)));
  }
  if (v.visibility !== undefined && v.visibility !== null) {
    const vis = v.visibility;
    box.append(el('div', { class: 'side-box night-box', id: 'visibility', 'data-visibility': vis,
      title: 'Night rules: units may battle only targets within this many hexes; at the start of each turn of the night side, dice are rolled and every star raises the visibility' },
    el('b', {}, vis >= 6 ? t('Daylight') : t('Night: visibility {n}/6', { n: vis })), el('div', { class: 'muted' }, vis >= 6 ? t('normal ranges') : (vis === 1 ? t('targets up to 1 hex away') : t('targets up to {n} hexes away', { n: vis })))));
  }
  if (panel('variants')) for (const b of [variantBox(v), campaignBox(v)]) if (b) box.append(b);
  const weather = weatherInfo(v.weather);
  if (weather) {
    box.append(el('div', { class: 'side-box weather-box', id: 'weather', 'data-weather': weather.code,
      title: `Weather for the whole battle (optional rule): ${weather.text}` },
    el('b', {}, weatherHeadline(weather)), el('div', { class: 'muted' }, weather.visibility ? `targets up to ${weather.visibility} hex${weather.visibility > 1 ? 'es' : ''} away` : weather.text)));
  }
  const oos = ((v.units) || []).filter((u) => u.out_of_supply);
  if (oos.length) {
    box.append(el('div', { class: 'side-box', id: 'supply-box', style: 'flex:0 0 auto;border-left-color:#b5411f', 'data-count': oos.length,
      title: 'Supply lines (optional rule): units cut off from their supply base are weakened from their 2nd turn and may lose figures from the 3rd' },
    `Out of supply: ${oos.length} unit${oos.length > 1 ? 's' : ''} (✂ marker)`));
  }
  const bridges = (v.bridges || []).filter((b) => b.rigged || b.hits);
  if (bridges.length) {
    box.append(el('div', { class: 'side-box', id: 'bridges-box', style: 'flex:0 0 auto;border-left-color:#e8c547', 'data-count': bridges.length,
      title: 'Bridge demolition (optional rule): a star on a bridge marks charges placed (!) or tank hits (number; 4 destroy it)' },
    `Bridges marked: ${bridges.length} (★ marker)`));
  }
  const mines = v.mines || [];
  if (mines.length) {
    const hidden = mines.filter((m) => m.value === null || m.value === undefined).length;
    box.append(el('div', { class: 'side-box', id: 'mines-box', style: 'flex:0 0 auto;border-left-color:#b23', 'data-hidden': hidden,
      title: 'Minefields: hidden strength (?) until an enemy unit enters; a unit entering must stop' },
    `Minefields: ${mines.length} (${hidden} hidden, ${mines.length - hidden} revealed)`));
  }
  const fogBox = panel('fog') && fogLegend(v, S.fogRange, (on) => { S.fogRange = on; boardView.setFogRange(on); },
                           S.seat ? undefined : cfg.watch);
  if (fogBox) box.append(fogBox);
  if (v.deck_count === null) box.append(el('div', { class: 'side-box', style: 'flex:0 0 auto;border-left-color:#8c7a50', title: t('Kriegspiel: the deck and discard counts would tell the cards played') }, t('Deck hidden')));
  else if (v.deck_count !== undefined && usesCards(v)) box.append(el('div', { class: 'side-box', style: 'flex:0 0 auto;border-left-color:#8c7a50' }, t('Deck {n} · Discard {d}', { n: v.deck_count, d: v.discard_count ?? 0 })));
  const opts = Array.isArray(v.options) ? v.options : Object.keys(v.options || {});
  if (opts.length) {
    box.append(el('div', { class: 'side-box', id: 'options-on', style: 'flex:0 0 auto;border-left-color:#5a7fa8', 'data-options': opts.join(','),
      title: 'Optional rules switched on when the game was created (the lobby lists what each one does)' },
    el('b', {}, t('Optional rules')), el('div', { class: 'muted' }, opts.map((o) => o.replace(/_/g, ' ')).join(', '))));
  }
}

function renderPending() {
  const p = S.view && S.view.pending;
  const box = $('pending');
  if (!p || S.view.game_over || S.status === 'open') { box.classList.add('hidden'); stopAmbushTimer(); return; }
  box.classList.remove('hidden');
  if (panel('fastplay')) { box.classList.add('hidden'); return; }   // the Fast Play panel says it
  box.textContent = describePending(p, unitName);
  ambushTimer(p, box);
}

function renderBoardHighlights() {
  const m = S.model;
  const hls = highlightsFor(m, S.selected, unitName);
  if (S.fpPath && S.fpPath.unit !== S.selected) S.fpPath = null;
  (S.fpPath ? S.fpPath.hexes : []).forEach((h, i) => {   // Fast Play: the path laid so far
    const hl = hls.find((x) => key(x.hex) === key(h));
    if (hl) hl.label = `${i + 1}`;
  });
  S.highlights = hls;
  boardView.setHighlights(hls, [...m.units.keys()], S.selected);
}

// the action bar, keeping a focused button focused (keyboard play)
function renderActions() { keepFocus($('actions'), drawActions); }
function drawActions() {
  const bar = clear($('actions'));
  if (!S.view || S.view.game_over) return;
  if (S.pendingSend) bar.append(el('span', { class: 'hint' }, t('Sending…')));
  if (S.chooser) {
    bar.append(el('span', { class: 'hint' }, S.chooser.title));
    for (const info of S.chooser.options) {
      bar.append(el('button', { type: 'button', class: 'primary', 'data-action': info.type, onclick: () => send(info.action) }, actionLabel(info.action, unitName, S.view)));
    }
    bar.append(el('button', { type: 'button', onclick: () => { S.chooser = null; renderActions(); } }, t('Cancel')));
    return;
  }
  if (promptHoldsActions(S.view, S.seat)) {       // its buttons are in the prompt, once
    bar.append(el('span', { class: 'hint' }, 'Answer the prompt above.'));
    return;
  }
  const m = S.model;
  if (multi() && S.seat && S.legal.length) bar.append(el('span', { class: 'seat-tag', 'data-acting-seat': S.seat, title: t('These actions are for this seat') }, t('As {seat}:', { seat: seatLabel(S.seat) })));
  if (S.selected && m.units.has(S.selected)) {
    const e = m.units.get(S.selected);
    for (const info of e.unitOnly) {
      bar.append(el('button', { type: 'button', 'data-action': info.type, onclick: () => send(info.action) }, actionLabel(info.action, unitName, S.view)));
    }
    if (!autoSelect(m)) bar.append(el('button', { type: 'button', 'data-action': 'deselect', onclick: () => { S.selected = null; renderAll(); } }, t('Deselect')));
    fpPathButtons(bar);
  }
  for (const info of m.buttons) {
    bar.append(el('button', {
      type: 'button', class: isPrimary(info.action) ? 'primary' : '', 'data-action': info.type,
      onclick: () => send(info.action),
    }, actionLabel(info.action, unitName, S.view)));
  }
  if (multi()) {
    const others = S.mySeats.filter((s) => s !== S.seat && legalOf(s).length);
    for (const s of others) bar.append(el('button', { type: 'button', 'data-switch-to': s, onclick: () => switchSeat(s) }, `${seatLabel(s)} has ${legalOf(s).length} action${legalOf(s).length > 1 ? 's' : ''} → switch`));
  }
  if (!bar.childNodes.length && S.seat) bar.append(el('span', { class: 'hint' }, myTurn() ? '' : t('Not your turn.')));
}

function myHand() {
  const sides = (S.view && S.view.sides) || {};
  for (const [side, s] of Object.entries(sides)) if (Array.isArray(s.hand)) return { side, hand: s.hand };
  return null;
}

function renderCards() {
  const panel = $('hand-panel');
  const h = myHand();
  const deskOpen = !$('ol-desk').classList.contains('hidden');
  if (!S.seat || !h || deskOpen) { panel.classList.add('hidden'); return; }
  panel.classList.remove('hidden');
  const pick = (card, infos) => {
    if (infos.length === 1) send(infos[0].action);
    else { S.chooser = { title: `${term(card.name)}:`, options: infos }; renderActions(); }
  };
  keepFocus($('hand'), () => renderHand($('hand'), h.hand, S.model.cards, pick));
  // card actions naming cards that are not in the hand (e.g. Recon: keep one of the drawn cards)
  const inHand = new Set(h.hand.map((c) => String(c.id)));
  const p = S.view.pending || {};
  const pool = [...(p.cards || []), ...(Array.isArray(p.options) ? p.options.filter((o) => o && o.id !== undefined && o.name) : [])];
  const extra = [...S.model.cards.keys()].filter((id) => !inHand.has(id));
  const cp = $('choice-panel');
  if (extra.length) {
    cp.classList.remove('hidden');
    $('choice-title').textContent = p.type === 'choose_card' ? t('Drawn cards — choose the one to keep') : t('Choose a card');
    const cards = extra.map((id) => pool.find((c) => String(c.id) === id) || { id, name: t('card {id}', { id }), kind: 'card' });
    keepFocus($('choice'), () => renderHand($('choice'), cards, S.model.cards, pick));
  } else cp.classList.add('hidden');
}

function renderBanner() {
  const b = $('banner');
  const v = S.view;
  if (!v || !v.game_over) { b.classList.add('hidden'); return; }
  b.classList.remove('hidden');
  const w = v.winner;
  let text = w ? t('{side} win the battle!', { side: sideName(w) }) : t('The battle is over: a draw.');
  if (S.side && w) text += ' — ' + (S.side === w ? t('Victory is yours.') : t('You have been defeated.'));
  b.textContent = text;
  b.dataset.winner = w || '';
  // provably fair dice: the seed is revealed once the battle is over
  b.append(' ', el('a', { href: `/games/${cfg.gameId}/verify`, 'data-verify': '1' }, t('Verify dice')));
}

function renderSeats() { keepFocus($('seat-bar'), drawSeats); }
function drawSeats() {
  const bar = clear($('seat-bar'));
  const free = S.seats.filter((s) => !s.taken);
  const mine = S.seats.filter((s) => s.mine);
  const parts = [];
  // a person takes a free slot, or a bot's (before the start; in team modes after it too)
  const takeable = S.seat ? [] : slotsOf(S.seats).filter((s) => !s.taken || botSeatClaimable(s, S.status, S.mode));
  if (takeable.length && S.status !== 'finished') {
    if (!S.identity && !body.dataset.identity) {
      const input = el('input', { placeholder: t('Your name'), 'aria-label': t('Your name'), maxlength: 40, id: 'seat-name' });
      parts.push(el('span', {}, t('Enter a name to take a seat:')), input);
    }
    parts.push(el('span', {}, t('Seats you may take:')));
    for (const s of takeable) {
      parts.push(el('button', { type: 'button', class: 'primary', 'data-claim': s.seats[0], 'data-from-bot': s.is_bot ? '1' : null, onclick: () => claim(s.seats[0]) },
        `${t('Play {side}', { side: panel('overlord') ? seatLabel(s.seats[0]) : sideName(s.seats[0]) })}${s.is_bot ? ` (${t('in place of the bot')})` : ''}`));
    }
  }
  if (S.status === 'open' && S.creator === undefined && S.identity) {
    S.creator = null;                    // asked once: the creator's desk below
    loadSeatDesk(cfg.api, cfg.gameId).then((mineToo) => { S.creator = mineToo; renderSeats(); });
  }
  const desk = creatorDesk({ seats: S.seats, status: S.status, isCreator: !!S.creator, apiBase: cfg.api, gameId: cfg.gameId,
    label: slotLabel, onError: toast });
  if (desk) parts.push(desk);
  if (S.seat && free.length) {
    const link = `${location.origin}/games/${cfg.gameId}${cfg.invite ? '?invite=' + encodeURIComponent(cfg.invite) : ''}`;
    parts.push(el('span', {}, `${freeSeatsText()} ${t('Invite link:')} `), el('input', { readonly: true, value: link, size: 50, id: 'invite-link', 'aria-label': t('Invite link:'), onclick: (ev) => ev.target.select() }));
  }
  if (!S.seat && mine.length) parts.push(el('span', { class: 'muted' }, t('You hold {seats}.', { seats: mine.map((x) => sideName(x.seat)).join(', ') })));
  if (S.seat && mine.length > 1) {
    // one identity, several role seats: a connection plays one seat (?seat=), switch here
    // multi-seat connection: switched locally; pinned (?seat=): reconnect to another seat
    const toAct = (S.view && S.view.to_act) || [];
    parts.push(el('span', {}, multi() ? t('You hold these seats (click to act for one):') : t('Your seats:')));
    for (const s of mine) {
      const n = multi() ? legalOf(s.seat).length : 0;
      const acting = multi() ? n > 0 : toAct.includes(s.seat);
      parts.push(el('button', {
        type: 'button', class: `seat-switch${s.seat === S.seat ? ' current' : ''}${acting ? ' acting' : ''}`, 'data-switch': s.seat,
        'aria-pressed': s.seat === S.seat ? 'true' : 'false', disabled: s.seat === S.seat && !multi() ? true : null,
        title: acting ? `${t('This seat has something to do now')}${n ? ` (${(n === 1 ? t('1 possible action') : t('{n} possible actions', { n }))})` : ''}` : t('Nothing to do for this seat now'), onclick: () => switchSeat(s.seat),
      }, `${seatLabel(s.seat)}${acting ? ' ●' : ''}`));
    }
    if (S.autoFocused && S.autoFocused === S.seat) parts.push(el('span', { class: 'muted', 'data-auto-focus': S.seat }, t('(now showing {seat}: it has something to do)', { seat: seatLabel(S.seat) })));
  }
  if (parts.length) { bar.classList.remove('hidden'); bar.append(...parts); } else bar.classList.add('hidden');
}

// "ALLIES:cinc+centre" -> "Allies C-in-C + Centre FG"; a bare side -> its name
function slotLabel(slot) {
  const [side, roles] = slot.split(':');
  return roles ? `${sideName(side)} ${roles.split('+').map((r) => ROLE_NAMES[r] || titleCase(r)).join(' + ')}` : sideName(side);
}

function switchSeat(seat) {
  if (multi() && S.mySeats.includes(seat)) {
    S.autoFocused = null;
    rememberFocus(seat);
    if (seat === S.seat) { renderSeats(); return; }
    S.seat = seat; S.side = sideOf(seat); S.role = roleOf(seat);
    S.desk = { selected: null, explain: null }; S.phaseKey = null;
    chat.setChannels(chat.lastChannels || {}, chatContext());
    setView(S.views[seat], legalOf(seat));
    return;
  }
  cfg.seat = seat;
  const u = new URL(location.href);
  u.searchParams.set('seat', seat);
  history.replaceState(null, '', u.toString());
  S.board = null; S.seq = null; S.logSeq = null; S.playedHistory = [];
  S.desk = { selected: null, explain: null };
  conn.reconnect();
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
function renderRemote() {
  if (S.view && S.view.game_over && S.match === undefined) {
    S.match = null;
    api(`/games/${cfg.gameId}/match`).then((m) => { S.match = m; renderRemote(); }).catch(() => {});
    if (S.seat && S.mode === '1v1') api(`/games/${cfg.gameId}/rematch`).then(showOffer).catch(() => {});
  }
  renderRemoteBar($('remote-bar'), { S, presence: S.presence, send: (m) => conn.send(m), gameId: cfg.gameId, match: S.match, rematch });
  const bar = $('remote-bar');
  if (S.seat && !bar.querySelector('#notify-toggle')) { bar.append(notifier.toggle()); bar.classList.remove('hidden'); }
}
// the return match is an offer (docs/protocol.md "Offers"): "offer" and "accept" are
// both POST /rematch (the opponent's call accepts); the offerer's page follows the offer
// until it is answered and then opens the new game
let rematchPoll = null;
function showOffer(o) {
  S.rematchOffer = o;
  renderRemote();
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

// An ambush window (a close assault on a defender who may hold an Ambush card) is a short
// timed prompt for EVERY defender, with or without the card: it passes by itself when
// the time is up, so the wait tells the attacker nothing about the defender's hand.
const AMBUSH_SECONDS = 6;
let ambush = null;
function stopAmbushTimer() { if (ambush) { clearInterval(ambush.timer); ambush = null; } }
// The Ambush window of every close assault: both players see its countdown; the
// defender's page passes for him at 0 (the attacker's only counts: it decides nothing).
function ambushTimer(p, box) {
  if (p.type !== 'ambush') { stopAmbushTimer(); return; }
  const k = `${S.seq}`;
  if (!ambush || ambush.key !== k) {
    stopAmbushTimer();
    ambush = { key: k, until: Date.now() + AMBUSH_SECONDS * 1000, timer: setInterval(() => {
      if (!ambush) return;
      if (Date.now() >= ambush.until) {
        stopAmbushTimer();
        if (!S.legal.some((x) => x.type === 'pass')) return;
        const p2 = S.view && S.view.pending;
        const a = p2 && p2.type === 'ambush' && S.legal.find((x) => x.type === 'pass');
        if (a && !S.pendingSend) send(a);
        return;
      }
      renderAmbushCountdown();
    }, 250) };
  }
  renderAmbushCountdown(box);
}
function renderAmbushCountdown(box = $('pending')) {
  if (!ambush) return;
  let c = box.querySelector('#ambush-countdown');
  if (!c) { c = el('span', { id: 'ambush-countdown', class: 'countdown' }); box.append(' ', c); }
  const left = Math.max(0, Math.ceil((ambush.until - Date.now()) / 1000));
  const deciding = S.legal.some((x) => x.type === 'pass');
  c.textContent = deciding ? t('(no ambush in {n} s)', { n: left }) : t('(the defender has {n} s to decide)', { n: left });
}

// ---------------------------------------------------------------- Overlord / team play
function noteOverlordEvent(e) {
  if (e.type === 'initiative_rolled') S.initiativeRolls[e.seat] = e;
  else if (e.type === 'orders_dispatched') S.dispatchSummary = dispatchSentence(e);
  else if (e.type === 'turn_started') { S.initiativeRolls = {}; S.desk = { selected: null, explain: null }; }
}

function chatContext() {
  return { seat: S.seat, side: S.side, role: S.role };
}

function renderOverlord() {
  if (!panel('overlord')) {
    for (const id of ['ol-bar', 'ol-desk', 'ol-fg']) $(id).classList.add('hidden');
    boardView.setZones([]);
    return;
  }
  const v = S.view;
  const role = S.role || roleOf(S.seat);
  renderCommandBar($('ol-bar'), { view: v, seats: S.seats, seat: S.seat, initiativeRolls: S.initiativeRolls,
    dispatchSummary: panel('overlord') && isRoleGame(v) && v.overlord.step === 'fg' ? S.dispatchSummary : null });
  const open = S.status !== 'open';
  renderDesk($('ol-desk'), {
    view: v, legal: open && role === 'cinc' ? S.legal : [], side: S.side, seats: S.seats, desk: S.desk,
    send, probe, rerender: renderAll,
  });
  renderFieldGeneral($('ol-fg'), {
    view: v, legal: open ? S.legal : [], seat: S.seat, role, send, initiativeRolls: S.initiativeRolls,
    hoverHalf: (h) => { S.hoverHalf = h; renderZones(); },
  });
  renderZones();
}

function renderZones() {
  const v = S.view;
  const role = S.role || roleOf(S.seat);
  if (!panel('overlord') || !isRoleGame(v) || !FGS.includes(role)) { boardView.setZones([]); return; }
  const zones = fgZones(S.board, v, S.side, role).map((z) => ({ ...z, hot: S.hoverHalf === z.half }));
  boardView.setZones(zones);
}

// Send an action the engine did not offer, to show its refusal (nothing changes).
function probe(action, what) {
  if (S.seq === null) return;
  const id = conn.send({ type: 'action', seq: S.seq, action: { seat: S.seat, ...action } });
  if (id) S.probes.set(id, what);
}

// ---------------------------------------------------------------- gestures
function send(action) {
  if (S.seq === null) return;
  S.chooser = null;
  const id = conn.send({ type: 'action', seq: S.seq, action });
  if (id) S.pendingSend = id;
  renderActions();
}

// Fast Play 4.2: the move's path, clicked hex by hex (fastplay.js pathStep); false when
// the click is no move of the selected unit
function fpPathClick(hl, hex) {
  const a = hl.actions.length === 1 && hl.actions[0].type === 'move' ? hl.actions[0].action : null;
  if (!panel('fastplay') || !a) return false;
  const u = (S.view.units || []).find((x) => x.id === a.unit);
  if (!u || !u.hex) return false;
  const path = S.fpPath && S.fpPath.unit === a.unit ? S.fpPath.hexes : [];
  const r = pathStep(path, u.hex, hex);
  if (r.send) { fpSendPath(); return true; }
  if (r.direct) { S.fpPath = null; send(a); return true; }
  S.fpPath = { unit: a.unit, hexes: r.path };
  renderAll();
  return true;
}

function fpSendPath() {
  const p = S.fpPath;
  S.fpPath = null;
  if (!p || !p.hexes.length) return;
  const to = p.hexes[p.hexes.length - 1];
  const a = S.legal.find((x) => x.type === 'move' && x.unit === p.unit && key(x.to) === key(to));
  if (a) send({ ...a, path: p.hexes.map((h) => [h[0], h[1]]) });
}

function fpPathButtons(bar) {
  const p = S.fpPath;
  if (!p || !p.hexes.length || S.selected !== p.unit) return;
  const to = p.hexes[p.hexes.length - 1];
  bar.append(el('button', { type: 'button', class: 'primary', 'data-action': 'move-path', onclick: fpSendPath }, `Move along the path to (${to[0]},${to[1]})`));
  bar.append(el('button', { type: 'button', 'data-action': 'clear-path', onclick: () => { S.fpPath = null; renderAll(); } }, 'Clear path'));
}

function onHexClick(hex, unit) {
  if (!S.view || !S.seat) return;
  const k = key(hex);
  const hl = (S.highlights || []).find((h) => key(h.hex) === k);
  if (hl && fpPathClick(hl, hex)) return;
  if (hl) {
    // a unit that is itself selectable and stands on a target hex: prefer the target
    if (hl.actions.length === 1) { send(hl.actions[0].action); return; }
    S.chooser = { title: t('Hex ({row},{col}):', { row: hex[0], col: hex[1] }), options: hl.actions };
    renderActions(); renderStatus();
    return;
  }
  if (unit && S.model.units.has(unit.id)) {
    const e = S.model.units.get(unit.id);
    if (!e.hex.length && e.unitOnly.length === 1) { send(e.unitOnly[0].action); return; }
    if (S.selected === unit.id && e.hex.length) return;   // stays selected (Deselect button / empty hex to drop it)
    S.selected = S.selected === unit.id ? null : unit.id;
    renderAll();
    return;
  }
  if (S.selected && !autoSelect(S.model)) { S.selected = null; renderAll(); }
}

// ---------------------------------------------------------------- log, toast
function addLog(e, seq) {
  const log = $('log');
  log.append(logEvent(e, seq));
  while (log.childNodes.length > 300) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}

let toastTimer = null;
function toast(text) {
  let t = document.querySelector('.toast');
  if (!t) { t = el('div', { class: 'toast', role: 'alert' }); document.body.append(t); }
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}
export { toast as notice };   // the host's notices (e.g. "not connected") as a toast
