"""Card procedures: how each command card configures its play (standard Memoir '44 card
text; see engine/cards.py).  ``setup(st, play, events)`` fills quotas/flags, orders units
for "ALL ..." cards and sets the next phase.
"""

from __future__ import annotations

from typing import Any

from ...core.geometry import Hex
from .cards import CARDS, CardDef
from ...core.errors import IllegalAction
from ...procedures.state import GameState, Play, Quota, Unit
from ...procedures.common import (
    FULL_DAY,
    adjacent_enemies,
    camouflaged,
    can_activate,
    is_top,
    side_units,
    terrain_at,
    unit_sections,
    night_track,
)
from ...procedures.battle import card_attack
from ...procedures.terrain_changes import place_sandbag
from ...procedures.trains import follower, pieces, sections

ANY = None
SECTION_KEYS = (
    "recon",
    "probe",
    "attack",
    "assault",
    "general_advance",
    "pincer_move",
    "recon_in_force",
)


def eligible(st: GameState, play: Play, u: Unit) -> bool:
    """Does ``u`` pass the card's unit filter (adjacency / wounded)?"""
    f = play.filter
    if f == "adjacent":
        return bool(adjacent_enemies(st, u))
    if f == "not_adjacent":
        return not adjacent_enemies(st, u)
    if f == "wounded":
        return u.figures < u.max_figures and u.spec.can_heal
    return True


def _fits(st: GameState, u: Unit, q: Quota) -> bool:
    if q.classes is not None and u.cls not in q.classes:
        return False
    if q.subs:  # Overlord: sub-sections 0..5 of the unit's side (engine.rulesets.overlord.machine)
        subs = st.scn.board.subsections(u.hex, u.side == st.scn.player1_side)
        return q.sections is not None and bool(subs & q.sections)
    if q.sections is None:
        return True
    if u.spec.train:  # a train is in every section one of its pieces is in
        return bool(sections(st, u) & q.sections)
    return bool(unit_sections(st, u) & q.sections)


def _orderable_unit(st: GameState, u: Unit) -> bool:
    """Not held back by ``CANNOT_BE_ACTIVATED_TILL_TURN``; not a wagon coupled behind a
    locomotive (the train is ordered through its locomotive, engine/procedures/trains.py)."""
    if not can_activate(st, u):
        return False
    if u.spec.train:
        return not follower(st, u)
    return True


def can_assign(st: GameState, play: Play, units: list[Unit]) -> bool:
    """Is there an assignment of ``units`` to the quota slots (bipartite matching)?"""
    quotas = play.quotas
    return _matchable(
        [[qi for qi, q in enumerate(quotas) if _fits(st, u, q)] for u in units], quotas
    )


def _matchable(fits: list[list[int]], quotas: list[Quota]) -> bool:
    """Bipartite matching of units (``fits[i]``: quota indices unit ``i`` fits) to slots."""
    slots = [i for i, q in enumerate(quotas) for _ in range(q.count)]
    if len(fits) > len(slots):
        return False
    match: dict[int, int] = {}  # slot index -> unit index
    return all(_augment(i, set(), fits, slots, match) for i in range(len(fits)))


def _augment(
    ui: int, seen: set[int], fits: list[list[int]], slots: list[int], match: dict[int, int]
) -> bool:
    """Augmenting path for unit ``ui`` (module-level: a recursive closure would make a
    reference cycle per call, left to the garbage collector)."""
    fit = fits[ui]
    for si, qi in enumerate(slots):
        if si in seen or qi not in fit:
            continue
        seen.add(si)
        if si not in match or _augment(match[si], seen, fits, slots, match):
            match[si] = ui
            return True
    return False


