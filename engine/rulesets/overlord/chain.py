"""Overlord's chain of command (rules 002): the role seats and their layouts, the Field
Generals' zones, the C-in-C's dispatch rules (which card may go to whom), and whose work
it is at each step of the turn (stages, pending decisions, the play in focus).  The
turn machine: :mod:`engine.rulesets.overlord.machine`."""

from __future__ import annotations

from types import TracebackType
from typing import Any, Literal

from ...core.errors import IllegalAction
from ...procedures import battle_stack as BS
from ...core.scenario_model import Scenario
from ..m44.cards import CARDS, CardDef
from ...procedures.common import SIDES, is_top
from ...procedures.state import GameState, Play, Unit
from ..m44 import turn as TU
from .cards import AIR_SORTIE_KEY, BOTH_HALVES, FGS, ONE_HALF
from .records import Nested, OverlordExt, ox


ROLES = ("cinc", "left", "centre", "right")


#: key of a Field General's card-less play holding his continuing firefights
FIREFIGHT_PLAY = "firefight_continuing"


PRE = ("order", "move", "choose_section", "target", "chance")


GUNG_HO_PLUS = frozenset(
    {
        "direct_from_hq",
        "move_out",
        "armor_assault",
        "dig_in",
        "firefight",
        "behind_enemy_lines",
        "medics_and_mechanics",
    }
)


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
        return {
            "4": [["cinc"], ["left"], ["centre"], ["right"]],
            "3": [["cinc", "centre"], ["left"], ["right"]],
            "2": [["cinc", "centre"], ["left", "right"]],
            "1": [["cinc", "left", "centre", "right"]],
        }
    if mode == "team":
        return {
            "3": [["cinc", "centre"], ["left"], ["right"]],
            "2": [["cinc", "centre"], ["left", "right"]],
            "1": [["cinc", "left", "centre", "right"]],
        }
    return {"1": [[]]}


# ============================================================================ helpers
def zone(fg: str, half: int | None = None) -> frozenset[int]:
    i = FGS.index(fg)
    return frozenset({2 * i + half}) if half is not None else frozenset({2 * i, 2 * i + 1})


def in_zone(st: GameState, u: Unit, z: frozenset[int]) -> bool:
    return bool(st.scn.board.subsections(u.hex, is_top(st, u.side)) & z)


def fg_units(st: GameState, side: str, fg: str, z: frozenset[int] | None = None) -> list[Unit]:
    z = z if z is not None else zone(fg)
    return [u for u in st.units.values() if u.side == side and in_zone(st, u, z)]


def _gung_ho_sides(scn: Scenario) -> list[str]:
    """Gung-Ho for a US side when the scenario has option ``gung_ho`` OR front PACIFIC."""
    front = str((scn.raw.get("game_info") or {}).get("front", "")).upper()
    if not (scn.options.get("gung_ho") or front == "PACIFIC"):
        return []
    return [s for s in SIDES if scn.country.get(s) == "US"]


def _hand_count(st: GameState, side: str) -> int:
    """Cards counted toward the hand size (Air Sortie cards are not, 002 Air Pack)."""
    return sum(1 for c in st.hands[side] if CARDS[c].key != AIR_SORTIE_KEY)


def _put(x: OverlordExt, key: Nested, sub: str, value: Any) -> None:
    """``x[key][sub] = value`` copy-on-write: ext's values are never mutated in place
    (``ShallowExt``: a state clone copies the top level only)."""
    x[key] = {**x[key], sub: value}


# ============================================================================ work / to_act
def _side_x(st: GameState) -> str:
    """Side whose C-in-C is deciding (commissar setup may be the non-active side)."""
    x = ox(st)
    if x["step"] == "commissar_setup":
        first: str = x["setup"][0]  # the sides still to set their chips up
        return first
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
    x = ox(st)
    ip = x["init_pending"]
    if ip and ip["fg"] == fg:
        return "initiative_unit"
    for sg in stages if stages is not None else _stages(st)[fg]:
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
        return [BS.pending_for(st)]
    if st.chance is not None:
        return [{"type": "roll", "seat": "chance", "dice": st.chance["n"], "for": st.chance["for"]}]
    x = ox(st)
    step = x["step"]
    if step == "scenario_setup":
        p = TU.compute_pending(st)
        return [p] if p is not None else []
    side = _side_x(st)
    if step in ("commissar_setup", "commissar"):
        return [
            {"type": "commissar", "seat": seat(side, "cinc"), "chip_count": len(x["chip"][side])}
        ]
    if step == "dispatch":
        return [{"type": "dispatch", "seat": seat(side, "cinc")}]
    if step == "cinc":
        return [{"type": st.plays[-1].flags["stage"], "seat": seat(side, "cinc")}]
    if step == "fg":
        stg = _stages(st)
        pre = [(fg, w) for fg in FGS if (w := _pre_work(st, fg, stg[fg]))]
        if pre:
            return [{"type": w, "seat": seat(side, fg)} for fg, w in pre]
        return [
            {"type": w, "seat": seat(side, fg)}
            for fg in FGS
            if (w := _battle_work(st, fg, stg[fg]))
        ]
    return []


