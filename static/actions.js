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
import { t, tn, term } from './i18n.js';

// kind = highlight class on the board (move, battle, retreat, take_ground, target, choice)
function cardNameIn(view, id) {
  for (const s of Object.values((view && view.sides) || {})) {
    const c = (s.hand || []).find((x) => String(x.id) === String(id));
    if (c) return term(c.name);
  }
  const p = (view && view.pending) || {};
  const c = (p.cards || []).find((x) => String(x.id) === String(id));
  return c ? term(c.name) : t('card {id}', { id });
}
function offeredName(view, id) {
  const c = (((view && view.pending) || {}).offered || []).find((x) => String(x.id) === String(id));
  return c ? term(c.name) : t('card {id}', { id });
}
const hexT = (h) => (Array.isArray(h) ? `(${h[0]},${h[1]})` : '');
// what an Overlord Field General's Counter-Attack copies (play_card field `copy`)
export const COPY_LABEL = {
  field_general: t("copy the opposite Field General's card"), cinc: t("copy the enemy C-in-C's card"),
};

// `pass` means something different in every window that offers it
const PASS_LABEL = {
  ambush: t('No ambush (pass)'), battle_back: t("Don't battle back"), desert_move: t("Don't move further"),
  overrun: t('No armor overrun'), initiative: t('Do nothing (no initiative)'),
  play_card: t('No Command card: pass the turn'),
};

