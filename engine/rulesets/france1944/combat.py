"""001 "Combat Resolution": one pure function per numbered step of the text.

Rule numbers are the text's (1: the die roll and its clamp, 2: combat modifier and
column shifts, 3: excess shifts as a die-roll modifier, 4: morale modifier, 5: control
modifier), plus the clarification "Morale Adjustment" and the first recommendation
(attacks below 1-4 refused; the attacker may use a lower odds column).

:func:`assess` puts the steps together for one declared combat (everything known
before the die) and :func:`resolve` adds the die.  Both return plain dicts whose
``steps`` explain every number (a ``step`` name and its numbers: the client words them in the
reader's language) and whose ``lines`` say the same in English (:func:`explain`).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from .tables import (
    ADJUSTMENT_MAX,
    ADJUSTMENT_MIN,
    ALTERNATIVE_RR5_SET_PIECE,
    COMBAT_TABLE,
    HIGHEST,
    LOWEST,
    MORALE_MAX,
    MORALE_MIN,
    ODDS,
    ODDS_LABELS,
    RATIO_RESULT_MAX,
)


def odds_column(attack: int, defence: int) -> int | None:
    """Standard odds: attack : defence rounded in the defender's favour to a column.

    The highest column ``a-d`` with ``attack * d >= defence * a``; odds above 4-1 use
    the 4-1 column (the text adds no shifts for them); ``None`` below 1-4."""
    best = None
    for i, (a, d) in enumerate(ODDS):
        if attack * d >= defence * a:
            best = i
    return best


def refuse_below_one_to_four(attack: int, defence: int) -> int:
    """First recommendation: "prohibit attacks at less than 1:4 odds"."""
    col = odds_column(attack, defence)
    if col is None:
        raise IllegalAction(
            "odds_below_1_4", f"{attack} against {defence} is below 1-4: the attack is refused"
        )
    return col


def chosen_odds_column(computed: int, chosen: int | None, allowed: bool) -> int:
    """First recommendation (option ``attacker_may_choose_lower_odds``): "allow the
    attacker to use any odds column less than or equal to the computed odds ratio"."""
    if chosen is None or chosen == computed:
        return computed
    if not allowed:
        raise IllegalAction(
            "lower_odds_not_allowed",
            "choosing an odds column needs option attacker_may_choose_lower_odds",
        )
    if not LOWEST <= chosen <= computed:
        raise IllegalAction(
            "odds_column_too_high",
            f"{ODDS_LABELS[chosen]} is above the computed {ODDS_LABELS[computed]}",
        )
    return chosen


def terrain_morale_adjustment(terrain: list[int]) -> int:
    """Clarification "Morale Adjustment": "only the most favorable morale modifier
    (either +1 or +2) provided by the terrain" (fortress + city = +2, never +3)."""
    return max(terrain, default=0)


def defender_morale_adjustment(
    terrain: list[int], armoured_79th: int, heavy_bombing: int, air_power: int = 0
) -> int:
    """The best terrain adjustment plus the cumulative 79th Armoured / heavy bombing
    (and air power) adjustments, kept within "worst -3 and best +2"."""
    total = terrain_morale_adjustment(terrain) + armoured_79th + heavy_bombing + air_power
    return max(ADJUSTMENT_MIN, min(ADJUSTMENT_MAX, total))


def adjusted_defender_morale(morale: int, adjustment: int) -> int:
    """Rule 4: "The morale of a defender may not be adjusted to a value greater than 6
    or less than 1 by terrain, air power, or other adjustment"."""
    return max(MORALE_MIN, min(MORALE_MAX, morale + adjustment))


def morale_modifier(attacker_morale: int, defender_morale: int) -> int:
    """Rule 4: "subtracting the defender morale (after all adjustments) from the
    attacker morale"."""
    return attacker_morale - defender_morale


def control_modifier(attacking_units: int, control_limit: int) -> int:
    """Rule 5: "the number of attacking units involved in a combat minus the control
    limit", never positive (HQ units are not counted: the caller passes combat units)."""
    return min(0, control_limit - attacking_units)


def combat_modifier(morale_mod: int, control_mod: int) -> int:
    """Rule 2: "adding the morale and control modifiers"."""
    return morale_mod + control_mod


def shift_column(column: int, modifier: int) -> tuple[int, int]:
    """Rules 2 and 3: ``modifier`` column shifts (right when positive); shifts beyond
    4-1 or 1-4 become a die-roll modifier.  Returns (final column, die modifier)."""
    target = column + modifier
    if target > HIGHEST:
        return HIGHEST, target - HIGHEST
    if target < LOWEST:
        return LOWEST, target - LOWEST
    return target, 0


def adjusted_die_roll(die: int, modifier: int) -> int:
    """Rule 1: "Adjusted die rolls greater than 6 are treated as 6 and results lower
    than 1 are treated as 1"."""
    return max(1, min(6, die + modifier))


