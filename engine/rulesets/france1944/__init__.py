"""France 1944 revised combat (001): a neutral referee ruleset for remote players of
Victory Games' France 1944.  Imports only ``engine.core``."""

from ...core.ruleset import register
from .ruleset import France1944

RULESET = register(France1944())
