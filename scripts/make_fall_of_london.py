"""Write scenarios/WOTW-FallOfLondon1940.m44 (004 Appendix 3 "War Of The Worlds",
"Scenario, The Fall Of London, 1940") from the text's description.

The text sets the battle on the Overlord board of Eastern Front scenario #44 (Kursk,
Prokhorovka); the variants run on the standard turn machine, so this version is drawn on
a Breakthrough board (13 x 17 hexes), with the text's forces, cards, towns, river and
set-up rules:

* River Thames (ex-Psel) from the Martian rear line to the British one, two bridges;
  Hounslow (2 town hexes) north of it, Richmond (2) and Wimbledon (3) south: 7 towns.
* Woods are "Hill With Woods & Forests" (code ``whillforest``).
* Martians (AXIS, top): 9 Fighting Machines (``tankger``) and 3 Handling Machines
  (``tank2ger``: "placed with a Special Unit Marker"), 12 cards; one Fighting Machine
  north of the Thames, the others south, split 6 / 5 between the Centre and the Right
  Flank, on the rear line (the first two rows: the 13-hex rear row cannot hold them).
* British (ALLIES, bottom, first 4 rows): 10 Infantry Tanks (``tankbrit``), 5 Medium
  Armour (``tank2brit``), 8 Special Infantry (``inf2brit``), 2 Heavy Artillery
  (``gunbrit``), 10 cards; artillery in Hounslow and Richmond, special infantry on the
  other 5 town hexes, 2 armour north of the Thames, 4 on the Left Flank.
* Scenario option ``war_of_the_worlds_units``: the game option ``variant:
  WAR_OF_THE_WORLDS`` takes these units as they are (no conversion).

Run: ``python scripts/make_fall_of_london.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "scenarios" / "WOTW-FallOfLondon1940.m44"

THAMES = [
    (0, 16),
    (1, 17),
    (2, 16),
    (3, 17),
    (4, 18),
    (5, 17),
    (6, 18),
    (7, 19),
    (8, 18),
    (9, 19),
    (10, 18),
    (11, 19),
    (12, 20),
    (13, 19),
    (14, 20),
    (15, 21),
    (16, 20),
]
BRIDGES = {(8, 18), (13, 19)}
TOWNS = {
    "Hounslow": [(14, 22), (15, 23)],
    "Richmond": [(13, 15), (14, 16)],
    "Wimbledon": [(14, 6), (15, 7), (14, 8)],
}
WOODS = [(3, 7), (6, 4), (7, 9), (9, 13), (10, 6), (5, 23), (11, 23), (12, 12)]
HILLS = [(8, 2), (8, 12)]
MARTIANS = {
    (0, 22): "tankger",
    (0, 12): "tankger",
    (0, 14): "tankger",
    (1, 9): "tankger",
    (1, 11): "tankger",
    (1, 13): "tankger",
    (0, 4): "tankger",
    (1, 3): "tankger",
    (1, 5): "tankger",
    (0, 10): "tank2ger",
    (0, 2): "tank2ger",
    (0, 6): "tank2ger",
}
BRITISH = {
    (15, 23): "gunbrit",
    (14, 16): "gunbrit",
    (14, 22): "inf2brit",
    (13, 15): "inf2brit",
    (14, 6): "inf2brit",
    (15, 7): "inf2brit",
    (14, 8): "inf2brit",
    (13, 11): "inf2brit",
    (13, 3): "inf2brit",
    (16, 12): "inf2brit",
    (13, 21): "tankbrit",
    (14, 24): "tank2brit",
    (13, 1): "tankbrit",
    (13, 5): "tank2brit",
    (15, 3): "tankbrit",
    (16, 0): "tankbrit",
    (13, 7): "tankbrit",
    (13, 9): "tankbrit",
    (13, 13): "tankbrit",
    (14, 10): "tankbrit",
    (14, 14): "tankbrit",
    (15, 17): "tankbrit",
    (13, 17): "tank2brit",
    (14, 12): "tank2brit",
    (15, 11): "tank2brit",
}

DESCRIPTION = (
    '004 Appendix 3, "War Of The Worlds" variant: play with the game option variant = '
    "WAR_OF_THE_WORLDS (the Martians are the Axis side).\n\n"
    "Martian Player: 9 Martian Fighting Machines, 3 Martian Handling Machines (Special "
    "Unit Marker). Take 12 command cards.\n\n"
    "British Player: 10 Infantry Tanks, 5 Medium Armour, 8 Special Infantry, 2 Heavy "
    "Artillery. Take 10 command cards. You move first.\n\n"
    "Conditions of Victory: the British must eliminate all three Martian Handling Machines "
    "or 6 of any Martian Machines. The Martians must have occupied all 7 Towns & Villages "
    "hexes and eliminated 18 British Units.\n\n"
    "Special Rules: all Woods are Hill With Woods & Forests. The Common Cold roll applies "
    "from the second turn. Hounslow is north of the Thames; Richmond and Wimbledon are "
    "south of it."
)


def hexagons() -> list[dict]:
    cells: dict[tuple[int, int], dict] = {}

    def cell(h: tuple[int, int]) -> dict:
        return cells.setdefault(h, {"row": h[0], "col": h[1]})

    for h in THAMES:
        cell(h)["terrain"] = {"name": "river", "orientation": 1}
        if h in BRIDGES:
            cell(h)["rect_terrain"] = {"name": "bridge", "orientation": 1}
    for hexes in TOWNS.values():
        for h in hexes:
            cell(h)["terrain"] = {"name": "buildings"}
    for h in WOODS:
        cell(h)["terrain"] = {"name": "whillforest"}
    for h in HILLS:
        cell(h)["terrain"] = {"name": "hills"}
    for h, code in {**MARTIANS, **BRITISH}.items():
        u = {"name": code}
        if code.startswith(("tank2", "inf2")):
            u["badge"] = "badge3" if code.startswith("tank2") else "badge1"
        cell(h)["unit"] = u
    return [cells[h] for h in sorted(cells)]


def scenario() -> dict:
    labels = [
        {"row": 15, "col": 19, "text": ["River Thames"]},
        {"row": 16, "col": 22, "text": ["Hounslow"]},
        {"row": 12, "col": 16, "text": ["Richmond"]},
        {"row": 16, "col": 6, "text": ["Wimbledon"]},
    ]
    return {
        "meta_data": {"scenario_id": "WOTW-1940", "status": "GAME", "software": "overlord"},
        "game_info": {
            "date_begin": "1940-06-08",
            "front": "WESTERN",
            "type": "HISTORICAL",
            "starting": "PLAYER2",
            "side_player1": "AXIS",
            "side_player2": "ALLIES",
            "country_player1": "DE",
            "country_player2": "GB",
            "cards_player1": 12,
            "cards_player2": 10,
            "victory_player1": 18,
            "victory_player2": 6,
            "options": {"war_of_the_worlds_units": True},
        },
        "board": {"type": "BRKTHRU", "face": "COUNTRY", "hexagons": hexagons(), "labels": labels},
        "text": {
            "en": {
                "name": "The Fall Of London, 1940",
                "subtitle": "War Of The Worlds (004 Appendix 3)",
                "description": DESCRIPTION,
            }
        },
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(scenario(), indent=1) + "\n", encoding="utf-8")
    print(OUT)
