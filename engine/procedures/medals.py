"""Medals and victory: eliminations, objective medals (vocabulary 3.2), exits, sudden death.

Standard rule (004 "Object Of The Game"): the game ends at once when a side reaches its
scenario's medal count, or when the enemy has no unit left.  With the optional rule
``counter_attack_last_turn`` the other side first plays one last turn and the winner is
the side that did the most damage (figures eliminated + objectives held).
"""

from __future__ import annotations

import re
from typing import Any

from ..core.geometry import Hex
from ..core.scenario_model import Objective
from .state import GameState, Unit
from .common import SIDES, other
from .terrain_changes import unit_left_hex


def _occupied_by(st: GameState, hexes: tuple[Hex, ...], side: str) -> int:
    n = 0
    for h in hexes:
        uid = st.occ.get(h)
        if uid is not None and st.units[uid].side == side:
            n += 1
    return n


def _holder(st: GameState, obj: Objective, current: str | None) -> str | None:
    if obj.permanent and current is not None:
        return current
    counts = {"AXIS": 0, "ALLIES": 0}
    occ, units = st.occ, st.units
    for h in obj.hexes:
        uid = occ.get(h)
        if uid is not None:
            counts[units[uid].side] += 1
    if current is None and not counts["AXIS"] and not counts["ALLIES"]:
        return None
    allowed = SIDES if obj.side is None else (obj.side,)
    if obj.majority:
        a, b = counts["AXIS"], counts["ALLIES"]
        best = "AXIS" if a > b else "ALLIES" if b > a else None
        return best if best in allowed else None
    need = max(1, min(obj.nbr_hex, len(obj.hexes)))
    qualified = [
        s for s in allowed if counts[s] >= need and not (obj.sole_control and counts[other(s)] > 0)
    ]
    if current in qualified:
        return current
    if qualified:
        return qualified[0]
    if obj.last_to_occupy and current is not None:
        # kept until the enemy qualifies (enemy must be allowed to hold it to take it)
        return current
    return None


def update_objectives(
    st: GameState, events: list[dict[str, Any]], turn_start: bool = False
) -> None:
    """Re-evaluate every objective medal; emit medal_gained / medal_lost events."""
    for obj in st.scn.objectives:
        if obj.turn_start and not (turn_start and (obj.side is None or obj.side == st.active)):
            continue
        cur = st.objectives.get(obj.id)
        new = _holder(st, obj, cur)
        if new != cur:
            st.objectives[obj.id] = new
            if cur is not None:
                events.append(
                    {
                        "type": "medal_lost",
                        "side": cur,
                        "reason": "objective",
                        "objective": obj.id,
                        "count": obj.counts_for,
                    }
                )
            if new is not None:
                events.append(
                    {
                        "type": "medal_gained",
                        "side": new,
                        "reason": "objective",
                        "objective": obj.id,
                        "count": obj.counts_for,
                    }
                )
    esm = st.scn.options.get("empty_section_medals")
    if esm:
        _empty_section_medals(st, esm, events)
    if st.sudden is None:
        for sd in st.scn.sudden_death:
            if _occupied_by(st, sd.hexes, sd.side) >= sd.number:
                st.sudden = sd.side
                events.append(
                    {"type": "medal_gained", "side": sd.side, "reason": "sudden_death", "count": 0}
                )
                break


EMPTY_SECTION = "empty_section"  # key in GameState.objectives: (side, medals) or None


def _empty_section_medals(st: GameState, esm: Any, events: list[dict[str, Any]]) -> None:
    """Scenario option ``empty_section_medals`` ``{sections, side, count_for}``
    (vocabulary 3.3): ``side`` holds ``count_for`` medals (capped at its victory count)
    while any listed section (board sections 0/1/2 from the left of the bottom player,
    border hexes in both) holds no enemy unit; lost again when none is empty."""
    try:
        side = str(esm["side"]).upper()
        sections = {int(x) for x in esm.get("sections", ())}
        count = int(esm.get("count_for", 1))
    except (KeyError, TypeError, ValueError, AttributeError):
        return
    if side not in SIDES:
        return
    board, enemy = st.scn.board, other(side)
    occupied: set[int] = set()
    for u in st.units.values():
        if u.side == enemy:
            occupied |= board.sections(u.hex, False)
    cleared = bool(sections - occupied)
    cur = st.objectives.get(EMPTY_SECTION)
    if cleared and cur is None:
        n = max(0, min(count, st.scn.victory.get(side, 0) - st.medals(side)))
        st.objectives[EMPTY_SECTION] = (side, n)
        events.append({"type": "medal_gained", "side": side, "reason": "empty_section", "count": n})
    elif not cleared and cur is not None:
        st.objectives[EMPTY_SECTION] = None
        events.append(
            {
                "type": "medal_lost",
                "side": side,
                "reason": "empty_section",
                "objective": EMPTY_SECTION,
                "count": cur[1],
            }
        )


