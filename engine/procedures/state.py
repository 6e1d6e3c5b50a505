"""Game state: everything that changes during a game, with an explicit fast clone.

The :class:`~engine.core.scenario_model.Scenario` is shared immutably by every state of a game.
Hidden information lives here too (hands, deck order, RNG); :mod:`engine.rulesets.m44.view` decides
who may see what.  States are never mutated by :func:`engine.apply`: it works on
``state.clone()``.

Copy-on-write: :meth:`GameState.clone` shares the :class:`Unit` objects with the
parent state; a rule that changes a unit must first take it with
:meth:`GameState.mut` (``u = st.mut(u.id)``), which copies the unit into the new
state once.  Never assign to a unit obtained from ``st.units`` / ``st.unit_at`` without
``mut`` (the purity property test catches it: the parent state would change).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, cast

from ..core.geometry import Hex
from ..core.rng import Rng
from ..core.units import UnitSpec

if TYPE_CHECKING:
    from ..core.scenario_model import Scenario
    from ..core.terrain import Tile
    from .hooks import Hooks


class Unit:
    """One unit on the board; per-turn fields are reset at the start of every turn."""

    __slots__ = (
        "id",
        "side",
        "spec",
        "hex",
        "figures",
        "max_figures",
        "badge",
        "ordered",
        "moved",
        "battles",
        "entered",
        "overrun",
        "moved_again",
        "no_battle",
        "inactive_until",
        "stopped",
    )

    def __init__(
        self,
        id: str,
        side: str,
        spec: UnitSpec,
        hex: Hex,
        figures: int,
        max_figures: int,
        badge: int | None = None,
        inactive_until: int = 0,
    ) -> None:
        self.id = id
        self.side = side
        self.spec = spec
        self.hex = hex
        self.figures = figures
        self.max_figures = max_figures
        self.badge = badge
        # vocabulary 2.5 CANNOT_BE_ACTIVATED_TILL_TURN: no order while game turn <= this
        self.inactive_until = inactive_until
        self.reset_turn()

    def reset_turn(self) -> None:
        self.ordered = False  # ordered this turn
        self.moved = 0  # hexes moved this turn (normal movement)
        self.battles = 0  # battles fought this turn
        self.entered = False  # entered its current hex this turn (move or take ground)
        self.overrun = False  # armor overrun used this turn
        self.moved_again = False  # Behind Enemy Lines second move done
        self.no_battle = False  # may not battle any more this turn (dig in, wire removal...)
        self.stopped = False  # entered must-stop terrain that is gone (wire armor removed)

    def copy(self) -> "Unit":
        u = Unit.__new__(Unit)
        u.id, u.side, u.spec, u.hex = self.id, self.side, self.spec, self.hex
        u.figures, u.max_figures, u.badge = self.figures, self.max_figures, self.badge
        u.ordered, u.moved, u.battles, u.entered = (
            self.ordered,
            self.moved,
            self.battles,
            self.entered,
        )
        u.overrun, u.moved_again, u.no_battle = self.overrun, self.moved_again, self.no_battle
        u.inactive_until, u.stopped = self.inactive_until, self.stopped
        return u

    def __setstate__(self, state: tuple[Any, dict[str, Any] | None] | dict[str, Any]) -> None:
        """Unpickle (``load_state``); snapshots saved before ``inactive_until`` existed
        get 0 (always active); ``stopped`` (added later) defaults to False."""
        self.inactive_until = 0
        self.stopped = False
        slots = state[1] if isinstance(state, tuple) else state
        for k, v in (slots or {}).items():
            setattr(self, k, v)

    @property
    def cls(self) -> str:
        return self.spec.unit_class

    def key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, s) for s in Unit.__slots__)


@dataclass(frozen=True, slots=True)
class Mine:
    """A minefield on the board (004 "Minefields"; vocabulary 3.1).

    ``value`` is hidden (0-4, 0 = decoy/dud) until ``revealed`` by an enemy unit entering
    it; ``side`` laid it (its units ignore it); ``decoy`` is the DECOY_MEDAL variant.
    """

    side: str | None
    value: int
    revealed: bool = False
    decoy: bool = False


@dataclass(slots=True)
class Quota:
    """``count`` orders for units in ``sections`` (None: anywhere) of ``classes`` (None: any)."""

    sections: frozenset[int] | None
    count: int
    classes: frozenset[str] | None = None
    subs: bool = (
        False  # ``sections`` are Overlord sub-sections 0..5 (engine.rulesets.overlord.machine)
    )


class Play:
    """One command card being carried out: who performs it and what it allows.

    A turn holds a list of plays (1v1: exactly one).  ``card`` is the physical card,
    ``key`` the procedure being executed (differs from the card's own key for a
    Counter-Attack).  ``flags`` holds card modifiers read by the rules.
    """

    __slots__ = (
        "card",
        "key",
        "seat",
        "side",
        "quotas",
        "ordered",
        "flags",
        "filter",
        "section",
        "memo",
    )

    def __init__(self, card: int | None, key: str, seat: str, side: str) -> None:
        self.card = card
        self.key = key
        self.seat = seat
        self.side = side
        self.quotas: list[Quota] = []
        self.ordered: list[str] = []
        self.flags: dict[str, Any] = {}
        self.filter: str | None = None  # None | "adjacent" | "not_adjacent" | "wounded"
        self.section: int | None = None  # chosen section (Infantry Assault)
        # rules' cache (tactics.orderable: its key, the unit ids); never copied
        self.memo: tuple[tuple[Any, ...], tuple[str, ...]] | None = None

    def copy(self) -> "Play":
        p = Play.__new__(Play)
        p.card, p.key, p.seat, p.side = self.card, self.key, self.seat, self.side
        p.quotas = list(self.quotas)
        p.ordered = list(self.ordered)
        p.flags = dict(self.flags)
        p.filter = self.filter
        p.section = self.section
        p.memo = None
        return p

    def key_tuple(self) -> tuple[Any, ...]:
        return (
            self.card,
            self.key,
            self.seat,
            self.side,
            tuple((q.sections, q.count, q.classes, q.subs) for q in self.quotas),
            tuple(self.ordered),
            tuple(sorted(self.flags.items())),
            self.filter,
            self.section,
        )


#: a chance step of the turn machine (not a battle's roll): ``n`` dice rolled ``for`` a
#: card, an option or the night
Chance = TypedDict("Chance", {"n": int, "for": str})


class RetreatOption(TypedDict):
    """One way the battled unit's owner may answer its flags (the ``retreat`` decision)."""

    to: list[int]  # the hex the retreat ends on (the unit's own: no retreat)
    losses: int  # figures lost for the flags it cannot retreat
    ignore: int  # flags ignored


