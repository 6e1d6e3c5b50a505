// The hex board renderer (renderer "hex": Memoir '44, Overlord, Fast Play), loaded by
// static/renderer_host.js like every renderer (docs/architecture.md "Client renderers"):
// it draws the board, the cards, the actions, the dice and its side boxes from the state
// the host gives it (`render`), sends the player's gestures back as engine actions
// (ctx.sendAction) and tells the host's log what each event was (`describe`). The
// optional panels (Fast Play, Overlord, fog, variants) are drawn because the ruleset
// declares them for the game's mode (`s.panels`: Ruleset.panels_for). The connection, seats, log and chat are
// the host's.
import { BoardView } from '../board.js';
import { renderTutorial } from '../tutorial.js';
import { el, clear, sideName, titleCase, keepFocus } from '../util.js';
import { t, tn, term, errorText } from '../i18n.js';
import { renderHand, renderPlayed, renderDice } from '../cards.js';
import { logEntry, eventDice, describeEvent } from '../log.js';
import { buildModel, highlightsFor, autoSelect, actionLabel, isPrimary, describePending, describePhase, ACTIONS } from '../actions.js';
import { key } from '../hex.js';
import { weatherInfo, weatherHeadline } from '../conditions.js';
import { UnitNames } from '../unitnames.js';
import { BoardZoom } from '../zoom.js';
import { renderFastPlay, pathStep, promptHoldsActions, fastPlayCards, describeFastPlayPending } from '../fastplay.js';
import { fogLegend } from '../fog.js';
import { freeSeatsText } from '../seatdesk.js';
import { variantBox, campaignBox } from '../variants.js';
import { handledHere, renderCommandBar, renderDesk, renderFieldGeneral, fgZones, roleOf, seatLabel, waitingText, dispatchSentence, FGS, ROLE_NAMES } from '../overlord.js';

const body = document.body;
const $ = (id) => document.getElementById(id);

// The renderer's state (window.__hex for the tests): what the host gave last, the
// gestures in progress, and what it keeps from the events.
const R = {
  // given by the host (render): the seat shown, its view and legal actions
  view: null, legal: [], given: null, board: null, seq: null, status: null, mode: null, panels: [],
  seat: null, side: null, role: null, mySeats: [], seats: [], pending: null,
  // the board's: selection and gestures
  selected: null, chooser: null, model: buildModel([]), highlights: [], phaseKey: null, fpPath: null,
  flipOverride: null, fogRange: false, diceShown: null,
  // from the events (describe): the latest roll, the cards played
  lastDice: null, played: [],
  // Overlord / team play
  desk: { selected: null, explain: null }, initiativeRolls: {}, dispatchSummary: null, hoverHalf: null, probes: new Map(),
};
// a panel is drawn because the game's ruleset declares it, never by guessing from the view
function panel(name) { return R.panels.includes(name); }
// the Command cards: every hex ruleset but Fast Play without its optional cards
function cardsUsed() { return !panel('fastplay') || fastPlayCards(R.view); }

let ctx = null;      // the host's (mount)
let zoom = null;
let boardView = null;

export function mount(elem, context) {
  ctx = context;
  zoom = new BoardZoom(elem);
  boardView = new BoardView(zoom.container, { onHexClick });
  window.__hex = R;   // tests
  $('flip-btn').addEventListener('click', () => {
    R.flipOverride = !boardView.flipped;
    boardView.setFlipped(R.flipOverride);
    renderBoardHighlights();
    renderSides();        // "top" / "bottom" as the board is drawn now
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') { R.chooser = null; if (!autoSelect(R.model)) R.selected = null; renderAll(); }
  });
}

export function render(s) {
  if (s.seat !== R.seat) { R.desk = { selected: null, explain: null }; R.phaseKey = null; }
  // a new view, new legal actions or a game that starts: the playable things again
  const fresh = s.view !== R.view || s.legal !== R.given || s.status !== R.status;
  Object.assign(R, { board: s.board, seq: s.seq, status: s.status, mode: s.mode, panels: s.panels || [],
    seat: s.seat, side: s.side, role: s.role, mySeats: s.mySeats || [], seats: s.seats || [], pending: s.pending });
  drawBoard(s.board);
  if (!fresh) { renderAll(); return; }
  R.given = s.legal;
  if (!names.seeded && s.seq === 0) names.seed(s.view.units);
  names.learn(s.view.units);
  setView(s.view, s.legal || []);
}

