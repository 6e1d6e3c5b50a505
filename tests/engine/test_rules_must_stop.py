"""Every "must stop" of 004 against Take Ground, Armour Overrun and the desert move, and the
frozen river's roll on a retreat (issue 35, findings 1-2), each on a board drawn as text.

004 "Taking Ground": "Terrain Movement and Battle restrictions still apply when Units
Take Ground"; vocabulary 1.5 "must stop": "if it moved in, it also cannot later take
ground out of that hex"; "must stop (may still take ground)": fordable stream, jungle,
rail for A/Art."""

from __future__ import annotations

import pytest

from tests.engine.rulehelp import act, do, event_types, ordered, roll, uid, unit

ATTACKER, STOP, TARGET = (6, 10), (5, 11), (4, 10)


def _hex(name: str, slot: str = "terrain", behavior: str | None = None) -> dict:
    tile = {"name": name, **({"behavior": behavior} if behavior else {})}
    return {"row": STOP[0], "col": STOP[1], slot: tile}


def _assault(st, frm, target=TARGET):
    """The unit on ``frm`` close-assaults ``target`` (1 figure) and eliminates it."""
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, frm), target=list(target))
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, *["grenade"] * st.pending["dice"])
    assert tuple(target) not in st.occ or unit(st, target).side == "ALLIES"
    return st, ev


def _moved_in(hexes, code="infus", mines=None, mine_faces=("flag",), **kw):
    """The Allied unit ``code`` moves from ATTACKER into STOP (terrain ``hexes``), then
    eliminates the Axis unit on TARGET by close assault."""
    st = ordered(
        "0@0: .:i\n4@10: .:i1",
        [ATTACKER],
        key=("attack", 1),
        units={ATTACKER: code},
        hexes=hexes,
        mines=mines,
        **kw,
    )
    st = do(st, "move", unit=uid(st, ATTACKER), to=list(STOP))
    if st.pending["type"] == "roll":  # the mine's roll
        st, _ = roll(st, *mine_faces[: st.pending["dice"]])
    return _assault(st, STOP)


def _started_in(hexes, code="infus", mines=None, **kw):
    """The same unit starts its turn on STOP (the control: it entered nothing)."""
    st = ordered(
        "0@0: .:i\n4@10: .:i1",
        [STOP],
        key=("attack", 1),
        units={STOP: code},
        hexes=hexes,
        mines=mines,
        **kw,
    )
    return _assault(st, STOP)


def _took_ground(st) -> bool:
    return bool(st.pending) and st.pending["type"] == "take_ground"


# (terrain hex, unit code): 004 / vocabulary 1.3 "must stop" hexes out of which the unit
# entering them may still battle - and so might have taken ground.
MUST_STOP = {
    "radar": ([_hex("radar")], "infus"),  # 004 Radar Station "may Battle"
    "oasis": ([_hex("oasis")], "infus"),  # 004 Oasis "may Battle"
    "dridge": ([_hex("dridge")], "infus"),  # vocabulary: Erg "as Hill + must stop"
    "ford": ([_hex("ford", "rect_terrain")], "infus"),  # 004 Fordable River
    "railbridge": ([_hex("river"), _hex("railbridge", "rect_terrain")], "tankus"),
    "roadblock": ([_hex("roadblock")], "infus"),  # 004 Road-Blocks
    "dragonteeth": ([_hex("dragonteeth")], "infus"),  # 004 Dragon's Teeth
    "trenches": ([_hex("wtrenches")], "infus"),  # 004 Trenches
    "marshes": ([_hex("marshes")], "infus"),  # 004 Marshes (infantry may battle)
    "rice": ([_hex("price")], "infus"),  # Rice Paddies, as Marsh
    "wire": ([_hex("wire", "obstacle")], "infus"),  # 004 Barbed Wire
    "wire_armor": ([_hex("wire", "obstacle")], "tankus"),  # removed, still entered
}


@pytest.mark.parametrize("name", sorted(MUST_STOP))
def test_no_take_ground_out_of_a_must_stop_hex_entered_this_turn(name):
    hexes, code = MUST_STOP[name]
    st, _ = _moved_in(hexes, code)
    assert not _took_ground(st) and unit(st, STOP).side == "ALLIES"
    st, _ = _started_in(hexes, code)  # entered nothing this turn: it may
    assert _took_ground(st)


@pytest.mark.parametrize(
    "mine", [("AXIS", 1), ("AXIS", 0), ("ALLIES", 3)], ids=["enemy", "decoy", "friendly"]
)
def test_no_take_ground_out_of_a_minefield_entered_this_turn(mine):
    """004 "Minefields": "A Unit must stop, and may not Move any further on that turn, when
    entering a Minefield" - an enemy one, a decoy (removed on entry) and its own side's
    (friendly units stop too)."""
    st, _ = _moved_in([], mines={STOP: mine})
    assert not _took_ground(st) and unit(st, STOP).side == "ALLIES"
    if mine[1]:  # a unit standing on it since last turn may
        st, _ = _started_in([], mines={STOP: mine})
        assert _took_ground(st)


