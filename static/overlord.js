// Overlord (002) and team play: the command bar everyone sees (who acts, who got how
// many cards), the Commander-in-Chief's dispatch desk and the Field General's orders.
//
// As everywhere in the client, legality comes from the engine: a general slot accepts a
// card only when `legal` holds that very `dispatch`; trying another one sends it anyway
// so that the engine's refusal (code + message, nothing changes) explains why.
//
// renderers/hex.js draws these only in the games whose ruleset declares the `overlord`
// panel for their mode (Ruleset.panels_for: 002 Overlord, not 004 Team Play): nothing
// here guesses the kind of game from the view.
import { t, tn, term } from './i18n.js';
import { el, clear, sideName, titleCase } from './util.js';
import { cardSectionsText, dieNode } from './cards.js';
import { COPY_LABEL } from './actions.js';

export const ROLES = ['cinc', 'left', 'centre', 'right'];
export const FGS = ['left', 'centre', 'right'];
export const ROLE_NAMES = { cinc: t('C-in-C'), left: t('Left FG'), centre: t('Centre FG'), right: t('Right FG'), commander: t('Commander') };
export const ROLE_LONG = {
  cinc: t('Commander-in-Chief'), left: t('Left Field General'), centre: t('Centre Field General'),
  right: t('Right Field General'), commander: t('Commander'),
};
// action types drawn by this module (kept out of the generic action bar / hand)
const DESK_TYPES = new Set(['dispatch', 'undo_dispatch', 'visit', 'gung_ho', 'confirm_dispatch']);
const INITIATIVE_EFFECT = {
  retreat: t('a unit of his must retreat 1 hex and may not battle'),
  lose_figure: t('a unit of his loses 1 figure and may not battle'), none: t('no unit of his matches: no effect'),
};
const INITIATIVE_ORDER = { inf: t('order 1 Infantry unit'), armor: t('order 1 Armor unit'), star: t('order any 1 unit') };
export function initiativeEffect(face, effect) {
  if (effect === 'order') return INITIATIVE_ORDER[face] || t('order 1 unit');
  return INITIATIVE_EFFECT[effect] || titleCase(effect || '');
}
const FACE_TEXT = { inf: t('Infantry'), armor: t('Armor'), star: t('Star'), flag: t('Flag'), grenade: t('Grenade') };

export function roleOf(seat) { return seat ? (String(seat).split(':')[1] || 'commander') : null; }
export function sideOf(seat) { return seat ? String(seat).split(':')[0] : null; }
export function seatLabel(seat) {
  if (!seat) return '';
  const r = roleOf(seat);
  return r === 'commander' ? sideName(seat) : `${sideName(sideOf(seat))} ${ROLE_NAMES[r] || titleCase(r)}`;
}

// Which legal actions this module handles (so renderers/hex.js keeps them out of its generic UI).
export function handledHere(action, legal) {
  if (DESK_TYPES.has(action.type)) return true;
  if (action.type === 'play_card' && action.half !== undefined) return true;
  if (action.type === 'initiative') return true;
  if (action.type === 'pass' && legal.some((a) => a.type === 'initiative')) return true;
  return false;
}

// Columns [from, to] of a Field General's two sub-sections (closed intervals of the
// board's sub-section bounds; the top player's sub-sections are mirrored).
export function fgZones(board, view, side, role) {
  const subs = board && board.sections && board.sections.subsections;
  const ol = view && view.overlord;
  if (!Array.isArray(subs) || subs.length < 7 || !ol || !ol.fg_subsections || !ol.fg_subsections[role]) return [];
  const top = ((view.sides || {})[side] || {}).position === 'top';
  return ol.fg_subsections[role].map((i, half) => {
    const b = top ? 5 - i : i;
    return { cols: [subs[b], subs[b + 1]], half, label: half === 0 ? t('{role} · left half', { role: ROLE_NAMES[role] }) : t('{role} · right half', { role: ROLE_NAMES[role] }) };
  });
}

function seatOwner(seats, seat) {
  const s = (seats || []).find((x) => x.seat === seat);
  if (!s) return '';
  if (!s.taken) return t('free seat');
  return `${s.name || '?'}${s.is_bot ? ` (${t('bot')})` : ''}`;
}

