"""Writes app/i18n_terms.py (``make messages``): the texts the server sends that the
client shows, listed as literals so that gettext extraction finds them: the rule systems'
titles and summaries, their optional rules' names, values, descriptions and sources, the command cards' names and
texts (standard and Overlord decks, Fast Play), board sizes and faces, the Portable Wargame's rules help
army, unit and General names, the dice verdicts (engine.fairdice), the names and subtitles of the bundled scenarios.  The client translates them with ``term()`` (static/i18n.js), the
pages with the ``term`` filter (app/i18n.py).
tests/app/test_i18n.py fails when the file is not what this script writes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine_api import optional_rules, rulesets  # noqa: E402
from app.scenarios.service import bundled_files  # noqa: E402
from engine.fairdice import MESSAGES as VERDICTS  # noqa: E402
from engine.rulesets.fastplay import cards as fastplay_cards  # noqa: E402
from engine.rulesets.m44.cards import STANDARD_DECK  # noqa: E402
from engine.rulesets.overlord.cards import AIR_SORTIES, OVERLORD_DECK  # noqa: E402
from engine.rulesets.portable import armies as portable_armies  # noqa: E402
from engine.rulesets.portable.rules_help import HELP as PORTABLE_HELP  # noqa: E402

BOARDS = ("STANDARD", "OVERLORD", "BRKTHRU", "country", "winter", "desert", "beach")


# option values the lobby does not show as a label: numbers, and the sides (their names)
NOT_LABELS = {"AXIS", "ALLIES", *(str(n) for n in range(100))}


def label(name: object) -> str:
    """An optional rule's name or value as the lobby shows it: "no_retreat" -> "No retreat"
    (static/lobby.js ``label``)."""
    text = str(name).replace("_", " ")
    return text[:1].upper() + text[1:].lower()


def terms() -> list[str]:
    """Every text, in a stable order, once."""
    out: list[str] = []
    for rs in rulesets():
        out += [rs.title, rs.summary]
    for rs in rulesets():
        for rule in optional_rules(rs.name):
            out += [label(rule["name"]), rule["description"], rule["source"]]
            out += list((rule.get("value_descriptions") or {}).values())
            out += [label(v) for v in rule.get("values") or () if str(v) not in NOT_LABELS]
    for card in (*STANDARD_DECK, *OVERLORD_DECK, *AIR_SORTIES):
        out += [card.name, card.text]
    for key, name in fastplay_cards.CARDS:
        out += [name, fastplay_cards.TEXT[key]]
    out += BOARDS
    for section in PORTABLE_HELP:
        out += [section.get("heading", ""), section.get("text", ""), section.get("house", "")]
    out += [str(army["title"]) for army in portable_armies.PRESETS.values()]
    for army in portable_armies.PRESETS.values():  # unit and General names
        out += [str(u["name"]) for u in army["units"]] + [str(army["general"])]
    out.append("General")  # a custom army's General; its units unnamed: "<Quality> <type>"
    out += [f"{q.title()} {ty}" for q in portable_armies.QUALITIES for ty in portable_armies.TYPES]
    out.append("Custom army")  # the title of an army given as a list (portable/view.py)
    out += list(VERDICTS.values())  # the verify page's verdicts and checks
    for path in sorted(bundled_files().values()):
        text = json.loads(path.read_text("utf-8")).get("text") or {}
        english = text.get("en") if isinstance(text, dict) else None
        if isinstance(english, dict):
            out += [str(english.get(k) or "").strip() for k in ("name", "subtitle")]
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
