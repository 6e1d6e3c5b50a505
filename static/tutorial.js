// The lesson panel of a tutorial game (app/tutorial.py; <body data-tutorial="m44">): each
// step explains one thing and asks for one action, read from the game as it stands (the
// engine decides what is legal; the lesson only says what to do and why).  The steps
// follow the lesson's board (scenarios/tutorial-m44-first-battle.m44) and its dice seed.
import { el, clear } from './util.js';
import { t } from './i18n.js';

const START = [6, 12], NEXT_TO = [5, 13], ENEMY_HEX = [4, 12];
const at = (u, h) => !!u && !!u.hex && u.hex[0] === h[0] && u.hex[1] === h[1];

// the step of the standard game's lesson: {n, title, text}
function stepM44(S) {
  const v = S.view;
  const units = (v && v.units) || [];
  const mine = units.filter((u) => String(u.side).startsWith('ALLIES'));
  const taken = mine.some((u) => at(u, ENEMY_HEX));
  const types = new Set((S.legal || []).map((a) => a.type));
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

const STEPS = { m44: stepM44 };

// the panel: the step's title and text (a live region: read when it changes), the rules help
export function renderTutorial(box, name, S) {
  const step = STEPS[name];
  if (!box || !step || !S.view) return;
  const s = step(S);
  box.classList.remove('hidden');
  if (box.dataset.step === String(s.n) && box.dataset.title === s.title) return;
  box.dataset.step = String(s.n);
  box.dataset.title = s.title;
  clear(box).append(
    el('h3', {}, s.title),
    el('p', { class: 'lesson-text' }, s.text),
    el('p', { class: 'muted' }, el('a', { href: '/help/m44', target: '_blank' }, t('The rules of the game (help)'))),
  );
}