function stepText(step) {
  return {
    commissar_setup: t('Commissar: cards placed under the chip'), commissar: t('Commissar chip'),
    dispatch: t('the C-in-C dispatches his orders'), cinc: t("the C-in-C's own tactic card"),
    fg: t('the Field Generals carry out their orders'),
  }[step] || titleCase(step || '');
}

// ------------------------------------------------------------------ command bar (all)
// ctx: {view, seats, seat, initiativeRolls}
export function renderCommandBar(root, ctx) {
  const v = ctx.view;
  clear(root);
  root.classList.remove('hidden');
  const ol = v.overlord || {};
  const toAct = (v.to_act || []);
  const active = v.active;
  root.append(el('div', { class: 'ol-step', 'data-step': ol.step || '' },
    el('b', {}, `${t('Turn {turn} · {side}', { turn: v.turn ?? '-', side: sideName(active) })}: `), stepText(ol.step)));
  const sides = Object.keys(v.sides || {}).sort((a, b) => (a === active ? -1 : b === active ? 1 : 0));
  const row = el('div', { class: 'ol-sides' });
  for (const side of sides) {
    const box = el('div', { class: `ol-side ${side.toLowerCase()}${side === active ? ' active' : ''}`, 'data-side': side });
    box.append(el('div', { class: 'ol-side-name' }, sideName(side)));
    const coc = ol.chain_of_command && ol.chain_of_command.side === side ? ol.chain_of_command : null;
    for (const role of ROLES) {
      const seat = `${side}:${role}`;
      const acting = toAct.includes(seat);
      const chip = el('div', { class: `ol-chip${acting ? ' acting' : ''}${seat === ctx.seat ? ' me' : ''}`, 'data-seat': seat, 'data-acting': acting ? '1' : '0' },
        el('span', { class: 'ol-role' }, ROLE_NAMES[role]),
        el('span', { class: 'ol-who muted' }, seatOwner(ctx.seats, seat)));
      if (side === active && role !== 'cinc' && ol.step === 'fg') {
        const played = (v.played || []).filter((p) => p.seat === seat && p.card).length;
        const n = ((ol.received || {})[role] || 0) + played;
        const init = (ol.initiative || {})[role];
        let info = n ? tn('{n} card', '{n} cards', n) : t('no card');
        const roll = (ctx.initiativeRolls || {})[seat];
        if (init === 'declined') info += ` · ${t('no initiative')}`;
        else if (roll && init && init !== 'cards') info += ` · ${t('initiative: {face}', { face: FACE_TEXT[roll.face] || roll.face })}`;
        else if (!n && !init) info += ` · ${t('may act on initiative')}`;
        chip.append(el('span', { class: 'ol-received', 'data-received': n }, info));
      }
      if (coc && coc.visited === role && coc.turn === v.turn) chip.append(el('span', { class: 'ol-visit' }, t('visited')));
      if (acting) chip.append(el('span', { class: 'ol-acting' }, t('▶ acting')));
      box.append(chip);
    }
    row.append(box);
  }
  root.append(row);
  if (!v.game_over) root.append(el('div', { class: 'ol-waiting', 'data-waiting': ol.step || '' }, waitingText(v, ctx.seat)));
  if (ctx.dispatchSummary) root.append(el('div', { class: 'ol-summary', 'data-dispatch-summary': '1' }, ctx.dispatchSummary));
}

// "who got how many cards" sentence from an orders_dispatched event
export function dispatchSentence(e) {
  const c = e.counts || {};
  const parts = FGS.map((r) => `${ROLE_NAMES[r]} ${c[r] || 0}`);
  if (c.cinc) parts.unshift(t('C-in-C keeps {n} to play', { n: c.cinc }));
  const visit = e.secret && e.secret.visit ? ` · ${t('visits the {role}', { role: ROLE_NAMES[e.secret.visit] })}` : '';
  const gh = e.secret && e.secret.gung_ho ? ` · ${t('Gung-Ho: {role}', { role: ROLE_NAMES[e.secret.gung_ho] })}` : '';
  return `${t('{side} orders dispatched (turn {turn}): {parts}', { side: sideName(e.side), turn: e.turn ?? '', parts: parts.join(', ') })}${visit}${gh}`;
}

