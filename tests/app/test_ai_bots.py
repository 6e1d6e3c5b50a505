"""Computer players on the real server (issue 38): bots of a level think in the bot
process pool (BOT_WORKERS) and their moves are ordinary logged actions."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

import engine.rulesets  # noqa: F401
from app.engine_api import bot_action, bot_levels, default_bot_level
from app.games.bots import seat_level
from engine.core.ruleset import get

from .conftest import Server, backend
from .helpers import auth, new_identity

R = get("portable")


def test_levels_offered_and_seat_level():
    assert bot_levels() == ["normal", "random", "easy", "hard"]
    assert default_bot_level() == bot_levels()[0]
    assert seat_level(SimpleNamespace(bot_level="hard"), "normal") == "hard"
    assert seat_level(SimpleNamespace(bot_level="nonsense"), "normal") == "normal"
    assert seat_level(SimpleNamespace(), "easy") == "easy"


def test_bot_action_is_legal_and_none_for_a_seat_not_to_act():
    st = R.new_game(3, None)
    while R.is_chance(st):
        st, _ = R.apply(st, R.sample_chance(st))
    seat = R.to_act(st)[0]
    other = next(s for s in R.seats(st) if s != seat)
    assert bot_action("portable", st, seat, "normal", 1) in R.legal_actions(st, seat)
    assert bot_action("portable", st, other, "normal", 1) is None


@pytest.fixture(scope="module")
def ai_server() -> Iterator[Server]:
    with backend(
        "sqlite", Path(tempfile.mkdtemp()), {"BOT_LEVEL": "normal", "BOT_WORKERS": "1"}
    ) as srv:
        yield srv


def test_two_normal_bots_play_a_portable_battle_through_the_pool(
    ai_server: Server,
) -> None:
    with httpx.Client(base_url=ai_server.base, timeout=20) as api:
        tok = new_identity(api, "Umpire")
        r = api.post(
            "/api/games",
            json={
                "ruleset": "portable",
                "seed": 5,
                "bots": ["RED", "BLUE"],
                "options": {"turn_limit": "4"},
            },
            headers=auth(tok),
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        deadline = time.monotonic() + 240
        while (summary := api.get(f"/api/games/{gid}").json())["status"] != "finished":
            assert time.monotonic() < deadline, f"the bots did not finish: {summary}"
            time.sleep(0.5)
        log = api.get(f"/api/games/{gid}/log").json()
    st = R.new_game(log["rng_seed"], log["options"])
    for entry in log["actions"]:
        st, _ = R.apply(st, entry["action"])
    assert R.is_over(st) and summary["winner"] == st.winner