def test_no_take_ground_out_of_a_river_entered_in_assault_boats():
    """004 "Assault Boats": "A Unit entering a River hex must stop and may Move no further
    on that turn"."""
    boat = {"name": "infus", "equipment": "boat"}
    st, _ = _moved_in([_hex("river")], boat)
    assert not _took_ground(st) and unit(st, STOP).side == "ALLIES"


@pytest.mark.parametrize("name", ["jungle", "fordable_stream", "rail_armor"])
def test_must_stop_but_may_still_take_ground(name):
    """Vocabulary 1.5 "must stop (may still take ground)": jungle, fordable stream, rail
    for A/Art - a unit that moved in may take ground out."""
    hexes, code = {
        "jungle": ([_hex("pjungle")], "infus"),
        "fordable_stream": ([_hex("river", behavior="FORDABLE_STREAM")], "infus"),
        "rail_armor": ([_hex("rail")], "tankus"),
    }[name]
    st, _ = _moved_in(hexes, code)
    assert _took_ground(st)


@pytest.mark.parametrize(
    "code", ["tankus", {"name": "infus", "badge": "badge29"}], ids=["armor", "cavalry"]
)
def test_overrun_from_a_minefield_taken_but_no_take_ground_out_of_it(code):
    """An armour (or Cavalry, 004 Appendix 1: "Take Ground ... Overrun like Armour") unit
    taking ground into an enemy minefield rolls the mine, may make its overrun battle (no
    Battle restriction in a minefield), but may not take ground again out of it (it must
    stop there)."""
    board = "0@0: .:i\n4@10: .:i1\n3@11: .:i1"
    st = ordered(
        board, [(5, 9)], key=("attack", 1), units={(5, 9): code}, mines={TARGET: ("AXIS", 1)}
    )
    st, _ = _assault(st, (5, 9))
    st, ev = act(st, "take_ground", take=True)
    assert "mine_revealed" in event_types(ev) and st.pending["for"] == "mine"
    st, _ = roll(st, "flag")
    assert st.pending["type"] == "overrun"
    st = do(st, "battle", unit=uid(st, TARGET), target=[3, 11])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, *["grenade"] * st.pending["dice"])
    assert (3, 11) not in st.occ and not _took_ground(st)


def test_armor_taking_ground_into_a_village_makes_no_overrun():
    """004 Towns & Villages: "A Unit may not Battle the turn it Moves onto a Towns &
    Villages hex" - and Battle restrictions still apply when Units Take Ground."""
    board = "0@0: .:i\n4@10: T:i1\n3@11: .:i1"
    st = ordered(board, [(5, 9)], key=("attack", 1), units={(5, 9): "tankus"})
    st, _ = _assault(st, (5, 9))
    st = do(st, "take_ground", take=True)
    assert not (st.pending and st.pending["type"] == "overrun")


def test_desert_move_not_out_of_a_must_stop_hex_taken():
    """004 "North African Armour Overrun": the Armour "may Take Ground and may then Move one
    additional hex ... All other Armour Overruns and Taking Ground rules remain in effect":
    not out of a hex where it must stop (here an oasis; on open ground it may)."""
    for terrain, may in (("oasis", False), (None, True)):
        hexes = [{"row": 4, "col": 10, "terrain": {"name": terrain}}] if terrain else []
        st = ordered(
            "0@0: .:i\n4@10: .:i1",
            [(5, 9)],
            key=("attack", 1),
            units={(5, 9): "tankus"},
            hexes=hexes,
            game_info={"options": {"north_african_desert_rules": True}},
        )
        st, _ = _assault(st, (5, 9))
        st = do(st, "take_ground", take=True)
        assert (st.pending is not None and st.pending["type"] == "desert_move") == may


# ----------------------------------------------------------------- frozen river, retreat
def _retreat_to(text, legend=None):
    """The Allies battle the Axis unit on (2, 10), roll one flag; it retreats to (1, 11)."""
    st = ordered("0@0: .:i\n" + text + "\n2@10: .:i\n3@11: .:I", [(3, 11)], legend=legend)
    st = do(st, "end_movement") if st.phase == "move" else st
    st = do(st, "battle", unit=uid(st, (3, 11)), target=[2, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, _ = roll(st, "flag", "armor", "armor")
    return act(st, "retreat", unit=st.pending["unit"], to=[1, 11], ignore=0)


def test_retreat_onto_a_frozen_river_rolls_the_ice():
    """004 "Rivers & Waterways, Frozen": "Roll two Battle Dice whenever a Unit Moves or
    Retreats onto a Frozen River hex. For each Green Star rolled, 1 figure or model is
    lost." The roll is a chance step, made before the attacker's take ground."""
    st, ev = _retreat_to("1@9: Y Y", legend={"Y": "wriver"})
    assert "hazard" in event_types(ev)
    assert st.pending["type"] == "roll" and st.pending["for"] == "hazard"
    assert st.pending["dice"] == 2
    st, ev = roll(st, "star", "inf")
    assert unit(st, (1, 11)).figures == 3  # one star, one figure
    assert st.pending["type"] == "take_ground"


def test_retreat_onto_open_ground_rolls_nothing():
    st, ev = _retreat_to("1@9: . .")
    assert "hazard" not in event_types(ev) and st.pending["type"] == "take_ground"
