"""Overlord and team play: the role seats, the Overlord deck and the Overlord turn machine.

Modes (registered in ``engine.rules.common.MODES``):

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

import sys
from typing import Any

from .. import dice as D
from ..cards import ALL, CARDS
from ..core.errors import IllegalAction
from ..overlord_cards import (AIR_SORTIE_KEY, AIR_SORTIES, BOTH_HALVES, CINC_ONLY, FGS, ONE_HALF,
                              overlord_deck_ids)
from ..state import GameState, Play, Quota, ShallowExt
from . import airdrop as AD
from . import battle as B
from . import tactics as T
from . import turn as TU
from .common import MODES, SIDES, StandardMode, is_top, other, parse_hex, parse_unit
from .medals import check_victory, end_by_damage, end_out_of_cards, update_objectives
from .terrain_changes import unit_left_hex

ROLES = ("cinc", "left", "centre", "right")
#: key of a Field General's card-less play holding his continuing firefights
FIREFIGHT_PLAY = "firefight_continuing"
PRE = ("order", "move", "choose_section", "target", "chance")
GUNG_HO_PLUS = frozenset({"direct_from_hq", "move_out", "armor_assault", "dig_in", "firefight",
                          "behind_enemy_lines", "medics_and_mechanics"})


def seat(side: str, role: str) -> str:
    return f"{side}:{role}"


def split(s: Any) -> tuple[str | None, str | None]:
    if not isinstance(s, str) or ":" not in s:
        return None, None
    side, role = s.split(":", 1)
    return (side, role) if side in SIDES and role in ROLES else (None, None)


def seat_layouts(mode: str) -> dict[str, list[list[str]]]:
    """Ways to share one side's role seats among players (002 "Teams", 004 "Team Play").

    Layout name (players per side) -> groups of roles; each group is held by one identity.
    Prefix each role with ``"<SIDE>:"`` for the seat names."""
    if mode == "overlord":
        return {"4": [["cinc"], ["left"], ["centre"], ["right"]],
                "3": [["cinc", "centre"], ["left"], ["right"]],
                "2": [["cinc", "centre"], ["left", "right"]],
                "1": [["cinc", "left", "centre", "right"]]}
    if mode == "team":
        return {"3": [["cinc", "centre"], ["left"], ["right"]],
                "2": [["cinc", "centre"], ["left", "right"]],
                "1": [["cinc", "left", "centre", "right"]]}
    return {"1": [[]]}


# ============================================================================ modes
class TeamMode(StandardMode):
    """004 Team Play on a standard board (standard turn machine, role seats)."""

    name = "team"

    def seats(self, st: GameState) -> list[str]:
        return [seat(s, r) for s in SIDES for r in ROLES]

    def hand_seat(self, st: GameState, side: str) -> str:
        return seat(side, "cinc")

    def play_seat(self, st: GameState, side: str, card: int | None) -> str:
        c = CARDS.get(card) if card is not None else None
        if c is not None and c.kind == "section" and len(c.sections) == 1:
            return seat(side, FGS[c.sections[0]])
        return seat(side, "cinc")

    def unit_seat(self, st: GameState, u) -> str:
        secs = st.scn.board.sections(u.hex, is_top(st, u.side))
        return seat(u.side, FGS[min(secs)] if secs else "cinc")

    def side_of(self, st: GameState, s: str) -> str | None:
        return split(s)[0]


class OverlordMode(TeamMode):
    """002 Overlord: C-in-C dispatches, Field Generals play in their sub-sections."""

    name = "overlord"

    def play_seat(self, st: GameState, side: str, card: int | None) -> str:
        return seat(side, "cinc")

    def unit_seat(self, st: GameState, u) -> str:
        subs = st.scn.board.subsections(u.hex, is_top(st, u.side))
        return seat(u.side, FGS[min(subs) // 2] if subs else "cinc")

    def fights_on(self, st: GameState, play: Play, u) -> bool:
        """A continuing firefight is fought without an order: the Field General commanding
        the unit's sub-section declares it, through his card-less firefight play of the
        battle wave (:func:`_firefight_plays`), never through a card play."""
        return play.key == FIREFIGHT_PLAY and self.unit_seat(st, u) == play.seat

    def extend_view(self, st: GameState, s: str | None, view: dict[str, Any]) -> None:
        _extend_view(st, s, view)


MODES["team"] = TeamMode()
MODES["overlord"] = OverlordMode()
OverlordMode.machine = sys.modules[__name__]   # the module's own turn machine


# ============================================================================ helpers
def zone(fg: str, half: int | None = None) -> frozenset[int]:
    i = FGS.index(fg)
    return frozenset({2 * i + half}) if half is not None else frozenset({2 * i, 2 * i + 1})


def in_zone(st: GameState, u, z: frozenset[int]) -> bool:
    return bool(st.scn.board.subsections(u.hex, is_top(st, u.side)) & z)


def fg_units(st: GameState, side: str, fg: str, z: frozenset[int] | None = None):
    z = z if z is not None else zone(fg)
    return [u for u in st.units.values() if u.side == side and in_zone(st, u, z)]


def _commissar_sides(scn) -> list[str]:
    v = scn.options.get("russian_commissar_rule")
    if not v:
        return []
    if isinstance(v, str) and v.upper() in SIDES:
        return [v.upper()]
    return [s for s in SIDES if scn.country.get(s) == "RU"] or ["ALLIES"]


def _gung_ho_sides(scn) -> list[str]:
    """Gung-Ho for a US side when the scenario has option ``gung_ho`` OR front PACIFIC."""
    front = str((scn.raw.get("game_info") or {}).get("front", "")).upper()
    if not (scn.options.get("gung_ho") or front == "PACIFIC"):
        return []
    return [s for s in SIDES if scn.country.get(s) == "US"]


# ============================================================================ game start
def init_game(st: GameState) -> None:
    scn = st.scn
    st.deck = overlord_deck_ids(scn.options)      # deck_name: Air Power -> Artillery Bombard
    air = st.options.get("overlord_air_sortie")
    if air:     # 002 "Overlord and the Air Pack": one Air Sortie each, the rest shuffled in
        st.deck += [c.id for c in AIR_SORTIES[2:]]
    st.rng.shuffle(st.deck)
    for i, s in enumerate((scn.player1_side, scn.player2_side)):
        if air:
            st.hands[s].append(AIR_SORTIES[i].id)
        while _hand_count(st, s) < scn.cards.get(s, 0) and st.deck:
            st.hands[s].append(st.deck.pop())    # an Air Sortie dealt is not counted
    st.ext = ShallowExt({"hand_size": {s: scn.cards.get(s, 0) for s in SIDES},
              "commissar_sides": tuple(_commissar_sides(scn)),
              "gung_ho_sides": tuple(_gung_ho_sides(scn)),
              "chip": {s: () for s in _commissar_sides(scn)}, "setup": tuple(_commissar_sides(scn)),
              "last_plays": {s: () for s in SIDES}, "visits": (),
              "step": "commissar_setup"})
    # ShallowExt: every value is replaced, never mutated in place (tuples for card lists
    # and histories, nested dicts through _put), so a state clone copies the top level only
    _new_turn_ext(st)
    TU.init_night(st)           # the standard machine's scenario rules, shared
    TU.init_camouflage(st)
    AD.init_airdrop(st)
    TU.init_smoke(st)
    if st.phase in SCENARIO_SETUP:
        st.ext["step"] = "scenario_setup"
        refresh(st)
        return
    _begin(st, [])


#: Scenario set-up steps before the first turn (vocabulary 3.3 ``airdrop``/``airdrop2``,
#: ``smoke_screen``): the standard machine's phases and handlers
SCENARIO_SETUP = ("airdrop", "smoke")


def _scenario_setup(st: GameState, action: dict, events: list) -> None:
    """Scenario set-up steps in an Overlord game: the airdrop(s), then the smoke screen,
    then the game-start Commissar placement and the first turn.

    002 is silent on who takes these steps; the decision is the side's, whose cards and
    overall command the Commander-in-Chief holds (002 "Teams"), so it is the C-in-C seat
    (``hand_seat``, as for every side-wide decision of this mode)."""
    _handle(st, action, events)
    if st.phase not in SCENARIO_SETUP:
        _begin(st, events)


def _begin(st: GameState, events: list) -> None:
    """After the set-up steps: the game-start Commissar placement, else the first turn."""
    if st.ext["setup"]:
        st.ext["step"] = "commissar_setup"
        st.phase = "commissar"
        refresh(st)
    else:
        _start_turn(st, st.scn.starting_side, events)


def _hand_count(st: GameState, side: str) -> int:
    """Cards counted toward the hand size (Air Sortie cards are not, 002 Air Pack)."""
    return sum(1 for c in st.hands[side] if CARDS[c].key != AIR_SORTIE_KEY)


def _put(x: dict, key: str, sub: Any, value: Any) -> None:
    """``x[key][sub] = value`` copy-on-write: ext's values are never mutated in place
    (``ShallowExt``: a state clone copies the top level only)."""
    x[key] = {**x[key], sub: value}


def _new_turn_ext(st: GameState) -> None:
    x = st.ext
    # card lists are tuples, replaced rather than mutated (cheap state clones)
    x.update(dispatch={r: () for r in ROLES}, visit=None, gung_ho_fg=None,
             received={fg: () for fg in FGS}, initiative={fg: None for fg in FGS},
             taken=(), placed=0, init_pending=None, chance_fg=None, halves={fg: () for fg in FGS})


def _start_turn(st: GameState, side: str, events: list) -> None:
    TU.start_turn(st, side, events)
    _new_turn_ext(st)
    x = st.ext
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


# ============================================================================ work / to_act
def _side_x(st: GameState) -> str:
    """Side whose C-in-C is deciding (commissar setup may be the non-active side)."""
    x = st.ext
    if x["step"] == "commissar_setup":
        return x["setup"][0]
    return st.active


def _fg_plays(st: GameState, fg: str) -> list[Play]:
    s = seat(st.active, fg)
    return [p for p in st.plays if p.seat == s]


def _stages(st: GameState) -> dict[str, list[str]]:
    """FG role -> stages of the active side's plays by that Field General, in play order
    (one pass over the plays, shared by the per-FG work queries)."""
    out: dict[str, list[str]] = {"left": [], "centre": [], "right": []}
    roles = _FG_SEATS.get(st.active, {})
    for p in st.plays:
        r = roles.get(p.seat)
        if r is not None:
            out[r].append(p.flags["stage"])
    return out


_FG_SEATS = {sd: {seat(sd, fg): fg for fg in FGS} for sd in SIDES}


def _pre_work(st: GameState, fg: str, stages: list[str] | None = None) -> str | None:
    x = st.ext
    ip = x["init_pending"]
    if ip and ip["fg"] == fg:
        return "initiative_unit"
    for sg in (stages if stages is not None else _stages(st)[fg]):
        if sg in PRE:
            return sg
    if x["received"][fg]:
        return "play_card"
    if x["initiative"][fg] is None:
        return "initiative"
    return None


def _any_pre(st: GameState) -> bool:
    stg = _stages(st)
    return any(_pre_work(st, fg, stg[fg]) for fg in FGS)


def _battle_work(st: GameState, fg: str, stages: list[str] | None = None) -> str | None:
    if "battle" in (stages if stages is not None else _stages(st)[fg]):
        return "battle"
    return None


def _waiting(st: GameState) -> list[dict[str, Any]]:
    """Every decision waited for now: [{"type", "seat", ...}] (several FG seats possible)."""
    if st.game_over:
        return []
    if st.battles:
        return [B.pending_for(st)]
    if st.chance is not None:
        return [{"type": "roll", "seat": "chance", "dice": st.chance["n"], "for": st.chance["for"]}]
    x = st.ext
    step = x["step"]
    if step == "scenario_setup":
        return [TU.compute_pending(st)]
    side = _side_x(st)
    if step in ("commissar_setup", "commissar"):
        return [{"type": "commissar", "seat": seat(side, "cinc"),
                 "chip_count": len(x["chip"][side])}]
    if step == "dispatch":
        return [{"type": "dispatch", "seat": seat(side, "cinc")}]
    if step == "cinc":
        return [{"type": st.plays[-1].flags["stage"], "seat": seat(side, "cinc")}]
    if step == "fg":
        stg = _stages(st)
        pre = [(fg, w) for fg in FGS if (w := _pre_work(st, fg, stg[fg]))]
        if pre:
            return [{"type": w, "seat": seat(side, fg)} for fg, w in pre]
        return [{"type": w, "seat": seat(side, fg)} for fg in FGS
                if (w := _battle_work(st, fg, stg[fg]))]
    return []


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
        return B.legal(st, s)
    x = st.ext
    if x["step"] == "scenario_setup":
        return TU.legal_actions(st, s)
    side, role = split(s)
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


class _Focus:
    """Make ``play`` the current play (last of ``st.plays``) with ``st.phase`` = its stage.

    The standard procedures read ``st.play`` / ``st.phase``; on exit the play's stage is
    saved back.  ``keep=False`` (read-only queries) restores the order of ``st.plays``."""

    def __init__(self, st: GameState, play: Play, keep: bool = True) -> None:
        self.st, self.play, self.keep = st, play, keep

    def __enter__(self):
        st, play = self.st, self.play
        self.index = st.plays.index(play)
        if st.plays[-1] is not play:
            st.plays.remove(play)
            st.plays.append(play)
        self.outer = st.phase
        st.phase = play.flags["stage"]
        return play

    def __exit__(self, *exc):
        st = self.st
        self.play.flags["stage"] = st.phase
        st.phase = self.outer
        if not self.keep and st.plays[self.index] is not self.play:
            st.plays.remove(self.play)
            st.plays.insert(self.index, self.play)
        return False


def _play_of(st: GameState, s: str) -> Play:
    side, role = split(s)
    if role == "cinc":
        return st.plays[-1]
    battle_wave = not _any_pre(st)
    for p in _fg_plays(st, role):
        if (p.flags["stage"] == "battle") if battle_wave else (p.flags["stage"] in PRE):
            return p
    raise IllegalAction("not_your_turn", "you have nothing to do now")


# ============================================================================ dispatch rules
def _pool(st: GameState, side: str) -> list[int]:
    """Cards the C-in-C may dispatch: his hand, or (Commissar) the cards taken from under
    the chip plus Counter-Attack cards from his hand."""
    x = st.ext
    if side in x["commissar_sides"]:
        return list(x["taken"]) + [c for c in st.hands[side]
                                   if CARDS[c].key in ("counter_attack", AIR_SORTIE_KEY)]
    return list(st.hands[side])


def _dispatched(st: GameState) -> list[int]:
    return [c for r in ROLES for c in st.ext["dispatch"][r]]


class _Ctx:
    """What every dispatch check of one state reads, computed once."""

    __slots__ = ("d", "pool", "disp", "hand", "from_hand", "n", "tfh")

    def __init__(self, st: GameState, side: str) -> None:
        x = st.ext
        self.d = x["dispatch"]
        self.pool = _pool(st, side)
        self.disp = _dispatched(st)
        self.hand = st.hands[side]
        self.from_hand = sum(1 for c in self.disp if c in self.hand)
        self.n = len(self.disp)
        self.tfh = any(CARDS[c].key == "their_finest_hour" for c in self.disp)


def _dispatch_error(st: GameState, side: str, cid: Any, to: Any,
                    ctx: _Ctx | None = None) -> str | None:
    if not isinstance(cid, int) or to not in ROLES:
        return "malformed_action"
    cx = ctx if ctx is not None else _Ctx(st, side)
    if cid not in cx.pool:
        return "card_not_in_hand"
    if cid in cx.disp:
        return "card_already_dispatched"
    c = CARDS[cid]
    if c.key == "ambush":
        return "card_not_playable"
    if cx.n >= 3:
        return "too_many_cards"
    if cid in cx.hand and len(cx.hand) - cx.from_hand - 1 < 1:
        return "must_keep_one_card"
    d = cx.d
    if c.key == "their_finest_hour" and cx.n:
        return "finest_hour_alone"
    if cx.n and any(CARDS[k].key == "their_finest_hour" for k in cx.disp):
        return "finest_hour_alone"
    if to == "cinc":
        if c.kind == "section" or getattr(c, "icon", "fg") in ("fg", "air"):
            return "card_not_for_cinc"
        if d["cinc"]:
            return "cinc_tactic_only_one"
        return None
    if c.kind == "tactic" and getattr(c, "icon", "") == "cinc":
        return "card_only_for_cinc"
    if c.kind == "section" and to not in getattr(c, "arrows", ()):
        return "section_card_wrong_general"
    return _fg_mix_error(c, d[to])


def _fg_mix_error(c, given: tuple) -> str | None:
    """May a Field General who already received ``given`` also receive card ``c``?
    (002: a Tactic card alone; at most two cards; two Section cards one per half; an Air
    Sortie may go with a Section card, never with another Tactic card.)"""
    if not given:
        return None
    mine = [CARDS[k] for k in given]
    air = c.key == AIR_SORTIE_KEY
    if (any(k.kind == "tactic" and k.key != AIR_SORTIE_KEY for k in mine)
            or (c.kind == "tactic" and not air) or (air and any(k.kind == "tactic" for k in mine))):
        return "tactic_card_must_be_alone"
    if len(mine) >= 2:
        return "general_card_limit"
    if c.kind == "section" and any(k.kind == "section" and (c.key in BOTH_HALVES
                                                            or k.key in BOTH_HALVES) for k in mine):
        return "section_card_both_halves"
    return None


_STATIC: dict[int, tuple[str, ...]] = {}


def _static_roles(cid: int) -> tuple[str, ...]:
    """Roles a card may go to by its marks alone (the state-free checks of
    :func:`_dispatch_error`, in ``ROLES`` order)."""
    r = _STATIC.get(cid)
    if r is None:
        c = CARDS[cid]
        out = []
        if c.key != "ambush":
            for to in ROLES:
                if to == "cinc":
                    ok = not (c.kind == "section" or getattr(c, "icon", "fg") in ("fg", "air"))
                else:
                    ok = not (c.kind == "tactic" and getattr(c, "icon", "") == "cinc") and not (
                        c.kind == "section" and to not in getattr(c, "arrows", ()))
                if ok:
                    out.append(to)
        r = _STATIC[cid] = tuple(out)
    return r


def _any_dispatch(st: GameState, side: str, ctx: _Ctx | None = None) -> bool:
    k = ctx if ctx is not None else _Ctx(st, side)
    return any(_dispatch_error(st, side, c, to, k) is None
               for c in k.pool if c not in k.disp for to in ROLES)


def _confirm_error(st: GameState, side: str, ctx: _Ctx | None = None) -> str | None:
    x = st.ext
    k = ctx if ctx is not None else _Ctx(st, side)
    if not k.disp and _any_dispatch(st, side, k):
        return "must_dispatch_a_card"
    if side in x["commissar_sides"]:
        for c in x["taken"]:
            if c not in k.disp and any(_dispatch_error(st, side, c, to, k) is None
                                       for to in ROLES):
                return "commissar_cards_must_be_played"
    return None


def _chip_options(st: GameState, side: str) -> list[int]:
    x = st.ext
    if len(x["chip"][side]) >= 3 or len(st.hands[side]) <= 1:
        return []
    return [c for c in st.hands[side] if CARDS[c].key != "ambush"]


def _halves(st: GameState, fg: str, cid: int) -> list[int | None]:
    c = CARDS[cid]
    if c.key not in ONE_HALF:
        return [None]
    used = st.ext["halves"][fg]
    return [h for h in (0, 1) if h not in used]


# ============================================================================ apply
def apply_action(st: GameState, action: dict[str, Any], events: list) -> None:
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
        if not waits:
            who = ", ".join(to_act(st))
            raise IllegalAction("not_your_turn", f"waiting for {who}")
        p = waits[0]
        side, role = split(s)
        if st.battles:
            with _Focus(st, st.plays[-1]):
                B.apply(st, action, events)
            _after_focus(st, st.plays[-1], events)
        elif st.ext["step"] == "scenario_setup":
            _scenario_setup(st, action, events)
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


def _handle(st: GameState, action: dict, events: list) -> None:
    """Run the standard machine's handler of ``action`` for the current ``st.phase``."""
    t = action.get("type")
    if t not in TU.KNOWN:
        raise IllegalAction("unknown_action", f"unknown action type {t!r}")
    handler = TU.HANDLERS.get((st.phase, t))
    if handler is None:
        raise IllegalAction("wrong_phase", f"{t!r} is not possible during {st.phase}")
    handler(st, action, events)


