"""Scenario loading (vocabulary sections 1.1, 2.1, 3)."""

import json
from pathlib import Path

import pytest

from engine.core.errors import ScenarioError
from engine.core.scenario import board_for, load_scenario
from engine.core.scenario_json import parse_coord
from engine.core.textboard import m44_from_text
from tests.engine.paths import SCN_DIR

SCENARIOS = SCN_DIR
FILES = sorted(SCENARIOS.glob("*.m44"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_bundled_scenarios_load(path):
    scn = load_scenario(path)
    assert scn.units and not scn.unknown
    assert {scn.player1_side, scn.player2_side} == {"AXIS", "ALLIES"}
    for u in scn.units:
        assert scn.board.on_board(u.hex)
    json.dumps(board_for(scn))


def test_pegasus_bridge_details():
    scn = load_scenario(SCENARIOS / "2-PegasusBridge.m44")
    assert scn.board.kind == "STANDARD" and scn.starting_side == "ALLIES"
    assert scn.cards == {"AXIS": 2, "ALLIES": 6}
    bridges = [h for h, t in scn.terrain.items() if t.bridge]
    assert bridges and all(not scn.terrain[h].impassable for h in bridges)
    assert all(
        scn.terrain[h].impassable for h, t in scn.terrain.items() if t.river and not t.bridge
    )


def test_beach_face_background_rows():
    scn = load_scenario(SCENARIOS / "4-SwordBeach.m44")
    assert scn.terrain_at((8, 0)).ocean and scn.terrain_at((7, 1)).ocean
    assert scn.terrain_at((5, 1)).beach or scn.tiles[(5, 1)][0].spec.slot != "engine"
    assert not scn.terrain_at((3, 1)).beach
    omaha = load_scenario(SCENARIOS / "13-OmahaBeachOverlord.m44")
    assert omaha.board.kind == "OVERLORD" and omaha.terrain_at((8, 50)).ocean
    assert omaha.starting_side == "AXIS"  # "starting": "player1", lower case


def test_mines_and_ship_in_peleliu():
    scn = load_scenario(SCENARIOS / "1517-PeleliuLandingsOverlord.m44")
    assert len(scn.mines) == 7 and all(m.side == "AXIS" for m in scn.mines)
    ships = [u for u in scn.units if u.spec.kind == "destroyer"]
    assert ships and ships[0].side == "ALLIES"
    assert any(u.spec.nation == "jp" for u in scn.units)


def test_tiger_in_prokhorovka():
    scn = load_scenario(SCENARIOS / "5913-BattleOfProkhorovka.m44")
    assert scn.board.kind == "BRKTHRU"
    assert sum(u.spec.kind == "tiger" for u in scn.units) == 4


def test_unknown_codes_name_every_code_and_hex():
    d = m44_from_text(
        "0: W:i .",
        hexes=[
            {"row": 2, "col": 2, "terrain": {"name": "moonrock"}},
            {"row": 2, "col": 4, "terrain": {"name": "moonrock"}, "unit": {"name": "zeppelinger"}},
            {
                "row": 3,
                "col": 3,
                "tags": [{"name": "tag99", "behavior": "LAVA"}],
                "obstacle": {"name": "sand", "behavior": "LAVA"},
            },
        ],
    )
    with pytest.raises(ScenarioError) as e:
        load_scenario(d, forces=False)
    assert e.value.code == "unknown_codes"
    found = {(u.slot, u.code): u.hexes for u in e.value.unknown}
    assert found == {
        ("terrain", "moonrock"): ((2, 2), (2, 4)),
        ("unit", "zeppelinger"): ((2, 4),),
        ("tag", "tag99+LAVA"): ((3, 3),),
        ("obstacle", "sand+LAVA"): ((3, 3),),
    }
    lenient = load_scenario(d, lenient=True, forces=False)
    assert len(lenient.unknown) == 4 and (2, 2) not in lenient.terrain


def test_decorative_tags_and_behaviour_driven_tags():
    """BGA: tags without a rule behaviour (tag2, tag7, a bare tag3...) are decorative; mines
    and exits are recognised by their behaviour whatever the tag number."""
    d = m44_from_text(
        "0: .",
        hexes=[
            {"row": 2, "col": 2, "tags": [{"name": "tag2"}, {"name": "tag3"}, {"name": "tag7"}]},
            {
                "row": 2,
                "col": 4,
                "tags": [{"name": "tag6", "behavior": "MINE_FIELD", "side": "AXIS"}],
            },
            {
                "row": 2,
                "col": 6,
                "tags": [{"name": "tag9", "behavior": "EXIT_MARKER", "side": "ALLIES"}],
            },
            {"row": 2, "col": 8, "tags": [{"name": "tag4"}]},
        ],
    )
    scn = load_scenario(d, forces=False)
    assert [m.hex for m in scn.mines] == [(2, 4)] and scn.mines[0].side == "AXIS"
    assert [e.hexes for e in scn.exits] == [((2, 6),)]
    with pytest.raises(ScenarioError):
        load_scenario(
            m44_from_text("0: .", hexes=[{"row": 1, "col": 1, "tags": [{"name": "flag"}]}])
        )


def test_older_palette_codes_load():
    """Codes of the older editor palette / vocabulary 1.4 get a sensible meaning."""
    d = m44_from_text(
        "0: .",
        hexes=[
            {"row": 1, "col": 1, "terrain": {"name": "railroad", "orientation": 1}},
            {"row": 1, "col": 3, "terrain": {"name": "ravine"}},
            {"row": 1, "col": 5, "obstacle": {"name": "abatis"}},
            {"row": 8, "col": 2, "rect_terrain": {"name": "barge"}, "unit": {"name": "infus"}},
            {"row": 8, "col": 6, "rect_terrain": {"name": "pcarrier"}},
            {"row": 7, "col": 1, "unit": {"name": "infpl"}},
        ],
        face="BEACH",
    )
    scn = load_scenario(d, forces=False)
    assert scn.terrain_at((1, 1)).rail and scn.terrain_at((1, 5)).impassable == {"armor", "art"}
    assert scn.terrain_at((8, 2)).ocean and scn.unit_at((8, 2)) is not None
    assert scn.terrain_at((8, 6)).impassable == {"inf", "armor", "art"}
    assert scn.unit_at((7, 1)).side == "ALLIES"


def test_malformed_inputs():
    for bad in (b"{not json", {"game_info": {}}, "/nonexistent/file.m44"):
        with pytest.raises(ScenarioError) as e:
            load_scenario(bad)
        assert e.value.code == "malformed_scenario"
    with pytest.raises(ScenarioError) as e:
        load_scenario(m44_from_text("", kind="HUGE"))
    assert e.value.code == "unknown_board"
    with pytest.raises(ScenarioError):
        load_scenario(m44_from_text("", game_info={"starting": "NOBODY"}))


def test_medal_settings_groups_exits_and_sudden_death():
    assert parse_coord("A9", 9) == (0, 0) and parse_coord("a1", 9) == (8, 1)
    assert parse_coord("C2", 17) == (15, 4)
    d = m44_from_text(
        "",
        tags={
            (4, 6): {
                "name": "medal2",
                "group": ["E5", "d4"],
                "medal": {"counts_for": 2, "nbr_hex": 2, "permanent": True, "sole_control": True},
            },
            (0, 0): {"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES", "group": ["B9"]},
            (2, 2): {"name": "tag3", "behavior": "DECOY_MEDAL_MINE_FIELD", "side": "axis"},
            (6, 6): "tag14",
            (7, 7): "tag1",
        },
        game_info={
            "victory": {
                "condition": [
                    {"group_sudden_death": {"side": "ALLIES", "number": 1, "group": ["G1"]}}
                ]
            }
        },
    )
    scn = load_scenario(d, forces=False)
    (obj,) = scn.objectives
    assert obj.side == "AXIS" and obj.hexes == ((4, 6), (4, 8), (5, 7))
    assert (obj.counts_for, obj.nbr_hex, obj.permanent, obj.sole_control) == (2, 2, True, True)
    assert scn.exits[0].side == "ALLIES" and scn.exits[0].hexes == ((0, 0), (0, 2))
    assert scn.mines[0].decoy and scn.mines[0].side == "AXIS"
    assert scn.camouflage == ((6, 6),) and scn.markers == ((7, 7),)
    assert scn.sudden_death[0].hexes == ((8, 12),)


def test_tags_as_index_keyed_map_and_case_insensitive_fields():
    d = m44_from_text("0: .:i")
    d["board"]["type"] = "standard"
    d["game_info"] = {
        k: (v.lower() if isinstance(v, str) else v) for k, v in d["game_info"].items()
    }
    d["board"]["hexagons"].append({"row": 1, "col": 1, "tags": {"0": {"name": "medal0"}}})
    scn = load_scenario(d, forces=False)
    assert scn.player1_side == "AXIS" and scn.objectives[0].side is None


def test_bunker_without_owner_takes_the_occupant_side():
    scn = load_scenario(m44_from_text("0: K:i  K"), forces=False)
    assert scn.tiles[(0, 0)][0].owner == "AXIS" and scn.tiles[(0, 2)][0].owner is None


def test_hill_masses():
    from engine.core.textboard import board_from_text

    scn = board_from_text("""
        H  H  .  H
         .  .  .
        M  .  .  .
    """)
    assert scn.masses[(0, 0)] == scn.masses[(0, 2)] != scn.masses[(0, 6)]
    assert (2, 0) in scn.masses and scn.masses[(2, 0)] not in (
        scn.masses[(0, 0)],
        scn.masses[(0, 6)],
    )


def test_board_for_shape():
    scn = load_scenario(SCENARIOS / "2-PegasusBridge.m44")
    b = board_for(scn)
    assert b["type"] == "STANDARD" and b["rows"] == 9 and b["max_col"] == 24
    assert b["sections"] == {"bounds": [0, 7, 17, 24]}
    assert {"code", "name", "family", "slot", "orientation", "owner"} <= set(
        b["hexes"][0]["tiles"][0]
    )
    assert b["objectives"] and b["labels"]


def test_scenario_name_comes_from_the_editor_text_block():
    from engine.core.scenario import load_scenario as _load

    path = SCN_DIR / "2-PegasusBridge.m44"
    if not path.exists():
        path = Path(__file__).resolve().parents[2] / "scenarios" / "2-PegasusBridge.m44"
    assert _load(path).name == "Pegasus Bridge"


def test_a_scenario_without_units_on_both_sides_is_refused():
    # a side without units has lost at once (004): such a file is not a battle
    for text, sides in (("0: .:i", ["ALLIES"]), ("8: .:I", ["AXIS"]), ("0: .", ["AXIS", "ALLIES"])):
        with pytest.raises(ScenarioError) as e:
            load_scenario(m44_from_text(text))
        assert e.value.code == "scenario_no_units" and e.value.details["sides"] == sides
    d = m44_from_text("0: .:i")
    d["board"]["hexagons"] = []
    with pytest.raises(ScenarioError) as e:
        load_scenario(d)
    assert e.value.code == "scenario_no_units" and "hexagons" in e.value.message
    # paratroops dropped before the first turn count for their side
    drop = {"airdrop": {"side": "ALLIES", "range": 1, "nbr_units": 2}}
    assert load_scenario(m44_from_text("0: .:i", game_info={"options": drop})).units
    assert load_scenario(m44_from_text("0: .:i"), forces=False).units  # a rule-test fragment