def eliminate(st: GameState, u: Unit, by_side: str, events: list[dict[str, Any]]) -> None:
    """Remove ``u`` from the board; the other side gains its medal value."""
    st.occ.pop(u.hex, None)
    del st.units[u.id]
    unit_left_hex(st, u.hex, events, eliminated=True)
    st.elim_medals[by_side] += u.spec.medal_value
    events.append(
        {"type": "unit_eliminated", "unit": u.id, "side": u.side, "hex": [*u.hex], "by": by_side}
    )
    if u.spec.medal_value:
        events.append(
            {
                "type": "medal_gained",
                "side": by_side,
                "reason": "elimination",
                "unit": u.id,
                "count": u.spec.medal_value,
            }
        )
    if u.side == "AXIS" and st.scn.options.get("italy_high_command"):
        _italian_high_command_discard(st, events)


#: Vocabulary 2.6 Italian High Command: a discard only while the hand holds more cards.
ITALY_HIGH_COMMAND_KEEP = 3


def _italian_high_command_discard(st: GameState, events: list[dict[str, Any]]) -> None:
    """Vocabulary 2.6 Italian High Command (option ``italy_high_command``): each Axis unit
    lost makes the Axis player discard a random card while holding more than 3.  The card
    is drawn from the state RNG (as the HQ tent discard) and goes face up on the discard
    pile (event ``card_discarded``, reason ``italy_high_command``)."""
    if len(st.hands["AXIS"]) > ITALY_HIGH_COMMAND_KEEP:
        st.hooks.discard_random_card(st, "AXIS", "italy_high_command", events)


def damage_score(st: GameState, side: str) -> int:
    held = sum(o.counts_for for o in st.scn.objectives if st.objectives.get(o.id) == side)
    return st.figures_killed[side] + held


def _may_win(st: GameState, side: str) -> bool:
    """Optional rule ``objective_needed_to_win`` (004 "Object Of The Game"): a side cannot
    win on medals without holding at least one of its Terrain Objectives (when the
    scenario gives it any).  Scenario option ``must_have_unit_exit`` ``{side,
    min_nbr_units}`` (vocabulary 3.3): that side needs at least that many exit medals."""
    mh = st.scn.options.get("must_have_unit_exit")
    if isinstance(mh, dict) and str(mh.get("side", "")).upper() == side:
        try:
            if st.exit_medals[side] < int(mh.get("min_nbr_units", 0)):
                return False
        except (TypeError, ValueError):
            pass
    if not st.options.get("objective_needed_to_win"):
        return True
    own = [o for o in st.scn.objectives if o.side in (None, side)]
    return not own or any(st.objectives.get(o.id) == side for o in own)


def check_victory(st: GameState, events: list[dict[str, Any]]) -> bool:
    """End the game when a side has won; True when the game is over."""
    if st.game_over:
        return True
    if st.options:
        own = st.hooks.victory(st)  # 004 variants: their own object of the game
        if own is not None:
            if own is False:
                return False
            finish(st, own[0], own[1], events)
            return True
    winner: str | None = None
    reason = ""
    for side in SIDES:
        if st.medals(side) >= st.scn.victory.get(side, 99) and _may_win(st, side):
            winner, reason = side, "medals"
            break
    if winner is None:
        present = set()
        for u in st.units.values():
            present.add(u.side)
            if len(present) == 2:
                break
        for side in SIDES:
            if other(side) not in present:
                winner, reason = side, "annihilation"
                break
    if winner is None:
        return False
    if st.options.get("counter_attack_last_turn") and reason == "medals":
        if st.last_turn_for is None:
            st.last_turn_for = other(winner)
            events.append(
                {
                    "type": "last_turn",
                    "side": other(winner),
                    "reason": f"{winner} reached its victory medals",
                }
            )
        return False
    finish(st, winner, reason, events)
    return True


def finish(st: GameState, winner: str | None, reason: str, events: list[dict[str, Any]]) -> None:
    st.game_over = True
    st.winner = winner
    st.phase = "game_over"
    st.battles = []
    st.chance = None
    events.append(
        {
            "type": "game_over",
            "winner": winner,
            "reason": reason,
            "medals": {s: st.medals(s) for s in SIDES},
        }
    )


# ---------------------------------------------------------------------------- out of cards
#: words naming a side in a scenario's text (English; the ``.m44`` editor's ``en`` block)
_SIDE_WORDS = {
    "AXIS": r"axis|germans?|german army|wehrmacht|japanese|italians?|finns?|finnish|"
    r"hungarians?|romanians?",
    "ALLIES": r"allies|allied|americans?|british|soviets?|russians?|red army|french|"
    r"maquis|resistance|partisans?|canadians?|poles|polish|australians?|u\.?s\.?",
}
_DECK_OUT = re.compile(
    r"(deck|draw pile|command cards?)\b[^.;]*?\b(runs? out|run out|ran out|exhausted|is empty|"
    r"are all drawn|used up)|last (command )?card (is|has been) drawn|"
    r"(runs?|ran) out of (command )?cards|no more (command )?cards",
    re.I,
)


