"""Battle-dice chance steps shared by every Commands & Colors turn machine (OpenSpiel's
chance nodes): the state's ``pending`` decision has ``seat == "chance"`` and the number of
``dice`` to throw; the roll comes from the state RNG (or, in tests, from the action)."""
from __future__ import annotations

from typing import Any

from ..core import dice as D
from ..core.errors import IllegalAction
from .state import GameState


def is_chance(st: GameState) -> bool:
    return st.pending is not None and st.pending["seat"] == "chance"


def sample_chance(st: GameState) -> dict[str, Any]:
    """The roll the state RNG gives for the current chance node."""
    if not is_chance(st):
        raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
    return {"type": "roll", "seat": "chance", "dice": D.sample(st.rng, st.pending["dice"])}


def roll_faces(st: GameState, action: dict[str, Any]) -> list[str]:
    """The faces of a ``roll`` action for the pending chance node (sampled from the state
    RNG when omitted); the RNG counter advances by the number of dice either way."""
    n = st.pending["dice"]
    faces = action.get("dice")
    if faces is None:
        faces = D.sample(st.rng, n)
    if (not isinstance(faces, list) or len(faces) != n
            or any(f not in D.FACE_NAMES for f in faces)):
        raise IllegalAction("malformed_action", f"roll needs a list of {n} faces")
    st.rng.counter += n
    return faces
