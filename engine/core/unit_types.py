"""004 house-rule unit types (options ``extra_unit_types`` and ``infantry_support_weapons``).

A ``.m44`` file does not say which tank is a Tiger-class Heavy Armour or which gun an
88mm, so the option's value names them: a dict mapping a start hex ``"row,col"`` (the
``.m44`` row/col of a unit at game start) or a ``.m44`` unit code (``"tankger"``: every
such unit) to a type name; a hex entry wins over a code entry.  ``true`` alone changes
no unit.  The profiles are data (:data:`TYPES`, one row per type, in
:class:`~engine.core.units.UnitSpec` fields); the rules read the fields, never the type name.

Sources (rules/004): "Infantry Units" (Militia), "Armoured Units", "Artillery Units",
"Infantry Support Weapons (Optional)".  Readings where the text is open are noted on
the rows; see docs/rules-coverage.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import EngineError
from .units import _NATION_NAMES, UnitSpec

EXTRA = "extra_unit_types"
SUPPORT = "infantry_support_weapons"
OPTIONS = (EXTRA, SUPPORT)

_ARMOR, _INF, _ART = frozenset({"armor"}), frozenset({"inf"}), frozenset({"art"})
_ANY = frozenset({"inf", "armor", "art"})
_LIGHT = frozenset({"reconnaissance", "vehicle"})  # vehicle: the ``veh`` prefix
_LIGHT_MEDIUM = _LIGHT | {"light_medium_armour", "infantry_tank"}
_NO_GRENADE = frozenset({"armor"})  # hit_by: armour symbols only ("Not effected by Grenade Hits")


@dataclass(frozen=True)
class UnitType:
    name: str  # snake_case of the 004 name (the option's value)
    label: str  # 004 name
    option: str  # EXTRA or SUPPORT
    base: frozenset[str]  # unit classes of the .m44 unit it may be given to
    spec: dict[str, Any]  # UnitSpec fields (all others: defaults)


def _t(name: str, label: str, option: str, base: frozenset[str], **spec: Any) -> UnitType:
    return UnitType(name, label, option, base, spec)


def _armour(**kw: Any) -> dict[str, Any]:
    """004 "Armour Movement": "Unless otherwise specified ... an Armoured Advance is 3
    hexes"; armour may advance and battle; Armour Overrun (take_ground 2)."""
    return {"unit_class": "armor", "figures": 3, "move": 3, "move_fire": 3, "take_ground": 2, **kw}


def _artillery(**kw: Any) -> dict[str, Any]:
    """004 "Artillery Movement": "may March 1 hex or Battle"; 2 models; no take ground."""
    return {"unit_class": "art", "figures": 2, "move": 1, "move_fire": 0, "take_ground": 0, **kw}


def _support(**kw: Any) -> dict[str, Any]:
    """004 "Basic Infantry Support Rules": "Infantry with 2 Figures ... Normal Infantry
    Movement Rules apply" (advance 1 and battle, or march 2); "the other Infantry Support
    Weapons are Artillery Units" (hit as artillery; 004 "Taking Ground": "An Artillery
    Unit may not take ground")."""
    return {
        "unit_class": "art",
        "move_class": "inf",
        "figures": 2,
        "move": 2,
        "move_fire": 1,
        "take_ground": 0,
        **kw,
    }