def orderable(st: GameState, play: Play) -> list[Unit]:
    """Units that could be ordered next under ``play``.

    Memoised on the play (a play belongs to one state; ``Play.copy`` drops the memo):
    valid while the play's orders, quotas, filter, the occupancy and the units are the
    same objects/sizes (ordering a unit changes ``len(play.ordered)``)."""
    key = (
        len(play.ordered),
        tuple(play.quotas),
        play.filter,
        id(st.occ),
        len(st.occ),
        len(st.units),
    )
    memo = getattr(play, "memo", None)
    if memo is not None and memo[0] == key:
        units = st.units
        return [units[i] for i in memo[1]]
    out = _orderable(st, play)
    play.memo = (key, tuple(u.id for u in out))
    return out


def may_order(st: GameState, play: Play, u: Unit) -> bool:
    """Is ``u`` one of :func:`orderable` (checked for that unit only)?"""
    return st.units.get(u.id) is u and may_order_new(st, play, u)


def may_order_new(st: GameState, play: Play, u: Unit) -> bool:
    """Could ``play`` give one more order to ``u`` (a unit not necessarily on the board
    yet: armour about to break through, engine.rulesets.m44.options.breakthrough)?"""
    quotas = play.quotas
    if (
        u.side != play.side
        or u.ordered
        or len(play.ordered) >= sum(q.count for q in quotas)
        or not _orderable_unit(st, u)
    ):
        return False
    fit = [qi for qi, q in enumerate(quotas) if _fits(st, u, q)]
    if not fit or not (play.filter is None or eligible(st, play, u)):
        return False
    if len(quotas) == 1:
        return True
    units = st.units
    done = [
        [qi for qi, q in enumerate(quotas) if _fits(st, units[x], q)]
        for x in play.ordered
        if x in units
    ]
    return _matchable(done + [fit], quotas)


def _orderable(st: GameState, play: Play) -> list[Unit]:
    quotas = play.quotas
    total = sum(q.count for q in quotas)
    if len(play.ordered) >= total:
        return []
    side = play.side
    single = len(quotas) == 1
    simple = play.filter is None
    out = []
    if single:
        q = quotas[0]
        for u in st.units.values():
            if (
                u.side == side
                and not u.ordered
                and _fits(st, u, q)
                and (simple or eligible(st, play, u))
                and _orderable_unit(st, u)
            ):
                out.append(u)
        return out
    units = st.units
    done = [
        [qi for qi, q in enumerate(quotas) if _fits(st, units[x], q)]
        for x in play.ordered
        if x in units
    ]
    for u in units.values():
        if u.side != side or u.ordered or not _orderable_unit(st, u):
            continue
        fit = [qi for qi, q in enumerate(quotas) if _fits(st, u, q)]
        if not fit or not (simple or eligible(st, play, u)):
            continue
        if _matchable(done + [fit], quotas):
            out.append(u)
    return out


def order(st: GameState, play: Play, u: Unit, events: list[dict[str, Any]]) -> None:
    """Order ``u`` (cards ordering "all units ..." call this for every unit: a unit held
    back by ``CANNOT_BE_ACTIVATED_TILL_TURN`` is skipped; a train is ordered once, through
    its locomotive, every piece marked ordered)."""
    if not can_activate(st, u) or u.ordered:
        return  # (Extra Command Cards: a unit ordered by an earlier card)
    extra: dict[str, Any] = {}
    if u.spec.train:
        train = pieces(st, u)
        u = train[0]
        if u.ordered:
            return
        for p in train[1:]:
            st.mut(p.id).ordered = True
        if len(train) > 1:
            extra = {"train": [p.id for p in train]}
    u = st.mut(u.id)
    u.ordered = True
    play.ordered.append(u.id)
    events.append({"type": "unit_ordered", "unit": u.id, "side": u.side, **extra})


def _fallback(st: GameState, play: Play, classes: frozenset[str] | None) -> bool:
    """'If you have no units of that type, issue an order to 1 unit of your choice.'"""
    if classes is None or any(u.cls in classes for u in side_units(st, play.side)):
        return False
    play.quotas = [Quota(ANY, 1)]
    play.flags = {}
    play.filter = None
    play.key += ":fallback"
    st.phase = "order"
    return True


