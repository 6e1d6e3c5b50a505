// The one place that maps the engine's action vocabulary to UI gestures.
//
// The client never decides what is legal: it receives `legal` (the engine's
// legal_actions for this seat, fully parameterised) and sends one of them back
// unchanged. This module only looks at the *shape* of each action to decide how the
// player picks it:
//   card  : the action names a card of the hand          -> click the card
//   unit  : the action names a unit and no hex           -> click the unit
//   hex   : the action names a hex (maybe also a unit)   -> select the unit, click the hex
//   button: anything else                                -> a button in the action bar
// ACTIONS below adds labels, highlight colours and hints per known type; an unknown
// type still works through the generic shape rules.
import { titleCase, sideName } from './util.js';

// kind = highlight class on the board (move, battle, retreat, take_ground, target, choice)
function cardNameIn(view, id) {
  for (const s of Object.values((view && view.sides) || {})) {
    const c = (s.hand || []).find((x) => String(x.id) === String(id));
    if (c) return c.name;
  }
  const p = (view && view.pending) || {};
  const c = (p.cards || []).find((x) => String(x.id) === String(id));
  return c ? c.name : `card ${id}`;
}
function offeredName(view, id) {
  const c = (((view && view.pending) || {}).offered || []).find((x) => String(x.id) === String(id));
  return c ? c.name : `card ${id}`;
}
const hexT = (h) => (Array.isArray(h) ? `(${h[0]},${h[1]})` : '');
// what an Overlord Field General's Counter-Attack copies (play_card field `copy`)
export const COPY_LABEL = {
  field_general: "copy the opposite Field General's card", cinc: "copy the enemy C-in-C's card",
};

// `pass` means something different in every window that offers it
const PASS_LABEL = {
  ambush: 'No ambush (pass)', battle_back: "Don't battle back", desert_move: "Don't move further",
  overrun: 'No armor overrun', initiative: 'Do nothing (no initiative)',
  play_card: 'No Command card: pass the turn',
};