class Battle:
    """One battle in progress (a stack: an Ambush battle sits on top of the one it answers)."""

    __slots__ = (
        "attacker",
        "side",
        "target",
        "target_hex",
        "from_hex",
        "dist",
        "dice",
        "stage",
        "kind",
        "star_hits",
        "no_ignore",
        "ignore_grenades",
        "result",
        "retreat_options",
        "vacated",
        "flags",
    )

    def __init__(
        self,
        attacker: str | None,
        side: str,
        target: str,
        target_hex: Hex,
        from_hex: Hex | None,
        dist: int,
        dice: int,
        kind: str = "battle",
    ) -> None:
        self.attacker = attacker  # unit id (None for Air Power / Barrage)
        self.side = side  # attacking side
        self.target = target  # target unit id
        self.target_hex = target_hex
        self.from_hex = from_hex
        self.dist = dist
        self.dice = dice  # number of dice to roll
        self.stage = "roll"  # ambush | roll | retreat | take_ground | overrun
        self.kind = kind  # battle | overrun | ambush | air_power | barrage
        self.star_hits: frozenset[str] | bool = frozenset()
        self.no_ignore = False  # flags may not be ignored
        self.ignore_grenades = False
        self.result: dict[str, Any] | None = None
        # stage ``retreat``: the owner's choices; stage ``desert_move``: the hexes of the
        # desert move (one slot for both: :meth:`retreats`, :meth:`desert_hexes`)
        self.retreat_options: list[RetreatOption] | list[list[int]] = []
        self.vacated = False
        self.flags = 0

    @property
    def attacker_id(self) -> str:
        """The attacking unit's id, at the stages only a unit's battle reaches (take
        ground, overrun, battle back, Ambush); a card attack has no attacking unit."""
        if self.attacker is None:
            raise AssertionError(f"a {self.kind} battle has no attacking unit")
        return self.attacker

    def retreats(self) -> list[RetreatOption]:
        """The retreat choices (stage ``retreat``)."""
        # the slot holds retreat options at that stage (desert hexes at ``desert_move``)
        return cast(list[RetreatOption], self.retreat_options)

    def desert_hexes(self) -> list[list[int]]:
        """The hexes the armor may move to after taking ground (stage ``desert_move``)."""
        # the slot holds hexes at that stage (retreat options at ``retreat``)
        return cast(list[list[int]], self.retreat_options)

    def copy(self) -> "Battle":
        b = Battle.__new__(Battle)
        for s in Battle.__slots__:
            setattr(b, s, getattr(self, s))
        return b

    def key(self) -> tuple[Any, ...]:
        return tuple(repr(getattr(self, s)) for s in Battle.__slots__)


