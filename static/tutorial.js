// The lesson panel of a tutorial game (app/tutorial.py; <body data-tutorial="m44">): each
// step explains one thing and asks for one action, read from the game as it stands (the
// engine decides what is legal; the lesson only says what to do and why).  The steps
// follow the lesson's board (scenarios/tutorial-*.m44) and its dice seed.
import { el, clear } from './util.js';
import { t, tn, term } from './i18n.js';
import { ROLE_NAMES } from './overlord.js';

const START = [6, 12], NEXT_TO = [5, 13], ENEMY_HEX = [4, 12];
const at = (u, h) => !!u && !!u.hex && u.hex[0] === h[0] && u.hex[1] === h[1];

// the step of the standard game's lesson: {n, title, text}
function stepM44(S, types) {
  const v = S.view;
  const units = (v && v.units) || [];
  const mine = units.filter((u) => String(u.side).startsWith('ALLIES'));
  const taken = mine.some((u) => at(u, ENEMY_HEX));
  if (v.game_over) {
    return v.winner === 'ALLIES'
      ? { n: 8, title: t('Victory!'), text: t('The German unit lost its last figure: you win its medal, and with it the battle (this lesson needs 1 medal; a real scenario needs 4 to 6). You have played a whole turn of Memoir \'44: command card, orders, movement, battle, retreat and take ground.') }
      : { n: 8, title: t('The battle is over'), text: t('This lesson is over. Start it again from the lobby to try once more.') };
  }
  if (types.has('play_card')) {
    return taken
      ? { n: 6, title: t('Step 6: a new card'), text: t('At the end of your turn you drew a new card. Play "Assault Centre": it orders every unit in the centre section. Choose it in your hand (Tab to it, then Enter).') }
      : { n: 1, title: t('Step 1: play a section card'), text: t('You command the Allies, at the bottom of the board. Each turn starts with a command card: a section card orders units in one section of the board (left, centre or right). Play "Probe Centre": it orders 2 units in the centre. Choose it in your hand (Tab to it, then Enter).') };
  }
  if (types.has('order')) {
    return { n: 2, title: t('Step 2: order your units'), text: t('Only ordered units may move and battle. Order your two infantry units: select each highlighted unit (on the board: N goes to the next one, Enter selects it).') };
  }
  if (types.has('move') || types.has('end_movement')) {
    if (taken) return { n: 7, title: t('Step 7: no need to move'), text: t('Your unit already stands next to the German unit: it can battle without moving. Press "Done moving".') };
    if (mine.some((u) => at(u, NEXT_TO))) return { n: 3, title: t('Step 3: done moving'), text: t('Your unit stands next to the enemy. The other unit stays where it is. Press "Done moving".') };
    return { n: 3, title: t('Step 3: move'), text: t('Infantry moves 1 hex and may still battle (or 2 hexes without battling). Select your unit at ({row},{col}), then the highlighted hex ({row2},{col2}), next to the German unit.', { row: START[0], col: START[1], row2: NEXT_TO[0], col2: NEXT_TO[1] }) };
  }
  if (types.has('battle')) {
    return taken
      ? { n: 7, title: t('Step 7: win a medal'), text: t('Battle the German unit again: it has one figure left. Eliminating an enemy unit wins its medal.') }
      : { n: 4, title: t('Step 4: battle'), text: t('Select your unit next to the enemy and target the German unit. Infantry rolls 3 dice at 1 hex, 2 at 2, 1 at 3. Each infantry symbol or grenade is a hit (one figure lost); each flag makes the unit retreat 1 hex toward its own side.') };
  }
  if (types.has('take_ground')) {
    const d = S.lastDice ? S.lastDice.dice.length : 3;
    return { n: 5, title: t('Step 5: read the dice, take ground'), text: t('Your {n} dice are in the Dice panel and the log: one infantry symbol (a hit: the German unit lost a figure), one flag (it retreated 1 hex), the rest missed. After a close assault that empties the hex, your unit may take ground: move into it. Select the highlighted hex (on the board: N, then Enter).', { n: d }) };
  }
  return { n: 0, title: t('The enemy\'s turn'), text: t('The Germans hold no command card in this lesson: they pass. Watch the log.') };
}

