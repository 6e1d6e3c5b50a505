"""004 Appendix 3, "EX-TER-MIN-ATE!", the Cyberman Unit (option ``variant: CYBERMEN``,
engine/rulesets/m44/options/variants/cybermen.py).  Boards drawn as text; the rule text
quoted: "Cyberman Unit - Special Infantry Unit, 4 Figures. Colour: Silver. Advances upto
3 hexes. Battle Range is 3 hexes with 3 Battle Dice. Movement is not effected by any
Terrain limitations. Cybermen are also not effected by Grenade Hits or Purple Flags.
Casualties inflicted on enemy Units while in Close Assault are given to any Cyberman
Unit as reinforcements. Otherwise Cybermen are exactly the same as any other Infantry
Unit. One Cyberman Unit replaces each Infantry, Armour and Artillery Unit. Cybermen may
not be used in the same game as Daleks or, at least, not on the same side.\""""

from __future__ import annotations

from engine import new_game, view_for
from engine.core import dice as D
from engine.core.textboard import board_from_text
from engine.rulesets.m44.options.variants.cybermen import hits_flags

from .rulehelp import battle_dice_vs, do, legal, ordered, random_games, roll, unit

CYBER = {"variant": "CYBERMEN", "variant_side": "ALLIES"}


def test_one_cyberman_unit_replaces_each_unit():
    """ "One Cyberman Unit replaces each Infantry, Armour and Artillery Unit" ... "Special
    Infantry Unit, 4 Figures"."""
    st = new_game(
        board_from_text(
            """
        1: .:i W:i .:a .:i .:g
        7: .:I W:I .:A .:I .:G
    """,
            victory=(6, 6),
        ),
        1,
        {"variant": "CYBERMEN"},
    )
    axis = [u for u in st.units.values() if u.side == "AXIS"]
    assert len(axis) == 5 and {u.spec.kind for u in axis} == {"cyberman"}
    c = axis[0]
    assert (c.spec.unit_class, c.figures, c.spec.move, c.spec.move_fire, c.spec.dice) == (
        "inf",
        4,
        3,
        3,
        (3, 3, 3),
    )
    assert "cyberman" not in {u.spec.kind for u in st.units.values() if u.side == "ALLIES"}
    assert view_for(st, None)["variant"]["name"] == "CYBERMEN"


def test_cybermen_advance_three_hexes_whatever_the_terrain_and_battle_at_three():
    """ "Advances upto 3 hexes. Battle Range is 3 hexes with 3 Battle Dice. Movement is not
    effected by any Terrain limitations" (two woods crossed, and battle after the move)."""
    st = ordered(
        """
        3@15: .:i
        6@10: .:I W W .
    """,
        [(6, 10)],
        options=CYBER,
    )
    tos = {tuple(a["to"]) for a in legal(st, "move")}
    assert (6, 16) in tos and (6, 18) not in tos
    st = do(st, "move", unit=unit(st, (6, 10)).id, to=[6, 16])
    st = do(st, "end_movement") if st.phase == "move" else st
    assert st.scn.board.distance((6, 16), (3, 15)) == 3
    assert battle_dice_vs(st, (6, 16), (3, 15)) == 3


def test_cybermen_ignore_grenades_and_flags():
    """ "Cybermen are also not effected by Grenade Hits or Purple Flags.\""""
    st = new_game(board_from_text("1: .:i\n7: .:I", victory=(6, 6)), 1, {"variant": "CYBERMEN"})
    c = next(u for u in st.units.values() if u.spec.kind == "cyberman")
    faces = ["grenade", "flag", "flag", "inf"]
    assert D.count(faces, "inf", c.spec.hit_by, frozenset()) == (1, 2)
    assert hits_flags(st, None, c, faces, (1, 2)) == (1, 0)


def test_close_assault_casualties_reinforce_the_cybermen():
    """ "Casualties inflicted on enemy Units while in Close Assault are given to any
    Cyberman Unit as reinforcements": the weakest Cyberman (never beyond 4 figures)."""
    st = ordered(
        """
        5@11: .:i
        6@10: .:I . . .:I
    """,
        [(6, 10)],
        options=CYBER,
    )
    a, b = unit(st, (6, 10)), unit(st, (6, 16))
    st.units[a.id].figures = 3
    st.units[b.id].figures = 1
    st = do(st, "end_movement")
    st = do(st, "battle", unit=a.id, target=[5, 11])
    st = do(st, "pass") if st.pending and st.pending.get("type") == "ambush" else st
    st, events = roll(st, "inf", "inf", "inf")
    assert unit(st, (5, 11)).figures == 1
    got = [(e["unit"], e["figures"]) for e in events if e["type"] == "cybermen_reinforced"]
    assert got == [(b.id, 2), (b.id, 3), (a.id, 4)]
    assert st.units[a.id].figures == 4 and st.units[b.id].figures == 3


def test_no_reinforcement_beyond_close_assault():
    st = ordered(
        """
        4@10: .:i
        6@10: .:I
    """,
        [(6, 10)],
        options=CYBER,
    )
    a = unit(st, (6, 10))
    st.units[a.id].figures = 2
    st = do(st, "end_movement")
    st = do(st, "battle", unit=a.id, target=[4, 10])
    st, events = roll(st, "inf", "inf", "inf")
    assert unit(st, (4, 10)).figures == 1 and st.units[a.id].figures == 2
    assert "cybermen_reinforced" not in [e["type"] for e in events]


def test_cybermen_random_games():
    random_games({"variant": "CYBERMEN"}, {"battle"})


def test_cybermen_snapshots_and_canonical_actions():
    from .test_variants import test_variant_snapshots_and_canonical_actions as check

    check({"variant": "CYBERMEN"})
