"""docs/protocol.md names every error code the server can send (issue 9, point 8): the
code strings are collected from app/ and engine/ by the ways they are raised and each
must appear in the protocol document (as `code`)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PATTERNS = [
    r'(?:IllegalAction|EngineError|ScenarioError)\(\s*"([a-z][a-z0-9_]+)"',  # engine raises
    r'\bcode\s*=\s*"([a-z][a-z0-9_]+)"',  # code="x", code = "x"
    r'^\s*code,\s*status\s*=\s*"([a-z][a-z0-9_]+)"',  # AppError subclasses
    r'"code":\s*"([a-z][a-z0-9_]+)"',  # wire dicts
    r'\.error\(\s*"([a-z][a-z0-9_]+)"',  # conn.error("x", ...)
    r'reject\([^()"]*"([a-z][a-z0-9_]+)"',  # Outcome.reject(seq, "x")
    r'_reply\(send,\s*\d+,\s*"([a-z][a-z0-9_]+)"',  # ASGI refusals
    r'refuse_websocket\(\s*receive,\s*send,\s*"([a-z][a-z0-9_]+)"',
    r'\d{3}:\s*"([a-z][a-z0-9_]+)"',  # {404: "not_found"}
    r'\bcode\s*=\s*"[a-z_]+"\s+if\s+[^\n]*\belse\s+"([a-z][a-z0-9_]+)"',  # code = "a" if .. else "b"
    # an engine raise whose code is chosen: Error(\n "a" if .. else "b",
    r'(?:IllegalAction|EngineError)\(\s*"[a-z_]+"\s+if\s+[^\n]*\belse\s+"([a-z][a-z0-9_]+)"',
]
# ``def x_error(...) -> str | None`` helpers return the code of a refusal
ERROR_HELPERS = re.compile(r"^def \w+_error\(.*?(?=^\S|\Z)", re.S | re.M)
# engine modules whose ``_MESSAGES`` map code -> text (every key is a code)
MESSAGE_MAPS = re.compile(r"^_MESSAGES\s*=\s*\{(.*?)^\}", re.S | re.M)
# string literals the patterns above catch that are not error codes
NOT_CODES = {"error", "bundled", "uploaded", "ws", "wss"}


def codes_in_source() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for f in sorted([*ROOT.glob("app/**/*.py"), *ROOT.glob("engine/**/*.py")]):
        text = f.read_text("utf-8")
        for pat in PATTERNS:
            for m in re.finditer(pat, text, re.M):
                found.setdefault(m.group(1), set()).add(str(f.relative_to(ROOT)))
        for block in ERROR_HELPERS.findall(text):
            for code in re.findall(r'return\s+"([a-z][a-z0-9_]+)"', block):
                found.setdefault(code, set()).add(str(f.relative_to(ROOT)))
        for block in MESSAGE_MAPS.findall(text):
            for key in re.findall(r'^\s*"([a-z][a-z0-9_]+)":', block, re.M):
                found.setdefault(key, set()).add(str(f.relative_to(ROOT)))
    for c in NOT_CODES:
        found.pop(c, None)
    return found


def test_every_error_code_is_documented() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    found = codes_in_source()
    assert len(found) > 100  # the extraction still works
    missing = {c: sorted(w) for c, w in found.items() if f"`{c}`" not in doc}
    assert not missing, f"error codes missing from docs/protocol.md: {missing}"
