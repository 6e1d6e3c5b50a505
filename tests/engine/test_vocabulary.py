"""The whole ``.m44`` vocabulary loads and plays (m44-vocabulary 1-4), without third-party files.

Scenarios are synthesised as raw ``.m44`` dicts (through :func:`engine.textboard.m44_from_text`)
so that together they use every terrain / rect_terrain / obstacle code of the terrain table
(with its behaviour variants), every unit prefix x nation, every rule-bearing badge, unit
behaviour and equipment, every tag kind (objective medals with every setting, minefields,
decoys, exits, camouflage, star tokens, sudden death), the scenario options, and every board
type x face.  Each one must load strictly (no unknown code) and survive a few seeded random
bot games, played to the end or to a step cap, with ``replay == live``.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import replay, view_for
from engine.bot import RandomBot, next_action
from engine.core.geometry import make_board
from engine import apply, new_game
from engine.core.scenario import KNOWN_OPTIONS, load_scenario
from engine.core.terrain_table import BEHAVIORS, TERRAIN, lookup
from engine.core.textboard import m44_from_text
from engine.core.units import (
    BADGES,
    BEHAVIOR_BADGES,
    BEHAVIORS as UNIT_BEHAVIORS,
    PERIOD_BADGES,
    PREFIXES,
)

BOARDS = ("STANDARD", "BRKTHRU", "OVERLORD")
FACES = ("COUNTRY", "WINTER", "DESERT", "BEACH")
AXIS_NATIONS = ("ger", "jp", "it")
ALLIED_NATIONS = ("us", "brit", "ru", "gb", "fr", "ch", "pl")
STEP_CAP = 500
SEEDS = (3, 11)


# ---------------------------------------------------------------------------------------
# Content: hex "items" (tile slots, optional unit) laid out row by row
# ---------------------------------------------------------------------------------------


def _tile(code: str, orientation: int) -> tuple[str, dict[str, Any]]:
    """(slot, tile dict) for a TERRAIN key (``name`` or ``name+BEHAVIOR``)."""
    name, _, behavior = code.partition("+")
    spec = lookup(name, behavior or None)
    item: dict[str, Any] = {"name": name, "orientation": orientation}
    if behavior:
        item["behavior"] = behavior
    return spec.slot, item


def terrain_items() -> list[dict[str, Any]]:
    """One hex per terrain code (and per behaviour variant), plus generic tile behaviours."""
    items: list[dict[str, Any]] = []
    codes = [c for c, s in TERRAIN.items() if s.slot != "engine"]
    for i, code in enumerate(codes):
        slot, item = _tile(code, 1 + i % 6)
        entry: dict[str, Any] = {slot: item}
        spec = TERRAIN[code]
        if slot == "rect_terrain" and spec.family in ("bridge", "ford", "broken_bridge"):
            entry["terrain"] = {"name": "river", "orientation": 1 + i % 3}
        if spec.family == "bunker" and i % 2:
            item["original_owner"] = "AXIS"
        if spec.family == "seawall":
            item["original_owner"] = "AXIS"
        items.append(entry)
    # generic behaviours on the tiles they are seen on (vocabulary 1.2) and behavior2
    items += [
        {"terrain": {"name": "hills", "behavior": "IMPASSABLE_HILL"}},
        {"terrain": {"name": "woods", "behavior": "IMPASSABLE_HILL"}},
        {"terrain": {"name": "mountain", "behavior": "IMPASSABLE_BLOCKING_HILL"}},
        {"terrain": {"name": "hills", "behavior": "HILL"}},
        {"terrain": {"name": "mountain", "behavior": "MOUNTAIN"}},
        {"terrain": {"name": "buildings", "behavior": "HEADQUARTER"}},
        {"terrain": {"name": "oasis", "behavior": "OASIS_RECOVERY"}},
        {"terrain": {"name": "dcamp", "behavior": "OASIS_RECOVERY", "original_owner": "ALLIES"}},
        {"terrain": {"name": "curve", "behavior": "FORD"}},
        {
            "terrain": {"name": "river"},
            "rect_terrain": {
                "name": "bridge",
                "behavior": "CAN_BE_BLOWN",
                "behavior2": "ONE_MEDAL_IF_BLOWN",
            },
        },
        {
            "terrain": {"name": "river"},
            "rect_terrain": {"name": "wbridge", "behavior": "CAN_BE_BLOWN"},
        },
        {
            "terrain": {
                "name": "woods",
                "properties": {"isImpassable": {"AXIS": True, "ALLIES": [2, 3]}},
            }
        },
        {
            "terrain": {
                "name": "hills",
                "properties": {"mustStopWhenEntering": True, "isBlockingLineOfSight": False},
            }
        },
        {"terrain": {"name": "river"}, "unit": {"name": "infus", "equipment": "boat"}},
    ]
    return items


def unit_items(nations: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every unit prefix x nation (``tiger`` through ``tank2ger`` with 1 figure)."""
    out = []
    for prefix, nation in itertools.product(PREFIXES, nations):
        if prefix in ("pdestroyer", "loco", "wagon"):
            continue  # rect_terrain units, see rect_unit_items
        if prefix == "tiger":
            out.append({"unit": {"name": f"tank2{nation}", "nbr_units": "1"}})
        else:
            out.append({"unit": {"name": prefix + nation}})
    return out


