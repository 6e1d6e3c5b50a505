"""Battle dice: six faces (infantry x2, armor, grenade, star, flag) and hit reading.

Vocabulary section 6: infantry symbol hits infantry-class units, armor symbol hits
armor-class units, grenade hits anything, star misses unless the firer or the card
gives star hits, flag = one retreat step.  A target with ``UnitSpec.hit_by`` (sniper:
grenades only) is hit only by those faces plus the firer's star powers.
"""

from __future__ import annotations

from .rng import Rng

FACES: tuple[str, ...] = ("inf", "inf", "armor", "grenade", "star", "flag")
FACE_NAMES = frozenset(FACES)
SYMBOL_OF_CLASS = {"inf": "inf", "armor": "armor", "art": None}


def roll(rng: Rng, n: int) -> list[str]:
    """``n`` independent uniform dice from the state RNG (advances it ``n`` draws)."""
    return [FACES[rng.below(6)] for _ in range(n)]


def sample(rng: Rng, n: int) -> list[str]:
    """Like :func:`roll` but without advancing ``rng`` (for ``sample_chance``)."""
    return [FACES[rng.peek(i) % 6] for i in range(n)]


def is_hit(
    face: str, target_class: str, hit_by: frozenset[str] | None, star_hits: frozenset[str] | bool
) -> bool:
    """Does one die face score a hit on a target of ``target_class``?

    ``star_hits`` is the set of target classes the firer's stars hit (or True for any).
    """
    if face == "star":
        return star_hits is True or (isinstance(star_hits, frozenset) and target_class in star_hits)
    if face == "flag":
        return False
    if hit_by is not None and face not in hit_by:
        return False
    return face == "grenade" or face == SYMBOL_OF_CLASS.get(target_class)


def count(
    dice: list[str],
    target_class: str,
    hit_by: frozenset[str] | None,
    star_hits: frozenset[str] | bool,
    ignore_grenades: bool = False,
) -> tuple[int, int]:
    """(hits, flags) of a roll against one target."""
    hits = flags = 0
    for f in dice:
        if f == "flag":
            flags += 1
        elif ignore_grenades and f == "grenade":
            continue
        elif is_hit(f, target_class, hit_by, star_hits):
            hits += 1
    return hits, flags
