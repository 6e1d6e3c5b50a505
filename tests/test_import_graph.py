"""Import-graph check of ``engine/`` and ``app/`` (docs/architecture.md "Layers").

* no import cycle between the modules of ``engine/`` nor of ``app/`` (strongly connected
  components of the module graph, counting module-level and function-level imports;
  ``if TYPE_CHECKING:`` imports excepted, they never run);
* no import inside a function of ``engine/`` unless the function's docstring says why
  (it contains the word "import");
* no module of ``engine/`` above 600 lines (ruff format's layout);
* layers: ``engine.core`` imports nothing of the engine above it; ``engine.procedures``
  imports no ruleset; a ruleset imports no other ruleset (``overlord`` builds on ``m44``);
* ``app/`` imports the engine only through ``app/engine_api.py`` (the one doorway).

Run as a script (``python tests/test_import_graph.py``) for the figures.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600


@dataclass
class Graph:
    package: str
    edges: dict[str, set[str]] = field(default_factory=dict)
    function_imports: list[tuple[str, int, str]] = field(default_factory=list)  # unexplained
    explained_imports: list[tuple[str, int, str]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(mod: str, is_pkg: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = mod.split(".")
    if not is_pkg:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def build(package: str, type_checking: bool = False) -> Graph:
    """``type_checking``: count ``if TYPE_CHECKING:`` imports too (app/: a back-edge hidden
    there is still a back-edge of the design)."""
    g = Graph(package)
    files = sorted((ROOT / package).rglob("*.py"))
    modules = {module_name(p) for p in files}
    for path in files:
        mod = module_name(path)
        is_pkg = path.name == "__init__.py"
        text = path.read_text("utf-8")
        g.lines[mod] = text.count("\n")
        tree = ast.parse(text)
        out: set[str] = set()

        def visit(node: ast.AST, func: ast.AST | None) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _is_type_checking(child) and not type_checking:
                    continue
                inner = (
                    child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else func
                )
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    targets: list[str] = []
                    if isinstance(child, ast.Import):
                        targets = [a.name for a in child.names]
                    else:
                        base = _resolve(mod, is_pkg, child.level, child.module)
                        for a in child.names:
                            sub = f"{base}.{a.name}"
                            targets.append(sub if sub in modules else base)
                    for t in targets:
                        while t and t not in modules and "." in t:
                            t = t.rsplit(".", 1)[0]
                        if t in modules and t != mod:
                            out.add(t)
                    if (
                        func is not None
                        and any(t.split(".")[0] == package for t in targets)
                        or func is not None
                        and getattr(child, "level", 0)
                    ):
                        doc = ast.get_docstring(func) or ""  # type: ignore[arg-type]
                        where = (
                            str(path.relative_to(ROOT)),
                            child.lineno,
                            getattr(func, "name", "?"),
                        )
                        (
                            g.explained_imports if "import" in doc.lower() else g.function_imports
                        ).append(where)
                visit(child, inner)

        visit(tree, None)
        g.edges[mod] = out
    return g


def cycles(g: Graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10000)

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.edges.get(v, ()):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g.edges):
        if v not in index:
            strong(v)
    return out


def _package_cycle_free(g: Graph) -> list[list[str]]:
    """Cycles once a package's ``__init__`` re-exports are ignored (a package importing
    its own submodules is how a package is assembled, not a dependency between layers)."""
    return cycles(g)


def test_no_import_cycles_in_engine() -> None:
    assert cycles(build("engine")) == []


def test_no_import_cycles_in_app() -> None:
    assert cycles(build("app", type_checking=True)) == []


def test_app_layers_import_downward_only() -> None:
    """app/: ``app.main`` (the composition root) on top, imported by nobody; below it
    ``app.realtime`` (sockets), imported by nobody else; the game packages (games,
    clocks, chat, ...) below that, ``TYPE_CHECKING`` imports included."""
    g = build("app", type_checking=True)
    bad = []
    for mod, deps in g.edges.items():
        for d in deps:
            if d == "app.main":
                bad.append((mod, d))
            if d.startswith("app.realtime") and not (
                mod == "app.main" or mod.startswith("app.realtime")
            ):
                bad.append((mod, d))
    assert bad == []


def test_no_unexplained_function_level_imports_in_engine() -> None:
    assert build("engine").function_imports == []


def test_engine_modules_at_most_600_lines() -> None:
    big = {m: n for m, n in build("engine").lines.items() if n > MAX_LINES}
    assert big == {}


def test_layers_import_downward_only() -> None:
    g = build("engine")
    bad = []
    for mod, deps in g.edges.items():
        for d in deps:
            if mod.startswith("engine.core") and not d.startswith("engine.core"):
                bad.append((mod, d))
            if mod.startswith("engine.procedures") and d.startswith("engine.rulesets"):
                bad.append((mod, d))
            mine, theirs = _ruleset_of(mod), _ruleset_of(d)
            if mine and theirs and mine != theirs and (mine, theirs) not in BUILDS_ON:
                bad.append((mod, d))
    assert bad == []


def test_app_imports_the_engine_only_through_engine_api() -> None:
    """Every ``import engine...`` / ``from engine... import`` of ``app/`` (module or
    function level) is in ``app/engine_api.py``."""
    bad = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        if rel == "app/engine_api.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            bad += [(rel, node.lineno, n) for n in names if n.split(".")[0] == "engine"]
    assert bad == []


#: rulesets built on another one (may import it); any other pair is independent
BUILDS_ON = {("overlord", "m44")}


def _ruleset_of(mod: str) -> str | None:
    parts = mod.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["engine", "rulesets"] else None


def test_every_engine_import_names_a_module_of_this_tree() -> None:
    """An import of a module that moved must fail here, not fall back to another checkout:
    the shared virtualenv's editable install resolves ``engine.<missing>`` to the main
    checkout's engine, so a stale path would silently run other code."""
    missing = []
    for top in ("engine", "app", "tests", "bench", "migrations", "scripts"):
        for path in sorted((ROOT / top).rglob("*.py")):
            mod = module_name(path)
            is_pkg = path.name == "__init__.py"
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    names = [_resolve(mod, is_pkg, node.level, node.module)]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                for name in names:
                    if name.split(".")[0] != "engine":
                        continue
                    rel = ROOT.joinpath(*name.split("."))
                    if not (rel.with_suffix(".py").exists() or rel.is_dir()):
                        missing.append((str(path.relative_to(ROOT)), node.lineno, name))
    assert missing == []


def report() -> None:
    for pkg in ("engine", "app"):
        g = build(pkg, type_checking=pkg == "app")
        cyc = cycles(g)
        print(
            f"{pkg}: {len(g.edges)} modules, {len(cyc)} import cycles "
            f"({sum(len(c) for c in cyc)} modules in them)"
        )
        for c in cyc:
            print("   cycle:", " ".join(c))
        print(
            f"{pkg}: function-level imports: {len(g.function_imports)} unexplained, "
            f"{len(g.explained_imports)} explained by a docstring"
        )
        for f in g.function_imports:
            print("   ", *f)
        big = sorted(((n, m) for m, n in g.lines.items() if n > MAX_LINES), reverse=True)
        print(f"{pkg}: modules above {MAX_LINES} lines:", big)


if __name__ == "__main__":
    report()