def rect_unit_items() -> list[dict[str, Any]]:
    """Destroyer on water, a train (loco + wagon) on a rail line."""
    return [
        {"terrain": {"name": "lakeA"}, "rect_terrain": {"name": "pdestroyer"}},
        {"terrain": {"name": "rail", "orientation": 1}, "rect_terrain": {"name": "loco"}},
        {"terrain": {"name": "rail", "orientation": 1}, "rect_terrain": {"name": "wagon"}},
        {"terrain": {"name": "rail", "orientation": 1}},
        {"terrain": {"name": "station", "orientation": 1}},
    ]


def badge_items(axis: bool) -> list[dict[str, Any]]:
    """Every rule-bearing badge (both periods via date_begin), unit behaviour and equipment."""
    nation = "ger" if axis else "us"
    out = []
    badges = sorted(
        {(p, b) for p, b in BADGES}
        | {(p, b) for p, b, _ in PERIOD_BADGES}
        | {("inf", 38), ("tank2", 4), ("inf2", 4), ("gun", 38), ("inf2", 1), ("tank2", 25)}
    )
    for prefix, badge in badges:
        out.append({"unit": {"name": prefix + nation, "badge": f"badge{badge}"}})
    for behavior in sorted(set(UNIT_BEHAVIORS) | set(BEHAVIOR_BADGES) | {"GERMAN_2VICTANK"}):
        prefix = "tank2" if "ARMOR" in behavior or behavior == "GERMAN_2VICTANK" else "inf2"
        out.append({"unit": {"name": prefix + nation, "behavior": behavior, "turn": 2}})
    out += [
        {"unit": {"name": "gun" + nation, "behavior": "GERMAN_2VICTANK"}},
        {"unit": {"name": "tank2ger", "nbr_units": 1, "equipment": "wittmann"}},
        {"unit": {"name": "tank" + nation, "equipment": "motorized"}},
        {"unit": {"name": "inf" + nation, "nbr_units": "3"}},
    ]
    return out


def tag_items() -> list[dict[str, Any]]:
    """Medals with every setting, minefields (by side, unowned, decoy), exits, camouflage, tokens."""
    medal_settings = [
        {},
        {"permanent": True},
        {"counts_for": 2, "nbr_hex": 2},
        {"majority": True, "side": "AXIS"},
        {"sole_control": True},
        {"last_to_occupy": True},
        {"turn_start": True},
        {"any_hex": True, "side": "ALLIES", "nbr_hex": 1},
        {"permanent": False, "counts_for": 1},
    ]
    out: list[dict[str, Any]] = []
    for i, settings in enumerate(medal_settings):
        name = f"medal{(0, 1, 2, 4, 6, 7, 5, 0, 1)[i]}"
        out.append(
            {
                "terrain": {"name": "buildings"} if i % 2 else {"name": "woods"},
                "tags": [
                    {"name": name, "medal": settings, "group": ["E5", "f4"] if i % 3 == 0 else []}
                ],
            }
        )
    out += [
        {"tags": [{"name": "tag3", "behavior": "MINE_FIELD", "side": "AXIS", "group": []}]},
        {"tags": [{"name": "tag3", "behavior": "MINE_FIELD", "side": "ALLIES"}]},
        {"tags": [{"name": "tag3", "behavior": "MINE_FIELD"}]},
        {"tags": [{"name": "tag3", "behavior": "DECOY_MEDAL_MINE_FIELD", "side": "AXIS"}]},
        {"tags": [{"name": "tag3", "behavior": "DECOY_MEDAL_MINE_FIELD", "side": "AXIS"}]},
        {"tags": [{"name": "tag3"}]},  # decorative (BGA)
        {
            "tags": [
                {"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES", "group": ["A9", "c9"]}
            ]
        },
        {"tags": [{"name": "tag5", "behavior": "EXIT_MARKER", "side": "AXIS", "group": ["A1"]}]},
        {"tags": [{"name": "tag4"}, {"name": "tag5"}]},  # ignored without behaviour
        {"tags": [{"name": "tag14"}], "unit": {"name": "infger"}},
        {"tags": [{"name": "tag15"}], "unit": {"name": "infus"}},
        {"tags": [{"name": "tag1"}]},
        {
            "tags": [{"name": "tag1", "behavior": "IS_WITTMANN"}],
            "unit": {"name": "tank2ger", "nbr_units": 1},
        },
        {"tags": {"0": {"name": "medal2"}, "1": {"name": "tag2"}}},  # index-keyed map
    ]
    return out