def table_result(die: int, column: int) -> str:
    """Table 1: the two letters of the cell (set-piece, mobile)."""
    return COMBAT_TABLE[die - 1][column]


def result_letter(cell: str, mobile: bool) -> str:
    """Table 3 heading: first letter set-piece combat, second letter mobile combat."""
    return cell[1] if mobile else cell[0]


def alternative_crdt_reference(ratio_result: int) -> dict[str, Any]:
    """Alternative CRDT: "use the result columns for the ratio result one greater ...
    but retain the defender morale reference column"; ratio result 5 uses its
    adjusted rows."""
    if ratio_result >= RATIO_RESULT_MAX:
        return {
            "ratio_result": ratio_result,
            "morale_reference": ratio_result,
            "result_columns": ratio_result,
            "adjusted_rows": list(ALTERNATIVE_RR5_SET_PIECE),
        }
    return {
        "ratio_result": ratio_result,
        "morale_reference": ratio_result,
        "result_columns": ratio_result + 1,
        "adjusted_rows": None,
    }


def _signed(n: int) -> str:
    return f"{n:+d}"


def assess(
    decl: dict[str, Any],
    control_limits: dict[int, int],
    lower_odds_allowed: bool,
    air_power: int = 0,
    revised: bool = True,
) -> dict[str, Any]:
    """Everything the text computes before the die, for one declaration, with the
    explanation lines.  Raises ``IllegalAction`` for a refused attack.

    ``revised=False`` (option ``alternative_crdt``): the original CRT and the
    Alternative CRDT are used "without any additional rule changes", so no combat
    modifier and no column shift: the die is read unmodified in the odds column."""
    attack, defence = decl["attack_strength"], decl["defence_strength"]
    computed = refuse_below_one_to_four(attack, defence)
    column = chosen_odds_column(computed, decl.get("odds_column"), lower_odds_allowed)
    limit = control_limits.get(decl["attacker_morale"])
    if limit is None and revised:
        raise IllegalAction(
            "no_control_limit",
            f"no control limit entered for attacker morale "
            f"{decl['attacker_morale']} (session option control_limits)",
        )
    adjustment = defender_morale_adjustment(
        decl["terrain"], decl["armoured_79th"], decl["heavy_bombing"], air_power
    )
    d_morale = adjusted_defender_morale(decl["defender_morale"], adjustment)
    m_mod = morale_modifier(decl["attacker_morale"], d_morale)
    units = len(decl["attackers"])
    c_mod = control_modifier(units, limit) if revised and limit is not None else 0
    modifier = combat_modifier(m_mod, c_mod) if revised else 0
    final, drm = shift_column(column, modifier)
    odds = ODDS_LABELS
    terrain = terrain_morale_adjustment(decl["terrain"])
    raw = terrain + decl["armoured_79th"] + decl["heavy_bombing"] + air_power
    kept = d_morale if d_morale != decl["defender_morale"] + adjustment else None
    steps: list[dict[str, Any]] = [
        {"step": "odds", "attack": attack, "defence": defence, "odds": odds[computed]}
    ]
    if column != computed:
        steps.append({"step": "lower_column", "odds": odds[column]})
    steps.append(
        {
            "step": "morale_adjustment",
            "terrain": terrain,
            "armoured_79th": decl["armoured_79th"],
            "heavy_bombing": decl["heavy_bombing"],
            "air_power": air_power,
            "total": raw,
            "kept": adjustment if raw != adjustment else None,
        }
    )
    steps.append(
        {
            "step": "defender_morale",
            "morale": decl["defender_morale"],
            "adjustment": adjustment,
            "total": decl["defender_morale"] + adjustment,
            "kept": kept,
        }
    )
    if not revised:
        steps.append(
            {
                "step": "original_crt",
                "odds": odds[column],
                "attacker_morale": decl["attacker_morale"],
                "defender_morale": d_morale,
            }
        )
        return _assessment(computed, column, limit, adjustment, d_morale, 0, 0, 0, column, 0, steps)
    steps.append(
        {
            "step": "morale_modifier",
            "attacker_morale": decl["attacker_morale"],
            "defender_morale": d_morale,
            "modifier": m_mod,
        }
    )
    steps.append(
        {
            "step": "control_modifier",
            "units": units,
            "hqs": len(decl["hqs"]),
            "limit": limit,
            "attacker_morale": decl["attacker_morale"],
            "modifier": c_mod,
        }
    )
    steps.append(
        {
            "step": "combat_modifier",
            "morale_modifier": m_mod,
            "control_modifier": c_mod,
            "modifier": modifier,
            "from": odds[column],
            "to": odds[final],
        }
    )
    if drm:
        steps.append({"step": "excess_shifts", "odds": odds[final], "modifier": drm})
    return _assessment(
        computed, column, limit, adjustment, d_morale, m_mod, c_mod, modifier, final, drm, steps
    )


