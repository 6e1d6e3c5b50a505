// 004 Appendix 3 variants and campaign battles in the game page: a status box (which
// variant, its public state) and board marks (zombie town markers, towns seized /
// exterminated / ruined).  Presentational only: everything comes from view.variant /
// view.campaign (docs/protocol.md).
import { el, sideName } from './util.js';

export const VARIANT_NAMES = {
  ZOMBIE: 'Achtung! Zombie!', EXTERMINATE: 'EX-TER-MIN-ATE!', CYBERMEN: 'EX-TER-MIN-ATE! (Cybermen)',
  WAR_OF_THE_WORLDS: 'War Of The Worlds', NINETEEN_EIGHTY_FOUR: 'Nineteen Eighty-Four',
};

function variantLines(v) {
  if (v.name === 'ZOMBIE') {
    return [`The Dead: ${sideName(v.side)} (no cards, no orders)`,
      `Town markers left: ${(v.markers || []).length} · Living figures lost: ${v.living_lost ?? 0}`];
  }
  if (v.name === 'EXTERMINATE') {
    return [`Daleks: ${sideName(v.side)}`, `Towns exterminated: ${(v.exterminated || []).length}`,
      v.leader ? `Heroic Leader (Human Factor) with ${v.leader}: +2 dice, first flag ignored` : 'Heroic Leader lost'];
  }
  if (v.name === 'CYBERMEN') {
    return [`Cybermen: ${sideName(v.side)} (no grenade hits, flags ignored)`,
      `Figures gained in close assault: ${v.reinforced ?? 0}`];
  }
  if (v.name === 'WAR_OF_THE_WORLDS') {
    return [`Martians: ${sideName(v.side)} · Common Cold level ${v.sickness ?? 0}`,
      `Towns seized ${(v.seized || []).length}, ruined ${(v.ruined || []).length} of ${(v.towns || []).length}`];
  }
  if (v.name === 'NINETEEN_EIGHTY_FOUR') {
    const n = v.names || {};
    return [`${sideName('AXIS')} = ${n.AXIS || 'Eurasia'}, ${sideName('ALLIES')} = ${n.ALLIES || 'Oceania'}`,
      `Replacements due: ${(v.reinforcements_due || []).length}`];
  }
  return [];
}

// The side-panel box of the variant (or null).
export function variantBox(view) {
  const v = view && view.variant;
  if (!v) return null;
  return el('div', { class: 'side-box variant-box', id: 'variant-box', 'data-variant': v.name,
    title: '004 Appendix 3, Suggested Variants' },
  el('b', {}, VARIANT_NAMES[v.name] || v.name), ...variantLines(v).map((t) => el('div', { class: 'muted' }, t)));
}

// The side-panel box of a campaign battle's pre-battle roll (or null).
export function campaignBox(view) {
  const c = view && view.campaign;
  if (!c) return null;
  const dice = Object.entries(c.dice || {}).map(([s, n]) => `${sideName(s)} ${n}`).join(', ');
  const left = (c.effects_left || []).length;
  return el('div', { class: 'side-box campaign-box', id: 'campaign-box', title: '004 Simplified Campaign Rules' },
    el('b', {}, 'Campaign battle'), el('div', { class: 'muted' }, `Pre-battle dice: ${dice || 'none'}`),
    el('div', { class: 'muted' }, left ? `${left} pre-battle effect${left > 1 ? 's' : ''} to apply` : 'pre-battle effects applied'));
}

// Board marks: [{hex, text, title, colour}]
export function variantMarks(view) {
  const v = view && view.variant;
  if (!v) return [];
  const out = [];
  const add = (hexes, text, title, colour) => { for (const h of hexes || []) out.push({ hex: h, text, title, colour }); };
  add(v.markers, 'Z', 'Zombie objective: a zombie staying here a whole turn removes the marker', '#4f7a4a');
  add(v.exterminated, '✕', 'Exterminated by the Daleks (a Victory Point for them)', '#3c3d40');
  add(v.seized, 'M', 'Seized by a Martian Handling Machine', '#8a8f98');
  add(v.ruined, '✕', 'Ruined by a Martian attack', '#5a606a');
  return out;
}
