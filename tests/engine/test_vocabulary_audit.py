"""Independent audit: the engine's terrain and unit tables against the vocabulary.

The expected values below are transcribed by hand, row by row, from
``shared/reference/m44-vocabulary.md`` (section 1.2 tile behaviours, 1.3 terrain table,
2.1-2.6 units, badges, behaviours, nation rules); where the vocabulary is silent they
come from 004 "Appendix 1 - Special Units" / "Appendix 2 - Tiles From Expansion Sets" /
"Basic Tiles" / "Obstacles" (cited on the entry).  Nothing here is derived from the engine
tables: each test projects an engine row onto the same small vocabulary of facts and
compares.  Deliberate departures of the engine from a vocabulary row (where the printed
rules say otherwise, or the row describes a BGA bug) are listed in :data:`DEPARTURES`
with the text that justifies them, so that a departure is a visible decision, never a
silent difference.

Terrain facts (one dict per code, defaults in :data:`_T0`):

* ``impassable`` classes that may not enter; ``river``: impassable unless bridged;
* ``must_stop`` classes that must stop (classes that cannot enter are left out: a unit
  that may not enter never stops there); ``stop_tg``: "must stop (may still take
  ground)"; ``first_only``: enter only as first hex; ``leave_one``: leaving = 1-hex move;
  ``move_cap``; ``enter_cost`` (steep hill: 2 from a non-hill hex); ``cannot_leave``;
* ``no_battle_entered`` "cannot battle the turn it entered"; ``no_battle_in`` "cannot
  battle" from the hex at all; ``no_battle_leaving``; ``battle_max_moved`` (jungle);
* ``defense`` dice vs I/A/Art attackers and ``def_when`` ("always", "attacker_lower",
  "not_owner", "not_owner_unowned_never", "attacker_not_in_wadi"); ``in_hex`` dice of a
  unit firing out of the hex;
* ``los``: True blocks, False does not, "2+ lakes", "inf attackers"; ``elevation``,
  ``mass`` (hill/mountain contiguous-mass plateau rule);
* ``flags`` 0/1/"all" and ``flag_scope`` ("any", "owner", "inf");
* ``specials``: the remaining named effects of the row.
"""

from __future__ import annotations

import pytest

from engine.core.terrain import ALL_FLAGS, HexTerrain, Tile, combine
from engine.core.terrain_table import BEHAVIORS, TERRAIN, lookup
from engine.core.units import (
    BADGES,
    PERIOD_BADGES,
    PREFIXES,
    UnitSpec,
    may_target,
    nation_side,
    unit_spec,
)
from tests.engine.rulehelp import battle_dice_vs, do, legal, ordered, roll, to_battle, uid, unit

I, A, R = "inf", "armor", "art"
ALL = frozenset({I, A, R})
AR = frozenset({A, R})
NO = frozenset()


# =====================================================================================
# 1. Terrain (vocabulary 1.3)
# =====================================================================================

_T0: dict = dict(
    impassable=NO,
    river=False,
    must_stop=NO,
    stop_tg=False,
    first_only=False,
    leave_one=NO,
    move_cap=None,
    enter_cost=1,
    cannot_leave=NO,
    no_battle_entered=NO,
    no_battle_in=NO,
    no_battle_leaving=NO,
    battle_max_moved=None,
    defense=(0, 0, 0),
    def_when="always",
    in_hex=(0, 0, 0),
    los=False,
    elevation=0,
    mass=None,
    flags=0,
    flag_scope="any",
    specials=frozenset(),
)


def _fact_row(defaults: dict, cite: str, base: dict | None, specials: tuple, facts: dict) -> dict:
    """One vocabulary row: ``base`` (an earlier row it says "as ...") + its own facts."""
    out = {**(base or defaults), **facts, "cite": cite}
    out["specials"] = frozenset(out["specials"]) | frozenset(specials)
    return out


def T(cite: str, base: dict | None = None, specials: tuple = (), **facts) -> dict:
    return _fact_row(_T0, cite, base, specials, facts)


FOREST = T(
    "1.3 woods, wforest | Forest (3) | must stop | def vs I/A/Art -1/-2/0; cannot "
    "battle the turn it moved in | blocks",
    must_stop=ALL,
    defense=(-1, -2, 0),
    no_battle_entered=ALL,
    los=True,
)
VILLAGE = T(
    "1.3 buildings, bled, wvillage, pvillage | Town & Village (14) | must stop | "
    "def -1/-2/0; in-hex Armor -2; cannot battle the turn it entered | blocks",
    FOREST,
    in_hex=(0, -2, 0),
)
HILL = T(
    "1.3 hills, whill, dhill | Hill (6) | no restriction; elevation 1 | def vs I/A -1 "
    "only if the attacker stands lower; Art attackers 0 | blocks unless ... one "
    "contiguous hill mass",
    defense=(-1, -1, 0),
    def_when="attacker_lower",
    los=True,
    elevation=1,
    mass="hill",
)
BLUFF = T(
    "1.3 hills+BLUFF | Sea Bluff (11) | from/to a beach hex: I costs 2, A/Art "
    "impossible (also when retreating); inland side normal | as Hill | as Hill",
    HILL,
    specials=("beach edge: inf cost 2", "beach edge: armor/art impossible"),
)
MOUNTAIN = T(
    "1.3 mountain | Mountain (30) | impassable A, Art; Art inside cannot leave; "
    "infantry may enter only from a hill/mountain hex and leave only to one; "
    "elevation 2 | def vs I/A -2 unless the attacker is on a mountain; Art "
    "attackers 0; Art on a mountain fires 3,3,2,2,1,1,1 | blocks unless ... one "
    "mountain mass",
    # "unless the attacker is on a mountain" == "attacker lower": only mountains
    # (and mountain caves) have elevation 2.
    impassable=AR,
    cannot_leave=frozenset({R}),
    elevation=2,
    mass="mountain",
    defense=(-2, -2, 0),
    def_when="attacker_lower",
    los=True,
    specials=(
        "enter only from hill/mountain",
        "leave only to hill/mountain",
        "art dice 3,3,2,2,1,1,1",
    ),
)
CAVE = ("cave moves", "vs Japanese infantry inside: -2/-2/0", "Japanese ignore all flags")
RIVER = T(
    "1.3 river, riverFL, riverFR, riverY, curve, pond, pmouth | River (8) | "
    "impassable unless a bridge tile is on the hex or the unit carries a boat | ... "
    "| WIDE_RIVER: blocks for infantry-type attackers only; else no",
    river=True,
)
BRIDGE = T(
    "1.3 bridge, pbridge, wbridge | Bridge (9) | makes the river hex passable | - | no",
    specials=("bridge",),
)
ROAD = ("road",)
RAIL = T(
    "1.3 rail, railcurve, railFL, railFR, railX, wrail, wrailcurve | Railroad (38) | "
    "A/Art must stop (may still take ground/overrun) | - | no",
    must_stop=AR,
    stop_tg=True,
    specials=("rail",),
)
ROADBLOCK = T(
    "1.3 roadblock, droadblock | Road Block (40) | must stop; impassable A, Art | "
    "def -1/-1/0 | no | ignore 1 flag; a Combat Engineer in it may remove it",
    must_stop=ALL,
    impassable=AR,
    defense=(-1, -1, 0),
    flags=1,
    specials=("engineer may remove",),
)
SANDBAG = T(
    "1.3 sand | Sandbags (10) | - | def -1/-1/0 | no | ignore 1 flag; removed when "
    "the unit leaves or is eliminated",
    defense=(-1, -1, 0),
    flags=1,
    specials=("removed when vacated",),
)
TRENCH = T(
    "1.3 wtrenches, ptrenches | Trenches (51) | must stop; impassable Art | Armor "
    "inside cannot battle; def -1/-1/0 | no | Infantry ignore 1 flag",
    must_stop=ALL,
    impassable=frozenset({R}),
    no_battle_in=frozenset({A}),
    defense=(-1, -1, 0),
    flags=1,
    flag_scope="inf",
)
MARSH = T(
    "1.3 marshes, wmarshes | Marsh (28) | must stop; leaving = 1-hex move; impassable "
    "Art | Armor cannot battle the turn it enters or leaves; Armor taking ground into "
    "it may not overrun | no",
    must_stop=ALL,
    leave_one=ALL,
    impassable=frozenset({R}),
    no_battle_entered=frozenset({A}),
    no_battle_leaving=frozenset({A}),
    specials=("no overrun into it",),
)
BEACH = T(
    "1.3 pbeach, beach | Beach (1) | a move whose path enters or crosses beach hexes "
    "is capped at 2 hexes",
    move_cap=2,
    specials=("beach",),
)
WADI = T(
    "1.3 wadi, wcurve | Wadi / Gully (44) | side edges impassable both ways; enter/leave "
    "only by the two open ends | def -1/-1/-1 unless the attacker is itself in a wadi; "
    "a shot between a wadi hex and a non-wadi hex needs range 1 | no",
    defense=(-1, -1, -1),
    def_when="attacker_not_in_wadi",
    specials=("wadi: range 1 across its edge", "enter/leave by open ends only"),
)
FORTRESS = T(
    "1.3 fortress | Fortress (24) | impassable A, Art | def -1/-2/0 | blocks | may "
    "ignore ALL flags; vocabulary silent, 004 Appendix 2 'Bunkers, Fortress': "
    "'Artillery Units that start the game on a Fortress hex may not Move from the "
    "hex' and 'Units in Fortress hexes are Hit by Artillery Units rolling a Green "
    "Star only'",
    impassable=AR,
    cannot_leave=frozenset({R}),
    defense=(-1, -2, 0),
    los=True,
    flags="all",
    specials=("artillery hits on stars only",),
)
FIELD_BUNKER = T(
    "1.3 casemate, wbunker, dbunker, pbunker | Field Bunker (22) | as Bunker "
    "(impassable A, Art; A/Art already inside can never leave) | def -1/-2/0 "
    "for any occupant | blocks | ignore 1 flag, any occupant",
    impassable=AR,
    cannot_leave=AR,
    defense=(-1, -2, 0),
    los=True,
    flags=1,
)

