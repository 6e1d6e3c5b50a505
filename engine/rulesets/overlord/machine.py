"""The Overlord turn machine (rules 002); the seat modes, the deck and the card plays are in
the sibling modules (modes, cards, plays, chain).

Modes (:mod:`.modes`, the seat modes the ``overlord`` ruleset gives its games):

* ``"overlord"`` (default on OVERLORD boards; rules/002): per side a Commander-in-Chief seat
  ``"<SIDE>:cinc"`` holding the hand, and three Field General seats ``"<SIDE>:left"``,
  ``":centre"``, ``":right"`` each commanding two sub-sections (vocabulary 4).  Own turn
  machine (this module): [scenario set-up steps] -> [night roll] -> commissar -> dispatch ->
  C-in-C tactic -> Field Generals (several seats may act; all movement before any battle) ->
  discard, draw two (hand size cap).
* ``"team"`` (004 "Team Play", standard boards): same role seats; the standard turn machine;
  the C-in-C holds the hand and picks the card, the member of the section concerned carries
  out a one-section Section card, the C-in-C carries out tactic and multi-section cards.

Player counts are a server seat-layout concern (:func:`seat_layouts`): one identity may
hold several role seats; the engine only checks that each role seat acts for itself.
``GameState.ext`` holds this mode's data (plain dicts/lists, copied by ``clone``).
"""

from __future__ import annotations

from typing import Any

from ...core import dice as D
from ..m44.cards import CARDS
from ...core.errors import IllegalAction
from .cards import AIR_SORTIE_KEY, AIR_SORTIES, FGS, overlord_deck_ids
from ...procedures.state import GameState, Play, Quota, ShallowExt
from ...procedures import battle_outcome as BO
from ...procedures import battle_stack as BS
from ...procedures.chance import roll_faces
from ..m44 import turn as TU
from ..m44 import end_turn as ET
from ...procedures.common import SIDES, mode, other
from ...procedures.common import commissar_sides as _commissar_sides
from ...procedures.medals import end_by_damage, end_out_of_cards
from .chain import (
    FIREFIGHT_PLAY,
    ROLES,
    _Ctx,
    _Focus,
    _any_pre,
    _chip_options,
    _confirm_error,
    _fg_mix_error,
    _gung_ho_sides,
    _halves,
    _hand_count,
    _play_of,
    _put,
    _stages,
    _static_roles,
    _waiting,
    seat,
    split,
    zone,
)
from .plays import (
    _after_focus,
    _dispatch_action,
    _fg_play_card,
    _init_options,
    _initiative,
    _initiative_rolled,
    _initiative_unit,
    copy_options,
)
from .records import ox


# ============================================================================ game start
def init_game(st: GameState) -> None:
    scn = st.scn
    st.deck = overlord_deck_ids(scn.options)  # deck_name: Air Power -> Artillery Bombard
    air = st.options.get("overlord_air_sortie")
    if air:  # 002 "Overlord and the Air Pack": one Air Sortie each, the rest shuffled in
        st.deck += [c.id for c in AIR_SORTIES[2:]]
    st.rng.shuffle(st.deck)
    for i, s in enumerate((scn.player1_side, scn.player2_side)):
        if air:
            st.hands[s].append(AIR_SORTIES[i].id)
        while _hand_count(st, s) < scn.cards.get(s, 0) and st.deck:
            st.hands[s].append(st.deck.pop())  # an Air Sortie dealt is not counted
    st.ext = ShallowExt(
        {
            "hand_size": {s: scn.cards.get(s, 0) for s in SIDES},
            "commissar_sides": tuple(_commissar_sides(scn)),
            "gung_ho_sides": tuple(_gung_ho_sides(scn)),
            "chip": {s: () for s in _commissar_sides(scn)},
            "setup": tuple(_commissar_sides(scn)),
            "last_plays": {s: () for s in SIDES},
            "visits": (),
            "step": "commissar_setup",
        }
    )
    # ShallowExt: every value is replaced, never mutated in place (tuples for card lists
    # and histories, nested dicts through _put), so a state clone copies the top level only
    _new_turn_ext(st)
    st.hooks.scenario_rules(st)  # the standard machine's scenario rules, shared: the
    st.hooks.set_up_steps(st)  # night track, camouflage; air drops, smoke screen
    if st.phase in SCENARIO_SETUP:
        ox(st)["step"] = "scenario_setup"
        refresh(st)
        return
    _begin(st, [])


#: Scenario set-up steps before the first turn (vocabulary 3.3 ``airdrop``/``airdrop2``,
#: ``smoke_screen``): the standard machine's phases and handlers
SCENARIO_SETUP = ("airdrop", "smoke")


