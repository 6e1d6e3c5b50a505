"""The chat channel policy (app/chat/policy.py), table-driven: EVERY (role, channel, turn
state) combination, asserting read, write and the closed reason text.

002 "The Military Chain of Command": only the visited Field General and the C-in-C share
a private channel this turn; the other Field Generals have no channel to him that turn;
Field Generals of a side may talk to each other at any time.  Nothing of a side's chats
ever reaches the other side or spectators; spectator chat never reaches players.
004 team play: the team talks freely.  Game over: the chain of command is lifted.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from app.chat.policy import (
    Actor,
    channels,
    channels_for,
    may_read,
    may_read_any,
    may_write,
    writer_for,
)

ROLES: dict[str, Actor] = {
    "spectator": Actor(None, None, None, True),
    "anonymous": Actor(None, None, None, False),
    "cinc": Actor("ALLIES:cinc", "ALLIES", "cinc", True),
    "left": Actor("ALLIES:left", "ALLIES", "left", True),
    "centre": Actor("ALLIES:centre", "ALLIES", "centre", True),
    "right": Actor("ALLIES:right", "ALLIES", "right", True),
    "1v1": Actor("ALLIES", "ALLIES", "commander", True),
    "team_cinc": Actor("ALLIES:cinc", "ALLIES", "cinc", True),
    "team_left": Actor("ALLIES:left", "ALLIES", "left", True),
    "team_centre": Actor("ALLIES:centre", "ALLIES", "centre", True),
    "team_right": Actor("ALLIES:right", "ALLIES", "right", True),
}
OVERLORD_ROLES = {"cinc", "left", "centre", "right"}
TEAM_ROLES = {"team_cinc", "team_left", "team_centre", "team_right"}
CHANNELS = [
    "all",
    "side:ALLIES",
    "side:AXIS",
    "spectators",
    "pair:ALLIES:left",
    "pair:ALLIES:centre",
    "pair:ALLIES:right",
    "pair:AXIS:left",
    "pair:AXIS:centre",
    "pair:AXIS:right",
]
STATES = ["no_visit", "visiting_left", "visiting_centre", "visiting_right", "opponent", "game_over"]


def view_of(role: str, state: str) -> dict[str, Any]:
    """The writer's own engine view (only the parts the policy reads) in a turn state."""
    v: dict[str, Any] = {
        "ruleset": "m44",
        "turn": 4,
        "game_over": state == "game_over",
        "active": "AXIS" if state == "opponent" else "ALLIES",
    }
    if role in OVERLORD_ROLES or role in ("spectator", "anonymous"):
        visited = state.split("_")[1] if state.startswith("visiting") else None
        ol: dict[str, Any] = {"step": "fg" if visited else "dispatch"}
        if role in OVERLORD_ROLES:
            ol["chain_of_command"] = {
                "side": "ALLIES",
                "turn": 4 if visited else 2,
                "visited": visited,
                "history": [[2, "left"]],
            }
        if role == "cinc" and state == "no_visit":
            ol["visit"] = "right"  # a tentative visit opens nothing
        v["overlord"] = ol
    return v


def expected(role: str, channel: str, state: str) -> tuple[bool, bool, str]:
    """(may read, may write, reason) straight from the rules (independent of the code)."""
    a = ROLES[role]
    seated = a.seat is not None
    # ---- read
    if channel == "all":
        read, why = True, ""
    elif channel == "spectators":
        read, why = not seated, "" if not seated else "spectator chat is never shown to players"
    elif channel.startswith("side:"):
        read = seated and channel == "side:ALLIES"
        why = "" if read else "not your side"
    else:
        _, side, fg = channel.split(":")
        if not seated or side != "ALLIES" or role == "1v1":
            read, why = (
                False,
                "not your side"
                if (not seated or side != "ALLIES")
                else "a private channel of two generals",
            )
        else:
            read = a.role in ("cinc", fg)
            why = "" if read else "a private channel of two generals"
    if not read:
        return False, False, why
    # ---- write
    if not a.identified:
        return True, False, "identify yourself (a guest name) to chat"
    if channel == "all" and not seated:
        return True, False, "spectators write in the spectators channel"
    if channel == "spectators":
        return True, True, ""
    if role == "1v1" or role in TEAM_ROLES or state == "game_over":
        return True, True, ""  # team play / chain of command lifted
    if channel == "all":
        # 002: "The Commander-in-Chief may not talk with these Field Generals ... must limit
        # his input to the time he is visiting the front": they read "all"
        if a.role == "cinc":
            return (
                True,
                False,
                (
                    "the Commander-in-Chief may not write where his Field "
                    "Generals read: only to the one he visits this turn"
                ),
            )
        return True, True, ""
    if channel == "side:ALLIES":
        if a.role == "cinc":
            return (
                True,
                False,
                (
                    "the Commander-in-Chief may not talk to all his Field "
                    "Generals: only to the one he visits this turn"
                ),
            )
        return True, True, ""
    fg = channel.split(":")[2]
    if state == f"visiting_{fg}":
        return True, True, ""
    if state.startswith("visiting"):
        name = state.split("_")[1].capitalize()
        why = f"the Commander-in-Chief is visiting the {name} Field General this turn"
        if a.role != "cinc":
            why += "; your line to him opens when he visits you"
        return True, False, why
    if state == "no_visit":
        return (
            True,
            False,
            (
                "no Field General visited yet this turn: the line opens when the "
                "Commander-in-Chief confirms his orders"
            ),
        )
    return (
        True,
        False,
        ("the opponent's turn: the Commander-in-Chief visits the front only on his side's turn"),
    )