export function unmount() { stopAmbushTimer(); }

// a seat's name: "Allies", "Axis Left FG"; a slot of several roles "Allies C-in-C + Centre FG"
export function sideLabel(seat) {
  const [side, roles] = String(seat || '').split(':');
  if (roles && roles.includes('+')) return `${sideName(side)} ${roles.split('+').map((r) => ROLE_NAMES[r] || titleCase(r)).join(' + ')}`;
  return seatLabel(seat);
}

// the log entry of an event, named before the event moves its unit; the dice, the cards
// played and Overlord's turn notes are kept from the events
export function describe(e, seq, past) {
  names.learn(R.view && R.view.units);
  const node = logEntry(e, unitName, seq);
  const d = eventDice(e);
  if (d && (!past || !R.lastDice || R.lastDice.seq <= seq)) R.lastDice = { dice: d, caption: describeEvent(e, unitName), seq };
  names.apply(e);
  if ((e.type === 'card_played' || e.type === 'card_copied') && e.card) R.played.push({ seq, seat: e.seat || e.side, card: e.card, copied: e.type === 'card_copied' });
  noteOverlordEvent(e);
  return node;
}
// a late joiner's history follows: its units' names from the game's first units
export function history(units, upTo) {
  if (units) names.seed(units);
  R.played = R.played.filter((p) => p.seq > upTo);
}

// a dispatch sent to hear why the engine refuses it: its reason at the desk
export function refused(msg) {
  if (!R.probes.has(msg.id)) return false;
  R.desk.explain = { what: R.probes.get(msg.id), text: errorText(msg), code: msg.code };
  R.probes.delete(msg.id);
  return true;
}

function unitById(id) { return ((R.view && R.view.units) || []).find((u) => u.id === id); }
// names in the log and dice caption: where the unit stood when the event happened
const names = new UnitNames(unitById);
function unitName(id) { return names.name(id); }

// ---------------------------------------------------------------- state -> UI
function drawBoard(board) {
  const flip = R.flipOverride ?? (!!R.side && board.player1_side === R.side);
  if (boardView.board === board && boardView.flipped === flip) return;
  const first = !boardView.board;
  boardView.setBoard(board, { flipped: flip });
  $('game').classList.toggle('wide-board', board.max_col > 30);   // Overlord: board on the full width
  if (first) zoom.fitFor(board);
}

function setView(view, legal) {
  R.view = view;
  R.legal = legal;
  // until every seat is held the server refuses actions: show nothing as playable
  R.model = buildModel(R.status === 'open' ? [] : legal.filter((a) => !handledHere(a, legal)), view);
  R.chooser = null;
  const phaseKey = `${view.turn}/${view.phase}/${view.pending && view.pending.type}`;
  if (phaseKey !== R.phaseKey) { R.selected = null; R.phaseKey = phaseKey; R.fpPath = null; }
  if (R.selected && !R.model.units.has(R.selected)) R.selected = null;
  if (!R.selected) R.selected = autoSelect(R.model);
  boardView.setWeather(weatherInfo(view.weather));
  boardView.setView(view);
  renderAll();
}

// the latest roll: the one logged (its caption written with the names of then), else the view's
function showDice() {
  const r = R.view.last_roll;
  const shown = R.lastDice || (r ? { dice: r.dice, caption: rollCaption(r) } : null);
  const k = shown && JSON.stringify([shown.dice, shown.caption]);
  if (!shown || k === R.diceShown) return;   // the caption is a live region: said once
  R.diceShown = k;
  $('roll-caption').textContent = shown.caption || '';
  renderDice($('dice'), shown.dice);
}
function rollCaption(r) {
  return `${r.unit ? unitName(r.unit) : t('Roll')}${r.target ? ' → (' + r.target[0] + ',' + r.target[1] + ')' : ''}`;
}

