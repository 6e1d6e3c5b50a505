// Plain-words texts for the 004 optional battle conditions shown on the game page
// (weather box, out-of-supply and bridge markers). Presentational only: the engine
// applies the rules (engine/conditions.py, engine/rules/conditions.py, bridges.py).

import { t, tn } from './i18n.js';

// 004 "Night & Severe Weather Conditions (Optional)", one entry per option value.
export const WEATHER_TEXT = {
  FOG: { label: t('Fog'), visibility: 2, text: t('no unit may battle a target more than 2 hexes away; artillery may fire further if a friendly unit is within 2 hexes of the target') },
  BLIZZARD: { label: t('Blizzard'), visibility: 2, text: t('no unit may battle a target more than 2 hexes away; artillery may fire further if a friendly unit is within 2 hexes of the target') },
  NIGHT: { label: t('Night'), visibility: 1, text: t('units may battle adjacent targets only; artillery may fire further at a target in close combat with a friendly unit') },
  RAINSTORM: { label: t('Rainstorm'), visibility: 3, text: t('no unit may battle a target more than 3 hexes away (artillery: further if a friendly unit is within 3 hexes of it); no paradrops, Air Power orders 1 unit') },
  DEEP_SNOW: { label: t('Deep snow'), text: t('every unit moves 1 hex less') },
  MUD: { label: t('Mud'), text: t('armour moves at most 2 hexes off roads, railways and towns; special infantry moves as regular infantry') },
  RUSSIAN_MUD: { label: t('Russian mud'), text: t('every unit moves at most 1 hex, except along railways') },
};

export function weatherInfo(value) {
  if (!value) return null;
  const known = WEATHER_TEXT[String(value).toUpperCase()];
  return known ? { code: String(value).toUpperCase(), ...known }
    : { code: String(value), label: String(value).replace(/_/g, ' ').toLowerCase(), text: t('a weather condition is in force') };
}

// Headline of the weather box, e.g. "Fog: visibility 2".
export function weatherHeadline(info) {
  return info.visibility ? t('{weather}: visibility {n}', { weather: info.label, n: info.visibility }) : info.label;
}

// Consecutive turns a unit has been out of supply (004 "Supply Lines & Sieges"): the
// view's `out_of_supply` count (engine/view.py; absent when in supply).
export function supplyTurns(unit) {
  return unit.out_of_supply ?? 0;
}

export function supplyText(turns) {
  const weak = t('armour moves 1 less, artillery cannot move, special infantry fights as regular infantry, 1 battle die less');
  const effect = turns >= 3 ? `${weak}; ${t('at the start of each of its turns a die is rolled and a star costs it 1 figure')}`
    : turns === 2 ? weak : t('no effect yet; from its 2nd turn cut off it is weakened');
  return tn('Out of supply for {n} turn (cut off from its supply base): {effect}', 'Out of supply for {n} turns (cut off from its supply base): {effect}', turns, { effect });
}

// The bridge Battle Star (004 Appendix 2 "Bridge Demolition Rules").
export function bridgeText(b, sideName) {
  const parts = [];
  if (b.rigged) parts.push(t('charges placed by {side}: a {side} unit next to the empty bridge may blow it (any star on 2 dice)', { side: sideName(b.rigged) }));
  if (b.hits) parts.push(t('hit {n} of 4 times by heavy artillery / air (the 4th tank symbol destroys it)', { n: b.hits }));
  const none = t('no charges, no hits');
  return t('Bridge: {state}', { state: parts.join('; ') || none });
}

// The first turn a unit held back by CANNOT_BE_ACTIVATED_TILL_TURN may be ordered.
export function firstActiveTurn(unit) {
  return unit.inactive_until + 1;
}
