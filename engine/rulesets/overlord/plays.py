"""Overlord card plays (rules 002): the C-in-C's dispatch and confirmation, his own tactic
card, the Field Generals' plays in their sub-sections (Counter-Attack copies, the set-up
of each card for a Field General), and initiative.  Called by the turn machine
(:mod:`engine.rulesets.overlord.machine`)."""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalAction
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...core.geometry import Hex
from ..m44.cards import ALL, CARDS, CardDef
from ...procedures.common import adjacent_enemies, other, parse_hex, parse_unit, terrain_at
from ...procedures.medals import check_victory, update_objectives
from ...procedures.state import GameState, Play, Quota, Unit
from ...procedures.terrain_changes import unit_left_hex
from ...procedures.trains import coupled
from ..m44 import tactics as T
from ..m44 import turn as TU
from .cards import BOTH_HALVES, CINC_ONLY, FGS, ONE_HALF
from .chain import (
    GUNG_HO_PLUS,
    ROLES,
    _MESSAGES,
    _Focus,
    _any_pre,
    _confirm_error,
    _dispatch_error,
    _dispatched,
    _halves,
    _put,
    fg_units,
    seat,
    zone,
)
from .records import InitiativePending, LastPlay, ox


def _after_focus(st: GameState, play: Play, events: list[dict[str, Any]]) -> None:
    """Skip the focused play's phases with nothing to decide (never enters battle early)."""
    x = ox(st)
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
    if (
        st.chance is not None
        and st.chance["for"] == "medics"
        and st.chance["n"] != 4
        and not play.seat.endswith(":cinc")
    ):
        st.chance = {"n": 4, "for": "medics"}  # Overlord Medics card: the FG rolls 4 dice


