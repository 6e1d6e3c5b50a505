"""The ruleset protocol: one interface that every rule system on this server implements.

A **ruleset** is a rule system (standard Memoir '44, Overlord, Fast Play '44, the 3x3
Portable Wargame, the France 1944 combat referee, ...).  The server, the CLI, the bots
and the tests drive every game through this protocol only, never through a ruleset's
internals, so a new rule system is a new package under ``engine/rulesets/`` plus one
``register(...)`` call; nothing in ``app/`` names a ruleset.

The shape follows OpenSpiel's ``Game``/``State`` split and pgx's ``_init``/``_step``/
``_observe``: the state is an opaque value owned by the ruleset; dice are explicit
**chance steps** (``to_act(state) == ["chance"]``, ``sample_chance`` draws from the RNG
carried inside the state, ``apply`` takes the roll like any action), so a replay of the
same actions from the same seed gives the same game, and no player can choose a roll.

Contract (every ruleset):

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
* Optional members (not part of the checked protocol; callers use the helpers below):
  ``turn(state) -> int`` the game turn, for turn caps (:func:`turn_of`; default: None);
  ``layouts(mode)`` / ``default_layout(mode)`` how players share the role seats of a
  side (:func:`layouts_of`; default: one player per seat);
  ``preview(state, action) -> dict`` what an action would compute, without applying
  it (e.g. a France 1944 combat's odds and shifts before its irrevocable declaration;
  :func:`preview_of`; default: ``EngineError("no_preview")``);
  ``conclude(state, side, reason) -> (state, events)`` the game ended outside the rules
  (``reason``: ``resign`` / ``timeout`` / ``forfeit``, remote play): game over, winner
  the other side, one ``game_over`` event with ``winner``, ``reason`` and ``loser``;
  ``IllegalAction`` if the game is over or ``side`` is not one of its sides
  (:func:`engine.meta.conclude`; default: the Memoir '44 ending of
  :mod:`engine.procedures.ending`);
  ``supports_undo: bool`` whether :func:`engine.meta.undoable` understands its states
  (default False: a remote-play ``undo`` is refused with ``undo_not_supported``);
  ``normalise_logged(state, action)`` a log row written by an older release in today's
  canonical form (keys the ruleset never read dropped), for replays
  (:func:`normalise_logged`; default: ``canonical_action``);
  ``views_for(state, seats) -> list[dict]`` the views of several seats at once, equal to
  ``[view_for(state, s) for s in seats]`` but computing the seat-independent part once
  (the server's fan-out asks for every audience of a game after each action); the
  views may share sub-objects, so callers never mutate them (:func:`views_of`;
  default: one ``view_for`` per seat);
  ``view_parts(state, seats) -> (common, overlays) | None`` the same views as one shared
  ``common`` dict and one overlay per seat, ``{**common, **overlays[i]}`` being
  ``view_for(state, seats[i])``, so that the server patches the shared part once per
  action (:func:`view_parts_of`; None: this state cannot be split, e.g. a redaction that
  rewrites every member; default: an empty ``common``, whole views as overlays);
  ``public_status(state) -> dict`` the ``turn``, ``to_act``, ``game_over`` and ``winner``
  of the spectator's view without building it (the lobby columns written with every
  action; :func:`public_status_of`; default: read from ``view_for(state, None)``).
* ``dump_state``/``load_state`` give a snapshot as JSON-able data (``dict``) carrying
  ``ruleset`` and ``version`` (never a pickle); a ruleset set up from a scenario takes it
  back in ``load_state(data, scenario)`` (:func:`load_state_of`); a snapshot
  of an older version may be refused with
  ``EngineError("snapshot_version")`` (the server then replays the log instead).
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .errors import EngineError

Action = dict[str, Any]
Event = dict[str, Any]

CHANCE = "chance"
STATUS_KEYS = ("turn", "to_act", "game_over", "winner")     # ``public_status``


@runtime_checkable
class Ruleset(Protocol):
    """What a rule system provides.  Attributes first, then the game calls."""

    name: str          # registry key, stored in every game row ("m44", "portable", ...)
    version: str       # bumped when the same log would replay differently
    title: str         # shown in the lobby
    summary: str       # one paragraph for the lobby and the rules help
    setup: str         # "scenario" (a .m44 file) or "none" (set-up is played as actions)
    renderer: str      # the browser module that draws it: "hex", "square", "referee"
    modes: tuple[str, ...]   # seat layouts offered (e.g. ("1v1",), ("team", "overlord"))

    def options(self) -> list[dict[str, Any]]:
        """Named optional rules: ``{"name", "description", "source", "default", ...}``."""
        ...

    def accepts(self, scenario: Any, mode: str | None) -> bool:
        """May a game of this ruleset be set up from ``scenario`` in ``mode``?"""
        ...

    def new_game(self, seed: int, options: dict[str, Any] | None = None,
                 scenario: Any = None, mode: str | None = None) -> Any: ...

    def seats(self, state: Any) -> list[str]: ...

    def to_act(self, state: Any) -> list[str]: ...

    def legal_actions(self, state: Any, seat: str | None) -> list[Action]: ...

    def canonical_action(self, state: Any, action: Any) -> Action: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...

    def is_chance(self, state: Any) -> bool: ...

    def sample_chance(self, state: Any) -> Action: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> dict[str, Any]:
        """``{"winner": side or None, "draw": bool, "score": {...}, "reason": str}``."""
        ...

    def view_for(self, state: Any, seat: str | None) -> dict[str, Any]: ...

    def events_for(self, state: Any, events: list[Event], seat: str | None) -> list[Event]: ...

    def board(self, state: Any) -> dict[str, Any]:
        """The static part of the view (board, terrain), sent once per connection."""
        ...

    def dump_state(self, state: Any) -> dict[str, Any]: ...

    def load_state(self, data: dict[str, Any]) -> Any:
        """(``setup == "scenario"``: ``load_state(data, scenario)``, see load_state_of)"""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add ``ruleset`` to the registry under ``ruleset.name`` (once per name)."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"{ruleset!r} does not implement the Ruleset protocol")
    if ruleset.name in _REGISTRY and _REGISTRY[ruleset.name] is not ruleset:
        raise ValueError(f"ruleset {ruleset.name!r} registered twice")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    """The ruleset named ``name``; ``EngineError("unknown_ruleset")`` otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise EngineError("unknown_ruleset",
                          f"unknown ruleset {name!r} (one of {sorted(_REGISTRY)})") from None