def card_sections(src: CardDef, mirror: bool) -> tuple[int, ...]:
    """The sections a Section card ``src`` orders in (a mirrored Counter-Attack copy acts
    on the same physical flank: section ``2 - s``)."""
    return tuple(2 - s for s in src.sections) if mirror else src.sections


def setup(
    st: GameState,
    play: Play,
    events: list[dict[str, Any]],
    src: CardDef,
    mirror: bool = False,
    section: int | None = None,
) -> None:
    """Configure ``play`` for the procedure of card ``src`` and set ``st.phase``.

    ``src`` differs from the played card for a Counter-Attack (the copied card); then
    ``mirror`` flips section indices (2 - s) so the copy acts on the same physical flank.
    """
    key = play.key
    flags = play.flags
    st.phase = "order"
    if key in SECTION_KEYS:
        secs, units = card_sections(src, mirror), src.units
        if units < 0:  # Assault: all units in the section
            for u in side_units(st, play.side):
                if unit_sections(st, u) & frozenset(secs):
                    order(st, play, u, events)
            st.phase = "move"
        else:
            play.quotas = [Quota(frozenset({s}), units) for s in secs]
        if key == "recon":
            flags["recon_draw"] = True
        return
    inf, arm, art = frozenset({"inf"}), frozenset({"armor"}), frozenset({"art"})
    if key == "direct_from_hq":
        play.quotas = [Quota(ANY, 4)]
    elif key == "move_out":
        play.quotas = [Quota(ANY, 4, inf)]
        _fallback(st, play, inf)
    elif key == "armor_assault":
        play.quotas = [Quota(ANY, 4, arm)]
        flags["bonus_close"] = 1
        _fallback(st, play, arm)
    elif key == "dig_in":
        play.quotas = [Quota(ANY, 4, inf)]
        flags["dig_in"] = True
        _fallback(st, play, inf)
    elif key == "firefight":
        play.quotas = [Quota(ANY, 4)]
        play.filter = "not_adjacent"
        flags.update(no_move=True, bonus=1, no_take_ground=True)
    elif key == "behind_enemy_lines":
        play.quotas = [Quota(ANY, 1, inf)]
        flags.update(
            move_max=3, ignore_terrain=True, bonus=1, battle_after_any_move=True, move_again=3
        )
        _fallback(st, play, inf)
    elif key == "medics_and_mechanics":
        play.quotas = [Quota(ANY, 1)]
        play.filter = "wounded"
        flags["medics"] = True
    elif key == "close_assault":
        flags.update(no_move=True, bonus_close_first=1)
        for u in side_units(st, play.side):
            if u.cls in ("inf", "armor") and adjacent_enemies(st, u):
                order(st, play, u, events)
        st.phase = "move"
    elif key == "artillery_bombard":
        if not _fallback(st, play, art):
            flags.update(move_max=3, move_max_classes=("art",), battles=2, battles_classes=("art",))
            for u in side_units(st, play.side):
                if u.cls == "art":
                    order(st, play, u, events)
            st.phase = "move"
    elif key == "infantry_assault":
        if not _fallback(st, play, inf):
            flags["inf_move_bonus"] = 1
            if section is not None:  # Counter-Attack copy: same physical section
                if section in infantry_sections(st, play):
                    choose_section(st, play, section, events)
                else:
                    st.phase = "move"
            else:
                st.phase = "choose_section"
    elif key == "their_finest_hour":
        flags["bonus"] = 1
        st.reshuffle = True
        st.chance = {"n": len(st.hands[play.side]) + 1, "for": "their_finest_hour"}
        st.phase = "chance"
    elif key in ("air_power", "barrage") and night_track(st) < FULL_DAY:
        play.quotas = [Quota(ANY, 1)]  # night (vocabulary 3.3): "order 1 unit"
        play.key += ":night"
    elif key == "air_power" and st.hooks.no_air(st):
        play.quotas = [Quota(ANY, 1)]  # 004 Rainstorm: "No ... tactical airpower"; our
        play.key += ":rainstorm"  # reading: ordered like the night rule above
    elif key in ("air_power", "barrage"):
        st.phase = "target"
    elif key in ("ambush", "counter_attack", "none"):
        st.phase = "move"  # no effect (Ambush on own turn, Counter-Attack with nothing to copy)
    else:  # pragma: no cover
        raise AssertionError(key)