export const ACTIONS = {
  play_card:        { label: 'Play card', gesture: 'card',
                      // Recon played as Air Power (air_strikes_rules / blitz_rules): a second, distinct choice
                      // Overlord Counter-Attack with both sources: copy: field_general | cinc
                      resolve: (a, view) => (a.half !== undefined ? null : {
                        gesture: 'card', card: a.card,
                        label: a.as === 'air_power' ? `Play ${cardNameIn(view, a.card)} as Air Power` : `Play ${cardNameIn(view, a.card)}${a.as ? ' as ' + titleCase(a.as) : ''}${a.copy ? ': ' + (COPY_LABEL[a.copy] || titleCase(a.copy)) : ''}`,
                      }) },
  play:             { label: 'Play card', gesture: 'card' },
  discard:          { label: 'Discard', gesture: 'card' },
  keep_card:        { label: 'Keep card', gesture: 'card' },
  choose_card:      { label: 'Keep this card', gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: `Keep ${cardNameIn(view, a.card)}` }) },
  dispatch:         { label: 'Give card', gesture: 'card' },
  undo_dispatch:    { label: 'Take the card back', gesture: 'card' },
  visit:            { label: 'Visit', resolve: (a) => ({ gesture: 'button', label: `Visit the ${titleCase(a.fg)} Field General` }) },
  gung_ho:          { label: 'Gung-Ho', resolve: (a) => ({ gesture: 'button', label: `Gung-Ho: the ${titleCase(a.fg)} Field General orders 1 more unit` }) },
  confirm_dispatch: { label: 'Confirm orders', primary: true },
  initiative:       { label: 'Act on initiative (roll 1 die)', primary: true },
  order:            { label: 'Order', gesture: 'unit', hint: 'Click to order this unit' },
  order_unit:       { label: 'Order', gesture: 'unit', hint: 'Click to order this unit' },
  unorder:          { label: 'Cancel order', gesture: 'unit' },
  end_orders:       { label: 'Done ordering', primary: true },
  move:             { label: 'Move', kind: 'move', hint: 'Move here',
                      resolve: (a, view) => ({ gesture: 'hex', hex: a.to, unit: a.unit,
                        label: (view && view.pending && view.pending.type === 'desert_move') ? `Desert move to ${hexT(a.to)}` : `Move to ${hexT(a.to)}` }) },
  end_movement:     { label: 'Done moving', primary: true },
  end_moves:        { label: 'Done moving', primary: true },
  end_move:         { label: 'Done moving', primary: true },
  battle:           { label: 'Battle', kind: 'battle', hint: 'Battle this unit' },
  attack:           { label: 'Battle', kind: 'battle', hint: 'Battle this unit' },
  firefight:        { label: 'Continue the firefight', kind: 'battle', hint: 'Continue the firefight (one die less, grenades ignored, no take ground)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.target, unit: a.unit, label: `Continue the firefight at ${hexT(a.target)}` }) },
  end_battles:      { label: 'Done battling', primary: true },
  end_battle:       { label: 'Done battling', primary: true },
  retreat:          { label: 'Retreat', kind: 'retreat', hint: 'Retreat here',
                      resolve: (a) => ({ gesture: 'hex', hex: a.to, unit: a.unit,
                        label: `Retreat to ${hexT(a.to)}${a.ignore ? `, ignoring ${a.ignore} flag${a.ignore > 1 ? 's' : ''}` : ''}${a.losses ? ` (loses ${a.losses} figure${a.losses > 1 ? 's' : ''})` : ''}` }) },
  take_ground:      { label: 'Take ground', kind: 'take_ground', hint: 'Take ground: move into the vacated hex',
                      // {take: true|false}: the hex is the pending decision's hex
                      resolve: (a, view) => (a.take === false
                        ? { gesture: 'button', label: "Don't take ground" }
                        : { gesture: 'hex', hex: (view && view.pending && view.pending.hex) || null, unit: null, label: 'Take ground' }) },
  overrun:          { label: 'Armor overrun', kind: 'battle', hint: 'Armor overrun: battle again' },
  skip_take_ground: { label: "Don't take ground" },
  decline:          { label: 'Decline' },
  pass:             { label: 'Pass',
                      resolve: (a, view) => ({ gesture: 'button', label: PASS_LABEL[view && view.pending && view.pending.type] || 'Pass' }) },
  ignore_flag:      { label: 'Ignore a flag' },
  ambush:           { label: 'Ambush! (battle back first)', primary: true },
  battle_back:      { label: 'Battle back (1 die)', primary: true },
  target:           { label: 'Target', kind: 'target', hint: 'Target this hex' },
  end_targets:      { label: 'Done choosing targets', primary: true },
  choose_section:   { label: 'Choose section', resolve: (a) => ({ gesture: 'button', label: `Section: ${['Left', 'Centre', 'Right'][a.section] ?? a.section}` }) },
  end_turn:         { label: 'End turn', primary: true },
  remove_wire:      { label: 'Remove the wire (instead of battling)', gesture: 'unit', hint: 'Remove the barbed wire' },
  clear_mine:       { label: 'Clear the minefield (instead of battling)', gesture: 'unit', hint: 'Clear the minefield' },
  remove_roadblock: { label: 'Remove the road block (instead of battling)', gesture: 'unit', hint: 'Remove the road block' },
  seal_cave:        { label: 'Seal the cave (roll instead of battling)', gesture: 'unit', hint: 'Seal the cave' },
  heal:             { label: 'Heal (roll instead of battling)', gesture: 'unit', hint: 'Heal: recover figures' },
  blow_bridge:      { label: 'Blow the bridge', kind: 'target', hint: 'Blow this bridge (2 dice, a star destroys it)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: `Blow the bridge at ${hexT(a.hex)}` }) },
  rig_bridge:       { label: 'Place charges on the bridge', kind: 'target', hint: 'Place charges on this bridge (the engineer\'s whole action)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: `Place charges on the bridge at ${hexT(a.hex)}` }) },
  bombard_bridge:   { label: 'Fire at the bridge', kind: 'target', hint: 'Fire at this bridge (each tank symbol is a hit, 4 destroy it)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: `Fire at the bridge at ${hexT(a.hex)}` }) },
  build_pontoon:    { label: 'Build a pontoon bridge', kind: 'target', hint: 'Place a pontoon bridge on this river hex (the engineer\'s whole action)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: `Build a pontoon bridge at ${hexT(a.hex)}` }) },
  exit:             { label: 'Exit the board (medal)', kind: 'choice', hint: 'Leave the board here (medal)' },
  initiative_unit:  { label: 'Initiative', kind: 'retreat', hint: 'Initiative: this unit' },
  commissar:        { label: 'Put under the Commissar chip', gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: `Put ${cardNameIn(view, a.card)} under the Commissar chip` }) },
  end_commissar:    { label: 'Done with the Commissar chip', primary: true },
  roll:             { label: 'Roll the dice' },
  place_smoke:      { label: 'Place smoke', kind: 'target', hint: 'Place a smoke hex here (blocks line of sight)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: `Smoke at ${hexT(a.hex)}` }) },
  end_smoke:        { label: 'Done placing smoke', primary: true },
  airdrop:          { label: 'Drop here', kind: 'target', hint: 'Airdrop: the units land around this hex (they drift at random)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: `Airdrop on ${hexT(a.hex)}` }) },
  reinforce:        { label: 'Unload here', kind: 'target', hint: 'Supply train: a unit gets off the train here',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: `Unload at ${hexT(a.hex)}` }) },
  // option discard_useless_cards (004 "Methods For Discarding Useless Cards")
  exchange_card:    { label: 'Exchange (Method 2)', gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: `Exchange ${cardNameIn(view, a.card)} face down (Method 2: then 1 unit battles without moving)` }) },
  offer_cards:      { label: 'Lay cards face up for exchange (Method 1, once per game)' },
  offer:            { label: 'Lay face up', gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: `Lay ${cardNameIn(view, a.card)} face up` }) },
  end_offer:        { label: 'Done laying cards', primary: true },
  take:             { label: 'Take',
                      resolve: (a, view) => ({ gesture: 'button', label: `Take ${offeredName(view, a.card)}, give ${cardNameIn(view, a.give)}` }) },
  end_exchange:     { label: 'Take no (more) cards', primary: true },
  // option army_manoeuvres (004 Army Manoeuvres, Extra Command Cards)
  end_cards:        { label: 'No more cards this turn (move)', primary: true },
  restoring_order:  { label: 'Restoring Order (once per game): order every unit, none may advance toward the enemy; only units that do not move may battle' },
  big_push:         { label: 'The Big Push (once per game): order every unit, each must advance toward the enemy' },
  // option campaign (004 Simplified Campaign Rules, pre-battle dice)
  campaign_remove:  { label: 'Remove a figure (pre-battle)', gesture: 'unit', hint: 'Pre-battle roll: this unit loses a figure' },
  campaign_retreat: { label: 'Retreat (pre-battle)', kind: 'retreat', hint: 'Pre-battle roll: retreat this unit here',
                      resolve: (a) => ({ gesture: 'hex', hex: a.to, unit: a.unit, label: `Pre-battle retreat to ${hexT(a.to)}` }) },
  armor_breakthrough: { label: 'Armor breakthrough', kind: 'target', hint: 'Armor breakthrough: a new tank enters here (uses one order; it stops, may battle, no overrun)',
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: `Armor breaks through at ${hexT(a.hex)}` }) },
};

