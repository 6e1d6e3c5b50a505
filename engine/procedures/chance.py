"""Battle-dice chance steps shared by every Commands & Colors turn machine (OpenSpiel's
chance nodes): the state's ``pending`` decision has ``seat == "chance"`` and the number of
``dice`` to throw; the roll comes from the state RNG (or, in tests, from the action)."""

from __future__ import annotations

from typing import Any

from ..core import dice as D
from ..core.errors import IllegalAction
from .state import GameState


def is_chance(st: GameState) -> bool:
    """Does the state wait for a roll?"""
    return _dice_due(st) is not None


def _dice_due(st: GameState) -> int | None:
    """How many dice the pending chance node throws (None: no chance node pending)."""
    p = st.pending
    return p["dice"] if p is not None and p["seat"] == "chance" else None


def sample_chance(st: GameState) -> dict[str, Any]:
    """The roll the state RNG gives for the current chance node."""
    n = _dice_due(st)
    if n is None:
        raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
    return {"type": "roll", "seat": "chance", "dice": D.sample(st.rng, n)}


def roll_faces(st: GameState, action: dict[str, Any]) -> list[str]:
    """The faces of a ``roll`` action for the pending chance node (sampled from the state
    RNG when omitted); the RNG counter advances by the number of dice either way."""
    if st.pending is None:
        raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
    n: int = st.pending["dice"]
    faces = action.get("dice")
    if faces is None:
        faces = D.sample(st.rng, n)
    if not isinstance(faces, list) or len(faces) != n or any(f not in D.FACE_NAMES for f in faces):
        raise IllegalAction("malformed_action", f"roll needs a list of {n} faces")
    st.rng.counter += n
    return faces
