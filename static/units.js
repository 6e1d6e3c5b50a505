// Unit appearance and tooltip text. Presentational only: the stats shown come from the
// server's unit object when it sends them (unit.stats / unit.move / unit.dice), else
// from this informational table of the base profiles.
import { titleCase, sideName } from './util.js';
import { t, tn } from './i18n.js';
import { firstActiveTurn, supplyText, supplyTurns } from './conditions.js';

export const NATION = {
  ger: { name: t('German'), fill: '#5f6870', edge: '#2d3338' },
  it:  { name: t('Italian'), fill: '#6f7f8e', edge: '#37424c' },
  jp:  { name: t('Japanese'), fill: '#b38f3e', edge: '#5e4718' },
  us:  { name: t('US'), fill: '#5d7d35', edge: '#2c3e15' },
  brit:{ name: t('British'), fill: '#8a7b44', edge: '#433a17' },
  gb:  { name: t('British'), fill: '#8a7b44', edge: '#433a17' },
  ru:  { name: t('Soviet'), fill: '#8b4a32', edge: '#46210f' },
  fr:  { name: t('French'), fill: '#4f6f98', edge: '#22364f' },
  ch:  { name: t('Chinese'), fill: '#6a7c5a', edge: '#333f28' },
};
const SIDE_DEFAULT = { AXIS: NATION.ger, ALLIES: NATION.us };

export function nationStyle(unit) {
  return VARIANT_STYLE[unit.kind] || NATION[unit.nation] || SIDE_DEFAULT[String(unit.side).split(':')[0]] || { name: '', fill: '#777', edge: '#333' };
}

// Letter drawn on the counter: I infantry, A armor, G gun (artillery); specials mark it.
export function unitLetter(unit) {
  const base = { inf: 'I', armor: 'A', art: 'G' }[unit.class] || '?';
  const special = {
    special_forces: 'I★', elite_armor: 'A★', tiger: 'T', sniper: 'S', engineer: 'E', cavalry: 'C',
    ski: 'Sk', resistance: 'R', big_gun: 'G+', mobile_artillery: 'MG', anti_tank: 'AT', mortar: 'M',
    machine_gun: 'MG', heavy_anti_tank: 'AT', destroyer: 'D', locomotive: 'L', wagon: 'W',
    ...VARIANT_LETTERS,
  }[unit.kind];
  return special || base;
}

// 004 Appendix 3 variants (game option `variant`): the engine's kind names the new units.
export const VARIANT_LETTERS = {
  zombie: 'Z', dalek: 'Dk', special_weapons_dalek: 'Dk★', dalek_mercenary: 'Mc', cyberman: 'Cy',
  martian_fighting_machine: 'Mf', martian_handling_machine: 'Mh',
};
const VARIANT_STYLE = {
  zombie: { name: t('Zombie'), fill: '#4f7a4a', edge: '#1d3a1a' },
  dalek: { name: t('Dalek'), fill: '#8d8f94', edge: '#3c3d40' },
  special_weapons_dalek: { name: t('Dalek'), fill: '#8d8f94', edge: '#3c3d40' },
  dalek_mercenary: { name: t('Mercenary'), fill: '#2b2b2b', edge: '#000' },
  cyberman: { name: t('Cyberman'), fill: '#d8dde3', edge: '#6b7480' },
  martian_fighting_machine: { name: t('Martian'), fill: '#c9ced6', edge: '#5a606a' },
  martian_handling_machine: { name: t('Martian'), fill: '#c9ced6', edge: '#5a606a' },
};
export function variantStyle(unit) {
  return VARIANT_STYLE[unit.kind] || null;
}