class _Focus:
    """Make ``play`` the current play (last of ``st.plays``) with ``st.phase`` = its stage.

    The standard procedures read ``st.play`` / ``st.phase``; on exit the play's stage is
    saved back.  ``keep=False`` (read-only queries) restores the order of ``st.plays``."""

    def __init__(self, st: GameState, play: Play, keep: bool = True) -> None:
        self.st, self.play, self.keep = st, play, keep

    def __enter__(self) -> Play:
        st, play = self.st, self.play
        self.index = st.plays.index(play)
        if st.plays[-1] is not play:
            st.plays.remove(play)
            st.plays.append(play)
        self.outer = st.phase
        st.phase = play.flags["stage"]
        return play

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Literal[False]:
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
    if role is None:  # not a role seat: no play of its own
        raise IllegalAction("not_your_turn", "you have nothing to do now")
    battle_wave = not _any_pre(st)
    for p in _fg_plays(st, role):
        if (p.flags["stage"] == "battle") if battle_wave else (p.flags["stage"] in PRE):
            return p
    raise IllegalAction("not_your_turn", "you have nothing to do now")


# ============================================================================ dispatch rules
def _pool(st: GameState, side: str) -> list[int]:
    """Cards the C-in-C may dispatch: his hand, or (Commissar) the cards taken from under
    the chip plus Counter-Attack cards from his hand."""
    x = ox(st)
    if side in x["commissar_sides"]:
        return list(x["taken"]) + [
            c for c in st.hands[side] if CARDS[c].key in ("counter_attack", AIR_SORTIE_KEY)
        ]
    return list(st.hands[side])


def _dispatched(st: GameState) -> list[int]:
    return [c for r in ROLES for c in ox(st)["dispatch"][r]]


class _Ctx:
    """What every dispatch check of one state reads, computed once."""

    __slots__ = ("d", "pool", "disp", "hand", "from_hand", "n", "tfh")

    def __init__(self, st: GameState, side: str) -> None:
        x = ox(st)
        self.d = x["dispatch"]
        self.pool = _pool(st, side)
        self.disp = _dispatched(st)
        self.hand = st.hands[side]
        self.from_hand = sum(1 for c in self.disp if c in self.hand)
        self.n = len(self.disp)
        self.tfh = any(CARDS[c].key == "their_finest_hour" for c in self.disp)


def _dispatch_error(
    st: GameState, side: str, cid: Any, to: Any, ctx: _Ctx | None = None
) -> str | None:
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


def _fg_mix_error(c: CardDef, given: tuple[int, ...]) -> str | None:
    """May a Field General who already received ``given`` also receive card ``c``?
    (002: a Tactic card alone; at most two cards; two Section cards one per half; an Air
    Sortie may go with a Section card, never with another Tactic card.)"""
    if not given:
        return None
    mine = [CARDS[k] for k in given]
    air = c.key == AIR_SORTIE_KEY
    if (
        any(k.kind == "tactic" and k.key != AIR_SORTIE_KEY for k in mine)
        or (c.kind == "tactic" and not air)
        or (air and any(k.kind == "tactic" for k in mine))
    ):
        return "tactic_card_must_be_alone"
    if len(mine) >= 2:
        return "general_card_limit"
    if c.kind == "section" and any(
        k.kind == "section" and (c.key in BOTH_HALVES or k.key in BOTH_HALVES) for k in mine
    ):
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
                        c.kind == "section" and to not in getattr(c, "arrows", ())
                    )
                if ok:
                    out.append(to)
        r = _STATIC[cid] = tuple(out)
    return r


def _any_dispatch(st: GameState, side: str, ctx: _Ctx | None = None) -> bool:
    k = ctx if ctx is not None else _Ctx(st, side)
    return any(
        _dispatch_error(st, side, c, to, k) is None
        for c in k.pool
        if c not in k.disp
        for to in ROLES
    )


def _confirm_error(st: GameState, side: str, ctx: _Ctx | None = None) -> str | None:
    x = ox(st)
    k = ctx if ctx is not None else _Ctx(st, side)
    if not k.disp and _any_dispatch(st, side, k):
        return "must_dispatch_a_card"
    if side in x["commissar_sides"]:
        for c in x["taken"]:
            if c not in k.disp and any(_dispatch_error(st, side, c, to, k) is None for to in ROLES):
                return "commissar_cards_must_be_played"
    return None


def _chip_options(st: GameState, side: str) -> list[int]:
    x = ox(st)
    if len(x["chip"][side]) >= 3 or len(st.hands[side]) <= 1:
        return []
    return [c for c in st.hands[side] if CARDS[c].key != "ambush"]


def _halves(st: GameState, fg: str, cid: int) -> list[int | None]:
    c = CARDS[cid]
    if c.key not in ONE_HALF:
        return [None]
    used = ox(st)["halves"][fg]
    return [h for h in (0, 1) if h not in used]


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
