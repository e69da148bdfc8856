"""The scenario library: which files there are, their questions, and (once run) what they decide.

`scenarios/official/` holds the rules' own examples (ПРИМЕР blocks), `scenarios/rulings/` the judges'
disputes. `library_scenarios()` lists both, official first: the desk offers them to open, the ready
answers on the search page rank them, the clause page lists those in which a clause fires.
Listing reads each file's YAML for its title, source and answer; with `run=True` every file is also
validated and run through the engine, and its entry holds the verdicts and clauses of its steps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import engine
from casebook.loader import load_scenario
from casebook.model import CardSource
from casebook.nodes import ScenarioError, YMap, YScalar, read_file, read_yaml
from casebook.runner import run_scenario
from rules_index import ids

if TYPE_CHECKING:
    from casebook.model import ScenarioResult
    from rules_index import RulesIndex

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "scenarios"
# The library's folders in the order they are offered, with how a judge calls each.
GROUPS = (("official", "официальный пример"), ("rulings", "разбор"))
# The trace steps that decide a step (a check that merely passed, or a skipped rule, does not).
DECISIVE_KINDS = ("forbidden", "undetermined", "conflict", "effect", "allowed")


@dataclasses.dataclass(frozen=True)
class Entry:
    """One scenario of the library. `path` is relative to the project («scenarios/official/….yaml»)."""

    path: str
    group: str  # the folder: "official" | "rulings"
    group_label: str  # «официальный пример», «разбор»
    title: str
    source: str = ""
    answer: str = ""  # the judge's answer to the question, in words
    rules: str = ""  # the rules version the file was written for («РП 4.1-2»), as its `rules:` says
    card_base: bool = False  # the file takes its cards from a base (`card_base:`), not the library
    error: str = ""  # why the file cannot be used ("" when it can)
    ran: bool = False  # the fields below are filled (library_scenarios(run=True))
    ok: bool = False  # every expectation held
    verdicts: tuple[str, ...] = ()  # per step; "" for a step the engine could not run
    clauses: tuple[str, ...] = ()  # rule clauses that decided a step, in order of first appearance
    fired: frozenset[str] = frozenset()  # every clause or assumption in any step's trace
    # What each step asks: its action and the file's note on it; and the cards' names by id, so
    # that the question can be said with names («атакующий — Вайл», not «vail»).
    actions: tuple[engine.Action, ...] = ()
    notes: tuple[str, ...] = ()
    card_names: tuple[tuple[str, str], ...] = ()


def scenario_files(folder: Path) -> list[Path]:
    """Every scenario file under a folder, in a stable order."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def library_scenarios(
    root: Path = ROOT,
    *,
    run: bool = False,
    index: RulesIndex | None = None,
    library: engine.CardLibrary | None = None,
    cards: CardSource | None = None,
) -> tuple[Entry, ...]:
    """The scenarios under `root`/scenarios/official and …/rulings, official first, by file name.

    Without `run`, each entry holds what the file says (a file whose YAML is broken is listed with
    its `error` and its file name as title). With `run`, each file is loaded, validated against
    `index` and `library` and run, and its entry holds its verdicts and clauses (or its `error`);
    a file that takes its cards from a base (`card_base`) runs only when `cards` opens bases
    (cardbase.sources.scenario_cards), and keeps its error otherwise.
    """
    if run and index is None:
        import rules_index

        index = rules_index.load_default()
    if run and library is None:
        library = engine.load_library()
    out = []
    for folder, label in GROUPS:
        for path in sorted((root / "scenarios" / folder).glob("*.y*ml")):
            rel = path.relative_to(root).as_posix()
            entry = Entry(path=rel, group=folder, group_label=label, title=path.stem)
            out.append(_ran(entry, path, index, library, cards) if run else _read(entry, path))
    return tuple(out)


def _read(entry: Entry, path: Path) -> Entry:
    """The entry with what the file's YAML says (no validation)."""
    try:
        root = read_yaml(read_file(path), entry.path)
    except ScenarioError as exc:
        return dataclasses.replace(entry, error=str(exc))
    if not isinstance(root, YMap):
        problem = "сценарий — это словарь с ключами title, setup, steps"
        return dataclasses.replace(entry, error=f"{entry.path}: {problem}")

    def text(key: str) -> str:
        node = root.get(key)
        return node.value if isinstance(node, YScalar) and isinstance(node.value, str) else ""

    return dataclasses.replace(
        entry,
        title=text("title") or entry.title,
        source=text("source"),
        answer=text("answer"),
        rules=text("rules"),
        card_base=root.get("card_base") is not None,
    )


def _ran(
    entry: Entry,
    path: Path,
    index: RulesIndex | None,
    library: engine.CardLibrary | None,
    cards: CardSource | None = None,
) -> Entry:
    """The entry of a file validated and run; a file that does not load keeps its error."""
    try:
        sc = load_scenario(path, index=index, library=library, cards=cards)
    except ScenarioError as exc:
        return dataclasses.replace(entry, error=str(exc))
    result = run_scenario(sc, index, library)
    return dataclasses.replace(
        entry,
        title=sc.title,
        source=sc.source or "",
        answer=sc.answer or "",
        rules=sc.rules or "",
        ran=True,
        ok=result.ok,
        verdicts=tuple(step.verdict or "" for step in result.steps),
        clauses=decisive_clauses(result),
        fired=frozenset(result.fired_clauses()),
        actions=tuple(step.action for step in sc.steps),
        notes=tuple(step.note or "" for step in sc.steps),
        card_names=tuple((spec.id, _card_name(spec.card)) for spec in sc.setup.cards),
    )


def _card_name(card: object) -> str:
    """A setup card's name: a library name as written, or a template card's own name."""
    if isinstance(card, str):
        return card
    if isinstance(card, Mapping):
        return str(card.get("name") or card.get("template") or "")
    return ""


def decisive_clauses(result: ScenarioResult) -> tuple[str, ...]:
    """The rule clauses (not assumptions) that decided the steps of a run, in order of first appearance."""
    found: dict[str, None] = {}
    for step in result.steps:
        for t in step.trace_steps():
            if t.kind in DECISIVE_KINDS and ids.is_clause_id(t.clause):
                found.setdefault(t.clause, None)
    return tuple(found)