function renderAll() {
  if (!R.view) return;
  renderStatus();
  renderSides();
  renderOverlord();
  renderPending();
  if (panel('fastplay')) renderFastPlay($('fp-panel'), { view: R.view, legal: R.status === 'open' ? [] : R.legal, seat: R.seat, send, unitName });
  else $('fp-panel').classList.add('hidden');
  renderBoardHighlights();
  renderActions();
  renderCards();
  // the view lists this turn's cards; the history (from events) keeps earlier turns
  const hist = [...R.played].sort((a, b) => a.seq - b.seq).slice(-3);
  renderPlayed($('played'), hist.length ? hist : (R.view.played || []));
  $('played-panel').classList.toggle('hidden', !cardsUsed());
  showDice();
  renderBanner();
  if (body.dataset.tutorial) renderTutorial($('lesson'), body.dataset.tutorial, R);
}

function myTurn() { return !!R.seat && R.status !== 'open' && (R.view.to_act || []).includes(R.seat) && R.legal.length > 0; }

function renderStatus() {
  const v = R.view;
  $('turn').textContent = `${t('Turn {n}', { n: v.turn ?? '-' })} · ${describePhase(v.phase)}`;
  const p = $('prompt');
  p.classList.toggle('mine', myTurn());
  let text;
  if (v.game_over) text = t('The battle is over.');
  else if (R.status === 'open') text = freeSeatsText(R.seats);
  else if (myTurn()) text = t('Your move: {what}', { what: guidance() });
  else if (panel('overlord')) text = waitingText(v, R.seat);
  else if (awaitedDecision(v)) text = awaitedDecision(v);
  else {
    const who = [...new Set((v.to_act || []).filter((s) => s !== 'chance').map(seatLabel))].join(', ');
    text = who ? t('Waiting for {who}…', { who }) : t('Rolling dice…');
  }
  p.textContent = text;
  p.dataset.mine = myTurn() ? '1' : '0';
}

// The other player must decide in the middle of this one's move (an interrupt: Ambush,
// Fast Play opportunity / assault / defensive fire, battle back): what is awaited.
const INTERRUPTS = new Set(['ambush', 'opportunity_fire', 'assault_fire', 'defensive_fire', 'battle_back']);
function awaitedDecision(v) {
  const p = v.pending;
  if (!p || !INTERRUPTS.has(p.type) || !(v.to_act || []).includes(p.seat) || p.seat === R.seat) return '';
  return panel('fastplay') ? describeFastPlayPending(p, unitName) : describePending(p, unitName);
}