#: Tactic cards that order 1 or 4 units and order one more under Gung-Ho (002 "Gung-Ho!":
#: Air Power, Artillery Bombard, Barrage, Close Assault, Infantry Assault and Their Finest
#: Hour are unaffected; Medics & Mechanics heals one unit only, so it is left alone here).
GUNG_HO_TACTICS = frozenset(
    {"direct_from_hq", "move_out", "armor_assault", "dig_in", "firefight", "behind_enemy_lines"}
)


def gung_ho_side(st: GameState, side: str) -> bool:
    """Vocabulary 2.6 US Marines "Gung Ho": scenario option ``gung_ho`` and the side's
    country is ``US``."""
    return bool(st.scn.options.get("gung_ho")) and st.scn.country.get(side) == "US"


def gung_ho(st: GameState, play: Play, src: CardDef) -> None:
    """Gung-Ho (standard play): a Section card orders 1 more unit in one of its sections;
    a tactic card ordering 1 or 4 units orders 2 or 5 (after :func:`setup`)."""
    if not play.quotas or play.key.endswith(":fallback") or not gung_ho_side(st, play.side):
        return
    if play.key in SECTION_KEYS:
        secs = frozenset[int]().union(*(q.sections or () for q in play.quotas))
        play.quotas = play.quotas + [Quota(secs, 1)]
    elif play.key in GUNG_HO_TACTICS:
        play.quotas = [Quota(q.sections, q.count + 1, q.classes, q.subs) for q in play.quotas]


def infantry_sections(st: GameState, play: Play) -> list[int]:
    secs: set[int] = set()
    for u in side_units(st, play.side):
        if u.cls == "inf":
            secs |= unit_sections(st, u)
    return sorted(secs)


def choose_section(st: GameState, play: Play, section: int, events: list[dict[str, Any]]) -> None:
    if section not in infantry_sections(st, play):
        raise IllegalAction("illegal_section", "choose a section holding your infantry")
    play.section = section
    for u in side_units(st, play.side):
        if u.cls == "inf" and section in unit_sections(st, u):
            order(st, play, u, events)
    events.append({"type": "section_chosen", "side": play.side, "section": section})
    st.phase = "move"


def tfh_rolled(st: GameState, play: Play, faces: list[str], events: list[dict[str, Any]]) -> None:
    n_inf = faces.count("inf")
    n_arm = faces.count("armor")
    n_star = faces.count("star")
    play.quotas = [
        q
        for q in (
            Quota(ANY, n_inf, frozenset({"inf"})),
            Quota(ANY, n_arm, frozenset({"armor"})),
            Quota(ANY, n_star),
        )
        if q.count
    ]
    events.append(
        {"type": "dice_rolled", "side": play.side, "dice": list(faces), "kind": "their_finest_hour"}
    )
    st.phase = "order"


def end_orders(st: GameState, play: Play, events: list[dict[str, Any]]) -> None:
    """Leave the order phase: Dig In places sandbags, Medics rolls, others move."""
    if play.flags.get("dig_in"):
        for uid in play.ordered:
            u = st.mut(uid)
            place_sandbag(st, u.hex, events)
            u.no_battle = True
        play.flags["no_move"] = True
        st.phase = "end"
        return
    if play.flags.get("medics"):
        if play.ordered:
            st.chance = {"n": len(st.hands[play.side]) + 1, "for": "medics"}
            st.phase = "chance"
            return
    st.phase = "move"


