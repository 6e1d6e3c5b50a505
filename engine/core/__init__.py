"""Core of the engine: what every rule system shares and no rule system owns.

The seeded RNG (``rng``) and dice (``dice``), the error hierarchy (``errors``), the ruleset
protocol and registry (``ruleset``), board geometries (``geometry``: the hex boards of
``.m44``; ``grid``: a square grid), terrain and unit tables as data (``terrain``,
``terrain_table``, ``units``, ``unit_types``, ``conditions``), ``.m44`` scenario loading
(``scenario``, ``scenario_model``), line of sight (``los``) and text boards
(``textboard``).  Nothing here imports a ruleset or a procedure.
"""