VOCAB_TERRAIN: dict[str, dict] = {
    **{c: FOREST for c in ("woods", "wforest")},
    "palmtrees": T("1.3 palmtrees | Palm Forest (32) | as Forest | as Forest | blocks", FOREST),
    "whillforest": T(
        "1.3 whillforest | Hill with Forest (48) | as Forest | as Forest; "
        "elevation 1 (but not a 'hill' for hill-mass LOS or mountain access)",
        FOREST,
        elevation=1,
    ),
    "pjungle": T(
        "1.3 pjungle | Jungle (57) | must stop (may still take ground/overrun into "
        "it) | def -1/-2/0; a unit in jungle may battle only if it moved at most 1 "
        "hex this turn; Armor that has moved cannot take ground into jungle | blocks",
        must_stop=ALL,
        stop_tg=True,
        defense=(-1, -2, 0),
        battle_max_moved=1,
        los=True,
        specials=("armor that moved cannot take ground into it",),
    ),
    "hedgerow": T(
        "1.3 hedgerow | Hedgerow (4) | may only be entered as the first hex of a "
        "move; must stop; leaving = a 1-hex move | def -1/-2/0; cannot battle the "
        "turn it entered | blocks",
        FOREST,
        first_only=True,
        leave_one=ALL,
    ),
    **{c: VILLAGE for c in ("buildings", "bled", "wvillage", "pvillage")},
    "church": T(
        "1.3 church | Church (19) | as Village | as Village | blocks | ignore 1 flag",
        VILLAGE,
        flags=1,
    ),
    **{
        c: T(f"1.3 {c} | as Village | as Village | blocks", VILLAGE)
        for c in ("barracks", "factory", "wfactory", "lighthouse", "powerplant")
    },
    "whillvillage": T(
        "1.3 whillvillage | Hill with Village (49) | as Village | as Village; elevation 1 | blocks",
        VILLAGE,
        elevation=1,
    ),
    "station": T(
        "1.3 station | Railroad Station (39) | as Village; counts as rail | as "
        "Village | blocks | supply-train option",
        VILLAGE,
        specials=("rail", "station"),
    ),
    "wruins": T(
        "1.3 wruins | City Ruins (45) | must stop; impassable A, Art | def -1/-2/0; "
        "cannot battle the turn it entered | blocks | ignore 1 flag",
        must_stop=ALL,
        impassable=AR,
        defense=(-1, -2, 0),
        no_battle_entered=ALL,
        los=True,
        flags=1,
    ),
    "camp": T(
        "1.3 camp | Prison Camp (35) | must stop | def -1/-2/0; in-hex Armor -2; "
        "cannot battle the turn it entered | blocks | ignore 1 flag",
        VILLAGE,
        flags=1,
    ),
    "radar": T(
        "1.3 radar | Radar Station (36) | must stop (may still battle) | def -1/-2/0; "
        "in-hex Armor -2 | blocks | ignore 1 flag",
        VILLAGE,
        no_battle_entered=NO,
        flags=1,
    ),
    "fortress": FORTRESS,
    "bunker": T(
        "1.3 bunker | Bunker (2) | impassable A, Art; A/Art already inside can never "
        "leave (nor retreat) | def -1/-2/0, applied only when the attacker is NOT of "
        "the original_owner side | blocks | ignore 1 flag (owner side only)",
        FIELD_BUNKER,
        def_when="not_owner",
        flag_scope="owner",
    ),
    **{c: FIELD_BUNKER for c in ("casemate", "wbunker", "dbunker", "pbunker")},
    **{c: HILL for c in ("hills", "whill", "dhill")},
    "hills+STEEP_HILL": T(
        "1.3 hills+STEEP_HILL | Steep Hill (13) | entering from a "
        "non-hill hex costs 2 move points | as Hill | as Hill",
        HILL,
        enter_cost=2,
        specials=("enter cost only from a non-hill hex",),
    ),
    "hills+BLUFF": BLUFF,
    **{
        c: T(
            "1.3 hills/whill+CLIFF | Cliff (11) | as Sea Bluff | as Hill; infantry may not "
            "take ground from a beach onto it | as Hill",
            BLUFF,
            specials=("infantry may not take ground up from a beach",),
        )
        for c in ("hills+CLIFF", "whill+CLIFF")
    },
    "dridge": T(
        "1.3 dridge | Erg / Ridge (64) | as Hill + must stop | as Hill | as Hill",
        HILL,
        must_stop=ALL,
    ),
    "hillroad": T(
        "1.3 hillroad | Road over Hill (42b) | as Hill + road",
        HILL,
        specials=ROAD + ("shape straight",),
    ),
    "hillcurve": T(
        "1.3 hillcurve | Road over Hill (42b) | as Hill + road",
        HILL,
        specials=ROAD + ("shape curve",),
    ),
    "pcave": T(
        "1.3 pcave | Cave on Hill (52) | as Hill; impassable A, Art; Japanese "
        "infantry ... may jump to any other cave hex | vs Japanese infantry inside: "
        "def -2 for I/A attackers, 0 for Art; otherwise as Hill | as Hill | Japanese "
        "must ignore ALL flags",
        HILL,
        impassable=AR,
        specials=CAVE,
    ),
    "mountain": MOUNTAIN,
    "pmcave": T(
        "1.3 pmcave | Cave on Mountain (53) | as Mountain + cave moves | as Cave on "
        "Hill but mountain base | as Mountain | as Cave on Hill",
        MOUNTAIN,
        specials=CAVE,
    ),
    "descarpment": T(
        "1.3 descarpment | Escarpment (63) | impassable to all | - | blocks",
        impassable=ALL,
        los=True,
    ),
    **{
        c: T(
            "1.3 lakeA, lakeB, lakeC | Lake (26) | impassable to all | - | blocks only when "
            "the line crosses 2+ lake hexes",
            impassable=ALL,
            los="2+ lakes",
        )
        for c in ("lakeA", "lakeB", "lakeC")
    },
    **{c: RIVER for c in ("river", "riverFL", "riverFR", "riverY", "curve", "pond", "pmouth")},
    **{
        f"{c}+WIDE_RIVER": T(
            "1.2 WIDE_RIVER: River that also blocks line of sight for infantry-type attackers",
            RIVER,
            los="inf attackers",
        )
        for c in ("river", "riverFL", "riverFR", "riverY", "curve", "pond", "pmouth")
    },
    **{
        f"{c}+FORDABLE_STREAM": T(
            "1.3 river codes + FORDABLE_STREAM | Fordable Stream (61) | "
            "must stop, but may still take ground/overrun through | - | no",
            must_stop=ALL,
            stop_tg=True,
        )
        for c in ("river", "riverFL", "riverFR", "riverY", "curve", "pond", "pmouth")
    },
    "ford": T(
        "1.3 ford | Ford / Fordable River (41) | must stop; counts as a bridge for the "
        "river on the hex | in-hex I/A/Art all -1 | no | no sandbag (Dig In) allowed",
        must_stop=ALL,
        in_hex=(-1, -1, -1),
        specials=("bridge", "no sandbag"),
    ),
    **{
        c: T(
            "1.3 wriver, wriverFR, wcurved | Frozen River (47) | passable | entering ... rolls "
            "2 dice: each star = 1 hit; no roll if a bridge is on the hex | no",
            specials=("entry roll 2 dice",),
        )
        for c in ("wriver", "wriverFR", "wcurved")
    },
    **{c: BRIDGE for c in ("bridge", "pbridge", "wbridge")},
    "bridge+BRIDGE_SECTION": T(
        "1.3 bridge+BRIDGE_SECTION | Bridge Section (9b) | side edges "
        "blocked: enter/leave only through its end hexes",
        BRIDGE,
        specials=("enter/leave by open ends only", "shape straight"),
    ),
    "pontoon": T("1.3 pontoon | Pontoon Bridge (33) | as Bridge | - | no", BRIDGE),
    **{
        c: T(
            "1.3 railbridge, wrailbridge | Railroad Bridge (37) | as Bridge; A/Art must stop; "
            "counts as rail | - | no",
            BRIDGE,
            must_stop=AR,
            specials=("rail",),
        )
        for c in ("railbridge", "wrailbridge")
    },
    "brkbridge": T(
        "1.3 brkbridge | Broken Bridge (9c) | no bridge effect (river stays impassable) | - | no"
    ),
    **{
        c: T(
            "1.3 road codes | Road (42) | a unit that starts on a road and moves only along "
            "connected road hexes gets +1 move | - | no | tile shape fixes which neighbours "
            f"are connected ({shape})",
            specials=ROAD + (f"shape {shape}",),
        )
        for c, shape in (
            ("road", "straight"),
            ("roadcurve", "curve"),
            ("roadFL", "fork"),
            ("roadFR", "fork"),
            ("roadX", "X"),
            ("roadY", "Y"),
            ("droad", "straight"),
            ("droadX", "X"),
            ("droadcurve", "curve"),
            ("droadFL", "fork"),
            ("droadFR", "fork"),
            ("wroad", "straight"),
            ("wroadcurve", "curve"),
            ("wroadFL", "fork"),
            ("wroadFR", "fork"),
            ("wroadX", "X"),
            ("wroadY", "Y"),
        )
    },
    **{
        c: T(RAIL["cite"], RAIL, specials=(f"shape {shape}",))
        for c, shape in (
            ("rail", "straight"),
            ("railcurve", "curve"),
            ("railFL", "fork"),
            ("railFR", "fork"),
            ("railX", "X"),
            ("wrail", "straight"),
            ("wrailcurve", "curve"),
        )
    },
    "roadblock": ROADBLOCK,
    "droadblock": ROADBLOCK,
    "hedgehog": T(
        "1.3 hedgehog | obstacle | Hedgehog (5) | impassable A, Art | - | no | ignore 1 flag",
        impassable=AR,
        flags=1,
    ),
    "dragonteeth": T(
        "1.3 dragonteeth | Dragon's Teeth (46) | must stop; impassable A, Art",
        must_stop=ALL,
        impassable=AR,
    ),
    "wire": T(
        "1.3 wire | obstacle | Wire (15) | must stop; Armor entering (not retreating) "
        "removes it and must stop | in-hex Infantry -1; Armor battling out of it "
        "removes it | no | Infantry in it may remove it instead of battling",
        must_stop=ALL,
        in_hex=(-1, 0, 0),
        specials=("armor removes it", "infantry may remove it"),
    ),
    "sand": SANDBAG,
    "sand+SEAWALL": T(
        "1.3 sand+SEAWALL | Sea Wall (12) | - | def -1/-1/0, applied only when "
        "the attacker is NOT of the original_owner side (no owner: never) | no "
        "| ignore 1 flag (owner side or unowned)",
        defense=(-1, -1, 0),
        def_when="not_owner_unowned_never",
        flags=1,
        flag_scope="owner",
    ),
    **{c: TRENCH for c in ("wtrenches", "ptrenches")},
    "wravine": T(
        "1.3 wravine | Ravine (50) | impassable A, Art | - | no | ignore 1 flag",
        impassable=AR,
        flags=1,
    ),
    **{c: MARSH for c in ("marshes", "wmarshes")},
    "price": T("1.3 price | Rice Paddies (60) | as Marsh | as Marsh | no", MARSH),
    "oasis": T(
        "1.3 oasis | Oasis (31) | must stop (may still battle) | def -1/-1/0 | blocks | "
        "ignore 1 flag; a wounded infantry unit ... may heal: roll (hand size + 1) dice",
        must_stop=ALL,
        defense=(-1, -1, 0),
        los=True,
        flags=1,
        specials=("heal: hand size + 1 dice",),
    ),
    "phospital": T(
        "1.3 phospital | Hospital (55) | - | - | blocks | same heal action but with 6 dice",
        los=True,
        specials=("heal: 6 dice",),
    ),
    **{
        c: T(
            "1.3 dcamp, pheadquarter | HQ & Supply Tents (56) | - | - | blocks | first time "
            "the enemy of original_owner enters ...",
            los=True,
            specials=("HQ tent",),
        )
        for c in ("dcamp", "pheadquarter")
    },
    "cemetery": T("1.3 cemetery | Cemetery (18) | - | - | no | ignore 1 flag", flags=1),
    "dam": T(
        "1.3 dam | Dam (20) | BGA: meant to be impassable to A/Art but the flag is "
        "misspelled, so nothing blocks | - | blocks | ignore 1 flag",
        los=True,
        flags=1,
    ),
    "depot": T("1.3 depot | Supply Depot (43) | - | - | blocks", los=True),
    **{
        c: T("1.3 airfield codes | Airfield (16) | - | - | no | no rule effect")
        for c in (
            "airfield",
            "airfieldX",
            "dairfield",
            "dairfieldX",
            "pairfield",
            "pairfieldX",
            "wairfield",
        )
    },
    "highground": T("1.3 highground | High Ground (25) | - | - | no | no rule effect"),
    **{c: BEACH for c in ("pbeach", "beach")},
    **{
        c: T("1.3 coast, coastcurve | Coastline (68) | as Beach", BEACH)
        for c in ("coast", "coastcurve")
    },
    "wadi": T(WADI["cite"], WADI, specials=("shape straight",)),
    "wcurve": T(WADI["cite"], WADI, specials=("shape curve",)),
    "ppier": T(
        "1.3 ppier | Pier (59) | BGA: rule 'enter only from land/beach' is described "
        "but not enforced | - | no"
    ),
    # terrains with no .m44 code (created by the engine), 1.3 second table
    "ocean": T(
        "1.3 Ocean (7) | ground units must stop on entering; nobody may battle from "
        "it; never a legal retreat hex; no sandbag.  Vocabulary silent on leaving: "
        "004 'Oceans': 'Any Unit on an Ocean hex may Move a maximum of 1 hex'",
        must_stop=ALL,
        leave_one=ALL,
        no_battle_in=ALL,
        specials=("ocean", "never a retreat hex", "no sandbag"),
    ),
    "sandbag": T("1.3 Sandbag | Dig In card | as sand", SANDBAG),
    "smoke": T(
        "1.3 Smoke Screen (68) | option smoke_screen | blocks LOS, no movement effect", los=True
    ),
}

