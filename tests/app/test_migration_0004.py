"""Migration 0004_hardening on a database with rows of 0003 (SQLite and PostgreSQL): an
identity's old token keeps working (it became a session) and logging out revokes it; an
upload stored without a summary is listed (summarised once, then from the column)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import PY, ROOT, Server, _psql, backend
from .helpers import auth

TOKEN = "old-token-" + "x" * 40
PEGASUS = (ROOT / "scenarios" / "2-PegasusBridge.m44").read_text("utf-8")


def _alembic(srv: Server, rev: str) -> None:
    subprocess.run(
        [PY, "-m", "alembic", "upgrade", rev],
        cwd=ROOT,
        env=srv.env,
        check=True,
        capture_output=True,
    )


def _seed_0003(srv: Server, kind: str) -> None:
    """Rows as 0003 wrote them: an identity (token hash only) and an uploaded scenario."""
    import hashlib

    h = hashlib.sha256(TOKEN.encode()).hexdigest()
    data = json.loads(PEGASUS)
    data["text"] = {"en": {"name": "Old upload"}}
    content = json.dumps(data).replace("'", "''")
    sha = hashlib.sha256(json.dumps(data).encode()).hexdigest()
    now = "2026-01-02 03:04:05" if kind == "sqlite" else "2026-01-02 03:04:05+00"
    sql = (
        f"INSERT INTO identities (id, name, token_hash, created_at) VALUES "
        f"('i_old', 'Old timer', '{h}', '{now}');"
        f"INSERT INTO scenarios (id, name, source, sha256, content, uploaded_by, created_at) "
        f"VALUES ('up-old', 'Old upload', 'uploaded', '{sha}', '{content}', 'i_old', '{now}');"
    )
    if kind == "sqlite":
        import sqlite3

        db = srv.env["DATABASE_URL"].split("///", 1)[1]
        with sqlite3.connect(db) as c:
            c.executescript(sql)
    else:
        assert _psql(f"SET search_path TO {srv.env['DATABASE_SCHEMA']}; {sql}") is not None


@pytest.fixture(params=["sqlite", "pg"])
def old_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    def prepare(srv: Server) -> None:
        _alembic(srv, "0003")
        _seed_0003(srv, request.param)
        _alembic(srv, "head")

    with backend(request.param, tmp_path, prepare=prepare) as srv:
        yield srv


def test_old_rows_load_after_0004(old_server: Server) -> None:
    with httpx.Client(base_url=old_server.base, timeout=20) as api:
        me = api.get("/api/identity/me", headers=auth(TOKEN))
        assert me.status_code == 200 and me.json()["name"] == "Old timer"
        sessions = api.get("/api/identity/sessions", headers=auth(TOKEN)).json()
        assert len(sessions) == 1 and sessions[0]["current"]
        for _ in range(2):  # summarised on the first listing, then stored
            listed = {s["id"]: s for s in api.get("/api/scenarios").json()}
            assert listed["up-old"]["name"] == "Old upload"
            assert listed["up-old"]["modes"] == ["1v1", "team"]
        assert api.post("/api/identity/logout", headers=auth(TOKEN)).status_code == 204
        assert api.get("/api/identity/me", headers=auth(TOKEN)).status_code == 401
