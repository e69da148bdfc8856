"""The layout holds: no import cycles, packages that import only what the design allows (ALLOWED,
the README's diagram), modules of a readable size, and a README developer section that names what
is there. (That rule functions declare exactly the clauses they name: tests/test_engine_citations.py.)

Imports are read from the source with `ast`, so an import inside a function counts as much as one
at the top; an import under `if TYPE_CHECKING:` does not (it never runs).
"""

from __future__ import annotations

import ast
import pathlib
import re

import networkx as nx
import pytest

import engine
from engine.rules import RULE_MODULES

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# Every top-level folder with an __init__.py is one of our packages (tests aside); `app` is app.py.
PACKAGES = tuple(sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests"))
MAX_LINES = 700
# Files allowed over MAX_LINES for now, with the reason; the test fails once one fits again.
OVER_LIMIT: dict[str, str] = {}

# Which packages each package may import (besides itself): the layered design, read downwards.
# It has no cycle, every edge here is used by some module, and the README's diagram draws exactly
# these arrows (one line per package: «engine → lexicon, rules_index»). A new package needs its
# line here and in the README.
ALLOWED: dict[str, tuple[str, ...]] = {
    "app": ("app_pages",),
    "app_pages": ("desk", "cardbase", "casebook", "rulings", "engine", "lexicon", "rules_index", "storage"),
    "desk": ("casebook", "engine", "lexicon", "rules_index", "storage"),
    "cardbase": ("casebook", "rulings", "engine", "lexicon", "rules_index", "storage"),
    "casebook": ("rulings", "engine", "lexicon", "rules_index", "storage"),
    "rulings": ("lexicon", "rules_index"),
    "engine": ("lexicon", "rules_index"),
    "lexicon": ("rules_index",),
    "rules_index": ("storage",),
    "storage": (),
}
# The documented exceptions, module to module, upwards: `python -m engine run|check|coverage|…` is
# the scenario casebook's command line and `python -m engine cards …` the card base's, both reached
# through the engine's one parser (the README's diagram draws them too).
EXCEPTIONS = {("engine.__main__", "casebook.cli"), ("engine.__main__", "cardbase.cli")}
# Inside the engine the model knows no rules, and the rule modules are engine.rules.RULE_MODULES,
# listed there and nowhere else: the sections in their order, each importing only the sections
# before it, and two general modules — `procedure` (the game's procedure: first at every hook point,
# it may use any section) and `zones` (the shared zone code: it calls hooks and knows no section).
# The package's other modules (registry, events, guards) are the machinery and import no rule module.
RULE_NAMES = tuple(m.__name__ for m in RULE_MODULES)
PROCEDURE, ZONES = "engine.rules.procedure", "engine.rules.zones"
SECTIONS = tuple(n for n in RULE_NAMES if n not in (PROCEDURE, ZONES))


def _module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, pathlib.Path]:
    out = {"app": ROOT / "app.py"}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            out[_module_name(path)] = path
    return out


SOURCES = _sources()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(module: str, tree: ast.AST) -> set[str]:
    """The project modules `module` imports anywhere in its code, TYPE_CHECKING blocks aside."""
    found: set[str] = set()
    package = module if SOURCES[module].name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in SOURCES else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in SOURCES and m != module}


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for module, path in SOURCES.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in _imported(module, tree):
            graph.add_edge(module, target)
    return graph


GRAPH = _graph()


def test_the_import_walk_sees_imports_inside_functions() -> None:
    # engine/implemented.py imports the rules index inside a function; zones imports no section,
    # but it is imported
    assert ("engine.implemented", "rules_index") in GRAPH.edges
    assert ("engine.rules.s211_hosts", "engine.rules.zones") in GRAPH.edges
    # context names the catalogue only for type checking
    assert ("engine.context", "engine.rules.registry") not in GRAPH.edges


def test_no_import_cycles() -> None:
    cycles = [c for c in nx.simple_cycles(GRAPH)]
    assert not cycles, "циклы импорта: " + "; ".join(" → ".join([*c, c[0]]) for c in cycles[:5])


def _package_edges() -> dict[tuple[str, str], list[str]]:
    """Package → package imports, each with the module imports that make it."""
    out: dict[tuple[str, str], list[str]] = {}
    for source, target in GRAPH.edges:
        pair = (source.split(".")[0], target.split(".")[0])
        if pair[0] != pair[1] and (source, target) not in EXCEPTIONS:
            out.setdefault(pair, []).append(f"{source} → {target}")
    return out


