"""The ruleset contract: one abstract base class that every rule system on this server
subclasses.

A **ruleset** is a rule system (standard Memoir '44, Overlord, Fast Play '44, the 3x3
Portable Wargame, the France 1944 combat referee, ...).  The server, the CLI, the bots
and the tests drive every game through :class:`Ruleset` only, never through a ruleset's
internals, so a new rule system is a new package under ``engine/rulesets/`` whose class
subclasses :class:`Ruleset`, plus one ``register(...)`` call; nothing in ``app/`` names a
ruleset (docs/architecture.md "Adding a ruleset").

The shape follows OpenSpiel's ``Game``/``State`` split and pgx's ``_init``/``_step``/
``_observe``: the state is an opaque value owned by the ruleset; dice are explicit
**chance steps** (``to_act(state) == ["chance"]``, ``sample_chance`` draws from the RNG
carried inside the state, ``apply`` takes the roll like any action), so a replay of the
same actions from the same seed gives the same game, and no player can choose a roll.

Contract (the abstract methods: what every ruleset must define):

* ``new_game(seed, options, scenario, mode)`` is pure: same arguments, same state.
  ``scenario`` is what the ruleset's ``setup`` names (a parsed ``.m44`` Scenario for
  ``setup == "scenario"``; ``None`` for ``setup == "none"``, where setting up is part of
  the game's own actions).
* ``apply(state, action)`` never mutates ``state``; it returns ``(new_state, events)``.
  Illegal actions raise :class:`~engine.core.errors.IllegalAction` with a stable code.
* ``canonical_action(state, action)`` returns the action as the log stores it: known
  keys only, values of their documented type and range, or raises ``IllegalAction``
  (``unknown_field``, ``bad_value``, ...).  The server stores this form, never the raw
  client text.  ``apply`` of the canonical form equals ``apply`` of the original.
* Seats are strings; ``"chance"`` is the pseudo-seat of dice; spectators are ``None``.
  ``legal_actions(state, seat)`` is empty for a seat not in ``to_act(state)`` (the
  server's fan-out asks only the acting seats; tests/engine/test_views_for.py).
* ``view_for(state, seat)`` and ``events_for(state, events, seat)`` are the only way a
  seat learns anything: hidden information never leaves through another call.
* ``conclude(state, side, reason) -> (state, events)``: the game ended outside the rules
  (``reason``: ``resign`` / ``timeout`` / ``forfeit``, remote play): game over, winner
  the other side, one ``game_over`` event with ``winner``, ``reason`` and ``loser``;
  ``IllegalAction`` if the game is over or ``side`` is not one of its sides
  (:func:`engine.meta.conclude`).  Every ruleset says how its own game ends.
* ``dump_state``/``load_state`` give a snapshot as JSON-able data (``dict``) carrying
  ``ruleset`` and ``version`` (never a pickle); a ruleset set up from a scenario takes it
  back in ``load_state(data, scenario)`` (the state refers to it; the others ignore
  ``scenario``); a snapshot of an older version may be refused with
  ``EngineError("snapshot_version")`` (the server then replays the log instead).

Members with a default that is right for any ruleset (override to do better):

* ``turn(state)`` the game turn, for turn caps (None: the ruleset counts no turns);
* ``layouts(mode)`` / ``default_layout(mode)`` how players share the role seats of a
  side (one layout ``"1"`` where every seat is its own player);
* ``preview(state, action)`` what an action would compute, without applying it (e.g. a
  France 1944 combat's odds and shifts before its irrevocable declaration;
  ``has_preview`` says whether there is one; default ``EngineError("no_preview")``);
* ``supports_undo`` / ``undoable(before, action, events, after, rolls)`` whether
  remote-play ``undo`` is offered and which steps it may take back (default: never; a
  remote-play ``undo`` is refused with ``undo_not_supported``);
* ``normalise_logged(state, action)`` a log row written by an older release in today's
  canonical form (keys the ruleset never read dropped), for replays (default:
  ``canonical_action``);
* ``views_for(state, seats)`` the views of several seats at once, equal to
  ``[view_for(state, s) for s in seats]`` but may compute the seat-independent part once
  (the server's fan-out asks for every audience of a game after each action); the views
  may share sub-objects, so callers never mutate them (default: one ``view_for`` per
  seat);
* ``view_parts(state, seats) -> (common, overlays) | None`` the same views as one shared
  ``common`` dict and one overlay per seat, ``{**common, **overlays[i]}`` being
  ``view_for(state, seats[i])``, so that the server patches the shared part once per
  action (default None: the views are not split; :func:`view_parts_of` then gives an
  empty ``common`` and the whole views as overlays);
* ``public_status(state)`` the ``turn``, ``to_act``, ``game_over`` and ``winner`` of the
  spectator's view without building it (the lobby columns written with every action;
  default: read from ``view_for(state, None)``);
* ``spectator_seat(side)`` the seat whose views and events a spectator watching ``side``
  is shown (default None: the public view);
* ``actor_for(state, actor, seat)`` the seat that acted as ``seat`` may know it (default:
  ``actor`` itself; 004 Kriegspiel team play: an enemy role seat is only its side);
* ``panels_for(mode)`` the renderer's optional panels a game of ``mode`` uses (default:
  the ``panels`` class attribute; Overlord's ``team`` mode has no C-in-C dispatch, so no
  ``"overlord"`` panel); ``bots_stand_in(mode)`` whether a bot takes over the slot of a
  player who leaves a live game of ``mode`` (default False; the modes whose role seats
  are shared by teams say True);
* ``collective_sides(slots)`` the sides whose players play all their roles together,
  given how many player slots share each side's seats (default: none; Overlord 002
  "Teams": 1 or 2 players per side), for the chat policy;
* ``chat_line(view, side)`` who may talk to whom inside a side (:data:`TALK_FREE`
  default: every seat of a side talks to every other; Overlord answers with its chain
  of command);
* ``supports_campaign``: the ruleset plays the battles of a campaign, a series of games
  of the same two sides where each battle's result carries into the next
  (``campaign_score(state)`` the sides' score of a finished battle,
  ``campaign_carry(score, wins)`` what each side takes into the next battle, given to
  it as option ``campaign``; default False, and both members refuse with
  ``EngineError("no_campaign")``).

The module-level helpers (``views_of``, ``layouts_of``, ...) are the same calls as
functions of a ruleset, kept for the callers that name them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .errors import EngineError

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]

CHANCE = "chance"
STATUS_KEYS = ("turn", "to_act", "game_over", "winner")  # ``public_status``

# ``chat_line`` answers: the side talks freely; the C-in-C visits one Field General
# (``("visiting", role)``); his orders are not confirmed yet; it is the opponent's turn
TALK_FREE = ("free", None)

S = TypeVar("S")


class Ruleset(ABC, Generic[S]):
    """What a rule system provides, ``S`` being the type of its game states.  Attributes
    first, then the abstract game calls, then the members with a default."""

    name: ClassVar[str]  # registry key, stored in every game row ("m44", ...)
    version: ClassVar[str]  # bumped when the same log would replay differently
    title: ClassVar[str]  # shown in the lobby
    summary: ClassVar[str]  # one paragraph for the lobby and the rules help
    setup: ClassVar[str]  # "scenario" (a .m44 file) or "none" (set-up is played)
    renderer: ClassVar[str]  # the browser module that draws it: "hex", "square", ...
    # the renderer's optional panels this ruleset's games use ("fastplay", "overlord",
    # "fog", "variants" for "hex"; docs/architecture.md "Client renderers"): the client
    # shows a panel because its ruleset declares it, never by guessing from a view
    panels: ClassVar[tuple[str, ...]] = ()
    modes: tuple[str, ...] = ("1v1",)  # seat layouts offered (("team", "overlord"), ...)
    supports_undo: ClassVar[bool] = False  # remote-play ``undo`` (see ``undoable``)
    has_preview: ClassVar[bool] = False  # ``preview`` answers (see ``preview``)
    supports_campaign: ClassVar[bool] = False  # plays the battles of a campaign

    # -- what every ruleset defines ------------------------------------------------------
    @abstractmethod
    def options(self) -> list[dict[str, Any]]:
        """Named optional rules: ``{"name", "description", "source", "default", ...}``."""

    @abstractmethod
    def accepts(self, scenario: Any, mode: str | None) -> bool:
        """May a game of this ruleset be set up from ``scenario`` in ``mode``?"""

    @abstractmethod
    def new_game(
        self,
        seed: int,
        options: dict[str, Any] | None = None,
        scenario: Any = None,
        mode: str | None = None,
    ) -> S:
        """A new game (pure: same arguments, same state)."""

    @abstractmethod
    def seats(self, state: S) -> list[str]:
        """Every seat of the game (not ``"chance"``)."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """The seats that may act now (``["chance"]``: a die is to be rolled)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: str | None) -> list[Action]:
        """The legal actions of ``seat`` (empty for a seat not acting)."""

    @abstractmethod
    def canonical_action(self, state: S, action: Any) -> Action:
        """The action as the log stores it, or ``IllegalAction``."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> tuple[S, list[Event]]:
        """``(new_state, events)``; ``state`` is not mutated."""

    @abstractmethod
    def is_chance(self, state: S) -> bool:
        """Is the next step a die roll (``to_act == ["chance"]``)?"""

    @abstractmethod
    def sample_chance(self, state: S) -> Action:
        """The roll the state's own RNG gives (a ``chance`` action)."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Is the game over?"""

    @abstractmethod
    def result(self, state: S) -> dict[str, Any]:
        """``{"winner": side or None, "draw": bool, "score": {...}, "reason": str}``."""

    @abstractmethod
    def conclude(self, state: S, side: str, reason: str) -> tuple[S, list[Event]]:
        """``side`` resigns / runs out of time / forfeits: the other side wins."""

    @abstractmethod
    def view_for(self, state: S, seat: str | None) -> View:
        """What ``seat`` (None: a spectator) may see of the game."""

    @abstractmethod
    def events_for(self, state: S, events: list[Event], seat: str | None) -> list[Event]:
        """``events`` as ``seat`` may hear them."""

    @abstractmethod
    def board(self, state: S) -> dict[str, Any]:
        """The static part of the view (board, terrain), sent once per connection."""

    @abstractmethod
    def dump_state(self, state: S) -> dict[str, Any]:
        """A JSON-able snapshot carrying ``ruleset`` and ``version``."""

    @abstractmethod
    def load_state(self, data: dict[str, Any], scenario: Any = None) -> S:
        """The state of a snapshot (``scenario``: the one a scenario ruleset's state
        refers to; the others ignore it)."""

    # -- defaults right for any ruleset --------------------------------------------------
    def modes_for(self, scenario: Any) -> list[str]:
        """The modes of this ruleset that accept ``scenario``, the natural one first."""
        return [m for m in self.modes if self.accepts(scenario, m)]

    def turn(self, state: S) -> int | None:
        """The game turn (None: this ruleset counts no turns)."""
        return None

    def layouts(self, mode: str | None) -> dict[str, list[list[str]]]:
        """Layout name -> groups of roles of one side, each group held by one player."""
        return {"1": [[]]}

    def default_layout(self, mode: str | None) -> str:
        """The layout of a new game when the creator names none."""
        return next(iter(self.layouts(mode)))

    def preview(self, state: S, action: Any) -> dict[str, Any]:
        """What ``action`` would compute, nothing applied (``has_preview``)."""
        raise EngineError("no_preview", f"ruleset {self.name!r} has no preview")

    def undoable(
        self, before: S, action: Action, events: list[Event], after: S, rolls: int = 0
    ) -> bool:
        """May ``action`` (``before`` -> ``after`` with ``events``; ``rolls`` chance
        entries followed it) be taken back by its seat?  (``supports_undo``)"""
        return False

    def normalise_logged(self, state: S, action: Any) -> Action:
        """A logged action (maybe written raw by an older release) in canonical form."""
        return self.canonical_action(state, action)

    def views_for(self, state: S, seats: Sequence[str | None]) -> list[View]:
        """``[view_for(state, s) for s in seats]`` (the views may share sub-objects)."""
        return [self.view_for(state, s) for s in seats]

    def view_parts(self, state: S, seats: Sequence[str | None]) -> tuple[View, list[View]] | None:
        """``(common, overlays)`` with ``{**common, **overlays[i]} == view_for(state,
        seats[i])``, never mutated; None: these views are not split (the default)."""
        return None

    def public_status(self, state: S) -> dict[str, Any]:
        """``turn``, ``to_act``, ``game_over`` and ``winner`` as the spectator sees them."""
        v = self.view_for(state, None)
        return {k: v.get(k) for k in STATUS_KEYS}

    def spectator_seat(self, side: str) -> str | None:
        """The seat a spectator watching ``side``'s board is shown (None: public view)."""
        return None

    def actor_for(self, state: S, actor: str | None, seat: str | None) -> str | None:
        """The seat that acted (``actor``) as ``seat`` may know it (default: itself)."""
        return actor

    def campaign_score(self, state: S) -> dict[str, int]:
        """Each side's score of a finished battle of a campaign (``supports_campaign``)."""
        raise EngineError("no_campaign", f"ruleset {self.name!r} plays no campaign")

    def campaign_carry(self, score: dict[str, int], wins: dict[str, int]) -> dict[str, int]:
        """What each side takes into the next battle of a campaign (its option
        ``campaign``), from its score of the previous battle and its battles won."""
        raise EngineError("no_campaign", f"ruleset {self.name!r} plays no campaign")

    def panels_for(self, mode: str | None) -> tuple[str, ...]:
        """The renderer's optional panels a game of ``mode`` uses (default: ``panels``)."""
        return self.panels

    def bots_stand_in(self, mode: str | None) -> bool:
        """Does a bot take over the slot of a player who leaves (or stays away from) a
        live game of ``mode``?  (default False: the seat waits for its player)"""
        return False

    def collective_sides(self, slots: Mapping[str, int]) -> frozenset[str]:
        """The sides whose players play all their roles collectively, no rule splitting
        them (``slots``: side -> how many player slots share its seats); default none."""
        return frozenset()

    def chat_line(self, view: View | None, side: str | None) -> tuple[str, str | None]:
        """Who may talk to whom inside ``side`` now, read from one of its seats' views:
        ``("free", None)`` every seat of the side with every other (the default: no rule
        limits a side's talk), ``("visiting", role)`` the side's commander talks only with
        the general ``role`` he visits, ``("no_visit", None)`` / ``("opponent", None)``
        his lines are closed (Overlord's chain of command)."""
        return TALK_FREE


