// Battle log: turns engine events into sentences. Unknown event types still print
// (type + their parameters), so new engine events never vanish from the log.
import { el, titleCase, sideName } from './util.js';
import { dieNode } from './cards.js';

function hexText(h) { return Array.isArray(h) ? `(${h[0]},${h[1]})` : String(h); }

const TEXT = {
  card_played: (e, n) => `${sideName(e.seat)} plays ${cardName(e)}`,
  play_card: (e, n) => `${sideName(e.seat)} plays ${cardName(e)}`,
  unit_ordered: (e, n) => `${sideName(e.seat)} orders ${n(e.unit)}`,
  ordered: (e, n) => `${sideName(e.seat)} orders ${n(e.unit)}`,
  order: (e, n) => `${sideName(e.seat)} orders ${n(e.unit)}`,
  unit_moved: (e, n) => `${n(e.unit)} moves ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  moved: (e, n) => `${n(e.unit)} moves ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  move: (e, n) => `${n(e.unit)} moves to ${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  battle: (e, n) => `${n(e.unit || e.attacker)} battles ${e.target_unit ? n(e.target_unit) : ''} ${e.target ? 'at ' + hexText(e.target) : ''}${e.dice_count ? ` with ${e.dice_count} dice` : ''}`,
  battle_declared: (e, n) => `${n(e.unit || e.attacker)} battles ${e.target ? 'at ' + hexText(e.target) : ''}`,
  roll: (e) => `Dice rolled`,
  dice_rolled: (e) => `Dice rolled`,
  hits: (e, n) => `${n(e.unit || e.target_unit)} loses ${e.hits ?? e.count ?? ''} figure${(e.hits ?? e.count) === 1 ? '' : 's'}`,
  unit_hit: (e, n) => `${n(e.unit)} loses ${e.hits ?? e.figures ?? 1} figure${(e.hits ?? e.figures ?? 1) === 1 ? '' : 's'}`,
  casualties: (e, n) => `${n(e.unit)} loses ${e.hits ?? e.figures ?? ''} figures`,
  unit_eliminated: (e, n) => `${n(e.unit)} is eliminated`,
  eliminated: (e, n) => `${n(e.unit)} is eliminated`,
  retreat: (e, n) => `${n(e.unit)} retreats to ${hexText(e.to)}`,
  retreated: (e, n) => `${n(e.unit)} retreats to ${hexText(e.to)}`,
  take_ground: (e, n) => `${n(e.unit)} takes ground at ${hexText(e.to)}`,
  medal: (e) => `${sideName(e.side || e.seat)} gains a medal${e.reason ? ' (' + e.reason + ')' : ''}`,
  medal_gained: (e) => `${sideName(e.side || e.seat)} gains ${e.count > 1 ? e.count + ' medals' : 'a medal'}${e.reason ? ' (' + e.reason + ')' : ''}`,
  medal_lost: (e) => `${sideName(e.side || e.seat)} loses ${e.count > 1 ? e.count + ' medals' : 'a medal'}`,
  card_drawn: (e) => `${sideName(e.seat)} draws ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}`,
  draw: (e) => `${sideName(e.seat)} draws ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}`,
  turn_start: (e) => `— Turn ${e.turn ?? ''}: ${sideName(e.side || e.seat)} —`,
  turn_started: (e) => `— Turn ${e.turn ?? ''}: ${sideName(e.side || e.seat)} —`,
  turn_end: (e) => `${sideName(e.side || e.seat)} ends the turn`,
  game_over: (e) => `Game over: ${e.winner ? sideName(e.winner) + ' win' : 'no winner'}`,
  victory: (e) => `${sideName(e.winner || e.side)} win the battle!`,
};

function cardName(e) {
  const c = e.card || (e.secret && e.secret.card);
  if (!c) return 'a card';
  return typeof c === 'object' ? (c.name || `card ${c.id}`) : `card ${c}`;
}

function generic(e, n) {
  const parts = [];
  for (const [k, v] of Object.entries(e)) {
    if (['type', 'secret', 'secret_to', 'dice', 'seq'].includes(k)) continue;
    if (v === null || v === undefined) continue;
    if (k === 'unit' || k === 'attacker' || k === 'target_unit') parts.push(`${titleCase(k)} ${n(v)}`);
    else if (Array.isArray(v) && v.length === 2 && v.every(Number.isInteger)) parts.push(`${titleCase(k)} ${hexText(v)}`);
    else if (typeof v !== 'object') parts.push(`${titleCase(k)} ${k === 'seat' || k === 'side' ? sideName(v) : v}`);
  }
  return `${titleCase(e.type)}${parts.length ? ': ' + parts.join(', ') : ''}`;
}

export function describeEvent(e, unitName) {
  if (e.text) return e.text;
  if (e.message) return e.message;
  const f = TEXT[e.type];
  try { return f ? f(e, unitName).replace(/\s+/g, ' ').trim() : generic(e, unitName); } catch (_) { return generic(e, unitName); }
}

export function eventDice(e) {
  const d = e.dice || (e.roll && e.roll.dice) || (e.secret && e.secret.dice);
  return Array.isArray(d) && d.every((x) => typeof x === 'string') ? d : null;
}

export function logEntry(e, unitName, seq) {
  const node = el('div', { class: 'entry', 'data-type': e.type });
  if (seq !== undefined && seq !== null) node.append(el('span', { class: 'seq' }, `#${seq}`));
  node.append(document.createTextNode(describeEvent(e, unitName)));
  const dice = eventDice(e);
  if (dice) {
    const d = el('span', { class: 'dice', style: 'display:inline-flex;margin-left:6px' });
    dice.forEach((f) => d.append(dieNode(f)));
    node.append(d);
  }
  return node;
}
