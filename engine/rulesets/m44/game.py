"""The rules engine's turn machine (pure: no I/O, no clock; randomness from ``state.rng``).

Public functions are re-exported by :mod:`engine`; see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import unit_types as _unit_types
from .cards import STANDARD_DECK, standard_deck_ids
from ...core.errors import IllegalAction
from .options import validate
from ...core.rng import Rng
from ...core.scenario_model import Scenario
from ...procedures.state import GameState, Mine, Unit
from ...core.units import army_rules
from . import turn as _turn
from . import end_turn as ET
from ...procedures.chance import is_chance as is_chance  # the ruleset's chance calls
from ...procedures.chance import sample_chance as sample_chance
from ...procedures.common import SIDES, StandardMode
from .hook_table import SEAT_MODES, hooks_for


def new_game(
    scenario: Scenario,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    mode: str | None = None,
    modes: Mapping[str, StandardMode] = SEAT_MODES,
) -> GameState:
    """A fresh game: units placed, deck shuffled, hands dealt, first turn started.
    ``mode``: one of ``modes`` (the ruleset's seat modes; None: ``overlord`` on an
    Overlord board, else ``standard``)."""
    st = GameState.__new__(GameState)
    st.scn = scenario
    st.options = validate(options)
    mode_name = mode or ("overlord" if scenario.board.kind == "OVERLORD" else "standard")
    if mode_name not in modes:
        raise IllegalAction("unknown_mode", f"unknown mode {mode_name!r} (one of {sorted(modes)})")
    st.mode = mode_name
    st.hooks = hooks_for(st.options, modes[mode_name])
    st.ext = None
    st.rng = Rng(seed)
    st.turn = 0
    st.active = scenario.starting_side
    st.phase = "play_card"
    st.units = {}
    st.occ = {}
    blitz = {"blitzkrieg": st.options["blitzkrieg"]} if "blitzkrieg" in st.options else None
    for i, us in enumerate(scenario.units):
        spec = army_rules(us.spec, us.side, blitz) if blitz else us.spec
        u = Unit(
            f"u{i}",
            us.side,
            spec,
            us.hex,
            us.figures,
            max(us.figures, us.spec.figures),
            us.badge,
            us.inactive_until,
        )
        st.units[u.id] = u
        st.occ[u.hex] = u.id
    st.hands = {s: [] for s in SIDES}
    st.deck = standard_deck_ids(scenario.options)
    st.discard = []
    st.plays = []
    st.battles = []
    st.chance = None
    st.pending = None
    st.elim_medals = {s: 0 for s in SIDES}
    st.exit_medals = {s: 0 for s in SIDES}
    st.objectives = {o.id: None for o in scenario.objectives}
    st.sudden = None
    st.tiles_over = {}
    st.last_card = {}
    st.extra_draws = {}
    st.recon_cards = []
    st.air_targets = []
    st.winner = None
    st.game_over = False
    st.last_roll = None
    st.figures_killed = {s: 0 for s in SIDES}
    st.last_turn_for = None
    st.reshuffle = False
    st.seq = 0
    st.owned = set(st.units)
    st.mines = {}
    st.crosshairs = {}
    if st.options:  # 004 unit types (engine/core/unit_types.py), then the options' set-up:
        _unit_types.apply_types(st)  # conditions; 004 Appendix 3 variants' units, hands
        st.hooks.game_setup(st)
    _lay_mines(st)
    machine = st.hooks.mode.machine
    if machine is not None and st.options.get("kriegspiel"):
        raise IllegalAction(
            "option_not_available",
            "Kriegspiel is played in the standard and team modes, not on the Overlord board",
        )
    if machine is not None:  # Overlord: own deck, deal and turn machine
        machine.init_game(st)
        return st
    _deal(st)
    st.hooks.commissar_setup(st)
    st.hooks.scenario_rules(st)  # the night track, camouflage
    events: list[dict[str, Any]] = []
    # the scenario's set-up steps (air drops, smoke screen) come before the first turn's
    # night roll, which turn.advance makes once they are done
    ET.start_turn(st, scenario.starting_side, events, night=False)
    st.hooks.set_up_steps(st)  # air drops, smoke screen
    _turn.advance(st, events)
    _turn.refresh(st)
    return st


MINE_POOL = (0, 0, 0, 1, 1, 2, 2, 3, 4)


def _lay_mines(st: GameState) -> None:
    """004 "Placement Of Minefields": one hidden piece drawn at random per minefield hex
    from the pool 0,0,0,1,1,2,2,3,4 (state RNG); beyond 9 mines the pieces are duds (0)."""
    if not st.scn.mines:
        return
    pool = list(MINE_POOL)
    st.rng.shuffle(pool)
    for m in st.scn.mines:
        value = pool.pop() if pool else 0
        st.mines[m.hex] = Mine(m.side, value, False, m.decoy)


def _deal(st: GameState) -> None:
    scn = st.scn
    if st.options.get("starting_hand_method"):
        # 004 "Starting Hand Method": Recon L, C, R + Direct From HQ; more cards drawn at
        # random; fewer than 4: Direct From HQ + Recon Centre (the engine's fixed choice).
        fixed: dict[str, list[int]] = {s: [] for s in SIDES}
        for s in SIDES:
            for key, sec in (("recon", 0), ("recon", 1), ("recon", 2), ("direct_from_hq", None)):
                cid = next(
                    c.id
                    for c in STANDARD_DECK
                    if c.key == key and c.id in st.deck and (sec is None or c.sections == (sec,))
                )
                st.deck.remove(cid)
                fixed[s].append(cid)
        st.rng.shuffle(st.deck)
        for s in SIDES:
            n = scn.cards.get(s, 0)
            hand = fixed[s]
            if n < 4:
                keep = [hand[3], hand[1]][: max(n, 0)]
                st.discard.extend(c for c in hand if c not in keep)
                hand = keep
            st.hands[s] = hand + [st.deck.pop() for _ in range(max(0, n - len(hand)))]
        return
    st.rng.shuffle(st.deck)
    for s in (scn.player1_side, scn.player2_side):
        for _ in range(scn.cards.get(s, 0)):
            st.hands[s].append(st.deck.pop())


def seats(st: GameState) -> list[str]:
    return st.hooks.mode.seats(st)


def to_act(st: GameState) -> list[str]:
    machine = st.hooks.mode.machine
    return (machine or _turn).to_act(st)


def legal_actions(st: GameState, seat: str | None) -> list[dict[str, Any]]:
    machine = st.hooks.mode.machine
    return (machine or _turn).legal_actions(st, seat)


def apply(st: GameState, action: dict[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    """Apply one action to a clone of ``st``; the input state is never mutated."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed_action", "an action is a JSON object with a 'type'")
    new = st.clone()
    events: list[dict[str, Any]] = []
    (new.hooks.mode.machine or _turn).apply_action(new, action, events)
    new.seq += 1
    new.hooks.after_apply(st, new, events)  # 004 Kriegspiel: what each side sees of the events
    return new, events


def replay(
    scenario: Scenario,
    seed: int,
    actions: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    mode: str | None = None,
    modes: Mapping[str, StandardMode] = SEAT_MODES,
) -> GameState:
    st = new_game(scenario, seed, options, mode, modes)
    for a in actions:
        st, _ = apply(st, a)
    return st
