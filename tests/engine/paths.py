"""Where the tests find the scenario files: the copies bundled in the repository
(``scenarios/``, identical to the shared ``scenarios/m44/`` set), so a clean clone on any
machine runs the same tests."""

from pathlib import Path

SCN_DIR = Path(__file__).resolve().parents[2] / "scenarios"