# ----------------------------------------------------------------------------- dispatch
def _dispatch_action(
    st: GameState, side: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    x = ox(st)
    t = action.get("type")
    cs = seat(side, "cinc")
    if t == "dispatch":
        cid, to = action.get("card"), action.get("to")
        if not isinstance(cid, int) or not isinstance(to, str):
            raise IllegalAction("malformed_action", "dispatch needs a card id and 'to'")
        err = _dispatch_error(st, side, cid, to)
        if err:
            raise IllegalAction(err, _MESSAGES.get(err, err))
        _put(x, "dispatch", to, (*x["dispatch"][to], cid))
        events.append(
            {
                "type": "card_dispatched",
                "side": side,
                "seat": cs,
                "secret": {"card": CARDS[cid].to_json(), "to": to},
                "secret_to": [cs],
            }
        )
    elif t == "undo_dispatch":
        cid = action.get("card")
        for r in ROLES:
            if isinstance(cid, int) and cid in x["dispatch"][r]:
                _put(x, "dispatch", r, tuple(c for c in x["dispatch"][r] if c != cid))
                events.append(
                    {
                        "type": "dispatch_undone",
                        "side": side,
                        "seat": cs,
                        "secret": {"card": CARDS[cid].to_json()},
                        "secret_to": [cs],
                    }
                )
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


def _confirm(st: GameState, side: str, events: list[dict[str, Any]]) -> None:
    x = ox(st)
    cs = seat(side, "cinc")
    d = x["dispatch"]
    for c in _dispatched(st):
        if c in st.hands[side]:
            st.hands[side].remove(c)
    st.hands[side].extend(c for c in x["taken"] if c not in _dispatched(st))
    x["taken"] = ()
    side_seats = [seat(side, r) for r in ROLES]
    x["visits"] = (*x["visits"], [st.turn, side, x["visit"]])
    events.append(
        {
            "type": "orders_dispatched",
            "side": side,
            "seat": cs,
            "turn": st.turn,
            "counts": {r: len(d[r]) for r in ROLES},
            "secret": {"visit": x["visit"], "gung_ho": x["gung_ho_fg"]},
            "secret_to": side_seats,
        }
    )
    for fg in FGS:
        _put(x, "received", fg, tuple(d[fg]))
        if d[fg]:
            _put(x, "initiative", fg, "cards")
            fs = seat(side, fg)
            events.append(
                {
                    "type": "cards_received",
                    "side": side,
                    "seat": fs,
                    "count": len(d[fg]),
                    "secret": {"cards": [CARDS[c].to_json() for c in d[fg]]},
                    "secret_to": [fs, cs],
                }
            )
    if d["cinc"]:
        _cinc_play(st, side, d["cinc"][0], events)
        x["step"] = "cinc"
        st.phase = "cinc"
    else:
        x["step"] = "fg"
        st.phase = "fg"


def _cinc_play(st: GameState, side: str, cid: int, events: list[dict[str, Any]]) -> None:
    x = ox(st)
    card = CARDS[cid]
    play = Play(cid, card.key, seat(side, "cinc"), side)
    play.flags["stage"] = "order"
    st.plays.append(play)
    events.append({"type": "card_played", "seat": play.seat, "side": side, "card": card.to_json()})
    src = card
    if card.key == "counter_attack":
        last = [p for p in x["last_plays"][other(side)] if p["role"] == "cinc"]
        if not last:
            play.key = "none"
        else:
            src = CARDS[last[0]["src"]]
            play.key = src.key
            events.append(
                {"type": "card_copied", "side": side, "card": src.to_json(), "mirrored": False}
            )
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
            play.quotas[0] = Quota(
                play.quotas[0].sections,
                play.quotas[0].count + 1,
                play.quotas[0].classes,
                play.quotas[0].subs,
            )


# ----------------------------------------------------------------------------- FG plays
def _fg_play_card(
    st: GameState, side: str, fg: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    x = ox(st)
    if action.get("type") != "play_card":
        raise IllegalAction("wrong_phase", "play one of the cards you received first")
    cid = action.get("card")
    if not isinstance(cid, int) or cid not in x["received"][fg]:
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
    events.append(
        {
            "type": "card_played",
            "seat": fs,
            "side": side,
            "card": card.to_json(),
            "half": half,
            **({"copy": copy} if action.get("copy") else {}),
        }
    )
    src: CardDef | None = card
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
            events.append(
                {"type": "card_copied", "side": side, "card": src.to_json(), "mirrored": True}
            )
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


def counter_sources(st: GameState, side: str, fg: str) -> dict[str, LastPlay]:
    """What a Field General's Counter-Attack may copy (vocabulary 5.2 / 002 card text:
    "the opposing Field General's card in the directly opposite sections, or a C-in-C card
    in any section"): ``"field_general"`` -> the directly opposite FG's last play (left
    faces right), ``"cinc"`` -> the enemy C-in-C's last Air Power / Barrage (targets in
    any section); each present only when the enemy's last turn had one."""
    opp = {"left": "right", "right": "left", "centre": "centre"}[fg]
    plays = ox(st)["last_plays"][other(side)]
    out: dict[str, LastPlay] = {}
    last = [p for p in plays if p["role"] == opp and CARDS[p["src"]].key not in CINC_ONLY]
    if last:
        out["field_general"] = last[0]
    top = [
        p for p in plays if p["role"] == "cinc" and CARDS[p["src"]].key in ("air_power", "barrage")
    ]
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
            raise IllegalAction(
                "illegal_copy",
                "choose what the Counter-Attack copies: copy 'field_general' or 'cinc'",
            )
        return next(iter(srcs), None)
    if not isinstance(copy, str) or copy not in srcs:
        have = [c for c in COPY_CHOICES if c in srcs]
        raise IllegalAction("illegal_copy", f"field 'copy' must be one of {have}")
    return copy


def _copy_cinc_card(
    st: GameState, play: Play, fg: str, last: LastPlay, events: list[dict[str, Any]]
) -> None:
    """A Field General's Counter-Attack copying the enemy C-in-C's Air Power / Barrage:
    targets in any section (vocabulary 5.2).  At night (visibility < 6, vocabulary 3.3)
    the card orders 1 unit instead; a Field General orders only in his own sub-sections
    (002 "Field Generals"), so that order is limited to his command."""
    src = CARDS[last["src"]]
    play.key = src.key
    play.flags.update(src=src.id, mirror=False, subs=sorted(zone(fg)))
    events.append(
        {"type": "card_copied", "side": play.side, "card": src.to_json(), "mirrored": False}
    )
    with _Focus(st, play):
        T.setup(st, play, events, src)
        if play.key.endswith(":night"):
            play.quotas = [Quota(zone(fg), 1, None, True)]
    _after_focus(st, play, events)


def _fg_setup(
    st: GameState,
    play: Play,
    src: CardDef,
    fg: str,
    half: int | None,
    plus: int,
    events: list[dict[str, Any]],
) -> None:
    """Configure an FG play: the card's procedure restricted to the FG's sub-sections."""
    key = src.key
    whole = zone(fg)
    z = zone(fg, half) if half is not None else whole
    flags = play.flags
    st.phase = "order"

    def q(count: int, classes: frozenset[str] | None = None, zz: frozenset[int] = z) -> Quota:
        return Quota(zz, count, classes, True)

    inf, arm, art = frozenset({"inf"}), frozenset({"armor"}), frozenset({"art"})
    units = fg_units(st, play.side, fg, z)

    def fallback(classes: frozenset[str]) -> bool:
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
        flags.update(
            move_max=3, ignore_terrain=True, bonus=1, battle_after_any_move=True, move_again=3
        )
        fallback(inf)
    elif key == "medics_and_mechanics":
        play.quotas = [q(1 + plus)]
        play.filter = "wounded"
        flags["medics"] = True
    elif key == "close_assault":
        flags.update(no_move=True, bonus_close_first=1)
        for u in units:
            if u.cls in ("inf", "armor") and not u.ordered and adjacent_enemies(st, u):
                T.order(st, play, u, events)
        st.phase = "move"
    elif key == "artillery_bombard":
        if not fallback(art):
            flags.update(move_max=3, move_max_classes=("art",), battles=2, battles_classes=("art",))
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
    else:  # a copied C-in-C card or an unknown procedure: no effect for a Field General
        st.phase = "end"


# ----------------------------------------------------------------------------- initiative
_INIT_CLASSES = {"inf": frozenset({"inf"}), "armor": frozenset({"armor"}), "star": None}


def _initiative(
    st: GameState, side: str, fg: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    x = ox(st)
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


def _initiative_rolled(st: GameState, face: str, events: list[dict[str, Any]]) -> None:
    x = ox(st)
    fg = x["chance_fg"]
    assert fg is not None  # set with the roll (_initiative)
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
        x["init_pending"] = InitiativePending(fg=fg, face=face)
        effect = "retreat" if face == "flag" else "lose_figure"
        if face == "flag" and not _retreatable(st, side, fg):
            effect = "lose_figure"
    events.append(
        {"type": "dice_rolled", "side": side, "seat": fs, "dice": [face], "kind": "initiative"}
    )
    events.append(
        {"type": "initiative_rolled", "side": side, "seat": fs, "face": face, "effect": effect}
    )


def _retreat_ends(st: GameState, u: Unit) -> list[Hex]:
    if u.cls in terrain_at(st, u.hex).cannot_leave or coupled(st, u):
        return []  # (a coupled train piece does not retreat alone)
    return sorted(BO._retreat_ends(st, u, 1))


def _retreatable(st: GameState, side: str, fg: str) -> list[Unit]:
    return [u for u in fg_units(st, side, fg) if _retreat_ends(st, u)]


def _init_options(st: GameState) -> list[dict[str, Any]]:
    ip = ox(st)["init_pending"]
    assert ip is not None  # asked only while the initiative unit is waited for
    side, fg = st.active, ip["fg"]
    if ip["face"] == "flag":
        rs = _retreatable(st, side, fg)
        if rs:
            return [
                {"type": "initiative_unit", "unit": u.id, "to": [*h]}
                for u in rs
                for h in _retreat_ends(st, u)
            ]
    return [{"type": "initiative_unit", "unit": u.id} for u in fg_units(st, side, fg)]


def _initiative_unit(
    st: GameState, side: str, fg: str, action: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    x = ox(st)
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
        events.append(
            {"type": "unit_retreated", "unit": u.id, "side": u.side, "from": [*frm], "to": [*to]}
        )
        update_objectives(st, events)
        check_victory(st, events)
    else:
        B.apply_hits(st, u, 1, other(side), events)
        update_objectives(st, events)
        check_victory(st, events)
