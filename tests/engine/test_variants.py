"""004 Appendix 3 variants (engine/rulesets/m44/options/variants/): the Variant For Young
Generals and the four Suggested Variants.  Boards drawn as text; the rule text quoted."""

from __future__ import annotations

import pytest

from engine import new_game, view_for
from engine.core.errors import EngineError
from engine.core.textboard import board_from_text
from engine.rulesets.m44.cards import CARDS

from .rulehelp import act, do, random_games, unit
from .rulehelp import roll as _roll


def roll(st, *faces):
    return _roll(st, *faces)[0]


BOARD = """
    1: .:i W:i .:a .:i .:g .:i .:a .:i H:i
    3: . T  .  T  .  .  H  .
    7: .:I W:I .:A .:I .:G .:I .:A .:I H:I
"""


def scn(text=BOARD, **kw):
    kw.setdefault("victory", (6, 6))
    return board_from_text(text, **kw)


def kinds(st, side):
    return sorted(u.spec.kind for u in st.units.values() if u.side == side)


# --------------------------------------------------------------------- Young Generals
def test_young_generals_section_cards_base_profiles_no_take_ground():
    """004: "Do not use the Take Ground or the Armour Overrun rules. ... Remove all
    Tactic Cards and only use the Section Cards." and "Do not use any Optional Rules,
    Appendix 1 - Special Unit Rules"."""
    st = new_game(scn(units={(5, 5): "inf2us", (1, 17): "tank2ger"}), 1, {"young_generals": True})
    cards = st.deck + st.hands["AXIS"] + st.hands["ALLIES"]
    assert len(cards) == 40 and all(CARDS[c].kind == "section" for c in cards)
    assert unit(st, (5, 5)).spec.kind == "infantry"  # special forces -> base
    assert unit(st, (1, 17)).spec.kind == "armor" and unit(st, (1, 17)).figures == 3
    assert all(u.spec.take_ground == 0 for u in st.units.values())
    with pytest.raises(EngineError) as e:
        new_game(scn(), 1, {"young_generals": True, "no_retreat": True})
    assert e.value.code == "invalid_option_value"


def test_young_generals_random_games():
    """ "Remember to shuffle the Section Cards yourself when it has been exhausted.\""""
    random_games({"young_generals": True}, {"play_card", "battle"})


# --------------------------------------------------------------------- Achtung! Zombie!
def test_zombie_conversion():
    """ "For each Infantry-based Unit = 1 Zombie Unit · For each Artillery Unit = 2 Zombie
    Units · For each Armour Unit = 3 Zombie Units" and "Zombie Units start with 3 zombie
    figures each"; "The Dead Player is given no Command Cards.\""""
    st = new_game(scn(), 1, {"variant": "ZOMBIE"})
    dead = [u for u in st.units.values() if u.side == "AXIS"]
    assert len(dead) == 6 + 2 + 3 * 2  # 6 infantry, 1 gun, 2 tanks
    assert all(u.spec.kind == "zombie" and u.figures == 3 for u in dead)
    assert st.hands["AXIS"] == []


def _zombie_turn(st):
    """Allies pass their turn quickly (first card, no orders)."""
    st = do(st, "play_card", card=st.hands["ALLIES"][0])
    while st.active == "ALLIES" and not st.game_over:
        t = [a["type"] for a in __import__("engine").legal_actions(st, "ALLIES")]
        for end in ("end_orders", "end_movement", "end_battles", "pass"):
            if end in t:
                st = do(st, end)
                break
        else:
            if st.pending and st.pending["seat"] == "chance":
                st = roll(st, *["flag"] * st.pending["dice"])
            elif st.pending["type"] == "choose_card":
                st = do(st, "choose_card", card=st.recon_cards[0])
            elif st.pending["type"] == "choose_section":
                st = do(st, "choose_section", section=1)
            else:
                st = act(st, t[0])[0] if t else st
    return st


