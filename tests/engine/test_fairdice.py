"""Trust (issue 9): canonical actions, JSON snapshots, the seed commitment and the verify CLI."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import orjson
import pytest

from engine import (
    EngineError,
    apply,
    canonical_action,
    is_chance,
    legal_actions,
    load_scenario,
    load_state,
    new_game,
    sample_chance,
    to_act,
)
from engine.rulesets.m44.action_schema import SCHEMA, normalise_logged
from engine.fairdice import MESSAGES, commitment, rng_seed, verify
from engine.core.ruleset import get as get_ruleset
from engine.rulesets.m44.snapshot import FORMAT

from .paths import SCN_DIR

PEGASUS = "2-PegasusBridge.m44"
OMAHA = "13-OmahaBeachOverlord.m44"


def play(scn, seed: int, steps: int, mode: str | None = None, pick: int = 0):
    """(final state, log [(seat, action)]) of a random game of ``steps`` entries."""
    st = new_game(scn, seed, {}, mode)
    rnd = random.Random(seed + pick)
    log = []
    for _ in range(steps):
        if st.game_over:
            break
        if is_chance(st):
            a = sample_chance(st)
        else:
            a = rnd.choice(legal_actions(st, to_act(st)[0]))
        log.append((a["seat"], a))
        st, _ = apply(st, a)
    return st, log


# ------------------------------------------------------------------ canonical actions
@pytest.mark.parametrize("name,mode", [(PEGASUS, None), (PEGASUS, "team"), (OMAHA, None)])
def test_every_legal_action_is_its_own_canonical_form(name, mode):
    scn = load_scenario(str(SCN_DIR / name))
    st = new_game(scn, 3, {}, mode)
    rnd = random.Random(3)
    for _ in range(400):
        if st.game_over:
            break
        acts = [sample_chance(st)] if is_chance(st) else legal_actions(st, to_act(st)[0])
        for a in acts:
            assert a["type"] in SCHEMA
            assert canonical_action(st, a) == a
        st, _ = apply(st, rnd.choice(acts))


def _code(st, action) -> tuple[str, dict]:
    with pytest.raises(EngineError) as exc:
        canonical_action(st, action)
    return exc.value.code, exc.value.details


def test_canonical_action_refuses_unknown_fields_and_bad_values():
    scn = load_scenario(str(SCN_DIR / PEGASUS))
    st = new_game(scn, 1)
    seat = to_act(st)[0]
    legal = legal_actions(st, seat)[0]  # a play_card
    deep: object = "x"
    for _ in range(300):
        deep = {"k": deep}
    assert _code(st, {**legal, "junk": deep}) == (
        "unknown_field",
        {"field": "junk", "fields": ["seat", "card", "half", "as", "copy"]},
    )
    assert _code(st, {**legal, "junk": "x" * 60000})[0] == "unknown_field"
    assert _code(st, {**legal, "card": 10**30})[0] == "bad_value"
    assert _code(st, {**legal, "card": True})[0] == "bad_value"
    assert _code(st, {**legal, "card": "17"})[0] == "bad_value"
    assert _code(st, {**legal, "as": "nuke"})[0] == "bad_value"
    assert _code(st, {"type": "play_card", "seat": seat})[0] == "missing_field"
    assert _code(st, {"type": "launch_missiles", "seat": seat})[0] == "unknown_action"
    assert _code(st, {"type": "move", "seat": seat, "unit": "u1", "to": [99, 99]}) == (
        "bad_value",
        {"field": "to", "expected": "a hex on the board"},
    )
    assert (
        _code(st, {"type": "move", "seat": seat, "unit": "u1", "to": [1, 2, 3]})[0] == "bad_value"
    )
    assert (
        _code(st, {"type": "move", "seat": seat, "unit": {"a": 1}, "to": [1, 1]})[0] == "bad_value"
    )
    assert _code(st, {"type": "roll", "seat": "chance", "dice": ["inf"] * 1000})[0] == "bad_value"
    assert _code(st, {"type": "end_orders", "seat": "nobody"})[0] == "bad_value"
    assert _code(st, ["not", "a", "dict"])[0] == "malformed_action"
    # null for an optional field means absent; hexes become lists; key order is the schema's
    assert canonical_action(st, {"to": (4, 6), "unit": "u3", "type": "move", "seat": seat}) == {
        "type": "move",
        "seat": seat,
        "unit": "u3",
        "to": [4, 6],
    }
    assert canonical_action(st, {**legal, "half": None}) == legal


def test_old_log_rows_normalise_by_dropping_unknown_keys():
    scn = load_scenario(str(SCN_DIR / PEGASUS))
    st = new_game(scn, 1)
    legal = legal_actions(st, to_act(st)[0])[0]
    assert normalise_logged(st, {**legal, "junk": {"a": [1, 2]}, "note": "x" * 1000}) == legal
    with pytest.raises(EngineError):
        normalise_logged(st, {**legal, "card": "not a card"})


# ------------------------------------------------------------------ snapshots
@pytest.mark.parametrize("name,mode", [(PEGASUS, None), (OMAHA, None)])
def test_json_snapshot_round_trip_and_continue(name, mode):
    scn = load_scenario(str(SCN_DIR / name))
    st, _ = play(scn, 5, 150, mode)
    rs = get_ruleset("overlord" if st.mode != "standard" else "m44")
    data = rs.dump_state(st)
    assert (data["format"], data["ruleset"], data["version"]) == (FORMAT, rs.name, rs.version)
    blob = orjson.dumps(data)  # JSON, no pickle
    back = rs.load_state(orjson.loads(blob), scn)
    assert back == st
    assert orjson.dumps(rs.dump_state(back)) == blob
    rnd = random.Random(1)
    a, b = st, back
    for _ in range(60):
        if a.game_over:
            break
        act = sample_chance(a) if is_chance(a) else rnd.choice(legal_actions(a, to_act(a)[0]))
        a, ea = apply(a, act)
        b, eb = apply(b, act)
        assert ea == eb
    assert a == b


def test_snapshot_of_another_version_or_shape_is_refused_clearly():
    scn = load_scenario(str(SCN_DIR / PEGASUS))
    st, _ = play(scn, 2, 30)
    rs = get_ruleset("m44")
    data = rs.dump_state(st)
    for bad, code in [
        ({**data, "version": "0"}, "snapshot_version"),
        ({**data, "ruleset": "overlord"}, "snapshot_version"),
        ({**data, "format": 99}, "snapshot_version"),
        (
            {"ruleset": "m44", "version": "1", "format": "pickle-b64", "data": "gAS"},
            "snapshot_version",
        ),
        ("a pickle", "snapshot_format"),
    ]:
        with pytest.raises(EngineError) as exc:
            rs.load_state(bad, scn)
        assert exc.value.code == code
    evil = copy.deepcopy(data)
    evil["state"]["rng"] = {"$o": "Popen", "f": {"args": ["rm", "-rf", "/"]}}
    with pytest.raises(EngineError) as exc:
        load_state(evil, scn)
    assert exc.value.code == "snapshot_format"


# ------------------------------------------------------------------ commitment + verify
SEED = "11" * 32
SALT = "22" * 16


def export(
    scn_path: str,
    seed_hex: str,
    salt_hex: str,
    steps: int = 400,
    ruleset: str = "m44",
    mode: str = "1v1",
) -> dict:
    """A log as ``GET /api/games/{id}/log`` exports it."""
    text = open(scn_path, encoding="utf-8").read()
    scn = load_scenario(text)
    engine_mode = {"1v1": "standard"}.get(mode, mode)
    st, log = play(scn, rng_seed(seed_hex), steps, engine_mode)
    return {
        "format": "overlord-log/1",
        "ruleset": ruleset,
        "ruleset_version": "1",
        "scenario": json.loads(text),
        "mode": mode,
        "options": {},
        "commitment": commitment(seed_hex, salt_hex),
        "seed": seed_hex,
        "salt": salt_hex,
        "rng_seed": rng_seed(seed_hex),
        "winner": st.winner,
        "actions": [{"seq": i + 1, "seat": s, "action": a} for i, (s, a) in enumerate(log)],
    }


def test_rng_seed_derivation_is_documented_sha256_prefix():
    import hashlib

    d = hashlib.sha256(bytes.fromhex(SEED)).digest()
    assert rng_seed(SEED) == int.from_bytes(d[:8], "big") & ((1 << 63) - 1)
    assert commitment(SEED, SALT) == hashlib.sha256(bytes.fromhex(SEED + SALT)).hexdigest()
    with pytest.raises(EngineError):
        rng_seed("ab")  # under 128 bits


def test_verify_ok_and_first_mismatch(tmp_path):
    log = export(str(SCN_DIR / PEGASUS), SEED, SALT)
    assert verify(log).ok, verify(log).message
    rolls = [e for e in log["actions"] if e["seat"] == "chance"]
    assert rolls
    bad = copy.deepcopy(log)
    entry = next(e for e in bad["actions"] if e["seat"] == "chance")
    entry["action"]["dice"] = ["star" if f != "star" else "flag" for f in entry["action"]["dice"]]
    v = verify(bad)
    assert not v.ok and v.seq == entry["seq"] and "the seed gives" in v.message
    # a stable code and its numbers: the verify page words it in the reader's language
    assert v.code == "dice_mismatch" and v.params["seq"] == entry["seq"]
    assert v.message == MESSAGES["dice_mismatch"].format(**v.params)
    good = verify(log)
    assert good.code == "ok" and [n["code"] for n in good.notes] == [
        "commitment_ok",
        "replayed",
        "winner_ok",
    ]
    other = copy.deepcopy(log)
    other["salt"] = "33" * 16
    assert not verify(other).ok and "commitment" in verify(other).message
    assert verify(other).code == "commitment_mismatch"
    # the CLI: exit 0 / 1 with the first differing entry
    good_p, bad_p = tmp_path / "good.json", tmp_path / "bad.json"
    good_p.write_text(json.dumps(log))
    bad_p.write_text(json.dumps(bad))
    ok = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(good_p)], capture_output=True, text=True
    )
    assert ok.returncode == 0 and "OK" in ok.stdout, ok.stdout + ok.stderr
    ko = subprocess.run(
        [sys.executable, "-m", "engine", "verify", str(bad_p)], capture_output=True, text=True
    )
    assert ko.returncode == 1 and f"seq {entry['seq']}" in ko.stdout, ko.stdout


def test_verify_reports_an_uncommitted_log():
    log = export(str(SCN_DIR / PEGASUS), SEED, SALT, 20)
    log["seed"] = log["salt"] = log["commitment"] = None
    v = verify(log)
    assert not v.ok and "not committed" in v.message


def test_verify_an_overlord_game_and_a_draw_that_differs():
    log = export(str(SCN_DIR / OMAHA), SEED, SALT, 300, "overlord", "overlord")
    assert verify(log).ok, verify(log).message
    # the same log under another seed: the first roll (or an action the other deal makes
    # illegal) is the first differing entry
    seed2 = "44" * 32
    other = {**log, "seed": seed2, "commitment": commitment(seed2, SALT), "rng_seed": None}
    v = verify(other)
    assert not v.ok and v.seq is not None


def test_verify_goes_through_the_ruleset_the_log_names():
    """A ruleset without a scenario (France 1944 referee): same commitment, same check."""
    rs = get_ruleset("france1944")
    st = rs.new_game(rng_seed(SEED), {"turns": 1}, None, None)
    rnd = random.Random(4)  # a session with combats (dice)
    actions = []
    while not rs.is_over(st) and len(actions) < 3000:
        if rs.is_chance(st):
            a = rs.sample_chance(st)
        else:
            a = rnd.choice(rs.legal_actions(st, rs.to_act(st)[0]))
        actions.append({"seq": len(actions) + 1, "seat": a.get("seat", "chance"), "action": a})
        st, _ = rs.apply(st, a)
    log = {
        "format": "overlord-log/1",
        "ruleset": "france1944",
        "scenario": None,
        "mode": None,
        "options": {"turns": 1},
        "commitment": commitment(SEED, SALT),
        "seed": SEED,
        "salt": SALT,
        "winner": None,
        "actions": actions,
    }
    assert verify(log).ok, verify(log).message
    rolled = next(e for e in actions if e["seat"] == "chance")
    bad = copy.deepcopy(log)
    bad["actions"][rolled["seq"] - 1]["action"]["dice"] = [7 - rolled["action"]["dice"][0]]
    assert verify(bad).seq == rolled["seq"]