_REGISTRY: dict[str, Ruleset[Any]] = {}


def register(ruleset: Ruleset[Any]) -> Ruleset[Any]:
    """Add ``ruleset`` to the registry under ``ruleset.name`` (once per name)."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{ruleset!r} is not a Ruleset (engine/core/ruleset.py)")
    if ruleset.name in _REGISTRY and _REGISTRY[ruleset.name] is not ruleset:
        raise ValueError(f"ruleset {ruleset.name!r} registered twice")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset[Any]:
    """The ruleset named ``name``; ``EngineError("unknown_ruleset")`` otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise EngineError(
            "unknown_ruleset", f"unknown ruleset {name!r} (one of {sorted(_REGISTRY)})"
        ) from None


def names() -> list[str]:
    """The registered names, sorted."""
    return sorted(_REGISTRY)


def registered() -> list[str]:
    """The names in registration order (``engine/rulesets/__init__.py``: the lobby's order)."""
    return list(_REGISTRY)


def all_rulesets() -> list[Ruleset[Any]]:
    """Every registered ruleset, sorted by name."""
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def natural_for(scenario: Any) -> Ruleset[Any]:
    """The first ruleset, in registration order (``engine/rulesets/__init__.py``), that
    accepts ``scenario`` in one of its modes: how a bare scenario is played by default."""
    for rs in _REGISTRY.values():
        if rs.setup == "scenario" and rs.accepts(scenario, None):
            return rs
    raise EngineError("no_ruleset", "no registered ruleset accepts this scenario")