def names() -> list[str]:
    return sorted(_REGISTRY)


def registered() -> list[str]:
    """The names in registration order (``engine/rulesets/__init__.py``: the lobby's order)."""
    return list(_REGISTRY)


def all_rulesets() -> list[Ruleset]:
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def natural_for(scenario: Any) -> Ruleset:
    """The first ruleset, in registration order (``engine/rulesets/__init__.py``), that
    accepts ``scenario`` in one of its modes: how a bare scenario is played by default."""
    for rs in _REGISTRY.values():
        if rs.setup == "scenario" and rs.accepts(scenario, None):
            return rs
    raise EngineError("no_ruleset", "no registered ruleset accepts this scenario")


def load_state_of(ruleset: Ruleset, data: Any, scenario: Any = None) -> Any:
    """The ruleset's ``load_state``: with the ``scenario`` for a ruleset set up from one
    (``setup == "scenario"``: the state refers to it), without it otherwise."""
    if ruleset.setup == "scenario":
        return ruleset.load_state(data, scenario)
    return ruleset.load_state(data)


def normalise_logged(ruleset: Ruleset, state: Any, action: Any) -> Action:
    """A logged action (maybe written raw by an older release) in canonical form: the
    ruleset's optional ``normalise_logged``, else its ``canonical_action``."""
    norm = getattr(ruleset, "normalise_logged", None)
    return norm(state, action) if norm is not None else ruleset.canonical_action(state, action)


def turn_of(ruleset: Ruleset, state: Any) -> int | None:
    """The ruleset's game turn of ``state`` (optional ``turn(state)``; None without it)."""
    turn = getattr(ruleset, "turn", None)
    return None if turn is None else int(turn(state))


def views_of(ruleset: Ruleset, state: Any, seats: list[str | None]) -> list[dict[str, Any]]:
    """The views of ``seats`` (the ruleset's optional ``views_for``, else ``view_for`` per
    seat); equal to one ``view_for`` per seat; shared sub-objects are never mutated."""
    many = getattr(ruleset, "views_for", None)
    if many is None:
        return [ruleset.view_for(state, s) for s in seats]
    return list(many(state, seats))


def view_parts_of(ruleset: Ruleset, state: Any, seats: list[str | None]
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``(common, overlays)`` with ``{**common, **overlays[i]} == view_for(state,
    seats[i])``: the ruleset's optional ``view_parts``, else (absent, or None for this
    state) an empty ``common`` and the whole views (:func:`views_of`).  Never mutated."""
    parts = getattr(ruleset, "view_parts", None)
    got = parts(state, seats) if parts is not None else None
    if got is None:
        return {}, views_of(ruleset, state, seats)
    common, overlays = got
    return common, list(overlays)


def public_status_of(ruleset: Ruleset, state: Any) -> dict[str, Any]:
    """``turn``, ``to_act``, ``game_over`` and ``winner`` as ``view_for(state, None)`` has
    them (the ruleset's optional ``public_status``: the same values, cheaper)."""
    status = getattr(ruleset, "public_status", None)
    v = ruleset.view_for(state, None) if status is None else status(state)
    return {k: v.get(k) for k in STATUS_KEYS}


def preview_of(ruleset: Ruleset, state: Any, action: Any) -> dict[str, Any]:
    """The ruleset's optional ``preview(state, action)`` (pure, nothing applied)."""
    preview = getattr(ruleset, "preview", None)
    if preview is None:
        raise EngineError("no_preview", f"ruleset {ruleset.name!r} has no preview")
    return dict(preview(state, action))


def layouts_of(ruleset: Ruleset, mode: str | None) -> tuple[dict[str, list[list[str]]], str]:
    """(layouts, default layout name) of a mode: layout name -> groups of roles of one
    side, each group held by one player (optional ``layouts``/``default_layout``;
    without them one layout ``"1"`` where every seat is its own player)."""
    table = getattr(ruleset, "layouts", None)
    if table is None:
        return {"1": [[]]}, "1"
    default = getattr(ruleset, "default_layout", None)
    layouts: dict[str, list[list[str]]] = table(mode)
    return layouts, (default(mode) if default is not None else next(iter(layouts)))
