""" "War Of The Worlds" (004 Appendix 3, Suggested Variants; option ``variant:
WAR_OF_THE_WORLDS``, the Martian side = option ``variant_side``, default AXIS).
Scenario "The Fall Of London, 1940": scenarios/WOTW-FallOfLondon1940.m44.

Engine reading of the text (quoted in tests/engine/test_variants.py):

* "1 Martian Unit replaces every 2 Infantry, Artillery, and Armour Units (rounded
  down). However, every 4th Unit has to be a Martian Handling Machine, the rest are all
  Martian Fighting Machines." and "Martian Units may only be placed on the rear-line of
  hexes": the side's units are removed; Martian ``k`` (k = 1..n) is a Handling Machine
  when k is a multiple of 4; each stands on the free rear-line hex nearest the column of
  every second original unit (column order).  A scenario with option
  ``war_of_the_worlds_units`` (the bundled The Fall Of London) has its units converted
  already: see :func:`_preset` (and no extra cards: its hand sizes are the text's).
* Fighting Machine: armour, 4 models, moves up to 3, range 8 with 4 dice; Handling
  Machine: armour, 3 models, moves up to 3, range 4 with 2 dice.  Both: "Movement and
  Battle are not effected by any Terrain limitations" (no terrain movement restriction,
  may battle after entering any terrain; the target's terrain protection still counts),
  "not effected by ... Grenade Hits"; Fighting Machines ignore every flag, Handling
  Machines the first one only; further flags: a normal retreat, and a Handling Machine
  on its own baseline row retreats off the board and is lost ("A Martian Handling
  Machine must Retreat for additional Purple Flags, even if it means Retreating off the
  Board (in which case it is lost)").  Landmines: a mine is revealed as usual, its roll
  does nothing to a Martian.
  "Martian Units may pass through each others hexes but may not end their Movement in
  the same hex": the move search crosses hexes of other Martians (extension point
  ``pass_through``) without ending there.
* "They receive two extra Command Cards above the Scenario limit"; "All obstacles on
  the Martian side are removed".
* Human Resistance: human Regular Infantry become Special Infantry; the first of every
  three Armour units (unit order) becomes 004 Heavy Armour; human artillery becomes 004
  Heavy Artillery.
* Harvest Time!: a Handling Machine standing on a Towns & Villages hex from the start to
  the end of a Martian turn without moving seizes it (event ``town_seized``; the marker
  goes to the Martians for good).  A Martian battle hit on a unit in a town not yet
  seized turns the hex into City Ruins (a ruined town needs no seizing).  Without
  Handling Machines the towns are ignored.
* Object of the game: the Martians win with 3/4 of the human units (rounded down)
  eliminated and every town seized or ruined; the humans win with half of the Martian
  units (rounded down, at least 1) or every Handling Machine eliminated.
* The Common Cold: from game turn 2, at the start of each Martian turn one die is rolled
  (chance step ``for: common_cold``); a star adds a sickness level: every Martian unit
  loses 1 model, and moves 1 hex less and rolls 1 die less per level.  All Martians dead
  of it: human victory.
"""

from __future__ import annotations

from typing import Any

from .....core.unit_types import typed_spec
from .....core.units import unit_spec
from .....procedures.battle import apply_hits
from .....procedures.medals import check_victory
from .....core.units import UnitSpec
from .....core.geometry import Hex
from .....procedures.hooks import Victory
from .....procedures.state import Battle, GameState, Unit
from .common import (
    add_unit,
    alien,
    baseline,
    data,
    human,
    is_town,
    on,
    put,
    remove_obstacles,
    remove_unit,
    respec,
    ruin,
    first_turn_once,
    section_hexes,
    spec_like,
    towns,
)

NAME = "WAR_OF_THE_WORLDS"
FIGHTING, HANDLING = "martian_fighting_machine", "martian_handling_machine"
MARTIANS = (FIGHTING, HANDLING)
CHANCE = "common_cold"
EXTRA_CARDS = 2
PRESET = "war_of_the_worlds_units"  # scenario option: units already converted


def fighting_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        FIGHTING,
        "Martian Fighting Machine",
        "armor",
        figures=4,
        move=3,
        move_fire=3,
        dice=(4,) * 8,
        take_ground=2,
        move_class="hover",
        ignore_no_battle_terrain=True,
        hit_by=frozenset({"armor"}),
        can_heal=False,
    )