// ------------------------------------------------------------------ card node
const CARD_KIND = { tactic: t('Tactic'), card: t('Card') };
function cardNode(card, { cls = '', title = '', onclick = null, draggable = false, extra = null } = {}) {
  const secs = card.sections || [];
  const arrows = (card.arrows || []).map((a) => ROLE_NAMES[a] || a);
  return el('div', {
    // a button only when it does something (a Field General's card holds its own buttons)
    class: `card ol-card ${cls}`, 'data-card': card.id, 'data-name': card.name, role: onclick ? 'button' : null, tabindex: onclick ? 0 : null,
    title: title || `${term(card.name)}\n${term(card.text || '')}`, draggable: draggable ? 'true' : null,
    onclick, onkeydown: onclick ? (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); onclick(ev); } } : null,
    ondragstart: draggable ? (ev) => { ev.dataTransfer.setData('text/plain', String(card.id)); ev.dataTransfer.effectAllowed = 'move'; } : null,
  },
  el('div', { class: 'card-kind' }, card.kind === 'section' ? t('Section · {sections}', { sections: cardSectionsText(card) }) : (CARD_KIND[card.kind] || titleCase(card.kind || 'card'))),
  el('div', { class: 'card-name' }, term(card.name)),
  card.kind === 'section' ? el('div', { class: 'card-sections' }, ...[0, 1, 2].map((i) => el('span', { class: `sec${secs.includes(i) ? ' on' : ''}` }))) : null,
  arrows.length ? el('div', { class: 'card-arrows' }, `→ ${arrows.join(' / ')}`) : (card.icon ? el('div', { class: 'card-arrows' }, { cinc: t('C-in-C plays it'), fg: t('to any FG'), either: t('C-in-C or any FG') }[card.icon] || '') : null),
  el('div', { class: 'card-text' }, term(card.text || '')),
  extra);
}

