"""Extension points: where optional rules and scenario options plug into the procedures.

A procedure (movement, battle) never imports the options that modify it.  It calls a
named **extension point** of the game's hook table, carried by the state
(``st.hooks.dice_minus(st, u)``).  The table is a :class:`Hooks`, built by the ruleset
when a game starts and again when a state is loaded (it is never part of a snapshot nor
of the log): :func:`build` combines what the game's options fill (each option module
exposes its extensions as a plain ``HOOKS`` mapping: point name -> function) with the
ruleset's seat mode.  A point that nothing fills keeps its default, which leaves the
procedure as the standard game has it.

Two kinds of point:

* **procedure points** (called by the procedures and the turn machines): modifiers,
  predicates, handlers of special rolls, the phases and actions an option adds;
* **turn-machine ports** (``draw``, ``give``, ``finish_turn``, ``after_move``,
  ``discard_random_card``, ``play_reaction``): services of the running turn machine that
  an option needs (an HQ tent draws a card, discarding a useless card ends the turn); the
  ruleset fills them.

Combining: a point filled twice combines the extensions, in the order given to
:func:`build`, by its ``combine`` rule (``chain``: each gets the previous result as its
last argument; ``any`` / ``all``: predicates; ``each``: every handler runs; ``concat``:
the lists returned joined; ``merge``: mappings merged; ``sum``: numbers added; ``one``: a
second extension is an error).  A point holding a single extension calls it directly (no
indirection on the hot paths).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .common import StandardMode

if TYPE_CHECKING:
    from ..core.scenario_model import ExitZone
    from .state import Battle, GameState, Play, Unit

Hex = tuple[int, int]
Action = dict[str, Any]
Events = list[dict[str, Any]]
#: ``victory``: None (the standard medals / annihilation), False (nobody has won yet) or
#: (winner, None for a draw; reason)
Victory = Literal[False] | tuple[str | None, str] | None
Handler = Callable[["GameState", Action, Events], None]


class Draw(Protocol):
    def __call__(self, st: GameState, side: str, events: Events, n: int = 1) -> list[int]: ...


class AfterMove(Protocol):
    def __call__(self, st: GameState, u: Unit, events: Events, how: str = "move") -> None: ...


@dataclass(frozen=True)
class Step:
    """A phase of an option whose actions are in ``actions`` (airdrop, smoke, offers):
    the decision waited for, and the seat's legal actions."""

    pending: Callable[[GameState], dict[str, Any]]
    legal: Callable[[GameState, str], list[Action]]


class Phase(Protocol):
    """A phase an option runs whole (the campaign's pre-battle decisions)."""

    def pending(self, st: GameState) -> dict[str, Any]: ...

    def legal(self, st: GameState, seat: str) -> list[Action]: ...

    def apply(self, st: GameState, action: Action, events: Events) -> None: ...


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


def _nothing(*_: Any) -> list[Any]:
    return []


def _unfilled(*_: Any) -> Any:
    raise RuntimeError("a turn-machine port the ruleset did not fill")


def _current_plays(st: GameState) -> list[Play]:
    return [st.current_play()]


def _holding(st: GameState, uid: str) -> Play | None:
    return st.play if st.play is not None and uid in st.play.ordered else None


_NONE: Mapping[Any, Any] = MappingProxyType({})


def _point(default: Any, combine: str, doc: str) -> Any:
    meta = {"combine": combine, "doc": doc}
    if combine == "merge":  # a mapping: the one empty mapping, never changed
        return field(default_factory=lambda: _NONE, metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True, eq=False)
