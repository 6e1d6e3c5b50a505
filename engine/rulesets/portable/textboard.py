"""Draw a 3x3 Portable Wargame position as text and get a REAL state (test helper).

Five lines, top to bottom: RED's Reserve Area (``r:``), ranks 3, 2, 1 (three tokens
each, files a b c; an optional leading rank digit is ignored), BLUE's Reserve Area
(``R:``)::

    r: f
    3  .     .:fe     W:m
    2  .     .        .
    1  H:F   B:F,A,G  .
    R:

A grid token is ``TERRAIN[:PIECES]``: terrain ``.`` open, ``H`` hill, ``B`` built-up
area, ``W`` wood; pieces separated by commas: ``f`` foot, ``m`` mounted, ``a``
artillery, ``g`` the General; lowercase RED (top), uppercase BLUE (bottom); then an
optional quality letter ``e``/``a``/``p`` (elite / average / poor, default average)
and an optional SP digit (default 2).  Pieces get ids in reading order (``r1``, ``r2``,
..., ``rG``; ``b1``...); units not drawn stay off the board (not lost unless listed in
``lost``).  :func:`position` returns a state in the activation phase of ``active``.
"""

from __future__ import annotations

from typing import Any

from .rules import new_game, settle
from .state import GRID_AREAS, RESERVE, SIDES, State, Unit, name_of
from .turn import start_phase

TERRAIN = {".": None, "H": "hill", "B": "built_up", "W": "wood"}
TYPES = {"f": "foot", "m": "mounted", "a": "artillery", "g": "general"}
QUALITY = {"e": "elite", "a": "average", "p": "poor"}


def parse(text: str) -> tuple[dict[str, str], list[tuple[str, str, str, str, int]]]:
    """-> (terrain by area, pieces as (area, side, type, quality, sp))."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) != 5:
        raise ValueError("draw 5 lines: r:, rank 3, rank 2, rank 1, R:")
    terrain: dict[str, str] = {}
    pieces: list[tuple[str, str, str, str, int]] = []
    for i, line in enumerate(lines):
        if i in (0, 4):
            head, _, rest = line.partition(":")
            side = "RED" if i == 0 else "BLUE"
            for tok in rest.replace(",", " ").split():
                pieces.append(_piece(RESERVE[side], tok))
            continue
        toks = line.split()
        if toks and toks[0].isdigit():
            toks = toks[1:]
        if len(toks) != 3:
            raise ValueError(f"rank line needs 3 tokens: {line!r}")
        y = 3 - i
        for x, tok in enumerate(toks):
            area = name_of((x, y))
            ter, _, ps = tok.partition(":")
            feat = TERRAIN[ter]
            if feat:
                terrain[area] = feat
            for p in filter(None, ps.split(",")):
                pieces.append(_piece(area, p))
    return terrain, pieces


def _piece(area: str, tok: str) -> tuple[str, str, str, str, int]:
    side = "RED" if tok[0].islower() else "BLUE"
    typ = TYPES[tok[0].lower()]
    rest = tok[1:]
    quality = "average"
    if rest and rest[0] in QUALITY:
        quality, rest = QUALITY[rest[0]], rest[1:]
    sp = int(rest) if rest else 2
    return area, side, typ, "-" if typ == "general" else quality, sp


def position(
    text: str,
    *,
    active: str = "BLUE",
    activations: int = 6,
    turn: int = 2,
    attacker: str = "BLUE",
    river: str | None = None,
    first: str | None = None,
    options: dict[str, Any] | None = None,
    lost: dict[str, int] | None = None,
    seed: int = 1,
) -> State:
    terrain, pieces = parse(text)
    st = new_game(seed, options)
    units: dict[str, Unit] = {}
    count = {s: 0 for s in SIDES}
    for area, side, typ, quality, sp in pieces:
        p = side[0].lower()
        if typ == "general":
            uid = f"{p}G"
        else:
            count[side] += 1
            uid = f"{p}{count[side]}"
        units[uid] = Unit(uid, side, typ, quality, f"{quality} {typ}", sp, area)
    for side in SIDES:
        p = side[0].lower()
        for k in range(count[side] + 1, 7):
            gone = k - count[side] <= (lost or {}).get(side, 0)
            units[f"{p}{k}"] = Unit(
                f"{p}{k}", side, "foot", "average", "off board", 0 if gone else 2, None, lost=gone
            )
        if f"{p}G" not in units:
            units[f"{p}G"] = Unit(f"{p}G", side, "general", "-", "General", 2, None)
    st.units = dict(sorted(units.items(), key=lambda kv: (kv[0][0] != "r", kv[0])))
    st.terrain, st.river, st.attacker, st.turn = terrain, river, attacker, turn
    st.first = first or active
    st.dice = {s: activations for s in SIDES}
    ev: list[dict[str, Any]] = []
    start_phase(st, active, ev)
    settle(st, ev)
    return st


def draw(st: State) -> str:
    """The inverse of :func:`parse` (terrain and pieces; ids not shown)."""
    inv_t = {v: k for k, v in TERRAIN.items()}
    inv_q = {v: k for k, v in QUALITY.items()}

    def tok(area: str) -> str:
        ps = []
        for u in st.units.values():
            if u.area == area and not u.lost:
                letter = "g" if u.general else u.type[0]
                letter = letter if u.side == "RED" else letter.upper()
                ps.append(letter + ("" if u.general else inv_q[u.quality]) + str(u.sp))
        return ",".join(ps)

    rows = [f"r: {tok(RESERVE['RED'])}".rstrip()]
    for y in (2, 1, 0):
        cells = []
        for x in range(3):
            a = name_of((x, y))
            t, p = inv_t[st.terrain.get(a)], tok(a)
            cells.append(f"{t}:{p}" if p else t)
        rows.append(f"{y + 1}  " + "  ".join(c.ljust(10) for c in cells).rstrip())
    rows.append(f"R: {tok(RESERVE['BLUE'])}".rstrip())
    return "\n".join(rows)


__all__ = ["parse", "position", "draw", "GRID_AREAS"]