// ------------------------------------------------------------------ C-in-C dispatch desk
// ctx: {view, legal, side, seats, desk: {selected, explain}, send, probe, rerender}
export function renderDesk(root, ctx) {
  clear(root);
  const v = ctx.view;
  const legal = ctx.legal || [];
  const ol = (v && v.overlord) || {};
  const deskLegal = legal.filter((a) => DESK_TYPES.has(a.type));
  if (!deskLegal.length) { root.classList.add('hidden'); return; }
  root.classList.remove('hidden');
  const desk = ctx.desk;
  const hand = (((v.sides || {})[ctx.side] || {}).hand) || [];
  const dispatched = ol.dispatch || {};
  const canGive = (card, to) => legal.find((a) => a.type === 'dispatch' && String(a.card) === String(card) && a.to === to);
  const targets = (card) => ['cinc', ...FGS].filter((to) => canGive(card, to));
  const selCard = hand.find((c) => String(c.id) === String(desk.selected)) || null;
  if (!selCard) desk.selected = null;

  const give = (cardId, to) => {
    const card = hand.find((c) => String(c.id) === String(cardId));
    if (!card) return;
    const act = canGive(cardId, to);
    desk.selected = null;
    if (act) { desk.explain = null; ctx.send(act); return; }
    // not offered: let the engine say why (a refused action changes nothing)
    ctx.probe({ type: 'dispatch', card: card.id, to }, `${term(card.name)} → ${ROLE_NAMES[to]}`);
    ctx.rerender();
  };

  root.append(el('h3', {}, t('Dispatch your orders — turn {turn}', { turn: v.turn ?? '' })));
  root.append(el('div', { class: 'muted ol-help' },
    t('Click a card, then the general who gets it (or drag the card onto him). Choose the one Field General you visit this turn, then confirm.'), ' ',
    t('Greyed cards cannot be given to anybody right now; a general who cannot take the selected card is struck through — click him to hear why.')));

  const handBox = el('div', { class: 'hand ol-hand', id: 'ol-hand' });
  // a card handed out (tentatively) sits in its general's slot, not in the hand too
  const given = new Set(Object.values(dispatched).flat().map((c) => String(c.id)));
  for (const card of hand.filter((c) => !given.has(String(c.id)))) {
    const ts = targets(card.id);
    const no = ['cinc', ...FGS].filter((r) => !ts.includes(r)).map((r) => ROLE_NAMES[r]);
    const title = `${term(card.name)}\n${term(card.text || '')}\n${ts.length ? t('Can be given to: {roles}.', { roles: ts.map((r) => ROLE_NAMES[r]).join(', ') }) : t('Cannot be given to anybody now.')}${ts.length && no.length ? ' ' + t('Cannot be given to {roles} now.', { roles: no.join(', ') }) : ''}`;
    handBox.append(cardNode(card, {
      cls: `${ts.length ? 'playable' : 'blocked'}${desk.selected !== null && String(desk.selected) === String(card.id) ? ' chosen' : ''}`,
      title, draggable: true,
      onclick: () => { desk.selected = String(desk.selected) === String(card.id) ? null : card.id; desk.explain = null; ctx.rerender(); },
    }));
  }
  if (!hand.some((c) => !given.has(String(c.id)))) handBox.append(el('div', { class: 'muted' }, t('No card left in hand.')));
  root.append(handBox);

  const slots = el('div', { class: 'ol-slots' });
  for (const to of ['left', 'centre', 'right', 'cinc']) {
    const seat = `${ctx.side}:${to}`;
    const ok = selCard ? !!canGive(selCard.id, to) : null;
    const visitAct = legal.find((a) => a.type === 'visit' && a.fg === to);
    const ghAct = legal.find((a) => a.type === 'gung_ho' && a.fg === to);
    const visited = ol.visit === to;
    const slot = el('div', {
      class: `ol-slot${ok === true ? ' can-take' : ok === false ? ' cannot-take' : ''}${visited ? ' visited' : ''}`,
      'data-to': to, 'data-can-take': ok === null ? '' : ok ? '1' : '0',
      title: selCard ? (ok ? t('Give {card} to the {role}', { card: term(selCard.name), role: ROLE_NAMES[to] }) : t('{card} cannot be given to the {role} now — click to see why', { card: term(selCard.name), role: ROLE_NAMES[to] })) : '',
      onclick: (ev) => { if (ev.target.closest('button')) return; if (selCard) give(selCard.id, to); },
      ondragover: (ev) => { ev.preventDefault(); slot.classList.add('drag-over'); },
      ondragleave: () => slot.classList.remove('drag-over'),
      ondrop: (ev) => { ev.preventDefault(); slot.classList.remove('drag-over'); give(ev.dataTransfer.getData('text/plain'), to); },
    });
    slot.append(el('div', { class: 'ol-slot-head' },
      el('b', {}, to === 'cinc' ? t('Yourself (C-in-C)') : ROLE_LONG[to]),
      el('span', { class: 'muted' }, to === 'cinc' ? ` ${t('plays it directly')}` : ` · ${seatOwner(ctx.seats, seat)}`),
      visited ? el('span', { class: 'ol-visit', 'data-visited': to }, t('you visit him')) : null,
      ol.gung_ho_fg === to ? el('span', { class: 'ol-visit' }, t('Gung-Ho')) : null));
    const cards = el('div', { class: 'ol-slot-cards' });
    for (const card of dispatched[to] || []) {
      const undo = legal.find((a) => a.type === 'undo_dispatch' && String(a.card) === String(card.id));
      cards.append(el('div', { class: 'ol-mini', 'data-card': card.id, 'data-name': card.name, title: term(card.text || '') },
        el('span', {}, term(card.name)),
        undo ? el('button', { type: 'button', class: 'ol-undo', 'data-undo': card.id, title: t('Take the card back'), onclick: () => ctx.send(undo) }, t('↩ undo')) : null));
    }
    if (!(dispatched[to] || []).length) cards.append(el('div', { class: 'muted ol-empty' }, selCard ? (ok ? t('▼ give {card} here', { card: term(selCard.name) }) : t('✕ cannot take it now')) : t('no card')));
    slot.append(cards);
    const foot = el('div', { class: 'ol-slot-foot' });
    // the keyboard's way (and a screen reader's) to give the selected card: a button
    if (selCard && ok) foot.append(el('button', { type: 'button', class: 'primary', 'data-give': to, onclick: () => give(selCard.id, to) }, t('Give it here')));
    if (visitAct) foot.append(el('button', { type: 'button', 'data-visit': to, onclick: () => ctx.send(visitAct) }, t('Visit {role}', { role: ROLE_NAMES[to] })));
    if (ghAct) foot.append(el('button', { type: 'button', 'data-gung-ho': to, onclick: () => ctx.send(ghAct) }, t('Gung-Ho: +1 unit')));
    if (foot.childNodes.length) slot.append(foot);
    slots.append(slot);
  }
  root.append(slots);

  const explain = el('div', { class: `ol-explain${desk.explain ? '' : ' hidden'}`, id: 'ol-explain', role: 'status', 'data-code': desk.explain ? desk.explain.code || '' : '' });
  if (desk.explain) explain.append(el('b', {}, desk.explain.what ? `${desk.explain.what}: ` : ''), desk.explain.text, desk.explain.code ? el('span', { class: 'muted' }, ` (${desk.explain.code})`) : null);
  root.append(explain);

  const confirm = legal.find((a) => a.type === 'confirm_dispatch');
  const n = Object.values(dispatched).reduce((k, l) => k + (l || []).length, 0);
  const visitTxt = ol.visit ? t('you visit the {role}', { role: ROLE_LONG[ol.visit] }) : t('no visit chosen yet');
  root.append(el('div', { class: 'row ol-confirm-row' },
    el('button', { type: 'button', class: 'primary', id: 'ol-confirm', 'data-action': 'confirm_dispatch', disabled: confirm ? null : true,
      title: confirm ? '' : t('Not possible yet (the engine does not offer it)'), onclick: () => confirm && ctx.send(confirm) },
    tn('Confirm orders ({n} card)', 'Confirm orders ({n} cards)', n)),
    el('span', { class: 'muted' }, ` ${visitTxt}.`)));
}

