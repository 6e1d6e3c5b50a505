// Seats and bots from the game page (any ruleset): the creator of an open game gives a
// seat to a bot (at a level the server lists, GET /api/bot-levels) and starts the game,
// bots taking the seats still free; anyone takes a bot's seat back where the server
// allows it (before the start; after it in the team modes, where bots stand in for
// absent players).  The server decides every one of these (docs/protocol.md "Seats").
import { el } from './util.js';

const STAND_IN_MODES = new Set(['team', 'overlord']);
let levels = null;          // {levels, default} once fetched
let creatorOf = {};         // game id -> the identity created it (GET /api/games/{id})

async function getJSON(url) {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.json();
}

// Whether this identity created the game, and the bot levels (fetched once each).
export async function loadSeatDesk(apiBase, gameId) {
  if (!levels) levels = await getJSON(`${apiBase}/bot-levels`).catch(() => ({ levels: [], default: null }));
  if (creatorOf[gameId] === undefined) {
    creatorOf[gameId] = await getJSON(`${apiBase}/games/${gameId}`).then((g) => !!g.created_by_me).catch(() => false);
  }
  return creatorOf[gameId];
}

// One row per player slot (a slot: the seats one person holds together).
export function slotsOf(seats) {
  const out = new Map();
  for (const s of seats || []) {
    const key = s.slot || s.seat;
    if (!out.has(key)) out.set(key, { ...s, slot: key, seats: [] });
    out.get(key).seats.push(s.seat);
  }
  return [...out.values()];
}

// A bot plays this slot for nobody and a person may take it now.
export function botSeatClaimable(slot, status, mode) {
  return slot.is_bot && !slot.held_by && (status === 'open' || (status === 'live' && STAND_IN_MODES.has(mode)));
}

// The creator's desk of an open game: per slot not his, "Give to a bot"; one "Start"
// button (bots take the free seats).  null when there is nothing to show.
// ctx: {seats, status, isCreator, apiBase, gameId, label(slot) -> text, onError(msg)}
export function creatorDesk(ctx) {
  if (!ctx.isCreator || ctx.status !== 'open') return null;
  const post = async (path, body) => {
    const r = await fetch(`${ctx.apiBase}/games/${ctx.gameId}/${path}`, {
      method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body || {}) });
    if (!r.ok) {
      let msg = `HTTP ${r.status}`;
      try { msg = (await r.json()).error.message; } catch (_) { /* keep the status */ }
      ctx.onError(msg);
    }
  };
  const lv = (levels && levels.levels) || [];
  const select = lv.length > 1
    ? el('select', { id: 'bot-level', title: 'How strongly the bots play' }, ...lv.map((l) => el('option', { value: l, selected: l === levels.default ? true : null }, `${l} bot`)))
    : null;
  const level = () => (select ? select.value : (levels && levels.default) || undefined);
  const box = el('div', { class: 'seat-desk', id: 'seat-desk' });
  box.append(el('b', {}, 'Seats:'), ' ');
  const free = [];
  for (const sl of slotsOf(ctx.seats)) {
    if (sl.mine) continue;
    const chip = el('span', { class: `seat-chip${sl.taken ? '' : ' free'}`, 'data-slot': sl.slot },
      `${ctx.label(sl.slot)}: `, sl.taken ? (sl.is_bot ? `bot${sl.bot_level ? ` (${sl.bot_level})` : ''}` : (sl.name || '?')) : 'free', ' ');
    if (!sl.taken) {
      free.push(sl.slot);
      chip.append(el('button', { type: 'button', 'data-give-bot': sl.slot, title: 'A bot plays this seat; a friend who joins takes it back',
        onclick: () => post(`seats/${encodeURIComponent(sl.slot)}/bot`, { level: level() }) }, 'Give to a bot'));
    }
    box.append(chip);
  }
  if (select) box.append(select, ' ');
  if (free.length) {
    box.append(el('button', { type: 'button', class: 'primary', id: 'start-with-bots', 'data-free': free.length,
      onclick: () => post('start', { level: level() }) }, `Start now: bots take the ${free.length} free seat${free.length > 1 ? 's' : ''}`));
  }
  return box;
}
