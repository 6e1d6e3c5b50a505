// Fast Play '44 on the hex board (the `fastplay` panel, drawn by static/renderers/hex.js
// when the ruleset declares it): the Command Point counter, the waiting player's
// interrupt prompt with its countdown (opportunity fire, assault fire, defensive fire,
// battle back), labels for the Fast Play actions and log sentences, the unit markers
// (suppression 1/2, OpFire) and the rules help panel.
// The client decides nothing: it shows the engine's legal actions (docs/protocol.md).
import { el, clear, sideName } from './util.js';
import { t, tn } from './i18n.js';
import { ACTIONS } from './actions.js';
import { EVENT_TEXT } from './log.js';

// seconds the waiting player has to decide; the same for every prompt whatever the
// choices, so that the delay tells the opponent nothing; the pass action is sent at 0
export const FP_PROMPT_SECONDS = 20;

const hexT = (h) => (Array.isArray(h) ? `(${h[0]},${h[1]})` : '');

// -------------------------------------------------------------- the move's path (4.2)
// At the table the player moves his unit hex by hex, so that he may keep out of an OpFire
// unit's range: clicking a move hex next to the unit (then next to the last hex clicked)
// lays the path; clicking its last hex again moves along it (`move {unit, to, path}`); a
// move hex further away, clicked with no path laid, moves there by the engine's path.
export function adjacentHex(a, b) {
  const dr = Math.abs(a[0] - b[0]), dc = Math.abs(a[1] - b[1]);
  return (dr === 0 && dc === 2) || (dr === 1 && dc === 1);
}
const sameHex = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

// What a click on move hex `hex` does to the path `path` (hexes after `start`):
// {send: true} moves along it, {path} is the new path, {direct: true} moves without one.
export function pathStep(path, start, hex) {
  const last = path.length ? path[path.length - 1] : start;
  if (path.length && sameHex(hex, last)) return { send: true };
  if (adjacentHex(hex, last) && !sameHex(hex, start) && !path.some((h) => sameHex(h, hex))) {
    return { path: [...path, hex] };
  }
  if (!path.length) return { direct: true };
  if (adjacentHex(hex, start)) return { path: [hex] };      // a new path from the unit
  return { path };                                          // not next to the path: ignored
}

// -------------------------------------------------------------- actions and log
Object.assign(ACTIONS, {
  opfire_marker: { label: t('OpFire marker (fire in the enemy turn)'), gesture: 'unit', hint: t('Give this unit an OpFire marker') },
  rally: { label: t('Rally'), kind: 'retreat', hint: t('Rally here (full move back, suppression removed)'),
    resolve: (a) => ({ gesture: 'hex', hex: a.to, unit: a.unit, label: `${t('Rally to {hex}', { hex: hexT(a.to) })}${a.losses ? ' ' + tn('(loses {n} figure)', '(loses {n} figures)', a.losses) : ''}` }) },
  withdraw: { label: t('Withdraw off the board (no medal)'), gesture: 'unit', hint: t('Withdraw this unit off the board') },
  dig_in: { label: t('Dig in (sandbags)'), gesture: 'unit', hint: t('Dig in: sandbags on this hex') },
  opportunity_fire: { label: t('Opportunity fire'), kind: 'battle',
    resolve: (a) => ({ gesture: 'button', label: t('Opportunity fire at {hex}', { hex: hexT(a.target) }) }) },
  defensive_fire: { label: t('Defensive fire'), kind: 'battle',
    resolve: (a) => ({ gesture: 'button', label: t('Defensive fire at {hex}', { hex: hexT(a.target) }) }) },
  hold_fire: { label: t('Hold fire') },
  no_defensive_fire: { label: t('No defensive fire') },
  second_assault: { label: t('Second assault (French)'), primary: true },
});
// option command_cards: a card aimed at a hex (Barrage, Air Power) or a unit (Medics)
const basePlay = ACTIONS.play_card;
ACTIONS.play_card = {
  ...basePlay,
  resolve: (a, view) => {
    const r = basePlay.resolve(a, view);
    if (!r || (!a.target && !a.unit)) return r;
    return { ...r, label: `${r.label} ${a.target ? t('at {hex}', { hex: hexT(a.target) }) : t('on {unit}', { unit: a.unit })}` };
  },
};
const baseBattle = ACTIONS.battle;
ACTIONS.battle = {
  ...baseBattle,
  resolve: (a) => (a.assault === undefined ? null : {
    gesture: 'hex', hex: a.target, unit: a.unit,
    label: a.assault ? t('Assault {hex}', { hex: hexT(a.target) }) : t('Ranged fire at {hex}', { hex: hexT(a.target) }),
  }),
};