#: Codes the engine knows beyond the vocabulary's terrain table (vocabulary 1.4 lists
#: barge/pcarrier as "seen in scenario files but not handled"; the others are older
#: editor names).  They are checked by the other tests, not against a vocabulary row.
ENGINE_EXTRA_CODES = {"railroad", "ravine", "abatis", "barge", "pcarrier"}

#: Deliberate departures of the engine from a vocabulary row: code -> {fact: (engine
#: value, the text that justifies it)}.
DEPARTURES: dict[str, dict[str, tuple]] = {
    "radar": {
        "defense": (
            (-1, -1, 0),
            "004 App.2 'Towns & Villages, Radar Station': 'When "
            "Battling an enemy Unit that is on a Radar Station hex, Infantry and "
            "Armour reduce the number of Battle Dice rolled by 1'",
        )
    },
    "dam": {
        "impassable": (
            AR,
            "004 App.2 'Dams': 'Impassable to Armour and Artillery'; the "
            "vocabulary row itself says BGA means this but misspells it",
        )
    },
    "wruins": {
        "flag_scope": (
            "inf",
            "004 App.2 'City Ruins': 'An Infantry Unit on a City "
            "Ruins hex may ignore the first Purple Flag'",
        )
    },
    "wravine": {
        "flag_scope": (
            "inf",
            "004 App.2 'Ravine': 'An Infantry Unit on a Ravine hex "
            "may ignore the first Purple Flag'",
        )
    },
    **{
        c: {
            "def_defenders": (
                frozenset({I}),
                "004 App.2 'Roads, Road-Blocks': 'reduces ... "
                "when an occupying Infantry Unit is attacked'",
            )
        }
        for c in ("roadblock", "droadblock")
    },
    "railX": {
        "specials": (
            VOCAB_TERRAIN["railX"]["specials"] | {"road"},
            "004 App.2 'Road Crossing A Railway': 'may Move 1 additional hex "
            "along the Road Crossing A Railway'",
        )
    },
}