_NESTED = frozenset({dict, list})


class ShallowExt(dict[str, Any]):
    """Mode data whose values are never mutated in place, only replaced (tuples, nested
    dicts rebuilt on change): a state clone copies its top level only."""

    __slots__ = ()


def _copy_ext(x: Any) -> Any:
    """Copy of the mode data ``GameState.ext`` (nested dicts/lists of plain values;
    tuples and other values are shared: never mutated in place)."""
    if type(x) is ShallowExt:
        return ShallowExt(x)
    if type(x) is dict:
        return {k: _copy_ext(v) if type(v) in _NESTED else v for k, v in x.items()}
    if type(x) is list:
        return [_copy_ext(v) if type(v) in _NESTED else v for v in x]
    return x


class GameState:
    """The whole mutable game.  Clone with :meth:`clone` (explicit, no deepcopy)."""

    __slots__ = (
        "scn",
        "hooks",
        "options",
        "mode",
        "ext",
        "rng",
        "turn",
        "active",
        "phase",
        "units",
        "occ",
        "hands",
        "deck",
        "discard",
        "plays",
        "battles",
        "chance",
        "pending",
        "elim_medals",
        "exit_medals",
        "objectives",
        "sudden",
        "tiles_over",
        "last_card",
        "extra_draws",
        "recon_cards",
        "air_targets",
        "winner",
        "game_over",
        "last_roll",
        "figures_killed",
        "last_turn_for",
        "reshuffle",
        "seq",
        "owned",
        "mines",
        "crosshairs",
    )

    # the slots' types (set by the rulesets' ``new_game``, :meth:`clone` and snapshots)
    scn: Scenario  # shared by every state of the game, never changed
    # the game's extension points (procedures/hooks.py), shared like ``scn``: built by the
    # ruleset from the options and mode, never in a snapshot (a loaded state gets it again)
    hooks: Hooks
    options: dict[str, Any]  # the game's optional rules (validated)
    mode: str  # the turn machine's seat mode (``hooks.mode`` is its object)
    ext: Any  # mode / option data (ShallowExt, dict or None)
    rng: Rng
    turn: int
    active: str  # the side whose turn it is
    phase: str
    units: dict[str, Unit]  # unit id -> unit (copy-on-write: :meth:`mut`)
    occ: dict[Hex, str]  # hex -> unit id
    hands: dict[str, list[int]]  # side -> card ids
    deck: list[int]
    discard: list[int]
    plays: list[Play]
    battles: list[Battle]
    chance: Chance | None  # the chance step waited for
    pending: dict[str, Any] | None  # the decision waited for
    elim_medals: dict[str, int]
    exit_medals: dict[str, int]
    objectives: dict[str, Any]  # objective id -> holder (or option data)
    sudden: str | None  # the side that won by sudden death
    tiles_over: dict[Hex, tuple[Tile, ...]]
    last_card: dict[str, Any]
    extra_draws: dict[str, int]
    recon_cards: list[int]
    air_targets: list[Hex]  # Air Power / Barrage targets chosen, in order
    winner: str | None
    game_over: bool
    last_roll: Any
    figures_killed: dict[str, int]
    last_turn_for: str | None
    reshuffle: bool
    seq: int
    owned: set[str]  # unit ids this state copied (``mut``)
    mines: dict[Hex, Mine]
    crosshairs: dict[str, tuple[tuple[str, Hex, Hex], ...]]

    def clone(self) -> "GameState":
        s = GameState.__new__(GameState)
        s.scn = self.scn
        s.hooks = self.hooks
        s.options = self.options
        s.mode = self.mode
        s.ext = _copy_ext(self.ext) if self.ext else self.ext  # mode data (Overlord)
        r = Rng.__new__(Rng)
        r.seed, r.counter = self.rng.seed, self.rng.counter
        s.rng = r
        s.turn = self.turn
        s.active = self.active
        s.phase = self.phase
        s.units = self.units.copy()  # Unit objects shared: see mut()
        s.owned = set()
        s.occ = dict(self.occ)
        s.hands = {k: v[:] for k, v in self.hands.items()}
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.plays = [p.copy() for p in self.plays]
        s.battles = [b.copy() for b in self.battles] if self.battles else []
        s.chance = self.chance  # dict, replaced never mutated
        s.pending = self.pending  # dict, replaced never mutated
        s.elim_medals = dict(self.elim_medals)
        s.exit_medals = dict(self.exit_medals)
        s.objectives = dict(self.objectives)
        s.sudden = self.sudden
        s.tiles_over = dict(self.tiles_over)
        s.mines = dict(self.mines) if self.mines else {}  # hex -> Mine (immutable)
        s.crosshairs = (
            self.crosshairs
        )  # gun uid -> ((target uid, target hex, gun hex),); replaced, never mutated
        s.last_card = dict(self.last_card)
        s.extra_draws = dict(self.extra_draws)
        s.recon_cards = list(self.recon_cards)
        s.air_targets = list(self.air_targets)
        s.winner = self.winner
        s.game_over = self.game_over
        s.last_roll = self.last_roll
        s.figures_killed = dict(self.figures_killed)
        s.last_turn_for = self.last_turn_for
        s.reshuffle = self.reshuffle
        s.seq = self.seq
        return s

    def mut(self, uid: str) -> Unit:
        """The unit ``uid`` of this state, made private to it (copy-on-write) for changes."""
        u = self.units[uid]
        owned = self.owned
        if uid not in owned:
            u = u.copy()
            self.units[uid] = u
            owned.add(uid)
        return u

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in GameState.__slots__ if k not in ("owned", "hooks")}

    def __setstate__(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            object.__setattr__(self, k, v)
        self.owned = set(self.units)

    @property
    def play(self) -> Play | None:
        return self.plays[-1] if self.plays else None

    def current_play(self) -> Play:
        """The play being carried out (asked only in a phase that has one: ordering,
        moving, battling, a card's own steps)."""
        return self.plays[-1]

    def due_chance(self) -> Chance:
        """The chance step waited for (asked only in the ``chance`` phase)."""
        if self.chance is None:
            raise AssertionError("no chance step is waited for")
        return self.chance

    def medals(self, side: str) -> int:
        total = self.elim_medals[side] + self.exit_medals[side]
        for obj in self.scn.objectives:
            if self.objectives.get(obj.id) == side:
                total += obj.counts_for
        es = self.objectives.get("empty_section")  # option empty_section_medals
        if es is not None and es[0] == side:
            total += es[1]
        if self.sudden == side:
            total += 1000
        return total

    def unit_at(self, h: Hex) -> Unit | None:
        uid = self.occ.get(h)
        return self.units[uid] if uid is not None else None

    def snapshot(self) -> tuple[Any, ...]:
        """A comparable summary of everything (used for equality: replay == live)."""
        return (
            self.options and tuple(sorted(self.options.items())),
            self.mode,
            self.rng.seed,
            self.rng.counter,
            self.turn,
            self.active,
            self.phase,
            tuple(sorted((k, u.key()) for k, u in self.units.items())),
            tuple(sorted(self.occ.items())),
            tuple(sorted((k, tuple(v)) for k, v in self.hands.items())),
            tuple(self.deck),
            tuple(self.discard),
            tuple(p.key_tuple() for p in self.plays),
            tuple(b.key() for b in self.battles),
            repr(self.chance),
            repr(self.pending),
            tuple(sorted(self.elim_medals.items())),
            tuple(sorted(self.exit_medals.items())),
            tuple(sorted(self.objectives.items(), key=repr)),
            self.sudden,
            tuple(sorted(self.tiles_over.items(), key=repr)),
            tuple(sorted(self.mines.items())),
            tuple(sorted(self.crosshairs.items())),
            tuple(sorted(self.last_card.items(), key=repr)),
            tuple(sorted(self.extra_draws.items())),
            tuple(self.recon_cards),
            tuple(self.air_targets),
            self.winner,
            self.game_over,
            repr(self.last_roll),
            tuple(sorted(self.figures_killed.items())),
            self.last_turn_for,
            self.reshuffle,
            self.seq,
            repr(self.ext),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.snapshot() == other.snapshot()

    __hash__ = None  # type: ignore[assignment]