# -- the members as functions (for the callers that name them) -------------------------------
def load_state_of(ruleset: Ruleset[Any], data: Any, scenario: Any = None) -> Any:
    """``ruleset.load_state(data, scenario)``."""
    return ruleset.load_state(data, scenario)


def normalise_logged(ruleset: Ruleset[Any], state: Any, action: Any) -> Action:
    """``ruleset.normalise_logged(state, action)``: a logged action in canonical form."""
    return ruleset.normalise_logged(state, action)


def turn_of(ruleset: Ruleset[Any], state: Any) -> int | None:
    """``ruleset.turn(state)``: the game turn, None for a ruleset counting none."""
    return ruleset.turn(state)


def views_of(ruleset: Ruleset[Any], state: Any, seats: Sequence[str | None]) -> list[View]:
    """``ruleset.views_for(state, seats)``: one view per seat; shared sub-objects are never
    mutated."""
    return list(ruleset.views_for(state, seats))


def view_parts_of(
    ruleset: Ruleset[Any], state: Any, seats: Sequence[str | None]
) -> tuple[View, list[View]]:
    """``ruleset.view_parts(state, seats)``: ``(common, overlays)`` with ``{**common,
    **overlays[i]} == view_for(state, seats[i])``; for views the ruleset does not split
    (None), an empty ``common`` and the whole views.  Never mutated."""
    got = ruleset.view_parts(state, seats)
    if got is None:
        return {}, views_of(ruleset, state, seats)
    common, overlays = got
    return common, list(overlays)


def public_status_of(ruleset: Ruleset[Any], state: Any) -> dict[str, Any]:
    """``turn``, ``to_act``, ``game_over`` and ``winner`` as ``view_for(state, None)`` has
    them (``ruleset.public_status``)."""
    v = ruleset.public_status(state)
    return {k: v.get(k) for k in STATUS_KEYS}


def preview_of(ruleset: Ruleset[Any], state: Any, action: Any) -> dict[str, Any]:
    """``ruleset.preview(state, action)`` (pure, nothing applied)."""
    return dict(ruleset.preview(state, action))


def layouts_of(ruleset: Ruleset[Any], mode: str | None) -> tuple[dict[str, list[list[str]]], str]:
    """(layouts, default layout name) of a mode: layout name -> groups of roles of one
    side, each group held by one player."""
    return ruleset.layouts(mode), ruleset.default_layout(mode)