def handling_spec(base: UnitSpec) -> UnitSpec:
    return spec_like(
        base,
        HANDLING,
        "Martian Handling Machine",
        "armor",
        figures=3,
        move=3,
        move_fire=3,
        dice=(2, 2, 2, 2),
        take_ground=2,
        move_class="hover",
        ignore_no_battle_terrain=True,
        hit_by=frozenset({"armor"}),
        can_heal=False,
    )


def is_martian(u: Unit | None) -> bool:
    return u is not None and u.spec.kind in MARTIANS


def _convert_martians(st: GameState, side: str) -> None:
    old = sorted(
        (u for u in st.units.values() if u.side == side), key=lambda u: (u.hex[1], u.hex[0])
    )
    cols = [u.hex[1] for u in old if not u.spec.train][::2]
    n = len([u for u in old if not u.spec.train]) // 2
    template = old[0].spec if old else unit_spec("tank")
    for u in old:
        remove_unit(st, u)
    row = baseline(st, side)
    free = section_hexes(st, row, None)
    for k in range(1, n + 1):
        free = [h for h in free if h not in st.occ]
        if not free:
            break
        col = cols[k - 1] if k - 1 < len(cols) else free[0][1]
        h = min(free, key=lambda x: (abs(x[1] - col), x[1]))
        spec = handling_spec(template) if k % 4 == 0 else fighting_spec(template)
        add_unit(st, side, spec, h, spec.figures)


def _convert_humans(st: GameState, side: str) -> None:
    armour = 0
    for u in sorted((u for u in st.units.values() if u.side == side), key=lambda u: int(u.id[1:])):
        if u.spec.kind == "infantry":
            respec(u, unit_spec("inf2", nation=u.spec.nation))
        elif u.cls == "armor" and not u.spec.train:
            if armour % 3 == 0:
                respec(u, typed_spec(u.spec, "heavy_armour"))
            armour += 1
        elif u.spec.kind == "artillery":
            respec(u, typed_spec(u.spec, "heavy_artillery"))


def _preset(st: GameState, side: str) -> None:
    """Scenario option ``war_of_the_worlds_units`` (The Fall Of London, 1940): the units
    are already the variant's: Martian tanks with a Special Unit Marker (elite armour)
    are Handling Machines, the others Fighting Machines; British tanks are Infantry Tanks
    ("Armour, 3 models. Advances upto 2 hexes, not affected by Grenade Hits. Battle Range
    is 3 hexes with 3, 2, 2 Battle Dice"), elite tanks Medium Armour, guns Heavy
    Artillery, special infantry stays."""
    for u in st.units.values():
        if u.side == side:
            respec(
                u, handling_spec(u.spec) if u.spec.kind == "elite_armor" else fighting_spec(u.spec)
            )
        elif u.spec.kind == "armor":
            respec(u, typed_spec(u.spec, "infantry_tank"))
        elif u.spec.kind == "elite_armor":
            respec(u, typed_spec(u.spec, "medium_armour"))
        elif u.spec.kind == "artillery":
            respec(u, typed_spec(u.spec, "heavy_artillery"))


def setup(st: GameState) -> None:
    if not on(st, NAME):
        return
    side = alien(st)
    preset = bool(st.scn.options.get(PRESET))
    if preset:
        _preset(st, side)
    else:
        _convert_martians(st, side)
        _convert_humans(st, human(st))
    remove_obstacles(st, side)
    martians = [u for u in st.units.values() if u.side == side]
    handlers = sum(1 for u in martians if u.spec.kind == HANDLING)
    put(
        st,
        sick=0,
        seized=(),
        ruined=(),
        start_hex=(),
        handlers=handlers,
        martians=len(martians),
        humans=sum(1 for u in st.units.values() if u.side != side),
        towns=tuple(towns(st)) if handlers else (),
        extra_cards=0 if preset else EXTRA_CARDS,
    )


