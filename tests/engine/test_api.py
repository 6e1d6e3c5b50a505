"""The engine API contract (docs/architecture.md)."""

import json

import pytest

from engine import (
    EngineError,
    apply,
    dump_state,
    events_for,
    is_chance,
    legal_actions,
    load_scenario,
    load_state,
    new_game,
    replay,
    sample_chance,
    seats,
    to_act,
    view_for,
)
from engine.bot import RandomBot, next_action
from tests.engine.paths import SCN_DIR

PEGASUS = f"{SCN_DIR}/2-PegasusBridge.m44"


@pytest.fixture(scope="module")
def scn():
    return load_scenario(PEGASUS)


def test_new_game_seats_and_first_player(scn):
    st = new_game(scn, 42)
    assert seats(st) == ["AXIS", "ALLIES"]
    assert to_act(st) == ["ALLIES"] and len(st.hands["ALLIES"]) == 6 and len(st.hands["AXIS"]) == 2
    assert len(st.deck) == 52 and all(a["seat"] == "ALLIES" for a in legal_actions(st, "ALLIES"))


def test_apply_never_mutates_the_input(scn):
    st = new_game(scn, 42)
    before = st.snapshot()
    bot = RandomBot(1)
    s = st
    for _ in range(200):
        nxt, _ = apply(s, next_action(s, bot))
        s = nxt
    assert st.snapshot() == before


def test_illegal_action_leaves_state_unchanged(scn):
    st = new_game(scn, 42)
    before = st.snapshot()
    with pytest.raises(EngineError) as e:
        apply(st, {"type": "end_battles", "seat": "ALLIES"})
    assert e.value.code == "wrong_phase" and st.snapshot() == before
    with pytest.raises(EngineError) as e:
        apply(st, {"seat": "ALLIES"})
    assert e.value.code == "malformed_action"


def test_chance_nodes_and_sample_chance_is_deterministic(scn):
    bot = RandomBot(3)
    st = new_game(scn, 7)
    while not is_chance(st):
        st, _ = apply(st, next_action(st, bot))
    assert to_act(st) == ["chance"] and legal_actions(st, "chance") == []
    assert sample_chance(st) == sample_chance(st)
    a, _ = apply(st, sample_chance(st))
    b, _ = apply(st, {"type": "roll", "seat": "chance", "dice": ["star"] * st.pending["dice"]})
    assert a.rng.counter == b.rng.counter == st.rng.counter + st.pending["dice"]


def test_replay_equals_live_and_dump_load_roundtrip(scn):
    st = new_game(scn, 11)
    bot = RandomBot(11)
    log = []
    for _ in range(400):
        if st.game_over:
            break
        a = next_action(st, bot)
        log.append(a)
        st, _ = apply(st, a)
    assert replay(scn, 11, log) == st
    assert load_state(json.loads(json.dumps(dump_state(st))), scn) == st


def test_view_hides_other_hand_deck_and_rng(scn):
    st = new_game(scn, 5)
    v = view_for(st, "ALLIES")
    assert len(v["sides"]["ALLIES"]["hand"]) == 6 and "hand" not in v["sides"]["AXIS"]
    spec = view_for(st, None)
    assert all("hand" not in s for s in spec["sides"].values())
    text = repr(spec) + repr(v)
    assert "rng" not in text and 'deck"' not in text and "seed" not in text
    assert spec["deck_count"] == 52 and spec["to_act"] == ["ALLIES"]
    import json

    json.dumps(v)


def test_events_for_strips_secrets(scn):
    ev = [{"type": "card_drawn", "side": "AXIS", "secret": {"cards": [1]}, "secret_to": ["AXIS"]}]
    assert "secret" in events_for(ev, "AXIS")[0]
    assert "secret" not in events_for(ev, "ALLIES")[0]
    assert "secret" not in events_for(ev, None)[0]


def test_options_registry_and_unknown_option(scn):
    from engine.rulesets.m44.options import REGISTRY

    assert {
        "no_retreat",
        "counter_attack_last_turn",
        "starting_hand_method",
        "infantry_charge",
        "firefight_continuing",
        "infantry_v_tank",
        "artillery_v_tank",
    } <= set(REGISTRY)
    with pytest.raises(EngineError) as e:
        new_game(scn, 1, {"nonsense": True})
    assert e.value.code == "unknown_option"


def test_starting_hand_method(scn):
    st = new_game(scn, 1, {"starting_hand_method": True})
    from engine.rulesets.m44.cards import CARDS

    allies = sorted(CARDS[c].key for c in st.hands["ALLIES"])
    assert allies.count("recon") >= 3 and "direct_from_hq" in allies and len(allies) == 6
    axis = sorted(CARDS[c].key for c in st.hands["AXIS"])
    assert axis == ["direct_from_hq", "recon"]
    assert len(st.deck) + len(st.discard) + 8 == 60


def test_rng_is_serialisable_and_splitmix():
    from engine.core.rng import Rng

    r = Rng(1)
    xs = [r.below(6) for _ in range(5)]
    r2 = Rng(1)
    assert xs == [r2.below(6) for _ in range(5)] and r == r2