def option_sets() -> dict[str, dict[str, Any]]:
    """game_info.options values (vocabulary 3.3), grouped so that they do not conflict."""
    return {
        "nations": {
            "british_commonwealth": True,
            "russian_commissar_rule": "ALLIES",
            "gung_ho": True,
            "italy_royal_army": True,
            "italy_high_command": True,
            "north_african_desert_rules": True,
        },
        "blitz": {
            "blitz_rules": True,
            "partial_blitz_rules": "AXIS",
            "air_strikes_rules": "ALLIES",
            "hill317": ["G5", "H4"],
        },
        "night": {"night_visibility_rules": True, "night_visibility_team_turn": "AXIS"},
        "nightfall": {"night_visibility_rules": True, "night_visibility_reverse_rule": True},
        "deck": {
            "deck_name": "AIR_POWER_AS_ARTILLERY_BOMBARD_DECK",
            "deck_reshuffling": False,
            "mine_deck_name": "TERRAIN",
        },
        "medals": {
            "empty_section_medals": {"sections": [0], "side": "AXIS", "count_for": 1},
            "infantry_exit_counts_2": True,
            "must_have_unit_exit": {"side": "ALLIES", "min_nbr_units": 1},
        },
        "specials": {
            "smoke_screen": {"side": "ALLIES"},
            "blowbridge_opt2": {"side": "AXIS"},
            "airdrop": {
                "side": "ALLIES",
                "range": 2,
                "nbr_units": 2,
                "center": "G5",
                "unit": {"name": "inf2us"},
                "nbr_drops": 1,
            },
            "supply_train_rules": {"side": "AXIS"},
            "armor_breakthrough_rules": {"side": "ALLIES"},
        },
    }


# ---------------------------------------------------------------------------------------
# Layout and play
# ---------------------------------------------------------------------------------------

_AXIS_UNIT = {"name": "infger"}
_ALLIED_UNIT = {"name": "infus"}


def _unit_side(unit: dict[str, Any]) -> str | None:
    name = unit["name"]
    return "AXIS" if name.endswith(AXIS_NATIONS) else "ALLIES"


def _can_stand(entry: dict[str, Any], cls: str = "inf") -> bool:
    for slot in ("terrain", "rect_terrain", "obstacle"):
        item = entry.get(slot)
        if item:
            spec = lookup(item["name"], item.get("behavior"))
            if cls in spec.impassable or spec.river and "rect_terrain" not in entry:
                return False
    return True