def _shape(links: tuple[int, ...]) -> str | None:
    """Name of a road/rail/wadi tile shape from its connected sides (60-degree steps)."""
    if not links:
        return None
    diffs = sorted({(b - a) % 6 for a in links for b in links if a != b})
    if len(links) == 2:
        return "straight" if diffs == [3] else "curve" if diffs == [2, 4] else "sharp"
    if len(links) == 3:
        return "Y" if diffs == [2, 4] else "fork" if 3 in diffs else "other"
    return "X" if len(links) == 4 and 3 in diffs else "other"


def _joined(values, sep: str) -> str:
    return sep.join(map(str, values))


#: Engine fields with a value -> the vocabulary's words for them ('' = not present).
_TERRAIN_LABELS = (
    lambda s: "never a retreat hex" * bool(s.retreat_impassable),
    lambda s: "armor that moved cannot take ground into it" * (s.no_take_ground_after_move == {A}),
    lambda s: f"beach edge: inf cost {s.beach_edge_cost}" * bool(s.beach_edge_cost),
    lambda s: "beach edge: armor/art impossible" * (s.beach_edge_impassable == AR),
    lambda s: "infantry may not take ground up from a beach" * (s.no_take_ground_from_beach == {I}),
    lambda s: (
        "enter cost only from a non-hill hex" * (s.enter_cost > 1 and s.enter_cost_from_non_hill)
    ),
    lambda s: "enter only from hill/mountain" * bool(s.enter_from_min_elevation),
    lambda s: "leave only to hill/mountain" * bool(s.leave_to_min_elevation),
    lambda s: s.art_dice and "art dice " + _joined(s.art_dice, ","),
    lambda s: s.cave_defense and "vs Japanese infantry inside: " + _joined(s.cave_defense, "/"),
    lambda s: f"entry roll {s.entry_hazard_dice} dice" * bool(s.entry_hazard_dice),
    lambda s: {0: "", -1: "heal: hand size + 1 dice"}.get(s.heal_dice, f"heal: {s.heal_dice} dice"),
    lambda s: s.links and f"shape {_shape(s.links)}",
)


def engine_facts(code: str) -> dict:
    """Project the engine row of ``code`` onto the vocabulary's facts."""
    s = lookup(*code.split("+")) if "+" in code else TERRAIN[code]
    if s.ignore_flags_owner_only:
        scope = "owner"
    elif s.ignore_flags_classes != ALL:
        scope = "inf" if s.ignore_flags_classes == {I} else str(sorted(s.ignore_flags_classes))
    else:
        scope = "any"
    if s.defense_if_attacker_lower:
        when = "attacker_lower"
    elif s.defense_owner_only:
        when = "not_owner_unowned_never" if s.defense_needs_owner else "not_owner"
    elif s.wadi:
        when = "attacker_not_in_wadi"
    else:
        when = "always"
    los: object = bool(s.blocks_los)
    if s.lake:
        los = "2+ lakes"
    elif s.blocks_los_for == {I} and not s.blocks_los:
        los = "inf attackers"
    sp: set[str] = set()
    named = {
        "road": "road",
        "rail": "rail",
        "bridge": "bridge",
        "beach": "beach",
        "station": "station",
        "ocean": "ocean",
        "no_sandbag": "no sandbag",
        "removed_when_vacated": "removed when vacated",
        "engineer_removable": "engineer may remove",
        "armor_removes": "armor removes it",
        "infantry_may_remove": "infantry may remove it",
        "hq_tent": "HQ tent",
        "no_overrun": "no overrun into it",
        "cave": "cave moves",
        "must_ignore_all_flags_jp": "Japanese ignore all flags",
        "art_hits_on_star_only": "artillery hits on stars only",
        "edges_restricted": "enter/leave by open ends only",
        "wadi": "wadi: range 1 across its edge",
    }
    sp |= {label for f, label in named.items() if getattr(s, f)}
    sp |= {label(s) for label in _TERRAIN_LABELS if label(s)}
    out = dict(
        impassable=s.impassable,
        river=s.river,
        must_stop=s.must_stop - s.impassable,
        stop_tg=s.stop_allows_take_ground,
        first_only=s.only_first_step,
        leave_one=s.leave_one_hex,
        move_cap=s.move_cap,
        enter_cost=s.enter_cost,
        cannot_leave=s.cannot_leave,
        no_battle_entered=s.no_battle_after_entering - s.impassable,
        no_battle_in=s.no_battle_in,
        no_battle_leaving=s.no_battle_after_leaving,
        battle_max_moved=s.battle_max_moved,
        defense=s.defense,
        def_when=when if any(s.defense) else "always",
        in_hex=s.firing_from,
        los=los,
        elevation=s.elevation,
        mass=s.mass,
        flags="all" if s.ignore_flags >= ALL_FLAGS else s.ignore_flags,
        flag_scope=scope if s.ignore_flags else "any",
        specials=frozenset(sp),
    )
    if s.defense_defender_classes != ALL:
        out["def_defenders"] = s.defense_defender_classes
    return out


def expected_facts(code: str) -> dict:
    exp = {k: v for k, v in VOCAB_TERRAIN[code].items() if k != "cite"}
    exp["must_stop"] = exp["must_stop"] - exp["impassable"]
    exp["no_battle_entered"] = exp["no_battle_entered"] - exp["impassable"]
    for fact, (value, _why) in DEPARTURES.get(code, {}).items():
        exp[fact] = value
    return exp


def test_every_vocabulary_terrain_code_has_an_engine_row_and_no_row_is_unexplained():
    engine_codes = set(TERRAIN)
    assert set(VOCAB_TERRAIN) - engine_codes == set()
    assert engine_codes - set(VOCAB_TERRAIN) == ENGINE_EXTRA_CODES
    assert set(DEPARTURES) <= set(VOCAB_TERRAIN)


@pytest.mark.parametrize("code", sorted(VOCAB_TERRAIN))
def test_terrain_row_matches_vocabulary(code):
    got = engine_facts(code)
    exp = expected_facts(code)
    diff = {k: (got.get(k), exp.get(k)) for k in set(got) | set(exp) if got.get(k) != exp.get(k)}
    assert not diff, f"{code} (vocabulary {VOCAB_TERRAIN[code]['cite']}): engine vs vocab {diff}"


def test_every_departure_really_differs_from_the_vocabulary():
    """A departure entry that no longer differs is stale: remove it."""
    for code, facts in DEPARTURES.items():
        raw = dict(VOCAB_TERRAIN[code])
        for fact, (value, _why) in facts.items():
            assert (
                raw.get(
                    fact, _T0.get(fact, frozenset({I, A, R}) if fact == "def_defenders" else None)
                )
                != value
            ), (code, fact)


# --- vocabulary 1.2: behaviour values on terrain tiles ----------------------------------
def test_tile_behaviours_of_vocabulary_1_2():
    # IMPASSABLE_HILL: "tile keeps its class but becomes impassable to all units"
    for name in ("hills", "mountain", "woods", "buildings"):
        s = lookup(name, "IMPASSABLE_HILL")
        assert s.impassable == ALL and s.family == TERRAIN[name].family
    # IMPASSABLE_BLOCKING_HILL: impassable to all + blocks LOS + blocks line of attack
    s = lookup("mountain", "IMPASSABLE_BLOCKING_HILL")
    assert s.impassable == ALL and s.blocks_los and s.blocks_all_fire
    # HILL / MOUNTAIN / HEADQUARTER / OASIS_RECOVERY: no rule change
    for name, beh in (
        ("hills", "HILL"),
        ("mountain", "MOUNTAIN"),
        ("buildings", "HEADQUARTER"),
        ("oasis", "OASIS_RECOVERY"),
        ("dcamp", "OASIS_RECOVERY"),
    ):
        assert lookup(name, beh) == TERRAIN[name]
    # FORD on any tile (seen on river/curve): Ford class
    for name in ("river", "curve"):
        s = lookup(name, "FORD")
        assert (
            s.family == "ford" and s.bridge and ALL <= s.must_stop and s.firing_from == (-1, -1, -1)
        )
    # CAN_BE_BLOWN on bridges; ONE_MEDAL_IF_BLOWN (behavior2): 1 medal
    assert lookup("bridge", "CAN_BE_BLOWN").can_be_blown
    assert lookup("wbridge", "CAN_BE_BLOWN").can_be_blown
    assert lookup("bridge", "ONE_MEDAL_IF_BLOWN").medal_if_blown == 1
    assert set(BEHAVIORS) >= {
        "HILL",
        "MOUNTAIN",
        "IMPASSABLE_HILL",
        "IMPASSABLE_BLOCKING_HILL",
        "CAN_BE_BLOWN",
        "ONE_MEDAL_IF_BLOWN",
        "OASIS_RECOVERY",
        "HEADQUARTER",
    }


