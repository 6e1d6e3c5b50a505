// Battle log: turns engine events into sentences. Unknown event types still print
// (type + their parameters), so new engine events never vanish from the log.
import { el, titleCase, sideName } from './util.js';
import { t, term } from './i18n.js';
import { dieNode } from './cards.js';
import { ROLE_NAMES, dispatchSentence, initiativeEffect } from './overlord.js';
import { FOG_TEXT, fogMoveText } from './fog.js';

function hexText(h) { return Array.isArray(h) ? `(${h[0]},${h[1]})` : String(h); }

// why a game ended (engine game_over reasons)
const GAME_OVER_REASONS = {
  medals: t('medals'), annihilation: t('no enemy unit left'), damage: t('most damage after the last turn'),
  deck_exhausted: t('the Command card deck has run out'),
};

const TEXT = {
  card_played: (e, n) => `${t('{side} plays {card}', { side: sideName(e.seat || e.side), card: cardName(e) })}${e.as === 'air_power' ? ' ' + t('as Air Power') : e.as && e.as !== 'initiative' ? ' as ' + titleCase(e.as) : ''}${e.half !== undefined && e.half !== null ? ` in his ${e.half === 0 ? 'left' : 'right'} half` : ''}${e.reaction ? ' (reaction)' : ''}`,
  card_copied: (e) => `${sideName(e.side)} copies ${cardName(e)}${e.mirrored ? ' (mirrored)' : ''}`,
  cards_drawn: (e) => `${t('{side} draws {n} cards', { side: sideName(e.seat || e.side), n: e.count || 2 })}${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => term(c.name)).join(', ') : ''}`,
  card_kept: (e) => t('{side} keeps {card}', { side: sideName(e.seat || e.side), card: e.secret && e.secret.card ? term(e.secret.card.name) : t('one card') }),
  turn_ended: (e) => t('{side} ends turn {turn}', { side: sideName(e.side || e.seat), turn: e.turn ?? '' }),
  ...FOG_TEXT,
  unit_moved: (e, n) => fogMoveText(e, n, 'moves') || `${e.from ? t('{unit} moves {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) }) : t('{unit} moves to {hex}', { unit: n(e.unit), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) })}${e.reason === 'desert' ? ' ' + t('(desert move)') : ''}`,
  unit_retreated: (e, n) => fogMoveText(e, n, 'retreats') || (e.from ? t('{unit} retreats {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to) }) : t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) })),
  ground_taken: (e, n) => fogMoveText(e, n, 'takes ground') || (e.from ? t('{unit} takes ground {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to) }) : t('{unit} takes ground at {hex}', { unit: n(e.unit), hex: hexText(e.to) })),
  battle_cancelled: (e, n) => `Battle by ${n(e.unit)} cancelled${e.reason ? ' (' + e.reason + ')' : ''}`,
  terrain_changed: (e) => `Terrain at ${hexText(e.hex)}: ${e.removed ? titleCase(e.removed) + ' removed' : ''}${e.added ? titleCase(e.added) + ' added' : ''}`,
  deck_reshuffled: () => t('The deck is reshuffled'),
  section_chosen: (e) => t('{side} chooses the {section} section', { side: sideName(e.side || e.seat), section: [t('left'), t('centre'), t('right')][e.section] ?? e.section }),
  target_chosen: (e) => t('{side} targets {hex}', { side: sideName(e.side || e.seat), hex: hexText(e.hex) }),
  unit_exited: (e, n) => t('{unit} leaves the board', { unit: n(e.unit) }),
  unit_healed: (e, n) => `${n(e.unit)} recovers ${e.figures_gained ?? e.count ?? ''} figure(s)`,
  flags_ignored: (e, n) => t('{unit} ignores {n} flag(s)', { unit: n(e.unit), n: e.count ?? e.flags ?? 1 }),
  ambush_window_closed: () => t('No ambush'),
  play_card: (e, n) => t('{side} plays {card}', { side: sideName(e.seat), card: cardName(e) }),
  unit_ordered: (e, n) => `${t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) })}${e.train && e.train.length > 1 ? ` (${t('a train of {n}', { n: e.train.length })})` : ''}`,
  ordered: (e, n) => t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) }),
  order: (e, n) => t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) }),
  moved: (e, n) => `${n(e.unit)} moves ${e.from ? hexText(e.from) + ' → ' : 'to '}${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  move: (e, n) => `${n(e.unit)} moves to ${hexText(e.to || (e.path && e.path[e.path.length - 1]))}`,
  battle: (e, n) => `${n(e.unit || e.attacker)} battles ${e.target_unit ? n(e.target_unit) : ''} ${e.target ? 'at ' + hexText(e.target) : ''}${e.dice_count ? ` with ${e.dice_count} dice` : ''}`,
  battle_declared: (e, n) => `${e.kind && e.kind !== 'battle' ? titleCase(e.kind) + ': ' : ''}${t('{unit} battles {target}', { unit: e.unit ? n(e.unit) : t('An unseen {side} unit', { side: sideName(e.side) }), target: e.target_unit ? n(e.target_unit) : hexText(e.target) })}${typeof e.dice === 'number' ? ' ' + (e.dice === 1 ? t('with 1 die') : t('with {n} dice', { n: e.dice })) : ''}${e.range ? ' ' + t('at range {n}', { n: e.range }) : ''}`,
  roll: (e) => t('Dice rolled'),
  action_declared: (e, n) => `${e.unit ? n(e.unit) : sideName(e.side) + (e.by ? ' (' + titleCase(e.by) + ')' : '')} ${({ seal_cave: 'tries to seal the cave', heal: 'tries to heal', blow_bridge: 'tries to blow the bridge', bombard_bridge: 'fires at the bridge' })[e.kind] || titleCase(e.kind || 'acts')}${e.hex ? ' at ' + hexText(e.hex) : ''}${typeof e.dice === 'number' ? ` (${e.dice} ${e.dice === 1 ? 'die' : 'dice'})` : ''}`,
  card_discarded: (e) => `${sideName(e.seat || e.side)} must discard ${cardName(e)}${e.reason === 'hq_tent' ? ' (HQ & Supply Tent taken by the enemy)' : (e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : '')}`,
  bridge_rigged: (e, n) => t('{unit} places charges on the bridge at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  bridge_charges_removed: (e, n) => `${sideName(e.side)} charges on the bridge at ${hexText(e.hex)} removed (${e.unit ? n(e.unit) : 'the enemy'} on the bridge)`,
  out_of_supply: (e, n) => `${n(e.unit)} is out of supply${e.turns > 1 ? ` (turn ${e.turns} cut off${e.turns >= 2 ? ': weakened' : ''})` : ''}`,
  supply_restored: (e, n) => t('{unit} is back in supply', { unit: n(e.unit) }),
  pontoon_built: (e, n) => t('{unit} builds a pontoon bridge at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  bridge_hit: (e) => `Bridge at ${hexText(e.hex)} hit ${e.hits} time${e.hits === 1 ? '' : 's'} (${e.total} of 4)`,
  mine_revealed: (e, n) => `${e.unit ? n(e.unit) + ' enters a minefield' : 'Minefield'} at ${hexText(e.hex)}: ${e.value ? `strength ${e.value}` : 'a decoy'}`,
  mine_removed: (e, n) => `Minefield at ${hexText(e.hex)} removed${e.reason === 'decoy' ? ' (a decoy)' : e.reason === 'cleared' ? ` (cleared${e.unit ? ' by ' + n(e.unit) : ''})` : ''}`,
  hazard: (e, n) => `${n(e.unit)} crosses a ${e.kind === 'frozen_river' ? 'frozen river' : titleCase(e.kind || 'hazard')} at ${hexText(e.hex)}${typeof e.dice === 'number' ? ` (${e.dice} dice, stars hit)` : ''}`,
  cross_hair_placed: (e, n) => t('{unit} places a cross-hair on {hex} (ranged in for the next shots)', { unit: n(e.unit), hex: hexText(e.hex) }),
  boat_lost: (e, n) => t('{unit} steps ashore: the boat is lost', { unit: n(e.unit) }),
  visibility_changed: (e) => `Visibility ${e.from ?? '?'} → ${e.visibility}${e.visibility >= 6 ? ': full daylight' : e.visibility <= 1 ? ': dark night' : ''} (units see ${Math.min(e.visibility, 6)} hex${e.visibility === 1 ? '' : 'es'} far)`,
  unit_dropped: (e, n) => t('{unit} lands at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  card_offered: (e) => t('{side} lays {card} face up for exchange', { side: sideName(e.side), card: cardName(e) }),
  card_taken: (e) => `${sideName(e.side)} takes ${cardName(e)}${e.secret && e.secret.given ? ', giving ' + e.secret.given.name : ' in exchange for a card'}`,
  card_exchanged: (e) => `${sideName(e.seat || e.side)} exchanges a card face down${e.secret && e.secret.card ? ' (' + e.secret.card.name + ')' : ''}`,
  cards_exchange_started: (e) => t('{side} offers cards for exchange', { side: sideName(e.side) }),
  regrouping_declared: (e) => t('{side} declares Restoring Order: every unit may regroup, none may advance', { side: sideName(e.seat || e.side) }),
  army_advance_declared: (e) => t('{side} declares The Big Push: every unit must advance', { side: sideName(e.seat || e.side) }),
  cards_ended: (e) => `${sideName(e.side)} plays ${e.count} command card${e.count === 1 ? '' : 's'} this turn`,
  unit_entered: (e, n) => `${n(e.unit)} enters at ${hexText(e.hex)}${e.reason === 'armor_breakthrough' ? ' (armor breakthrough)' : ''}`,
  drop_lost: (e) => `A ${sideName(e.side)} unit is lost in the airdrop${e.hex ? ' at ' + hexText(e.hex) : ' (off the board)'}`,
  supply_train_arrived: (e) => t('The {side} supply train reaches the station: {n} unit(s) to unload', { side: sideName(e.side), n: e.units }),
  unit_reinforced: (e, n) => t('{unit} gets off the train at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  reinforcement_lost: (e) => t('{n} {side} unit(s) cannot get off the train (no room)', { n: e.count, side: sideName(e.side) }),
  camouflage_removed: (e) => t('Camouflage at {hex} is lost', { hex: hexText(e.hex) }),
  // Overlord / team play
  card_dispatched: (e) => `${sideName(e.seat || e.side)} gives ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}${e.secret && e.secret.to ? ' to the ' + ROLE_NAMES[e.secret.to] : ''}`,
  dispatch_undone: (e) => `${sideName(e.seat || e.side)} takes back ${e.secret && e.secret.card ? (e.secret.card.name || 'a card') : 'a card'}`,
  orders_dispatched: (e) => dispatchSentence(e),
  cards_received: (e) => `${sideName(e.seat)} receives ${e.count} card${e.count === 1 ? '' : 's'}${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => c.name).join(', ') : ''}`,
  initiative_declined: (e) => t('{side} does not act on initiative', { side: sideName(e.seat) }),
  initiative_rolled: (e) => `${sideName(e.seat)} acts on initiative: ${titleCase(e.face)} — ${initiativeEffect(e.face, e.effect)}`,
  commissar_card_placed: (e) => `${sideName(e.seat || e.side)} puts a card under the Commissar chip (${e.count ?? ''})`,
  dice_rolled: (e, n) => e.kind === 'campaign' ? campaignRoll(e) : e.kind === 'initiative' ? t('{side} rolls for initiative', { side: sideName(e.seat || e.side) })
    : ROLL_ONLY[e.kind] ? `${e.unit ? n(e.unit) : sideName(e.side)} rolls ${ROLL_ONLY[e.kind]}`
      : `${t('{unit} rolls', { unit: e.unit ? n(e.unit) : sideName(e.side) })}${ROLL_KIND[e.kind] ? ' ' + ROLL_KIND[e.kind] : ''}${e.target_unit ? ' ' + t('at {target}', { target: n(e.target_unit) }) : ''}: ${e.hits === 1 ? t('1 hit') : t('{n} hits', { n: e.hits ?? 0 })}${e.flags ? ', ' + (e.flags === 1 ? t('1 flag') : t('{n} flags', { n: e.flags })) : ''}`,
  hits: (e, n) => `${n(e.unit || e.target_unit)} loses ${e.hits ?? e.count ?? ''} figure${(e.hits ?? e.count) === 1 ? '' : 's'}`,
  unit_hit: (e, n) => { const k = e.figures_lost ?? e.hits ?? 1; return `${k === 1 ? t('{unit} loses 1 figure', { unit: n(e.unit) }) : t('{unit} loses {n} figures', { unit: n(e.unit), n: k })}${e.figures !== undefined ? ` (${t('{n} left', { n: e.figures })})` : ''}`; },
  casualties: (e, n) => `${n(e.unit)} loses ${e.hits ?? e.figures ?? ''} figures`,
  unit_eliminated: (e, n) => t('{unit} is eliminated', { unit: n(e.unit) }),
  eliminated: (e, n) => t('{unit} is eliminated', { unit: n(e.unit) }),
  retreat: (e, n) => t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  retreated: (e, n) => t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  take_ground: (e, n) => t('{unit} takes ground at {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  medal: (e) => `${sideName(e.side || e.seat)} gains a medal${e.reason ? ' (' + e.reason + ')' : ''}`,
  medal_gained: (e) => `🎖 ${e.count > 1 ? t('{side} gain {n} medals', { side: sideName(e.side || e.seat), n: e.count }) : t('{side} gains a medal', { side: sideName(e.side || e.seat) })}${e.reason ? ' (' + t(String(e.reason).replace(/_/g, ' ')) + ')' : ''}`,
  medal_lost: (e) => `${sideName(e.side || e.seat)} loses ${e.count > 1 ? e.count + ' medals' : 'a medal'}`,
  card_drawn: (e) => t('{side} draws {card}', { side: sideName(e.seat || e.side), card: e.secret && e.secret.cards ? e.secret.cards.map((c) => term(c.name)).join(', ') : (e.count > 1 ? t('{n} cards', { n: e.count }) : t('a card')) }),
  draw: (e) => `${sideName(e.seat)} draws ${e.secret && e.secret.card ? e.secret.card.name : 'a card'}`,
  turn_start: (e) => t('— Turn {turn}: {side} —', { turn: e.turn ?? '', side: sideName(e.side || e.seat) }),
  turn_started: (e) => t('— Turn {turn}: {side} —', { turn: e.turn ?? '', side: sideName(e.side || e.seat) }),
  turn_end: (e) => t('{side} ends the turn', { side: sideName(e.side || e.seat) }),
  game_over: (e) => `${t('Game over')}: ${e.winner ? t('{side} win', { side: sideName(e.winner) }) : t('no winner')}${e.reason ? ' (' + (GAME_OVER_REASONS[e.reason] || e.reason) + ')' : ''}`,
  turn_passed: (e) => t('{side} has no Command card to play: turn passed', { side: sideName(e.seat || e.side) }),
  last_turn: (e) => `Last turn for ${sideName(e.side)}${e.reason ? ' (' + e.reason + ')' : ''}`,
  victory: (e) => t('{side} win the battle!', { side: sideName(e.winner || e.side) }),
};

// dice_rolled kinds whose result is not hits on a target
const ROLL_ONLY = { night: t('for the dawn (stars raise the visibility)'), seal_cave: t('to seal the cave (a star seals it)'),
  heal: t('to heal (stars and infantry symbols bring figures back)'), blow_bridge: t('to blow the bridge (a star blows it)'),
  bombard_bridge: t('against the bridge (each tank symbol is a hit)'), supply: t('for units out of supply a 3rd turn (a star costs a figure)') };
const ROLL_KIND = { mine: t('for the minefield'), hazard: t('for the hazard'), tiger: t('against the Tiger'), battle_back: t('battling back'),
  ambush: t('in ambush'), overrun: t('in an overrun'), charge_defence: t('first against the infantry charge'), firefight: t('in the continuing firefight'), air_power: t('for Air Power'), barrage: t('for a barrage') };

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
  if (!c) return t('a card');
  return typeof c === 'object' ? (term(c.name) || t('card {id}', { id: c.id })) : t('card {id}', { id: c });
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
