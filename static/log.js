// Battle log: turns engine events into sentences. Unknown event types still print
// (type + their parameters), so new engine events never vanish from the log.
import { el, titleCase, sideName } from './util.js';
import { dieNode } from './cards.js';
import { ROLE_NAMES, dispatchSentence, initiativeEffect } from './overlord.js';
import { FOG_TEXT, fogMoveText } from './fog.js';

function hexText(h) { return Array.isArray(h) ? `(${h[0]},${h[1]})` : String(h); }

// why a game ended (engine game_over reasons)
const GAME_OVER_REASONS = {
  medals: 'medals', annihilation: 'no enemy unit left', damage: 'most damage after the last turn',
  deck_exhausted: 'the Command card deck has run out',
};

const TEXT = {
  card_played: (e, n) => `${sideName(e.seat || e.side)} plays ${cardName(e)}${e.as === 'air_power' ? ' as Air Power' : e.as && e.as !== 'initiative' ? ' as ' + titleCase(e.as) : ''}${e.half !== undefined && e.half !== null ? ` in his ${e.half === 0 ? 'left' : 'right'} half` : ''}${e.reaction ? ' (reaction)' : ''}`,
  card_copied: (e) => `${sideName(e.side)} copies ${cardName(e)}${e.mirrored ? ' (mirrored)' : ''}`,
  cards_drawn: (e) => `${sideName(e.seat || e.side)} draws ${e.count || 2} cards${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => c.name).join(', ') : ''}`,
  card_kept: (e) => `${sideName(e.seat || e.side)} keeps ${e.secret && e.secret.card ? e.secret.card.name : 'one card'}`,
  turn_ended: (e) => `${sideName(e.side || e.seat)} ends turn ${e.turn ?? ''}`,
  ...FOG_TEXT,
  unit_moved: (e, n) => fogMoveText(e, n, 'moves') || `${n(e.unit)} moves ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to || (e.path && e.path[e.path.length - 1]))}${e.reason === 'desert' ? ' (desert move)' : ''}`,
  unit_retreated: (e, n) => fogMoveText(e, n, 'retreats') || `${n(e.unit)} retreats ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to)}`,
  ground_taken: (e, n) => fogMoveText(e, n, 'takes ground') || `${n(e.unit)} takes ground ${e.from ? hexText(e.from) + ' → ' : 'at '}${hexText(e.to)}`,
  battle_cancelled: (e, n) => `Battle by ${n(e.unit)} cancelled${e.reason ? ' (' + e.reason + ')' : ''}`,
  terrain_changed: (e) => `Terrain at ${hexText(e.hex)}: ${e.removed ? titleCase(e.removed) + ' removed' : ''}${e.added ? titleCase(e.added) + ' added' : ''}`,
  deck_reshuffled: () => 'The deck is reshuffled',
  section_chosen: (e) => `${sideName(e.side || e.seat)} chooses the ${['left', 'centre', 'right'][e.section] ?? e.section} section`,
  target_chosen: (e) => `${sideName(e.side || e.seat)} targets ${hexText(e.hex)}`,
  unit_exited: (e, n) => `${n(e.unit)} leaves the board`,
  unit_healed: (e, n) => `${n(e.unit)} recovers ${e.figures_gained ?? e.count ?? ''} figure(s)`,
  flags_ignored: (e, n) => `${n(e.unit)} ignores ${e.count ?? e.flags ?? 1} flag(s)`,
  ambush_window_closed: () => 'No ambush',
  play_card: (e, n) => `${sideName(e.seat)} plays ${cardName(e)}`,
  unit_ordered: (e, n) => `${sideName(e.seat || e.side)} orders ${n(e.unit)}${e.train && e.train.length > 1 ? ` (a train of ${e.train.length})` : ''}`,
  ordered: (e, n) => `${sideName(e.seat || e.side)} orders ${n(e.unit)}`,
  order: (e, n) => `${sideName(e.seat || e.side)} orders ${n(e.unit)}`,
  moved: (e, n) => `${n(e.unit)} moves ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  move: (e, n) => `${n(e.unit)} moves to ${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  battle: (e, n) => `${n(e.unit || e.attacker)} battles ${e.target_unit ? n(e.target_unit) : ''} ${e.target ? 'at ' + hexText(e.target) : ''}${e.dice_count ? ` with ${e.dice_count} dice` : ''}`,
  battle_declared: (e, n) => `${e.unit ? n(e.unit) : 'An unseen ' + sideName(e.side) + ' unit'} ${e.kind && e.kind !== 'battle' ? titleCase(e.kind) + ': ' : ''}battles ${e.target_unit ? n(e.target_unit) : hexText(e.target)}${typeof e.dice === 'number' ? ` with ${e.dice} ${e.dice === 1 ? 'die' : 'dice'}` : ''}${e.range ? ` at range ${e.range}` : ''}`,
  roll: (e) => `Dice rolled`,
  action_declared: (e, n) => `${e.unit ? n(e.unit) : sideName(e.side) + (e.by ? ' (' + titleCase(e.by) + ')' : '')} ${({ seal_cave: 'tries to seal the cave', heal: 'tries to heal', blow_bridge: 'tries to blow the bridge', bombard_bridge: 'fires at the bridge' })[e.kind] || titleCase(e.kind || 'acts')}${e.hex ? ' at ' + hexText(e.hex) : ''}${typeof e.dice === 'number' ? ` (${e.dice} ${e.dice === 1 ? 'die' : 'dice'})` : ''}`,
  card_discarded: (e) => `${sideName(e.seat || e.side)} must discard ${cardName(e)}${e.reason === 'hq_tent' ? ' (HQ & Supply Tent taken by the enemy)' : (e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : '')}`,
  bridge_rigged: (e, n) => `${n(e.unit)} places charges on the bridge at ${hexText(e.hex)}`,
  bridge_charges_removed: (e, n) => `${sideName(e.side)} charges on the bridge at ${hexText(e.hex)} removed (${e.unit ? n(e.unit) : 'the enemy'} on the bridge)`,
  out_of_supply: (e, n) => `${n(e.unit)} is out of supply${e.turns > 1 ? ` (turn ${e.turns} cut off${e.turns >= 2 ? ': weakened' : ''})` : ''}`,
  supply_restored: (e, n) => `${n(e.unit)} is back in supply`,
  pontoon_built: (e, n) => `${n(e.unit)} builds a pontoon bridge at ${hexText(e.hex)}`,
  bridge_hit: (e) => `Bridge at ${hexText(e.hex)} hit ${e.hits} time${e.hits === 1 ? '' : 's'} (${e.total} of 4)`,
  mine_revealed: (e, n) => `${e.unit ? n(e.unit) + ' enters a minefield' : 'Minefield'} at ${hexText(e.hex)}: ${e.value ? `strength ${e.value}` : 'a decoy'}`,
  mine_removed: (e, n) => `Minefield at ${hexText(e.hex)} removed${e.reason === 'decoy' ? ' (a decoy)' : e.reason === 'cleared' ? ` (cleared${e.unit ? ' by ' + n(e.unit) : ''})` : ''}`,
  hazard: (e, n) => `${n(e.unit)} crosses a ${e.kind === 'frozen_river' ? 'frozen river' : titleCase(e.kind || 'hazard')} at ${hexText(e.hex)}${typeof e.dice === 'number' ? ` (${e.dice} dice, stars hit)` : ''}`,
  cross_hair_placed: (e, n) => `${n(e.unit)} places a cross-hair on ${hexText(e.hex)} (ranged in for the next shots)`,
  boat_lost: (e, n) => `${n(e.unit)} steps ashore: the boat is lost`,
  visibility_changed: (e) => `Visibility ${e.from ?? '?'} → ${e.visibility}${e.visibility >= 6 ? ': full daylight' : e.visibility <= 1 ? ': dark night' : ''} (units see ${Math.min(e.visibility, 6)} hex${e.visibility === 1 ? '' : 'es'} far)`,
  unit_dropped: (e, n) => `${n(e.unit)} lands at ${hexText(e.hex)}`,
  card_offered: (e) => `${sideName(e.side)} lays ${cardName(e)} face up for exchange`,
  card_taken: (e) => `${sideName(e.side)} takes ${cardName(e)}${e.secret && e.secret.given ? ', giving ' + e.secret.given.name : ' in exchange for a card'}`,
  card_exchanged: (e) => `${sideName(e.seat || e.side)} exchanges a card face down${e.secret && e.secret.card ? ' (' + e.secret.card.name + ')' : ''}`,
  cards_exchange_started: (e) => `${sideName(e.side)} offers cards for exchange`,
  regrouping_declared: (e) => `${sideName(e.seat || e.side)} declares Restoring Order: every unit may regroup, none may advance`,
  army_advance_declared: (e) => `${sideName(e.seat || e.side)} declares The Big Push: every unit must advance`,
  cards_ended: (e) => `${sideName(e.side)} plays ${e.count} command card${e.count === 1 ? '' : 's'} this turn`,
  unit_entered: (e, n) => `${n(e.unit)} enters at ${hexText(e.hex)}${e.reason === 'armor_breakthrough' ? ' (armor breakthrough)' : ''}`,
  drop_lost: (e) => `A ${sideName(e.side)} unit is lost in the airdrop${e.hex ? ' at ' + hexText(e.hex) : ' (off the board)'}`,
  supply_train_arrived: (e) => `The ${sideName(e.side)} supply train reaches the station: ${e.units} unit(s) to unload`,
  unit_reinforced: (e, n) => `${n(e.unit)} gets off the train at ${hexText(e.hex)}`,
  reinforcement_lost: (e) => `${e.count} ${sideName(e.side)} unit(s) cannot get off the train (no room)`,
  camouflage_removed: (e) => `Camouflage at ${hexText(e.hex)} is lost`,
  // Overlord / team play
  card_dispatched: (e) => `${sideName(e.seat || e.side)} gives ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}${e.secret && e.secret.to ? ' to the ' + ROLE_NAMES[e.secret.to] : ''}`,
  dispatch_undone: (e) => `${sideName(e.seat || e.side)} takes back ${e.secret && e.secret.card ? (e.secret.card.name || 'a card') : 'a card'}`,
  orders_dispatched: (e) => dispatchSentence(e),
  cards_received: (e) => `${sideName(e.seat)} receives ${e.count} card${e.count === 1 ? '' : 's'}${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => c.name).join(', ') : ''}`,
  initiative_declined: (e) => `${sideName(e.seat)} does not act on initiative`,
  initiative_rolled: (e) => `${sideName(e.seat)} acts on initiative: ${titleCase(e.face)} — ${initiativeEffect(e.face, e.effect)}`,
  commissar_card_placed: (e) => `${sideName(e.seat || e.side)} puts a card under the Commissar chip (${e.count ?? ''})`,
  dice_rolled: (e, n) => e.kind === 'campaign' ? campaignRoll(e) : e.kind === 'initiative' ? `${sideName(e.seat || e.side)} rolls for initiative`
    : ROLL_ONLY[e.kind] ? `${e.unit ? n(e.unit) : sideName(e.side)} rolls ${ROLL_ONLY[e.kind]}`
      : `${e.unit ? n(e.unit) : sideName(e.side)} rolls${ROLL_KIND[e.kind] ? ' ' + ROLL_KIND[e.kind] : ''}${e.target_unit ? ' at ' + n(e.target_unit) : ''}: ${e.hits ?? 0} hit${e.hits === 1 ? '' : 's'}${e.flags ? `, ${e.flags} flag${e.flags > 1 ? 's' : ''}` : ''}`,
  hits: (e, n) => `${n(e.unit || e.target_unit)} loses ${e.hits ?? e.count ?? ''} figure${(e.hits ?? e.count) === 1 ? '' : 's'}`,
  unit_hit: (e, n) => { const k = e.figures_lost ?? e.hits ?? 1; return `${n(e.unit)} loses ${k} figure${k === 1 ? '' : 's'}${e.figures !== undefined ? ` (${e.figures} left)` : ''}`; },
  casualties: (e, n) => `${n(e.unit)} loses ${e.hits ?? e.figures ?? ''} figures`,
  unit_eliminated: (e, n) => `${n(e.unit)} is eliminated`,
  eliminated: (e, n) => `${n(e.unit)} is eliminated`,
  retreat: (e, n) => `${n(e.unit)} retreats to ${hexText(e.to)}`,
  retreated: (e, n) => `${n(e.unit)} retreats to ${hexText(e.to)}`,
  take_ground: (e, n) => `${n(e.unit)} takes ground at ${hexText(e.to)}`,
  medal: (e) => `${sideName(e.side || e.seat)} gains a medal${e.reason ? ' (' + e.reason + ')' : ''}`,
  medal_gained: (e) => `🎖 ${sideName(e.side || e.seat)} gain${e.count > 1 ? ' ' + e.count + ' medals' : 's a medal'}${e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : ''}`,
  medal_lost: (e) => `${sideName(e.side || e.seat)} loses ${e.count > 1 ? e.count + ' medals' : 'a medal'}`,
  card_drawn: (e) => `${sideName(e.seat || e.side)} draws ${e.secret && e.secret.cards ? e.secret.cards.map((c) => c.name).join(', ') : (e.count > 1 ? e.count + ' cards' : 'a card')}`,
  draw: (e) => `${sideName(e.seat)} draws ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}`,
  turn_start: (e) => `— Turn ${e.turn ?? ''}: ${sideName(e.side || e.seat)} —`,
  turn_started: (e) => `— Turn ${e.turn ?? ''}: ${sideName(e.side || e.seat)} —`,
  turn_end: (e) => `${sideName(e.side || e.seat)} ends the turn`,
  game_over: (e) => `Game over: ${e.winner ? sideName(e.winner) + ' win' : 'no winner'}${e.reason ? ' (' + (GAME_OVER_REASONS[e.reason] || e.reason) + ')' : ''}`,
  turn_passed: (e) => `${sideName(e.seat || e.side)} has no Command card to play: turn passed`,
  last_turn: (e) => `Last turn for ${sideName(e.side)}${e.reason ? ' (' + e.reason + ')' : ''}`,
  victory: (e) => `${sideName(e.winner || e.side)} win the battle!`,
};

// dice_rolled kinds whose result is not hits on a target
const ROLL_ONLY = { night: 'for the dawn (stars raise the visibility)', seal_cave: 'to seal the cave (a star seals it)',
  heal: 'to heal (stars and infantry symbols bring figures back)', blow_bridge: 'to blow the bridge (a star blows it)',
  bombard_bridge: 'against the bridge (each tank symbol is a hit)', supply: 'for units out of supply a 3rd turn (a star costs a figure)' };
const ROLL_KIND = { mine: 'for the minefield', hazard: 'for the hazard', tiger: 'against the Tiger', battle_back: 'battling back',
  ambush: 'in ambush', overrun: 'in an overrun', charge_defence: 'first against the infantry charge', firefight: 'in the continuing firefight', air_power: 'for Air Power', barrage: 'for a barrage' };

// 004 Simplified Campaign Rules: what each face of a pre-battle roll does (o: the
// roller's opponent, s: the roller)
const CAMPAIGN_FACE = {
  armor: (o) => `${o} must remove a tank model`, inf: (o) => `${o} must remove an infantry figure`,
  star: (o) => `${o} must start with one Command card less`, flag: (o) => `${o} must retreat a unit 1 hex`,
  grenade: (o, s) => `${s} must remove a figure from a unit of the ${o}`,
};
const FACE_WORD = { armor: 'tank', inf: 'infantry', star: 'star', flag: 'flag', grenade: 'grenade' };
function campaignRoll(e) {
  const side = e.side || String(e.seat || '').split(':')[0];
  const s = sideName(side);
  const o = sideName(side === 'AXIS' ? 'ALLIES' : 'AXIS');
  const faces = (e.dice || []).map((d) => (typeof d === 'object' && d ? d.face : d));
  const head = `${s} rolls ${faces.length} pre-battle ${faces.length === 1 ? 'die' : 'dice'} (campaign)`;
  if (!faces.length) return `${head}: no effect`;
  const effects = faces.map((f) => (CAMPAIGN_FACE[f] ? CAMPAIGN_FACE[f](o, s) : `${titleCase(f)}: no effect`));
  return `${head}: ${faces.map((f) => FACE_WORD[f] || f).join(', ')} — ${effects.join('; ')}`;
}

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

// rulesets add sentences for their own events (static/fastplay.js)
export { TEXT as EVENT_TEXT };