def medics_rolled(
    st: GameState, play: Play, faces: list[str], events: list[dict[str, Any]]
) -> None:
    u = st.mut(play.ordered[0])
    own = {"inf": "inf", "armor": "armor"}.get(u.cls)
    healed = sum(1 for f in faces if f == "star" or f == own)
    got = min(healed, u.max_figures - u.figures)
    u.figures += got
    events.append({"type": "dice_rolled", "side": play.side, "dice": list(faces), "kind": "medics"})
    events.append(
        {"type": "unit_healed", "unit": u.id, "figures_gained": got, "figures": u.figures}
    )
    if not got:
        u.ordered = False
        play.ordered.clear()
    st.phase = "move"


# ------------------------------------------------------------------- air power / barrage
def air_chain_ok(st: GameState, hexes: list[Hex], h: Hex) -> bool:
    if not hexes:
        return True
    return any(st.scn.board.distance(h, x) == 1 for x in hexes)


def target_options(st: GameState, play: Play) -> list[Any]:
    """Hexes the Air Power / Barrage may target next.  A Recon played as an Air Power
    (``air_section``) is "limited to targets including a unit in that section"
    (vocabulary 5.1): its first target must stand in the card's section (any contiguous
    chain holding such a unit can be picked starting from it)."""
    limit = 4 if play.key == "air_power" else 1
    if len(st.air_targets) >= limit:
        return []
    section = play.flags.get("air_section") if not st.air_targets else None
    top = is_top(st, play.side)

    def next_in_chain(h: Hex) -> bool:
        return (
            h not in st.air_targets
            and air_chain_ok(st, st.air_targets, h)
            and (section is None or st.scn.board.in_section(h, section, top))
        )

    camo = camouflaged(st)  # camouflaged units: not by Air Power / Barrage
    out = [
        u.hex
        for u in st.units.values()
        if u.side != play.side
        and u.hex not in camo
        and next_in_chain(u.hex)
        and not st.hooks.hidden(st, play.side, u)
    ]
    return out + st.hooks.card_targets(st, play.side, next_in_chain)  # bridges (004)


def add_target(st: GameState, play: Play, h: Hex, events: list[dict[str, Any]]) -> None:
    if h not in target_options(st, play):
        raise IllegalAction("illegal_target", "not a valid target for this card")
    st.air_targets.append(h)
    events.append({"type": "target_chosen", "side": play.side, "hex": [*h]})


def start_card_attacks(st: GameState, play: Play, events: list[dict[str, Any]]) -> None:
    st.air_targets = list(st.air_targets)
    st.phase = "battle"
    play.flags["no_battle"] = True
    next_card_target(st, events)


def next_card_target(st: GameState, events: list[dict[str, Any]]) -> None:
    play = st.current_play()
    while st.air_targets:
        h = st.air_targets.pop(0)
        v = st.unit_at(h)
        # Air Power card: 2 dice per hex for the Allies, 1 for the Axis; a Recon played as
        # Air Power under option ``blitzkrieg``: 1 (flag ``air_dice``); Barrage: 4
        n = (
            (play.flags.get("air_dice") or (2 if play.side == "ALLIES" else 1))
            if play.key == "air_power"
            else 4
        )
        if v is None or v.side == play.side:
            if st.hooks.card_bombard(st, play.side, h, n, play.key, events):
                return  # a bridge (004 Bridge Demolition Option 3)
            continue
        if play.key == "air_power":
            card_attack(st, play.side, v, n, "air_power", True, events)
        else:
            card_attack(st, play.side, v, n, "barrage", frozenset(), events)
        return
    st.phase = "end"


def describe_play(play: Play) -> dict[str, Any]:
    return {
        "seat": play.seat,
        "side": play.side,
        "card": CARDS[play.card].to_json() if play.card is not None else None,
        "as": play.key,
        "ordered": list(play.ordered),
    }


def terrain_dig_ok(st: GameState, u: Unit) -> bool:
    return not terrain_at(st, u.hex).no_sandbag


#: the extension point this module fills (engine/procedures/hooks.py)
HOOKS = {"after_card_attack": next_card_target}
