"""The seeded, serialisable random source carried inside a game state.

splitmix64 keyed by ``(seed, counter)``: draw number ``n`` is a pure function of the
seed and ``n``, so the RNG state is just two integers (cheap to clone, pickle and
compare) and replaying the same actions from the same seed reproduces every draw.
"""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """One splitmix64 output for the 64-bit input ``x``."""
    z = (x + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """``seed`` + draw ``counter``; :meth:`below` advances the counter by one."""

    __slots__ = ("seed", "counter")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = int(seed) & _MASK
        self.counter = counter

    def peek(self, n: int) -> int:
        """Raw 64-bit value of draw number ``counter + n`` (does not advance)."""
        return splitmix64((self.seed + (self.counter + n) * _GOLDEN) & _MASK)

    def below(self, bound: int) -> int:
        """Uniform integer in ``[0, bound)``; advances the counter."""
        v = self.peek(0) % bound
        self.counter += 1
        return v

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "Rng":
        return Rng(self.seed, self.counter)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.counter) == (other.seed, other.counter)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, counter={self.counter})"