// Overlord's first turn (scenarios/tutorial-overlord-first-turn.m44): the player holds
// the four Allied seats; the page shows the one that has something to do
const OL_MOVE = [6, 28], OL_TO = [5, 29], OL_ENEMY = [3, 29];
function stepOverlord(S, types) {
  const v = S.view, ol = S.view.overlord || {};
  const role = S.seat ? String(S.seat).split(':')[1] : null;
  if (v.game_over || (v.turn || 0) > 1) {
    return { n: 9, title: t('Your first Overlord turn is over'), text: t('The Commander-in-Chief gave the card, the Centre Field General played it in his half of the section: that is Overlord. Now the Germans play; go on with the battle, or go back to the lobby for another lesson.') };
  }
  if (role === 'cinc' && (types.has('dispatch') || types.has('visit') || types.has('confirm_dispatch'))) {
    const given = ((ol.dispatch || {}).centre || []).length > 0;
    if (!given) return { n: 1, title: t('Step 1: the Commander-in-Chief gives a card'), text: t('In Overlord each side has a Commander-in-Chief and three Field Generals (left, centre and right). You hold all four Allied seats. The Commander-in-Chief holds the cards but commands no unit: he gives them to his generals. Give "{card}" to the Centre Field General: select the card in the dispatch desk (Tab to it, then Enter), then press "{button}" on the Centre Field General.', { card: term('Attack Centre'), button: t('Give it here') }) };
    if (ol.visit !== 'centre') return { n: 2, title: t('Step 2: visit a Field General'), text: t('Each turn the Commander-in-Chief visits one Field General: only with him may he talk this turn. Press "{button}".', { button: t('Visit {role}', { role: ROLE_NAMES.centre }) }) };
    return { n: 3, title: t('Step 3: confirm the orders'), text: t('The card and the visit are chosen. Press "{button}": the Field Generals receive their cards.', { button: tn('Confirm orders ({n} card)', 'Confirm orders ({n} cards)', 1) }) };
  }
  if ((role === 'left' || role === 'right') && types.has('pass')) {
    return { n: 4, title: t('Step 4: a general without a card'), text: t('This Field General received no card. He may act on initiative (roll one die: it may order a unit, or harm one) or do nothing. He has no unit here: press "{button}".', { button: t('Do nothing this turn') }) };
  }
  if (role === 'centre') {
    if (types.has('play_card')) return { n: 5, title: t('Step 5: the Field General plays the card'), text: t('You now play the Centre Field General (the seat bar shows which seat the page plays). His section is cut in two halves; a card is played in one of them. Your three infantry units stand in the right half: press "{button}".', { button: t('Play in your right half') }) };
    if (types.has('order') || types.has('end_orders')) return { n: 6, title: t('Step 6: order your units'), text: t('"{card}" orders 3 units in that half. Select each highlighted unit (on the board: N goes to the next one, Enter selects it).', { card: term('Attack Centre') }) };
    if (types.has('move') || types.has('end_movement')) {
      return S.view.units.some((u) => u.hex && u.hex[0] === OL_TO[0] && u.hex[1] === OL_TO[1])
        ? { n: 7, title: t('Step 7: done moving'), text: t('The other units stay where they are. Press "{button}". In Overlord every Field General moves before anybody battles.', { button: t('Done moving') }) }
        : { n: 7, title: t('Step 7: move'), text: t('From here on it is the standard game. Select your unit at ({row},{col}), then the highlighted hex ({row2},{col2}).', { row: OL_MOVE[0], col: OL_MOVE[1], row2: OL_TO[0], col2: OL_TO[1] }) };
    }
    if (types.has('battle') || types.has('end_battles')) return { n: 8, title: t('Step 8: battle'), text: t('Select your unit at ({row},{col}) and target the German unit at ({row2},{col2}): 2 dice at 2 hexes. The dice show in the Dice panel and the log.', { row: OL_TO[0], col: OL_TO[1], row2: OL_ENEMY[0], col2: OL_ENEMY[1] }) };
  }
  return { n: 0, title: t('Wait'), text: t('Another seat is acting. The page shows your seat that has something to do as soon as there is one.') };
}