const KIND = {
  opportunity_fire: t('opportunity fire'), defensive_fire: t('defensive fire'), battle_back: t('battle back'),
  second_assault: t('second assault'), overrun: t('overrun'), battle: t('battle'),
};
// why a unit loses its OpFire marker (engine/rulesets/fastplay events)
const OPFIRE_LOST = { suppressed: t('suppressed'), fired: t('fired'), expired: t('expired') };
Object.assign(EVENT_TEXT, {
  command_points: (e) => tn('{side} has {n} Command Point', '{side} has {n} Command Points', e.cp, { side: sideName(e.side) }),
  command_points_lost: (e) => t('{side} loses {n} unspent CP', { side: sideName(e.side), n: e.cp }),
  suppression: (e, n) => (e.level > e.from ? t('{unit} is suppressed (level {n})', { unit: n(e.unit), n: e.level })
    : `${e.level ? t('{unit} suppression down to {n}', { unit: n(e.unit), n: e.level }) : t('{unit} suppression removed', { unit: n(e.unit) })}${e.reason === 'rally' ? ' ' + t('(rallied)') : e.reason === 'turn_start' ? ' ' + t('(start of turn)') : ''}`),
  opfire_marker: (e, n) => (e.placed ? t('{unit} takes an OpFire marker', { unit: n(e.unit) }) : t('{unit} loses its OpFire marker ({reason})', { unit: n(e.unit), reason: OPFIRE_LOST[e.reason] || e.reason })),
  fire_held: (e, n) => (e.window === 'opportunity' ? t('The opponent holds fire') : t('{unit} holds its fire', { unit: n(e.unit) })),
  move_stopped: (e, n) => t('{unit} stops at {hex}', { unit: n(e.unit), hex: hexT(e.hex) }),
  unit_rallied: (e, n) => `${t('{unit} rallies {from} → {hex}', { unit: n(e.unit), from: hexT(e.from), hex: hexT(e.to) })}${e.losses ? ' ' + tn('and loses {n} figure', 'and loses {n} figures', e.losses) : ''}`,
  unit_withdrawn: (e, n) => t('{unit} withdraws off the board', { unit: n(e.unit) }),
  dug_in: (e, n) => t('{unit} digs in', { unit: n(e.unit) }),
  battle_declared: (e, n) => {
    const w = { unit: n(e.unit), target: e.target_unit ? n(e.target_unit) : hexT(e.target), n: e.dice };
    if (e.assault) return tn('{unit} assaults {target} with {n} die', '{unit} assaults {target} with {n} dice', e.dice, w);
    if (e.kind !== 'battle' && KIND[e.kind]) return tn('{unit} ({kind}) fires at {target} with {n} die', '{unit} ({kind}) fires at {target} with {n} dice', e.dice, { ...w, kind: KIND[e.kind] });
    return tn('{unit} fires at {target} with {n} die', '{unit} fires at {target} with {n} dice', e.dice, w);
  },
});