def explain(step: dict[str, Any]) -> str:
    """One step of an assessment or a resolution in English words (the log's ``lines``;
    the client words each step from its name in the reader's language)."""
    c = step["step"]
    if c == "odds":
        return (
            f"Odds {step['attack']} : {step['defence']} -> {step['odds']} "
            "(rounded in the defender's favour)"
        )
    if c == "lower_column":
        return f"Attacker uses the lower column {step['odds']}"
    if c == "morale_adjustment":
        parts = [f"terrain {_signed(step['terrain'])} (best only)"]
        for label, key in (
            ("79th Armoured", "armoured_79th"),
            ("heavy bombing", "heavy_bombing"),
            ("air power", "air_power"),
        ):
            if step[key]:
                parts.append(f"{label} {_signed(step[key])}")
        kept = step["kept"]
        return f"Defender morale adjustment: {', '.join(parts)} = {_signed(step['total'])}" + (
            f", kept within -3..+2: {_signed(kept)}" if kept is not None else ""
        )
    if c == "defender_morale":
        kept = step["kept"]
        return (
            f"Defender morale {step['morale']} {_signed(step['adjustment'])} = {step['total']}"
            + (f", kept within 1..6: {kept}" if kept is not None else "")
        )
    if c == "original_crt":
        return (
            f"Original CRT at {step['odds']} with the die; Alternative CRDT with attacker "
            f"morale {step['attacker_morale']} and defender morale {step['defender_morale']}"
        )
    if c == "morale_modifier":
        return (
            f"Morale modifier: attacker {step['attacker_morale']} - defender "
            f"{step['defender_morale']} = {_signed(step['modifier'])}"
        )
    if c == "control_modifier":
        hqs = f" ({step['hqs']} HQ not counted)" if step["hqs"] else ""
        return (
            f"Control modifier: {step['units']} attacking units{hqs}, control limit "
            f"{step['limit']} (morale {step['attacker_morale']}) -> {_signed(step['modifier'])}"
        )
    if c == "combat_modifier":
        m = step["modifier"]
        return (
            f"Combat modifier {_signed(step['morale_modifier'])} "
            f"{_signed(step['control_modifier'])} = {_signed(m)}: {abs(m)} column shift(s) "
            f"{'right' if m >= 0 else 'left'}, {step['from']} -> {step['to']}"
        )
    if c == "excess_shifts":
        return f"Excess shifts beyond {step['odds']}: die roll modifier {_signed(step['modifier'])}"
    if c == "die":
        if not step["modifier"]:
            return f"Die {step['die']}"
        treated = step["adjusted"] if step["adjusted"] != step["total"] else None
        return f"Die {step['die']} {_signed(step['modifier'])} = {step['total']}" + (
            f", treated as {treated}" if treated is not None else ""
        )
    return (  # "table"
        f"Table 1, roll {step['row']}, column {step['odds']}: {step['cell']} -> "
        f"{step['result']} ({'mobile' if step['mobile'] else 'set-piece'} combat)"
    )


def _assessment(
    computed: int,
    column: int,
    limit: int | None,
    adjustment: int,
    d_morale: int,
    m_mod: int,
    c_mod: int,
    modifier: int,
    final: int,
    drm: int,
    steps: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "computed_column": computed,
        "column": column,
        "control_limit": limit,
        "morale_adjustment": adjustment,
        "defender_morale": d_morale,
        "morale_modifier": m_mod,
        "control_modifier": c_mod,
        "combat_modifier": modifier,
        "final_column": final,
        "die_modifier": drm,
        "odds": ODDS_LABELS[computed],
        "final_odds": ODDS_LABELS[final],
        "steps": steps,
        "lines": [explain(x) for x in steps],
    }


def resolve(assessment: dict[str, Any], die: int, mobile: bool) -> dict[str, Any]:
    """Rule 1 and Table 1: the die, its modifier and clamp, the cell and the letter."""
    adjusted = adjusted_die_roll(die, assessment["die_modifier"])
    cell = table_result(adjusted, assessment["final_column"])
    letter = result_letter(cell, mobile)
    drm = assessment["die_modifier"]
    steps = [
        {"step": "die", "die": die, "modifier": drm, "total": die + drm, "adjusted": adjusted},
        {
            "step": "table",
            "row": adjusted,
            "odds": assessment["final_odds"],
            "cell": cell,
            "result": letter,
            "mobile": mobile,
        },
    ]
    return {
        "die": die,
        "adjusted_die": adjusted,
        "cell": cell,
        "result": letter,
        "row": adjusted,
        "steps": steps,
        "lines": [explain(x) for x in steps],
    }