def layout(items: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    """Place ``items`` on successive hexes; Axis units go to the upper half, Allied units to
    the lower half; hexes without a unit get a plain infantry unit on every third hex so that
    both sides have units all over the terrain."""
    board = make_board(kind)
    middle = board.rows // 2
    top = [h for h in board.hexes if h[0] < middle and h[1] <= 24]
    bottom = [h for h in board.hexes if h[0] > middle and h[1] <= 24]
    mid = [h for h in board.hexes if h[0] == middle and h[1] <= 24]
    free = {"AXIS": top, "ALLIES": bottom}
    spare = mid + top[len(top) // 2 :] + bottom[: len(bottom) // 2]
    placed: dict[tuple[int, int], dict[str, Any]] = {}
    for k, item in enumerate(items):
        unit = item.get("unit")
        side = _unit_side(unit) if unit else ("AXIS" if k % 2 else "ALLIES")
        pool = free[side] if free[side] else spare
        if not pool:
            pool = free["ALLIES" if side == "AXIS" else "AXIS"]
        if not pool:
            raise AssertionError("too many items for one board")
        h = pool.pop(0)
        if h in spare:
            spare.remove(h)
        entry = {k2: v for k2, v in item.items()}
        if (
            "unit" not in entry
            and k % 3 == 0
            and _can_stand(entry)
            and not (
                "rect_terrain" in entry
                and entry["rect_terrain"]["name"] in ("pdestroyer", "loco", "wagon")
            )
        ):
            entry["unit"] = dict(_AXIS_UNIT if h[0] < middle else _ALLIED_UNIT)
        placed[h] = entry
    return [{"row": r, "col": c, **e} for (r, c), e in sorted(placed.items())]


def build(
    items: list[dict[str, Any]],
    kind: str,
    face: str,
    *,
    date_begin: str = "1944-06-06",
    options: dict[str, Any] | None = None,
    victory: tuple[int, int] = (4, 4),
    game_info: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return m44_from_text(
        "",
        hexes=layout(items, kind),
        kind=kind,
        face=face,
        date_begin=date_begin,
        options=options,
        victory=victory,
        game_info=game_info,
        name=f"vocabulary-{kind}-{face}",
    )


def play_and_replay(data: dict[str, Any], seed: int) -> None:
    scn = load_scenario(data)  # strict: every code must be known
    st = new_game(scn, seed)
    bot = RandomBot(seed)
    actions = []
    for _ in range(STEP_CAP):
        if st.game_over:
            break
        a = next_action(st, bot)
        actions.append(a)
        st, _ = apply(st, a)
    again = replay(scn, seed, actions)
    assert view_for(again, None) == view_for(st, None)
    assert {i: u.key() for i, u in again.units.items()} == {i: u.key() for i, u in st.units.items()}


def _cases() -> dict[str, dict[str, Any]]:
    combos = [(k, f) for k in BOARDS for f in FACES]  # every board type x face
    cases: dict[str, dict[str, Any]] = {}
    terrain = terrain_items()
    half = (len(terrain) + 1) // 2
    contents: list[tuple[str, list[dict[str, Any]], dict[str, Any]]] = [
        ("terrain-a", terrain[:half], {}),
        ("terrain-b", terrain[half:], {}),
        ("units-axis-allies", unit_items(AXIS_NATIONS) + unit_items(ALLIED_NATIONS[:3]), {}),
        ("units-more-allies", unit_items(AXIS_NATIONS[:1]) + unit_items(ALLIED_NATIONS[3:]), {}),
        ("rect-units", rect_unit_items() + unit_items(("ger", "us")), {}),
        ("badges-late", badge_items(True) + badge_items(False)[:20], {"date_begin": "1944-06-06"}),
        ("badges-early", badge_items(False) + badge_items(True)[:20], {"date_begin": "1941-05-01"}),
        (
            "tags",
            tag_items(),
            {
                "game_info": {
                    "victory": {
                        "condition": [
                            {
                                "group_sudden_death": {
                                    "side": "ALLIES",
                                    "number": 2,
                                    "group": ["G5", "H4", "i5"],
                                }
                            }
                        ]
                    }
                }
            },
        ),
    ]
    for name, values in option_sets().items():
        contents.append(
            (
                f"options-{name}",
                unit_items(("ger", "brit", "it", "us", "jp", "ru"))
                + [
                    {
                        "terrain": {"name": "river"},
                        "rect_terrain": {"name": "bridge", "behavior": "CAN_BE_BLOWN"},
                    },
                    {"terrain": {"name": "rail"}},
                    {"terrain": {"name": "station"}},
                    {"tags": [{"name": "tag4", "behavior": "EXIT_MARKER", "side": "ALLIES"}]},
                ],
                {"options": values},
            )
        )
    for i, (name, items, kw) in enumerate(contents):
        kind, face = combos[i % len(combos)]
        cases[f"{name}-{kind}-{face}"] = build(items, kind, face, **kw)
    for kind, face in combos[len(contents) :] if len(contents) < len(combos) else []:
        cases[f"plain-{kind}-{face}"] = build(terrain[::5] + unit_items(("ger", "us")), kind, face)
    return cases


CASES = _cases()


def test_vocabulary_is_covered():
    """The synthetic scenarios really use every code, behaviour, badge, tag kind and board."""
    seen_tiles: set[str] = set()
    seen_units: set[str] = set()
    seen_boards: set[tuple[str, str]] = set()
    seen_options: set[str] = set()
    for data in CASES.values():
        seen_boards.add((data["board"]["type"], data["board"]["face"]))
        seen_options |= set(data["game_info"].get("options", {}))
        for hx in data["board"]["hexagons"]:
            for slot in ("terrain", "rect_terrain", "obstacle"):
                if slot in hx:
                    t = hx[slot]
                    seen_tiles.add(t["name"] + (f"+{t['behavior']}" if t.get("behavior") else ""))
            if "unit" in hx:
                seen_units.add(hx["unit"]["name"])
    missing = {c for c, s in TERRAIN.items() if s.slot != "engine"} - seen_tiles
    assert not missing
    assert {b for b in BEHAVIORS} <= {t.partition("+")[2] for t in seen_tiles} | {
        "CAN_BE_BLOWN",
        "ONE_MEDAL_IF_BLOWN",
    }
    for prefix, nation in itertools.product(
        ("inf", "inf2", "tank", "tank2", "gun", "veh"), AXIS_NATIONS + ALLIED_NATIONS
    ):
        assert prefix + nation in seen_units
    assert seen_boards == {(k, f) for k in BOARDS for f in FACES}
    # war_of_the_worlds_units: the project's own option (the bundled The Fall Of London)
    assert seen_options >= set(KNOWN_OPTIONS) - {"airdrop2", "war_of_the_worlds_units"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loads_strictly_and_plays(name):
    data = CASES[name]
    for seed in SEEDS:
        play_and_replay(data, seed)