def _roll(st: GameState, action: dict, events: list) -> None:
    if not st.battles and st.chance["for"] == "night":
        _night_roll(st, action, events)
        return
    if st.battles or st.chance["for"] != "initiative":
        play = st.plays[-1]          # the play whose battle / card roll this is
        tfh = not st.battles and play.flags.get("ol_tfh") and st.chance["for"] == "their_finest_hour"
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


def _night_roll(st: GameState, action: dict, events: list) -> None:
    """Night visibility (scenario option ``night_visibility_rules``, vocabulary 3.3) in an
    Overlord game: the 4 dice rolled at the start of each turn of the night side
    (``TU.start_turn``), before its Commissar / dispatch step, which then goes on.

    002 is silent on who rolls; the roll is a side-wide decision-free step, so it is
    the side's Commander-in-Chief (``hand_seat``, as for the scenario set-up steps): the
    ``dice_rolled`` event carries his seat."""
    faces = TU.roll_faces(st, action)
    st.chance = None
    TU.night_rolled(st, faces, events)


def _tfh_by_general(play: Play, events: list) -> None:
    """Their Finest Hour in Overlord: each FG's 4 dice order units in his own command."""
    faces = next(e["dice"] for e in reversed(events) if e.get("kind") == "their_finest_hour")
    quotas = []
    for i, fg in enumerate(FGS):
        mine = faces[4 * i:4 * i + 4]
        for classes, n in ((frozenset({"inf"}), mine.count("inf")),
                           (frozenset({"armor"}), mine.count("armor")), (None, mine.count("star"))):
            if n:
                quotas.append(Quota(zone(fg), n, classes, True))
    play.quotas = quotas