# --- owner-dependent rows, read through HexTerrain (1.3 bunker, sand+SEAWALL) ------------
def _hex(code: str, owner: str | None) -> HexTerrain:
    return combine((Tile(lookup(*code.split("+")) if "+" in code else TERRAIN[code], owner=owner),))


@pytest.mark.parametrize(
    "code,owner,attacker,defense,flags_for_owner,flags_for_other",
    [
        # bunker: def only vs attackers not of original_owner; flag only for the owner side
        ("bunker", "AXIS", "ALLIES", -2, 1, 0),
        ("bunker", "AXIS", "AXIS", 0, 1, 0),
        # field bunker: any occupant
        ("casemate", "AXIS", "AXIS", -2, 1, 1),
        # sea wall: as bunker with -1; no owner: protects nobody, flag for anybody
        ("sand+SEAWALL", "AXIS", "ALLIES", -1, 1, 0),
        ("sand+SEAWALL", "AXIS", "AXIS", 0, 1, 0),
        ("sand+SEAWALL", None, "ALLIES", 0, 1, 1),
    ],
)
def test_owner_dependent_defence_and_flags(
    code, owner, attacker, defense, flags_for_owner, flags_for_other
):
    t = _hex(code, owner)
    assert t.defense_against("armor", attacker, 0, defender_class="inf") == defense
    assert t.flags_ignorable("inf", owner or "AXIS") == flags_for_owner
    assert t.flags_ignorable("inf", "ALLIES" if owner == "AXIS" else "AXIS") == flags_for_other


def test_cave_defence_only_for_japanese_infantry():
    """1.3 pcave: 'vs Japanese infantry inside: def -2 for I/A attackers, 0 for Art;
    otherwise as Hill'."""
    t = _hex("pcave", None)
    for cls, want in (("inf", -2), ("armor", -2), ("art", 0)):
        assert (
            t.defense_against(cls, "ALLIES", 0, defender_class="inf", defender_nation="jp") == want
        )
    assert t.defense_against("inf", "ALLIES", 0, defender_class="inf", defender_nation="ger") == -1
    assert t.defense_against("inf", "ALLIES", 1, defender_class="inf", defender_nation="ger") == 0
    assert t.flags_ignorable("inf", "AXIS", unit_nation="jp") == ALL_FLAGS
    assert t.flags_ignorable("inf", "AXIS", unit_nation="ger") == 0


# =====================================================================================
# 2. Units (vocabulary 2.1-2.6)
# =====================================================================================

_U0: dict = dict(
    cls=None,
    figures=None,
    move=None,
    move_fire=None,
    or_fire=False,
    dice=None,
    los=True,
    tg=None,
    retreat=(1, 1),
    medal=1,
    flags=0,
    heal=True,
    terrain_defense="applies",
    ignore_no_battle_terrain=False,
    star_hits=NO,
    star_only_if_not_moved=False,
    hit_by=None,
    cannot_target=NO,
    specials=frozenset(),
)


def U(cite: str, base: dict | None = None, specials: tuple = (), **facts) -> dict:
    return _fact_row(_U0, cite, base, specials, facts)


INFANTRY = U(
    "2.2 Infantry | 4 | 2 | 1 | 3,2,1 | yes | 1 | 1",
    cls=I,
    figures=4,
    move=2,
    move_fire=1,
    dice=(3, 2, 1),
    tg=1,
)
SPECIAL_FORCES = U(
    "2.2 Special Forces (inf2) | 4 | 2 | 2 | 3,2,1 | yes | 1 | 1", INFANTRY, move_fire=2
)
ARMOR = U(
    "2.2 Armor | 3 | 3 | 3 | 3,3,3 | yes | 2 | 1 | armor overrun",
    cls=A,
    figures=3,
    move=3,
    move_fire=3,
    dice=(3, 3, 3),
    tg=2,
)
ELITE_ARMOR = U("2.2 Elite Armor (tank2) | 4 | 3 | 3 | 3,3,3 | yes | 2 | 1", ARMOR, figures=4)
ARTILLERY = U(
    "2.2 Artillery | 2 | 1 | 0 (move or fire) | 3,3,2,2,1,1 | no | 0 | 1",
    cls=R,
    figures=2,
    move=1,
    move_fire=0,
    dice=(3, 3, 2, 2, 1, 1),
    los=False,
    tg=0,
)
TIGER = U(
    "2.2 Tiger | 1 | 3 | 3 | 3,3,3 | yes | 2 | 1 | cannot heal; two-step damage (6.3)",
    ARMOR,
    figures=1,
    heal=False,
    specials=("two-step damage",),
)
PREFIX_PROFILES = {
    "inf": INFANTRY,
    "inf2": SPECIAL_FORCES,
    "tank": ARMOR,
    "tank2": ELITE_ARMOR,
    "gun": ARTILLERY,
}

#: 2.1: nation suffix -> side (anything else: Allies).
NATION_SIDES = {
    "ger": "AXIS",
    "jp": "AXIS",
    "it": "AXIS",
    "us": "ALLIES",
    "brit": "ALLIES",
    "ru": "ALLIES",
    "gb": "ALLIES",
    "fr": "ALLIES",
    "ch": "ALLIES",
    "pl": "ALLIES",
}

JAPANESE_INFANTRY = ("must ignore 1 flag", "close assault +1 at full strength", "banzai")

ENGINEER = (
    "ignores terrain at range 1",
    "battles from wire and removes it",
    "sweeps mines",
    "removes road blocks",
)
SNIPER = U(
    "2.3 badge 26, 27 inf | Sniper | 1 figure; move 2 / fire 2; dice 1,1,1,1,1; "
    "ignores terrain defence; cannot target Armor or Destroyers; scores hits on unit "
    "symbol, grenade AND star; is hit only by grenades; retreat 1-3 per flag; ignores "
    "'cannot battle' terrain; worth 0 medals",
    INFANTRY,
    figures=1,
    move=2,
    move_fire=2,
    dice=(1, 1, 1, 1, 1),
    terrain_defense="ignored",
    cannot_target=frozenset({A, "destroyer"}),
    star_hits=ALL,
    hit_by=frozenset({"grenade"}),
    retreat=(1, 3),
    ignore_no_battle_terrain=True,
    medal=0,
)
SKI = (
    "2.3 badge 30 inf or inf2 | Ski Troops | 3 figures; move 3 / fire 3; dice 3,2; retreat "
    "1-3 per flag; ignores 'cannot battle' terrain"
)


def _prefix(code: str) -> str:
    """2.1: the first matching prefix in the order inf2, tank2, inf, tank, gun."""
    return next(p for p in ("inf2", "tank2", "inf", "tank", "gun") if code.startswith(p))


#: (code, badge, date_begin, behavior, nbr_units) -> vocabulary facts
VOCAB_UNITS: dict[tuple, dict] = {}


def _add(code, badge, facts, *, date="1944-06-06", behavior=None, nbr=None):
    VOCAB_UNITS[(code, badge, date, behavior, nbr)] = facts


for _pfx, _prof in PREFIX_PROFILES.items():
    for _nation in NATION_SIDES:
        _f = _prof
        if _nation == "jp" and _prof["cls"] == I:
            _f = U(
                _prof["cite"] + " + 2.6 Japanese infantry: must ignore 1 flag; +1 die in "
                "close assault at full strength; banzai",
                _prof,
                flags=1,
                specials=JAPANESE_INFANTRY,
            )
        _add(_pfx + _nation, None, _f)
_add(
    "tank2ger",
    None,
    U("2.5 tank2ger with nbr_units = 1: renamed tigerger with badge 4, becomes a Tiger", TIGER),
    nbr=1,
)
_add(
    "tank2us",
    None,
    U("2.5 only tank2ger with 1 figure becomes a Tiger", ELITE_ARMOR, figures=1),
    nbr=1,
)
_add(
    "pdestroyer",
    None,
    U(
        "2.2 Destroyer | 3 | 2 | 2 | 3,3,2,2,1,1,1,1 | no | 0 | 1 | ignores terrain defence and "
        "'cannot battle' terrain; ignore 1 flag; cannot heal; cross-hair markers like Big Gun; "
        "hit only by grenades",
        cls=R,
        figures=3,
        move=2,
        move_fire=2,
        dice=(3, 3, 2, 2, 1, 1, 1, 1),
        los=False,
        tg=0,
        terrain_defense="ignored",
        ignore_no_battle_terrain=True,
        flags=1,
        heal=False,
        hit_by=frozenset({"grenade"}),
        specials=("cross-hairs 3",),
    ),
)
_LOCO = U(
    "2.2 Locomotive | 4 | 3 | - (no dice) | - | - | 0 | along rails, backwards | ignore 1 "
    "flag; cannot heal; hit only by grenades",
    cls=A,
    figures=4,
    move=3,
    move_fire=0,
    dice=(),
    tg=0,
    flags=1,
    heal=False,
    hit_by=frozenset({"grenade"}),
    specials=("train",),
)
_add("loco", None, _LOCO)
_add(
    "wagon",
    None,
    U("2.2 Wagon | 3 | 3 | - | - | - | 0 | as loco | worth 0 medals", _LOCO, figures=3, medal=0),
)

