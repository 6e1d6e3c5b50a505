"""Computer players on the real server (issue 38): bots of a level think in the bot
process pool (BOT_WORKERS) and their moves are ordinary logged actions."""

from __future__ import annotations

import os
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

import engine.rulesets  # noqa: F401
from app.engine_api import bot_action, bot_levels, default_bot_level, scenario_from_text
from app.games.bots import seat_level
from engine.bot import RandomBot
from engine.core.ruleset import get
from tests.engine.paths import SCN_DIR

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
    snap = R.dump_state(st)
    assert bot_action("portable", snap, None, seat, "normal", 1) in R.legal_actions(st, seat)
    assert bot_action("portable", snap, None, other, "normal", 1) is None


@pytest.mark.parametrize(
    "name,scenario",
    [
        ("m44", "2-PegasusBridge"),
        ("fastplay", "4-SwordBeach"),
        ("overlord", "13-OmahaBeachOverlord"),
    ],
)
def test_bot_action_on_a_scenario_game_as_the_pool_gets_it(name: str, scenario: str) -> None:
    """What the bot process receives (the saved state and the scenario's text) is a game
    it can play: a legal action for the seat to act after a few random moves."""
    rs = get(name)
    text = (SCN_DIR / f"{scenario}.m44").read_text()
    st = rs.new_game(4, None, scenario_from_text(text), None)
    bot = RandomBot(7, rs)
    for _ in range(12):
        if rs.is_chance(st):
            st, _ = rs.apply(st, rs.sample_chance(st))
        else:
            st, _ = rs.apply(st, bot.choose(st, rs.to_act(st)[0]))
    while rs.is_chance(st):
        st, _ = rs.apply(st, rs.sample_chance(st))
    seat = rs.to_act(st)[0]
    action = bot_action(name, rs.dump_state(st), text, seat, "easy", 1)
    assert action in rs.legal_actions(st, seat)


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


def test_bots_of_a_level_play_a_standard_game_through_the_pool(ai_server: Server) -> None:
    """Both sides of a Pegasus Bridge game given to `easy` bots: their moves, thought in
    the bot processes, reach the log (a state sent there must come back playable)."""
    with httpx.Client(base_url=ai_server.base, timeout=20) as api:
        tok = new_identity(api, "Host")
        r = api.post(
            "/api/games",
            json={
                "ruleset": "m44",
                "scenario_id": "2-PegasusBridge",
                "mode": "1v1",
                "seat": "AXIS",
                "bots": ["ALLIES"],
                "seed": 11,
            },
            headers=auth(tok),
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        for seat in ("ALLIES", "AXIS"):
            r = api.post(
                f"/api/games/{gid}/seats/{seat}/bot", json={"level": "easy"}, headers=auth(tok)
            )
            assert r.status_code == 200, r.text
        deadline = time.monotonic() + 120
        while api.get(f"/api/games/{gid}").json()["seq"] < 12:
            assert time.monotonic() < deadline, ai_server.logs()[-3000:]
            time.sleep(0.5)
    assert "bot driver failed" not in ai_server.logs()


def _stat(pid: int | str) -> tuple[str, int] | None:
    """(state, parent pid) of a process from Linux' /proc; None when it is gone."""
    try:
        state, ppid = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:2]
    except OSError:
        return None
    return state, int(ppid)


def _alive(pid: int) -> bool:
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def _bot_processes(server: int) -> list[int]:
    """The pids of the bot pool's processes a server process started."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or (stat := _stat(d.name)) is None or stat[1] != server:
            continue
        try:
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if stat[0] != "Z" and b"multiprocessing.spawn" in cmd:
            found.append(int(d.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux' /proc")
def test_the_bot_process_ends_with_a_killed_server(tmp_path: Path) -> None:
    """A server killed with SIGKILL cannot stop its bot pool: the bot process sees its
    parent gone and ends within seconds instead of staying behind for good."""
    env = {"BOT_LEVEL": "easy", "BOT_WORKERS": "1"}
    with (
        backend("sqlite", tmp_path, env) as srv,
        httpx.Client(base_url=srv.base, timeout=20) as api,
    ):
        tok = new_identity(api, "Host")
        r = api.post(
            "/api/games",
            json={"ruleset": "portable", "seed": 3, "bots": ["RED", "BLUE"]},
            headers=auth(tok),
        )
        assert r.status_code == 201, r.text
        assert srv.proc is not None
        server = srv.proc.pid
        deadline = time.monotonic() + 60
        while not (bots := _bot_processes(server)):  # started with the first bot move
            assert time.monotonic() < deadline, srv.logs()[-3000:]
            time.sleep(0.2)
        os.kill(server, signal.SIGKILL)  # the server only, not its process group
        srv.proc.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in bots):
            assert time.monotonic() < deadline, f"bot processes {bots} outlived the server"
            time.sleep(0.2)