def _after_focus(st: GameState, play: Play, events: list) -> None:
    """Skip the focused play's phases with nothing to decide (never enters battle early)."""
    x = st.ext
    if st.battles or st.game_over:
        return
    battle_wave = x["step"] == "cinc" or not _any_pre(st)
    with _Focus(st, play):
        for _ in range(20):
            ph = st.phase
            if ph == "order" and not T.orderable(st, play):
                T.end_orders(st, play, events)
            elif ph == "move" and not TU._anything_to_move(st, play):
                st.phase = "battle"
            elif ph == "battle" and battle_wave and not TU._anything_to_battle(st, play):
                st.phase = "end"
            elif ph == "target" and not T.target_options(st, play) and not st.air_targets:
                st.phase = "end"
            elif ph == "choose_section" and not T.infantry_sections(st, play):
                st.phase = "end"
            else:
                break
    if (st.chance is not None and st.chance["for"] == "medics" and st.chance["n"] != 4
            and not play.seat.endswith(":cinc")):
        st.chance = {"n": 4, "for": "medics"}     # Overlord Medics card: the FG rolls 4 dice


def _advance(st: GameState, events: list) -> None:
    """Drain extra draws (Ambush), move between steps, end the turn."""
    x = st.ext
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
    m = MODES[st.mode]
    for a, _b in B.firefight_options(st, st.active):
        fs = m.unit_seat(st, a)
        role = split(fs)[1]
        if fs in have or role not in FGS:
            continue
        play = Play(None, FIREFIGHT_PLAY, fs, st.active)
        play.flags.update(stage="battle", src=None, subs=sorted(zone(role)))
        st.plays.append(play)
        have.add(fs)