# 2.3 badges
for _p in ("inf2",):
    for _n in ("fr", "brit"):
        _add(
            _p + _n,
            3,
            U(
                "2.3 badge 3 inf2 | French Resistance | 3 figures; move 2 / fire 1 "
                "at 3,2,1; retreat 1-3 hexes per flag; ignores 'cannot battle after "
                "entering' terrain (inf2brit+badge3 also)",
                INFANTRY,
                figures=3,
                retreat=(1, 3),
                ignore_no_battle_terrain=True,
            ),
        )
_add(
    "gunger",
    5,
    U(
        "2.3 badge 5 gun | Big Gun | Artillery, dice 3,3,2,2,1,1,1,1; cross-hair (max 3 per gun)",
        ARTILLERY,
        dice=(3, 3, 2, 2, 1, 1, 1, 1),
        specials=("cross-hairs 3",),
    ),
)
for _b in (6, 8, 12, 28, 31):
    for _p in ("inf", "inf2"):
        _add(
            _p + "us",
            _b,
            U(
                f"2.3 badge {_b} inf or inf2 | Combat Engineer | Infantry profile "
                "(an inf2 engineer loses the 2-hex move+fire); terrain defence "
                "ignored at range 1; may battle from wire and still remove it; "
                "on a minefield must sweep it; may remove road blocks",
                INFANTRY,
                terrain_defense="ignored at range 1",
                specials=ENGINEER,
            ),
        )
for _b in (26, 27):
    _add("infus", _b, SNIPER)
    _add("infjp", _b, U(SNIPER["cite"] + " (2.6: Japanese rules exclude Snipers)", SNIPER))
_add(
    "infru",
    29,
    U(
        "2.3 badge 29 inf | Cavalry | 4 figures; move 3 / fire 3; dice 2,1; take "
        "ground 2 with overrun like Armor",
        INFANTRY,
        move=3,
        move_fire=3,
        dice=(2, 1),
        tg=2,
    ),
)
for _p in ("inf", "inf2"):
    _add(
        _p + "ru",
        30,
        U(
            SKI,
            INFANTRY,
            figures=3,
            move=3,
            move_fire=3,
            dice=(3, 2),
            retreat=(1, 3),
            ignore_no_battle_terrain=True,
        ),
    )
_add(
    "tankus",
    33,
    U(
        "2.3 badge 33 tank | Flame Thrower Tank | Armor (3 figs); at range 1 "
        "terrain defence is capped at -1",
        ARMOR,
        specials=("flame cap -1",),
    ),
)
_add(
    "tank2us",
    33,
    U(
        "2.3 badge 33 tank2 | Flame Thrower Tank | Armor (4 figs); at range 1 "
        "terrain defence is capped at -1",
        ELITE_ARMOR,
        specials=("flame cap -1",),
    ),
)
_add(
    "gunus",
    35,
    U(
        "2.3 badge 35 gun | Mobile Artillery | Artillery dice; move 2 / fire 1",
        ARTILLERY,
        move=2,
        move_fire=1,
    ),
)
_EARLY, _LATE = "1941-05-01", "1944-06-06"
_add(
    "infger",
    37,
    U(
        "2.3 badge 37 inf early | Anti-Tank Gun | move 2 or fire (fires like its "
        "infantry 3,2,1); stars hit Armor; no take ground",
        INFANTRY,
        move_fire=0,
        or_fire=True,
        tg=0,
        star_hits=frozenset({A}),
    ),
    date=_EARLY,
)
_add(
    "infger",
    37,
    U(
        "2.3 badge 37 inf late | Anti-Tank Gun | move 2 / fire 1; stars hit Armor "
        "only if it did not move; no take ground",
        INFANTRY,
        tg=0,
        star_hits=frozenset({A}),
        star_only_if_not_moved=True,
    ),
    date=_LATE,
)
_add(
    "infger",
    41,
    U(
        "2.3 badge 41 inf early | Mortar | move 2 or fire; no LOS needed; ignores "
        "terrain defence; no take ground",
        INFANTRY,
        move_fire=0,
        or_fire=True,
        los=False,
        terrain_defense="ignored",
        tg=0,
    ),
    date=_EARLY,
)
_add(
    "infger",
    41,
    U(
        "2.3 badge 41 inf late | Mortar | move 2 / fire 1; if it did not move: "
        "dice 3,2,1,1, no LOS needed, ignores terrain defence; if it moved: plain "
        "3,2,1 with LOS; no take ground",
        INFANTRY,
        tg=0,
        terrain_defense="ignored if it did not move",
        specials=("did not move: dice 3,2,1,1", "did not move: no LOS"),
    ),
    date=_LATE,
)
_add(
    "infger",
    45,
    U(
        "2.3 badge 45 inf early | Machine Gun | move 2 or fire; stars hit Infantry; no take ground",
        INFANTRY,
        move_fire=0,
        or_fire=True,
        tg=0,
        star_hits=frozenset({I}),
    ),
    date=_EARLY,
)
_add(
    "infger",
    45,
    U(
        "2.3 badge 45 inf late | Machine Gun | move 2 / fire 1; stars hit Infantry "
        "only if it did not move; no take ground",
        INFANTRY,
        tg=0,
        star_hits=frozenset({I}),
        star_only_if_not_moved=True,
    ),
    date=_LATE,
)
_add(
    "gunger",
    46,
    U(
        "2.3 badge 46 gun | Heavy Anti-Tank Gun | Artillery move; dice 2,2,2,2; "
        "needs LOS; ignores terrain defence; stars hit Armor",
        ARTILLERY,
        dice=(2, 2, 2, 2),
        los=True,
        terrain_defense="ignored",
        star_hits=frozenset({A}),
    ),
)
for _p, _prof in PREFIX_PROFILES.items():
    _add(
        _p + "ger",
        38,
        U(
            "2.3 badge 38 any | Italian unit (decorative icon) | counts as "
            "nation it for the Italian Royal Army option",
            _prof,
            specials=("counts as Italian",),
        ),
    )
for _p, _b in (
    ("tank2ger", 4),
    ("inf2ger", 4),
    ("inf2us", 1),
    ("tank2brit", 1),
    ("inf2us", 2),
    ("tank2us", 2),
    ("inf2us", 9),
    ("tank2ger", 10),
    ("inf2us", 22),
    ("inf2brit", 24),
    ("tank2brit", 24),
    ("inf2ru", 25),
    ("tank2ru", 25),
):
    _add(
        _p,
        _b,
        U(f"2.3 badge {_b} on {_p}: decorative, no rule change", PREFIX_PROFILES[_prefix(_p)]),
    )

# 2.5 unit behaviours
_add(
    "inf2us",
    None,
    U(
        "2.5 FRENCH_RESISTANCE: replaces the badge by 3 (French Resistance)",
        INFANTRY,
        figures=3,
        retreat=(1, 3),
        ignore_no_battle_terrain=True,
    ),
    behavior="FRENCH_RESISTANCE",
)
for _beh in ("DE", "US", "GB", "CA"):
    _add(
        "inf2us",
        None,
        U(f"2.5 {_beh}: replaces the badge by a decorative one", SPECIAL_FORCES),
        behavior=_beh,
    )
_add(
    "tankger",
    None,
    U("2.5 ARMOR_MOVE_TWO: move 2, move+fire 2", ARMOR, move=2, move_fire=2),
    behavior="ARMOR_MOVE_TWO",
)
_add(
    "tank2ger",
    None,
    U("2.5 ELITE_ARMOR_MOVE_TWO: move 2, move+fire 2", ELITE_ARMOR, move=2, move_fire=2),
    behavior="ELITE_ARMOR_MOVE_TWO",
)
_add(
    "infger",
    None,
    U("2.5 CAN_IGNORE_ONE_FLAG: unit may ignore 1 flag anywhere", INFANTRY, flags=1),
    behavior="CAN_IGNORE_ONE_FLAG",
)
_add(
    "gunger",
    None,
    U("2.5 GERMAN_2VICTANK: Artillery worth 2 medals", ARTILLERY, medal=2),
    behavior="GERMAN_2VICTANK",
)
_add(
    "tank2ger",
    None,
    U("2.5 GERMAN_2VICTANK: Elite Armor worth 2 medals", ELITE_ARMOR, medal=2),
    behavior="GERMAN_2VICTANK",
)
_add(
    "tankger",
    None,
    U("2.5 GERMAN_2VICTANK names Artillery / Elite Armor only", ARMOR),
    behavior="GERMAN_2VICTANK",
)