// ------------------------------------------------------------------ Field General desk
// ctx: {view, legal, seat, role, send, hoverHalf(half|null), initiativeRolls}
export function renderFieldGeneral(root, ctx) {
  clear(root);
  const v = ctx.view;
  const role = ctx.role;
  if (!FGS.includes(role)) { root.classList.add('hidden'); return; }
  root.classList.remove('hidden');
  const ol = v.overlord || {};
  const legal = ctx.legal || [];
  const side = sideOf(ctx.seat);
  root.append(el('h3', {}, t('{role} — your command', { role: ROLE_LONG[role] })));
  const coc = ol.chain_of_command && ol.chain_of_command.side === side ? ol.chain_of_command : null;
  const info = [t('You command the two sub-sections outlined on the board.')];
  if (v.active === side && coc && coc.turn === v.turn && coc.visited) {
    info.push(' ', coc.visited === role ? t('The C-in-C is visiting you this turn: your line to him is open.') : t('The C-in-C is visiting the {role} this turn.', { role: ROLE_LONG[coc.visited] }));
  }
  root.append(el('div', { class: 'muted' }, ...info));

  const mine = ol.my_cards || [];
  const box = el('div', { class: 'hand ol-hand', id: 'ol-my-cards' });
  for (const card of mine) {
    const plays = legal.filter((a) => a.type === 'play_card' && String(a.card) === String(card.id));
    const btns = el('div', { class: 'ol-halves' });
    for (const a of plays) {
      const label = a.copy ? t('Play: {what}', { what: COPY_LABEL[a.copy] || titleCase(a.copy) })
        : a.half === undefined || a.half === null ? t('Play') : a.half === 0 ? t('Play in your left half') : t('Play in your right half');
      btns.append(el('button', {
        type: 'button', class: 'primary', 'data-play-half': a.half ?? '', 'data-card': card.id,
        onmouseenter: () => ctx.hoverHalf && ctx.hoverHalf(a.half ?? null), onmouseleave: () => ctx.hoverHalf && ctx.hoverHalf(null),
        onfocus: () => ctx.hoverHalf && ctx.hoverHalf(a.half ?? null), onblur: () => ctx.hoverHalf && ctx.hoverHalf(null),
        onclick: (ev) => { ev.stopPropagation(); ctx.send(a); },
      }, label));
    }
    box.append(cardNode(card, { cls: plays.length ? 'playable' : '', extra: plays.length ? btns : el('div', { class: 'muted' }, t('waiting for your turn to act')) }));
  }
  const playedMine = v.active === side ? (v.played || []).filter((p) => p.seat === ctx.seat && p.card) : [];
  for (const p of playedMine) {
    box.append(el('div', { class: 'ol-mini ol-played', 'data-played': p.card.id, title: term(p.card.text || '') }, t('Played: {card}', { card: term(p.card.name) })));
  }
  if (!mine.length && !playedMine.length) box.append(el('div', { class: 'muted', id: 'ol-no-card' }, v.active === side && ol.step === 'fg' ? t('No command card from the C-in-C this turn.') : t('No card to play now.')));
  root.append(box);

  const init = legal.find((a) => a.type === 'initiative');
  const pass = legal.find((a) => a.type === 'pass');
  if (init) {
    root.append(el('div', { class: 'row ol-initiative' },
      el('button', { type: 'button', class: 'primary', id: 'ol-initiative', 'data-action': 'initiative', onclick: () => ctx.send(init) }, t('Act on initiative (roll 1 die)')),
      pass ? el('button', { type: 'button', id: 'ol-pass', 'data-action': 'pass', onclick: () => ctx.send(pass) }, t('Do nothing this turn')) : null,
      el('span', { class: 'muted' }, ' ', t('Infantry/Armor: order 1 such unit · Star: any 1 unit · Flag: a unit retreats 1 hex · Grenade: a unit loses 1 figure.'))));
  }
  const roll = (ctx.initiativeRolls || {})[ctx.seat];
  if (roll && (ol.initiative || {})[role] && (ol.initiative || {})[role] !== 'cards' && v.active === side) {
    const needUnit = legal.some((a) => a.type === 'initiative_unit');
    root.append(el('div', { class: 'ol-roll', id: 'ol-roll', 'data-face': roll.face, 'data-effect': roll.effect || '' },
      `${t('Initiative roll:')} `, dieNode(roll.face), ` ${FACE_TEXT[roll.face] || roll.face} — ${initiativeEffect(roll.face, roll.effect)}`,
      needUnit ? el('b', {}, ` → ${t('click one of your highlighted units.')}`) : ''));
  }
}