# ----------------------------------------------------------------------------- commissar
def _commissar(st: GameState, side: str, action: dict, events: list) -> None:
    x = st.ext
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
        events.append({"type": "commissar_card_placed", "side": side, "seat": cs,
                       "count": len(x["chip"][side]),
                       "secret": {"card": CARDS[cid].to_json()}, "secret_to": [cs]})
    elif t == "end_commissar":
        if x["step"] == "commissar_setup":
            x["setup"] = x["setup"][1:]
            if not x["setup"]:
                _start_turn(st, st.scn.starting_side, events)
        else:
            x["step"] = "dispatch"
            st.phase = "dispatch"
    else:
        raise IllegalAction("wrong_phase", f"{t!r}: place cards under the Commissar chip or "
                            "end_commissar")


# ----------------------------------------------------------------------------- dispatch
def _dispatch_action(st: GameState, side: str, action: dict, events: list) -> None:
    x = st.ext
    t = action.get("type")
    cs = seat(side, "cinc")
    if t == "dispatch":
        cid, to = action.get("card"), action.get("to")
        err = _dispatch_error(st, side, cid, to)
        if err:
            raise IllegalAction(err, _MESSAGES.get(err, err))
        _put(x, "dispatch", to, (*x["dispatch"][to], cid))
        events.append({"type": "card_dispatched", "side": side, "seat": cs,
                       "secret": {"card": CARDS[cid].to_json(), "to": to}, "secret_to": [cs]})
    elif t == "undo_dispatch":
        cid = action.get("card")
        for r in ROLES:
            if cid in x["dispatch"][r]:
                _put(x, "dispatch", r, tuple(c for c in x["dispatch"][r] if c != cid))
                events.append({"type": "dispatch_undone", "side": side, "seat": cs,
                               "secret": {"card": CARDS[cid].to_json()}, "secret_to": [cs]})
                return
        raise IllegalAction("card_not_dispatched", "that card has not been dispatched")
    elif t == "visit":
        fg = action.get("fg")
        if fg not in FGS:
            raise IllegalAction("malformed_action", "field 'fg' must be left, centre or right")
        x["visit"] = fg
    elif t == "gung_ho":
        fg = action.get("fg")
        if side not in x["gung_ho_sides"]:
            raise IllegalAction("no_gung_ho", "this side has no Gung-Ho! power")
        if fg not in FGS:
            raise IllegalAction("malformed_action", "field 'fg' must be left, centre or right")
        x["gung_ho_fg"] = fg
    elif t == "confirm_dispatch":
        err = _confirm_error(st, side)
        if err:
            raise IllegalAction(err, _MESSAGES.get(err, err))
        _confirm(st, side, events)
    else:
        raise IllegalAction("wrong_phase", f"{t!r} is not possible during the dispatch")