# 2.6 Japanese infantry with the special-weapon badges: "banzai ... (early-war MG/Mortar
# units excluded)"
for _b, _date, _banzai in (
    (37, _EARLY, True),
    (37, _LATE, True),
    (41, _EARLY, False),
    (41, _LATE, True),
    (45, _EARLY, False),
    (45, _LATE, True),
):
    _base = VOCAB_UNITS[("infger", _b, _date, None, None)]
    _add(
        "infjp",
        _b,
        U(
            _base["cite"] + " + 2.6 Japanese infantry (banzai: early-war MG/Mortar excluded)",
            _base,
            flags=1,
            specials=JAPANESE_INFANTRY if _banzai else JAPANESE_INFANTRY[:2],
        ),
        date=_date,
    )
_add(
    "infjp",
    6,
    U(
        "2.3 badge 6 engineer + 2.6 Japanese infantry",
        VOCAB_UNITS[("infus", 6, _LATE, None, None)],
        flags=1,
        specials=JAPANESE_INFANTRY,
    ),
)
_add("tankjp", None, U("2.6 Japanese rules are for infantry only", ARMOR))

#: Deliberate departures of the engine from a vocabulary unit row.
UNIT_DEPARTURES: dict[tuple, dict[str, tuple]] = {
    ("infjp", 37, _EARLY, None, None): {
        "specials": (
            frozenset(JAPANESE_INFANTRY[:2]),
            "ambiguous row: 2.6 names only early-war MG/Mortar as excluded from banzai, but the "
            "early-war Anti-Tank gun has the same 'move 2 or fire' profile (2.3) that forbids "
            "battling after any move; the engine excludes every 'move or fire' unit",
        )
    },
}


#: Engine unit fields with a value -> the vocabulary's words for them ('' = not present).
_UNIT_LABELS = (
    lambda s: "two-step damage" * s.two_step_damage,
    lambda s: f"cross-hairs {s.cross_hairs}" * bool(s.cross_hairs),
    lambda s: "train" * s.train,
    lambda s: "flame cap -1" * s.flame_cap,
    lambda s: "battles from wire and removes it" * s.wire_cutter,
    lambda s: "sweeps mines" * s.mine_sweeper,
    lambda s: "removes road blocks" * s.roadblock_remover,
    lambda s: "ignores terrain at range 1" * s.ignore_terrain_defense_at_1,
    lambda s: s.stationary_dice and "did not move: dice " + _joined(s.stationary_dice, ","),
    lambda s: "did not move: no LOS" * s.stationary_no_los,
    lambda s: "must ignore 1 flag" * s.must_ignore_flags,
    lambda s: (
        f"close assault +{s.close_assault_bonus} at full strength" * bool(s.close_assault_bonus)
    ),
    lambda s: "banzai" * s.banzai,
    lambda s: "counts as Italian" * (s.badge_nation == "it"),
)


def unit_facts(s: UnitSpec) -> dict:
    """Project an engine UnitSpec onto the vocabulary's unit facts."""
    sp = {label(s) for label in _UNIT_LABELS if label(s)}
    if s.ignore_terrain_defense:
        terrain = "ignored"
    elif s.ignore_terrain_defense_at_1:
        terrain = "ignored at range 1"
    elif s.stationary_dice is not None:
        terrain = "ignored if it did not move"  # battle.battle_dice: stationary mortar
    else:
        terrain = "applies"
    excluded = {k for k in (I, A, R, "destroyer") if not may_target(s, _probe(k))}
    return dict(
        cls=s.unit_class,
        figures=s.figures,
        move=s.move,
        move_fire=s.move_fire,
        or_fire=s.no_move_and_fire,
        dice=s.dice,
        los=s.needs_los,
        tg=s.take_ground,
        retreat=s.retreat_per_flag,
        medal=s.medal_value,
        flags=s.ignore_flags,
        heal=s.can_heal,
        terrain_defense=terrain,
        ignore_no_battle_terrain=s.ignore_no_battle_terrain,
        star_hits=s.star_hits,
        star_only_if_not_moved=s.star_hits_if_not_moved,
        hit_by=s.hit_by,
        cannot_target=frozenset(excluded),
        specials=frozenset(sp),
    )


def _probe(kind: str) -> UnitSpec:
    """A plain target of one base class, or a destroyer."""
    if kind == "destroyer":
        return unit_spec("pdestroyer", nation="us")
    return unit_spec({I: "infger", A: "tankger", R: "gunger"}[kind])


def _key_id(key: tuple) -> str:
    code, badge, date, behavior, nbr = key
    return "-".join(str(x) for x in (code, badge and f"badge{badge}", date[:4], behavior, nbr) if x)


@pytest.mark.parametrize("key", sorted(VOCAB_UNITS, key=_key_id), ids=_key_id)
def test_unit_row_matches_vocabulary(key):
    code, badge, date, behavior, nbr = key
    nation = "us" if code in ("pdestroyer", "loco", "wagon") else None
    s = unit_spec(
        code, f"badge{badge}" if badge else None, nbr, behavior, None, date, nation=nation
    )
    got = unit_facts(s)
    exp = {k: v for k, v in VOCAB_UNITS[key].items() if k != "cite"}
    for fact, (value, _why) in UNIT_DEPARTURES.get(key, {}).items():
        assert exp[fact] != value, f"stale departure {key} {fact}"
        exp[fact] = value
    diff = {k: (got.get(k), exp.get(k)) for k in exp if got.get(k) != exp.get(k)}
    assert not diff, f"{key} ({VOCAB_UNITS[key]['cite']}): engine vs vocab {diff}"


def test_every_rule_bearing_badge_of_the_engine_is_audited():
    audited = {(_prefix(c), b) for c, b, *_ in VOCAB_UNITS if b}
    assert {(p, b) for p, b in BADGES} <= audited
    assert {(p, b) for p, b, _ in PERIOD_BADGES} <= audited


@pytest.mark.parametrize("nation,side", sorted(NATION_SIDES.items()))
def test_nation_suffix_side(nation, side):
    """2.1: ger/jp/it Axis; us/brit/ru/gb/fr/ch and anything else Allies."""
    assert nation_side(nation) == side
    assert unit_spec("inf" + nation).side == side


def test_prefix_scan_order_and_tiger_rewrite():
    """2.1: inf2 and tank2 are matched before inf and tank; 2.5: tank2ger with 1 figure is
    a Tiger with badge 4; Wittmann equipment is kept."""
    assert unit_spec("inf2ger").kind == "special_forces"
    assert unit_spec("tank2ger").kind == "elite_armor"
    t = unit_spec("tank2ger", None, "1", None, "wittmann")
    assert t.kind == "tiger" and t.badge == 4 and t.equipment == "wittmann"
    with pytest.raises(KeyError):
        unit_spec("vehX1")  # digits: not a nation suffix


def test_engine_prefixes_beyond_the_vocabulary_are_documented():
    """2.1 lists inf2, tank2, inf, tank, gun, pdestroyer, loco, wagon, tiger; ``veh`` is
    'not supported (unit dropped)' in BGA.  The engine plays it from 004 'Reconnaissance
    Units' (a documented departure, see engine.units PROFILES['veh'])."""
    vocab = {"inf2", "tank2", "inf", "tank", "gun", "pdestroyer", "loco", "wagon", "tiger"}
    assert set(PREFIXES) - vocab == {"veh"}
    assert list(PREFIXES).index("inf2") < list(PREFIXES).index("inf")
    assert list(PREFIXES).index("tank2") < list(PREFIXES).index("tank")


# =====================================================================================
# 3. Behaviour spot checks of the trickiest rows, through legal_actions / apply
# =====================================================================================


def _moves(st, h):
    return {tuple(a["to"]) for a in legal(st, "move") if a["unit"] == uid(st, h)}


def _targets(st, h):
    return {tuple(a["target"]) for a in legal(st, "battle") if a["unit"] == uid(st, h)}


def test_sniper_cannot_target_a_destroyer():
    """2.3 Sniper: 'cannot target Armor or Destroyers' (the destroyer is player 2's)."""
    sniper = {"name": "infus", "badge": "badge26"}
    st = to_battle(
        ordered(
            "0@0: .",
            [(1, 11)],
            player1="ALLIES",
            units={(1, 11): sniper, (4, 10): "pdestroyer", (3, 13): "infger"},
        )
    )
    assert unit(st, (4, 10)).spec.kind == "destroyer"
    assert _targets(st, (1, 11)) == {(3, 13)}


