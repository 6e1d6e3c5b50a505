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


@dataclass
class Verdict:
    ok: bool
    message: str
    seq: int | None = None  # the first log entry that differs
    checks: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message, "seq": self.seq, "checks": self.checks}


def _fail(checks: list[str], message: str, seq: int | None = None) -> Verdict:
    return Verdict(False, message, seq, checks)


def verify(log: Any) -> Verdict:
    """Check a finished game's exported log (see the module docstring), through the
    ruleset the log names (``engine.core.ruleset`` registry)."""
    checks: list[str] = []
    if not isinstance(log, dict) or not isinstance(log.get("actions"), list):
        return _fail(checks, "not a game log (a JSON object with 'actions')")
    try:
        rs = get(str(log.get("ruleset", "m44")))
    except EngineError as exc:
        return _fail(checks, f"{exc.code}: {exc.message}")
    if log.get("ruleset_version") not in (None, rs.version):
        checks.append(
            f"note: the game was played with {rs.name} version "
            f"{log.get('ruleset_version')!r}, this engine has {rs.version!r}"
        )
    seed, salt, commit = log.get("seed"), log.get("salt"), log.get("commitment")
    if not (isinstance(seed, str) and isinstance(salt, str) and isinstance(commit, str)):
        return _fail(
            checks,
            "no commitment / seed / salt in the log: this game's dice "
            "were not committed (a test seed, or a game created before fair dice)",
        )
    try:
        if commitment(seed, salt) != commit.lower():
            return _fail(
                checks,
                "commitment mismatch: SHA-256(seed || salt) is not the "
                "commitment published at creation",
            )
        checks.append("commitment matches SHA-256(seed || salt)")
        derived = rng_seed(seed)
    except EngineError as exc:
        return _fail(checks, f"{exc.code}: {exc.message}")
    if log.get("rng_seed") not in (None, derived):
        return _fail(
            checks,
            f"rng_seed {log.get('rng_seed')!r} is not the one derived from the seed ({derived})",
        )
    scenario = log.get("scenario") if rs.setup == "scenario" else None
    if rs.setup == "scenario" and not isinstance(scenario, dict):
        # never a path nor text: the exported log carries the scenario itself
        return _fail(checks, "cannot set the game up: the log's scenario is not a JSON object")
    try:
        scn = load_scenario(scenario) if isinstance(scenario, dict) else None
        st = rs.new_game(derived, dict(log.get("options") or {}), scn, log.get("mode"))
    except EngineError as exc:
        return _fail(checks, f"cannot set the game up: {exc.code}: {exc.message}")
    rolls = 0
    fold = Fold(st, 0, rs)
    for i, entry in enumerate(log["actions"]):
        seq = i + 1
        if not isinstance(entry, dict) or entry.get("seq") != seq:
            return _fail(checks, f"log entry {seq} is missing or out of order", seq)
        # hostile JSON: the ruleset refuses an action that is not an object
        action: Any = entry.get("action")
        seat = entry.get("seat")
        if rs.is_chance(st):
            expected = rs.sample_chance(st)
            if seat != "chance" or not isinstance(action, dict) or action.get("type") != "roll":
                return _fail(
                    checks,
                    f"seq {seq}: dice were due ({expected['dice']}) but the "
                    f"log has {str(action)[:200]}",
                    seq,
                )
            if action.get("dice") != expected["dice"]:
                return _fail(
                    checks,
                    f"seq {seq}: the log rolled {action.get('dice')}, the "
                    f"seed gives {expected['dice']}",
                    seq,
                )
            rolls += 1
        elif seat == "chance" or (isinstance(action, dict) and action.get("type") == "roll"):
            return _fail(checks, f"seq {seq}: a roll is logged where no dice were due", seq)
        try:
            fold.apply(seq, str(seat), action, rs.apply)
            st = fold.state
        except EngineError as exc:
            return _fail(
                checks,
                f"seq {seq}: the engine refuses the logged action: {exc.code}: {exc.message}",
                seq,
            )
    checks.append(
        f"{len(log['actions'])} log entries replayed; {rolls} rolls are exactly "
        "the seed's dice; every shuffle and draw comes from the same seed"
    )
    winner = rs.result(st).get("winner")
    if "winner" in log and winner != log.get("winner"):
        return _fail(
            checks, f"the replay ends with winner {winner!r}, the log says {log.get('winner')!r}"
        )
    if "winner" in log:
        checks.append(f"the replay ends as logged (winner {winner})")
    return Verdict(True, "OK: the dice and draws are those the committed seed gives", None, checks)