def _confirm(st: GameState, side: str, events: list) -> None:
    x = st.ext
    cs = seat(side, "cinc")
    d = x["dispatch"]
    for c in _dispatched(st):
        if c in st.hands[side]:
            st.hands[side].remove(c)
    st.hands[side].extend(c for c in x["taken"] if c not in _dispatched(st))
    x["taken"] = ()
    side_seats = [seat(side, r) for r in ROLES]
    x["visits"] = (*x["visits"], [st.turn, side, x["visit"]])
    events.append({"type": "orders_dispatched", "side": side, "seat": cs, "turn": st.turn,
                   "counts": {r: len(d[r]) for r in ROLES},
                   "secret": {"visit": x["visit"], "gung_ho": x["gung_ho_fg"]},
                   "secret_to": side_seats})
    for fg in FGS:
        _put(x, "received", fg, tuple(d[fg]))
        if d[fg]:
            _put(x, "initiative", fg, "cards")
            fs = seat(side, fg)
            events.append({"type": "cards_received", "side": side, "seat": fs,
                           "count": len(d[fg]),
                           "secret": {"cards": [CARDS[c].to_json() for c in d[fg]]},
                           "secret_to": [fs, cs]})
    if d["cinc"]:
        _cinc_play(st, side, d["cinc"][0], events)
        x["step"] = "cinc"
        st.phase = "cinc"
    else:
        x["step"] = "fg"
        st.phase = "fg"


def _cinc_play(st: GameState, side: str, cid: int, events: list) -> None:
    x = st.ext
    card = CARDS[cid]
    play = Play(cid, card.key, seat(side, "cinc"), side)
    play.flags["stage"] = "order"
    st.plays.append(play)
    events.append({"type": "card_played", "seat": play.seat, "side": side,
                   "card": card.to_json()})
    src = card
    if card.key == "counter_attack":
        last = [p for p in x["last_plays"][other(side)] if p["role"] == "cinc"]
        if not last:
            play.key = "none"
        else:
            src = CARDS[last[0]["src"]]
            play.key = src.key
            events.append({"type": "card_copied", "side": side, "card": src.to_json(),
                           "mirrored": False})
    play.flags["src"] = src.id
    play.flags["mirror"] = False
    with _Focus(st, play):
        T.setup(st, play, events, src)
        if src.key == "their_finest_hour":
            # Overlord card text (vocabulary 5.2): each Field General rolls 4 dice and
            # orders units under his own command (+1 die); one 12-dice chance node, dice
            # 4i..4i+3 are FGS[i]'s
            st.chance = {"n": 4 * len(FGS), "for": "their_finest_hour"}
            play.flags["ol_tfh"] = True
        if side in x["gung_ho_sides"] and card.key == "counter_attack" and play.quotas:
            play.quotas[0] = Quota(play.quotas[0].sections, play.quotas[0].count + 1,
                                   play.quotas[0].classes, play.quotas[0].subs)