// decisions inside a battle in progress (they block every other general)
const BATTLE_WINDOW = new Set(['roll', 'ambush', 'retreat', 'take_ground', 'overrun', 'battle_back', 'desert_move']);

// What the whole side is waiting for, and why (002 turn: dispatch -> C-in-C's own card ->
// Field Generals play, order and move -> battles once every general has moved -> draw).
export function waitingText(view, me = null) {
  const ol = view.overlord || {};
  const pend = (Array.isArray(view.pendings) && view.pendings.length ? view.pendings
    : (view.to_act || []).map((seat) => ({ seat, type: '' }))).filter((p) => p.seat !== 'chance');
  if (!pend.length) return t('Rolling dice…');
  const names = (list) => [...new Set(list.map((p) => seatLabel(p.seat)))].join(', ');
  const side = sideName(view.active);
  const step = ol.step;
  if (step === 'dispatch') {
    return t('Waiting for {names}: the Commander-in-Chief hands out his command cards and chooses the Field General he visits; the {side} Field Generals act once he confirms his orders.', { names: names(pend), side });
  }
  if (step === 'commissar' || step === 'commissar_setup') {
    return t('Waiting for {names}: cards go under the Commissar chip before the orders are handed out.', { names: names(pend) });
  }
  if (step === 'cinc') {
    return t('Waiting for {names}: the Commander-in-Chief carries out his own tactic card first; the Field Generals act after it.', { names: names(pend) });
  }
  if (step === 'fg') {
    const fight = pend.filter((p) => BATTLE_WINDOW.has(p.type));
    if (fight.length) {
      return t('A battle is being resolved: waiting for {names} ({what}); every other general waits until it is over.', { names: names(fight), what: fight.map((p) => titleCase(p.type)).join(', ') });
    }
    const pre = pend.filter((p) => p.type !== 'battle');
    const mine = me && sideOf(me) === view.active && FGS.includes(roleOf(me)) && !pend.some((p) => p.seat === me);
    if (pre.length) {
      return `${t('Waiting for {names} to play their cards, order and move: battles start once every {side} Field General has moved (all movement before any battle).', { names: names(pre), side })}${mine ? ' ' + t('You are done moving: your battles come then.') : ''}`;
    }
    return t('Battles: every {side} Field General has moved; waiting for {names} to fight (or end) their battles. The turn ends after the last one, then the C-in-C draws two cards.', { side, names: names(pend) });
  }
  return t('Waiting for {names}…', { names: names(pend) });
}
