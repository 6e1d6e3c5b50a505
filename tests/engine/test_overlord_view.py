"""Overlord hidden information per role, replay == live, golden playthrough."""

import json
import os
from pathlib import Path

from engine import (
    apply,
    events_for,
    legal_actions,
    load_scenario,
    new_game,
    replay,
    to_act,
    view_for,
)
from engine.bot import RandomBot, next_action
from tests.engine.olhelp import A, X, do, ol_game
from tests.engine.paths import SCN_DIR

OMAHA = f"{SCN_DIR}/13-OmahaBeachOverlord.m44"
PELELIU = f"{SCN_DIR}/1517-PeleliuLandingsOverlord.m44"
GOLDEN = Path(__file__).parent / "golden" / "overlord_omaha_seed7.jsonl"
CINC = "ALLIES:cinc"


def card_ids(obj) -> set[int]:
    """Ids of every card object (a dict with 'id' and 'key') anywhere in ``obj``."""
    out: set[int] = set()
    if isinstance(obj, dict):
        if "id" in obj and "key" in obj and isinstance(obj["id"], int):
            out.add(obj["id"])
        for v in obj.values():
            out |= card_ids(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_ids(v)
    return out


def test_views_per_role_hide_cards():
    st = ol_game(
        {(8, 4): "infus", (0, 4): "infger"},
        allies=[("probe", 0), ("probe", 1), ("probe", 2), ("attack", 1)],
    )
    hand = list(st.hands[A])
    evs = []
    for c, to in ((hand[0], "left"), (hand[1], "centre")):
        st, e = apply(st, {"type": "dispatch", "seat": CINC, "card": c, "to": to})
        evs += e
    st, e = apply(st, {"type": "visit", "seat": CINC, "fg": "centre"})
    evs += e
    st, e = apply(st, {"type": "confirm_dispatch", "seat": CINC})
    evs += e
    cinc = view_for(st, CINC)
    assert card_ids(cinc["sides"][A]["hand"]) == set(st.hands[A])
    assert cinc["overlord"]["chain_of_command"]["visited"] == "centre"
    left = view_for(st, "ALLIES:left")
    assert "hand" not in left["sides"][A] and left["sides"][A]["hand_count"] == 2
    assert card_ids(left) == {hand[0]}  # only what he received
    assert left["overlord"]["chain_of_command"]["visited"] == "centre"
    right = view_for(st, "ALLIES:right")
    assert card_ids(right) == set()
    for s in ("AXIS:cinc", "AXIS:left", None):
        v = view_for(st, s)
        assert card_ids(v) & set(hand) == set()
        assert (
            "chain_of_command" not in v["overlord"]
            or v["overlord"]["chain_of_command"]["side"] == X
        )
        assert v["overlord"].get("chain_of_command", {}).get("visited") is None
        assert v["sides"][A]["hand_count"] == 2
        assert card_ids(events_for(evs, s)) == set()
        assert all("secret" not in e for e in events_for(evs, s))  # visit, dispatch targets
    assert card_ids(events_for(evs, "ALLIES:left")) == {hand[0]}
    assert card_ids(events_for(evs, "ALLIES:right")) == set()
    # once played, a card is public
    st = do(st, "ALLIES:left", "play_card", card=hand[0], half=0)
    assert hand[0] in card_ids(view_for(st, None))


def test_deck_and_rng_never_in_views():
    st = new_game(load_scenario(OMAHA), 3)
    for s in [None, "AXIS:cinc", "ALLIES:left"]:
        v = view_for(st, s)
        assert "deck" not in v and "rng" not in json.dumps(v) and v["deck_count"] == len(st.deck)
        assert card_ids(view_for(st, s)) <= set(st.hands["AXIS"] if s == "AXIS:cinc" else [])


def _play(path, seed, n):
    scn = load_scenario(path)
    st = new_game(scn, seed)
    bot = RandomBot(seed)
    actions = []
    while not st.game_over and len(actions) < n:
        a = next_action(st, bot)
        actions.append(a)
        st, _ = apply(st, a)
    return scn, st, actions


def test_replay_equals_live_overlord():
    for path in (OMAHA, PELELIU):
        scn, st, actions = _play(path, 11, 1500)
        assert replay(scn, 11, actions) == st


def test_bot_plays_any_seat():
    st = new_game(load_scenario(OMAHA), 5)
    bot = RandomBot(5)
    seen = set()
    for _ in range(600):
        if st.game_over:
            break
        for s in to_act(st):
            seen.add(s)
            if s != "chance":
                assert legal_actions(st, s)
        st, _ = apply(st, next_action(st, bot))
    assert {"AXIS:cinc", "ALLIES:cinc"} <= seen and any(s.endswith(":left") for s in seen)


def _record():
    scn = load_scenario(OMAHA)
    st = new_game(scn, 7)
    bot = RandomBot(7)
    rows = [{"scenario": "13-OmahaBeachOverlord.m44", "seed": 7}]
    while not st.game_over and len(rows) < 800:
        a = next_action(st, bot)
        st, ev = apply(st, a)
        rows.append({"action": a, "events": ev})
    rows.append({"final": view_for(st, None)})
    return rows


def test_golden_overlord_playthrough():
    if os.environ.get("REGEN_GOLDEN") or not GOLDEN.exists():
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in _record()))
    rows = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    st = new_game(load_scenario(OMAHA), rows[0]["seed"])
    for i, row in enumerate(rows[1:-1]):
        st, ev = apply(st, row["action"])
        assert json.loads(json.dumps(ev)) == row["events"], f"step {i}: {row['action']}"
    assert json.loads(json.dumps(view_for(st, None))) == rows[-1]["final"]


def test_unchanged_overlord_parts_are_the_previous_views_objects():
    """The public Overlord part and a side's chain of command are interned: while the
    mode data they are made of do not change, a later view holds the very same dict (the
    server's view diff skips it by identity; the history is not rebuilt per action), and
    it always equals the part built afresh from the state."""
    from engine.rulesets.overlord import modes

    st = new_game(load_scenario(OMAHA), 11)
    bot = RandomBot(5)
    prev: dict | None = None
    same_public = same_coc = 0
    for _ in range(150):
        if st.game_over:
            break
        v = view_for(st, "ALLIES:left")
        ol, spect = v["overlord"], view_for(st, None)["overlord"]
        coc = ol["chain_of_command"]
        assert coc == modes._chain_of_command(st, "ALLIES")
        assert spect is modes._view_common(st)[1]  # one object per value
        kept = dict(modes._VIEW_PARTS)  # built afresh: the same value
        modes._VIEW_PARTS.clear()
        assert modes._view_common(st)[1] == spect
        modes._VIEW_PARTS.clear()
        modes._VIEW_PARTS.update(kept)
        assert {k: ol[k] for k in spect} == spect
        if prev is not None and prev["x"]["visits"] is st.ext["visits"] and prev["turn"] == st.turn:
            assert coc is prev["coc"]
            same_coc += 1
        if prev is not None and all(
            prev["x"][k] is st.ext[k]
            for k in (
                "hand_size",
                "received",
                "initiative",
                "chip",
                "commissar_sides",
                "gung_ho_sides",
                "step",
            )
        ):
            assert spect is prev["public"]
            same_public += 1
        prev = {"x": dict(st.ext), "turn": st.turn, "coc": coc, "public": spect}
        st, _ = apply(st, next_action(st, bot))
    assert same_coc > 50 and same_public > 20