def _less_vs_armour(dice: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """ "May attack Armour with 1 less Battle Die"."""
    return (("armor", tuple(max(0, n - 1) for n in dice)),)


TYPES: dict[str, UnitType] = {
    t.name: t
    for t in (
        # --- Infantry Units -----------------------------------------------------------------
        _t(
            "militia",
            "Militia Infantry",
            EXTRA,
            _INF,
            # "2 Figures. May March 2 hexes or Battle. Battle Range is 2 hexes with 2, 1 Battle
            # Dice. ... may not make an Infantry Charge or Take Ground. The elimination of these
            # Units does not count towards the enemies Victory Points."
            unit_class="inf",
            figures=2,
            move=2,
            move_fire=0,
            dice=(2, 1),
            take_ground=0,
            medal_value=0,
        ),
        # --- Armoured Units -----------------------------------------------------------------
        _t(
            "reconnaissance",
            "Reconnaissance",
            EXTRA,
            _ARMOR,
            **_armour(
                figures=2,
                move=4,
                move_fire=4,
                dice=(2, 2),
                move_class="inf",
                targets_only=_INF | _ART | _LIGHT,
            ),
        ),
        _t(
            "light_medium_armour",
            "Light-Medium Armour",
            EXTRA,
            _ARMOR,
            **_armour(dice=(3, 2, 2), targets_only=_INF | _ART | _LIGHT_MEDIUM),
        ),
        _t("medium_armour", "Medium Armour", EXTRA, _ARMOR, **_armour(dice=(3, 3, 3))),
        _t(
            "heavy_armour",
            "Heavy Armour",
            EXTRA,
            _ARMOR,
            **_armour(figures=4, dice=(4, 4, 4, 4), hit_by=_NO_GRENADE),
        ),
        _t(
            "very_heavy_armour",
            "Very Heavy Armour",
            EXTRA,
            _ARMOR,
            **_armour(
                figures=4,
                move=2,
                move_fire=2,
                dice=(4, 4, 4, 4),
                hit_by=_NO_GRENADE,
                ignore_flags=1,
                must_ignore_flags=True,
                close_assaulted_by_inf=3,
                enter_only=frozenset({"open", "road", "bridge", "village"}),
                max_per_side=2,
            ),
        ),
        _t(
            "infantry_tank",
            "Infantry Tank",
            EXTRA,
            _ARMOR,
            **_armour(
                move=2,
                move_fire=2,
                dice=(3, 2, 2),
                hit_by=_NO_GRENADE,
                targets_only=_INF | _ART | _LIGHT_MEDIUM,
            ),
        ),
        _t(
            "assault_gun",
            "Assault Gun",
            EXTRA,
            _ARMOR,
            **_armour(dice=(3, 3, 3), dice_vs=(("armor", (2, 2, 2)),), close_assaulted_by_inf=3),
        ),
        _t(
            "tank_destroyer",
            "Tank Destroyer",
            EXTRA,
            _ARMOR,
            **_armour(
                dice=(2, 2, 2, 2), dice_vs=(("armor", (4, 4, 4, 4)),), close_assaulted_by_inf=3
            ),
        ),
        # --- Artillery Units ----------------------------------------------------------------
        _t(
            "medium_artillery",
            "Medium Artillery",
            EXTRA,
            _ART,
            **_artillery(dice=(3, 2, 2, 1), dice_vs=_less_vs_armour((3, 2, 2, 1))),
        ),
        _t(
            "heavy_artillery",
            "Heavy Artillery",
            EXTRA,
            _ART,
            **_artillery(
                dice=(3, 3, 2, 2, 1, 1),
                dice_vs=_less_vs_armour((3, 3, 2, 2, 1, 1)),
                needs_los=False,
                indirect_fire=True,
            ),
        ),
        _t(
            "big_gun",
            "Big-Gun Battery",
            EXTRA,
            _ART,
            **_artillery(
                dice=(3, 3, 3, 2, 2, 2, 1, 1), cross_hairs=3, needs_los=False, indirect_fire=True
            ),
        ),
        _t(
            "anti_tank_artillery",
            "Anti-Tank Artillery",
            EXTRA,
            _ART,
            **_artillery(dice=(2, 2, 2), dice_vs=(("armor", (4, 3, 3)),)),
        ),
        _t(
            "german_88",
            "German 88mm Anti-Tank Artillery",
            EXTRA,
            _ART,
            **_artillery(
                dice=(2, 2, 2, 2),
                dice_vs=(("armor", (4, 4, 4, 4)),),
                flag_faces=(("star", _ARMOR),),
            ),
        ),
        _t(
            "self_propelled_artillery",
            "Self-Propelled Artillery",
            EXTRA,
            _ART | _ARMOR,
            # "Indirect Firing Artillery & Armour ... March 2 hexes as Armour or Battles as
            # Artillery": battles and is hit as artillery, moves with the armour terrain rules.
            **_artillery(
                move=2,
                move_class="armor",
                dice=(3, 2, 2, 1),
                dice_vs=_less_vs_armour((3, 2, 2, 1)),
                needs_los=False,
                indirect_fire=True,
            ),
        ),
        _t(
            "rocket_artillery",
            "Rocket Artillery",
            EXTRA,
            _ART,
            **_artillery(
                move=2, dice=(4, 4, 4, 4), needs_los=False, indirect_fire=True, max_per_side=1
            ),
        ),
        # --- Infantry Support Weapons (Optional) --------------------------------------------
        _t(
            "anti_tank_infantry",
            "Anti-Tank Infantry",
            SUPPORT,
            _INF,
            **_support(dice=(2, 1), dice_vs=(("armor", (3, 2)),)),
        ),
        _t(
            "machine_gun",
            "Machine-Gun Infantry",
            SUPPORT,
            _INF,
            # "4, 3, 2 Battle Dice against Infantry Unit or 1 against a Light Armour Unit when
            # in Close Assault only" (Light Armour read as Reconnaissance and Light-Medium).
            **_support(
                dice=(4, 3, 2),
                targets_only=_INF | _LIGHT_MEDIUM,
                dice_vs=tuple((k, (1,)) for k in sorted(_LIGHT_MEDIUM)),
            ),
        ),
        _t(
            "flame_thrower",
            "Flame-Thrower Infantry",
            SUPPORT,
            _INF,
            unit_class="inf",
            figures=2,
            move=2,
            move_fire=1,
            dice=(3,),
            ignore_terrain_defense=True,
            flag_faces=(("star", _ANY),),
            max_per_side=1,
        ),
        _t(
            "mortar",
            "Mortar Infantry",
            SUPPORT,
            _INF,
            **_support(
                dice=(3, 2, 1),
                targets_only=_INF | _ART,
                needs_los=False,
                indirect_fire=True,
                ignore_terrain_defense=True,
                flag_faces=(("grenade", _ANY),),
                never_enter=frozenset({"bunker", "fortress"}),
            ),
        ),
    )
}


def _err(message: str, **details: Any) -> EngineError:
    return EngineError("invalid_option_value", message, **details)


def check_value(name: str, value: Any) -> None:
    """Shape of the option's value: ``true`` or ``{"row,col" | unit code: type name}``
    with type names of this option (code ``invalid_option_value``)."""
    if value is True:
        return
    if not isinstance(value, dict):
        raise _err(
            f"{name}: expected true or a mapping of hexes / unit codes to types", option=name
        )
    for key, tname in value.items():
        t = TYPES.get(tname) if isinstance(tname, str) else None
        if not isinstance(key, str) or t is None or t.option != name:
            raise _err(f"{name}: unknown unit type {tname!r} for {key!r}", option=name, entry=key)


def hex_key(key: str) -> tuple[int, int] | None:
    parts = key.split(",")
    if len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def assignments(options: dict[str, Any], units: list[tuple[str, Any]]) -> dict[str, str]:
    """Unit id -> type name for ``units`` ((id, Unit) at game start).  Raises
    ``invalid_option_value`` naming the entry: a hex without a unit, a code no unit has,
    a type of the wrong class for the unit, more than the per-side limit."""
    by_hex: dict[tuple[int, int], str] = {}
    by_code: dict[str, str] = {}
    for name in OPTIONS:
        value = options.get(name)
        if not isinstance(value, dict):
            continue
        for key, tname in value.items():
            h = hex_key(key)
            if (h in by_hex) if h is not None else (key in by_code):
                raise _err(f"{key!r} is given a type by both unit-type options", entry=key)
            if h is not None:
                by_hex[h] = tname
            else:
                by_code[key] = tname
    if not by_hex and not by_code:
        return {}
    out: dict[str, str] = {}
    check_entries(by_hex, by_code, units)
    for uid, u in units:
        tname = by_hex.get(u.hex) or by_code.get(u.spec.code)
        if tname is None:
            continue
        entry = f"{u.hex[0]},{u.hex[1]}" if u.hex in by_hex else u.spec.code
        if u.spec.unit_class not in TYPES[tname].base or u.spec.train or u.spec.kind == "destroyer":
            raise _err(
                f"{TYPES[tname].label} cannot be given to {u.spec.name} ({entry})",
                entry=entry,
                type=tname,
            )
        out[uid] = tname
    _check_limits(out, units)
    return out


def check_entries(
    by_hex: dict[tuple[int, int], Any], by_code: dict[str, Any], units: list[tuple[str, Any]]
) -> None:
    """Every hex entry names a unit's start hex, every code entry a unit's code
    (``invalid_option_value`` naming the entry; also used by option ``demoralisation``)."""
    hexes = {u.hex for _, u in units}
    for h in by_hex:
        if h not in hexes:
            raise _err(f"no unit at hex {h[0]},{h[1]}", entry=f"{h[0]},{h[1]}")
    codes = {u.spec.code for _, u in units}
    for code in by_code:
        if code not in codes:
            raise _err(f"no unit with code {code!r}", entry=code)


def _check_limits(out: dict[str, str], units: list[tuple[str, Any]]) -> None:
    """004 "Rocket Artillery": "A player may have only one of these"; "Flame-Thrower":
    "only one Flame-Thrower Unit on the Board"; "Very Heavy Armour": "two at the absolute
    maximum"."""
    side_of = dict((uid, u.side) for uid, u in units)
    count: dict[tuple[str, str], int] = {}
    for uid, tname in out.items():
        k = (side_of[uid], tname)
        count[k] = count.get(k, 0) + 1
        limit = TYPES[tname].spec.get("max_per_side", 0)
        if limit and count[k] > limit:
            raise _err(
                f"{k[0]} may have at most {limit} {TYPES[tname].label} unit(s)",
                entry=tname,
                side=k[0],
            )


def typed_spec(spec: UnitSpec, tname: str) -> UnitSpec:
    """The unit's profile as a 004 type: identity fields kept (code, nation, side, badge,
    equipment, behaviour); every profile field from the type row or the default."""
    t = TYPES[tname]
    fields = dict(t.spec)
    fields.setdefault("unit_class", spec.unit_class)
    return UnitSpec(
        code=spec.code,
        kind=tname,
        nation=spec.nation,
        side=spec.side,
        name=f"{t.label} ({_NATION_NAMES.get(spec.nation, spec.nation)})",
        badge=spec.badge,
        equipment=spec.equipment,
        behavior=spec.behavior,
        badge_nation=spec.badge_nation,
        **fields,
    )


def apply_types(st: Any) -> None:
    """Give the mapped units their 004 type (game start, :func:`engine.rulesets.m44.game.new_game`).
    A unit at the scenario's full strength gets the type's figures; a weaker one keeps
    its figures (at most the type's).  ``st.ext["unit_types"]`` records (id, type)
    pairs (a hashable signature for the rules' memo keys)."""
    out = assignments(st.options, list(st.units.items()))
    if not out:
        return
    for uid, tname in out.items():
        u = st.units[uid]
        spec = typed_spec(u.spec, tname)
        full = u.figures >= u.spec.figures
        u.spec = spec
        u.figures = spec.figures if full else min(u.figures, spec.figures)
        u.max_figures = spec.figures
    st.ext = {**(st.ext or {}), "unit_types": tuple(sorted(out.items()))}


def signature(st: Any) -> tuple[Any, ...] | None:
    """The game's unit-type assignment (None without one), for memo keys."""
    return st.ext.get("unit_types") if st.ext else None


def dice_table(spec: UnitSpec, target: UnitSpec) -> tuple[int, ...] | None:
    """The dice-by-range row ``spec`` uses against ``target`` when its profile names one
    for the target's kind or class (004 "3 Battle Dice against Infantry/Artillery or 2
    Battle Dice against Armour"); None: the unit's ``dice``."""
    for key, row in spec.dice_vs:
        if key == target.kind or key == target.unit_class:
            return row
    return None


def extra_flags(spec: UnitSpec, faces: list[str], target_class: str) -> int:
    """Faces that also count as flags (004 88mm: "A Green Star against Armour also counts
    as a Purple Flag"; Flame-Thrower: "treats Star results as additional Purple Flags";
    Mortar: "Red Grenade Hits count as Purple Flags")."""
    n = 0
    for face, classes in spec.flag_faces:
        if target_class in classes:
            n += faces.count(face)
    return n


def hex_families(t: Any) -> frozenset[str]:
    """Terrain families of a hex (no tile: ``open``; a bridged river counts as bridge)."""
    fams = {tile.spec.family for tile in t.tiles}
    if t.bridge:
        fams.discard("river")
    return frozenset(fams) or frozenset({"open"})


def may_enter(spec: UnitSpec, t: Any) -> bool:
    """004 "Very Heavy Armour": "Advances upto 2 hexes in Open, Road, Bridge, or Towns &
    Villages Terrain only"; "Mortars may not occupy Bunkers"."""
    fams = hex_families(t)
    if spec.enter_only is not None and not fams <= spec.enter_only:
        return False
    return not (fams & spec.never_enter)


__all__ = [
    "TYPES",
    "UnitType",
    "check_value",
    "assignments",
    "apply_types",
    "typed_spec",
    "dice_table",
    "extra_flags",
    "may_enter",
    "signature",
]
