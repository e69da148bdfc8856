"""The journal stands beside the engine, not on it: `rulings` imports only the rules index's text
utilities and the lexicon, and keeps no per-judge state in its modules."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulings"
# The project's own top-level modules other than these are layers `rulings` must not lean on.
ALLOWED_PROJECT = frozenset({"rulings", "rules_index", "lexicon"})
FORBIDDEN_THIRD_PARTY = frozenset({"streamlit"})


def _project_modules() -> set[str]:
    names = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    return names | {p.stem for p in ROOT.glob("*.py")}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, at any depth (inside functions too), with its line."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the package
                found.append((node.lineno, "rulings"))
            elif node.module:
                found.append((node.lineno, node.module))
    return found


def test_rulings_imports_neither_the_engine_nor_streamlit() -> None:
    forbidden = (_project_modules() - ALLOWED_PROJECT) | FORBIDDEN_THIRD_PARTY
    assert {"engine", "app_pages", "app", "streamlit"} <= forbidden  # the walk sees the layers it guards
    files = sorted(PACKAGE.glob("*.py"))
    assert {p.stem for p in files} >= {"__init__", "model", "store", "search", "export", "accounts", "cli"}
    bad = [
        f"{path.relative_to(ROOT)}:{line}: import {name}"
        for path in files
        for line, name in _imports(path)
        if name.split(".")[0] in forbidden
    ]
    assert bad == []


def test_the_walk_sees_imports_inside_functions(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    import engine.core\n    from streamlit import text\n", encoding="utf-8")
    assert _imports(sample) == [(2, "engine.core"), (3, "streamlit")]


def test_journal_and_desk_modules_hold_no_mutable_state() -> None:
    """Many judges share one process: module globals must be constants, never per-user state."""
    own = [importlib.import_module(f"rulings.{p.stem}") for p in sorted(PACKAGE.glob("[!_]*.py"))]
    import app_pages

    pages = [importlib.import_module(m.name) for m in pkgutil.walk_packages(app_pages.__path__, "app_pages.")]
    assert {"app_pages.desk.page", "app_pages.desk.session", "app_pages.journal.form"} <= {
        m.__name__ for m in pages
    }
    for module in (*own, *pages):
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            assert not isinstance(value, list | set | dict | bytearray | types.SimpleNamespace), (
                f"{module.__name__}.{name}"
            )