export const PHASES = {
  order: 'Order phase: play a command card, then order units',
  play_card: 'Play a command card',
  card: 'Play a command card',
  orders: 'Order units in the card\'s sections',
  move: 'Movement: move ordered units',
  movement: 'Movement: move ordered units',
  battle: 'Battle: ordered units fire',
  combat: 'Battle: ordered units fire',
  retreat: 'Retreat',
  take_ground: 'Take ground',
  draw: 'Draw a new command card',
  end: 'End of turn',
  dispatch: 'The C-in-C dispatches orders',
  cinc: "The C-in-C's own card",
  fg: 'Field Generals act',
  commissar: 'Commissar chip',
  commissar_setup: 'Commissar chip',
  game_over: 'Game over',
  recon: 'Recon: choose which card to keep',
  target: 'Choose targets',
  choose_section: 'Choose a section',
  chance: 'Rolling dice',
  battle_back: 'Battle back',
  desert_move: 'Desert move',
  place_smoke: 'Smoke screen',
  airdrop: 'Airdrop',
  reinforce: 'Supply train',
  offer: 'Card exchange: lay cards face up',
  exchange: 'Card exchange: the opponent takes cards',
  null: 'The enemy acts (fog of war)',
  campaign: 'Campaign: pre-battle roll',
};