// -------------------------------------------------------------- board markers
// extra tags under a unit (board.js calls this for every unit)
export function unitMarkers(u) {
  const out = [];
  if (u.suppression) out.push({ cls: 'fp-suppressed', fill: '#b8860b', label: `S${u.suppression}`, title: t('Suppressed (level {n} of 2): may not move or battle; ordered, it may rally', { n: u.suppression }) });
  if (u.opfire) out.push({ cls: 'fp-opfire', fill: '#8b1e1e', label: 'OF', title: t('OpFire marker: may fire at a moving or assaulting enemy during the opponent\'s turn') });
  if (u.towed) out.push({ cls: 'fp-towed', fill: '#555', label: 'T', title: t('Rallied artillery: defends as infantry this turn') });
  return out;
}

// -------------------------------------------------------------- prompt + CP panel
const TIMED = new Set(['opportunity_fire', 'assault_fire', 'defensive_fire', 'battle_back']);
const PASS = { hold_fire: 1, no_defensive_fire: 1, pass: 1 };
let timer = null;
let timerKey = null;

function promptText(p, unitName) {
  const u = p.unit ? unitName(p.unit) : '';
  switch (p.type) {
    case 'opportunity_fire': return t('Opportunity fire? {unit} moves into {hex} within range of your OpFire unit(s).', { unit: u, hex: hexT(p.hex) });
    case 'assault_fire': return t('{target} is assaulted by {unit}: fire first (opportunity or defensive fire) or hold fire?', { target: unitName(p.target_unit), unit: u });
    case 'defensive_fire': return t('Defensive fire? {target} was fired on by {unit}.', { target: unitName(p.target_unit), unit: u });
    case 'battle_back': return t('Battle back with {target} (1 die)?', { target: unitName(p.target_unit) });
    default: return '';
  }
}

export function describeFastPlayPending(p, unitName) {
  if (!p) return '';
  const who = sideName(p.seat);
  switch (p.type) {
    case 'command': return t('{side}: {n} CP left — click a unit to use it (its first action costs 1 CP), or End turn', { side: who, n: p.cp });
    case 'opportunity_fire': return t('{side} decides on opportunity fire at {unit}…', { side: who, unit: unitName(p.unit) });
    case 'assault_fire': return t('{side} decides whether {unit} fires before the assault…', { side: who, unit: unitName(p.target_unit) });
    case 'defensive_fire': return t('{side} decides on defensive fire…', { side: who });
    case 'battle_back': return t('{side} decides whether {unit} battles back…', { side: who, unit: unitName(p.target_unit) });
    case 'second_assault': return t('{side} may assault again (French second assault)', { side: who });
    default: return '';
  }
}

// The waiting player's prompt holds this seat's actions (its buttons, shown once: the
// action bar leaves them out).
export function promptHoldsActions(view, seat) {
  const p = (view && view.pending) || {};
  return !!seat && p.seat === seat && TIMED.has(p.type);
}

// Fast Play has Command cards only with its optional rule `command_cards`.
export function fastPlayCards(view) {
  const opts = Array.isArray(view.options) ? view.options : Object.keys(view.options || {});
  return opts.includes('command_cards');
}