# ----------------------------------------------------------------------------- FG plays
def _fg_play_card(st: GameState, side: str, fg: str, action: dict, events: list) -> None:
    x = st.ext
    if action.get("type") != "play_card":
        raise IllegalAction("wrong_phase", "play one of the cards you received first")
    cid = action.get("card")
    if cid not in x["received"][fg]:
        raise IllegalAction("card_not_in_hand", "you did not receive that card")
    half = action.get("half")
    opts = _halves(st, fg, cid)
    if half not in opts:
        if opts == [None]:
            half = None
        else:
            raise IllegalAction("illegal_section", f"field 'half' must be one of {opts}")
    copy = copy_choice(st, side, fg, cid, action.get("copy"))
    rec = list(x["received"][fg])
    rec.remove(cid)
    _put(x, "received", fg, tuple(rec))
    if half is not None:
        _put(x, "halves", fg, (*x["halves"][fg], half))
    card = CARDS[cid]
    fs = seat(side, fg)
    play = Play(cid, card.key, fs, side)
    play.flags["stage"] = "order"
    st.plays.append(play)
    events.append({"type": "card_played", "seat": fs, "side": side, "card": card.to_json(),
                   "half": half, **({"copy": copy} if action.get("copy") else {})})
    src = card
    gung = side in x["gung_ho_sides"]
    plus = 0
    if card.key == "counter_attack":
        if copy == "cinc":
            _copy_cinc_card(st, play, fg, counter_sources(st, side, fg)["cinc"], events)
            return
        if copy is None:
            play.key = "none"
            src = None
        else:
            last = counter_sources(st, side, fg)["field_general"]
            src = CARDS[last["src"]]
            play.key = src.key
            if last["subs"] and src.key in ONE_HALF:
                half = (5 - last["subs"][0]) % 2
            plus = 1 if gung else 0
            events.append({"type": "card_copied", "side": side, "card": src.to_json(),
                           "mirrored": True})
    play.flags["src"] = src.id if src is not None else cid
    play.flags["mirror"] = False
    play.flags["subs"] = sorted(zone(fg, half))
    if src is None:
        play.flags["stage"] = "end"
        return
    if gung and x["gung_ho_fg"] == fg and src.kind == "section":
        plus += 1
    if gung and src.key in GUNG_HO_PLUS:
        plus += 1
    with _Focus(st, play):
        _fg_setup(st, play, src, fg, half, plus, events)
    _after_focus(st, play, events)


#: ``play_card`` field ``copy`` of a Field General's Counter-Attack (vocabulary 5.2)
COPY_CHOICES = ("field_general", "cinc")


def counter_sources(st: GameState, side: str, fg: str) -> dict[str, dict[str, Any]]:
    """What a Field General's Counter-Attack may copy (vocabulary 5.2 / 002 card text:
    "the opposing Field General's card in the directly opposite sections, or a C-in-C card
    in any section"): ``"field_general"`` -> the directly opposite FG's last play (left
    faces right), ``"cinc"`` -> the enemy C-in-C's last Air Power / Barrage (targets in
    any section); each present only when the enemy's last turn had one."""
    opp = {"left": "right", "right": "left", "centre": "centre"}[fg]
    plays = st.ext["last_plays"][other(side)]
    out: dict[str, dict[str, Any]] = {}
    last = [p for p in plays if p["role"] == opp and CARDS[p["src"]].key not in CINC_ONLY]
    if last:
        out["field_general"] = last[0]
    top = [p for p in plays if p["role"] == "cinc"
           and CARDS[p["src"]].key in ("air_power", "barrage")]
    if top:
        out["cinc"] = top[0]
    return out


def copy_options(st: GameState, side: str, fg: str, cid: int) -> list[str | None]:
    """Values of ``play_card`` field ``copy`` offered for card ``cid``: a Counter-Attack
    with both sources to copy needs the Field General's choice (both offered); otherwise
    there is nothing to choose (``None``: field omitted)."""
    if CARDS[cid].key != "counter_attack":
        return [None]
    srcs = counter_sources(st, side, fg)
    return [c for c in COPY_CHOICES if c in srcs] if len(srcs) > 1 else [None]


def copy_choice(st: GameState, side: str, fg: str, cid: int, copy: Any) -> str | None:
    """The source a Field General's Counter-Attack copies: the ``copy`` field, required
    when both exist (error ``illegal_copy`` when missing, unknown, naming a source the
    enemy's last turn did not leave, or given with another card); ``None``: nothing to
    copy (no effect) or not a Counter-Attack."""
    if CARDS[cid].key != "counter_attack":
        if copy is not None:
            raise IllegalAction("illegal_copy", "only a Counter-Attack copies a card")
        return None
    srcs = counter_sources(st, side, fg)
    if copy is None:
        if len(srcs) > 1:
            raise IllegalAction("illegal_copy", "choose what the Counter-Attack copies: "
                                "copy 'field_general' or 'cinc'")
        return next(iter(srcs), None)
    if copy not in srcs:
        have = [c for c in COPY_CHOICES if c in srcs]
        raise IllegalAction("illegal_copy", f"field 'copy' must be one of {have}")
    return copy


def _copy_cinc_card(st: GameState, play: Play, fg: str, last: dict[str, Any],
                    events: list) -> None:
    """A Field General's Counter-Attack copying the enemy C-in-C's Air Power / Barrage:
    targets in any section (vocabulary 5.2).  At night (visibility < 6, vocabulary 3.3)
    the card orders 1 unit instead; a Field General orders only in his own sub-sections
    (002 "Field Generals"), so that order is limited to his command."""
    src = CARDS[last["src"]]
    play.key = src.key
    play.flags.update(src=src.id, mirror=False, subs=sorted(zone(fg)))
    events.append({"type": "card_copied", "side": play.side, "card": src.to_json(),
                   "mirrored": False})
    with _Focus(st, play):
        T.setup(st, play, events, src)
        if play.key.endswith(":night"):
            play.quotas = [Quota(zone(fg), 1, None, True)]
    _after_focus(st, play, events)


