// 004 Appendix 3 variants and campaign battles in the game page: a status box (which
// variant, its public state) and board marks (zombie town markers, towns seized /
// exterminated / ruined).  Presentational only: everything comes from view.variant /
// view.campaign (docs/protocol.md).
import { el, sideName } from './util.js';
import { t, tn } from './i18n.js';

export const VARIANT_NAMES = {
  ZOMBIE: t('Achtung! Zombie!'), EXTERMINATE: t('EX-TER-MIN-ATE!'), CYBERMEN: t('EX-TER-MIN-ATE! (Cybermen)'),
  WAR_OF_THE_WORLDS: t('War Of The Worlds'), NINETEEN_EIGHTY_FOUR: t('Nineteen Eighty-Four'),
};

function variantLines(v) {
  if (v.name === 'ZOMBIE') {
    return [t('The Dead: {side} (no cards, no orders)', { side: sideName(v.side) }),
      t('Town markers left: {n} · Living figures lost: {lost}', { n: (v.markers || []).length, lost: v.living_lost ?? 0 })];
  }
  if (v.name === 'EXTERMINATE') {
    return [t('Daleks: {side}', { side: sideName(v.side) }), t('Towns exterminated: {n}', { n: (v.exterminated || []).length }),
      v.leader ? t('Heroic Leader (Human Factor) with {unit}: +2 dice, first flag ignored', { unit: v.leader }) : t('Heroic Leader lost')];
  }
  if (v.name === 'CYBERMEN') {
    return [t('Cybermen: {side} (no grenade hits, flags ignored)', { side: sideName(v.side) }),
      t('Figures gained in close assault: {n}', { n: v.reinforced ?? 0 })];
  }
  if (v.name === 'WAR_OF_THE_WORLDS') {
    return [t('Martians: {side} · Common Cold level {n}', { side: sideName(v.side), n: v.sickness ?? 0 }),
      t('Towns seized {seized}, ruined {ruined} of {n}', { seized: (v.seized || []).length, ruined: (v.ruined || []).length, n: (v.towns || []).length })];
  }
  if (v.name === 'NINETEEN_EIGHTY_FOUR') {
    const n = v.names || {};
    return [`${sideName('AXIS')} = ${n.AXIS || 'Eurasia'}, ${sideName('ALLIES')} = ${n.ALLIES || 'Oceania'}`,
      t('Replacements due: {n}', { n: (v.reinforcements_due || []).length })];
  }
  return [];
}

// The side-panel box of the variant (or null).
export function variantBox(view) {
  const v = view && view.variant;
  if (!v) return null;
  return el('div', { class: 'side-box variant-box', id: 'variant-box', 'data-variant': v.name,
    title: t('004 Appendix 3, Suggested Variants') },
  el('b', {}, VARIANT_NAMES[v.name] || v.name), ...variantLines(v).map((line) => el('div', { class: 'muted' }, line)));
}

// The side-panel box of a campaign battle's pre-battle roll (or null).
export function campaignBox(view) {
  const c = view && view.campaign;
  if (!c) return null;
  const dice = Object.entries(c.dice || {}).map(([s, n]) => `${sideName(s)} ${n}`).join(', ');
  const left = (c.effects_left || []).length;
  return el('div', { class: 'side-box campaign-box', id: 'campaign-box', title: t('004 Simplified Campaign Rules') },
    el('b', {}, t('Campaign battle')), el('div', { class: 'muted' }, t('Pre-battle dice: {dice}', { dice: dice || t('none') })),
    el('div', { class: 'muted' }, left ? tn('{n} pre-battle effect to apply', '{n} pre-battle effects to apply', left) : t('pre-battle effects applied')));
}

// Board marks: [{hex, text, title, colour}]
export function variantMarks(view) {
  const v = view && view.variant;
  if (!v) return [];
  const out = [];
  const add = (hexes, text, title, colour) => { for (const h of hexes || []) out.push({ hex: h, text, title, colour }); };
  add(v.markers, 'Z', t('Zombie objective: a zombie staying here a whole turn removes the marker'), '#4f7a4a');
  add(v.exterminated, '✕', t('Exterminated by the Daleks (a Victory Point for them)'), '#3c3d40');
  add(v.seized, 'M', t('Seized by a Martian Handling Machine'), '#8a8f98');
  add(v.ruined, '✕', t('Ruined by a Martian attack'), '#5a606a');
  return out;
}