def test_zombies_need_no_orders_move_one_and_create_new_zombies():
    """ "Zombies DO NOT require orders." "They may Battle and Move one hex per turn."
    "A new Zombie Figure is placed with the Zombie Unit that eliminated the Living
    figure/model ... even if it means that there are now more than 3 Zombie figures\""""
    st = new_game(
        scn("""
        3: . .:i .
        4: . .:I
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    st = _zombie_turn(st)
    assert st.active == "AXIS" and st.phase in ("move", "battle")
    z = unit(st, (3, 3))
    assert z.ordered
    if st.phase == "move":
        st = do(st, "end_movement")
    st = do(st, "battle", unit=z.id, target=[4, 2])
    st = do(st, "pass") if st.pending["type"] == "ambush" else st
    st = roll(st, "inf", "inf", "star")
    assert unit(st, (3, 3)).figures == 5 and unit(st, (4, 2)).figures == 2


def test_zombie_splits_at_six_and_grenades_are_flags():
    """ "If a Zombie Unit reaches 6 figures in size it immediately divides into two
    equally-sized Zombie Units" and "Grenade Hits are treated as a Purple Flag. A Zombie
    Unit Retreats a maximum of one hex\""""
    st = new_game(
        scn("""
        3: . .:i .
        4: . .:I
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    st = _zombie_turn(st)
    if st.phase == "move":
        st = do(st, "end_movement")
    z = unit(st, (3, 3))
    st = do(st, "battle", unit=z.id, target=[4, 2])
    st = do(st, "pass") if st.pending["type"] == "ambush" else st
    st = roll(st, "inf", "inf", "inf")
    zs = [u for u in st.units.values() if u.spec.kind == "zombie"]
    assert sorted(u.figures for u in zs) == [3, 3]
    from engine.rulesets.m44.options.variants.zombie import hits_flags

    b = type("B", (), {"ignore_grenades": False})()
    assert hits_flags(st, b, zs[0], ["grenade", "grenade", "flag"], (2, 1)) == (0, 1)


def test_zombie_random_games():
    random_games({"variant": "ZOMBIE"}, {"battle"})


# --------------------------------------------------------------------- EX-TER-MIN-ATE!
def test_daleks_conversion_and_victory():
    """Standard Daleks "take the place of all Regular Infantry Units", Special Weapons
    Daleks "take the place of all Armour Units", Mercenaries "take the place of all
    Special Infantry and Artillery Units"; "Daleks always need to get 10 Victory Points\""""
    st = new_game(scn(), 1, {"variant": "EXTERMINATE"})
    assert kinds(st, "AXIS") == sorted(
        ["dalek"] * 6 + ["special_weapons_dalek"] * 2 + ["dalek_mercenary"]
    )
    sides = view_for(st, None)["sides"]
    assert sides["AXIS"]["victory"] == 10 and sides["ALLIES"]["victory"] == 6
    assert st.scn.victory == {"AXIS": 6, "ALLIES": 6}  # the shared scenario unchanged
    d = next(u for u in st.units.values() if u.spec.kind == "dalek")
    assert (d.spec.unit_class, d.figures, d.spec.move, d.spec.dice) == ("armor", 3, 4, (3, 3, 3))
    assert [u.spec.medal_value for u in st.units.values() if u.spec.kind == "dalek_mercenary"] == [
        0
    ]


def test_dalek_flags_are_exterminations():
    """ "Daleks are not effected by Landmines, Grenade Hits or the first Purple Flag.
    Additional Purple Flags result in the extermination of 1 model each. Daleks do not
    Retreat.\""""
    from engine.core import dice as D
    from engine.rulesets.m44.options.variants.exterminate import hits_flags

    st = new_game(scn(), 1, {"variant": "EXTERMINATE"})
    d = next(u for u in st.units.values() if u.spec.kind == "dalek")
    faces = ["grenade", "flag", "flag", "flag", "armor"]
    assert D.count(faces, "armor", d.spec.hit_by, frozenset()) == (1, 3)
    assert hits_flags(st, None, d, faces, (1, 3)) == (3, 0)


def test_dalek_exterminates_a_town():
    """ "If a Standard Dalek Unit ... occupies a Towns & Villages hex, it may be ordered to
    exterminate it. This takes the Unit a whole turn, at the end of which the hex is
    replaced with City Ruins. The Victory Marker is permanently moved to the Dalek Medal
    Stands.\""""
    from engine.rulesets.m44.options.variants import exterminate as X

    st = new_game(
        scn("""
        3: T:i .
        7: .:I .
    """),
        1,
        {"variant": "EXTERMINATE"},
    )
    d = unit(st, (3, 1))
    st.active = "AXIS"
    X.turn_begins(st, "AXIS", [])
    st.units[d.id].ordered = True
    events: list = []
    X.turn_ending(st, "AXIS", events)
    assert [e["type"] for e in events] == ["terrain_changed", "town_exterminated", "medal_gained"]
    assert st.medals("AXIS") == 1 and not X.is_town(st, (3, 1))


def test_exterminate_random_games():
    random_games({"variant": "EXTERMINATE"}, {"battle"})


# --------------------------------------------------------------------- War Of The Worlds
def test_martians_replace_every_two_units_on_the_rear_line():
    """ "1 Martian Unit replaces every 2 Infantry, Artillery, and Armour Units (rounded
    down). However, every 4th Unit has to be a Martian Handling Machine" and "Martian
    Units may only be placed on the rear-line of hexes"; "They receive two extra Command
    Cards above the Scenario limit\""""
    st = new_game(scn(), 1, {"variant": "WAR_OF_THE_WORLDS"})
    m = [u for u in st.units.values() if u.side == "AXIS"]
    assert sorted(u.spec.kind for u in m) == sorted(
        ["martian_fighting_machine"] * 3 + ["martian_handling_machine"]
    )
    assert all(u.hex[0] == 0 for u in m)
    assert len(st.hands["AXIS"]) == 4 + 2
    inf = [u for u in st.units.values() if u.side == "ALLIES" and u.cls == "inf"]
    assert {u.spec.kind for u in inf} == {"special_forces"}  # Human Resistance


def test_common_cold():
    """ "Apply the following rules at the beginning of the second turn and every turn
    thereafter. Roll one Battle Dice ... A Green Star means ... All Martian Movement is
    reduced by one hex. All Martian Units must lose 1 model. All Martian Units lose one
    Battle Dice.\""""
    from engine.procedures.battle import battle_dice
    from engine.procedures.movement import move_allowance
    from engine.procedures.state import Play

    st = new_game(scn(), 1, {"variant": "WAR_OF_THE_WORLDS", "variant_side": "ALLIES"})
    st = _zombie_turn(st) if st.active == "ALLIES" else st
    m = next(u for u in st.units.values() if u.side == "ALLIES")
    before = m.figures
    st.active = "ALLIES"
    from engine.rulesets.m44.options.variants import war_of_the_worlds as W

    st.turn = 2
    W.turn_begins(st, "ALLIES", [])
    assert st.pending is None or st.phase == "chance"
    st.pending = {"type": "roll", "seat": "chance", "dice": 1, "for": "common_cold"}
    st = roll(st, "star")
    m2 = st.units[m.id]
    assert m2.figures == before - 1
    play = Play(None, "none", "ALLIES", "ALLIES")
    assert move_allowance(st, m2, play) == 2
    target = unit(st, (1, 1))  # infantry on open ground
    assert battle_dice(st, m2, target, 1, None) == 3


def test_war_of_the_worlds_random_games():
    random_games({"variant": "WAR_OF_THE_WORLDS"}, {"battle"})


def test_fall_of_london_scenario():
    """ "The Martian side gets 9 Martian Fighting Machines, 3 Martian Handling Machines,
    and 12 Command Cards." / "The British side gets 10 Infantry Tank Units, 8 Special
    Infantry Units, 5 Medium Armour Units, 2 Heavy Artillery Units, and 10 Command
    Cards." / "Terrain Objectives - The following Towns & Villages become their British
    equivalents" (7 town hexes: "The Martian side must have occupied all 7 Towns &
    Villages hexes")."""
    import os
    from collections import Counter
    from engine import load_scenario

    path = os.path.join(
        os.path.dirname(__file__), "..", "..", "scenarios", "WOTW-FallOfLondon1940.m44"
    )
    st = new_game(load_scenario(path), 1, {"variant": "WAR_OF_THE_WORLDS"})
    assert Counter(kinds(st, "AXIS")) == {
        "martian_fighting_machine": 9,
        "martian_handling_machine": 3,
    }
    assert Counter(kinds(st, "ALLIES")) == {
        "infantry_tank": 10,
        "special_forces": 8,
        "medium_armour": 5,
        "heavy_artillery": 2,
    }
    assert len(st.hands["AXIS"]) == 12 and len(st.hands["ALLIES"]) == 10
    assert len(st.ext["variant"]["towns"]) == 7
    tank = next(u for u in st.units.values() if u.spec.kind == "infantry_tank")
    assert (tank.figures, tank.spec.move, tank.spec.dice) == (3, 2, (3, 2, 2))


def test_fall_of_london_random_games():
    import os
    from engine import load_scenario

    path = os.path.join(
        os.path.dirname(__file__), "..", "..", "scenarios", "WOTW-FallOfLondon1940.m44"
    )
    random_games({"variant": "WAR_OF_THE_WORLDS"}, {"battle"}, load_scenario(path))


# --------------------------------------------------------------------- Nineteen Eighty-Four
def test_1984_both_sides_the_stronger_force_converted():
    """ "Both sides each get whichever force in the Scenario has the greatest number of
    Units." "All Armour Units become Assault Guns. All Infantry Units become Militia
    Infantry Units. ... Every third Artillery Unit is a Rocket Artillery battery, the
    rest are Medium Artillery Units." "Victory goes to the first player to gain 12
    Victory Points\""""
    st = new_game(
        scn("""
        1: .:i .:a .:g .:g .:g
        7: .:I
    """),
        1,
        {"variant": "NINETEEN_EIGHTY_FOUR"},
    )
    want = sorted(
        ["militia", "assault_gun", "medium_artillery", "medium_artillery", "rocket_artillery"]
    )
    assert kinds(st, "AXIS") == want and kinds(st, "ALLIES") == want
    assert {s: v["victory"] for s, v in view_for(st, None)["sides"].items()} == {
        "AXIS": 12,
        "ALLIES": 12,
    }
    assert set(st.ext["commissar_chip"]) == {"AXIS", "ALLIES"}
    assert all(u.spec.take_ground <= 1 for u in st.units.values())


def test_1984_flags_are_casualties_and_replacements():
    """ "Purple Flags are casualties, not Retreats." "A replacement Unit of exactly the
    same type is brought on the in the next turn whenever a Unit is eliminated.\""""
    from engine.rulesets.m44.options.variants import nineteen_eighty_four as N

    st = new_game(scn(), 1, {"variant": "NINETEEN_EIGHTY_FOUR"})
    v = next(u for u in st.units.values() if u.side == "AXIS")
    assert N.hits_flags(st, None, v, ["flag", "flag"], (0, 2)) == (2, 0)
    n = len([u for u in st.units.values() if u.side == "AXIS"])
    st.units[v.id].figures = 0
    N.figures_lost(st, st.units[v.id], 2, "ALLIES", [])
    from engine.rulesets.m44.options.variants.common import remove_unit

    remove_unit(st, st.units[v.id])
    events: list = []
    N.turn_begins(st, "AXIS", events)
    assert [e["type"] for e in events][-2:] == ["reinforcement_section", "unit_entered"]
    new = st.units[events[-1]["unit"]]
    assert new.spec.kind == v.spec.kind and new.hex[0] == 0
    assert len([u for u in st.units.values() if u.side == "AXIS"]) == n


def test_1984_random_games():
    random_games({"variant": "NINETEEN_EIGHTY_FOUR"}, {"battle"})


# --------------------------------------------------------------------- Simplified Campaign
CAMPAIGN_BOARD = """
    1: .:i .:a .:i .:g
    7: .:I .:A .:I .:G
"""


def _campaign(dice, starting="PLAYER2"):
    return new_game(scn(CAMPAIGN_BOARD, starting=starting), 1, {"campaign": dice})


def test_campaign_prebattle_dice_count():
    """ "each player rolls Battle Dice equal to the number of Victory Points won in the
    previous game. As a Victory Bonus, each player rolls 1 additional Battle Die for each
    Victory he has won in the Campaign.\""""
    from engine.rulesets.m44.options.campaign_value import prebattle_dice

    assert prebattle_dice(4, 1) == 5 and prebattle_dice(0, 0) == 0


def test_campaign_roll_comes_before_the_first_card():
    """ "At the beginning of the game, before the Command Cards are dealt, each player
    rolls Battle Dice\" (the starting side first)."""
    st = _campaign({"AXIS": 1, "ALLIES": 2})
    assert st.pending == {"type": "roll", "seat": "chance", "dice": 2, "for": "campaign"}
    st = roll(st, "inf", "star")
    assert st.pending["dice"] == 1
    assert st.pending["for"] == "campaign"


def test_campaign_black_tank_and_blue_infantryman_the_opponent_chooses():
    """ "Black Tank - Your opponent must remove one Tank model from any one of his Armour
    Units." "Blue Infantryman - Your opponent must remove one Infantry figure from any one
    of his Infantry Units.\""""
    st = _campaign({"ALLIES": 2})
    st = roll(st, "armor", "inf")
    assert st.pending["type"] == "campaign_loss" and st.pending["seat"] == "AXIS"
    acts = __import__("engine").legal_actions(st, "AXIS")
    assert [a["unit"] for a in acts] == [unit(st, (1, 3)).id]
    st = do(st, "campaign_remove", unit=unit(st, (1, 3)).id)
    assert unit(st, (1, 3)).figures == 2
    acts = __import__("engine").legal_actions(st, "AXIS")
    assert sorted(a["unit"] for a in acts) == sorted([unit(st, (1, 1)).id, unit(st, (1, 5)).id])
    st = do(st, "campaign_remove", unit=unit(st, (1, 5)).id)
    assert unit(st, (1, 5)).figures == 3 and st.phase == "play_card"


def test_campaign_flag_grenade_star():
    """ "Purple Flag - Your opponent must Retreat any one Unit by one hex." "Red Grenade -
    You remove one figure/model from any one of your Opponent's Units." "Green Star -
    Reduce the number of Command Cards your opponent holds at the start of the Battle by
    1.\""""
    st = _campaign({"ALLIES": 3})
    hand = len(st.hands["AXIS"])
    st = roll(st, "star", "flag", "grenade")
    assert len(st.hands["AXIS"]) == hand - 1
    assert st.pending["type"] == "campaign_retreat" and st.pending["seat"] == "AXIS"
    gun = unit(st, (1, 7)).id
    st = do(st, "campaign_retreat", unit=gun, to=[0, 6])
    assert st.units[gun].hex == (0, 6)
    assert st.pending["type"] == "campaign_loss" and st.pending["seat"] == "ALLIES"
    st = do(st, "campaign_remove", unit=gun)
    assert st.units[gun].figures == 1


def test_campaign_unit_wiped_out_gives_a_victory_point():
    """ "You gain a Victory Point if all of the figures/models of an opponent's Unit are
    removed before the Battle begins.\""""
    st = _campaign({"ALLIES": 2})
    st = roll(st, "grenade", "grenade")
    gun = unit(st, (1, 7)).id
    st = do(st, "campaign_remove", unit=gun)
    st = do(st, "campaign_remove", unit=gun)
    assert gun not in st.units and st.medals("ALLIES") == 1


def test_campaign_short_hand_draws_two():
    """ "He will draw two cards after each turn, untill the number of cards he holds is
    equal to the number listed in the Scenario Briefing Notes.\""""
    from engine.rulesets.m44.options import campaign as C

    st = _campaign({"ALLIES": 2})
    st = roll(st, "star", "star")
    assert len(st.hands["AXIS"]) == 2
    events: list = []
    C.turn_ending(st, "AXIS", events)
    assert len(st.hands["AXIS"]) == 3


def test_campaign_random_games():
    random_games({"campaign": {"AXIS": 3, "ALLIES": 4}}, {"campaign_remove"})


def test_variants_never_change_the_shared_scenario():
    """A variant's changes live in the game state (snapshots load a state on the game's
    own scenario): the scenario object is shared and unchanged."""
    s = scn()
    before = (dict(s.cards), dict(s.victory), s.exits, dict(s.options))
    for v in ("ZOMBIE", "EXTERMINATE", "WAR_OF_THE_WORLDS", "NINETEEN_EIGHTY_FOUR"):
        st = new_game(s, 1, {"variant": v})
        assert st.scn is s
    st = new_game(s, 1, {"young_generals": True})
    assert st.scn is s and (dict(s.cards), dict(s.victory), s.exits, dict(s.options)) == before


def test_zombie_living_leave_by_their_baseline():
    """ "The Living Player may Retreat Units off the Board in order to gain a Draw.\""""
    from engine.procedures.movement import exit_hexes
    from engine.procedures.state import Play

    st = new_game(
        scn("""
        1: .:i
        8: .:I
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    u = unit(st, (8, 0))
    play = Play(None, "none", "ALLIES", "ALLIES")
    assert (8, 0) in exit_hexes(st, u, play)


def test_zombies_must_battle_and_enter_towns():
    """ "Zombie Units must Battle when in Close Assault with the Living." and "One Zombie
    Unit must enter a Towns & Villages or Bunkers hex if it begins its Move next to
    one.\""""
    import engine

    st = new_game(
        scn("""
        3: . .:i T
        4: . . .:I
        6: .:i
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    st = _zombie_turn(st)
    assert st.active == "AXIS" and st.phase == "move"
    near_town = unit(st, (3, 3))
    moves = [
        a
        for a in engine.legal_actions(st, "AXIS")
        if a["type"] == "move" and a["unit"] == near_town.id
    ]
    assert [a["to"] for a in moves] == [[3, 5]]  # into the town only
    assert "end_movement" not in [a["type"] for a in engine.legal_actions(st, "AXIS")]
    st = do(st, "move", unit=near_town.id, to=[3, 5])
    assert "end_movement" in [a["type"] for a in engine.legal_actions(st, "AXIS")]
    st = new_game(
        scn("""
        3: . .:i .
        4: . .:I
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    st = _zombie_turn(st)
    st = do(st, "end_movement") if st.phase == "move" else st
    assert st.phase == "battle"
    assert "end_battles" not in [a["type"] for a in engine.legal_actions(st, "AXIS")]
    with pytest.raises(EngineError) as e:
        do(st, "end_battles")
    assert e.value.code == "must_battle"


def test_dalek_human_factor_leader():
    """ "A Unit ignores the first Purple Flag and receives two additional Battle Die when
    accompanied by this Leader. ... If the Unit is eliminated, Move his Battle Star to
    the nearest friendly Unit\""""
    from engine.procedures.battle import battle_dice
    from engine.rulesets.m44.options.variants import exterminate as X

    st = new_game(
        scn("""
        3: . .:i
        4: . .:I .:I
    """),
        1,
        {"variant": "EXTERMINATE"},
    )
    lead = st.ext["variant"]["leader"]
    assert lead in (unit(st, (4, 2)).id, unit(st, (4, 4)).id)
    dalek = unit(st, (3, 3))
    assert battle_dice(st, st.units[lead], dalek, 1, None) == 3 + 2
    assert X.hits_flags(st, None, st.units[lead], ["flag", "flag"], (0, 2)) == (0, 1)
    v = st.units[lead]
    v.figures = 0
    events: list = []
    X.figures_lost(st, v, 4, "AXIS", events)
    assert events[-1]["type"] == "leader_moved" and st.ext["variant"]["leader"] != lead


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "ZOMBIE"},
        {"variant": "EXTERMINATE"},
        {"variant": "WAR_OF_THE_WORLDS"},
        {"variant": "NINETEEN_EIGHTY_FOUR"},
        {"campaign": {"AXIS": 3, "ALLIES": 3}},
        {"young_generals": True},
    ],
)
def test_variant_snapshots_and_canonical_actions(options):
    """A variant game's JSON snapshot loads on the game's scenario and goes on equal to
    the live game; every legal action has a canonical form (the server's log)."""
    import json
    from engine.bot import RandomBot
    from engine.core.ruleset import get

    rs = get("m44")
    s = scn()
    st, bot = rs.new_game(4, options, s, "1v1"), RandomBot(4)
    for n in range(1, 161):
        if rs.is_over(st):
            break
        if rs.is_chance(st):
            a = rs.sample_chance(st)
        else:
            seat = rs.to_act(st)[0]
            for x in rs.legal_actions(st, seat):
                assert rs.canonical_action(st, x)["type"] == x["type"]
            a = bot.choose(st, seat)
        st, _ = rs.apply(st, a)
        if n % 40 == 0:
            back = rs.load_state(json.loads(json.dumps(rs.dump_state(st))), s)
            assert back == st
            st = back


def test_handling_machine_flags():
    """ "Martian Handling Machines are not effected by Landmines, Grenade Hits or the first
    Purple Flag. A Martian Handling Machine must Retreat for additional Purple Flags, even
    if it means Retreating off the Board (in which case it is lost).\""""
    from engine.rulesets.m44.options.variants import war_of_the_worlds as W

    st = new_game(scn(), 1, {"variant": "WAR_OF_THE_WORLDS"})
    hm = next(u for u in st.units.values() if u.spec.kind == W.HANDLING)
    fm = next(u for u in st.units.values() if u.spec.kind == W.FIGHTING)
    assert hm.hex[0] == 0  # on the Martian rear line
    assert W.hits_flags(st, None, hm, ["flag"], (0, 1)) == (0, 0)
    assert W.hits_flags(st, None, hm, ["flag", "flag"], (0, 2)) == (hm.figures, 0)
    assert W.hits_flags(st, None, fm, ["flag", "flag"], (1, 2)) == (1, 0)


def test_daleks_and_martians_ignore_mines():
    """ "Daleks are not effected by Landmines" / "Martian Fighting Machines are not
    effected by Landmines\""""
    from engine.rulesets.m44.options.variants import exterminate as X
    from engine.rulesets.m44.options.variants import war_of_the_worlds as W

    mine = type("B", (), {"kind": "mine", "ignore_grenades": False})()
    st = new_game(scn(), 1, {"variant": "EXTERMINATE"})
    d = next(u for u in st.units.values() if X.is_dalek(u))
    assert X.hits_flags(st, mine, d, ["armor", "grenade"], (2, 0)) == (0, 0)
    st = new_game(scn(), 1, {"variant": "WAR_OF_THE_WORLDS"})
    m = next(u for u in st.units.values() if W.is_martian(u))
    assert W.hits_flags(st, mine, m, ["armor", "armor"], (2, 0)) == (0, 0)


def test_martians_pass_through_each_other():
    """ "Martian Units may pass through each others hexes but may not end their Movement
    in the same hex.\""""
    from engine.procedures.movement import reachable
    from engine.procedures.state import Play
    from engine.rulesets.m44.options.variants import war_of_the_worlds as W

    st = new_game(
        scn(
            """
        0: . .
        1: . .
        8: .:I
    """,
            units={(0, 0): "tankger", (0, 2): "tankger", (1, 1): "tank2ger", (1, 3): "tankger"},
            options={"war_of_the_worlds_units": True},
        ),
        1,
        {"variant": "WAR_OF_THE_WORLDS"},
    )
    back = unit(st, (0, 2))
    assert W.is_martian(back) and W.is_martian(unit(st, (1, 1)))
    play = Play(None, "none", "AXIS", "AXIS")
    dest = reachable(st, back, play)
    assert (1, 1) not in dest and (1, 3) not in dest  # never ends on a Martian
    assert (2, 2) in dest and dest[(2, 2)] == 2  # but passes through them
    assert (3, 3) in dest
    st2 = new_game(
        scn(
            """
        0: . .
        1: . .
        8: .:I
    """,
            units={(0, 0): "tankger", (0, 2): "tankger", (1, 1): "tank2ger", (1, 3): "tankger"},
        ),
        1,
        {},
    )
    assert (2, 2) not in reachable(st2, unit(st2, (0, 2)), play)  # the standard game


def test_1984_refuses_blitzkrieg():
    """ "No Special Infantry Units, Blitzkrieg Rules, or Armour Overruns are allowed.\""""
    with pytest.raises(EngineError) as e:
        new_game(scn(), 1, {"variant": "NINETEEN_EIGHTY_FOUR", "blitzkrieg": "AXIS"})
    assert e.value.code == "invalid_option_value"
    st = new_game(scn(), 1, {"variant": "NINETEEN_EIGHTY_FOUR"})
    assert view_for(st, None)["variant"]["names"] == {"AXIS": "Eurasia", "ALLIES": "Oceania"}


def test_zombie_split_displaces_a_zombie_backwards():
    """ "One Zombie Unit remains on the original hex, the other one is placed on any
    adjacent hex, provided that no Living Unit is already there. Zombie Units may be
    displaced backwards to make room for the new Unit\""""
    from engine.rulesets.m44.options.variants import zombie as Z

    st = new_game(
        scn("""
        2: . .:i .:i
        3: .:i .:i .:i
        4: . .:I .:I
    """),
        1,
        {"variant": "ZOMBIE"},
    )
    z = st.units[st.occ[(3, 3)]]  # neighbours: zombies and Living only
    assert all(h in st.occ for h in st.scn.board.neighbours(z.hex))
    z = st.mut(z.id)
    z.figures = 6
    events: list = []
    Z._split(st, z, events)
    moved = [e for e in events if e["type"] == "unit_moved"]
    made = [e for e in events if e["type"] == "unit_entered"]
    assert moved and moved[0]["reason"] == "displaced" and moved[0]["to"][0] < moved[0]["from"][0]
    assert made and made[0]["hex"] == moved[0]["from"]
    assert st.units[z.id].figures == 3 and made[0]["figures"] == 3