export const ACTIONS = {
  play_card:        { label: t('Play card'), gesture: 'card',
                      // Recon played as Air Power (air_strikes_rules / blitz_rules): a second, distinct choice
                      // Overlord Counter-Attack with both sources: copy: field_general | cinc
                      resolve: (a, view) => (a.half !== undefined ? null : {
                        gesture: 'card', card: a.card,
                        label: a.as === 'air_power' ? t('Play {card} as Air Power', { card: cardNameIn(view, a.card) }) : `${t('Play {card}', { card: cardNameIn(view, a.card) })}${a.as ? ' ' + t('as {what}', { what: titleCase(a.as) }) : ''}${a.copy ? ': ' + (COPY_LABEL[a.copy] || titleCase(a.copy)) : ''}`,
                      }) },
  play:             { label: t('Play card'), gesture: 'card' },
  discard:          { label: t('Discard'), gesture: 'card' },
  keep_card:        { label: t('Keep card'), gesture: 'card' },
  choose_card:      { label: t('Keep this card'), gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: t('Keep {card}', { card: cardNameIn(view, a.card) }) }) },
  dispatch:         { label: t('Give card'), gesture: 'card' },
  undo_dispatch:    { label: t('Take the card back'), gesture: 'card' },
  visit:            { label: t('Visit'), resolve: (a) => ({ gesture: 'button', label: t('Visit the {fg} Field General', { fg: titleCase(a.fg) }) }) },
  gung_ho:          { label: t('Gung-Ho'), resolve: (a) => ({ gesture: 'button', label: t('Gung-Ho: the {fg} Field General orders 1 more unit', { fg: titleCase(a.fg) }) }) },
  confirm_dispatch: { label: t('Confirm orders'), primary: true },
  initiative:       { label: t('Act on initiative (roll 1 die)'), primary: true },
  order:            { label: t('Order'), gesture: 'unit', hint: t('Click to order this unit') },
  order_unit:       { label: t('Order'), gesture: 'unit', hint: t('Click to order this unit') },
  unorder:          { label: t('Cancel order'), gesture: 'unit' },
  end_orders:       { label: t('Done ordering'), primary: true },
  move:             { label: t('Move'), kind: 'move', hint: t('Move here'),
                      resolve: (a, view) => ({ gesture: 'hex', hex: a.to, unit: a.unit,
                        label: (view && view.pending && view.pending.type === 'desert_move') ? t('Desert move to {hex}', { hex: hexT(a.to) }) : t('Move to {hex}', { hex: hexT(a.to) }) }) },
  end_movement:     { label: t('Done moving'), primary: true },
  end_moves:        { label: t('Done moving'), primary: true },
  end_move:         { label: t('Done moving'), primary: true },
  battle:           { label: t('Battle'), kind: 'battle', hint: t('Battle this unit') },
  attack:           { label: t('Battle'), kind: 'battle', hint: t('Battle this unit') },
  firefight:        { label: t('Continue the firefight'), kind: 'battle', hint: t('Continue the firefight (one die less, grenades ignored, no take ground)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.target, unit: a.unit, label: t('Continue the firefight at {hex}', { hex: hexT(a.target) }) }) },
  end_battles:      { label: t('Done battling'), primary: true },
  end_battle:       { label: t('Done battling'), primary: true },
  retreat:          { label: t('Retreat'), kind: 'retreat', hint: t('Retreat here'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.to, unit: a.unit,
                        label: `${t('Retreat to {hex}', { hex: hexT(a.to) })}${a.ignore ? ', ' + tn('ignoring {n} flag', 'ignoring {n} flags', a.ignore) : ''}${a.losses ? ' ' + tn('(loses {n} figure)', '(loses {n} figures)', a.losses) : ''}` }) },
  take_ground:      { label: t('Take ground'), kind: 'take_ground', hint: t('Take ground: move into the vacated hex'),
                      // {take: true|false}: the hex is the pending decision's hex
                      resolve: (a, view) => (a.take === false
                        ? { gesture: 'button', label: t("Don't take ground") }
                        : { gesture: 'hex', hex: (view && view.pending && view.pending.hex) || null, unit: null, label: t('Take ground') }) },
  overrun:          { label: t('Armor overrun'), kind: 'battle', hint: t('Armor overrun: battle again') },
  skip_take_ground: { label: t("Don't take ground") },
  decline:          { label: t('Decline') },
  pass:             { label: t('Pass'),
                      resolve: (a, view) => ({ gesture: 'button', label: PASS_LABEL[view && view.pending && view.pending.type] || t('Pass') }) },
  ignore_flag:      { label: t('Ignore a flag') },
  ambush:           { label: t('Ambush! (battle back first)'), primary: true },
  battle_back:      { label: t('Battle back (1 die)'), primary: true },
  target:           { label: t('Target'), kind: 'target', hint: t('Target this hex') },
  end_targets:      { label: t('Done choosing targets'), primary: true },
  choose_section:   { label: t('Choose section'), resolve: (a) => ({ gesture: 'button', label: t('Section: {section}', { section: [t('Left'), t('Centre'), t('Right')][a.section] ?? a.section }) }) },
  end_turn:         { label: t('End turn'), primary: true },
  remove_wire:      { label: t('Remove the wire (instead of battling)'), gesture: 'unit', hint: t('Remove the barbed wire') },
  clear_mine:       { label: t('Clear the minefield (instead of battling)'), gesture: 'unit', hint: t('Clear the minefield') },
  remove_roadblock: { label: t('Remove the road block (instead of battling)'), gesture: 'unit', hint: t('Remove the road block') },
  seal_cave:        { label: t('Seal the cave (roll instead of battling)'), gesture: 'unit', hint: t('Seal the cave') },
  heal:             { label: t('Heal (roll instead of battling)'), gesture: 'unit', hint: t('Heal: recover figures') },
  blow_bridge:      { label: t('Blow the bridge'), kind: 'target', hint: t('Blow this bridge (2 dice, a star destroys it)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: t('Blow the bridge at {hex}', { hex: hexT(a.hex) }) }) },
  rig_bridge:       { label: t('Place charges on the bridge'), kind: 'target', hint: t('Place charges on this bridge (the engineer\'s whole action)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: t('Place charges on the bridge at {hex}', { hex: hexT(a.hex) }) }) },
  bombard_bridge:   { label: t('Fire at the bridge'), kind: 'target', hint: t('Fire at this bridge (each tank symbol is a hit, 4 destroy it)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: t('Fire at the bridge at {hex}', { hex: hexT(a.hex) }) }) },
  build_pontoon:    { label: t('Build a pontoon bridge'), kind: 'target', hint: t('Place a pontoon bridge on this river hex (the engineer\'s whole action)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: a.unit, label: t('Build a pontoon bridge at {hex}', { hex: hexT(a.hex) }) }) },
  exit:             { label: t('Exit the board (medal)'), kind: 'choice', hint: t('Leave the board here (medal)') },
  initiative_unit:  { label: t('Initiative'), kind: 'retreat', hint: t('Initiative: this unit') },
  commissar:        { label: t('Put under the Commissar chip'), gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: t('Put {card} under the Commissar chip', { card: cardNameIn(view, a.card) }) }) },
  end_commissar:    { label: t('Done with the Commissar chip'), primary: true },
  roll:             { label: t('Roll the dice') },
  place_smoke:      { label: t('Place smoke'), kind: 'target', hint: t('Place a smoke hex here (blocks line of sight)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: t('Smoke at {hex}', { hex: hexT(a.hex) }) }) },
  end_smoke:        { label: t('Done placing smoke'), primary: true },
  airdrop:          { label: t('Drop here'), kind: 'target', hint: t('Airdrop: the units land around this hex (they drift at random)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: t('Airdrop on {hex}', { hex: hexT(a.hex) }) }) },
  reinforce:        { label: t('Unload here'), kind: 'target', hint: t('Supply train: a unit gets off the train here'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: t('Unload at {hex}', { hex: hexT(a.hex) }) }) },
  // option discard_useless_cards (004 "Methods For Discarding Useless Cards")
  exchange_card:    { label: t('Exchange (Method 2)'), gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: t('Exchange {card} face down (Method 2: then 1 unit battles without moving)', { card: cardNameIn(view, a.card) }) }) },
  offer_cards:      { label: t('Lay cards face up for exchange (Method 1, once per game)') },
  offer:            { label: t('Lay face up'), gesture: 'card',
                      resolve: (a, view) => ({ gesture: 'card', card: a.card, label: t('Lay {card} face up', { card: cardNameIn(view, a.card) }) }) },
  end_offer:        { label: t('Done laying cards'), primary: true },
  take:             { label: t('Take'),
                      resolve: (a, view) => ({ gesture: 'button', label: t('Take {card}, give {give}', { card: offeredName(view, a.card), give: cardNameIn(view, a.give) }) }) },
  end_exchange:     { label: t('Take no (more) cards'), primary: true },
  // option army_manoeuvres (004 Army Manoeuvres, Extra Command Cards)
  end_cards:        { label: t('No more cards this turn (move)'), primary: true },
  restoring_order:  { label: t('Restoring Order (once per game): order every unit, none may advance toward the enemy; only units that do not move may battle') },
  big_push:         { label: t('The Big Push (once per game): order every unit, each must advance toward the enemy') },
  // option campaign (004 Simplified Campaign Rules, pre-battle dice)
  campaign_remove:  { label: t('Remove a figure (pre-battle)'), gesture: 'unit', hint: t('Pre-battle roll: this unit loses a figure') },
  campaign_retreat: { label: t('Retreat (pre-battle)'), kind: 'retreat', hint: t('Pre-battle roll: retreat this unit here'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.to, unit: a.unit, label: t('Pre-battle retreat to {hex}', { hex: hexT(a.to) }) }) },
  armor_breakthrough: { label: t('Armor breakthrough'), kind: 'target', hint: t('Armor breakthrough: a new tank enters here (uses one order; it stops, may battle, no overrun)'),
                      resolve: (a) => ({ gesture: 'hex', hex: a.hex, unit: null, label: t('Armor breaks through at {hex}', { hex: hexT(a.hex) }) }) },
};

export const PHASES = {
  order: t('Order phase: play a command card, then order units'),
  play_card: t('Play a command card'),
  card: t('Play a command card'),
  orders: t('Order units in the card\'s sections'),
  move: t('Movement: move ordered units'),
  movement: t('Movement: move ordered units'),
  battle: t('Battle: ordered units fire'),
  combat: t('Battle: ordered units fire'),
  retreat: t('Retreat'),
  take_ground: t('Take ground'),
  draw: t('Draw a new command card'),
  end: t('End of turn'),
  dispatch: t('The C-in-C dispatches orders'),
  cinc: t("The C-in-C's own card"),
  fg: t('Field Generals act'),
  commissar: t('Commissar chip'),
  commissar_setup: t('Commissar chip'),
  game_over: t('Game over'),
  recon: t('Recon: choose which card to keep'),
  target: t('Choose targets'),
  choose_section: t('Choose a section'),
  chance: t('Rolling dice'),
  battle_back: t('Battle back'),
  desert_move: t('Desert move'),
  place_smoke: t('Smoke screen'),
  airdrop: t('Airdrop'),
  reinforce: t('Supply train'),
  offer: t('Card exchange: lay cards face up'),
  exchange: t('Card exchange: the opponent takes cards'),
  null: t('The enemy acts (fog of war)'),
  campaign: t('Campaign: pre-battle roll'),
};

const PENDING = {
  waiting: (p) => p.seat === 'chance' ? t('Dice are rolled') : t('{side} acts (hidden by the fog of war)', { side: sideName(p.seat) }),
  play_card: (p) => (p.played ? t('{side} may play another command card for a free section ({n} played this turn), or move', { side: sideName(p.seat), n: p.played })
    : t('{side} must play a command card', { side: sideName(p.seat) })),
  order: (p) => t("{side}: order units in the card's sections", { side: sideName(p.seat) }),
  move: (p) => t('{side}: move ordered units', { side: sideName(p.seat) }),
  battle: (p) => t('{side}: battle with ordered units', { side: sideName(p.seat) }),
  target: (p) => t('{side}: choose targets', { side: sideName(p.seat) }),
  choose_section: (p) => t('{side} chooses a section', { side: sideName(p.seat) }),
  retreat: (p, u) => (p.hexes || p.flags ? ((p.hexes || p.flags) === 1 ? t('{side} must retreat {unit} 1 hex', { side: sideName(p.seat), unit: u }) : t('{side} must retreat {unit} {n} hexes', { side: sideName(p.seat), unit: u, n: p.hexes || p.flags })) : t('{side} must retreat {unit}', { side: sideName(p.seat), unit: u })),
  ambush: (p, u) => t('{side} may react with an Ambush card ({unit} is attacked at close range) or pass', { side: sideName(p.seat), unit: u }),
  take_ground: (p, u) => t('{side} may take ground with {unit}', { side: sideName(p.seat), unit: u }),
  overrun: (p, u) => t('{side} may make an armor overrun with {unit}', { side: sideName(p.seat), unit: u }),
  choose_card: (p) => t('{side} chooses which drawn card to keep', { side: sideName(p.seat) }),
  ignore_flag: (p, u) => t('{side} may ignore a flag for {unit}', { side: sideName(p.seat), unit: u }),
  discard: (p) => t('{side} must discard a card', { side: sideName(p.seat) }),
  dispatch: (p) => t('{side} gives command cards to his Field Generals', { side: sideName(p.seat) }),
  initiative: (p) => t('{side} received no card: he may act on initiative', { side: sideName(p.seat) }),
  initiative_unit: (p) => t('{side} chooses the unit for his initiative roll', { side: sideName(p.seat) }),
  commissar: (p) => t('{side} puts a card under the Commissar chip (it must be played next turn)', { side: sideName(p.seat) }),
  commissar_setup: (p) => t('{side} puts cards under the Commissar chip', { side: sideName(p.seat) }),
  battle_back: (p, u) => {
    const against = p.attacker ? ' ' + t('against {unit}', { unit: p.unitName(p.attacker) }) : '';
    return t('{side} may battle back with {unit} (1 die, no terrain reduction){against}, or pass', { side: sideName(p.seat), unit: u, against });
  },
  desert_move: (p, u) => t('{side} may move {unit} one more hex before its overrun (desert rules), or stay', { side: sideName(p.seat), unit: u }),
  roll: (p, u) => `${p.dice === 1 ? t('Rolling 1 die') : t('Rolling {n} dice', { n: p.dice ?? '' })}${p.for ? ' ' + t('for {what}', { what: ROLL_FOR[p.for] || titleCase(p.for) }) : ''}${p.unit ? ' (' + u + ')' : ''}…`,
  visit: (p) => t('{side} chooses the Field General to visit', { side: sideName(p.seat) }),
  place_smoke: (p) => {
    const left = p.left !== undefined ? ' (' + tn('{n} hex left', '{n} hexes left', p.left) + ')' : '';
    return t('{side} places a smoke screen before the battle{left}: click a highlighted hex, each one next to a smoke hex already placed', { side: sideName(p.seat), left });
  },
  reinforce: (p) => {
    const left = p.left !== undefined ? ' (' + tn('{n} unit left', '{n} units left', p.left) + ')' : '';
    return t('{side} unloads the supply train{left}: click a highlighted hex next to the train', { side: sideName(p.seat), left });
  },
  offer_cards: (p) => t('{side} lays unwanted cards face up ({n} so far); the opponent may take any of them', { side: sideName(p.seat), n: (p.offered || []).length }),
  exchange: (p) => t('{side} may take laid cards ({cards}), giving one of his own for each', { side: sideName(p.seat), cards: (p.offered || []).map((c) => term(c.name)).join(', ') }),
  campaign_loss: (p) => t('Pre-battle roll ({face} of {roller}): {side} chooses the unit that loses a figure', { face: FACE_WORDS[p.face] || p.face, roller: sideName(p.roller), side: sideName(p.seat) }),
  campaign_retreat: (p) => t('Pre-battle roll (flag of {roller}): {side} retreats one of his units 1 hex', { roller: sideName(p.roller), side: sideName(p.seat) }),
  airdrop: (p) => {
    const k = Array.isArray(p.units) ? p.units.length : p.units;
    return `${t('{side} chooses the airdrop hex', { side: sideName(p.seat) })}${p.units ? ' ' + tn('for {n} unit', 'for {n} units', k) : ''}${p.range ? '; ' + tn('each drifts {n} random step', 'each drifts {n} random steps', p.range) : ''}`;
  },
};

const FACE_WORDS = { armor: t('black tank'), inf: t('blue infantryman'), grenade: t('red grenade'), flag: t('purple flag'), star: t('green star') };

export const ROLL_FOR = {
  battle: t('a battle'), overrun: t('an armor overrun'), ambush: t('an ambush'), air_power: t('Air Power'), barrage: t('a barrage'),
  their_finest_hour: t('Their Finest Hour'), medics: t('Medics & Mechanics'), mine: t('a minefield'), hazard: t('a hazard (frozen river)'),
  tiger: t('a Tiger'), battle_back: t('battling back'), night: t('night visibility'), seal_cave: t('sealing a cave'),
  heal: t('healing'), blow_bridge: t('blowing the bridge'), bombard_bridge: t('firing at the bridge'), initiative: t('initiative'), charge_defence: t('the defender against an infantry charge'), firefight: t('a continuing firefight'),
  campaign: t('the pre-battle roll (campaign)'), common_cold: t('the Common Cold (Martians)'),
};

export function describePending(p, unitName) {
  if (!p) return '';
  const u = p.unit ? unitName(p.unit) : t('a unit');
  const f = PENDING[p.type];
  if (f) return f({ ...p, unitName }, u);
  return `${t('Waiting for {side}', { side: sideName(p.seat) })}: ${titleCase(p.type)}${p.unit ? ' (' + u + ')' : ''}`;
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
    if (typeof v === 'boolean') return v ? t('yes') : t('no');
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
    const hint = `${spec.hint || titleCase(info.type)}${info.extra.dice !== undefined ? ` — ${t('{n} dice', { n: info.extra.dice })}` : ''}`;
    if (seen.has(k)) { seen.get(k).actions.push(info); return; }
    const h = { hex: info.hex, kind: info.kind || 'choice', label, hint, actions: [info] };
    seen.set(k, h);
    out.push(h);
  };
  if (selected && model.units.has(selected)) model.units.get(selected).hex.forEach(add);
  model.freeHex.forEach(add);
  return out;
}
