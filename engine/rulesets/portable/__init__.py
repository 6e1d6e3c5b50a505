"""The Colonial fast play 3x3 Portable Wargame (rules text 003, Bob Cordery, 2022).

Shares nothing with Memoir '44 but ``engine.core``.  Modules are named after the text's
headings: battlefield (General rules, Special rules), setup (Setting up the battlefield,
Deployment), turn (Turn sequence), activation, movement (Movement), fire (Artillery fire
rules), combat (Close Combat rules), hits (Resolving hits on units, Generals), victory
(the house rule ending the battle), armies (army lists), options, view, rules (dispatch),
ruleset (the registered ``portable`` Ruleset), textboard (positions drawn as text).
"""

from .ruleset import PORTABLE

__all__ = ["PORTABLE"]
