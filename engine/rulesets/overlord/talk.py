"""Who may talk to whom inside a side of an Overlord game (002 "The Military Chain of
Command"), read from one of the side's seats' views; the server's chat policy
(app/chat/policy.py) asks it through :meth:`engine.core.ruleset.Ruleset.chat_line`.

The Commander-in-Chief talks with one (and only one) Field General per turn, the one he
visits; the visit counts once he confirms his orders (``view.overlord.chain_of_command
.visited`` of the writer's own view: the visit of the current turn of the writer's
side); a tentative visit (``view.overlord.visit`` while dispatching) opens nothing, or he
could talk to every general in turn.  During the opponent's turn no line to the C-in-C is
open.  At game over the chain of command is lifted.  Team play (004 "Team Play", a real
view without the ``overlord`` part): the team agrees on the card together, talk is free.
A view that is not a real engine view (``None``, ``{}``) is read strictly (no line open):
the safe reading.
"""

from __future__ import annotations

from typing import Any

View = dict[str, Any]


def chat_line(view: View | None, side: str | None) -> tuple[str, str | None]:
    """``("free", None)`` (team play, game over), ``("visiting", fg)``, ``("no_visit",
    None)`` (own turn, orders not confirmed) or ``("opponent", None)``."""
    v = view or {}
    if v.get("game_over"):
        return "free", None
    ol = v.get("overlord")
    if ol is None and "ruleset" in v:
        return "free", None  # a real view without Overlord: team play
    coc = (ol or {}).get("chain_of_command") or {}
    if coc.get("side") == side and coc.get("visited"):
        return "visiting", str(coc["visited"])
    if v.get("active") is not None and v.get("active") != side:
        return "opponent", None
    return "no_visit", None