def test_every_package_has_its_allowed_imports_declared() -> None:
    assert set(ALLOWED) == {"app", *PACKAGES}, (
        "впишите пакет в ALLOWED (и строкой в схему README): "
        + ", ".join(sorted({"app", *PACKAGES} ^ set(ALLOWED)))
    )


def test_the_allowed_imports_have_no_cycle() -> None:
    graph = nx.DiGraph([(a, b) for a, targets in ALLOWED.items() for b in targets])
    assert nx.is_directed_acyclic_graph(graph), list(nx.simple_cycles(graph))


def test_packages_import_only_what_they_are_allowed() -> None:
    wrong = [m for (a, b), made in _package_edges().items() if b not in ALLOWED[a] for m in made]
    assert not wrong, "импорт вне схемы (ALLOWED): " + "; ".join(wrong)


def test_every_allowed_import_is_made() -> None:
    # An arrow no module makes is a map that lies (the README once drew cardbase → desk).
    made = _package_edges()
    idle = [f"{a} → {b}" for a, targets in ALLOWED.items() for b in targets if (a, b) not in made]
    assert not idle, "в схеме, но никто так не импортирует (уберите из ALLOWED и README): " + ", ".join(idle)
    assert set(GRAPH.edges) >= EXCEPTIONS, EXCEPTIONS - set(GRAPH.edges)


def test_outside_the_engine_only_its_public_names_are_imported() -> None:
    # engine/__init__.py is the surface; a name others need is exported there, not reached for.
    reached = [f"{s} → {t}" for s, t in GRAPH.edges if t.startswith("engine.") and not s.startswith("engine")]
    assert not reached, reached


def test_the_model_knows_no_rules_and_sections_import_backwards() -> None:
    for source, target in GRAPH.edges:
        if source.startswith("engine.model"):
            assert (
                target.startswith("engine.model")
                or target in ("engine.errors",)
                or not target.startswith("engine")
            ), (source, target)
        if source in SECTIONS and target in SECTIONS:
            assert SECTIONS.index(target) < SECTIONS.index(source), (source, target)
        if source in _machinery():
            assert target not in RULE_NAMES, (source, target)
    # the shared zone code dispatches hooks and imports no section; nothing imports the procedure
    assert not [t for t in GRAPH.successors(ZONES) if t in (*SECTIONS, PROCEDURE)]
    assert [s for s in GRAPH.predecessors(PROCEDURE) if s.startswith("engine.rules")] == ["engine.rules"]


def _name(node: ast.expr) -> str:
    """`rule` for both `@rule(…)` and `@registry.rule(…)`."""
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _machinery() -> list[str]:
    return [m for m in SOURCES if m.startswith("engine.rules.") and m not in RULE_NAMES]


def test_every_module_that_declares_rules_is_in_rule_modules() -> None:
    # A module with @rule, @action or @hook left out of RULE_MODULES would never be registered.
    assert {PROCEDURE, ZONES} <= set(RULE_NAMES) and len(SECTIONS) == len(RULE_NAMES) - 2
    for module in _machinery():
        tree = ast.parse(SOURCES[module].read_text(encoding="utf-8"))
        marks = {
            _name(d.func if isinstance(d, ast.Call) else d)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            for d in node.decorator_list
        }
        assert not marks & {"rule", "action", "hook"}, (
            f"{module} объявляет правила, но его нет в RULE_MODULES"
        )


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_no_module_over_the_size_limit(module: str) -> None:
    path = SOURCES[module]
    rel = str(path.relative_to(ROOT))
    lines = len(path.read_text(encoding="utf-8").splitlines())
    if rel in OVER_LIMIT:
        assert lines > MAX_LINES, f"{rel} fits now ({lines} lines): remove it from OVER_LIMIT"
        return
    assert lines <= MAX_LINES, f"{rel}: {lines} lines (limit {MAX_LINES})"


