"""The turn machine (004 Game Turn Summary): play a card -> order -> move -> battle ->
draw -> next side.  ``legal_actions``/``apply`` dispatch on ``state.phase`` and on the
battle stack; ``refresh`` recomputes ``state.pending`` (the decision waited for, with
its seat) after every step.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from ...core.errors import IllegalAction
from ...procedures.state import GameState, Play
from ...procedures import battle as B
from ...procedures import battle_outcome as BO
from ...procedures import battle_stack as BS
from . import tactics as T
from ...procedures import trains as TR
from ...procedures.chance import roll_faces
from ...procedures.common import mode, parse_hex, pop_ext, take_from_hand
from ...procedures.hooks import Handler
from ...procedures.movement import exit_hexes, reachable
from .choices import (
    _battle_actions,
    _may_move_again,
    _move_actions,
    _movers,
    card_source,
    firefight_pairs,
    obliged,
    playable,
    recon_as_air_power,
)
from .end_turn import RECON_LEFT, _end_turn, _finish_turn, _recon_draw
from .unit_actions import (
    _armor_breakthrough,
    _battle,
    _end_battles,
    _end_movement,
    _end_orders,
    _exit,
    _instead_of_battle,
    _move,
    _order,
    _orders_left,
)

PHASE_PENDING = ("choose_section", "target", "order", "move", "battle")


# ============================================================================ pending
def refresh(st: GameState) -> None:
    st.pending = compute_pending(st)


def compute_pending(st: GameState) -> dict[str, Any] | None:
    if st.game_over:
        return None
    if st.battles:
        return BS.pending_for(st)
    ph = st.phase
    if ph == "chance":
        c = st.due_chance()
        return {"type": "roll", "seat": "chance", "dice": c["n"], "for": c["for"]}
    if ph == "play_card":
        out: dict[str, Any] = {"type": "play_card", "seat": mode(st).hand_seat(st, st.active)}
        if st.plays:  # option army_manoeuvres: a further card is optional
            out["played"] = len(st.plays)
        return out
    if ph == "recon":
        return {
            "type": "choose_card",
            "seat": mode(st).hand_seat(st, st.active),
            "count": len(st.recon_cards),
        }
    if ph == "commissar":
        return {"type": "commissar", "seat": mode(st).hand_seat(st, st.active)}
    if ph == "reinforce":
        return TR.pending(st)
    step = st.hooks.steps.get(ph)  # an option's step (airdrop, smoke, card offers)
    if step is not None:
        return step.pending(st)
    if ph in PHASE_PENDING:
        return {"type": ph, "seat": st.current_play().seat}
    return st.hooks.phases[ph].pending(st)  # an option's own phase (campaign pre-battle)


def to_act(st: GameState) -> list[str]:
    p = st.pending
    return [] if p is None else [p["seat"]]


# ============================================================================ legal actions
def legal_actions(st: GameState, seat: str | None) -> list[dict[str, Any]]:
    p = st.pending
    if p is None or seat is None or p["seat"] != seat or seat == "chance":
        return []
    if st.battles:
        return BS.legal(st, seat)
    ph = st.phase
    if ph == "play_card":
        if st.plays:  # Extra Command Cards: a further card, or end_cards
            side = st.active
            return [
                {"type": "play_card", "seat": seat, "card": c}
                for c in st.hooks.fitting(st, side, playable(st, side))
            ] + [{"type": "end_cards", "seat": seat}]
        cards = playable(st, st.active)
        out = [{"type": "play_card", "seat": seat, "card": c} for c in cards]
        if recon_as_air_power(st, st.active):
            out += [
                {"type": "play_card", "seat": seat, "card": c, "as": "air_power"}
                for c in cards
                if CARDS[c].key == "recon"
            ]
        out += st.hooks.play_card_options(st, seat)  # instead of a card (options)
        return out or [{"type": "pass", "seat": seat}]  # no card: :func:`_pass_turn`
    if ph == "recon":
        return [{"type": "choose_card", "seat": seat, "card": c} for c in st.recon_cards]
    if ph == "commissar":
        return [{"type": "commissar", "seat": seat, "card": c} for c in st.hands[st.active]]
    if ph == "reinforce":
        return TR.legal(st, seat)
    step = st.hooks.steps.get(ph)
    if step is not None:
        return step.legal(st, seat)
    if ph == "choose_section":
        return [
            {"type": "choose_section", "seat": seat, "section": s}
            for s in T.infantry_sections(st, st.current_play())
        ]
    if ph == "target":
        hexes = T.target_options(st, st.current_play())
        out = [{"type": "target", "seat": seat, "hex": [*h]} for h in hexes]
        if st.air_targets:
            out.append({"type": "end_targets", "seat": seat})
        return out
    if ph == "order":
        play = st.current_play()
        return (
            [{"type": "order", "seat": seat, "unit": u.id} for u in T.orderable(st, play)]
            + [
                {"type": "armor_breakthrough", "seat": seat, "hex": [*h]}
                for h in st.hooks.breakthrough_hexes(st, play)
            ]
            + [{"type": "end_orders", "seat": seat}]
        )
    if ph == "move":
        plays = st.hooks.unit_plays(st)
        out = [a for p in plays for a in _move_actions(st, p, seat)]
        if not any(st.hooks.must_advance(st, p) for p in plays) and not obliged(st, ph):
            out.append({"type": "end_movement", "seat": seat})
        return out
    if ph == "battle":
        out = [a for p in st.hooks.unit_plays(st) for a in _battle_actions(st, p, seat)]
        if st.ext and "firefights" in st.ext:
            out += [
                {"type": "firefight", "seat": seat, "unit": a.id, "target": [*b.hex]}
                for a, b in firefight_pairs(st, st.current_play())
            ]
        return out + ([] if obliged(st, ph) else [{"type": "end_battles", "seat": seat}])
    phases = st.hooks.phases
    return phases[ph].legal(st, seat) if ph in phases else []


def _pass_turn(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """A side with no Command card to play (an empty hand: a deck that does not reshuffle,
    cards discarded) orders nothing this turn (004 silent: no card, no order); the end of
    its turn runs as usual (its draw, then :func:`medals.end_out_of_cards`)."""
    if playable(st, st.active) or st.hooks.play_card_options(st, str(action.get("seat"))):
        raise IllegalAction(
            "card_must_be_played",
            "a Command card must be played: passing is only for a side with no card to play",
        )
    events.append(
        {
            "type": "turn_passed",
            "side": st.active,
            "seat": action.get("seat"),
            "reason": "no_command_card",
        }
    )
    _end_turn(st, events)


def _place_commissar(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    side = st.active
    cid = take_from_hand(st, action)
    st.ext["commissar_chip"][side] = cid
    seat = mode(st).hand_seat(st, side)
    events.append(
        {
            "type": "commissar_card_placed",
            "side": side,
            "seat": seat,
            "count": 1,
            "secret": {"card": CARDS[cid].to_json()},
            "secret_to": [seat],
        }
    )
    _finish_turn(st, events)


# ============================================================================ apply
def apply_action(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Mutates ``st`` (a clone made by the caller)."""
    t = action.get("type")
    p = st.pending
    if p is None:
        raise IllegalAction("game_over", "the game is over")
    seat = action.get("seat")
    if t == "roll":
        if p["type"] != "roll":
            raise IllegalAction("not_a_chance_node", "no dice are to be rolled now")
        _roll(st, action, events)
    else:
        extra = st.hooks.phases.get(st.phase) if not st.battles else None  # option phases
        if extra is None and not known(st, t):
            raise IllegalAction("unknown_action", f"unknown action type {t!r}")
        if seat != p["seat"]:
            raise IllegalAction("not_your_turn", f"waiting for {p['seat']} ({p['type']})")
        if st.battles:
            BS.apply(st, action, events)
        elif extra is not None:
            extra.apply(st, action, events)
        else:
            handler = handler_for(st, t)
            if handler is None or (
                st.plays and st.phase == "play_card" and t not in ("play_card", "end_cards")
            ):
                raise IllegalAction("wrong_phase", f"{t!r} is not possible during {st.phase}")
            handler(st, action, events)
    advance(st, events)
    refresh(st)