function guidance() {
  const m = R.model;
  if (R.chooser) return t('choose one of the options below.');
  const types = new Set(R.legal.map((a) => a.type));
  if (types.has('dispatch') || types.has('confirm_dispatch')) return t('give your command cards to your generals, choose whom you visit, then confirm (the dispatch desk below).');
  if (types.has('initiative')) return t('you received no card: act on initiative or do nothing (buttons below).');
  if (R.legal.some((a) => a.type === 'play_card' && a.half !== undefined)) return t('play the card you received in one of your two sections (buttons under the card below).');
  if (m.cards.size && !m.units.size && !m.freeHex.length) {
    return (R.view.pending && R.view.pending.type === 'choose_card') ? t('choose which drawn card to keep.') : t('play a command card from your hand (highlighted cards).');
  }
  if (R.selected && m.units.has(R.selected)) {
    const e = m.units.get(R.selected);
    if (e.hex.length) return t('{unit} selected — click a highlighted hex ({actions}).', { unit: unitName(R.selected), actions: [...new Set(e.hex.map((x) => (ACTIONS[x.type] || {}).label || titleCase(x.type)))].join(' / ') });
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
  const v = R.view;
  if (!v || !v.sides) return;
  // where the side sits on the board as drawn here (the flip button turns it around)
  const where = (side) => { const pos = v.sides[side].position; return !pos ? '' : (boardView.flipped ? (pos === 'top' ? 'bottom' : 'top') : pos); };
  const order = Object.keys(v.sides).sort((a, b) => (where(a) === 'top' ? -1 : 1) - (where(b) === 'top' ? -1 : 1));
  for (const side of order) {
    const s = v.sides[side];
    const seatsOf = R.seats.filter((x) => (x.side || x.seat) === side);
    const names = [...new Set(seatsOf.map((x) => x.taken ? `${x.name || '?'}${x.is_bot ? ` (${t('bot')})` : ''}` : t('free seat')))].join(', ');
    const dots = [];
    for (let i = 0; i < (s.victory || 0); i++) dots.push(el('span', { class: `medal-dot${i < (s.medals || 0) ? ' won' : ''}` }));
    const active = v.active === side || (v.to_act || []).some((x) => String(x).split(':')[0] === side);
    box.append(el('div', { class: `side-box ${side.toLowerCase()}${active ? ' active' : ''}`, 'data-side': side },
      el('div', {}, el('b', {}, sideName(side)), el('div', { class: 'muted' }, names || ''),
        el('div', { class: 'muted', 'data-position': where(side) }, [cardsUsed() ? (s.hand_count === null && !s.hand ? t('cards unseen') : cardsText(s.hand_count ?? (s.hand ? s.hand.length : 0))) : '', where(side)].filter(Boolean).join(' · ')),
        ctx.sideStatus(side)),
      el('div', { class: 'medals', title: t('{n} of {victory} medals', { n: s.medals || 0, victory: s.victory }), 'data-medals': s.medals || 0 }, ...dots, ` ${s.medals || 0}/${s.victory}`)));
  }
  if (v.visibility !== undefined && v.visibility !== null) {
    const vis = v.visibility;
    box.append(el('div', { class: 'side-box night-box', id: 'visibility', 'data-visibility': vis,
      title: t('Night rules: units may battle only targets within this many hexes; at the start of each turn of the night side, dice are rolled and every star raises the visibility') },
    el('b', {}, vis >= 6 ? t('Daylight') : t('Night: visibility {n}/6', { n: vis })), el('div', { class: 'muted' }, vis >= 6 ? t('normal ranges') : tn('targets up to {n} hex away', 'targets up to {n} hexes away', vis))));
  }
  if (panel('variants')) for (const b of [variantBox(v), campaignBox(v)]) if (b) box.append(b);
  const weather = weatherInfo(v.weather);
  if (weather) {
    box.append(el('div', { class: 'side-box weather-box', id: 'weather', 'data-weather': weather.code,
      title: t('Weather for the whole battle (optional rule): {text}', { text: weather.text }) },
    el('b', {}, weatherHeadline(weather)), el('div', { class: 'muted' }, weather.visibility ? tn('targets up to {n} hex away', 'targets up to {n} hexes away', weather.visibility) : weather.text)));
  }
  const oos = ((v.units) || []).filter((u) => u.out_of_supply);
  if (oos.length) {
    box.append(el('div', { class: 'side-box', id: 'supply-box', style: 'flex:0 0 auto;border-left-color:#b5411f', 'data-count': oos.length,
      title: t('Supply lines (optional rule): units cut off from their supply base are weakened from their 2nd turn and may lose figures from the 3rd') },
    tn('Out of supply: {n} unit (✂ marker)', 'Out of supply: {n} units (✂ marker)', oos.length)));
  }
  const bridges = (v.bridges || []).filter((b) => b.rigged || b.hits);
  if (bridges.length) {
    box.append(el('div', { class: 'side-box', id: 'bridges-box', style: 'flex:0 0 auto;border-left-color:#e8c547', 'data-count': bridges.length,
      title: t('Bridge demolition (optional rule): a star on a bridge marks charges placed (!) or tank hits (number; 4 destroy it)') },
    t('Bridges marked: {n} (★ marker)', { n: bridges.length })));
  }
  const mines = v.mines || [];
  if (mines.length) {
    const hidden = mines.filter((m) => m.value === null || m.value === undefined).length;
    box.append(el('div', { class: 'side-box', id: 'mines-box', style: 'flex:0 0 auto;border-left-color:#b23', 'data-hidden': hidden,
      title: t('Minefields: hidden strength (?) until an enemy unit enters; a unit entering must stop') },
    t('Minefields: {n} ({hidden} hidden, {shown} revealed)', { n: mines.length, hidden, shown: mines.length - hidden })));
  }
  const fogBox = panel('fog') && fogLegend(v, R.fogRange, (on) => { R.fogRange = on; boardView.setFogRange(on); },
                           R.seat ? undefined : ctx.cfg.watch);
  if (fogBox) box.append(fogBox);
  if (v.deck_count === null) box.append(el('div', { class: 'side-box', style: 'flex:0 0 auto;border-left-color:#8c7a50', title: t('Kriegspiel: the deck and discard counts would tell the cards played') }, t('Deck hidden')));
  else if (v.deck_count !== undefined && cardsUsed()) box.append(el('div', { class: 'side-box', style: 'flex:0 0 auto;border-left-color:#8c7a50' }, t('Deck {n} · Discard {d}', { n: v.deck_count, d: v.discard_count ?? 0 })));
  const opts = Array.isArray(v.options) ? v.options : Object.keys(v.options || {});
  if (opts.length) {
    box.append(el('div', { class: 'side-box', id: 'options-on', style: 'flex:0 0 auto;border-left-color:#5a7fa8', 'data-options': opts.join(','),
      title: t('Optional rules switched on when the game was created (the lobby lists what each one does)') },
    el('b', {}, t('Optional rules')), el('div', { class: 'muted' }, opts.map((o) => o.replace(/_/g, ' ')).join(', '))));
  }
}

function renderPending() {
  const p = R.view && R.view.pending;
  const box = $('pending');
  if (!p || R.view.game_over || R.status === 'open') { box.classList.add('hidden'); stopAmbushTimer(); return; }
  box.classList.remove('hidden');
  if (panel('fastplay')) { box.classList.add('hidden'); return; }   // the Fast Play panel says it
  box.textContent = describePending(p, unitName);
  ambushTimer(p, box);
}

function renderBoardHighlights() {
  const m = R.model;
  const hls = highlightsFor(m, R.selected, unitName);
  if (R.fpPath && R.fpPath.unit !== R.selected) R.fpPath = null;
  (R.fpPath ? R.fpPath.hexes : []).forEach((h, i) => {   // Fast Play: the path laid so far
    const hl = hls.find((x) => key(x.hex) === key(h));
    if (hl) hl.label = `${i + 1}`;
  });
  R.highlights = hls;
  boardView.setHighlights(hls, [...m.units.keys()], R.selected);
}

// the action bar, keeping a focused button focused (keyboard play)
function renderActions() { keepFocus($('actions'), drawActions); }
function drawActions() {
  const bar = clear($('actions'));
  if (!R.view || R.view.game_over) return;
  if (R.pending) bar.append(el('span', { class: 'hint' }, t('Sending…')));
  if (R.chooser) {
    bar.append(el('span', { class: 'hint' }, R.chooser.title));
    for (const info of R.chooser.options) {
      bar.append(el('button', { type: 'button', class: 'primary', 'data-action': info.type, onclick: () => send(info.action) }, actionLabel(info.action, unitName, R.view)));
    }
    bar.append(el('button', { type: 'button', onclick: () => { R.chooser = null; renderActions(); } }, t('Cancel')));
    return;
  }
  if (panel('fastplay') && promptHoldsActions(R.view, R.seat)) {       // its buttons are in the prompt, once
    bar.append(el('span', { class: 'hint' }, t('Answer the prompt above.')));
    return;
  }
  const m = R.model;
  // several seats over one connection: for which one these buttons are
  if (R.mySeats.length > 1 && R.seat && R.legal.length) bar.append(el('span', { class: 'seat-tag', 'data-acting-seat': R.seat, title: t('These actions are for this seat') }, t('As {seat}:', { seat: seatLabel(R.seat) })));
  if (R.selected && m.units.has(R.selected)) {
    const e = m.units.get(R.selected);
    for (const info of e.unitOnly) {
      bar.append(el('button', { type: 'button', 'data-action': info.type, onclick: () => send(info.action) }, actionLabel(info.action, unitName, R.view)));
    }
    if (!autoSelect(m)) bar.append(el('button', { type: 'button', 'data-action': 'deselect', onclick: () => { R.selected = null; renderAll(); } }, t('Deselect')));
    fpPathButtons(bar);
  }
  for (const info of m.buttons) {
    bar.append(el('button', {
      type: 'button', class: isPrimary(info.action) ? 'primary' : '', 'data-action': info.type,
      onclick: () => send(info.action),
    }, actionLabel(info.action, unitName, R.view)));
  }
  if (!bar.childNodes.length && R.seat) bar.append(el('span', { class: 'hint' }, myTurn() ? '' : t('Not your turn.')));
}

function myHand() {
  const sides = (R.view && R.view.sides) || {};
  for (const [side, s] of Object.entries(sides)) if (Array.isArray(s.hand)) return { side, hand: s.hand };
  return null;
}

function renderCards() {
  const panel = $('hand-panel');
  const h = myHand();
  const deskOpen = !$('ol-desk').classList.contains('hidden');
  if (!R.seat || !h || deskOpen) { panel.classList.add('hidden'); return; }
  panel.classList.remove('hidden');
  const pick = (card, infos) => {
    if (infos.length === 1) send(infos[0].action);
    else { R.chooser = { title: `${term(card.name)}:`, options: infos }; renderActions(); }
  };
  keepFocus($('hand'), () => renderHand($('hand'), h.hand, R.model.cards, pick));
  // card actions naming cards that are not in the hand (e.g. Recon: keep one of the drawn cards)
  const inHand = new Set(h.hand.map((c) => String(c.id)));
  const p = R.view.pending || {};
  const pool = [...(p.cards || []), ...(Array.isArray(p.options) ? p.options.filter((o) => o && o.id !== undefined && o.name) : [])];
  const extra = [...R.model.cards.keys()].filter((id) => !inHand.has(id));
  const cp = $('choice-panel');
  if (extra.length) {
    cp.classList.remove('hidden');
    $('choice-title').textContent = p.type === 'choose_card' ? t('Drawn cards — choose the one to keep') : t('Choose a card');
    const cards = extra.map((id) => pool.find((c) => String(c.id) === id) || { id, name: t('card {id}', { id }), kind: 'card' });
    keepFocus($('choice'), () => renderHand($('choice'), cards, R.model.cards, pick));
  } else cp.classList.add('hidden');
}

function renderBanner() {
  const b = $('banner');
  const v = R.view;
  if (!v || !v.game_over) { b.classList.add('hidden'); return; }
  b.classList.remove('hidden');
  const w = v.winner;
  let text = w ? t('{side} win the battle!', { side: sideName(w) }) : t('The battle is over: a draw.');
  if (R.side && w) text += ' — ' + (R.side === w ? t('Victory is yours.') : t('You have been defeated.'));
  b.textContent = text;
  b.dataset.winner = w || '';
  // provably fair dice: the seed is revealed once the battle is over
  b.append(' ', el('a', { href: `/games/${ctx.cfg.gameId}/verify`, 'data-verify': '1' }, t('Verify dice')));
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
  const k = `${R.seq}`;
  if (!ambush || ambush.key !== k) {
    stopAmbushTimer();
    ambush = { key: k, until: Date.now() + AMBUSH_SECONDS * 1000, timer: setInterval(() => {
      if (!ambush) return;
      if (Date.now() >= ambush.until) {
        stopAmbushTimer();
        if (!R.legal.some((x) => x.type === 'pass')) return;
        const p2 = R.view && R.view.pending;
        const a = p2 && p2.type === 'ambush' && R.legal.find((x) => x.type === 'pass');
        if (a && !R.pending) send(a);
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
  const deciding = R.legal.some((x) => x.type === 'pass');
  c.textContent = deciding ? t('(no ambush in {n} s)', { n: left }) : t('(the defender has {n} s to decide)', { n: left });
}

// ---------------------------------------------------------------- Overlord / team play
function noteOverlordEvent(e) {
  if (e.type === 'initiative_rolled') R.initiativeRolls[e.seat] = e;
  else if (e.type === 'orders_dispatched') R.dispatchSummary = dispatchSentence(e);
  else if (e.type === 'turn_started') { R.initiativeRolls = {}; R.desk = { selected: null, explain: null }; }
}

function renderOverlord() {
  if (!panel('overlord')) {
    for (const id of ['ol-bar', 'ol-desk', 'ol-fg']) $(id).classList.add('hidden');
    boardView.setZones([]);
    return;
  }
  const v = R.view;
  const role = R.role || roleOf(R.seat);
  renderCommandBar($('ol-bar'), { view: v, seats: R.seats, seat: R.seat, initiativeRolls: R.initiativeRolls,
    dispatchSummary: (v.overlord || {}).step === 'fg' ? R.dispatchSummary : null });
  const open = R.status !== 'open';
  renderDesk($('ol-desk'), {
    view: v, legal: open && role === 'cinc' ? R.legal : [], side: R.side, seats: R.seats, desk: R.desk,
    send, probe, rerender: renderAll,
  });
  renderFieldGeneral($('ol-fg'), {
    view: v, legal: open ? R.legal : [], seat: R.seat, role, send, initiativeRolls: R.initiativeRolls,
    hoverHalf: (h) => { R.hoverHalf = h; renderZones(); },
  });
  renderZones();
}

function renderZones() {
  const v = R.view;
  const role = R.role || roleOf(R.seat);
  if (!panel('overlord') || !FGS.includes(role)) { boardView.setZones([]); return; }
  const zones = fgZones(R.board, v, R.side, role).map((z) => ({ ...z, hot: R.hoverHalf === z.half }));
  boardView.setZones(zones);
}

// Send an action the engine did not offer, to hear its refusal (nothing changes; `refused`).
function probe(action, what) {
  const id = ctx.sendAction({ seat: R.seat, ...action });
  if (id) R.probes.set(id, what);
}

// ---------------------------------------------------------------- gestures
function send(action) {
  R.chooser = null;
  if (!ctx.sendAction(action)) renderActions();   // sent: the host draws the page again
}

// Fast Play 4.2: the move's path, clicked hex by hex (fastplay.js pathStep); false when
// the click is no move of the selected unit
function fpPathClick(hl, hex) {
  const a = hl.actions.length === 1 && hl.actions[0].type === 'move' ? hl.actions[0].action : null;
  if (!panel('fastplay') || !a) return false;
  const u = (R.view.units || []).find((x) => x.id === a.unit);
  if (!u || !u.hex) return false;
  const path = R.fpPath && R.fpPath.unit === a.unit ? R.fpPath.hexes : [];
  const r = pathStep(path, u.hex, hex);
  if (r.send) { fpSendPath(); return true; }
  if (r.direct) { R.fpPath = null; send(a); return true; }
  R.fpPath = { unit: a.unit, hexes: r.path };
  renderAll();
  return true;
}

function fpSendPath() {
  const p = R.fpPath;
  R.fpPath = null;
  if (!p || !p.hexes.length) return;
  const to = p.hexes[p.hexes.length - 1];
  const a = R.legal.find((x) => x.type === 'move' && x.unit === p.unit && key(x.to) === key(to));
  if (a) send({ ...a, path: p.hexes.map((h) => [h[0], h[1]]) });
}

function fpPathButtons(bar) {
  const p = R.fpPath;
  if (!p || !p.hexes.length || R.selected !== p.unit) return;
  const to = p.hexes[p.hexes.length - 1];
  bar.append(el('button', { type: 'button', class: 'primary', 'data-action': 'move-path', onclick: fpSendPath }, t('Move along the path to {hex}', { hex: `(${to[0]},${to[1]})` })));
  bar.append(el('button', { type: 'button', 'data-action': 'clear-path', onclick: () => { R.fpPath = null; renderAll(); } }, t('Clear path')));
}

function onHexClick(hex, unit) {
  if (!R.view || !R.seat) return;
  const k = key(hex);
  const hl = (R.highlights || []).find((h) => key(h.hex) === k);
  if (hl && fpPathClick(hl, hex)) return;
  if (hl) {
    // a unit that is itself selectable and stands on a target hex: prefer the target
    if (hl.actions.length === 1) { send(hl.actions[0].action); return; }
    R.chooser = { title: t('Hex ({row},{col}):', { row: hex[0], col: hex[1] }), options: hl.actions };
    renderActions(); renderStatus();
    return;
  }
  if (unit && R.model.units.has(unit.id)) {
    const e = R.model.units.get(unit.id);
    if (!e.hex.length && e.unitOnly.length === 1) { send(e.unitOnly[0].action); return; }
    if (R.selected === unit.id && e.hex.length) return;   // stays selected (Deselect button / empty hex to drop it)
    R.selected = R.selected === unit.id ? null : unit.id;
    renderAll();
    return;
  }
  if (R.selected && !autoSelect(R.model)) { R.selected = null; renderAll(); }
}