const PENDING = {
  waiting: (p) => p.seat === 'chance' ? 'Dice are rolled' : `${sideName(p.seat)} acts (hidden by the fog of war)`,
  play_card: (p) => (p.played ? `${sideName(p.seat)} may play another command card for a free section (${p.played} played this turn), or move`
    : `${sideName(p.seat)} must play a command card`),
  order: (p) => `${sideName(p.seat)}: order units in the card's sections`,
  move: (p) => `${sideName(p.seat)}: move ordered units`,
  battle: (p) => `${sideName(p.seat)}: battle with ordered units`,
  target: (p) => `${sideName(p.seat)}: choose targets`,
  choose_section: (p) => `${sideName(p.seat)} chooses a section`,
  retreat: (p, u) => `${sideName(p.seat)} must retreat ${u}${p.hexes || p.flags ? ` ${p.hexes || p.flags} hex${(p.hexes || p.flags) > 1 ? 'es' : ''}` : ''}`,
  ambush: (p, u) => `${sideName(p.seat)} may react with an Ambush card (${u} is attacked at close range) or pass`,
  take_ground: (p, u) => `${sideName(p.seat)} may take ground with ${u}`,
  overrun: (p, u) => `${sideName(p.seat)} may make an armor overrun with ${u}`,
  choose_card: (p) => `${sideName(p.seat)} chooses which drawn card to keep`,
  ignore_flag: (p, u) => `${sideName(p.seat)} may ignore a flag for ${u}`,
  discard: (p) => `${sideName(p.seat)} must discard a card`,
  dispatch: (p) => `${sideName(p.seat)} gives command cards to his Field Generals`,
  initiative: (p) => `${sideName(p.seat)} received no card: he may act on initiative`,
  initiative_unit: (p) => `${sideName(p.seat)} chooses the unit for his initiative roll`,
  commissar: (p) => `${sideName(p.seat)} puts a card under the Commissar chip (it must be played next turn)`,
  commissar_setup: (p) => `${sideName(p.seat)} puts cards under the Commissar chip`,
  battle_back: (p, u) => `${sideName(p.seat)} may battle back with ${u} (1 die, no terrain reduction)${p.attacker ? ' against ' + p.unitName(p.attacker) : ''}, or pass`,
  desert_move: (p, u) => `${sideName(p.seat)} may move ${u} one more hex before its overrun (desert rules), or stay`,
  roll: (p, u) => `Rolling ${p.dice ?? ''} ${p.dice === 1 ? 'die' : 'dice'}${p.for ? ' for ' + (ROLL_FOR[p.for] || titleCase(p.for)) : ''}${p.unit ? ' (' + u + ')' : ''}…`,
  visit: (p) => `${sideName(p.seat)} chooses the Field General to visit`,
  place_smoke: (p) => `${sideName(p.seat)} places a smoke screen before the battle${p.left !== undefined ? ` (${p.left} hex${p.left === 1 ? '' : 'es'} left)` : ''}: click a highlighted hex, each one next to a smoke hex already placed`,
  reinforce: (p) => `${sideName(p.seat)} unloads the supply train${p.left !== undefined ? ` (${p.left} unit${p.left === 1 ? '' : 's'} left)` : ''}: click a highlighted hex next to the train`,
  offer_cards: (p) => `${sideName(p.seat)} lays unwanted cards face up (${(p.offered || []).length} so far); the opponent may take any of them`,
  exchange: (p) => `${sideName(p.seat)} may take laid cards (${(p.offered || []).map((c) => c.name).join(', ')}), giving one of his own for each`,
  campaign_loss: (p) => `Pre-battle roll (${FACE_WORDS[p.face] || p.face} of ${sideName(p.roller)}): ${sideName(p.seat)} chooses the unit that loses a figure`,
  campaign_retreat: (p) => `Pre-battle roll (flag of ${sideName(p.roller)}): ${sideName(p.seat)} retreats one of his units 1 hex`,
  airdrop: (p) => `${sideName(p.seat)} chooses the airdrop hex${p.units ? ` for ${Array.isArray(p.units) ? p.units.length : p.units} unit(s)` : ''}${p.range ? `; each drifts ${p.range} random step${p.range > 1 ? 's' : ''}` : ''}`,
};