class Hooks:
    """One game's extension points (a field per point) and its seat mode.

    Built by :func:`build`; the states of a game share it (``GameState.hooks``)."""

    mode: StandardMode = field(default_factory=StandardMode)  # who decides what
    # -- movement (engine/procedures/movement.py) ------------------------------------------
    move_allowance: Callable[[GameState, Unit, int], int] = _point(
        _last,
        "chain",
        "(st, unit, hexes) -> hexes: the move allowance after the game's conditions "
        "(called only when options are on).  004 weather, demoralisation, supply.",
    )
    mud_cap: Callable[[GameState, Unit], int | None] = _point(
        _none,
        "one",
        "(st, unit) -> int | None: the most hexes a move entering a non-firm hex totals "
        "(called only when options are on).  004 Mud.",
    )
    firm: Callable[[GameState, Hex], bool] = _point(
        _true, "all", "(st, hex) -> bool: the hex is firm ground (004 Mud)."
    )
    pass_through: Callable[[GameState, Unit], frozenset[Hex] | None] = _point(
        _none,
        "one",
        "(st, unit) -> frozenset of occupied hexes the unit may move through but not end "
        "on, or None (called only when options are on).  004 War Of The Worlds.",
    )
    dislodge: Callable[[GameState, Unit, Hex], Hex | None] = _point(
        _none,
        "one",
        "(st, unit, hex) -> the hex one step back where the unit on ``hex`` is dislodged "
        "so that ``unit`` may retreat onto ``hex``, or None (called only when options are "
        "on).  004 Achtung! Zombie!.",
    )
    unseen: Callable[[GameState, Unit], frozenset[Hex] | None] = _point(
        _none,
        "one",
        "(st, unit) -> frozenset of hexes of enemy units the unit's side has not detected, "
        "or None: the move search treats them as empty (called only when options are on).  "
        "004 Kriegspiel.",
    )
    move_stop: Callable[[GameState, Unit, list[tuple[Hex, int]]], int | None] = _point(
        _none,
        "one",
        "(st, unit, path) -> index into ``path`` ([(hex, hexes moved), ...], the start "
        "excluded; -1: the start) of the hex where the referee stops the move, or None "
        "(called when ``unseen`` is not empty).  004 Kriegspiel.",
    )
    filter_destinations: Callable[
        [GameState, Unit, Play | None, dict[Hex, int]], dict[Hex, int]
    ] = _point(
        _last,
        "chain",
        "(st, unit, play, destinations) -> destinations, for a play flagged ``advance``.  "
        "004 Army Manoeuvres.",
    )
    exit_zones: Callable[[GameState, str, list[ExitZone]], list[ExitZone]] = _point(
        _last,
        "chain",
        "(st, side, zones) -> zones: the exit zones of ``side`` (called only when options "
        "are on; zombies: the Living leave by their own baseline).",
    )
    # -- battle (engine/procedures/battle.py, battle_outcome.py, battle_stack.py) ----------
    dice_minus: Callable[[GameState, Unit], int] = _point(
        _zero,
        "sum",
        "(st, unit) -> dice fewer for a battle (called only when options are on).  004 "
        "demoralisation / out of supply.",
    )
    move_fire_cap: Callable[[GameState, Unit, int], int] = _point(
        _last,
        "chain",
        "(st, unit, hexes) -> the most hexes a unit may move and still battle.  004 weather.",
    )
    sight_key: Callable[[GameState, Unit], object] = _point(
        _none,
        "one",
        "(st, unit) -> hashable: what the sight rules read for this unit (target cache "
        "key).  004 weather / night.",
    )
    sight_reach: Callable[[GameState, Unit, int], int] = _point(
        _last,
        "chain",
        "(st, unit, range) -> range: no target beyond the visibility.  Night, weather.",
    )
    sighted: Callable[[GameState, Unit, Hex, int], bool] = _point(
        _true,
        "all",
        "(st, unit, hex, distance) -> bool: the target hex is seen.  Night, weather.",
    )
    roll_handlers: Mapping[str, Callable[[GameState, Battle, list[str], Events], None]] = _point(
        _NONE,
        "merge",
        "{battle kind: (st, battle, faces, events) -> None}: rolls that are not a battle "
        "(seal a cave, heal, blow or bombard a bridge); the record is then finished.",
    )
    enemy_entered: Callable[[GameState, Unit, Events], None] = _point(
        _none,
        "each",
        "(st, unit, events): a unit entered a hex after a retreat or move (004 Bridge "
        "Demolition: charges removed).",
    )
    on_enter: Callable[[GameState, Unit, str, Events], None] = _point(
        _none,
        "each",
        "(st, unit, how, events): a unit has entered its hex (how: move | bel | "
        "take_ground | retreat); may push chance steps (mines, hazards, HQ tents).",
    )
    pressing_on: Callable[[GameState, Unit | None], bool] = _point(
        _false,
        "any",
        "(st, unit) -> bool: the unit must keep advancing (004 Army Manoeuvres Big Push).",
    )
    reaction_possible: Callable[[GameState, Battle], bool] = _point(
        _false,
        "any",
        "(st, battle) -> bool: the defender of a declared close assault may react first "
        "(m44: the Ambush card); the record then waits in stage ``ambush``.",
    )
    play_reaction: Callable[[GameState, Battle, Events], None] = _point(
        _unfilled,
        "one",
        "(st, battle, events): the defender reacts (m44: plays Ambush and battles first).",
    )
    after_card_attack: Callable[[GameState, Events], None] = _point(
        _none,
        "each",
        "(st, events): the battle stack emptied while card targets remain (Air Power, "
        "Barrage: the next target).",
    )
    hits_flags: Callable[[GameState, Battle, Unit, list[str], tuple[int, int]], tuple[int, int]] = (
        _point(
            _last,
            "chain",
            "(st, battle, target, faces, (hits, flags)) -> (hits, flags): how a roll reads "
            "against that target (zombies: grenades are flags; Daleks: flags are losses).",
        )
    )
    figures_lost: Callable[[GameState, Unit, int, str, Events], None] = _point(
        _none,
        "each",
        "(st, unit, lost, by_side, events): figures were removed (``unit.figures`` is "
        "already reduced; 0: it is about to be eliminated).  New zombies, reinforcements.",
    )
    targets_key: Callable[[GameState, Unit], object] = _point(
        _none,
        "one",
        "(st, unit) -> hashable: what a variant adds to the battle targets memo key (its "
        "unit profiles differ from the scenario's, the sickness level changes dice).",
    )
    victory: Callable[[GameState], Victory] = _point(
        _none,
        "one",
        "(st) -> None (the standard medals / annihilation), False (a variant's own object "
        "of the game: nobody has won yet) or (winner | None for a draw, reason): game over.",
    )
    # -- the game and its turns (engine/rulesets/m44: game, turn, end_turn) ----------------
    game_setup: Callable[[GameState], None] = _point(
        _none,
        "each",
        "(st): the units are placed, nothing is dealt yet: convert units, change the "
        "scenario's hand sizes / victory (004 Suggested Variants, Young Generals).",
    )
    turn_begins: Callable[[GameState, str, Events], None] = _point(
        _none,
        "each",
        "(st, side, events): ``side``'s turn has started (objectives updated); may order "
        "units, start a chance step, add units (zombies, Common Cold, reinforcements).",
    )
    turn_ending: Callable[[GameState, str, Events], None] = _point(
        _none,
        "each",
        "(st, side, events): ``side``'s turn is over, before the draw (towns occupied for "
        "a whole turn).",
    )
    chance_handlers: Mapping[str, Callable[[GameState, list[str], Events], None]] = _point(
        _NONE,
        "merge",
        "{chance ``for``: (st, faces, events) -> None}: a turn-machine chance step an "
        "option started (supply losses, Common Cold); the handler sets the next phase.",
    )
    obligations: Callable[[GameState, Play, str], Sequence[str]] = _point(
        _empty,
        "one",
        "(st, play, phase) -> unit ids of ``play`` that must still move (phase ``move``) or "
        "battle (``battle``): ``end_movement`` / ``end_battles`` wait for them (zombies).",
    )
    phases: Mapping[str, Phase] = _point(
        _NONE,
        "merge",
        "{phase: object with pending(st), legal(st, seat), apply(st, action, events)}: "
        "turn-machine phases an option runs whole (004 Simplified Campaign Rules: the "
        "pre-battle decisions).",
    )
    steps: Mapping[str, Step] = _point(
        _NONE,
        "merge",
        "{phase: object with pending(st), legal(st, seat)}: turn-machine phases of an "
        "option whose actions are in ``actions`` (airdrop, smoke screen, the card offer "
        "and exchange of discarding useless cards).",
    )
    actions: Mapping[tuple[str, str], Handler] = _point(
        _NONE,
        "merge",
        "{(phase, action type): (st, action, events) -> None}: the actions of an option "
        "(its steps' actions; what a side may do instead of playing a card).",
    )
    play_card_options: Callable[[GameState, str], list[Action]] = _point(
        _nothing,
        "concat",
        "(st, seat) -> actions: what the active side may do instead of playing a card "
        "(discard useless cards, Restoring Order, The Big Push).",
    )
    # -- the m44 turn machines' scenario rules and options (engine/rulesets/m44) ------------
    scenario_rules: Callable[[GameState], None] = _point(
        _none, "each", "(st): game start, the scenario's night track and camouflage."
    )
    commissar_setup: Callable[[GameState], None] = _point(
        _none, "each", "(st): game start of the standard machine, the Commissar chips."
    )
    set_up_steps: Callable[[GameState], None] = _point(
        _none, "each", "(st): the scenario's set-up steps before the first turn (airdrop, smoke)."
    )
    night_roll_due: Callable[[GameState, str], bool] = _point(
        _false, "any", "(st, side) -> bool: the night roll of ``side``'s turn is still to make."
    )
    night_roll_if_due: Callable[[GameState, str], None] = _point(
        _none, "each", "(st, side): the night roll becomes the next step when it is due."
    )
    night_rolled: Callable[[GameState, list[str], Events], None] = _point(
        _none, "each", "(st, faces, events): the night roll moves the visibility track."
    )
    commissar_card: Callable[[GameState, str], int | None] = _point(
        _none, "one", "(st, side) -> the card under ``side``'s Commissar chip, or None."
    )
    commissar_playable: Callable[[GameState, str], list[int] | None] = _point(
        _none, "one", "(st, side) -> the cards playable while a card is under the chip, or None."
    )
    needs_commissar_card: Callable[[GameState, str], bool] = _point(
        _false, "any", "(st, side) -> bool: a card must go under ``side``'s Commissar chip."
    )
    unit_plays: Callable[[GameState], list[Play]] = _point(
        _current_plays,
        "one",
        "(st) -> the plays whose units move and battle now.  004 Extra Command Cards.",
    )
    play_holding: Callable[[GameState, str], Play | None] = _point(
        _holding,
        "one",
        "(st, unit id) -> the play that ordered the unit, made the current play (or None).  "
        "004 Extra Command Cards.",
    )
    check_claim: Callable[[GameState, Any, bool], None] = _point(
        _none, "each", "(st, card, mirrored): refuse a further card.  004 Extra Command Cards."
    )
    card_played: Callable[[GameState, Play, tuple[int, ...]], None] = _point(
        _none, "each", "(st, play, sections): a card was played and set up (Armor Breakthrough)."
    )
    open_for: Callable[[GameState], bool] = _point(
        _false, "any", "(st) -> bool: a further card may be played.  004 Extra Command Cards."
    )
    fitting: Callable[[GameState, str, list[int]], list[int]] = _point(
        _last, "chain", "(st, side, cards) -> the cards still playable this turn (free sections)."
    )
    breakthrough_hexes: Callable[[GameState, Play | None], list[Hex]] = _point(
        _nothing, "concat", "(st, play) -> hexes where armour may break through now."
    )
    breakthrough_enter: Handler = _point(
        _unfilled, "one", "(st, action, events): action ``armor_breakthrough``."
    )
    instead_of_battle: Callable[[GameState, Unit], list[str]] = _point(
        _nothing, "concat", "(st, unit) -> action types the unit may take instead of battling."
    )
    instead_of_battle_hexes: Mapping[str, Callable[[GameState, Unit], list[Hex]]] = _point(
        _NONE, "merge", "{action type: (st, unit) -> the hexes the action may aim at}."
    )
    do_instead_of_battle: Callable[[GameState, Unit, Action, Events], None] = _point(
        _unfilled, "one", "(st, unit, action, events): the unit acts instead of battling."
    )
    must_advance: Callable[[GameState, Play], bool] = _point(
        _false, "any", "(st, play) -> bool: units of the play must still advance (Big Push)."
    )
    check_end_movement: Callable[[GameState, Play], None] = _point(
        _none, "each", "(st, play): refuse ``end_movement`` (004 The Big Push)."
    )
    no_air: Callable[[GameState], bool] = _point(
        _false, "any", "(st) -> bool: no tactical airpower (004 Rainstorm)."
    )
    update_supply: Callable[[GameState, str, Events], bool] = _point(
        _false, "one", "(st, side, events) -> bool: turn start, a supply roll is due (004)."
    )
    card_targets: Callable[[GameState, str, Callable[[Hex], bool]], list[Hex]] = _point(
        _nothing,
        "concat",
        "(st, side, chained) -> hexes other than units a Barrage / Air Power may target "
        "(004 Bridge Demolition Option 3).",
    )
    card_bombard: Callable[[GameState, str, Hex, int, str, Events], bool] = _point(
        _false,
        "any",
        "(st, side, hex, dice, card, events) -> bool: the card's roll is at ``hex`` (a bridge).",
    )
    # -- turn-machine ports (filled by the ruleset) ----------------------------------------
    draw: Draw = _point(
        _unfilled,
        "one",
        "(st, side, events, n=1) -> card ids drawn from the deck (reshuffling as the ruleset says).",
    )
    give: Callable[[GameState, str, list[int], Events], None] = _point(
        _unfilled,
        "one",
        "(st, side, cards, events): the cards join the side's hand (card_drawn event).",
    )
    finish_turn: Callable[[GameState, Events], None] = _point(
        _unfilled, "one", "(st, events): the active side's turn ends (draws, next turn)."
    )
    discard_random_card: Callable[[GameState, str, str, Events], None] = _point(
        _unfilled,
        "one",
        "(st, side, reason, events): a card at random from the side's hand to the discard "
        "pile (HQ tents, Italian High Command).",
    )
    after_move: AfterMove = _point(
        _unfilled,
        "one",
        "(st, unit, events, how='move'): objectives, victory and the entered hex's effects "
        "after a move.",
    )
    # -- what a side may see (004 Kriegspiel): the procedures and the rulesets' views ------
    hidden: Callable[[GameState, str, Unit], bool] = _point(
        _false,
        "any",
        "(st, side, unit) -> bool: the enemy ``unit`` is off ``side``'s board (not "
        "detected): it is no target, and a target hex holding it reads as empty (called "
        "only when options are on).  004 Kriegspiel.",
    )
    after_apply: Callable[[GameState, GameState, Events], None] = _point(
        _none,
        "each",
        "(before, after, events): an action was applied; may annotate the events with what "
        "each side sees of them (``fog``) and append per-side events.  004 Kriegspiel.",
    )
    public_view: Callable[[GameState, dict[str, Any]], None] = _point(
        _none,
        "each",
        "(st, view): add an option's or scenario rule's public members to the part of the "
        "views every seat shares (mines, 004 Bridge Demolition's Battle Stars, the "
        "Simplified Campaign's pre-battle, a Suggested Variant's state).",
    )
    fogged: Callable[[GameState], bool] = _point(
        _false,
        "any",
        "(st) -> bool: each side's view is redacted as a whole (no shared part for the "
        "server to patch once; the lobby status read from the spectator's view).  004 "
        "Kriegspiel.",
    )
    redact_view: Callable[[GameState, str | None, dict[str, Any]], dict[str, Any]] = _point(
        _last,
        "chain",
        "(st, seat, view) -> view: the seat's view with what its side may not see removed.  "
        "004 Kriegspiel.",
    )
    redact_events: Callable[[GameState | None, str | None, Events], Events] = _point(
        _last,
        "chain",
        "(st | None, seat, events) -> events: the events as the seat's side sees them.  004 "
        "Kriegspiel.",
    )


