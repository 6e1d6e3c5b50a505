// Names of units in the battle log and the dice caption: "US Infantry at (5,5)", the hex
// being where the unit stood when the event happened.  The live page and a reload tell
// the same story: both start from the units of the game's first state (the
// `units` of GET /api/games/{id}/events, or the first view) and move them with the
// events, in log order.  A unit never named falls back to the current view, never to
// an internal id.
import { unitTitle } from './units.js';
import { t } from './i18n.js';

// event type -> field holding the hex the unit ends on
const MOVES = {
  unit_moved: 'to', moved: 'to', move: 'to', unit_retreated: 'to', retreat: 'to', retreated: 'to',
  ground_taken: 'to', take_ground: 'to', unit_entered: 'hex', unit_dropped: 'hex', unit_reinforced: 'hex',
};

export class UnitNames {
  constructor(fallback = () => null) { this.units = new Map(); this.fallback = fallback; this.seeded = false; }
  seed(units) {
    this.units = new Map();
    for (const u of units || []) this.units.set(u.id, { title: unitTitle(u), hex: u.hex || null });
    this.seeded = true;
  }
  // units not known yet (reinforcements, a page that has no history yet)
  learn(units) {
    for (const u of units || []) if (!this.units.has(u.id)) this.units.set(u.id, { title: unitTitle(u), hex: u.hex || null });
  }
  name(id) {
    let u = this.units.get(id);
    if (!u) {
      const v = this.fallback(id);
      if (v) u = { title: unitTitle(v), hex: v.hex || null };
    }
    if (!u) return t('a unit');
    return u.hex ? t('{unit} at ({row},{col})', { unit: u.title, row: u.hex[0], col: u.hex[1] }) : u.title;
  }
  apply(e) {
    const f = MOVES[e.type];
    if (!f || !e.unit || !this.units.has(e.unit)) return;
    const h = e[f] || (Array.isArray(e.path) ? e.path[e.path.length - 1] : null);
    if (Array.isArray(h) && h.length === 2) this.units.get(e.unit).hex = h;
  }
}

// The seq a log line shows: the dice rolled for an action are numbered like the action
// (as the live update numbers its batch), so a reload numbers lines as the live page did.
export function displaySeqs(entries) {
  let last = null;
  return (entries || []).map((en) => {
    if (en.seat !== 'chance' || last === null) last = en.seq;
    return last;
  });
}