CASES = list(itertools.product(ROLES, CHANNELS, STATES))


def test_the_table_is_complete() -> None:
    assert len(CASES) == 11 * 10 * 6


@pytest.mark.parametrize("role,channel,state", CASES)
def test_policy(role: str, channel: str, state: str) -> None:
    actor, view = ROLES[role], view_of(role, state)
    read, write, why = expected(role, channel, state)
    r, w = may_read(actor, channel, view), may_write(actor, channel, view)
    assert bool(r) == read, (r, why)
    assert bool(w) == write, (w, why)
    if not read:
        assert r.reason == why
    if not write:
        assert w.reason == why
    # the per-connection summary (hello / update ``chat_channels``) agrees, closed reasons too
    game = [
        (s, s.split(":")[0], s.split(":")[1])
        for s in (
            "AXIS:cinc",
            "AXIS:left",
            "AXIS:centre",
            "AXIS:right",
            "ALLIES:cinc",
            "ALLIES:left",
            "ALLIES:centre",
            "ALLIES:right",
        )
    ]
    if role == "1v1":
        game = [("AXIS", "AXIS", "commander"), ("ALLIES", "ALLIES", "commander")]
    ch = channels_for([actor], game, view)
    if channel in ch["read"] or read:
        assert (channel in ch["read"]) == read or channel.startswith("pair:") and role == "1v1"
        assert (channel in ch["write"]) == write
        if read and not write:
            assert ch["closed"][channel] == why
    assert set(ch["closed"]) == set(ch["read"]) - set(ch["write"])
    assert ch["read"] == channels(actor, game, view)["read"]


def test_no_side_chat_reaches_the_other_side_or_spectators() -> None:
    for role, state in itertools.product(ROLES, STATES):
        a, view = ROLES[role], view_of(role, state)
        for ch in ("side:AXIS", "pair:AXIS:left", "pair:AXIS:centre", "pair:AXIS:right"):
            assert not may_read(a, ch, view)  # every role here is ALLIES or a spectator
        if a.seat is None:
            assert not any(
                may_read(a, c, view) for c in CHANNELS if c.startswith(("side:", "pair:"))
            )
        else:
            assert not may_read(a, "spectators", view)


def test_tentative_visit_and_missing_view_are_strict() -> None:
    cinc = ROLES["cinc"]
    for view in (None, {}, {"overlord": {"visit": "left"}}):
        assert not may_write(cinc, "pair:ALLIES:left", view)
        assert not may_write(cinc, "side:ALLIES", view)
    assert may_write(ROLES["left"], "side:ALLIES", None)  # FGs talk at any time


def test_several_seats_held_by_one_identity() -> None:
    """Seats shared in a side that keeps its chain of command (``collective`` False): reads
    are the union; the C-in-C's rules bind the C-in-C seat's holder."""
    cinc_centre = [ROLES["cinc"], ROLES["centre"]]
    left_right = [ROLES["left"], ROLES["right"]]
    v = view_of("cinc", "visiting_right")
    assert may_read_any(cinc_centre, "pair:ALLIES:left")
    actor, d = writer_for(cinc_centre, "side:ALLIES", v)
    assert actor is None and not d and "may not talk to all" in d.reason
    actor, d = writer_for(cinc_centre, "pair:ALLIES:right", v)
    assert d and actor == ROLES["cinc"]
    actor, d = writer_for(left_right, "pair:ALLIES:right", view_of("right", "visiting_right"))
    assert d and actor == ROLES["right"]
    actor, d = writer_for(left_right, "pair:ALLIES:left", view_of("left", "visiting_right"))
    assert actor is None and "visiting the Right" in d.reason
    game = [(f"ALLIES:{r}", "ALLIES", r) for r in ("cinc", "left", "centre", "right")]
    ch = channels_for(left_right, game, view_of("left", "visiting_left"))
    assert ch["read"] == ["all", "side:ALLIES", "pair:ALLIES:left", "pair:ALLIES:right"]
    assert ch["write"] == ["all", "side:ALLIES", "pair:ALLIES:left"]
    assert ch["closed"] == {
        "pair:ALLIES:right": "the Commander-in-Chief is visiting the Left "
        "Field General this turn; your line to him opens when he visits you"
    }
    assert writer_for(left_right, "spectators", None)[0] is None