const PROFILES = {
  infantry: [4, 2, 1, [3, 2, 1]], special_forces: [4, 2, 2, [3, 2, 1]], armor: [3, 3, 3, [3, 3, 3]],
  elite_armor: [4, 3, 3, [3, 3, 3]], artillery: [2, 1, 0, [3, 3, 2, 2, 1, 1]], tiger: [1, 3, 3, [3, 3, 3]],
  resistance: [3, 2, 1, [3, 2, 1]], sniper: [1, 2, 2, [1, 1, 1, 1, 1]], cavalry: [4, 3, 3, [2, 1]],
  ski: [3, 3, 3, [3, 2]], engineer: [4, 2, 1, [3, 2, 1]], big_gun: [2, 1, 0, [3, 3, 2, 2, 1, 1, 1, 1]],
  mobile_artillery: [2, 2, 1, [3, 3, 2, 2, 1, 1]], heavy_anti_tank: [2, 1, 0, [2, 2, 2, 2]],
  destroyer: [3, 2, 2, [3, 3, 2, 2, 1, 1, 1, 1]],
  zombie: [3, 1, 1, [3]], dalek: [3, 4, 4, [3, 3, 3]], special_weapons_dalek: [4, 4, 4, [4, 4, 4, 4]],
  dalek_mercenary: [4, 2, 2, [3, 2, 1]], cyberman: [4, 3, 3, [3, 3, 3]], martian_fighting_machine: [4, 3, 3, [4, 4, 4, 4, 4, 4, 4, 4]],
  martian_handling_machine: [3, 3, 3, [2, 2, 2, 2]],
};

export function unitStats(unit) {
  const s = unit.stats || {};
  const p = PROFILES[unit.kind] || PROFILES[{ inf: 'infantry', armor: 'armor', art: 'artillery' }[unit.class]];
  return {
    move: s.move ?? unit.move ?? (p && p[1]),
    moveFire: s.move_fire ?? unit.move_fire ?? (p && p[2]),
    dice: s.dice ?? unit.dice ?? (p && p[3]),
  };
}

// unit kinds named as in the published editions (the rest: the engine's kind, title-cased)
const KIND_NAMES = {
  infantry: t('Infantry'), armor: t('Armor'), artillery: t('Artillery'), inf: t('Infantry'), art: t('Artillery'),
  special_forces: t('Special Forces'), elite_armor: t('Elite Armor'), tiger: t('Tiger'), sniper: t('Sniper'),
  engineer: t('Combat Engineers'), cavalry: t('Cavalry'), ski: t('Ski Troops'), resistance: t('French Resistance'),
  big_gun: t('Big Gun'), mobile_artillery: t('Mobile Artillery'), anti_tank: t('Anti-Tank Gun'), mortar: t('Mortar'),
  machine_gun: t('Machine Gun'), heavy_anti_tank: t('Heavy Anti-Tank Gun'), destroyer: t('Destroyer'),
};
export function kindName(kind) { return KIND_NAMES[kind] || titleCase(kind); }

export function unitTitle(unit) {
  if (unit.name) return unit.name;
  const n = nationStyle(unit).name;
  const k = kindName(unit.kind || unit.class);
  return n ? t('{nation} {kind}', { nation: n, kind: k }) : k;
}

export function unitDescription(unit) {
  const st = unitStats(unit);
  const lines = [];
  lines.push(`${sideName(unit.side)} — ${t('{n}/{max} figures', { n: unit.figures, max: unit.max_figures ?? unit.figures })}`);
  if (st.move !== undefined) {
    const mf = st.moveFire === 0 ? t('move or battle') : t('battle after moving up to {n}', { n: st.moveFire });
    lines.push(`${tn('Moves up to {n} hex', 'Moves up to {n} hexes', st.move)} (${mf})`);
  }
  if (st.dice) lines.push(t('Dice by range: {dice}', { dice: st.dice.join(' / ') }));
  if (unit.badge) lines.push(t('Badge {badge}', { badge: unit.badge }));
  // typed units (004 unit types as game options): the engine's kind names the type
  if (unit.kind && !['infantry', 'armor', 'artillery'].includes(unit.kind)) lines.push(t('Type: {kind}', { kind: kindName(unit.kind) }));
  if (unit.train && unit.train.length > 1) lines.push(t('Train piece {n} of {total} (the pieces move together)', { n: unit.train.indexOf(unit.id) + 1, total: unit.train.length }));
  if (unit.inactive_until !== undefined && unit.inactive_until !== null) lines.push(t('Waits: cannot be ordered before turn {n}', { n: firstActiveTurn(unit) }));
  if (supplyTurns(unit) > 0) lines.push(supplyText(supplyTurns(unit)));
  const status = [];
  if (unit.ordered) status.push(t('ordered'));
  if (unit.moved) status.push(t('moved {n}', { n: unit.moved }));
  if (unit.battled) status.push(t('battled'));
  if (status.length) lines.push(t('This turn: {status}', { status: status.join(', ') }));
  return lines;
}
