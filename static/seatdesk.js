// Seats and bots from the game page (any ruleset): the seat bar (the seats one may take,
// the invite link, the seats one holds), the creator of an open game gives a
// seat to a bot (at a level the server lists, GET /api/bot-levels) and starts the game,
// bots taking the seats still free; anyone takes a bot's seat back where the server
// allows it (before the start; after it where the ruleset says bots stand in for absent
// players: hello's `bots_stand_in`, Ruleset.bots_stand_in).  The server decides every one of these (docs/protocol.md "Seats").
import { el } from './util.js';
import { t, tn } from './i18n.js';

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
// standIn: the game's bots stand in for absent players (hello's `bots_stand_in`)
export function botSeatClaimable(slot, status, standIn) {
  return slot.is_bot && !slot.held_by && (status === 'open' || (status === 'live' && !!standIn));
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
    ? el('select', { id: 'bot-level', title: t('How strongly the bots play') }, ...lv.map((l) => el('option', { value: l, selected: l === levels.default ? true : null }, t('{level} bot', { level: t(l) }))))
    : null;
  const level = () => (select ? select.value : (levels && levels.default) || undefined);
  const box = el('div', { class: 'seat-desk', id: 'seat-desk' });
  box.append(el('b', {}, t('Seats:')), ' ');
  const free = [];
  for (const sl of slotsOf(ctx.seats)) {
    if (sl.mine) continue;
    const chip = el('span', { class: `seat-chip${sl.taken ? '' : ' free'}`, 'data-slot': sl.slot },
      `${ctx.label(sl.slot)}: `, sl.taken ? (sl.is_bot ? `${t('bot')}${sl.bot_level ? ` (${t(sl.bot_level)})` : ''}` : (sl.name || '?')) : t('free'), ' ');
    if (!sl.taken) {
      free.push(sl.slot);
      chip.append(el('button', { type: 'button', 'data-give-bot': sl.slot, title: t('A bot plays this seat; a friend who joins takes it back'),
        onclick: () => post(`seats/${encodeURIComponent(sl.slot)}/bot`, { level: level() }) }, t('Give to a bot')));
    }
    box.append(chip);
  }
  if (select) box.append(select, ' ');
  if (free.length) {
    box.append(el('button', { type: 'button', class: 'primary', id: 'start-with-bots', 'data-free': free.length,
      onclick: () => post('start', { level: level() }) }, tn('Start now: a bot takes the free seat', 'Start now: bots take the {n} free seats', free.length)));
  }
  return box;
}

// "Waiting for an opponent" / "for 3 more players" (the seats still free)
export function freeSeatsText(seats) {
  const free = new Set((seats || []).filter((s) => !s.taken).map((s) => s.slot || s.seat));
  const n = free.size;
  if (!n) return t('Waiting for the game to start…');
  const players = new Set(seats.map((s) => s.slot || s.seat)).size;
  return players <= 2 && n === 1 ? t('Waiting for an opponent to join…') : (n === 1 ? t('Waiting for 1 more player to join…') : t('Waiting for {n} more players to join…', { n }));
}

// The seat bar's parts: the seats one may take (a name first for a visitor without one),
// the creator's desk, the invite link while seats are free, the seats this identity holds.
// ctx: {seats, seat (the seat shown, null: spectator), status, standIn, named, desk (creatorDesk
// or null), inviteLink, label(seat), claim(seat), switchTo(seat), autoFocused,
// held: [{seat, actions}] the seats played over this connection (several: switched
// locally) or null, toAct: the view's seats to act}
export function seatBar(ctx) {
  const { seats, seat, label } = ctx;
  const parts = [];
  // a person takes a free slot, or a bot's (before the start; with stand-in bots after it too)
  const takeable = seat ? [] : slotsOf(seats).filter((s) => !s.taken || botSeatClaimable(s, ctx.status, ctx.standIn));
  if (takeable.length && ctx.status !== 'finished') {
    if (!ctx.named) {
      const input = el('input', { placeholder: t('Your name'), 'aria-label': t('Your name'), maxlength: 40, id: 'seat-name' });
      parts.push(el('span', {}, t('Enter a name to take a seat:')), input);
    }
    parts.push(el('span', {}, t('Seats you may take:')));
    for (const s of takeable) {
      parts.push(el('button', { type: 'button', class: 'primary', 'data-claim': s.seats[0], 'data-from-bot': s.is_bot ? '1' : null, onclick: () => ctx.claim(s.seats[0]) },
        `${t('Play {side}', { side: label(s.seats[0]) })}${s.is_bot ? ` (${t('in place of the bot')})` : ''}`));
    }
  }
  if (ctx.desk) parts.push(ctx.desk);
  if (seat && seats.some((s) => !s.taken)) {
    parts.push(el('span', {}, `${freeSeatsText(seats)} ${t('Invite link:')} `), el('input', { readonly: true, value: ctx.inviteLink, size: 50, id: 'invite-link', 'aria-label': t('Invite link:'), onclick: (ev) => ev.target.select() }));
  }
  const mine = seats.filter((s) => s.mine);
  if (!seat && mine.length) parts.push(el('span', { class: 'muted' }, t('You hold {seats}.', { seats: mine.map((x) => label(x.seat)).join(', ') })));
  if (seat && mine.length > 1) {
    // several role seats: over one connection they are switched here locally; a
    // connection pinned to one (?seat=) reconnects to another
    const local = !!ctx.held;
    parts.push(el('span', {}, local ? t('You hold these seats (click to act for one):') : t('Your seats:')));
    for (const s of mine) {
      const n = local ? ((ctx.held.find((h) => h.seat === s.seat) || {}).actions || 0) : 0;
      const acting = local ? n > 0 : (ctx.toAct || []).includes(s.seat);
      parts.push(el('button', {
        type: 'button', class: `seat-switch${s.seat === seat ? ' current' : ''}${acting ? ' acting' : ''}`, 'data-switch': s.seat,
        'aria-pressed': s.seat === seat ? 'true' : 'false', disabled: s.seat === seat && !local ? true : null,
        title: acting ? `${t('This seat has something to do now')}${n ? ` (${(n === 1 ? t('1 possible action') : t('{n} possible actions', { n }))})` : ''}` : t('Nothing to do for this seat now'), onclick: () => ctx.switchTo(s.seat),
      }, `${label(s.seat)}${acting ? ' ●' : ''}`));
    }
    if (ctx.autoFocused && ctx.autoFocused === seat) parts.push(el('span', { class: 'muted', 'data-auto-focus': seat }, t('(now showing {seat}: it has something to do)', { seat: label(seat) })));
  }
  return parts;
}