# -- every layout x slot x channel x turn state (002 "Teams" + "The Military Chain of Command")
from engine.rulesets.overlord.chain import seat_layouts  # noqa: E402

from app.engine_api import ruleset  # noqa: E402
from app.games.modes import build_slots, slots_per_side  # noqa: E402

ALL_SEATS = [f"{s}:{r}" for s in ("AXIS", "ALLIES") for r in ("cinc", "left", "centre", "right")]


class _Row:
    def __init__(self, seat: str, slot: str) -> None:
        self.seat, self.side, self.slot = seat, seat.split(":")[0], slot


def slot_actors(layout: str) -> dict[str, list[Actor]]:
    """ALLIES's slots of an Overlord layout -> the chat actors of their holder, as the
    server builds them (every seat of the identity, ``collective`` from the side's slots)."""
    _, slots = build_slots(
        ruleset("overlord"), "overlord", ALL_SEATS, {"ALLIES": layout, "AXIS": "4"}
    )
    rows = [_Row(seat, sl.slot) for sl in slots for seat in sl.seats]
    coll = ruleset("overlord").collective_sides(slots_per_side(rows))
    return {
        sl.slot: [
            Actor(s, "ALLIES", s.split(":")[1], True, collective="ALLIES" in coll) for s in sl.seats
        ]
        for sl in slots
        if sl.side == "ALLIES"
    }


def expected_layout(layout: str, roles: list[str], channel: str, state: str) -> tuple[bool, bool]:
    """(read, write) for the holder of ``roles`` from the texts, not from the code."""
    if channel == "all":  # his Field Generals read it: closed to the C-in-C holder
        return True, state == "game_over" or layout in ("2", "1") or "cinc" not in roles
    if channel in ("spectators", "side:AXIS") or channel.startswith("pair:AXIS"):
        return False, False  # nothing crosses sides
    if channel == "side:ALLIES":
        read = True
    else:
        read = "cinc" in roles or channel.split(":")[2] in roles
    if not read:
        return False, False
    if state == "game_over" or layout in ("2", "1"):  # chain lifted / roles played together
        return True, True
    if channel == "side:ALLIES":
        return True, "cinc" not in roles  # the C-in-C holder: never, from any seat
    return True, state == f"visiting_{channel.split(':')[2]}"


LAYOUT_CASES = [
    (lay, slot, ch, st)
    for lay in ("4", "3", "2", "1")
    for slot in slot_actors(lay)
    for ch in CHANNELS
    for st in STATES
]


def test_layout_table_is_complete() -> None:
    assert {lay: len(seat_layouts("overlord")[lay]) for lay in "4321"} == {
        "4": 4,
        "3": 3,
        "2": 2,
        "1": 1,
    }
    assert len(LAYOUT_CASES) == (4 + 3 + 2 + 1) * len(CHANNELS) * len(STATES)


@pytest.mark.parametrize("layout,slot,channel,state", LAYOUT_CASES)
def test_policy_per_layout_and_slot(layout: str, slot: str, channel: str, state: str) -> None:
    actors = slot_actors(layout)[slot]
    roles = [a.role for a in actors]
    game = [(s, s.split(":")[0], s.split(":")[1]) for s in ALL_SEATS]
    read, write = expected_layout(layout, roles, channel, state)
    # whichever of his seats the connection was pinned to, the holder's view is his side's
    for first in range(len(actors)):
        view = view_of(str(actors[first].role), state)
        if "cinc" in roles and state == "no_visit":
            view["overlord"]["visit"] = "right"  # a tentative visit opens nothing
        assert bool(may_read_any(actors, channel, view)) == read
        writer, d = writer_for(actors, channel, view)
        assert bool(d) == write and (writer is not None) == write, (d, roles)
        if write and "cinc" in roles and layout in ("4", "3") and state != "game_over":
            assert writer is not None and writer.role == "cinc"  # speaks as the C-in-C
        ch = channels_for(actors, game, view)
        assert (channel in ch["write"]) == write and (channel in ch["read"]) == read
        if read and not write:
            assert ch["closed"][channel] == d.reason and d.reason


def test_collective_sides_from_the_slots() -> None:
    for lay, want in (("4", False), ("3", False), ("2", True), ("1", True)):
        assert all(a.collective == want for acts in slot_actors(lay).values() for a in acts)
    one_each = slots_per_side([_Row("AXIS", "AXIS"), _Row("ALLIES", "ALLIES")])
    assert one_each == {"AXIS": 1, "ALLIES": 1}
    # a ruleset without a chain of command has no collective play to declare
    assert ruleset("m44").collective_sides(one_each) == frozenset()