def turn_begins(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    if not on(st, NAME):
        return
    n = data(st)["extra_cards"]
    if first_turn_once(st, NAME) and n:  # "two extra Command Cards above the Scenario limit"
        st.hooks.give(st, alien(st), st.hooks.draw(st, alien(st), events, n), events)
    if side != alien(st):
        return
    put(
        st,
        start_hex=tuple(
            sorted(
                (u.id, u.hex)
                for u in st.units.values()
                if u.spec.kind == HANDLING and is_town(st, u.hex)
            )
        ),
    )
    if st.turn >= 2:
        st.chance = {"n": 1, "for": CHANCE}
        st.phase = "chance"


def common_cold(st: GameState, faces: list[str], events: list[dict[str, Any]]) -> None:
    """The Common Cold roll: a star makes the Martians sicker."""
    st.phase = "play_card"
    if "star" not in faces:
        return
    sick = data(st)["sick"] + 1
    put(st, sick=sick)
    events.append({"type": "common_cold", "side": alien(st), "level": sick})
    for u in [u for u in st.units.values() if is_martian(u)]:
        apply_hits(st, u, 1, human(st), events)
    if not any(is_martian(u) for u in st.units.values()):
        put(st, cured=True)
    check_victory(st, events)


def turn_ending(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    if not on(st, NAME) or side != alien(st):
        return
    d = data(st)
    seized = list(d["seized"])
    for uid, h in d["start_hex"]:
        u = st.units.get(uid)
        if u is not None and u.hex == h and not u.moved and h not in seized and is_town(st, h):
            seized.append(h)
            events.append({"type": "town_seized", "hex": [*h], "unit": uid, "side": side})
    put(st, seized=tuple(seized), start_hex=())


def hits_flags(
    st: GameState, b: Battle, v: Unit, faces: list[str], hf: tuple[int, int]
) -> tuple[int, int]:
    if not on(st, NAME) or not is_martian(v):
        return hf
    hits, flags = hf
    if getattr(b, "kind", None) == "mine":
        return 0, 0  # "not effected by Landmines" (the mine is revealed)
    if v.spec.kind == FIGHTING:
        return hits, 0
    flags = max(0, flags - 1)
    if flags and v.hex[0] == baseline(st, v.side):
        return v.figures, 0  # "even if it means Retreating off the Board (... lost)"
    return hits, flags


def figures_lost(
    st: GameState, v: Unit, lost: int, by_side: str, events: list[dict[str, Any]]
) -> None:
    """A Martian battle hit on a unit in a town not seized: the town becomes ruins."""
    if not on(st, NAME) or not st.battles or v.side == alien(st):
        return
    atk = st.units.get(st.battles[-1].attacker or "")
    d = data(st)
    if is_martian(atk) and is_town(st, v.hex) and v.hex not in d["seized"]:
        ruin(st, v.hex, events)
        put(st, ruined=d["ruined"] + (v.hex,))


def pass_through(st: GameState, u: Unit) -> frozenset[Hex] | None:
    """004: "Martian Units may pass through each others hexes but may not end their
    Movement in the same hex"."""
    if not on(st, NAME) or not is_martian(u):
        return None
    units = st.units
    return frozenset(
        h
        for h, uid in st.occ.items()
        if uid != u.id and is_martian(units[uid]) and units[uid].side == u.side
    )


def move_allowance(st: GameState, u: Unit, n: int) -> int:
    return max(0, n - data(st)["sick"]) if on(st, NAME) and is_martian(u) else n


def dice_minus(st: GameState, u: Unit) -> int:
    return data(st)["sick"] if on(st, NAME) and is_martian(u) else 0


def victory(st: GameState) -> Victory:
    d = data(st)
    side, hum = alien(st), human(st)
    mart = [u for u in st.units.values() if u.side == side]
    if not mart:
        return hum, ("common_cold" if d.get("cured") else "annihilation")
    if d["martians"] - len(mart) >= max(1, d["martians"] // 2) or (
        d["handlers"] and not any(u.spec.kind == HANDLING for u in mart)
    ):
        return hum, "martians_destroyed"
    humans = sum(1 for u in st.units.values() if u.side == hum)
    towns_done = all(h in d["seized"] or h in d["ruined"] for h in d["towns"])
    if d["humans"] - humans >= max(1, d["humans"] * 3 // 4) and towns_done:
        return side, "harvest"
    if not humans:
        return side, "annihilation"
    return False


def view(st: GameState) -> dict[str, Any]:
    d = data(st)
    return {
        "name": NAME,
        "side": alien(st),
        "sickness": d["sick"],
        "towns": [[*h] for h in d["towns"]],
        "seized": [[*h] for h in d["seized"]],
        "ruined": [[*h] for h in d["ruined"]],
    }


#: the extension points this variant fills (engine/procedures/hooks.py)
HOOKS = {
    "game_setup": setup,
    "turn_begins": turn_begins,
    "turn_ending": turn_ending,
    "hits_flags": hits_flags,
    "figures_lost": figures_lost,
    "move_allowance": move_allowance,
    "dice_minus": dice_minus,
    "pass_through": pass_through,
    "chance_handlers": {CHANCE: common_cold},
}
