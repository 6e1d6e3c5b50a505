"""Writes app/i18n_terms.py (``make messages``): the texts the server sends that the
client shows, listed as literals so that gettext extraction finds them: the rule systems'
titles and summaries, the command cards' names and texts (standard deck, Fast Play),
board sizes and faces.  The client translates them with ``term()`` (static/i18n.js).
tests/app/test_i18n.py fails when the file is not what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine_api import rulesets  # noqa: E402
from engine.rulesets.fastplay import cards as fastplay_cards  # noqa: E402
from engine.rulesets.m44.cards import STANDARD_DECK  # noqa: E402

BOARDS = ("STANDARD", "OVERLORD", "BRKTHRU", "country", "winter", "desert", "beach")


def terms() -> list[str]:
    """Every text, in a stable order, once."""
    out: list[str] = []
    for rs in rulesets():
        out += [rs.title, rs.summary]
    for card in STANDARD_DECK:
        out += [card.name, card.text]
    for key, name in fastplay_cards.CARDS:
        out += [name, fastplay_cards.TEXT[key]]
    out += BOARDS
    return list(dict.fromkeys(x for x in out if x))


def main() -> None:
    print(
        '"""Texts the server sends and the client shows (written by scripts/i18n_terms.py:'
        ' `make messages`; do not edit)."""'
    )
    print("from __future__ import annotations\n")
    print("from .i18n import N_\n")
    print("TERMS: tuple[str, ...] = (")
    for text in terms():
        print(f"    N_({text!r}),")
    print(")")


if __name__ == "__main__":
    main()
