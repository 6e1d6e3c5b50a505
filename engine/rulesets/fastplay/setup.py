"""Fast Play '44 scenario set-up steps before the first turn (a ``.m44`` scenario's
options, played as in the standard game through engine/procedures/setup_steps.py):
``airdrop`` / ``airdrop2`` (pending ``airdrop``: the dropping side picks the aim hex,
action ``airdrop {hex}``; the units drift with the state RNG) then ``smoke_screen``
(pending ``place_smoke``: ``place_smoke {hex}`` / ``end_smoke``).  ``st.ext["setup"]``
holds the remaining steps; the first turn's CP are already set and wait for them."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...procedures import setup_steps as S
from ...procedures.state import GameState


def init(st: GameState) -> None:
    steps: list[dict[str, Any]] = [{"kind": "airdrop", **d} for d in S.scenario_drops(st)]
    sm = S.smoke_screen(st, st.active)
    if sm:
        steps.append({"kind": "smoke", **sm})
    if steps:
        st.ext["setup"] = steps


def active(st: GameState) -> bool:
    return bool(st.ext.get("setup"))


def pending(st: GameState) -> dict[str, Any]:
    d = st.ext["setup"][0]
    if d["kind"] == "airdrop":
        return {"type": "airdrop", "seat": d["side"], "units": d["units"], "range": d["range"]}
    return {"type": "place_smoke", "seat": d["side"], "left": d["left"]}


def legal(st: GameState, seat: str) -> list[dict[str, Any]]:
    d = st.ext["setup"][0]
    if d["kind"] == "airdrop":
        return [{"type": "airdrop", "seat": seat, "hex": [*h]} for h in sorted(st.scn.board._nbrs)]
    return [
        {"type": "place_smoke", "seat": seat, "hex": [*h]} for h in S.smoke_hexes(st, d["placed"])
    ] + [{"type": "end_smoke", "seat": seat}]


def apply(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    d, rest = st.ext["setup"][0], list(st.ext["setup"][1:])
    t = action.get("type")
    if d["kind"] == "airdrop" and t == "airdrop":
        S.drop_units(st, d, action, events)
    elif d["kind"] == "smoke" and t == "place_smoke":
        d = S.add_smoke(st, d, action, events)
        if d["left"] > 0:
            rest = [d, *rest]
    elif not (d["kind"] == "smoke" and t == "end_smoke"):
        raise IllegalAction("unknown_action", f"{d['kind']} set-up step expected")
    st.ext = {**st.ext, "setup": rest}
    if not rest:
        st.ext.pop("setup")
