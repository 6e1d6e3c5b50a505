"""Compile the server's hottest pure-Python modules with mypyc (optional; `make install`).

    python scripts/build_native.py [--tool DIR] [--clean] [--c-only]

For each module of ``MODULES`` (``app/realtime/delta.py``: the view patches, the largest
single part of a delivery), a copy named ``_<name>_native.py`` is written beside it with
``SOURCE_SHA``, the SHA-256 of the module's source, appended; mypyc compiles the copy to
an extension module (``_<name>_native.*.so``) and the copy is removed.  The module
itself stays the source of truth and is what runs without a build: at import it takes
the compiled functions and classes only from a copy built from its very bytes
(``app/realtime/native.py``), so an edited module never runs stale compiled code, and
``OVERLORD_NATIVE=0`` turns the compiled code off.

mypy (which provides mypyc) is installed into a tool virtualenv of its own (``--tool``,
by default ``.venv/native-tool``) at the version pinned below, never into the server's
environment: the compiled modules need only CPython.  Without a C compiler or the
Python headers (e.g. the python:3.11-slim Docker image) nothing is built and the server
runs the pure-Python modules; this script then exits 0 with a note.  Measured (callgrind,
the delivery benchmark on the same kept games): -6.9 % instructions per action
(docs/performance.md "Session 12").
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MYPY = "mypy==1.13.0"
MODULES = ["app/realtime/delta.py"]
# C extensions of our own, compiled with the interpreter's compiler and flags: the source
# -> the module beside it (its SOURCE_SHA: the SHA-256 of the source it was built from)
C_MODULES = ["app/realtime/_sendthread.c"]


def native_path(module: str) -> Path:
    """``app/realtime/delta.py`` -> ``app/realtime/_delta_native.py``."""
    p = ROOT / module
    return p.with_name(f"_{p.stem}_native.py")


def built(module: str) -> list[str]:
    """The extension files of a module's compiled copy (the module and mypyc's runtime)."""
    n = native_path(module)
    return sorted(glob.glob(str(n.with_suffix("")) + ".*.so")
                  + glob.glob(str(n.with_name(n.stem + "__mypyc")) + ".*.so"))


def sha_of(module: str) -> str:
    return hashlib.sha256((ROOT / module).read_bytes()).hexdigest()


def compiler_missing() -> str | None:
    """Why nothing can be compiled here, or None."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    include = sysconfig.get_paths().get("include") or ""
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"no Python headers ({include})"
    return None


def tool_python(tool: Path) -> Path:
    """The tool virtualenv's Python, with mypy installed (made on first use)."""
    py = tool / "bin" / "python"
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(tool)], check=True)
    ok = subprocess.run([str(py), "-c", f"import mypy.version as v; "
                         f"assert v.__version__ == {MYPY.split('==')[1]!r}"],
                        capture_output=True)
    if ok.returncode:
        subprocess.run([str(py), "-m", "pip", "install", "-q", MYPY], check=True)
    return py


def stamp_path(module: str) -> Path:
    """The SHA-256 of the source the compiled copy was built from (skip a rebuild)."""
    return native_path(module).with_suffix(".sha")


def up_to_date(module: str) -> bool:
    stamp = stamp_path(module)
    return len(built(module)) == 2 and stamp.exists() and stamp.read_text() == sha_of(module)


def build(module: str, py: Path) -> None:
    copy = native_path(module)
    sha = sha_of(module)
    stamp_path(module).unlink(missing_ok=True)
    source = (ROOT / module).read_text()
    copy.write_text(f"{source}\n\n# a copy for mypyc (scripts/build_native.py)\n"
                    f'SOURCE_SHA = "{sha}"\n')
    try:
        for old in built(module):
            os.remove(old)
        rel = str(copy.relative_to(ROOT))
        cache = str(Path(py).parents[1] / "mypy-cache")    # not in the tree
        subprocess.run([str(py), "-m", "mypyc", "--ignore-missing-imports",
                        "--cache-dir", cache, rel],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    finally:
        copy.unlink(missing_ok=True)
    stamp_path(module).write_text(sha)


def c_output(source: str) -> Path:
    """``app/realtime/_sendthread.c`` -> ``app/realtime/_sendthread.cpython-311-....so``."""
    p = ROOT / source
    return p.with_name(p.stem + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def c_stamp(source: str) -> Path:
    return (ROOT / source).with_suffix(".sha")


def c_up_to_date(source: str) -> bool:
    stamp = c_stamp(source)
    return c_output(source).exists() and stamp.exists() and stamp.read_text() == sha_of(source)


def build_c(source: str) -> None:
    """One C file to an extension module (no setuptools: the compiler and flags the
    interpreter was built with, as distutils would use)."""
    sha = sha_of(source)
    out = c_output(source)
    c_stamp(source).unlink(missing_ok=True)
    out.unlink(missing_ok=True)
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    include = sysconfig.get_paths()["include"]
    cmd = [*cc, "-O2", "-fPIC", "-shared", "-pthread", "-Wall",
           f"-I{include}", f'-DSOURCE_SHA="{sha}"', str(ROOT / source), "-o", str(out)]
    subprocess.run(cmd, check=True)
    c_stamp(source).write_text(sha)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", default=str(ROOT / ".venv" / "native-tool"),
                    help="the virtualenv mypy is installed into")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    ap.add_argument("--c-only", action="store_true",
                    help="only the C modules (~1 s: part of `make run`'s first start)")
    a = ap.parse_args()
    if a.clean:
        for module in MODULES:
            for f in built(module):
                os.remove(f)
            stamp_path(module).unlink(missing_ok=True)
        for source in C_MODULES:
            c_output(source).unlink(missing_ok=True)
            c_stamp(source).unlink(missing_ok=True)
        return 0
    why = compiler_missing()
    if why is not None:
        print(f"build_native: {why}; the pure-Python modules run", file=sys.stderr)
        return 0
    for source in C_MODULES:
        if not c_up_to_date(source):
            try:
                build_c(source)
                print(f"build_native: {source} compiled ({c_output(source).name})")
            except (OSError, subprocess.CalledProcessError) as exc:
                print(f"build_native: {source} not compiled ({exc}); the Python thread "
                      "writes", file=sys.stderr)
    if a.c_only:
        return 0
    todo = [m for m in MODULES if not up_to_date(m)]
    if not todo:
        print("build_native: up to date")
        return 0
    py = tool_python(Path(a.tool))
    for module in todo:
        build(module, py)
        print(f"build_native: {module} compiled ({', '.join(os.path.basename(f) for f in built(module))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