// Fast Play's first turn (scenarios/tutorial-fastplay-first-turn.m44): 2 Command Points,
// then the German unit moves into the range of the unit on opportunity fire (scripted)
const FP_MOVE = [6, 10], FP_TO = [5, 11], FP_OPFIRE = [5, 13];
function stepFastplay(S, types) {
  const v = S.view;
  const p = v.pending || {};
  const mine = (v.units || []).filter((u) => String(u.side).startsWith('ALLIES'));
  if (types.has('opportunity_fire')) {
    return { n: 4, title: t('Step 4: opportunity fire!'), text: t('The German unit moves into the range of your unit on opportunity fire: you may fire at it now, during the enemy turn (its marker is then spent). Press "{button}" in the prompt.', { button: t('Opportunity fire') }) };
  }
  if (v.game_over || ((v.turn || 0) > 1 && !mine.some((u) => u.opfire))) {
    return { n: 5, title: t('Your first Fast Play turn is over'), text: t('Your unit fired during the enemy turn: its dice are in the Dice panel and the log (a grenade suppresses instead of hitting). You have spent Command Points, moved, and fired on opportunity: that is Fast Play. Go on with the battle, or go back to the lobby for another lesson.') };
  }
  if (v.active === 'ALLIES' && p.type === 'command') {
    if (!mine.some((u) => u.ordered)) return { n: 1, title: t('Step 1: Command Points'), text: t('Fast Play has no cards and no sections: each turn you get Command Points (here {n}). Using a unit anywhere on the board costs 1 CP. Move your unit at ({row},{col}) to ({row2},{col2}): select it (N, then Enter), then the hex.', { n: p.cp, row: FP_MOVE[0], col: FP_MOVE[1], row2: FP_TO[0], col2: FP_TO[1] }) };
    return { n: 2, title: t('Step 2: an opportunity fire marker'), text: t('One CP left. A unit may take an OpFire marker instead of battling: it will fire at an enemy unit that moves within its range during the enemy turn. Select your unit at ({row},{col}) (N, then Enter) and press "{button}".', { row: FP_OPFIRE[0], col: FP_OPFIRE[1], button: t('OpFire marker (fire in the enemy turn)') }) };
  }
  return { n: 3, title: t('Step 3: the enemy turn'), text: t('Your Command Points are spent: the turn passed to the Germans. Watch the German unit: it moves toward your lines.') };
}

const STEPS = { m44: stepM44, overlord: stepOverlord, fastplay: stepFastplay };
// the rules help of each lesson's rule system
const HELP = { m44: '/help/m44', overlord: '/help/overlord', fastplay: '/help/fastplay' };

// the panel: the step's title and text (a live region: read when it changes), the rules help
export function renderTutorial(box, name, S) {
  const step = STEPS[name];
  if (!box || !step || !S.view) return;
  const s = step(S, new Set((S.legal || []).map((a) => a.type)));
  box.classList.remove('hidden');
  if (box.dataset.step === String(s.n) && box.dataset.title === s.title) return;
  box.dataset.step = String(s.n);
  box.dataset.title = s.title;
  clear(box).append(
    el('h3', {}, s.title),
    el('p', { class: 'lesson-text' }, s.text),
    el('p', { class: 'muted' }, el('a', { href: HELP[name], target: '_blank' }, t('The rules of the game (help)'))),
  );
}
