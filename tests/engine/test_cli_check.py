"""``python -m engine check`` (exit status and report)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import main
from tests.engine.paths import SCN_DIR

FILES = sorted(SCN_DIR.glob("*.m44"))
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_check_accepts_bundled_scenarios(path, capsys):
    assert main(["check", str(path)]) == 0
    assert "ok" in capsys.readouterr().out


def test_check_names_every_unsupported_code(tmp_path, capsys):
    data = json.loads(FILES[0].read_text())
    data["board"]["hexagons"].append(
        {"row": 4, "col": 4, "terrain": {"name": "moonrock"}, "unit": {"name": "zeppelinger"}}
    )
    data["board"]["hexagons"].append({"row": 4, "col": 6, "terrain": {"name": "moonrock"}})
    bad = tmp_path / "bad.m44"
    bad.write_text(json.dumps(data))
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "terrain code 'moonrock' at (row 4, col 4), (row 4, col 6)" in out
    assert "unit code 'zeppelinger' at (row 4, col 4)" in out


def test_check_malformed_file(tmp_path, capsys):
    bad = tmp_path / "broken.m44"
    bad.write_text("{nope")
    assert main(["check", str(bad)]) == 1
    assert "malformed_scenario" in capsys.readouterr().out


def test_module_entry_point_exit_status():
    ok = subprocess.run(
        [sys.executable, "-m", "engine", "check", str(FILES[0])],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    usage = subprocess.run(
        [sys.executable, "-m", "engine"], cwd=ROOT, capture_output=True, text=True
    )
    assert usage.returncode == 2
