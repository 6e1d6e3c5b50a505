// The seat's hand of command cards, the last cards played, and dice faces.
import { el, clear, sideName, titleCase } from './util.js';
import { t, tn, term } from './i18n.js';

const SECTION_NAMES = [t('Left'), t('Centre'), t('Right')];

export function cardSectionsText(card) {
  const s = card.sections || [];
  if (!s.length) return card.kind === 'tactic' ? t('Tactic') : '';
  if (s.length === 3) return t('All sections');
  return s.map((i) => SECTION_NAMES[i] || `#${i}`).join(' + ');
}

// Render the hand. `playable` maps String(card.id) -> [action infos]; onPick(card, infos).
export function renderHand(container, hand, playable, onPick, chosen = null) {
  clear(container);
  if (!hand || !hand.length) {
    container.append(el('div', { class: 'muted' }, t('No cards in hand.')));
    return;
  }
  for (const card of hand) {
    const acts = playable.get(String(card.id)) || [];
    const secs = card.sections || [];
    const bars = el('div', { class: 'card-sections', title: cardSectionsText(card) },
      ...[0, 1, 2].map((i) => el('span', { class: `sec${secs.includes(i) ? ' on' : ''}` })));
    const node = el('button', {
      class: `card${acts.length ? ' playable' : ''}${chosen === card.id ? ' chosen' : ''}`,
      type: 'button', 'data-card': card.id, 'data-name': card.name,
      'aria-label': `${term(card.name)}${cardSectionsText(card) ? ' — ' + cardSectionsText(card) : ''}: ${term(card.text) || ''}`,
      disabled: acts.length ? null : true,
      title: `${term(card.name)}${cardSectionsText(card) ? ' — ' + cardSectionsText(card) : ''}\n${term(card.text) || ''}`,
      onclick: () => acts.length && onPick(card, acts),
    },
    el('div', { class: 'card-kind' }, card.kind === 'section' ? `${t('Section card')} · ${cardSectionsText(card)}` : ({ tactic: t('Tactic card') })[card.kind] || titleCase(card.kind || 'card')),
    el('div', { class: 'card-name' }, term(card.name)),
    card.kind === 'section' ? bars : null,
    el('div', { class: 'card-text' }, term(card.text) || (card.units ? tn('Order {n} unit', 'Order {n} units', card.units) : '')));
    container.append(node);
  }
}

export function renderPlayed(container, played) {
  clear(container);
  const list = (played || []).slice(-3).reverse();
  if (!list.length) { container.append(el('span', { class: 'muted' }, t('No card played yet.'))); return; }
  for (const p of list) {
    const c = p.card || {};
    container.append(el('div', { class: 'played-card', title: term(c.text) || '' }, el('b', {}, term(c.name) || t('a card')), ` — ${sideName(p.seat)}${p.copied ? ` (${t('Counter-Attack copy')})` : ''}`));
  }
}

// Dice faces as small SVG pictures (infantry, armor, grenade, star, flag).
const FACE_SVG = {
  inf: '<circle cx="12" cy="6" r="3.2" fill="#3d5a1e"/><path d="M7 21 L9 11 H15 L17 21 Z" fill="#3d5a1e"/><path d="M15 12 L21 5" stroke="#3d5a1e" stroke-width="1.6"/>',
  armor: '<rect x="3" y="11" width="18" height="7" rx="3" fill="#3d4f62"/><rect x="8" y="7" width="8" height="5" rx="1.5" fill="#3d4f62"/><path d="M16 9 H22" stroke="#3d4f62" stroke-width="2"/>',
  grenade: '<ellipse cx="12" cy="14" rx="6" ry="7" fill="#6b3b1f"/><rect x="10" y="4" width="4" height="4" fill="#333"/><path d="M6 14 H18 M12 7 V21" stroke="#3a1f0e" stroke-width="0.8"/>',
  star: '<path d="M12 2 L14.6 9 L22 9.2 L16.2 13.8 L18.2 21 L12 16.8 L5.8 21 L7.8 13.8 L2 9.2 L9.4 9 Z" fill="#c59a16"/>',
  flag: '<path d="M6 3 V22" stroke="#333" stroke-width="2"/><path d="M7 4 H19 L16 8 L19 12 H7 Z" fill="#c0392b"/>',
};
export const FACE_NAME = { inf: t('Infantry'), armor: t('Armor'), grenade: t('Grenade'), star: t('Star'), flag: t('Flag') };

export function dieNode(face, hit = false) {
  const d = el('span', { class: `die${hit ? ' hit' : ''}`, title: FACE_NAME[face] || face, role: 'img', 'aria-label': FACE_NAME[face] || face, 'data-face': face });
  d.innerHTML = `<svg viewBox="0 0 24 24">${FACE_SVG[face] || '<text x="12" y="16" text-anchor="middle" font-size="12">?</text>'}</svg>`;
  return d;
}

export function renderDice(container, dice) {
  clear(container);
  for (const f of dice || []) container.append(dieNode(f));
  // read as one picture: "Dice: Infantry, Grenade, Flag"
  if (container.getAttribute('role') === 'img') container.setAttribute('aria-label', dice && dice.length ? t('Dice: {faces}', { faces: dice.map((f) => FACE_NAME[f] || f).join(', ') }) : t('Dice'));
}