// render the Fast Play panel: ctx {view, legal, seat, send, unitName}
export function renderFastPlay(box, ctx) {
  const { view, legal, seat, send, unitName } = ctx;
  if (!box) return;
  box.classList.remove('hidden');
  clear(box);
  const p = view.pending || {};
  const perTurn = t('per turn: {list}', { list: Object.entries(view.sides || {}).map(([s, d]) => `${sideName(s)} ${d.cp_per_turn}`).join(', ') });
  const cpLine = el('div', { class: 'fp-cp' },
    el('b', {}, `${t("Fast Play '44")} · `),
    el('span', { id: 'fp-cp', 'data-cp': view.cp ?? 0, 'data-side': view.active || '' }, t('{side}: {n} CP left', { side: sideName(view.active), n: view.cp ?? 0 })),
    el('span', { class: 'muted' }, ` (${perTurn})`),
    el('button', { type: 'button', id: 'fp-help-btn', onclick: () => toggleHelp(box) }, t('Rules help')));
  box.append(cpLine);
  const desc = describeFastPlayPending(p, unitName);
  if (desc) box.append(el('div', { class: 'fp-status', id: 'fp-status' }, desc));
  const mine = promptHoldsActions(view, seat);
  const key = mine ? `${view.turn}/${p.type}/${p.unit}/${JSON.stringify(p.hex || p.target_unit)}/${(view.fights || []).length}` : null;
  if (mine) {
    const acts = legal.filter((a) => a.seat === seat);
    const pr = el('div', { class: 'fp-prompt', id: 'fp-prompt', 'data-pending': p.type, role: 'alertdialog', 'aria-labelledby': 'fp-prompt-text' },
      el('div', { id: 'fp-prompt-text' }, promptText(p, unitName)));
    const row = el('div', { class: 'fp-prompt-buttons' });
    for (const a of acts) {
      const label = a.type === 'opportunity_fire' ? t('Opportunity fire with {unit} at {hex}', { unit: unitName(a.unit), hex: hexT(a.target) })
        : a.type === 'defensive_fire' ? t('Defensive fire with {unit} at {hex}', { unit: unitName(a.unit), hex: hexT(a.target) })
          : a.type === 'battle_back' ? t('Battle back (1 die)')
            : a.type === 'hold_fire' ? t('Hold fire') : a.type === 'no_defensive_fire' ? t('No defensive fire') : a.type === 'pass' ? t('Pass') : a.type;
      row.append(el('button', { type: 'button', class: PASS[a.type] ? '' : 'primary', 'data-fp-action': a.type, onclick: () => { stopTimer(); send(a); } }, label));
    }
    pr.append(row);
    const clock = el('div', { class: 'fp-timer', id: 'fp-timer' }, '');
    pr.append(clock);
    box.append(pr);
    // a lesson (static/tutorial.js) waits for the learner: no auto-pass
    if (document.body.dataset.tutorial) stopTimer();
    else {
      startTimer(key, clock, () => {
        const pass = acts.find((a) => PASS[a.type]);
        if (pass) send(pass);
      });
    }
  } else stopTimer();
  if (box.dataset.help === '1') box.append(helpPanel());
}

function startTimer(key, clock, onExpire) {
  if (timerKey !== key) {
    stopTimer();
    timerKey = key;
    const end = Date.now() + FP_PROMPT_SECONDS * 1000;
    timer = { end, clock, onExpire };
    timer.id = setInterval(tick, 250);
  } else if (timer) timer.clock = clock;
  tick();
}
function tick() {
  if (!timer) return;
  const left = Math.max(0, Math.ceil((timer.end - Date.now()) / 1000));
  timer.clock.textContent = t('Auto-pass in {n}s', { n: left });
  if (left <= 0) { const f = timer.onExpire; stopTimer(); f(); }
}
function stopTimer() {
  if (timer) clearInterval(timer.id);
  timer = null;
  timerKey = null;
}

function toggleHelp(box) {
  box.dataset.help = box.dataset.help === '1' ? '0' : '1';
  const old = box.querySelector('.fp-help');
  if (old) old.remove(); else box.append(helpPanel());
}