def _scenario_setup(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Scenario set-up steps in an Overlord game: the airdrop(s), then the smoke screen,
    then the game-start Commissar placement and the first turn.

    002 is silent on who takes these steps; the decision is the side's, whose cards and
    overall command the Commander-in-Chief holds (002 "Teams"), so it is the C-in-C seat
    (``hand_seat``, as for every side-wide decision of this mode)."""
    _handle(st, action, events)
    if st.phase not in SCENARIO_SETUP:
        _begin(st, events)


def _begin(st: GameState, events: list[dict[str, Any]]) -> None:
    """After the set-up steps: the game-start Commissar placement, else the first turn."""
    if ox(st)["setup"]:
        ox(st)["step"] = "commissar_setup"
        st.phase = "commissar"
        refresh(st)
    else:
        _start_turn(st, st.scn.starting_side, events)


def _new_turn_ext(st: GameState) -> None:
    x = ox(st)
    # card lists are tuples, replaced rather than mutated (cheap state clones)
    x.update(
        {
            "dispatch": {r: () for r in ROLES},
            "visit": None,
            "gung_ho_fg": None,
            "received": {fg: () for fg in FGS},
            "initiative": {fg: None for fg in FGS},
            "taken": (),
            "placed": 0,
            "init_pending": None,
            "chance_fg": None,
            "halves": {fg: () for fg in FGS},
        }
    )


def _start_turn(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    ET.start_turn(st, side, events)
    _new_turn_ext(st)
    x = ox(st)
    if st.game_over:
        return
    if side in x["commissar_sides"]:
        x["taken"] = x["chip"][side]
        _put(x, "chip", side, ())
        x["step"] = "commissar"
        st.phase = "commissar"
    else:
        x["step"] = "dispatch"
        st.phase = "dispatch"
    refresh(st)


def to_act(st: GameState) -> list[str]:
    return [p["seat"] for p in _waiting(st)]


def refresh(st: GameState) -> None:
    w = _waiting(st)
    st.pending = w[0] if w else None


# ============================================================================ legal actions
def legal_actions(st: GameState, s: str | None) -> list[dict[str, Any]]:
    if s is None or s == "chance" or st.game_over:
        return []
    waits = [p for p in _waiting(st) if p["seat"] == s]
    if not waits:
        return []
    p = waits[0]
    if st.battles:
        return BS.legal(st, s)
    x = ox(st)
    if x["step"] == "scenario_setup":
        return TU.legal_actions(st, s)
    side, role = split(s)
    if side is None or role is None:  # (a wait of a seat is a role seat's)
        return []
    t = p["type"]
    if t == "commissar":
        out = [{"type": "commissar", "seat": s, "card": c} for c in _chip_options(st, side)]
        return out + [{"type": "end_commissar", "seat": s}]
    if t == "dispatch":
        out = []
        k = _Ctx(st, side)
        d = k.d
        for c in k.pool:
            if c in k.disp:
                out.append({"type": "undo_dispatch", "seat": s, "card": c})
                continue
            # == [to for to in ROLES if _dispatch_error(st, side, c, to, k) is None]
            if k.n >= 3 or (c in k.hand and len(k.hand) - k.from_hand - 1 < 1):
                continue
            if k.n and (k.tfh or CARDS[c].key == "their_finest_hour"):
                continue
            card = CARDS[c]
            for to in _static_roles(c):
                if (not d["cinc"]) if to == "cinc" else (_fg_mix_error(card, d[to]) is None):
                    out.append({"type": "dispatch", "seat": s, "card": c, "to": to})
        for fg in FGS:
            if x["visit"] != fg:
                out.append({"type": "visit", "seat": s, "fg": fg})
            if side in x["gung_ho_sides"] and x["gung_ho_fg"] != fg:
                out.append({"type": "gung_ho", "seat": s, "fg": fg})
        if _confirm_error(st, side, k) is None:
            out.append({"type": "confirm_dispatch", "seat": s})
        return out
    if t == "play_card":
        fg = role
        out = []
        for c in x["received"][fg]:
            for half in _halves(st, fg, c):
                for copy in copy_options(st, side, fg, c):
                    a = {"type": "play_card", "seat": s, "card": c}
                    if half is not None:
                        a["half"] = half
                    if copy is not None:
                        a["copy"] = copy
                    out.append(a)
        return out
    if t == "initiative":
        return [{"type": "initiative", "seat": s}, {"type": "pass", "seat": s}]
    if t == "initiative_unit":
        return [dict(a, seat=s) for a in _init_options(st)]
    play = _play_of(st, s)
    saved = st.pending
    with _Focus(st, play, keep=False):
        st.pending = {"type": st.phase, "seat": s}
        try:
            return TU.legal_actions(st, s)
        finally:
            st.pending = saved


# ============================================================================ apply
def apply_action(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    t = action.get("type")
    s = action.get("seat")
    if st.game_over or st.pending is None:
        raise IllegalAction("game_over", "the game is over")
    if t == "roll":
        if st.pending["seat"] != "chance":
            raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
        _roll(st, action, events)
    else:
        waits = [p for p in _waiting(st) if p["seat"] == s]
        if not waits or not isinstance(s, str):
            who = ", ".join(to_act(st))
            raise IllegalAction("not_your_turn", f"waiting for {who}")
        p = waits[0]
        side, role = split(s)
        if st.battles:
            with _Focus(st, st.plays[-1]):
                BS.apply(st, action, events)
            _after_focus(st, st.plays[-1], events)
        elif ox(st)["step"] == "scenario_setup":
            _scenario_setup(st, action, events)
        elif side is None or role is None:  # the chance seat: no play of its own
            raise IllegalAction("not_your_turn", "you have nothing to do now")
        elif p["type"] == "commissar":
            _commissar(st, side, action, events)
        elif p["type"] == "dispatch":
            _dispatch_action(st, side, action, events)
        elif p["type"] == "play_card":
            _fg_play_card(st, side, role, action, events)
        elif p["type"] == "initiative":
            _initiative(st, side, role, action, events)
        elif p["type"] == "initiative_unit":
            _initiative_unit(st, side, role, action, events)
        else:
            play = _play_of(st, s)
            with _Focus(st, play):
                _handle(st, action, events)
            _after_focus(st, play, events)
    _advance(st, events)
    refresh(st)


def _handle(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Run the standard machine's handler of ``action`` for the current ``st.phase``."""
    t = action.get("type")
    if not TU.known(st, t):
        raise IllegalAction("unknown_action", f"unknown action type {t!r}")
    handler = TU.handler_for(st, t)
    if handler is None:
        raise IllegalAction("wrong_phase", f"{t!r} is not possible during {st.phase}")
    handler(st, action, events)


def _roll(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if not st.battles and st.due_chance()["for"] == "night":
        _night_roll(st, action, events)
        return
    if st.battles or st.due_chance()["for"] != "initiative":
        play = st.plays[-1]  # the play whose battle / card roll this is
        tfh = (
            not st.battles
            and play.flags.get("ol_tfh")
            and st.due_chance()["for"] == "their_finest_hour"
        )
        with _Focus(st, play):
            TU._roll(st, action, events)
        if tfh:
            _tfh_by_general(play, events)
        _after_focus(st, play, events)
        return
    faces = action.get("dice")
    if faces is None:
        faces = D.sample(st.rng, 1)
    if faces not in [[f] for f in D.FACE_NAMES]:
        raise IllegalAction("malformed_action", "the initiative roll is one die face")
    st.rng.counter += 1
    st.chance = None
    _initiative_rolled(st, faces[0], events)


def _night_roll(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Night visibility (scenario option ``night_visibility_rules``, vocabulary 3.3) in an
    Overlord game: the 4 dice rolled at the start of each turn of the night side
    (``ET.start_turn``), before its Commissar / dispatch step, which then goes on.

    002 is silent on who rolls; the roll is a side-wide decision-free step, so it is
    the side's Commander-in-Chief (``hand_seat``, as for the scenario set-up steps): the
    ``dice_rolled`` event carries his seat."""
    faces = roll_faces(st, action)
    st.chance = None
    st.hooks.night_rolled(st, faces, events)


def _tfh_by_general(play: Play, events: list[dict[str, Any]]) -> None:
    """Their Finest Hour in Overlord: each FG's 4 dice order units in his own command."""
    faces = next(e["dice"] for e in reversed(events) if e.get("kind") == "their_finest_hour")
    quotas = []
    for i, fg in enumerate(FGS):
        mine = faces[4 * i : 4 * i + 4]
        for classes, n in (
            (frozenset({"inf"}), mine.count("inf")),
            (frozenset({"armor"}), mine.count("armor")),
            (None, mine.count("star")),
        ):
            if n:
                quotas.append(Quota(zone(fg), n, classes, True))
    play.quotas = quotas


def _advance(st: GameState, events: list[dict[str, Any]]) -> None:
    """Drain extra draws (Ambush), move between steps, end the turn."""
    x = ox(st)
    for _ in range(30):
        if st.game_over or st.battles or st.chance is not None:
            return
        if st.extra_draws:
            for s, n in sorted(st.extra_draws.items()):
                _draw_capped(st, s, n, events)
            st.extra_draws = {}
        if x["step"] == "cinc":
            play = st.plays[-1]
            _after_focus(st, play, events)
            if play.flags["stage"] != "end":
                return
            x["step"] = "fg"
            st.phase = "fg"
            continue
        if x["step"] == "fg":
            if not _any_pre(st):
                _firefight_plays(st)
                # battle wave: settle every play with nothing left to battle
                for p in list(st.plays):
                    if p.flags["stage"] == "battle":
                        _after_focus(st, p, events)
                if not any("battle" in v for v in _stages(st).values()):
                    _end_turn(st, events)
                    continue
            return
        return


def _firefight_plays(st: GameState) -> None:
    """004 optional "Firefight" (option ``firefight_continuing``) in the battle wave: a
    unit of the active side still locked in a firefight, not ordered this turn, fights on
    without an order.  002 is silent; with no order there is no card play to carry it, so
    the Field General commanding the unit's sub-section (``unit_seat``, as for its
    retreats) gets one card-less play (key :data:`FIREFIGHT_PLAY`) in the battle wave,
    once per turn, offering his units' firefights (``OverlordMode.fights_on``)."""
    if "firefights" not in st.ext:
        return
    have = {p.seat for p in st.plays if p.key == FIREFIGHT_PLAY}
    m = mode(st)
    for a, _b in BO.firefight_options(st, st.active):
        fs = m.unit_seat(st, a)
        role = split(fs)[1]
        if fs in have or role not in FGS:
            continue
        play = Play(None, FIREFIGHT_PLAY, fs, st.active)
        play.flags.update(stage="battle", src=None, subs=sorted(zone(role)))
        st.plays.append(play)
        have.add(fs)


# ----------------------------------------------------------------------------- commissar
def _commissar(
    st: GameState, side: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    x = ox(st)
    t = action.get("type")
    cs = seat(side, "cinc")
    if t == "commissar":
        cid = action.get("card")
        if not isinstance(cid, int):
            raise IllegalAction("malformed_action", "field 'card' must be a card id")
        if cid not in st.hands[side]:
            raise IllegalAction("card_not_in_hand", "that card is not in your hand")
        if len(x["chip"][side]) >= 3:
            raise IllegalAction("commissar_limit", "at most 3 cards under the Commissar chip")
        if len(st.hands[side]) <= 1:
            raise IllegalAction("must_keep_one_card", "keep at least one card in hand")
        if CARDS[cid].key == "ambush":
            raise IllegalAction("card_not_playable", "Ambush is played only as a reaction")
        st.hands[side].remove(cid)
        _put(x, "chip", side, (*x["chip"][side], cid))
        events.append(
            {
                "type": "commissar_card_placed",
                "side": side,
                "seat": cs,
                "count": len(x["chip"][side]),
                "secret": {"card": CARDS[cid].to_json()},
                "secret_to": [cs],
            }
        )
    elif t == "end_commissar":
        if x["step"] == "commissar_setup":
            x["setup"] = x["setup"][1:]
            if not x["setup"]:
                _start_turn(st, st.scn.starting_side, events)
        else:
            x["step"] = "dispatch"
            st.phase = "dispatch"
    else:
        raise IllegalAction(
            "wrong_phase", f"{t!r}: place cards under the Commissar chip or end_commissar"
        )


# ----------------------------------------------------------------------------- end of turn
def _draw_capped(st: GameState, side: str, n: int, events: list[dict[str, Any]]) -> None:
    x = ox(st)
    room = x["hand_size"][side] - _hand_count(st, side) - len(x["chip"].get(side, []))
    n = max(0, min(n, room))
    if n:
        got = ET.draw(st, side, events, n)
        extra = sum(1 for c in got if CARDS[c].key == AIR_SORTIE_KEY)
        while extra:  # an Air Sortie drawn is set aside and replaced (002 Air Pack)
            more = ET.draw(st, side, events, extra)
            got += more
            extra = sum(1 for c in more if CARDS[c].key == AIR_SORTIE_KEY) if more else 0
        ET._give(st, side, got, events)


def _end_turn(st: GameState, events: list[dict[str, Any]]) -> None:
    x = ox(st)
    side = st.active
    last = []
    for p in st.plays:
        if p.card is not None:
            st.discard.append(p.card)
        if p.key != "none" and p.flags.get("src") is not None:
            last.append(
                {"role": split(p.seat)[1], "src": p.flags["src"], "subs": p.flags.get("subs")}
            )
    _put(x, "last_plays", side, tuple(last))
    ET.reshuffle_if_due(st, events)
    # 002 "The Game Turn" 4: two new cards whatever was played (a Recon card included:
    # no standard "draw 2, keep 1" choice), never above the hand size
    _draw_capped(st, side, 2, events)
    events.append({"type": "turn_ended", "side": side, "turn": st.turn})
    if st.last_turn_for == side and st.options.get("counter_attack_last_turn"):
        end_by_damage(st, events)  # 004 optional Counter-Attack last turn is over
        return
    if end_out_of_cards(st, events):  # deck_reshuffling: false, or no card anywhere
        return
    _start_turn(st, other(side), events)
