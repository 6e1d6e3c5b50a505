"""The tables of the France 1944 Revisions (001) as data.

Table 1 (the Revised Combat Table) lost its cells in the copy of the text; the cells
below are the ones published with the revisions (France 1944 Revisions 2.0.6): one row
per die roll 1..6, one column per odds column 1-4 .. 4-1, two result letters per cell,
the first for set-piece combat and the second for mobile combat (the heading of the
text's Table 3).  The issue notes that the cells follow the diagonal (a cell equals the
cell one row up and one column right) except roll 6 / 1-1, printed ``"DB"`` where the
diagonal neighbour (roll 5 / 3-2) is ``"DF"``: it is kept as published
(``PUBLISHED_ANOMALIES``).  Checked cell by cell, the diagonal also differs at roll 2 /
3-1 (BB, neighbour BD) and roll 4 / 2-3 (BB, neighbour AE); those cells are kept as
published too (tests/engine/test_france1944_combat.py pins all three).

Table 2 (the Control Limit Table) is not available: the text gives one point of it
(rule 5: "an attacker with a morale of 5 (control limit of 8)").  The players enter the
limits of their edition at session creation (option ``control_limits``), prefilled with
that value (``DEFAULT_CONTROL_LIMITS``).

The letters' meanings come from the original game's result table, which no text here
gives: a session may attach its own meaning table (option ``result_meanings``).
"""

from __future__ import annotations

# Odds columns of Table 1, left to right, as (attack, defence) ratios.
ODDS: tuple[tuple[int, int], ...] = (
    (1, 4),
    (1, 3),
    (1, 2),
    (2, 3),
    (1, 1),
    (3, 2),
    (2, 1),
    (3, 1),
    (4, 1),
)
ODDS_LABELS: tuple[str, ...] = tuple(f"{a}-{d}" for a, d in ODDS)
LOWEST = 0  # 1-4
HIGHEST = len(ODDS) - 1  # 4-1

_ROWS = """
AA AA AA AA AE AE AE BB BD
AA AA AA AE AE AE BB BB DF
AA AA AE AE AE BB BB DF DF
AA AE AE BB BB BB DF DF CC
AE AE BB BB BB DF DF CC CC
AE BB BB BB DB DF CC CC CC
"""

# COMBAT_TABLE[die - 1][column] -> two letters (set-piece, mobile)
COMBAT_TABLE: tuple[tuple[str, ...], ...] = tuple(
    tuple(line.split()) for line in _ROWS.strip().splitlines()
)

# Cells printed differently from the diagonal pattern: (die, column label) -> note.
PUBLISHED_ANOMALIES: dict[tuple[int, str], str] = {
    (6, "1-1"): "printed DB on the published page where the diagonal neighbour "
    "(roll 5 / 3-2) is DF; kept as published",
}

RESULT_LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")

MORALE_MIN, MORALE_MAX = 1, 6  # rule 4: defender morale kept within 1..6
ADJUSTMENT_MIN, ADJUSTMENT_MAX = -3, 2  # clarification: worst -3, best +2
TERRAIN_ADJUSTMENTS = (1, 2)  # clarification: terrain gives +1 or +2, best only
MAX_ATTACKING_UNITS = 8  # rule 5: "the maximum number of attacking units
# that can be involved in a combat is 8"
DEFAULT_CONTROL_LIMITS: dict[int, int] = {5: 8}  # rule 5: morale 5 -> control limit 8

# Reaction Phase (001 "Reaction Point Expenditure"): spend 3 points or none.
SEGMENT_TOTAL = 3
ARMY_REACTION_COST = 3  # example 1: "an Army Reaction Phase, spending 3 points"
SINGLE_PIECE_COST = 1  # example 2: "1 reaction point for a Single-Piece Reaction"
MAX_SINGLE_PIECE_PHASES = 3  # clarification: "up to three Single-Piece Reaction Phases"
HQ_ACTIVATIONS_PER_TURN = 2  # official errata: "not ... more than twice per game turn"

# Alternative CRDT: ratio results of the original CRT (the highest is 5, whose rows the
# text adjusts: "the ratio result 5 set-piece combat rows become D D D D D C and
# A A A A A B").
RATIO_RESULT_MIN, RATIO_RESULT_MAX = 1, 5
ALTERNATIVE_RR5_SET_PIECE = ("D D D D D C", "A A A A A B")


def table_rows() -> list[list[str]]:
    """Table 1 as JSON-able rows (die 1..6)."""
    return [list(row) for row in COMBAT_TABLE]