// the rules in short, with our readings where the text is silent (docs/rules-coverage.md)
const HELP = [
  [t('Command (1-3)'), t('No cards, no sections. Each turn you get Command Points = the scenario\'s cards (Red Army -1, US Marines +1, Italians -1 per unit lost, not below 3). Click any unit: its first action orders it (1 CP). A unit is ordered once per turn, one at a time; using another unit finishes the previous one. Unspent CP are lost. The turn passes when the CP are spent and the unit is done, when nothing can be ordered, or on End turn.')],
  [t('Move (4)'), t('Standard movement. You may battle right after moving. Moving within range of an enemy unit holding an OpFire marker: your opponent may fire hex by hex; you go on only if you survived, did not retreat and are not suppressed. You choose the path: click the hexes one by one from your unit (each next to the last), then click the last one again (or "Move along the path"); a hex clicked further away moves there by the shortest path.')],
  [t('Battle (5)'), t('Once per unit per turn; if adjacent to an enemy you must battle an adjacent unit. Ranged fire: standard dice and terrain, grenades SUPPRESS instead of hitting, a flag that would push you off the board may withdraw you instead of a hit, you MAY take ground into a vacated adjacent hex. Assault (adjacent): a target that is not suppressed or battled may fire first; if you survive unsuppressed and in place you roll; grenades hit; you MUST take ground if the defender leaves; a defender that retreats gets 2 suppression levels.')],
  [t('Opportunity fire (6)'), t('An ordered unit may take an OpFire marker instead of battling (also after moving if it could still battle; not a support weapon - machine gun, mortar, anti-tank gun - that moved). It fires during the enemy turn at a moving or assaulting unit, always as ranged fire. The marker is lost when the unit is suppressed; unused, it lapses at the start of your next turn (our reading). Firing spends the marker, not the unit\'s defensive fire.')],
  [t('Defensive fire (7)'), t('A unit fired on (not suppressed, not retreated, not yet battled this turn) may fire back once per turn at the attacker, after the hits - or before an assault. It marks the unit as battled. Only the player whose turn it is NOT uses it (our reading).')],
  [t('Suppression (8)'), t('Up to 2 levels (S1/S2 on the unit); a grenade beyond 2 is a hit. Suppressed units neither move nor battle. Ordered, a suppressed unit rallies: its full move toward its own edge ignoring terrain (not impassable), then is unsuppressed. At the start of your turn one level comes off each of your units.')],
  [t('Withdrawal (9), Endgame (11)'), t('A unit may withdraw off its own edge (a CP, as a retreat move) or when flags would push it off; no medal for anyone, gone for good. A side that has withdrawn its last unit loses; the opponent wins at the full medal count.')],
  [t('Artillery (10)'), t('Flags against artillery are hits; grenades suppress it; suppressed artillery cannot fire; after rallying it defends as infantry (T) until your next turn.')],
  [t('Nations (12)'), t('British: battle back (standard conditions) at any time, besides opportunity/defensive fire; its target gets no defensive fire. French (country FR): after an assault that left the defender in place, a second assault, without fire first or defensive fire.')],
  [t('Our readings'), t('SWA (6.2) = the 004 support weapons (machine gun, mortar, anti-tank gun). A unit holding an OpFire marker that is assaulted may fire first with its marker. Scenario rules written for cards: the card count becomes the CP; card-only rules (Commissar chip, Recon as Air Power...) do not apply. Minefields stop a move and are rolled as in the standard game (grenades hit). A moving unit fired on by opportunity fire does not fire back.')],
  [t('Optional rules'), t('dig_in (thread reply): Dig In as a CP order. command_cards (thread reply): the 10 cards the reply lists, 3 each at the start, one per turn for 1 CP - Their Finest Hour +3 CP; Behind Enemy Lines: infantry moves 3 ignoring terrain; Infantry Assault: infantry moves 2 and battles; Armor Assault / Close Assault: +1 die in assaults (armor / all); Artillery Bombard: artillery battles twice; Barrage: 4 dice at any enemy unit; Air Power: the target and up to 3 adjacent enemy units, 2 dice each (Allies) or 1 (Axis); Medics & Mechanics: 4 dice, own symbols and stars give figures back (our readings).')],
  [t('Prompts'), t('When the opponent must decide (opportunity, assault, defensive fire, battle back) he has {n} seconds; then the engine is told "hold fire". The delay is the same whatever the choices.', { n: FP_PROMPT_SECONDS })],
];
export function helpPanel() {
  const d = el('div', { class: 'fp-help', id: 'fp-help' }, el('h4', {}, t('Fast Play \'44 rules help')));
  for (const [head, text] of HELP) d.append(el('p', {}, el('b', {}, `${head}: `), text));
  return d;
}