def _fg_setup(st: GameState, play: Play, src, fg: str, half: int | None, plus: int,
              events: list) -> None:
    """Configure an FG play: the card's procedure restricted to the FG's sub-sections."""
    key = src.key
    whole = zone(fg)
    z = zone(fg, half) if half is not None else whole
    flags = play.flags
    st.phase = "order"

    def q(count, classes=None, zz=z):
        return Quota(zz, count, classes, True)

    inf, arm, art = frozenset({"inf"}), frozenset({"armor"}), frozenset({"art"})
    units = fg_units(st, play.side, fg, z)

    def fallback(classes) -> bool:
        if any(u.cls in classes for u in units):
            return False
        play.quotas = [q(1 + plus)]
        play.flags = {k: flags[k] for k in ("stage", "src", "mirror", "subs") if k in flags}
        play.filter = None
        play.key += ":fallback"
        return True

    if src.kind == "section":
        if src.units == ALL:
            for u in units:
                if not u.ordered:
                    T.order(st, play, u, events)
            st.phase = "move"
        elif src.key in BOTH_HALVES:
            play.quotas = [q(src.units + plus, None, zone(fg, 0)), q(src.units, None, zone(fg, 1))]
        else:
            play.quotas = [q(src.units + plus)]
        return
    if key == "direct_from_hq":
        play.quotas = [q(4 + plus)]
    elif key == "move_out":
        play.quotas = [q(4 + plus, inf)]
        fallback(inf)
    elif key == "armor_assault":
        play.quotas = [q(4 + plus, arm)]
        flags["bonus_close"] = 1
        fallback(arm)
    elif key == "dig_in":
        play.quotas = [q(4 + plus, inf)]
        flags["dig_in"] = True
        fallback(inf)
    elif key == "firefight":
        # the Overlord card text has no "+1 die" line (vocabulary 5.2): no battle bonus
        play.quotas = [q(4 + plus)]
        play.filter = "not_adjacent"
        flags.update(no_move=True, no_take_ground=True)
    elif key == "behind_enemy_lines":
        play.quotas = [q(1 + plus, inf)]
        flags.update(move_max=3, ignore_terrain=True, bonus=1, battle_after_any_move=True,
                     move_again=3)
        fallback(inf)
    elif key == "medics_and_mechanics":
        play.quotas = [q(1 + plus)]
        play.filter = "wounded"
        flags["medics"] = True
    elif key == "close_assault":
        flags.update(no_move=True, bonus_close_first=1)
        from .common import adjacent_enemies
        for u in units:
            if u.cls in ("inf", "armor") and not u.ordered and adjacent_enemies(st, u):
                T.order(st, play, u, events)
        st.phase = "move"
    elif key == "artillery_bombard":
        if not fallback(art):
            flags.update(move_max=3, move_max_classes=("art",), battles=2,
                         battles_classes=("art",))
            for u in units:
                if u.cls == "art" and not u.ordered:
                    T.order(st, play, u, events)
            st.phase = "move"
    elif key == "infantry_assault":
        if not fallback(inf):
            flags["inf_move_bonus"] = 1
            for u in units:
                if u.cls == "inf" and not u.ordered:
                    T.order(st, play, u, events)
            st.phase = "move"
    else:   # a copied C-in-C card or an unknown procedure: no effect for a Field General
        st.phase = "end"


# ----------------------------------------------------------------------------- initiative
_INIT_CLASSES = {"inf": frozenset({"inf"}), "armor": frozenset({"armor"}), "star": None}


def _initiative(st: GameState, side: str, fg: str, action: dict, events: list) -> None:
    x = st.ext
    t = action.get("type")
    if t == "pass":
        _put(x, "initiative", fg, "passed")
        events.append({"type": "initiative_declined", "side": side, "seat": seat(side, fg)})
    elif t == "initiative":
        _put(x, "initiative", fg, "rolled")
        x["chance_fg"] = fg
        st.chance = {"n": 1, "for": "initiative"}
    else:
        raise IllegalAction("wrong_phase", "take the initiative or pass")


def _initiative_rolled(st: GameState, face: str, events: list) -> None:
    x = st.ext
    fg = x["chance_fg"]
    x["chance_fg"] = None
    side = st.active
    fs = seat(side, fg)
    units = [u for u in fg_units(st, side, fg) if not u.ordered]
    effect = "none"
    if face in _INIT_CLASSES:
        classes = _INIT_CLASSES[face]
        if any(classes is None or u.cls in classes for u in units):
            play = Play(None, "initiative", fs, side)
            play.quotas = [Quota(zone(fg), 1, classes, True)]
            play.flags["stage"] = "order"
            play.flags["src"] = None
            play.flags["subs"] = sorted(zone(fg))
            st.plays.append(play)
            effect = "order"
    elif face in ("flag", "grenade") and fg_units(st, side, fg):
        x["init_pending"] = {"fg": fg, "face": face}
        effect = "retreat" if face == "flag" else "lose_figure"
        if face == "flag" and not _retreatable(st, side, fg):
            effect = "lose_figure"
    events.append({"type": "dice_rolled", "side": side, "seat": fs, "dice": [face],
                   "kind": "initiative"})
    events.append({"type": "initiative_rolled", "side": side, "seat": fs, "face": face,
                   "effect": effect})


def _retreat_ends(st: GameState, u) -> list:
    from .common import terrain_at
    from .trains import coupled
    if u.cls in terrain_at(st, u.hex).cannot_leave or coupled(st, u):
        return []           # (a coupled train piece does not retreat alone)
    return sorted(B._retreat_ends(st, u, 1))


def _retreatable(st: GameState, side: str, fg: str) -> list:
    return [u for u in fg_units(st, side, fg) if _retreat_ends(st, u)]


def _init_options(st: GameState) -> list[dict[str, Any]]:
    x = st.ext
    ip = x["init_pending"]
    side, fg = st.active, ip["fg"]
    if ip["face"] == "flag":
        rs = _retreatable(st, side, fg)
        if rs:
            return [{"type": "initiative_unit", "unit": u.id, "to": [*h]}
                    for u in rs for h in _retreat_ends(st, u)]
    return [{"type": "initiative_unit", "unit": u.id} for u in fg_units(st, side, fg)]


