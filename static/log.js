// Battle log: turns engine events into sentences. Unknown event types still print
// (type + their parameters), so new engine events never vanish from the log.
import { el, titleCase, sideName } from './util.js';
import { t, tn, term } from './i18n.js';
import { dieNode } from './cards.js';
import { ROLE_NAMES, dispatchSentence, initiativeEffect } from './overlord.js';
import { FOG_TEXT, fogMoveText } from './fog.js';

function hexText(h) { return Array.isArray(h) ? `(${h[0]},${h[1]})` : String(h); }

// why a game ended (engine game_over reasons)
const GAME_OVER_REASONS = {
  medals: t('medals'), annihilation: t('no enemy unit left'), damage: t('most damage after the last turn'),
  deck_exhausted: t('the Command card deck has run out'),
};

const SECTION_WORDS = [t('left'), t('centre'), t('right')];

const TEXT = {
  card_played: (e, n) => `${t('{side} plays {card}', { side: sideName(e.seat || e.side), card: cardName(e) })}${e.as === 'air_power' ? ' ' + t('as Air Power') : e.as && e.as !== 'initiative' ? ' ' + t('as {what}', { what: titleCase(e.as) }) : ''}${e.half !== undefined && e.half !== null ? ' ' + (e.half === 0 ? t('in his left half') : t('in his right half')) : ''}${e.reaction ? ' ' + t('(reaction)') : ''}`,
  card_copied: (e) => `${t('{side} copies {card}', { side: sideName(e.side), card: cardName(e) })}${e.mirrored ? ' ' + t('(mirrored)') : ''}`,
  cards_drawn: (e) => `${t('{side} draws {n} cards', { side: sideName(e.seat || e.side), n: e.count || 2 })}${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => term(c.name)).join(', ') : ''}`,
  card_kept: (e) => {
    const card = e.secret && e.secret.card ? term(e.secret.card.name) : t('one card');
    return t('{side} keeps {card}', { side: sideName(e.seat || e.side), card });
  },
  turn_ended: (e) => t('{side} ends turn {turn}', { side: sideName(e.side || e.seat), turn: e.turn ?? '' }),
  ...FOG_TEXT,
  unit_moved: (e, n) => fogMoveText(e, n, 'move') || `${e.from ? t('{unit} moves {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) }) : t('{unit} moves to {hex}', { unit: n(e.unit), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) })}${e.reason === 'desert' ? ' ' + t('(desert move)') : ''}`,
  unit_retreated: (e, n) => fogMoveText(e, n, 'retreat') || (e.from ? t('{unit} retreats {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to) }) : t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) })),
  ground_taken: (e, n) => fogMoveText(e, n, 'take_ground') || (e.from ? t('{unit} takes ground {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to) }) : t('{unit} takes ground at {hex}', { unit: n(e.unit), hex: hexText(e.to) })),
  battle_cancelled: (e, n) => `${t('Battle by {unit} cancelled', { unit: n(e.unit) })}${e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : ''}`,
  terrain_changed: (e) => `${e.removed ? t('Terrain at {hex}: {terrain} removed', { hex: hexText(e.hex), terrain: titleCase(e.removed) }) : ''}${e.removed && e.added ? '; ' : ''}${e.added ? t('Terrain at {hex}: {terrain} added', { hex: hexText(e.hex), terrain: titleCase(e.added) }) : ''}`,
  deck_reshuffled: () => t('The deck is reshuffled'),
  section_chosen: (e) => t('{side} chooses the {section} section', { side: sideName(e.side || e.seat), section: SECTION_WORDS[e.section] ?? e.section }),
  target_chosen: (e) => t('{side} targets {hex}', { side: sideName(e.side || e.seat), hex: hexText(e.hex) }),
  unit_exited: (e, n) => t('{unit} leaves the board', { unit: n(e.unit) }),
  unit_healed: (e, n) => tn('{unit} recovers {n} figure', '{unit} recovers {n} figures', e.figures_gained ?? e.count ?? 0, { unit: n(e.unit) }),
  flags_ignored: (e, n) => tn('{unit} ignores {n} flag', '{unit} ignores {n} flags', e.count ?? e.flags ?? 1, { unit: n(e.unit) }),
  ambush_window_closed: () => t('No ambush'),
  play_card: (e, n) => t('{side} plays {card}', { side: sideName(e.seat), card: cardName(e) }),
  unit_ordered: (e, n) => `${t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) })}${e.train && e.train.length > 1 ? ` (${t('a train of {n}', { n: e.train.length })})` : ''}`,
  ordered: (e, n) => t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) }),
  order: (e, n) => t('{side} orders {unit}', { side: sideName(e.seat || e.side), unit: n(e.unit) }),
  moved: (e, n) => (e.from ? t('{unit} moves {from} → {hex}', { unit: n(e.unit), from: hexText(e.from), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) }) : t('{unit} moves to {hex}', { unit: n(e.unit), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) })),
  move: (e, n) => t('{unit} moves to {hex}', { unit: n(e.unit), hex: hexText(e.to || (e.path && e.path[e.path.length - 1])) }),
  battle: (e, n) => `${t('{unit} battles {target}', { unit: n(e.unit || e.attacker), target: e.target_unit ? n(e.target_unit) : hexText(e.target) })}${e.dice_count ? ' ' + tn('with {n} die', 'with {n} dice', e.dice_count) : ''}`,
  battle_declared: (e, n) => `${e.kind && e.kind !== 'battle' ? (DECLARED_KIND[e.kind] || titleCase(e.kind)) + ': ' : ''}${t('{unit} battles {target}', { unit: e.unit ? n(e.unit) : unseenUnit(e.side), target: e.target_unit ? n(e.target_unit) : hexText(e.target) })}${typeof e.dice === 'number' ? ' ' + tn('with {n} die', 'with {n} dice', e.dice) : ''}${e.range ? ' ' + t('at range {n}', { n: e.range }) : ''}`,
  roll: (e) => t('Dice rolled'),
  action_declared: (e, n) => {
    const who = e.unit ? n(e.unit) : sideName(e.side) + (e.by ? ' (' + titleCase(e.by) + ')' : '');
    const what = ACTION_KIND[e.kind] ? ACTION_KIND[e.kind](who) : `${who} ${titleCase(e.kind || 'acts')}`;
    return `${what}${e.hex ? ' ' + t('at {hex}', { hex: hexText(e.hex) }) : ''}${typeof e.dice === 'number' ? ` (${tn('{n} die', '{n} dice', e.dice)})` : ''}`;
  },
  card_discarded: (e) => `${t('{side} must discard {card}', { side: sideName(e.seat || e.side), card: cardName(e) })}${e.reason === 'hq_tent' ? ' ' + t('(HQ & Supply Tent taken by the enemy)') : (e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : '')}`,
  bridge_rigged: (e, n) => t('{unit} places charges on the bridge at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  bridge_charges_removed: (e, n) => {
    const unit = e.unit ? n(e.unit) : t('the enemy');
    return t('{side} charges on the bridge at {hex} removed ({unit} on the bridge)', { side: sideName(e.side), hex: hexText(e.hex), unit });
  },
  out_of_supply: (e, n) => `${t('{unit} is out of supply', { unit: n(e.unit) })}${e.turns > 1 ? ' ' + t('(turn {n} cut off: weakened)', { n: e.turns }) : ''}`,
  supply_restored: (e, n) => t('{unit} is back in supply', { unit: n(e.unit) }),
  pontoon_built: (e, n) => t('{unit} builds a pontoon bridge at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  bridge_hit: (e) => tn('Bridge at {hex} hit {n} time ({total} of 4)', 'Bridge at {hex} hit {n} times ({total} of 4)', e.hits, { hex: hexText(e.hex), total: e.total }),
  mine_revealed: (e, n) => {
    const what = e.value ? t('strength {n}', { n: e.value }) : t('a decoy');
    return e.unit ? t('{unit} enters a minefield at {hex}: {what}', { unit: n(e.unit), hex: hexText(e.hex), what }) : t('Minefield at {hex}: {what}', { hex: hexText(e.hex), what });
  },
  mine_removed: (e, n) => `${t('Minefield at {hex} removed', { hex: hexText(e.hex) })}${e.reason === 'decoy' ? ' ' + t('(a decoy)') : e.reason === 'cleared' ? ' ' + (e.unit ? t('(cleared by {unit})', { unit: n(e.unit) }) : t('(cleared)')) : ''}`,
  hazard: (e, n) => `${t('{unit} crosses a {hazard} at {hex}', { unit: n(e.unit), hazard: e.kind === 'frozen_river' ? FROZEN_RIVER : titleCase(e.kind || 'hazard'), hex: hexText(e.hex) })}${typeof e.dice === 'number' ? ` (${tn('{n} die, stars hit', '{n} dice, stars hit', e.dice)})` : ''}`,
  cross_hair_placed: (e, n) => t('{unit} places a cross-hair on {hex} (ranged in for the next shots)', { unit: n(e.unit), hex: hexText(e.hex) }),
  boat_lost: (e, n) => t('{unit} steps ashore: the boat is lost', { unit: n(e.unit) }),
  visibility_changed: (e) => `${t('Visibility {from} → {n}', { from: e.from ?? '?', n: e.visibility })}${e.visibility >= 6 ? ': ' + t('full daylight') : e.visibility <= 1 ? ': ' + t('dark night') : ''} (${tn('units see {n} hex far', 'units see {n} hexes far', Math.min(e.visibility, 6))})`,
  unit_dropped: (e, n) => t('{unit} lands at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  card_offered: (e) => t('{side} lays {card} face up for exchange', { side: sideName(e.side), card: cardName(e) }),
  card_taken: (e) => (e.secret && e.secret.given ? t('{side} takes {card}, giving {given}', { side: sideName(e.side), card: cardName(e), given: term(e.secret.given.name) }) : t('{side} takes {card} in exchange for a card', { side: sideName(e.side), card: cardName(e) })),
  card_exchanged: (e) => `${t('{side} exchanges a card face down', { side: sideName(e.seat || e.side) })}${e.secret && e.secret.card ? ' (' + term(e.secret.card.name) + ')' : ''}`,
  cards_exchange_started: (e) => t('{side} offers cards for exchange', { side: sideName(e.side) }),
  regrouping_declared: (e) => t('{side} declares Restoring Order: every unit may regroup, none may advance', { side: sideName(e.seat || e.side) }),
  army_advance_declared: (e) => t('{side} declares The Big Push: every unit must advance', { side: sideName(e.seat || e.side) }),
  cards_ended: (e) => tn('{side} plays {n} command card this turn', '{side} plays {n} command cards this turn', e.count, { side: sideName(e.side) }),
  unit_entered: (e, n) => `${t('{unit} enters at {hex}', { unit: n(e.unit), hex: hexText(e.hex) })}${e.reason === 'armor_breakthrough' ? ' ' + t('(armor breakthrough)') : ''}`,
  drop_lost: (e) => (e.hex ? t('A {side} unit is lost in the airdrop at {hex}', { side: sideName(e.side), hex: hexText(e.hex) }) : t('A {side} unit is lost in the airdrop (off the board)', { side: sideName(e.side) })),
  supply_train_arrived: (e) => tn('The {side} supply train reaches the station: {n} unit to unload', 'The {side} supply train reaches the station: {n} units to unload', e.units, { side: sideName(e.side) }),
  unit_reinforced: (e, n) => t('{unit} gets off the train at {hex}', { unit: n(e.unit), hex: hexText(e.hex) }),
  reinforcement_lost: (e) => tn('{n} {side} unit cannot get off the train (no room)', '{n} {side} units cannot get off the train (no room)', e.count, { side: sideName(e.side) }),
  camouflage_removed: (e) => t('Camouflage at {hex} is lost', { hex: hexText(e.hex) }),
  // Overlord / team play
  card_dispatched: (e) => {
    const w = { side: sideName(e.seat || e.side), card: e.secret && e.secret.card ? term(e.secret.card.name) : t('a card') };
    return e.secret && e.secret.to ? t('{side} gives {card} to the {role}', { ...w, role: ROLE_NAMES[e.secret.to] }) : t('{side} gives {card}', w);
  },
  dispatch_undone: (e) => t('{side} takes back {card}', { side: sideName(e.seat || e.side), card: e.secret && e.secret.card && e.secret.card.name ? term(e.secret.card.name) : t('a card') }),
  orders_dispatched: (e) => dispatchSentence(e),
  cards_received: (e) => `${tn('{side} receives {n} card', '{side} receives {n} cards', e.count, { side: sideName(e.seat) })}${e.secret && e.secret.cards ? ': ' + e.secret.cards.map((c) => term(c.name)).join(', ') : ''}`,
  initiative_declined: (e) => t('{side} does not act on initiative', { side: sideName(e.seat) }),
  initiative_rolled: (e) => t('{side} acts on initiative: {face} — {effect}', { side: sideName(e.seat), face: FACE_WORDS[e.face] || titleCase(e.face), effect: initiativeEffect(e.face, e.effect) }),
  commissar_card_placed: (e) => `${t('{side} puts a card under the Commissar chip', { side: sideName(e.seat || e.side) })}${e.count !== undefined && e.count !== null ? ` (${e.count})` : ''}`,
  dice_rolled: (e, n) => e.kind === 'campaign' ? campaignRoll(e) : e.kind === 'initiative' ? t('{side} rolls for initiative', { side: sideName(e.seat || e.side) })
    : ROLL_ONLY[e.kind] ? `${t('{unit} rolls', { unit: e.unit ? n(e.unit) : sideName(e.side) })} ${ROLL_ONLY[e.kind]}`
      : `${t('{unit} rolls', { unit: e.unit ? n(e.unit) : sideName(e.side) })}${ROLL_KIND[e.kind] ? ' ' + ROLL_KIND[e.kind] : ''}${e.target_unit ? ' ' + t('at {target}', { target: n(e.target_unit) }) : ''}: ${tn('{n} hit', '{n} hits', e.hits ?? 0)}${e.flags ? ', ' + tn('{n} flag', '{n} flags', e.flags) : ''}`,
  hits: (e, n) => tn('{unit} loses {n} figure', '{unit} loses {n} figures', e.hits ?? e.count ?? 0, { unit: n(e.unit || e.target_unit) }),
  unit_hit: (e, n) => `${tn('{unit} loses {n} figure', '{unit} loses {n} figures', e.figures_lost ?? e.hits ?? 1, { unit: n(e.unit) })}${e.figures !== undefined ? ` (${t('{n} left', { n: e.figures })})` : ''}`,
  casualties: (e, n) => tn('{unit} loses {n} figure', '{unit} loses {n} figures', e.hits ?? e.figures ?? 0, { unit: n(e.unit) }),
  unit_eliminated: (e, n) => t('{unit} is eliminated', { unit: n(e.unit) }),
  eliminated: (e, n) => t('{unit} is eliminated', { unit: n(e.unit) }),
  retreat: (e, n) => t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  retreated: (e, n) => t('{unit} retreats to {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  take_ground: (e, n) => t('{unit} takes ground at {hex}', { unit: n(e.unit), hex: hexText(e.to) }),
  medal: (e) => `${t('{side} gains a medal', { side: sideName(e.side || e.seat) })}${e.reason ? ' (' + t(String(e.reason).replace(/_/g, ' ')) + ')' : ''}`,
  medal_gained: (e) => `🎖 ${e.count > 1 ? t('{side} gain {n} medals', { side: sideName(e.side || e.seat), n: e.count }) : t('{side} gains a medal', { side: sideName(e.side || e.seat) })}${e.reason ? ' (' + t(String(e.reason).replace(/_/g, ' ')) + ')' : ''}`,
  medal_lost: (e) => (e.count > 1 ? t('{side} loses {n} medals', { side: sideName(e.side || e.seat), n: e.count }) : t('{side} loses a medal', { side: sideName(e.side || e.seat) })),
  card_drawn: (e) => t('{side} draws {card}', { side: sideName(e.seat || e.side), card: e.secret && e.secret.cards ? e.secret.cards.map((c) => term(c.name)).join(', ') : (e.count > 1 ? t('{n} cards', { n: e.count }) : t('a card')) }),
  draw: (e) => t('{side} draws {card}', { side: sideName(e.seat), card: e.secret && e.secret.card ? term(e.secret.card.name) : t('a card') }),
  turn_start: (e) => t('— Turn {turn}: {side} —', { turn: e.turn ?? '', side: sideName(e.side || e.seat) }),
  turn_started: (e) => t('— Turn {turn}: {side} —', { turn: e.turn ?? '', side: sideName(e.side || e.seat) }),
  turn_end: (e) => t('{side} ends the turn', { side: sideName(e.side || e.seat) }),
  game_over: (e) => `${t('Game over')}: ${e.winner ? t('{side} win', { side: sideName(e.winner) }) : t('no winner')}${e.reason ? ' (' + (GAME_OVER_REASONS[e.reason] || e.reason) + ')' : ''}`,
  turn_passed: (e) => t('{side} has no Command card to play: turn passed', { side: sideName(e.seat || e.side) }),
  last_turn: (e) => `${t('Last turn for {side}', { side: sideName(e.side) })}${e.reason ? ' (' + String(e.reason).replace(/_/g, ' ') + ')' : ''}`,
  victory: (e) => t('{side} win the battle!', { side: sideName(e.winner || e.side) }),
};

// a battle that is not an ordered unit's battle (battle_declared kinds)
const DECLARED_KIND = { overrun: t('Armor overrun'), ambush: t('Ambush'), firefight: t('Firefight'),
  charge_defence: t('Infantry charge'), battle_back: t('Battle back'), air_power: t('Air Power'), barrage: t('Barrage') };
// (a t() call is extracted only outside another call's arguments)
const FROZEN_RIVER = t('frozen river');
function unseenUnit(side) { const text = t('An unseen {side} unit', { side: sideName(side) }); return text; }

// what a unit tries (action_declared kinds); who: the unit or side
const ACTION_KIND = {
  seal_cave: (who) => t('{who} tries to seal the cave', { who }), heal: (who) => t('{who} tries to heal', { who }),
  blow_bridge: (who) => t('{who} tries to blow the bridge', { who }), bombard_bridge: (who) => t('{who} fires at the bridge', { who }),
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
  armor: (o) => t('{side} must remove a tank model', { side: o }), inf: (o) => t('{side} must remove an infantry figure', { side: o }),
  star: (o) => t('{side} must start with one Command card less', { side: o }), flag: (o) => t('{side} must retreat a unit 1 hex', { side: o }),
  grenade: (o, s) => t('{side} must remove a figure from a unit of the {enemy}', { side: s, enemy: o }),
};
const FACE_WORD = { armor: t('tank'), inf: t('infantry'), star: t('star'), flag: t('flag'), grenade: t('grenade') };
const FACE_WORDS = { armor: t('Armor'), inf: t('Infantry'), star: t('Star'), flag: t('Flag'), grenade: t('Grenade') };
function campaignRoll(e) {
  const side = e.side || String(e.seat || '').split(':')[0];
  const s = sideName(side);
  const o = sideName(side === 'AXIS' ? 'ALLIES' : 'AXIS');
  const faces = (e.dice || []).map((d) => (typeof d === 'object' && d ? d.face : d));
  const head = tn('{side} rolls {n} pre-battle die (campaign)', '{side} rolls {n} pre-battle dice (campaign)', faces.length, { side: s });
  if (!faces.length) return `${head}: ${t('no effect')}`;
  const effects = faces.map((f) => (CAMPAIGN_FACE[f] ? CAMPAIGN_FACE[f](o, s) : `${titleCase(f)}: ${t('no effect')}`));
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
