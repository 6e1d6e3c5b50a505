"""The value of option ``campaign`` (004 Simplified Campaign Rules) and the pre-battle
dice count of a campaign battle (no game state: the registry and the server use them)."""

from __future__ import annotations

from typing import Any

from ....core.errors import EngineError

SIDES = ("AXIS", "ALLIES")
MAX_DICE = 20


def prebattle_dice(victory_points: int, campaign_wins: int) -> int:
    """004: "each player rolls Battle Dice equal to the number of Victory Points won in the
    previous game. As a Victory Bonus, each player rolls 1 additional Battle Die for each
    Victory he has won in the Campaign." (capped at 20)."""
    return min(MAX_DICE, max(0, int(victory_points)) + max(0, int(campaign_wins)))


def check_campaign(name: str, value: Any) -> None:
    """``{"AXIS": n, "ALLIES": m}`` with whole numbers 0..20."""
    if (
        not isinstance(value, dict)
        or not value
        or any(
            k not in SIDES
            or not isinstance(n, int)
            or isinstance(n, bool)
            or not 0 <= n <= MAX_DICE
            for k, n in value.items()
        )
    ):
        raise EngineError(
            "invalid_option_value",
            f'{name}: {{"AXIS": dice, "ALLIES": dice}} (0..{MAX_DICE} each)',
            entry=name,
        )
