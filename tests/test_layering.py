"""The architecture's import rules: core never imports Qt, pyqtgraph, app or views;
views never touch sqlite3 and app never imports views; no import cycles (every folder reads
top-down; the graph is grimp's, the one import-linter builds)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1] / "memgraph_gui"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _offenders(folder: str, banned: tuple[str, ...]) -> dict[str, set[str]]:
    out = {}
    for path in (PACKAGE / folder).rglob("*.py"):
        bad = {n for n in _imports(path) if n.split(".")[0] in banned or n.startswith(banned)}
        if bad:
            out[str(path.relative_to(PACKAGE))] = bad
    return out


def test_core_imports_no_qt_pyqtgraph_app_or_views() -> None:
    assert (
        _offenders("core", ("PySide6", "pyqtgraph", "memgraph_gui.app", "memgraph_gui.views")) == {}
    )


def test_views_never_open_sqlite_and_app_never_imports_views() -> None:
    assert _offenders("views", ("sqlite3", "sqlite_utils")) == {}
    assert _offenders("app", ("memgraph_gui.views",)) == {}


def test_the_check_itself_catches_a_qt_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from PySide6.QtCore import QObject\nimport memgraph_gui.views.x\n")
    assert {"PySide6.QtCore", "memgraph_gui.views.x"} <= _imports(bad)


def test_core_loads_without_qt_in_a_fresh_interpreter() -> None:
    code = (
        "import sys, memgraph_gui.core as c, memgraph_gui.cli;"
        "from memgraph_gui.core import MemoryStore, open_session, external;"
        "s = MemoryStore.open(':memory:'); s.read_api().list_nodes();"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_app_model_loads_no_widgets_pyqtgraph_or_superqt() -> None:
    """Importing the app layer (``AppModel`` and every app module) must not load QtWidgets,
    pyqtgraph or superqt: the app layer has no widgets."""
    code = (
        "import sys, pkgutil, importlib, memgraph_gui.app as a\n"
        "for m in pkgutil.iter_modules(a.__path__):\n"
        "    importlib.import_module('memgraph_gui.app.' + m.name)\n"
        "from memgraph_gui.app.app_model import AppModel\n"
        "widgets = ('PySide6.QtWidgets', 'pyqtgraph', 'superqt')\n"
        "bad = sorted(m for m in sys.modules if m.startswith(widgets))\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_views_import_no_core_graph_storage_or_luker() -> None:
    banned = tuple(
        f"memgraph_gui.core.{p}" for p in ("graph", "storage", "memory", "layout", "luker")
    )
    assert _offenders("views", banned) == {}


def _linter() -> Path:
    """The lint-imports command: a dev dependency, so its absence fails (never skips)."""
    linter = Path(sys.executable).with_name("lint-imports")
    assert linter.exists(), f"import-linter is not installed next to {sys.executable}"
    return linter


def test_import_linter_contracts_hold() -> None:
    linter = _linter()
    result = subprocess.run(
        [str(linter)], capture_output=True, text=True, timeout=120, cwd=PACKAGE.parent
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_upward_import_inside_core_breaks_the_layering(tmp_path: Path) -> None:
    """Copy the package, make ``domain`` import ``luker``, and import-linter must fail."""
    import shutil

    linter = _linter()
    shutil.copytree(PACKAGE, tmp_path / "memgraph_gui")
    shutil.copy(PACKAGE.parent / "pyproject.toml", tmp_path / "pyproject.toml")
    model = tmp_path / "memgraph_gui" / "core" / "domain" / "model.py"
    model.write_text(model.read_text() + "\nfrom memgraph_gui.core.luker import args  # upward\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run(
        [str(linter)], capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env
    )
    assert result.returncode != 0
    assert "core is layered by concern" in result.stdout and "BROKEN" in result.stdout


def _strong_groups(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan): each one is a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while (w := stack.pop()) != v:
                group.append(w)
            group.append(v)
            if len(group) > 1:
                groups.append(sorted(group))

    for v in nodes:
        if v not in index:
            visit(v)
    return groups


def import_cycles(graph: Any) -> list[str]:
    """Every import cycle in a grimp graph, TYPE_CHECKING and function-level imports included:
    between modules (anywhere), and between the children of each package folder (a child
    package counts as one node: everything under it). Empty when every folder reads top-down."""
    modules = sorted(graph.modules)
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in modules}
    found = [f"modules: {' <-> '.join(g)}" for g in _strong_groups(modules, edges)]
    for package in modules:
        children = sorted(graph.find_children(package))

        def child_of(module: str, children: list[str] = children) -> str | None:
            return next((c for c in children if module == c or module.startswith(c + ".")), None)

        folder: dict[str, set[str]] = {}
        for importer in modules:
            if (a := child_of(importer)) is not None:
                for imported in edges[importer]:
                    if (b := child_of(imported)) not in (None, a):
                        folder.setdefault(a, set()).add(b)
        found += [f"folder {package}: {' <-> '.join(g)}" for g in _strong_groups(children, folder)]
    return found


def test_no_import_cycles_every_folder_reads_top_down() -> None:
    """No module of memgraph_gui imports, directly or through others (TYPE_CHECKING imports
    included), a module that imports it back; nor do two children of one folder."""
    import grimp

    import memgraph_gui

    assert Path(memgraph_gui.__file__).parent == PACKAGE  # the checkout under test
    graph = grimp.build_graph("memgraph_gui", exclude_type_checking_imports=False, cache_dir=None)
    cycles = import_cycles(graph)
    assert not cycles, "\n".join(cycles)


def test_the_cycle_check_catches_a_cycle_and_a_folder_circle() -> None:
    import grimp

    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.sub", "p.sub.x", "p.sub.y"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.sub.x", imported="p.c")
    assert import_cycles(graph) == []
    graph.add_import(importer="p.c", imported="p.sub.y")  # p.sub -> p.c -> p.sub: a folder circle
    assert import_cycles(graph) == ["folder p: p.c <-> p.sub"]
    graph.add_import(importer="p.b", imported="p.a")  # p.a <-> p.b: a module cycle
    assert import_cycles(graph) == [
        "modules: p.a <-> p.b",
        "folder p: p.a <-> p.b",
        "folder p: p.c <-> p.sub",
    ]