#: the extension points: name -> (combine rule, doc)
POINT_RULES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {f.name: (f.metadata["combine"], f.metadata["doc"]) for f in fields(Hooks) if f.metadata}
)


def _combined(name: str, how: str, fns: list[Any]) -> Any:
    if how == "merge":
        out: dict[Any, Any] = {}
        for m in fns:
            out.update(m)
        return MappingProxyType(out)
    if len(fns) == 1:
        return fns[0]
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
    if how == "concat":
        return lambda *a: [x for f in fns for x in f(*a)]
    if how == "each":

        def each(*args: Any) -> None:
            for f in fns:
                f(*args)

        return each
    raise ValueError(f"extension point {name!r} takes one extension only")


def build(extensions: Iterable[Mapping[str, Any]], mode: StandardMode | None = None) -> Hooks:
    """The hook table of a game: each mapping of ``extensions`` (an option module's
    ``HOOKS``: point name -> function, or mapping for a ``merge`` point) fills its points,
    combined in the order given; ``mode``: the game's seat mode (default: one seat per
    side)."""
    filled: dict[str, list[Any]] = {}
    for ext in extensions:
        for name, fn in ext.items():
            if name not in POINT_RULES:
                raise KeyError(f"no extension point {name!r} (declared: {sorted(POINT_RULES)})")
            filled.setdefault(name, []).append(fn)
    table = {name: _combined(name, POINT_RULES[name][0], fns) for name, fns in filled.items()}
    return replace(STANDARD, mode=mode or STANDARD.mode, **table)


#: the table of a game no option changes: every point at its default, one seat per side
STANDARD = Hooks()
