"""Settings a deployer sets: ``RATE_LIMITS`` changes named rate limits and refuses to
start on a bad one; the VAPID public key and contact come from ``VAPID_PRIVATE_KEY`` and
``MAIL_FROM``."""

from __future__ import annotations

import base64
import os
import subprocess
import sys

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from pydantic import ValidationError

from app.notifications import push
from app.realtime.connection import per_second
from app.settings import RATE_DEFAULTS, Settings

from .conftest import ROOT


def test_rate_limits_change_only_the_names_given() -> None:
    s = Settings(rate_limits=" game=20/minute, login=5/minute ")
    assert s.rate("game") == "20/minute" and s.rate("login") == "5/minute"
    assert {n: s.rate(n) for n in RATE_DEFAULTS if n not in ("game", "login")} == {
        n: v for n, v in RATE_DEFAULTS.items() if n not in ("game", "login")
    }
    assert Settings().rate_limits == RATE_DEFAULTS
    assert per_second(Settings(rate_limits="socket=600/minute").rate("socket")) == 10.0


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("gmae=20/minute", "unknown rate limit 'gmae'"),
        ("game=20", "game='20' is not a limit"),
        ("game=20/fortnight", "is not a limit"),
        ("game=0/minute", "is not a limit"),
        ("game", "'game' is not name=limit"),
        ("game=1/minute,game=2/minute", "'game' given twice"),
    ],
)
def test_a_bad_rate_limit_is_refused(value: str, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        Settings(rate_limits=value)


def test_the_server_does_not_start_with_a_bad_rate_limit() -> None:
    env = {**os.environ, "RATE_LIMITS": "login=5/minute,gmae=20/minute"}
    r = subprocess.run(
        [sys.executable, "-c", "import app.main"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert r.returncode != 0 and "unknown rate limit 'gmae'" in r.stderr


def test_vapid_public_key_and_contact_follow_the_private_key_and_mail_from() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    s = Settings(
        vapid_private_key=base64.urlsafe_b64encode(raw).rstrip(b"=").decode(),
        mail_from="Overlord <games@play.example>",
    )
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert push.public_key(s) == base64.urlsafe_b64encode(point).rstrip(b"=").decode()
    assert push.subject(s) == "mailto:games@play.example"
    assert push.enabled(s) and not push.enabled(Settings())
    assert push.public_key(Settings()) is None
