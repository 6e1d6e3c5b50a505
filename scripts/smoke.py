"""Smoke check of a running server, as a new user's browser meets it.

    python scripts/smoke.py [--wait SECONDS] [--pid PID] [--wait-only] http://127.0.0.1:8000

1. waits (``--wait``) until ``GET /healthz`` answers 200, failing early if process
   ``--pid`` (the server, or the ``make run`` that installs and starts it) has exited;
2. ``/``, ``/docs`` and ``/api/scenarios`` answer 200 (a non-empty scenario list);
3. like the lobby: ``POST /api/identity`` (cookie ``overlord_token``), ``POST /api/games``
   on a bundled scenario with the creator seated, the game page answers 200;
4. a websocket to ``/ws/games/{id}`` with that cookie receives ``hello`` for that game
   and seat;
5. a text frame over the 1 MiB cap closes the websocket with 1009 (the server runs with
   the project's ``ws_max_size``: ``overlord-server serve``).

Only the runtime dependencies (the stdlib and ``websockets``, imported for steps 4-5
only): run it with the server's own virtualenv, never the test one.  Exit 0 on success.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from typing import Any

WS_CAP = 1024 * 1024


def fail(msg: str) -> None:
    print(f"smoke: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def request(
    base: str, path: str, body: Any = None, cookie: str | None = None, timeout: float = 10.0
) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="GET" if data is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers.items()), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers.items()), e.read()


def expect(base: str, path: str, status: int = 200, **kw: Any) -> tuple[dict[str, str], bytes]:
    code, headers, body = request(base, path, **kw)
    if code != status:
        fail(f"{path}: HTTP {code} (expected {status}): {body[:300]!r}")
    print(f"smoke: {path} -> {code}")
    return headers, body


def alive(pid: int | None) -> bool:
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # our own child that exited: a zombie
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def wait_ready(base: str, seconds: float, pid: int | None) -> None:
    t0 = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    print(f"smoke: /healthz -> 200 after {time.monotonic() - t0:.1f} s")
                    return
        except (OSError, urllib.error.URLError):
            pass
        if not alive(pid):
            fail(f"the server process {pid} exited before answering /healthz")
        if time.monotonic() - t0 > seconds:
            fail(f"no answer from {base}/healthz within {seconds:.0f} s")
        time.sleep(0.5)


def check_websocket(base: str, game_id: str, cookie: str, seat: str | None) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = "ws" + base[len("http") :] + f"/ws/games/{game_id}"
    kw: dict[str, Any] = {
        "additional_headers": {"Cookie": cookie},
        "open_timeout": 10,
        "max_size": None,
    }
    try:
        ws = connect(url, proxy=None, **kw)  # websockets >= 15 honours *_PROXY
    except TypeError:
        ws = connect(url, **kw)
    with ws:
        hello = json.loads(ws.recv(timeout=10))
        if hello.get("type") != "hello" or hello.get("game_id") != game_id:
            fail(f"websocket: first message is not the game's hello: {str(hello)[:300]}")
        if seat is not None and seat not in (hello.get("my_seats") or []):
            fail(f"websocket: hello.my_seats {hello.get('my_seats')} lacks {seat}")
        print(
            f"smoke: websocket hello (protocol {hello.get('protocol')}, "
            f"seats {hello.get('my_seats')}, {len(hello.get('legal') or [])} legal actions)"
        )
        ws.send("x" * (WS_CAP + 4096))
        t0 = time.monotonic()
        try:
            while time.monotonic() - t0 < 10:
                ws.recv(timeout=10)  # updates/pongs until the close
        except ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd else None
            if code != 1009:
                fail(f"websocket: a frame over 1 MiB closed with {code}, expected 1009")
            print("smoke: websocket frame over 1 MiB -> close 1009")
            return
        except TimeoutError:
            pass
        fail("websocket: a frame over 1 MiB did not close the connection (ws_max_size?)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", help="e.g. http://127.0.0.1:8000")
    ap.add_argument("--wait", type=float, default=30.0, help="seconds to wait for /healthz")
    ap.add_argument("--pid", type=int, help="fail at once when this process exits")
    ap.add_argument("--wait-only", action="store_true", help="only step 1 (stdlib only)")
    a = ap.parse_args()
    base = a.base.rstrip("/")
    t0 = time.monotonic()
    wait_ready(base, a.wait, a.pid)
    if a.wait_only:
        return
    expect(base, "/")
    expect(base, "/docs")
    _, body = expect(base, "/api/scenarios")
    scenarios = [s for s in json.loads(body) if not s.get("error")]
    if not scenarios:
        fail("/api/scenarios lists no loadable scenario")
    scn = next((s for s in scenarios if "1v1" in (s.get("modes") or [])), scenarios[0])
    mode = "1v1" if "1v1" in (scn.get("modes") or []) else (scn.get("modes") or [None])[0]
    seat = scn.get("player1_side") if mode == "1v1" else None

    headers, body = expect(base, "/api/identity", 201, body={"name": "smoke"})
    token = json.loads(body)["token"]
    if "overlord_token=" not in headers.get("Set-Cookie", headers.get("set-cookie", "")):
        fail("/api/identity set no overlord_token cookie")
    cookie = f"overlord_token={token}"
    game: dict[str, Any] = {"scenario_id": scn["id"], "options": {}, "private": False}
    if mode:
        game["mode"] = mode
    if seat:
        game["seat"] = seat
    _, body = expect(base, "/api/games", 201, body=game, cookie=cookie)
    created = json.loads(body)
    print(f"smoke: game {created['id']} on {scn['id']} ({mode}), seat {seat}")
    expect(base, created.get("url") or f"/games/{created['id']}", cookie=cookie)
    check_websocket(base, created["id"], cookie, seat)
    print(f"smoke: ok ({time.monotonic() - t0:.1f} s)")


if __name__ == "__main__":
    main()