def _initiative_unit(st: GameState, side: str, fg: str, action: dict, events: list) -> None:
    x = st.ext
    if action.get("type") != "initiative_unit":
        raise IllegalAction("wrong_phase", "choose the unit for the initiative roll")
    u = parse_unit(st, action)
    opts = _init_options(st)
    retreat = "to" in opts[0]
    if retreat:
        to = parse_hex(action, "to")
        if not any(o["unit"] == u.id and tuple(o["to"]) == to for o in opts):
            raise IllegalAction("illegal_retreat", "that unit cannot retreat there")
    elif not any(o["unit"] == u.id for o in opts):
        raise IllegalAction("unit_not_eligible", "choose one of your units")
    x["init_pending"] = None
    u = st.mut(u.id)
    u.no_battle = True
    if retreat:
        frm = u.hex
        del st.occ[frm]
        u.hex = to
        st.occ[to] = u.id
        unit_left_hex(st, frm, events)
        events.append({"type": "unit_retreated", "unit": u.id, "side": u.side,
                       "from": [*frm], "to": [*to]})
        update_objectives(st, events)
        check_victory(st, events)
    else:
        B.apply_hits(st, u, 1, other(side), events)
        update_objectives(st, events)
        check_victory(st, events)


# ----------------------------------------------------------------------------- end of turn
def _draw_capped(st: GameState, side: str, n: int, events: list) -> None:
    x = st.ext
    room = x["hand_size"][side] - _hand_count(st, side) - len(x["chip"].get(side, []))
    n = max(0, min(n, room))
    if n:
        got = TU.draw(st, side, events, n)
        extra = sum(1 for c in got if CARDS[c].key == AIR_SORTIE_KEY)
        while extra:        # an Air Sortie drawn is set aside and replaced (002 Air Pack)
            more = TU.draw(st, side, events, extra)
            got += more
            extra = sum(1 for c in more if CARDS[c].key == AIR_SORTIE_KEY) if more else 0
        TU._give(st, side, got, events)


def _end_turn(st: GameState, events: list) -> None:
    x = st.ext
    side = st.active
    last = []
    for p in st.plays:
        if p.card is not None:
            st.discard.append(p.card)
        if p.key != "none" and p.flags.get("src") is not None:
            last.append({"role": split(p.seat)[1], "src": p.flags["src"],
                         "subs": p.flags.get("subs")})
    _put(x, "last_plays", side, tuple(last))
    TU.reshuffle_if_due(st, events)
    # 002 "The Game Turn" 4: two new cards whatever was played (a Recon card included:
    # no standard "draw 2, keep 1" choice), never above the hand size
    _draw_capped(st, side, 2, events)
    events.append({"type": "turn_ended", "side": side, "turn": st.turn})
    if st.last_turn_for == side and st.options.get("counter_attack_last_turn"):
        end_by_damage(st, events)      # 004 optional Counter-Attack last turn is over
        return
    if end_out_of_cards(st, events):   # deck_reshuffling: false, or no card anywhere
        return
    _start_turn(st, other(side), events)


# ============================================================================ view
def _extend_view(st: GameState, s: str | None, view: dict[str, Any]) -> None:
    x = st.ext
    if x is None:
        return
    waits = _waiting(st)
    mine = [p for p in waits if p["seat"] == s]
    if mine:
        view["pending"] = dict(mine[0])
    view["pendings"] = [dict(p) for p in waits]
    vside, role = split(s)
    ol: dict[str, Any] = {
        "step": x["step"],
        "hand_size": dict(x["hand_size"]),
        "received": {fg: len(x["received"][fg]) for fg in FGS},
        "initiative": dict(x["initiative"]),
        "commissar": {sd: len(v) for sd, v in x["chip"].items()},
        "commissar_sides": list(x["commissar_sides"]),
        "gung_ho_sides": list(x["gung_ho_sides"]),
        "fg_subsections": {fg: sorted(zone(fg)) for fg in FGS},
    }
    if vside is not None:
        visits = [v for v in x["visits"] if v[1] == vside]
        last = visits[-1] if visits else None
        ol["chain_of_command"] = {
            "side": vside,
            "turn": last[0] if last else None,
            "visited": last[2] if last and last[0] == st.turn else None,
            "history": [[v[0], v[2]] for v in visits]}
        if vside == st.active:
            ol["gung_ho_fg"] = x["gung_ho_fg"]
        if role == "cinc":
            if vside == _side_x(st):
                ol["dispatch"] = {r: [CARDS[c].to_json() for c in x["dispatch"][r]] for r in ROLES}
                ol["visit"] = x["visit"]
                ol["taken"] = [CARDS[c].to_json() for c in x["taken"]]
            if vside in x["chip"]:
                ol["commissar_cards"] = [CARDS[c].to_json() for c in x["chip"][vside]]
        elif role in FGS and vside == st.active:
            ol["my_cards"] = [CARDS[c].to_json() for c in x["received"][role]]
        if vside == st.active and role in FGS:
            ol["halves_used"] = list(x["halves"][role])
    view["overlord"] = ol


_MESSAGES = {
    "card_not_in_hand": "that card is not among the cards you may dispatch",
    "card_already_dispatched": "that card is already dispatched",
    "card_not_playable": "Ambush is only played as a reaction to a close assault",
    "too_many_cards": "the C-in-C plays or hands out at most 3 cards a turn",
    "must_keep_one_card": "the C-in-C must always keep at least one card in hand",
    "card_not_for_cinc": "the C-in-C plays only tactic cards with his icon himself",
    "cinc_tactic_only_one": "a C-in-C who plays a tactic card plays no other card himself",
    "card_only_for_cinc": "this tactic card is played by the C-in-C himself",
    "section_card_wrong_general": "a section card goes only to a Field General its arrow points to",
    "tactic_card_must_be_alone": "a Field General who receives a tactic card receives nothing else",
    "general_card_limit": "a Field General receives at most two cards",
    "section_card_both_halves": "two section cards must be played one in each half; this card "
                                "orders in both halves",
    "must_dispatch_a_card": "select 1, 2 or 3 cards",
    "finest_hour_alone": "Their Finest Hour is the only Command card played this turn",
    "commissar_cards_must_be_played": "the cards taken from under the Commissar chip must be "
                                      "played or handed out",
}
