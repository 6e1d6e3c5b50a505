"""004 Team Play on a standard board: role seats, the member of the section concerned
carries out a Section card, the C-in-C holds the hand and plays tactic cards."""

from engine import apply, legal_actions, load_scenario, new_game, seats, to_act, view_for
from engine.rulesets.m44.cards import first_of
from engine.rulesets.overlord.chain import seat_layouts
from tests.engine.paths import SCN_DIR

PEGASUS = f"{SCN_DIR}/2-PegasusBridge.m44"


def _game():
    st = new_game(load_scenario(PEGASUS), 1, mode="team")
    side = st.active
    st.hands[side] = [first_of("probe", 0), first_of("direct_from_hq"), first_of("attack", 2)]
    for c in st.hands[side]:
        if c in st.deck:
            st.deck.remove(c)
    from engine.rulesets.m44 import turn

    turn.refresh(st)
    return st, side


def test_team_seats_and_default_modes():
    st, side = _game()
    assert st.mode == "team" and len(seats(st)) == 8
    assert to_act(st) == [f"{side}:cinc"]
    assert new_game(load_scenario(PEGASUS), 1).mode == "standard"
    assert seat_layouts("team")["2"] == [["cinc", "centre"], ["left", "right"]]


def test_section_card_carried_out_by_its_section_member():
    st, side = _game()
    st, ev = apply(st, {"type": "play_card", "seat": f"{side}:cinc", "card": first_of("probe", 0)})
    assert ev[0]["seat"] == f"{side}:left"
    assert to_act(st) == [f"{side}:left"] or st.phase != "order"
    assert legal_actions(st, f"{side}:cinc") == []


def test_tactic_card_carried_out_by_the_cinc_and_hand_hidden():
    st, side = _game()
    st, ev = apply(
        st, {"type": "play_card", "seat": f"{side}:cinc", "card": first_of("direct_from_hq")}
    )
    assert ev[0]["seat"] == f"{side}:cinc" and to_act(st) == [f"{side}:cinc"]
    assert "hand" in view_for(st, f"{side}:cinc")["sides"][side]
    assert "hand" not in view_for(st, f"{side}:left")["sides"][side]


def test_team_random_games_finish():
    scn = load_scenario(PEGASUS)
    st = new_game(scn, 2, mode="team")
    from engine.bot import RandomBot, next_action

    bot = RandomBot(2)
    while not st.game_over and st.turn < 200:
        st, _ = apply(st, next_action(st, bot))
    assert st.game_over