const FACE_WORDS = { armor: 'black tank', inf: 'blue infantryman', grenade: 'red grenade', flag: 'purple flag', star: 'green star' };

export const ROLL_FOR = {
  battle: 'a battle', overrun: 'an armor overrun', ambush: 'an ambush', air_power: 'Air Power', barrage: 'a barrage',
  their_finest_hour: 'Their Finest Hour', medics: 'Medics & Mechanics', mine: 'a minefield', hazard: 'a hazard (frozen river)',
  tiger: 'a Tiger', battle_back: 'battling back', night: 'night visibility', seal_cave: 'sealing a cave',
  heal: 'healing', blow_bridge: 'blowing the bridge', bombard_bridge: 'firing at the bridge', initiative: 'initiative', charge_defence: 'the defender against an infantry charge', firefight: 'a continuing firefight',
  campaign: 'the pre-battle roll (campaign)', common_cold: 'the Common Cold (Martians)',
};

export function describePending(p, unitName) {
  if (!p) return '';
  const u = p.unit ? unitName(p.unit) : 'a unit';
  const f = PENDING[p.type];
  if (f) return f({ ...p, unitName }, u);
  return `Waiting for ${sideName(p.seat)}: ${titleCase(p.type)}${p.unit ? ' (' + u + ')' : ''}`;
}

export function describePhase(phase) {
  return PHASES[phase] || titleCase(phase || '');
}

const HEX_KEYS = ['to', 'hex', 'target', 'dest', 'destination', 'at'];
const UNIT_KEYS = ['unit', 'unit_id', 'attacker'];
const CARD_KEYS = ['card', 'card_id'];
const IGNORED = new Set(['type', 'seat']);

function isHex(v) { return Array.isArray(v) && v.length === 2 && v.every((x) => Number.isInteger(x)); }

// Break one legal action into {unit, hex, card, extra} by looking at its fields.
export function analyse(action, view) {
  const out = { action, type: action.type, unit: null, hex: null, card: null, extra: {} };
  for (const [k, v] of Object.entries(action)) {
    if (IGNORED.has(k)) continue;
    if (CARD_KEYS.includes(k) && (typeof v === 'number' || typeof v === 'string')) out.card = v;
    else if (UNIT_KEYS.includes(k) && typeof v === 'string') out.unit = v;
    else if (HEX_KEYS.includes(k) && isHex(v)) out.hex = v;
    else if (k === 'path' && Array.isArray(v) && v.length && isHex(v[v.length - 1])) { out.hex = v[v.length - 1]; out.pathLen = v.length; }
    else out.extra[k] = v;
  }
  const spec = ACTIONS[action.type] || {};
  const r = spec.resolve ? spec.resolve(action, view) : null;
  if (r) {
    Object.assign(out, r);
    if (r.gesture === 'hex' && !r.hex) out.gesture = 'button';
    out.kind = spec.kind || 'choice';
    return out;
  }
  if (spec.gesture === 'card' && out.card !== null) out.gesture = 'card';
  else if (out.card !== null && out.unit === null && out.hex === null) out.gesture = 'card';
  else if (out.hex) out.gesture = 'hex';
  else if (out.unit) out.gesture = 'unit';
  else out.gesture = 'button';
  out.kind = spec.kind || (out.gesture === 'hex' ? 'choice' : null);
  return out;
}

