"""Core of the engine: what every rule system shares and no rule system owns.

The seeded RNG (``rng``), the error hierarchy (``errors``) and the ruleset protocol and
registry (``ruleset``).  Nothing here imports a ruleset or a procedure.
"""