def test_hill_with_forest_gives_no_mountain_access_but_a_hill_does():
    """1.3 whillforest: 'elevation 1 (but not a "hill" for hill-mass LOS or mountain
    access)'; mountain: 'infantry may enter only from a hill/mountain hex'."""
    for source, can in (("whillforest", False), ("whillvillage", False), ("hills", True)):
        st = ordered(
            "0@0: .:i\n5@11: M",
            [(6, 10)],
            units={(6, 10): "inf2us"},
            hexes=[{"row": 6, "col": 10, "terrain": {"name": source}}],
        )
        assert ((5, 11) in _moves(st, (6, 10))) is can, source


def test_steep_hill_costs_two_from_any_non_hill_hex():
    """1.3 hills+STEEP_HILL: 'entering from a non-hill hex costs 2 move points' - also from
    a hill with forest, which stands as high but is not a hill."""
    legend = {"Z": {"name": "hills", "behavior": "STEEP_HILL"}}
    for source, reach_beyond in (("whillforest", False), ("hills", True)):
        st = ordered(
            "0@0: .:i\n5@11: Z Z",
            [(6, 10)],
            units={(6, 10): "inf2us"},
            legend=legend,
            hexes=[{"row": 6, "col": 10, "terrain": {"name": source}}],
        )
        ms = _moves(st, (6, 10))
        assert (5, 11) in ms and ((5, 13) in ms) is reach_beyond, source


def test_hedgehog_stops_vehicles_not_infantry():
    """1.3 hedgehog: impassable A, Art; no 'must stop' for infantry."""
    st = ordered("0@0: .:i\n5@11: O", [(6, 10)], key="armor_assault", units={(6, 10): "tankus"})
    assert (5, 11) not in _moves(st, (6, 10))
    st = ordered("0@0: .:i\n5@11: O\n4@12: .", [(6, 10)], units={(6, 10): "inf2us"})
    assert {(5, 11), (4, 12)} <= _moves(st, (6, 10))


def test_unowned_bunker_takes_the_side_of_the_unit_on_it():
    """1.1: 'A bunker tile without original_owner takes the side of the unit standing on it'
    - so an Axis unit in it is protected (-1 vs infantry) and ignores a flag."""
    st = to_battle(ordered("4@10: K:i\n5@11: .:I", [(5, 11)]))
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 2
    # an Allied unit in an Axis-owned bunker gets no protection from the Axis
    legend = {"Q": {"slot": "rect_terrain", "name": "bunker", "original_owner": "AXIS"}}
    st = to_battle(ordered("4@10: .:I\n5@11: Q:I\n3@11: .:i", [(5, 11)], legend=legend))
    assert unit(st, (5, 11)).hex == (5, 11)
    from engine.procedures.battle import battle_dice

    assert battle_dice(st, unit(st, (3, 11)), unit(st, (5, 11)), 2, None) == 2


def test_dam_is_impassable_to_armor_blocks_los_and_infantry_ignores_a_flag():
    """1.3 dam (vocabulary: meant to be impassable to A/Art; 004 'Dams': 'Impassable to
    Armour and Artillery. No Movement restrictions for Infantry ... may ignore the first
    Purple Flag ... A Dam blocks Line Of Sight')."""
    legend = {"D": "dam"}
    st = ordered(
        "0@0: .:i\n5@11: D\n4@12: .",
        [(6, 10)],
        key="armor_assault",
        units={(6, 10): "tankus"},
        legend=legend,
    )
    assert (5, 11) not in _moves(st, (6, 10))
    st = ordered("0@0: .:i\n5@11: D\n4@12: .", [(6, 10)], units={(6, 10): "inf2us"}, legend=legend)
    assert {(5, 11), (4, 12)} <= _moves(st, (6, 10))  # infantry: no stop
    st = to_battle(ordered("2@10: .:i\n4@10: D\n6@10: .:I", [(6, 10)], legend=legend))
    assert (2, 10) not in _targets(st, (6, 10))  # the dam blocks LOS
    st = to_battle(ordered("4@10: D:i\n5@11: .:I", [(5, 11)], legend=legend))
    st = do(st, "battle", unit=uid(st, (5, 11)), target=[4, 10])
    if st.pending["type"] == "ambush":
        st = do(st, "pass")
    st, ev = roll(st, "flag", "star", "star")
    opts = st.pending["options"] if st.pending and st.pending["type"] == "retreat" else []
    assert any(o["ignore"] == 1 for o in opts) or "flags_ignored" in [e["type"] for e in ev]


def test_church_must_stop_no_battle_after_entering_and_cover():
    """1.3 church: as Village (must stop; cannot battle the turn it entered; def -1/-2/0)
    + ignore 1 flag."""
    st = ordered("2@10: .:i\n5@11: c\n4@12: .", [(6, 10)], units={(6, 10): "inf2us"})
    ms = _moves(st, (6, 10))
    assert (5, 11) in ms and (4, 12) not in ms  # (4,12) only through the church
    st = do(st, "move", unit=uid(st, (6, 10)), to=[5, 11])
    assert not _targets(to_battle(st), (5, 11))  # moved in: no battle
    st = to_battle(ordered("4@10: c:i\n5@11: .:I\n5@13: .:A", [(5, 11), (5, 13)]))
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 2  # infantry 3 - 1
    assert battle_dice_vs(st, (5, 13), (4, 10)) == 1  # armor at range 2: 3 - 2


def test_rail_bridge_stops_armor_not_infantry_and_pontoon_carries_all():
    """1.3 railbridge: 'as Bridge; A/Art must stop'; pontoon: 'as Bridge'."""
    for name, armor_stops in (("railbridge", True), ("pontoon", False)):
        legend = {"Q": {"slot": "rect_terrain", "name": name}}
        st = ordered(
            "0@0: .:i\n5@7: R R RQ R R",
            [(6, 10)],
            key="armor_assault",
            units={(6, 10): "tankus"},
            legend=legend,
        )
        ms = _moves(st, (6, 10))
        assert (5, 11) in ms and ((4, 12) in ms) is not armor_stops, name
        st = ordered(
            "0@0: .:i\n5@7: R R RQ R R", [(6, 10)], units={(6, 10): "inf2us"}, legend=legend
        )
        assert {(5, 11), (4, 12)} <= _moves(st, (6, 10)), name
    st = ordered("0@0: .:i\n5@11: R\n4@12: .", [(6, 10)], units={(6, 10): "inf2us"})
    assert (5, 11) not in _moves(st, (6, 10))  # no bridge: impassable


def test_road_block_stops_infantry_blocks_vehicles_and_covers_infantry():
    """1.3 roadblock: 'must stop; impassable A, Art | def -1/-1/0 | ignore 1 flag'."""
    legend = {"Q": "roadblock"}
    st = ordered("0@0: .:i\n5@11: Q\n4@12: .", [(6, 10)], units={(6, 10): "inf2us"}, legend=legend)
    ms = _moves(st, (6, 10))
    assert (5, 11) in ms and (4, 12) not in ms  # (4,12) only through it
    st = ordered(
        "0@0: .:i\n5@11: Q",
        [(6, 10)],
        key="armor_assault",
        units={(6, 10): "tankus"},
        legend=legend,
    )
    assert (5, 11) not in _moves(st, (6, 10))
    st = to_battle(ordered("4@10: Q:i\n5@11: .:I\n5@13: .:A", [(5, 11), (5, 13)], legend=legend))
    assert battle_dice_vs(st, (5, 11), (4, 10)) == 2  # infantry 3 - 1
    assert battle_dice_vs(st, (5, 13), (4, 10)) == 2  # armor at range 2: 3 - 1


def test_airfield_has_no_rule_effect():
    """1.3 airfield codes: '- | - | no | no rule effect'."""
    st = ordered(
        "0@0: .:i\n5@11: Q\n4@12: Q\n3@13: Q",
        [(6, 10)],
        key="armor_assault",
        units={(6, 10): "tankus"},
        legend={"Q": "airfield"},
    )
    assert (3, 13) in _moves(st, (6, 10))  # no stop on the way
    st = to_battle(
        ordered(
            "3@11: .:i\n4@8: Q Q Q Q\n5@9: Q Q Q\n6@10: .:I", [(6, 10)], legend={"Q": "airfield"}
        )
    )
    assert battle_dice_vs(st, (6, 10), (3, 11)) == 1  # LOS over airfields
    st = to_battle(ordered("5@11: Q:i\n6@10: .:I", [(6, 10)], legend={"Q": "airfield"}))
    assert battle_dice_vs(st, (6, 10), (5, 11)) == 3  # no cover
