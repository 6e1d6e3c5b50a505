"""Unit profiles as data: ``.m44`` unit code (type prefix + nation) + badge -> UnitSpec.

CONTRACT: the rules read these fields; they never branch on a unit code.
Base classes: ``"inf"``, ``"armor"``, ``"art"``.  Dice faces: ``"inf"``, ``"armor"``,
``"grenade"``, ``"star"``, ``"flag"``.

Sources: m44-vocabulary 2.1 (prefixes, nations), 2.2 (base profiles), 2.3 (badges),
2.5 (behaviours), 2.6 (Japanese infantry ignore 1 flag); printed rules 004 for the
``veh`` prefix (see :data:`PROFILES` ``"veh"``).

Additions to the original skeleton (additive):

* UnitSpec fields ``move_class`` (class whose terrain *movement* restrictions apply;
  ``None`` = ``unit_class``), ``no_move_and_fire`` (early-war AT gun/mortar/MG: move or
  fire), ``star_hits_if_not_moved`` (late-war AT/MG stars only if it did not move),
  ``stationary_dice`` / ``stationary_no_los`` (late-war mortar when it did not move),
  ``cross_hairs`` (Big Gun), ``flame_cap`` (flame tank: terrain defence capped at -1 at
  range 1), ``mine_sweeper``/``wire_cutter``/``roadblock_remover`` (combat engineers),
  ``two_step_damage`` (Tiger), ``equipment``, ``behavior``, ``badge_nation`` (badge 38:
  Italian), ``ignore_flag_terrain_rule`` (2.6 Japanese: +1 ignorable flag), ``close_assault_bonus``
  (Japanese +1 die at range 1 while at full strength), ``banzai``, ``train``;
* :func:`nation_side`, :func:`split_code`, :func:`may_target`, :data:`PROFILES`,
  :data:`BADGES`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

NONE: frozenset[str] = frozenset()
ALL_TARGETS: frozenset[str] = frozenset({"inf", "armor", "art"})


@dataclass(frozen=True, slots=True)
class UnitSpec:
    code: str  # as in the file, e.g. "inf2us"
    kind: str  # "infantry","special_forces","armor","elite_armor","artillery",
    # "resistance","sniper","cavalry","ski","engineer","big_gun",
    # "mobile_artillery","anti_tank","mortar","machine_gun",
    # "heavy_anti_tank","tiger","destroyer","locomotive","wagon"
    unit_class: str  # "inf" | "armor" | "art"  (what dice symbols and terrain see)
    nation: str  # "ger","us","brit","ru","jp","it",...
    side: str  # default side of the nation: "AXIS" | "ALLIES"
    name: str  # human name, e.g. "Special Forces (US)"
    figures: int  # starting and maximum figures
    move: int  # max hexes moved
    move_fire: (
        int  # max hexes moved and still allowed to battle (-1: moving forbids battle... use 0)
    )
    dice: tuple[int, ...]  # dice by range 1, 2, 3, ... (len = max range)
    needs_los: bool = True
    take_ground: int = 1  # 0 none; 1 take ground; 2 take ground + armor overrun
    retreat_per_flag: tuple[int, int] = (
        1,
        1,
    )  # (min, max) hexes per flag; (1, 3) resistance/ski/sniper
    ignore_terrain_defense: bool = False  # sniper, mortar, heavy AT gun
    ignore_terrain_defense_at_1: bool = False  # combat engineers in close assault
    ignore_no_battle_terrain: bool = (
        False  # resistance, ski, sniper: "cannot battle after entering"
    )
    star_hits: frozenset[str] = NONE  # target classes its stars hit (sniper: all; AT: armor)
    hit_by: frozenset[str] | None = (
        None  # faces that can hit it (sniper: {"grenade"}); None = normal
    )
    cannot_target: frozenset[str] = NONE  # target classes or kinds it may not battle
    # (sniper: armor, destroyer; see may_target)
    medal_value: int = 1  # medals for eliminating it
    ignore_flags: int = 0  # unit-level flags ignorable (CAN_IGNORE_ONE_FLAG, Japanese)
    can_heal: bool = True
    badge: int | None = None
    # --- additions (see module docstring) -----------------------------------------------
    move_class: str | None = None  # class for terrain movement rules (veh: "inf")
    no_move_and_fire: bool = False  # early-war AT/mortar/MG: moving forbids battle
    star_hits_if_not_moved: bool = False  # late-war AT/MG: star powers only if not moved
    stationary_dice: tuple[int, ...] | None = None  # late-war mortar dice when it did not move
    stationary_no_los: bool = False  # late-war mortar: no LOS needed if not moved
    cross_hairs: int = 0  # Big Gun / destroyer: max cross-hair markers
    flame_cap: bool = False  # flame tank: terrain defence capped at -1 at range 1
    mine_sweeper: bool = False  # combat engineer
    wire_cutter: bool = False  # combat engineer: may battle and remove wire
    roadblock_remover: bool = False  # combat engineer
    two_step_damage: bool = False  # Tiger (vocabulary 6.3)
    close_assault_bonus: int = 0  # Japanese infantry at full strength
    banzai: bool = False  # Japanese: range-1 battle after any move
    train: bool = False  # locomotive/wagon: moves on rails only
    equipment: str | None = None  # "boat" | "wittmann" | "motorized"
    behavior: str | None = None
    badge_nation: str | None = None  # badge 38: counts as Italian ("it")
    must_ignore_flags: bool = False  # 2.6 Japanese: ignorable flags are ignored (no choice)
    # --- 004 unit types (options extra_unit_types / infantry_support_weapons; see
    # engine/core/unit_types.py) -------------------------------------------------------------
    dice_vs: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (target class or kind, dice by
    # range) replacing ``dice``; first match wins
    targets_only: frozenset[str] | None = None  # may battle only these classes / kinds
    close_assaulted_by_inf: int = 0  # infantry close-assault it with this many dice
    flag_faces: tuple[tuple[str, frozenset[str]], ...] = ()  # (face, target classes): the face
    # also counts as a flag (88mm star, mortar grenade)
    indirect_fire: bool = False  # 004: fires at targets it or a friend sees
    enter_only: frozenset[str] | None = None  # terrain families it may move into (very heavy)
    never_enter: frozenset[str] = NONE  # terrain families it may not enter (mortar: bunker)
    max_per_side: int = 0  # 004 limits per side (0 = none)


# --- vocabulary 2.1 / 2.2: base profiles by type prefix -----------------------------------
_INF = dict(
    kind="infantry",
    unit_class="inf",
    label="Infantry",
    figures=4,
    move=2,
    move_fire=1,
    dice=(3, 2, 1),
)
_ARMOR = dict(
    kind="armor",
    unit_class="armor",
    label="Armor",
    figures=3,
    move=3,
    move_fire=3,
    dice=(3, 3, 3),
    take_ground=2,
)
_GRENADE_ONLY = frozenset({"grenade"})

PROFILES: dict[str, dict[str, Any]] = {
    "inf": _INF,
    "inf2": {**_INF, "kind": "special_forces", "label": "Special Forces", "move_fire": 2},
    "tank": _ARMOR,
    "tank2": {**_ARMOR, "kind": "elite_armor", "label": "Elite Armor", "figures": 4},
    "tiger": {
        **_ARMOR,
        "kind": "tiger",
        "label": "Tiger",
        "figures": 1,
        "can_heal": False,
        "two_step_damage": True,
    },
    "gun": dict(
        kind="artillery",
        unit_class="art",
        label="Artillery",
        figures=2,
        move=1,
        move_fire=0,
        dice=(3, 3, 2, 2, 1, 1),
        needs_los=False,
        take_ground=0,
    ),
    "pdestroyer": dict(
        kind="destroyer",
        unit_class="art",
        label="Destroyer",
        figures=3,
        move=2,
        move_fire=2,
        dice=(3, 3, 2, 2, 1, 1, 1, 1),
        needs_los=False,
        take_ground=0,
        ignore_terrain_defense=True,
        ignore_no_battle_terrain=True,
        ignore_flags=1,
        can_heal=False,
        hit_by=_GRENADE_ONLY,
        cross_hairs=3,
    ),
    "loco": dict(
        kind="locomotive",
        unit_class="armor",
        label="Locomotive",
        figures=4,
        move=3,
        move_fire=0,
        dice=(),
        take_ground=0,
        ignore_flags=1,
        can_heal=False,
        hit_by=_GRENADE_ONLY,
        train=True,
    ),
    "wagon": dict(
        kind="wagon",
        unit_class="armor",
        label="Wagon",
        figures=3,
        move=3,
        move_fire=0,
        dice=(),
        take_ground=0,
        ignore_flags=1,
        can_heal=False,
        hit_by=_GRENADE_ONLY,
        train=True,
        medal_value=0,
    ),
    # Printed rules 004 "Reconnaissance Units": "Armour, 2 models. Advances upto 4 hexes.
    # Battle Range is 2 hexes with 2 Battle Dice against Infantry, Artillery and other
    # Reconnaissance Units only ... Move through Terrain using the Infantry Terrain
    # modifiers ... armoured cars, half-tracks, ... jeeps, trucks".  BGA drops ``veh``.
    "veh": {
        **_ARMOR,
        "kind": "vehicle",
        "label": "Reconnaissance Vehicle",
        "figures": 2,
        "move": 4,
        "move_fire": 4,
        "dice": (2, 2),
        "take_ground": 1,
        "cannot_target": frozenset({"armor"}),
        "move_class": "inf",
    },
}
#: Prefix scan order (vocabulary 2.1: inf2 and tank2 before inf and tank).
PREFIXES: tuple[str, ...] = (
    "inf2",
    "tank2",
    "inf",
    "tank",
    "gun",
    "pdestroyer",
    "loco",
    "wagon",
    "tiger",
    "veh",
)

#: Nation suffix -> side (vocabulary 2.1; anything else is Allies).
AXIS_NATIONS: frozenset[str] = frozenset({"ger", "jp", "it"})
KNOWN_NATIONS: frozenset[str] = frozenset({"ger", "jp", "it", "us", "brit", "ru", "gb", "fr", "ch"})

_NATION_NAMES = {
    "ger": "German",
    "jp": "Japanese",
    "it": "Italian",
    "us": "US",
    "brit": "British",
    "ru": "Soviet",
    "gb": "British",
    "fr": "French",
    "ch": "Chinese",
}

_ENGINEER = dict(
    kind="engineer",
    label="Combat Engineers",
    ignore_terrain_defense_at_1=True,
    mine_sweeper=True,
    wire_cutter=True,
    roadblock_remover=True,
    move_fire=1,
)
_RETREAT_1_3 = (1, 3)

# --- vocabulary 2.3: badges (prefix, badge) -> overrides; other badges are decorative ------
BADGES: dict[tuple[str, int], dict[str, Any]] = {
    ("inf2", 3): dict(
        kind="resistance",
        label="French Resistance",
        figures=3,
        move_fire=1,
        retreat_per_flag=_RETREAT_1_3,
        ignore_no_battle_terrain=True,
    ),
    ("gun", 5): dict(kind="big_gun", label="Big Gun", dice=(3, 3, 2, 2, 1, 1, 1, 1), cross_hairs=3),
    **{(p, b): _ENGINEER for p in ("inf", "inf2") for b in (6, 8, 12, 28, 31)},
    **{
        ("inf", b): dict(
            kind="sniper",
            label="Sniper",
            figures=1,
            move=2,
            move_fire=2,
            dice=(1, 1, 1, 1, 1),
            ignore_terrain_defense=True,
            cannot_target=frozenset({"armor", "destroyer"}),
            star_hits=ALL_TARGETS,
            hit_by=_GRENADE_ONLY,
            retreat_per_flag=_RETREAT_1_3,
            ignore_no_battle_terrain=True,
            medal_value=0,
        )
        for b in (26, 27)
    },
    ("inf", 29): dict(
        kind="cavalry", label="Cavalry", move=3, move_fire=3, dice=(2, 1), take_ground=2
    ),
    **{
        (p, 30): dict(
            kind="ski",
            label="Ski Troops",
            figures=3,
            move=3,
            move_fire=3,
            dice=(3, 2),
            retreat_per_flag=_RETREAT_1_3,
            ignore_no_battle_terrain=True,
        )
        for p in ("inf", "inf2")
    },
    **{
        (p, 33): dict(kind="flame_tank", label="Flame Thrower Tank", flame_cap=True)
        for p in ("tank", "tank2")
    },
    ("gun", 35): dict(kind="mobile_artillery", label="Mobile Artillery", move=2, move_fire=1),
    ("gun", 46): dict(
        kind="heavy_anti_tank",
        label="Heavy Anti-Tank Gun",
        dice=(2, 2, 2, 2),
        needs_los=True,
        ignore_terrain_defense=True,
        star_hits=frozenset({"armor"}),
    ),
}
#: Badges whose profile depends on the war period (``date_begin`` year <= 1942 = early).
PERIOD_BADGES: dict[tuple[str, int, bool], dict[str, Any]] = {
    ("inf", 37, True): dict(
        kind="anti_tank",
        label="Anti-Tank Gun (early war)",
        take_ground=0,
        no_move_and_fire=True,
        move_fire=0,
        star_hits=frozenset({"armor"}),
    ),
    ("inf", 37, False): dict(
        kind="anti_tank",
        label="Anti-Tank Gun (late war)",
        take_ground=0,
        star_hits=frozenset({"armor"}),
        star_hits_if_not_moved=True,
    ),
    ("inf", 41, True): dict(
        kind="mortar",
        label="Mortar (early war)",
        take_ground=0,
        no_move_and_fire=True,
        move_fire=0,
        needs_los=False,
        ignore_terrain_defense=True,
    ),
    ("inf", 41, False): dict(
        kind="mortar",
        label="Mortar (late war)",
        take_ground=0,
        stationary_dice=(3, 2, 1, 1),
        stationary_no_los=True,
    ),
    ("inf", 45, True): dict(
        kind="machine_gun",
        label="Machine Gun (early war)",
        take_ground=0,
        no_move_and_fire=True,
        move_fire=0,
        star_hits=frozenset({"inf"}),
    ),
    ("inf", 45, False): dict(
        kind="machine_gun",
        label="Machine Gun (late war)",
        take_ground=0,
        star_hits=frozenset({"inf"}),
        star_hits_if_not_moved=True,
    ),
}
EARLY_WAR_LAST_YEAR = 1942

# --- vocabulary 2.5: unit behaviours ------------------------------------------------------
BEHAVIOR_BADGES: dict[str, int] = {"FRENCH_RESISTANCE": 3, "DE": 4, "US": 2, "GB": 1, "CA": 1}
BEHAVIORS: dict[str, dict[str, Any]] = {
    "ARMOR_MOVE_TWO": dict(move=2, move_fire=2),
    "ELITE_ARMOR_MOVE_TWO": dict(move=2, move_fire=2),
    "CAN_IGNORE_ONE_FLAG": dict(ignore_flags=1),
    "CANNOT_BE_ACTIVATED_TILL_TURN": {},  # + `turn`: Unit.inactive_until (rules.common.can_activate)
    "CANNOT_EXIT": {},
}
#: GERMAN_2VICTANK: artillery and elite armor are worth 2 medals.
TWO_MEDAL_KINDS: frozenset[str] = frozenset({"artillery", "elite_armor"})


def may_target(spec: UnitSpec, target: UnitSpec) -> bool:
    """May a unit of ``spec`` battle a unit of ``target``?  ``cannot_target`` names base
    classes and unit kinds (vocabulary 2.3 Sniper: "cannot target Armor or Destroyers";
    a Destroyer's base class is artillery, so it is excluded by its kind)."""
    if spec.targets_only is not None and not (
        target.unit_class in spec.targets_only or target.kind in spec.targets_only
    ):
        return False  # 004 unit types: "against Infantry, Artillery ... only"
    return target.unit_class not in spec.cannot_target and target.kind not in spec.cannot_target


def nation_side(nation: str) -> str:
    """Default side of a nation suffix (vocabulary 2.1: anything not Axis is Allies)."""
    return "AXIS" if nation in AXIS_NATIONS else "ALLIES"


def split_code(code: str) -> tuple[str, str]:
    """``"inf2us"`` -> ``("inf2", "us")``; unknown prefix -> ``KeyError``."""
    for prefix in PREFIXES:
        if code.startswith(prefix):
            return prefix, code[len(prefix) :]
    raise KeyError(code)


def _badge_number(badge: str | int | None) -> int | None:
    if badge is None or badge == "":
        return None
    digits = "".join(ch for ch in str(badge) if ch.isdigit())
    return int(digits) if digits else None


def _early_war(date_begin: str | None) -> bool:
    try:
        return int(str(date_begin)[:4]) <= EARLY_WAR_LAST_YEAR
    except (TypeError, ValueError):
        return False


def _figures(nbr_units: int | str | None) -> int | None:
    try:
        return None if nbr_units is None or nbr_units == "" else int(nbr_units)
    except (TypeError, ValueError):
        return None


def unit_spec(
    code: str,
    badge: str | int | None = None,
    nbr_units: int | str | None = None,
    behavior: str | None = None,
    equipment: str | None = None,
    date_begin: str | None = None,
    *,
    nation: str | None = None,
) -> UnitSpec:
    """The profile of one ``.m44`` unit entry.  Raises ``KeyError`` for unknown codes.

    ``nation`` (addition) overrides the suffix: ship/train tiles carry no suffix and take
    player 2's nation (vocabulary 2.1).  Unknown behaviours raise ``KeyError`` too.
    Load-time rewrites (vocabulary 2.5): ``tank2ger`` with ``nbr_units`` 1 becomes a Tiger
    with badge 4; behaviours FRENCH_RESISTANCE/DE/US/GB/CA replace the badge.
    """
    prefix, suffix = split_code(code)
    nation = nation or suffix or "us"
    if suffix and not (suffix.isascii() and suffix.isalpha() and len(suffix) <= 5):
        raise KeyError(code)  # vocabulary 2.1: any other (letter) nation suffix is Allied
    if (
        behavior
        and behavior not in BEHAVIORS
        and behavior not in BEHAVIOR_BADGES
        and behavior != "GERMAN_2VICTANK"
    ):
        raise KeyError(behavior)
    figures = _figures(nbr_units)
    badge_no = BEHAVIOR_BADGES.get(behavior or "", _badge_number(badge))
    if prefix == "tank2" and nation == "ger" and figures == 1:
        prefix, badge_no = "tiger", 4
    base: dict[str, Any] = dict(PROFILES[prefix])
    base.update(BADGES.get((prefix, badge_no or -1), {}))
    base.update(PERIOD_BADGES.get((prefix, badge_no or -1, _early_war(date_begin)), {}))
    base.update(BEHAVIORS.get(behavior or "", {}))
    if behavior == "GERMAN_2VICTANK" and base["kind"] in TWO_MEDAL_KINDS:
        base["medal_value"] = 2
    if nation == "jp" and base["unit_class"] == "inf" and base["kind"] != "sniper":
        # vocabulary 2.6: Japanese infantry ignore 1 flag; +1 die in close assault; banzai.
        base.update(
            ignore_flags=max(1, base.get("ignore_flags", 0)),
            close_assault_bonus=1,
            banzai=not base.get("no_move_and_fire", False),
            must_ignore_flags=True,
        )
    label = base.pop("label")
    spec = UnitSpec(
        code=code,
        nation=nation,
        side=nation_side(nation),
        name=f"{label} ({_NATION_NAMES.get(nation, nation)})",
        badge=badge_no,
        equipment=equipment,
        behavior=behavior,
        badge_nation="it" if badge_no == 38 else None,
        **base,
    )
    return replace(spec, figures=figures) if figures else spec


def army_rules(spec: UnitSpec, side: str, options: dict[str, Any]) -> UnitSpec:
    """Scenario-option army rules that change a unit's profile (vocabulary 2.6).

    * ``blitz_rules`` (true): Allied armor moves 2 / battles after 2;
    * ``partial_blitz_rules`` (``ALLIES``/``AXIS``/``all``): that side's armor moves 2 / 2;
    * ``blitzkrieg`` (game option, ``AXIS``/``ALLIES``: the side using Blitzkrieg; 004
      "Blitzkrieg Rules (Optional)", Armour Movement: "An ordered Armour Unit may Move
      upto 3 hexes and Battle, while an ordered enemy Armour Unit may only Move upto 2
      Hexes and Battle"): the other side's armor moves 2 / 2 (the same profile change);
    * ``italy_royal_army`` (true): Italian units (nation ``it`` or badge 38) retreat 1-3
      hexes per flag; Italian artillery may ignore 1 flag.
    """
    if not options:
        return spec
    if spec.unit_class == "armor" and not spec.train:
        blitz = options.get("partial_blitz_rules")
        user = options.get("blitzkrieg")
        hit = (
            (options.get("blitz_rules") and side == "ALLIES")
            or (isinstance(blitz, str) and blitz.upper() in (side, "ALL", "BOTH"))
            or (
                isinstance(user, str)
                and user.upper() in ("AXIS", "ALLIES")
                and user.upper() != side
            )
        )
        if hit:
            spec = replace(spec, move=min(spec.move, 2), move_fire=min(spec.move_fire, 2))
    if options.get("italy_royal_army") and "it" in (spec.nation, spec.badge_nation):
        spec = replace(spec, retreat_per_flag=(1, max(3, spec.retreat_per_flag[1])))
        if spec.unit_class == "art":
            spec = replace(spec, ignore_flags=max(1, spec.ignore_flags))
    return spec