def _roll(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    faces = roll_faces(st, action)
    if st.battles:
        BO.resolve_roll(st, faces, events)
        return
    why = st.due_chance()["for"]
    st.chance = None
    if why == "their_finest_hour":
        T.tfh_rolled(st, st.current_play(), faces, events)
    elif why == "medics":
        T.medics_rolled(st, st.current_play(), faces, events)
    elif why == "night":
        st.hooks.night_rolled(st, faces, events)
        st.phase = "play_card"
    elif why in st.hooks.chance_handlers:  # options (supply losses, Common Cold)
        st.hooks.chance_handlers[why](st, faces, events)


# --------------------------------------------------------------------------- card play
def _play_card(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    cid = action.get("card")
    if not isinstance(cid, int) or cid not in CARDS:
        raise IllegalAction("malformed_action", "field 'card' must be a card id")
    side = st.active
    chip = st.hooks.commissar_card(st, side)
    if cid not in st.hands[side] and cid != chip:
        raise IllegalAction("card_not_in_hand", "that card is not in your hand")
    if cid not in playable(st, side):
        if chip is not None:
            raise IllegalAction(
                "commissar_cards_must_be_played",
                "play the card under the Commissar chip (or Recon / Counter-Attack)",
            )
        raise IllegalAction("card_not_playable", "Ambush is played only in the opponent's turn")
    as_ = action.get("as")
    if as_ is not None and (
        as_ != "air_power" or CARDS[cid].key != "recon" or not recon_as_air_power(st, side)
    ):
        raise IllegalAction("card_not_playable", "this card may not be played that way")
    card = CARDS[cid]
    src, mirror, section = card_source(st, side, card, as_)
    st.hooks.check_claim(st, src, mirror)
    if cid == chip:
        st.ext["commissar_chip"][side] = None
    else:
        st.hands[side].remove(cid)
    play = Play(cid, card.key, mode(st).play_seat(st, side, cid), side)
    st.plays.append(play)
    events.append(
        {
            "type": "card_played",
            "seat": play.seat,
            "side": side,
            "card": card.to_json(),
            **({"as": as_} if as_ else {}),
        }
    )
    if as_ == "air_power":
        play.key = src.key
        play.flags["air_section"] = card.sections[0]  # targets must include a unit there
        if st.options.get("blitzkrieg") == side:
            play.flags["air_dice"] = 1  # 004 Blitzkrieg: "1 Battle Dice per hex"
    if card.key == "counter_attack":
        if src is card:
            play.key = "none"
        else:
            play.key = src.key
            events.append(
                {"type": "card_copied", "side": side, "card": src.to_json(), "mirrored": mirror}
            )
    play.flags["src"] = src.id
    play.flags["mirror"] = mirror
    T.setup(st, play, events, src, mirror, section)
    T.gung_ho(st, play, src)
    st.hooks.card_played(st, play, T.card_sections(src, mirror))  # seq, Armor Breakthrough


def _choose_section(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    s = action.get("section")
    if not isinstance(s, int):
        raise IllegalAction("malformed_action", "field 'section' must be 0, 1 or 2")
    T.choose_section(st, st.current_play(), s, events)


def _target(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    play = st.current_play()
    T.add_target(st, play, parse_hex(action, "hex"), events)
    limit = 4 if play.key == "air_power" else 1
    if len(st.air_targets) >= limit or not T.target_options(st, play):
        T.start_card_attacks(st, play, events)


def _end_targets(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    if not st.air_targets:
        raise IllegalAction("no_target", "choose at least one target")
    T.start_card_attacks(st, st.current_play(), events)


def _choose_card(st: GameState, action: dict[str, Any], events: list[dict[str, Any]]) -> None:
    cid = action.get("card")
    if cid not in st.recon_cards:
        raise IllegalAction("card_not_offered", "choose one of the drawn cards")
    side = st.active
    st.hands[side].append(cid)
    for c in st.recon_cards:
        if c != cid:
            st.discard.append(c)
    st.recon_cards = []
    events.append(
        {
            "type": "card_kept",
            "side": side,
            "seat": mode(st).hand_seat(st, side),
            "secret": {"card": CARDS[cid].to_json()},
            "secret_to": [mode(st).hand_seat(st, side)],
        }
    )
    left = (st.ext or {}).get(RECON_LEFT, 0)  # Extra Command Cards: another Recon
    if left:
        pop_ext(st, RECON_LEFT)
        if _recon_draw(st, side, events, left - 1):
            return
    _finish_turn(st, events)


HANDLERS = {
    ("play_card", "play_card"): _play_card,
    ("choose_section", "choose_section"): _choose_section,
    ("target", "target"): _target,
    ("target", "end_targets"): _end_targets,
    ("order", "order"): _order,
    ("order", "end_orders"): _end_orders,
    ("order", "armor_breakthrough"): _armor_breakthrough,
    ("move", "move"): _move,
    ("move", "exit"): _exit,
    ("move", "end_movement"): _end_movement,
    ("battle", "battle"): _battle,
    ("battle", "move"): _move,
    ("battle", "end_battles"): _end_battles,
    ("battle", "remove_wire"): _instead_of_battle,
    ("battle", "clear_mine"): _instead_of_battle,
    ("battle", "remove_roadblock"): _instead_of_battle,
    ("battle", "seal_cave"): _instead_of_battle,
    ("battle", "heal"): _instead_of_battle,
    ("battle", "blow_bridge"): _instead_of_battle,
    ("battle", "rig_bridge"): _instead_of_battle,
    ("battle", "bombard_bridge"): _instead_of_battle,
    ("battle", "build_pontoon"): _instead_of_battle,
    ("battle", "firefight"): lambda st, action, events: BO.declare_firefight(
        st, firefight_pairs(st, st.play), action, events
    ),
    ("recon", "choose_card"): _choose_card,
    ("commissar", "commissar"): _place_commissar,
    ("play_card", "pass"): _pass_turn,
    ("reinforce", "reinforce"): lambda st, action, events: TR.apply_reinforce(st, action, events),
}
KNOWN = {t for _, t in HANDLERS} | {
    "roll",
    "ambush",
    "pass",
    "retreat",
    "take_ground",
    "battle_back",
}


def handler_for(st: GameState, t: Any) -> Handler | None:
    """The handler of an action of type ``t`` in the current phase: the turn machine's,
    else an option's (extension point ``actions``)."""
    key = (st.phase, t)
    return HANDLERS.get(key) or st.hooks.actions.get(key)


def known(st: GameState, t: Any) -> bool:
    """Is ``t`` an action type of the turn machine or of one of the game's options?"""
    return t in KNOWN or any(k[1] == t for k in st.hooks.actions)


# ============================================================================ automatic steps
def advance(st: GameState, events: list[dict[str, Any]]) -> None:
    """Skip phases with nothing to decide; run the end of turn."""
    for _ in range(50):
        if st.game_over or st.battles:
            return
        ph = st.phase
        if ph == "order" and not _orders_left(st, st.current_play()):
            T.end_orders(st, st.current_play(), events)
        elif (
            ph == "move"
            and st.hooks.open_for(st)
            and st.hooks.fitting(st, st.active, playable(st, st.active))
        ):
            st.phase = "play_card"  # Extra Command Cards: a further card may be played
        elif ph == "move" and not any(_anything_to_move(st, p) for p in st.hooks.unit_plays(st)):
            st.phase = "battle"
        elif ph == "battle" and not any(
            _anything_to_battle(st, p) for p in st.hooks.unit_plays(st)
        ):
            st.phase = "end"
        elif ph == "target" and not T.target_options(st, st.current_play()) and not st.air_targets:
            st.phase = "end"
        elif ph == "choose_section" and not T.infantry_sections(st, st.current_play()):
            st.phase = "end"
        elif ph == "end":
            _end_turn(st, events)
        elif ph == "play_card" and not st.plays and st.hooks.night_roll_due(st, st.active):
            # the night roll after the turn's other opening steps (scenario set-up steps
            # before the first turn, campaign pre-battle dice, a variant's roll)
            st.hooks.night_roll_if_due(st, st.active)
        else:
            return


def _anything_to_move(st: GameState, play: Play) -> bool:
    for uid in play.ordered:
        u = st.units.get(uid)
        if (
            u is not None
            and not u.moved
            and (
                any(
                    reachable(st, m, play, None, bool(play.flags.get("ignore_terrain")))
                    for m in _movers(st, u)
                )
                or exit_hexes(st, u, play)
            )
        ):
            return True
    return False


def _anything_to_battle(st: GameState, play: Play) -> bool:
    if st.ext and "firefights" in st.ext and firefight_pairs(st, play):
        return True
    for uid in play.ordered:
        u = st.units.get(uid)
        if u is None:
            continue
        if B.can_battle(st, u, play) and (
            B.targets(st, u, play) or st.hooks.instead_of_battle(st, u)
        ):
            return True
        if _may_move_again(play, u) and reachable(st, u, play, play.flags["move_again"], True):
            return True
    return False