#: a sentence going on from the previous one ("... the last card is drawn. If the Allies
#: have not won by then, the Axis player wins.")
_FOLLOW_UP = re.compile(
    r"\s*(otherwise|if not|failing (this|that)|else|in (that|this) case|"
    r"then|at that (time|point)|if [^,]*\b(has|have) not)\b",
    re.I,
)


def _names_winner(sentence: str) -> str | None:
    """The one side a sentence names as winning ("... or the Axis side wins", "victory
    goes to the Allies"); None when it names none, or both."""
    found = set()
    for side, words in _SIDE_WORDS.items():
        if re.search(
            rf"\b(?:{words})(?: player| players| side| forces| army| team)?"
            rf"(?: automatically| immediately)? (?:wins?|is victorious|is the winner)\b",
            sentence,
            re.I,
        ) or re.search(rf"\bvictory (?:goes )?(?:to|for) the (?:{words})\b", sentence, re.I):
            found.add(side)
    return found.pop() if len(found) == 1 else None


def deck_out_winner(st: GameState) -> str | None:
    """The side the scenario's own text names as the winner when the Command card deck
    runs out (e.g. scenario 19 Vassieux, Vercors: "must be completed before the deck runs
    out or the Axis side wins"), read from the sentences of its ``text`` (English first)
    that speak of the deck running out (or the sentence going on from one: "Otherwise
    ...", "If the Allies have not won by then, ..."); None when no text names one."""
    text = st.scn.raw.get("text") if isinstance(st.scn.raw, dict) else None
    if not isinstance(text, dict):
        return None
    langs = [text.get("en")] + [v for k, v in sorted(text.items()) if k != "en"]
    for lang in langs:
        fields = lang.values() if isinstance(lang, dict) else ()
        sentences = re.split(r"[.\n]+", "\n".join(f for f in fields if isinstance(f, str)))
        for i, sentence in enumerate(sentences):
            if _DECK_OUT.search(sentence):  # the winner in it, or in the next one
                nxt = " ".join(sentences[i + 1 : i + 2])
                side = _names_winner(sentence) or (
                    _names_winner(nxt) if _FOLLOW_UP.match(nxt) else None
                )
                if side in SIDES:
                    return side
    return None


def out_of_cards(st: GameState) -> bool:
    """The game cannot go on for want of Command cards (checked at the end of each turn,
    after its draws): the scenario forbids reshuffling (``deck_reshuffling: false``,
    vocabulary: "deck never reshuffles; running out ends the game") and the draw pile is
    empty; or (general rule, 004 silent) no card can be drawn any more (draw pile and
    discard pile empty) and no side holds a card."""
    if st.deck or st.game_over:
        return False
    if st.scn.options.get("deck_reshuffling") is False:
        return True
    return not st.discard and not any(st.hands.get(s) for s in SIDES)


def end_out_of_cards(st: GameState, events: list[dict[str, Any]]) -> bool:
    """End the game when :func:`out_of_cards` (True then).  Winner: the side the
    scenario's text names for an exhausted deck (:func:`deck_out_winner`), else the side
    with more medals; equal medals: a draw (``winner`` null).  Reason ``deck_exhausted``."""
    if not out_of_cards(st):
        return False
    winner = deck_out_winner(st)
    if winner is None:
        a, b = st.medals("AXIS"), st.medals("ALLIES")
        winner = "AXIS" if a > b else "ALLIES" if b > a else None
    finish(st, winner, "deck_exhausted", events)
    return True


def end_by_damage(st: GameState, events: list[dict[str, Any]]) -> None:
    """The optional Counter-Attack last turn is over: most damage wins (004)."""
    a, b = damage_score(st, "AXIS"), damage_score(st, "ALLIES")
    finish(st, "AXIS" if a > b else "ALLIES" if b > a else None, "damage", events)


def exit_board(
    st: GameState, u: Unit, h: tuple[int, int], value: int, events: list[dict[str, Any]]
) -> None:
    """A unit leaves the board through the exit hex ``h`` (004 "Exit markers"): it is taken
    off, its side gains ``value`` medals, then objectives and victory are checked."""
    del st.occ[u.hex]
    del st.units[u.id]
    unit_left_hex(st, u.hex, events)
    st.exit_medals[u.side] += value
    events.append({"type": "unit_exited", "unit": u.id, "side": u.side, "hex": [*h]})
    events.append(
        {"type": "medal_gained", "side": u.side, "reason": "exit", "unit": u.id, "count": value}
    )
    update_objectives(st, events)
    check_victory(st, events)