def test_streamlit_stays_in_the_pages() -> None:
    for source, path in SOURCES.items():
        if source.split(".")[0] in ("app_pages", "app"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not any(n.split(".")[0] == "streamlit" for n in names), source


# -- @rule declarations: tests/test_engine_citations.py reads them (constants, tuples, f-strings)


def test_every_action_kind_is_declared_once_with_its_handler() -> None:
    from engine.rules import CATALOGUE

    assert set(CATALOGUE.handlers) == set(engine.ACTION_SPECS) - {"choose"}
    for kind, spec in engine.ACTION_SPECS.items():
        for name in spec.choice:
            arg = spec.arg(name)
            assert arg is not None and arg.pool, (kind, name)


def test_no_test_module_imports_another() -> None:
    # A test module is run, not imported: what tests share lives in modules meant for it
    # (tests/helpers.py, apptest.py, the *_cases.py and *_samples.py modules, conftest.py).
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [f"{node.module or ''}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                if any(part.startswith("test_") for part in name.split(".")):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert not wrong, wrong


# -- the README's map is the code's ------------------------------------------------------------
# «For developers» → «Layout» holds the diagram (a ```text block, one line per package:
# «casebook → rulings, engine, lexicon, rules_index  # comment»; a module on the left is one of
# EXCEPTIONS) and a table with one row per package folder, naming every module of the folder;
# «What is kept per process» names every cached function as `module.function`.

_PATHLIKE = re.compile(r"^[\w./-]+(?:/|\.(?:py|yaml|md|json|txt|toml|sh))$")
_CACHES = {"cache", "lru_cache", "cache_resource", "cache_data"}


def _section(title: str) -> str:
    """The text under `### title` of the README's developer section, up to the next heading."""
    text = README.read_text(encoding="utf-8")
    developers = text[text.index("\n## For developers") :]
    match = re.search(rf"\n### {re.escape(title)}\n(.*?)(?=\n##)", developers + "\n##", re.S)
    assert match, f"в README нет раздела «### {title}» в «For developers»"
    return match.group(1)


def _diagram() -> list[tuple[str, tuple[str, ...]]]:
    block = re.search(r"```text\n(.*?)```", _section("Layout"), re.S)
    assert block, "в «Layout» нет схемы (блок ```text)"
    lines = []
    for raw in block.group(1).splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            left, _, right = line.partition("→")
            lines.append((left.strip(), tuple(t.strip() for t in right.split(",") if t.strip())))
    return lines


def _table() -> dict[str, str]:
    """The Layout table: the path of each row (`engine/rules/`, `app.py`) → what the row says."""
    rows = {}
    for line in _section("Layout").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.fullmatch(r"`[^`]+`", cells[0]):
            rows[cells[0].strip("`")] = cells[1]
    return rows


def _folders() -> list[str]:
    """Every folder of our packages that is a package itself, as `rules_index/search/`."""
    return sorted(
        str(p.parent.relative_to(ROOT)) + "/" for pkg in PACKAGES for p in (ROOT / pkg).rglob("__init__.py")
    )


def test_the_readme_diagram_draws_exactly_the_allowed_imports() -> None:
    lines = _diagram()
    packages = [left for left, _ in lines if "." not in left]
    assert sorted(packages) == sorted(ALLOWED), "одна строка на пакет: " + str(sorted(packages))
    drawn = {(left, t) for left, targets in lines if "." not in left for t in targets}
    allowed = {(a, b) for a, targets in ALLOWED.items() for b in targets}
    assert drawn == allowed, f"лишние в README: {sorted(drawn - allowed)}; нет: {sorted(allowed - drawn)}"
    exceptions = {(left, t) for left, targets in lines if "." in left for t in targets}
    assert exceptions == EXCEPTIONS, exceptions ^ EXCEPTIONS


def test_every_path_the_readme_table_names_exists() -> None:
    missing = []
    for row, what in _table().items():
        if not (ROOT / row).exists():
            missing.append(row)
        folder = ROOT / row if row.endswith("/") else ROOT
        for token in re.findall(r"`([^`\s]+)`", what):
            if _PATHLIKE.match(token) and not ((folder / token).exists() or (ROOT / token).exists()):
                missing.append(f"{row}: {token}")
    assert not missing, "README называет то, чего нет: " + ", ".join(missing)


def test_every_package_and_module_has_its_place_in_the_readme_table() -> None:
    # The level of detail: every package folder has a row, and its row names each of its modules.
    table = _table()
    assert "app.py" in table
    unnamed = [folder for folder in _folders() if folder not in table]
    for folder in _folders():
        named = set(re.findall(r"`([^`\s]+)`", table.get(folder, "")))
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name != "__init__.py" and path.name not in named:
                unnamed.append(f"{folder}{path.name}")
    assert not unnamed, "в таблице README нет: " + ", ".join(unnamed)


def _cached_functions() -> set[str]:
    out = set()
    for module, path in SOURCES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                _name(d.func if isinstance(d, ast.Call) else d) in _CACHES for d in node.decorator_list
            ):
                out.add(f"{module}.{node.name}")
    return out


def test_the_readme_names_every_cache_kept_per_process() -> None:
    found = re.findall(r"`([\w.]+\.\w+)`", _section("What is kept per process"))
    named = {name for name in found if name.split(".")[0] in ALLOWED}
    cached = _cached_functions()
    assert named == cached, f"нет в README: {sorted(cached - named)}; не кэш: {sorted(named - cached)}"
