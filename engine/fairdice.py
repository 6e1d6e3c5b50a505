"""Provably fair dice: the seed commitment and the verification of a finished game's log.

The server draws each game's secret **seed** (32 random bytes) and **salt** (16 bytes)
and publishes at creation only the **commitment** ``SHA-256(seed || salt)`` (hex).  The
engine's RNG (splitmix64, :mod:`engine.core.rng`) takes a 63-bit integer derived from
the seed: the first 8 bytes of ``SHA-256(seed)``, big-endian, top bit cleared
(:func:`rng_seed`).  When the game ends the log reveals seed and salt; :func:`verify`
then checks that

1. ``SHA-256(seed || salt)`` equals the commitment published at creation;
2. replaying the log from ``rng_seed(seed)`` gives, at every chance step, exactly the
   dice the log holds (the deck shuffles and draws come from the same RNG inside
   ``apply``, so a replay that accepts every logged action draws what was drawn);
3. the replay ends in the logged result.

Pure functions (no I/O, no clock, no randomness): the server makes the secrets.  The
exported log format (``GET /api/games/{id}/log``, ``python -m engine verify LOG.json``)
is documented in docs/protocol.md "Finished game log".
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from . import rulesets  # noqa: F401  (fills the registry)
from .core.errors import EngineError
from .core.ruleset import get
from .core.scenario import load_scenario
from .meta import Fold  # undo / resign / timeout / forfeit entries (remote play)

LOG_FORMAT = "overlord-log/1"
SEED_BYTES = 32
SALT_BYTES = 16
_MASK63 = (1 << 63) - 1


def _bytes(hexstr: Any, what: str, minimum: int) -> bytes:
    if not isinstance(hexstr, str):
        raise EngineError("bad_seed", f"{what} must be a hex string")
    try:
        raw = bytes.fromhex(hexstr)
    except ValueError:
        raise EngineError("bad_seed", f"{what} is not hex") from None
    if len(raw) < minimum:
        raise EngineError("bad_seed", f"{what} must be at least {minimum} bytes")
    return raw


def commitment(seed_hex: str, salt_hex: str) -> str:
    """``SHA-256(seed || salt)`` as hex: published when the game is created."""
    return hashlib.sha256(_bytes(seed_hex, "seed", 16) + _bytes(salt_hex, "salt", 8)).hexdigest()


def rng_seed(seed_hex: str) -> int:
    """The engine RNG's seed for the secret ``seed``: the first 8 bytes of SHA-256(seed),
    big-endian, masked to 63 bits (fits a signed 64-bit database column)."""
    digest = hashlib.sha256(_bytes(seed_hex, "seed", 16)).digest()
    return int.from_bytes(digest[:8], "big") & _MASK63


#: The verdicts and notes of :func:`verify`, by stable code: English templates filled with
#: the verdict's ``params`` (the server's verify page shows them in the reader's language:
#: scripts/i18n_terms.py lists them for the catalogs).
MESSAGES: dict[str, str] = {
    "ok": "OK: the dice and draws are those the committed seed gives",
    "not_a_log": "not a game log (a JSON object with 'actions')",
    "unknown_ruleset": "this engine does not know the log's rule system {ruleset}",
    "not_committed": "no commitment / seed / salt in the log: this game's dice were not "
    "committed (a test seed, or a game created before fair dice)",
    "commitment_mismatch": "commitment mismatch: SHA-256(seed || salt) is not the "
    "commitment published at creation",
    "bad_seed": "the log's seed or salt is not a hex string of the right length",
    "rng_seed_mismatch": "rng_seed {logged} is not the one derived from the seed ({derived})",
    "no_scenario": "cannot set the game up: the log's scenario is not a JSON object",
    "setup_failed": "cannot set the game up ({error})",
    "entry_out_of_order": "log entry {seq} is missing or out of order",
    "dice_expected": "seq {seq}: dice were due ({expected}) but the log has {logged}",
    "dice_mismatch": "seq {seq}: the log rolled {logged}, the seed gives {expected}",
    "roll_not_due": "seq {seq}: a roll is logged where no dice were due",
    "action_refused": "seq {seq}: the engine refuses the logged action ({error})",
    "winner_mismatch": "the replay ends with winner {winner}, the log says {logged}",
    # notes (the checks made)
    "version_note": "note: the game was played with {ruleset} version {logged}, this engine "
    "has {version}",
    "commitment_ok": "commitment matches SHA-256(seed || salt)",
    "replayed": "{entries} log entries replayed; {rolls} rolls are exactly the seed's dice; "
    "every shuffle and draw comes from the same seed",
    "winner_ok": "the replay ends as logged (winner {winner})",
}


def say(code: str, params: dict[str, Any]) -> str:
    """The English text of a verdict or note."""
    return MESSAGES[code].format(**params)


@dataclass
class Verdict:
    ok: bool
    message: str  # English: ``MESSAGES[code]`` filled, then the engine's detail if any
    seq: int | None = None  # the first log entry that differs
    checks: list[str] = field(default_factory=list)  # English: the notes' texts
    code: str = "ok"
    params: dict[str, Any] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)  # {code, params} per check

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": self.code,
            "params": self.params,
            "message": self.message,
            "seq": self.seq,
            "checks": self.checks,
            "notes": self.notes,
        }


class _Notes:
    """The checks made so far, and the verdicts that end the verification."""

    def __init__(self) -> None:
        self.notes: list[dict[str, Any]] = []

    def note(self, code: str, **params: Any) -> None:
        self.notes.append({"code": code, "params": params})

    def verdict(
        self, ok: bool, code: str, at: int | None = None, detail: str = "", **params: Any
    ) -> Verdict:
        message = say(code, params) + (f": {detail}" if detail else "")
        checks = [say(n["code"], n["params"]) for n in self.notes]
        return Verdict(ok, message, at, checks, code, params, list(self.notes))

    def fail(self, code: str, at: int | None = None, detail: str = "", **params: Any) -> Verdict:
        return self.verdict(False, code, at, detail, **params)


def verify(log: Any) -> Verdict:
    """Check a finished game's exported log (see the module docstring), through the
    ruleset the log names (``engine.core.ruleset`` registry): a verdict with its stable
    code (:data:`MESSAGES`)."""
    n = _Notes()
    if not isinstance(log, dict) or not isinstance(log.get("actions"), list):
        return n.fail("not_a_log")
    try:
        rs = get(str(log.get("ruleset", "m44")))
    except EngineError:
        return n.fail("unknown_ruleset", ruleset=str(log.get("ruleset"))[:40])
    if log.get("ruleset_version") not in (None, rs.version):
        n.note(
            "version_note",
            ruleset=rs.name,
            logged=str(log.get("ruleset_version"))[:40],
            version=rs.version,
        )
    seed, salt, commit = log.get("seed"), log.get("salt"), log.get("commitment")
    if not (isinstance(seed, str) and isinstance(salt, str) and isinstance(commit, str)):
        return n.fail("not_committed")
    try:
        if commitment(seed, salt) != commit.lower():
            return n.fail("commitment_mismatch")
        n.note("commitment_ok")
        derived = rng_seed(seed)
    except EngineError as exc:
        return n.fail("bad_seed", detail=exc.message)
    if log.get("rng_seed") not in (None, derived):
        return n.fail("rng_seed_mismatch", logged=str(log.get("rng_seed"))[:40], derived=derived)
    scenario = log.get("scenario") if rs.setup == "scenario" else None
    if rs.setup == "scenario" and not isinstance(scenario, dict):
        # never a path nor text: the exported log carries the scenario itself
        return n.fail("no_scenario")
    try:
        scn = load_scenario(scenario) if isinstance(scenario, dict) else None
        st = rs.new_game(derived, dict(log.get("options") or {}), scn, log.get("mode"))
    except EngineError as exc:
        return n.fail("setup_failed", detail=exc.message, error=exc.code)
    rolls = 0
    fold = Fold(st, 0, rs)
    for i, entry in enumerate(log["actions"]):
        seq = i + 1
        if not isinstance(entry, dict) or entry.get("seq") != seq:
            return n.fail("entry_out_of_order", seq, seq=seq)
        # hostile JSON: the ruleset refuses an action that is not an object
        action: Any = entry.get("action")
        seat = entry.get("seat")
        if rs.is_chance(st):
            expected = rs.sample_chance(st)
            if seat != "chance" or not isinstance(action, dict) or action.get("type") != "roll":
                return n.fail(
                    "dice_expected",
                    seq,
                    seq=seq,
                    expected=expected["dice"],
                    logged=str(action)[:200],
                )
            if action.get("dice") != expected["dice"]:
                return n.fail(
                    "dice_mismatch",
                    seq,
                    seq=seq,
                    logged=action.get("dice"),
                    expected=expected["dice"],
                )
            rolls += 1
        elif seat == "chance" or (isinstance(action, dict) and action.get("type") == "roll"):
            return n.fail("roll_not_due", seq, seq=seq)
        try:
            fold.apply(seq, str(seat), action, rs.apply)
            st = fold.state
        except EngineError as exc:
            return n.fail("action_refused", seq, detail=exc.message, seq=seq, error=exc.code)
    n.note("replayed", entries=len(log["actions"]), rolls=rolls)
    winner = rs.result(st).get("winner")
    if "winner" in log and winner != log.get("winner"):
        return n.fail("winner_mismatch", winner=str(winner), logged=str(log.get("winner"))[:40])
    if "winner" in log:
        n.note("winner_ok", winner=str(winner))
    return n.verdict(True, "ok")
