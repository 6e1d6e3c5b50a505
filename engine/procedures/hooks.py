"""Extension points: where optional rules and scenario options plug into the procedures.

A procedure (movement, battle) never imports the options that modify it.  It calls a
named **extension point** through :data:`POINTS` (``P.dice_minus(st, u)``); an option
module registers what it changes with :func:`extend` when it is imported (the ruleset
package imports its options).  A point that nobody extends keeps its default, which
leaves the procedure as the standard game has it.

Two kinds of point:

* **procedure points** (declared here, called by the procedures): modifiers, predicates,
  extra destinations, handlers of special rolls;
* **turn-machine ports** (``draw``, ``give``, ``finish_turn``, ``after_move``): services
  of the running turn machine that an option needs (an HQ tent draws a card, discarding a
  useless card ends the turn); the ruleset's turn machine fills them.

Combining: a point extended twice combines the extensions by its ``combine`` rule
(``chain``: each gets the previous result as its last argument; ``any`` / ``all``:
predicates; ``each``: every handler runs, in registration order; ``merge``: mappings
merged; ``sum``: numbers added; ``one``: a second extension is an error).  A point
holding a single extension calls it directly (no indirection on the hot paths).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class Points:
    """The current function of every extension point (attribute per point name)."""

    def __getattr__(self, name: str) -> Any:  # only for names never declared
        raise AttributeError(f"no extension point {name!r}")


POINTS = Points()


@dataclass(frozen=True)
class Point:
    name: str
    combine: str  # chain | any | all | each | merge | sum | one
    doc: str
    default: Any


_POINTS: dict[str, Point] = {}
_EXTENDED: dict[str, list[tuple[str, Any]]] = {}


def declare(name: str, default: Any, combine: str, doc: str) -> None:
    """Declare extension point ``name`` with its default (the standard game)."""
    if name in _POINTS:
        raise ValueError(f"extension point {name!r} declared twice")
    _POINTS[name] = Point(name, combine, doc, default)
    _EXTENDED[name] = []
    setattr(POINTS, name, default)


def _combined(point: Point, fns: list[Any]) -> Any:
    if len(fns) == 1:
        return fns[0]
    how = point.combine
    if how == "chain":

        def chain(*args: Any) -> Any:
            value = args[-1]
            for f in fns:
                value = f(*args[:-1], value)
            return value

        return chain
    if how == "any":
        return lambda *a: any(f(*a) for f in fns)
    if how == "all":
        return lambda *a: all(f(*a) for f in fns)
    if how == "sum":
        return lambda *a: sum(f(*a) for f in fns)
    if how == "each":

        def each(*args: Any) -> None:
            for f in fns:
                f(*args)

        return each
    if how == "merge":
        out: dict[Any, Any] = {}
        for m in fns:
            out.update(m)
        return out
    raise ValueError(f"extension point {point.name!r} takes one extension only")


def extend(name: str, fn: Any, owner: str) -> None:
    """Register ``fn`` at extension point ``name`` on behalf of option module ``owner``
    (idempotent per owner: re-importing a module does not register twice)."""
    point = _POINTS.get(name)
    if point is None:
        raise KeyError(f"no extension point {name!r} (declared: {sorted(_POINTS)})")
    regs = [r for r in _EXTENDED[name] if r[0] != owner] + [(owner, fn)]
    _EXTENDED[name] = regs
    setattr(POINTS, name, _combined(point, [f for _, f in regs]))


def describe() -> list[dict[str, Any]]:
    """Every point: name, combine rule, doc, and the option modules extending it."""
    return [
        {
            "name": p.name,
            "combine": p.combine,
            "doc": p.doc,
            "extended_by": [o for o, _ in _EXTENDED[p.name]],
        }
        for p in _POINTS.values()
    ]


def _zero(*_: Any) -> int:
    return 0


def _none(*_: Any) -> None:
    return None


def _false(*_: Any) -> bool:
    return False


def _true(*_: Any) -> bool:
    return True


def _last(*args: Any) -> Any:
    return args[-1]


def _empty(*_: Any) -> tuple[()]:
    return ()


def _unfilled(name: str) -> Callable[..., Any]:
    def port(*_: Any) -> Any:
        raise RuntimeError(f"turn-machine port {name!r} is not filled (import the ruleset)")

    return port


# -- movement (engine/procedures/movement.py) ------------------------------------------------------
declare(
    "move_allowance",
    _last,
    "chain",
    "(st, unit, hexes) -> hexes: the move allowance after the game's conditions "
    "(called only when options are on).  004 weather, demoralisation, supply.",
)
declare(
    "mud_cap",
    _none,
    "one",
    "(st, unit) -> int | None: the most hexes a move entering a non-firm hex totals "
    "(called only when options are on).  004 Mud.",
)
declare("firm", _true, "all", "(st, hex) -> bool: the hex is firm ground (004 Mud).")
declare(
    "extra_destinations",
    _empty,
    "one",
    "(st, unit) -> hexes reachable as a 1-hex move besides the normal search "
    "(called for Japanese infantry in a cave).  Vocabulary 1.3 Cave.",
)
declare(
    "pass_through",
    _none,
    "one",
    "(st, unit) -> frozenset of occupied hexes the unit may move through but not end "
    "on, or None (called only when options are on).  004 War Of The Worlds.",
)
declare(
    "dislodge",
    _none,
    "one",
    "(st, unit, hex) -> the hex one step back where the unit on ``hex`` is dislodged "
    "so that ``unit`` may retreat onto ``hex``, or None (called only when options are "
    "on).  004 Achtung! Zombie!.",
)
declare(
    "unseen",
    _none,
    "one",
    "(st, unit) -> frozenset of hexes of enemy units the unit's side has not detected, "
    "or None: the move search treats them as empty (called only when options are on).  "
    "004 Kriegspiel.",
)
declare(
    "move_stop",
    _none,
    "one",
    "(st, unit, path) -> index into ``path`` ([(hex, hexes moved), ...], the start "
    "excluded; -1: the start) of the hex where the referee stops the move, or None "
    "(called when ``unseen`` is not empty).  004 Kriegspiel.",
)
declare(
    "filter_destinations",
    _last,
    "chain",
    "(st, unit, play, destinations) -> destinations, for a play flagged ``advance``.  "
    "004 Army Manoeuvres.",
)
# -- battle (engine/procedures/battle.py) ----------------------------------------------------------
declare(
    "dice_minus",
    _zero,
    "sum",
    "(st, unit) -> dice fewer for a battle (called only when options are on).  004 "
    "demoralisation / out of supply.",
)
declare(
    "move_fire_cap",
    _last,
    "chain",
    "(st, unit, hexes) -> the most hexes a unit may move and still battle.  004 weather.",
)
declare(
    "sight_key",
    _none,
    "one",
    "(st, unit) -> hashable: what the sight rules read for this unit (target cache "
    "key).  004 weather / night.",
)
declare(
    "sight_reach",
    _last,
    "chain",
    "(st, unit, range) -> range: no target beyond the visibility.  Night, weather.",
)
declare(
    "sighted",
    _true,
    "all",
    "(st, unit, hex, distance) -> bool: the target hex is seen.  Night, weather.",
)
declare(
    "roll_handlers",
    {},
    "merge",
    "{battle kind: (st, battle, faces, events) -> None}: rolls that are not a battle "
    "(seal a cave, heal, blow or bombard a bridge); the record is then finished.",
)
declare(
    "enemy_entered",
    _none,
    "each",
    "(st, unit, events): a unit entered a hex after a retreat or move (004 Bridge "
    "Demolition: charges removed).",
)
declare(
    "on_enter",
    _none,
    "each",
    "(st, unit, how, events): a unit has entered its hex (how: move | bel | "
    "take_ground | retreat); may push chance steps (mines, hazards, HQ tents).",
)
declare(
    "pressing_on",
    _false,
    "any",
    "(st, unit) -> bool: the unit must keep advancing (004 Army Manoeuvres Big Push).",
)
declare(
    "reaction_possible",
    _false,
    "any",
    "(st, battle) -> bool: the defender of a declared close assault may react first "
    "(m44: the Ambush card); the record then waits in stage ``ambush``.",
)
declare(
    "play_reaction",
    _unfilled("play_reaction"),
    "one",
    "(st, battle, events): the defender reacts (m44: plays Ambush and battles first).",
)
declare(
    "after_card_attack",
    _none,
    "each",
    "(st, events): the battle stack emptied while card targets remain (Air Power, "
    "Barrage: the next target).",
)
# -- 004 Appendix 3 variants (engine/rulesets/m44/options/variants/) ---------------------
declare(
    "game_setup",
    _none,
    "each",
    "(st): the units are placed, nothing is dealt yet: convert units, change the "
    "scenario's hand sizes / victory (004 Suggested Variants, Young Generals).",
)
declare(
    "turn_begins",
    _none,
    "each",
    "(st, side, events): ``side``'s turn has started (objectives updated); may order "
    "units, start a chance step, add units (zombies, Common Cold, reinforcements).",
)
declare(
    "turn_ending",
    _none,
    "each",
    "(st, side, events): ``side``'s turn is over, before the draw (towns occupied for "
    "a whole turn).",
)
declare(
    "chance_handlers",
    {},
    "merge",
    "{chance ``for``: (st, faces, events) -> None}: a turn-machine chance step an "
    "option started (Common Cold); the handler sets the next phase.",
)
declare(
    "hits_flags",
    _last,
    "chain",
    "(st, battle, target, faces, (hits, flags)) -> (hits, flags): how a roll reads "
    "against that target (zombies: grenades are flags; Daleks: flags are losses).",
)
declare(
    "figures_lost",
    _none,
    "each",
    "(st, unit, lost, by_side, events): figures were removed (``unit.figures`` is "
    "already reduced; 0: it is about to be eliminated).  New zombies, reinforcements.",
)
declare(
    "victory",
    _none,
    "one",
    "(st) -> None (the standard medals / annihilation), False (a variant's own object "
    "of the game: nobody has won yet) or (winner | None for a draw, reason): game over.",
)
declare(
    "targets_key",
    _none,
    "one",
    "(st, unit) -> hashable: what a variant adds to the battle targets memo key (its "
    "unit profiles differ from the scenario's, the sickness level changes dice).",
)
declare(
    "exit_zones",
    _last,
    "chain",
    "(st, side, zones) -> zones: the exit zones of ``side`` (called only when options "
    "are on; zombies: the Living leave by their own baseline).",
)
declare(
    "obligations",
    _empty,
    "one",
    "(st, play, phase) -> unit ids of ``play`` that must still move (phase ``move``) or "
    "battle (``battle``): ``end_movement`` / ``end_battles`` wait for them (zombies).",
)
declare(
    "phases",
    {},
    "merge",
    "{phase: object with pending(st), legal(st, seat), apply(st, action, events)}: "
    "turn-machine phases an option adds (004 Simplified Campaign Rules: the "
    "pre-battle decisions).",
)
# -- turn-machine ports (filled by the ruleset's turn machine) ---------------------------
declare(
    "draw",
    _unfilled("draw"),
    "one",
    "(st, side, events, n=1) -> card ids drawn from the deck (reshuffling as the ruleset says).",
)
declare(
    "give",
    _unfilled("give"),
    "one",
    "(st, side, cards, events): the cards join the side's hand (card_drawn event).",
)
declare(
    "finish_turn",
    _unfilled("finish_turn"),
    "one",
    "(st, events): the active side's turn ends (draws, next turn).",
)
declare(
    "discard_random_card",
    _unfilled("discard_random_card"),
    "one",
    "(st, side, reason, events): a card at random from the side's hand to the discard "
    "pile (HQ tents, Italian High Command).",
)
declare(
    "after_move",
    _unfilled("after_move"),
    "one",
    "(st, unit, events, how='move'): objectives, victory and the entered hex's effects "
    "after a move.",
)
# -- what a side may see (004 Kriegspiel): called by the procedures and the rulesets' views --
declare(
    "hidden",
    _false,
    "any",
    "(st, side, unit) -> bool: the enemy ``unit`` is off ``side``'s board (not "
    "detected): it is no target, and a target hex holding it reads as empty (called "
    "only when options are on).  004 Kriegspiel.",
)
declare(
    "after_apply",
    _none,
    "each",
    "(before, after, events): an action was applied; may annotate the events with what "
    "each side sees of them (``fog``) and append per-side events.  004 Kriegspiel.",
)
declare(
    "redact_view",
    _last,
    "chain",
    "(st, seat, view) -> view: the seat's view with what its side may not see removed.  "
    "004 Kriegspiel.",
)
declare(
    "redact_events",
    _last,
    "chain",
    "(st | None, seat, events) -> events: the events as the seat's side sees them.  004 "
    "Kriegspiel.",
)