export function actionLabel(a, unitName, view) {
  const spec = ACTIONS[a.type] || {};
  const info = analyse(a, view);
  if (info.label) return info.label;
  let label = spec.label || titleCase(a.type);
  const extras = Object.entries(info.extra).filter(([, v]) => v !== null && typeof v !== 'object');
  const val = (k, v) => {
    if (typeof v === 'string' && /^(AXIS|ALLIES)(:|$)/.test(v)) return sideName(v);
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    return typeof v === 'string' ? titleCase(v) : v;
  };
  if (extras.length) label += ` (${extras.map(([k, v]) => `${titleCase(k)} ${val(k, v)}`).join(', ')})`;
  if (info.gesture === 'unit' && unitName && info.unit) label += `: ${unitName(info.unit)}`;
  return label;
}

export function isPrimary(a) { return !!(ACTIONS[a.type] || {}).primary; }

// Build the interaction model from the legal list and the current selection.
// Returns { cards: Map(cardId -> [actions]), units: Map(unitId -> {unitOnly:[], hex:[]}),
//           freeHex: [info] (hex actions without a unit), buttons: [actions] }
export function buildModel(legal, view) {
  const model = { cards: new Map(), units: new Map(), freeHex: [], buttons: [] };
  for (const a of legal || []) {
    const info = analyse(a, view);
    if (info.gesture === 'card') {
      const k = String(info.card);
      if (!model.cards.has(k)) model.cards.set(k, []);
      model.cards.get(k).push(info);
    } else if (info.gesture === 'hex' && info.unit) {
      unitEntry(model, info.unit).hex.push(info);
    } else if (info.gesture === 'hex') {
      model.freeHex.push(info);
    } else if (info.gesture === 'unit') {
      unitEntry(model, info.unit).unitOnly.push(info);
    } else {
      model.buttons.push(info);
    }
  }
  return model;
}

function unitEntry(model, id) {
  if (!model.units.has(id)) model.units.set(id, { unitOnly: [], hex: [] });
  return model.units.get(id);
}

// The unit to preselect: the only unit with hex actions (e.g. a retreat).
export function autoSelect(model) {
  const withHex = [...model.units.entries()].filter(([, e]) => e.hex.length);
  if (withHex.length === 1 && model.units.size === 1) return withHex[0][0];
  return null;
}

// Highlights for the board given a selected unit.
export function highlightsFor(model, selected, unitName) {
  const out = [];
  const seen = new Map();
  const add = (info) => {
    const k = `${info.hex[0]},${info.hex[1]}`;
    const spec = ACTIONS[info.type] || {};
    let label = null;
    if (info.extra.dice !== undefined) label = `${info.extra.dice}🎲`;
    const hint = `${spec.hint || titleCase(info.type)}${info.extra.dice !== undefined ? ` — ${info.extra.dice} dice` : ''}`;
    if (seen.has(k)) { seen.get(k).actions.push(info); return; }
    const h = { hex: info.hex, kind: info.kind || 'choice', label, hint, actions: [info] };
    seen.set(k, h);
    out.push(h);
  };
  if (selected && model.units.has(selected)) model.units.get(selected).hex.forEach(add);
  model.freeHex.forEach(add);
  return out;
}
