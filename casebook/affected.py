"""Scenarios under another rules version: which rest on clauses that changed, and how they read now.

The library's scenarios, like the engine, speak РП 4.1-2 (the embedded rules): their clause ids
and the engine's traces are that version's numbering. Given the diff from the embedded rules to
another version:

- `affected_scenarios(diff, entries)`: every library scenario that cites (in its decisive steps or
  anywhere in its traces) a clause that changed, moved, split or went away, with its fates and the
  citations to use now (rules_index.fates);
- `check_under(files, corpus, …)`: `python -m engine check --corpus NEW`: the library run by the
  engine, each affected scenario reported with its clauses in NEW's numbering («п. 211.7 (в РП 4.1-2
  — 211.6)») and a warning where the engine applies a text that changed; then the engine handlers
  written for a text that is no longer NEW's.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TextIO

import engine
import lexicon
from casebook.catalogue import decisive_clauses
from casebook.loader import load_scenario
from casebook.model import CardSource, ScenarioResult
from casebook.nodes import ScenarioError
from casebook.runner import run_scenario
from engine import ClauseStatus, VersionView
from rules_index import CorpusError, load_default, load_paths
from rules_index.diff import RulesDiff, diff_indexes, kind_word
from rules_index.fates import Fate, fates

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2


@dataclasses.dataclass(frozen=True)
class AffectedScenario:
    """A scenario of the library that cites clauses the newer version changed."""

    path: str
    title: str
    fates: tuple[Fate, ...]

    @property
    def text_changed(self) -> bool:
        return any(f.text_changed for f in self.fates)

    def to_dict(self) -> dict[str, object]:
        return {"path": self.path, "title": self.title, "fates": [f.to_dict() for f in self.fates]}


class Cites(Protocol):
    """A library scenario once run: a catalogue `Entry`, or the desk's digest of one."""

    @property
    def path(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def clauses(self) -> tuple[str, ...]: ...

    @property
    def fired(self) -> frozenset[str]: ...


def affected_scenarios(diff: RulesDiff, entries: Sequence[Cites]) -> list[AffectedScenario]:
    """Scenarios run (`library_scenarios(run=True)` entries, or digests of them) whose clauses the
    diff touches: the clauses that decided a step, then every clause in their traces."""
    out = []
    for e in entries:
        cited = [*e.clauses, *sorted(e.fired)]
        found = fates(diff, cited)
        if found:
            out.append(AffectedScenario(e.path, e.title, tuple(found)))
    return out


# python -m engine check --corpus NEW ------------------------------------------------------------


def _status_line(view: VersionView, status: ClauseStatus) -> str:
    line = f"{view.cite(status.clause)} — {kind_word(status.kind)}"
    warning = view.warning(status.clause)
    return f"(!) {line}; {warning}" if warning else line


def _rests_on(result: ScenarioResult) -> list[str]:
    return [*decisive_clauses(result), *sorted(result.fired_clauses())]


def check_under(
    files: Sequence[Path], corpus: str, as_json: bool, out: TextIO, cards: CardSource | None = None
) -> int:
    """Run the scenarios (in the engine's numbering) and report them under the rules `corpus`."""
    try:
        loaded = load_paths([corpus])
    except CorpusError as exc:
        print(f"Ошибка: правила для --corpus не загружены: {exc}", file=sys.stderr)
        return EXIT_INVALID
    embedded = load_default()
    diff = diff_indexes(embedded, loaded)
    view = VersionView(diff, loaded)
    library = engine.load_library()
    code = EXIT_OK
    report: list[dict[str, object]] = []
    lines = [
        f"Сценарии под правилами «{diff.new.version or diff.new.name}»; движок и сценарии написаны "
        f"для «{diff.old.version or diff.old.name}».",
    ]
    counts = {"scenarios": 0, "affected": 0, "text": 0, "invalid": 0}
    for path in files:
        counts["scenarios"] += 1
        try:
            scenario = load_scenario(path, index=embedded, library=library, cards=cards)
        except ScenarioError as exc:
            counts["invalid"] += 1
            code = EXIT_INVALID
            report.append({"file": str(path), "error": str(exc)})
            lines.append(f"\n== {path}\nОШИБКА В ФАЙЛЕ СЦЕНАРИЯ: {exc}")
            continue
        result = run_scenario(scenario, embedded, library)
        if not result.ok and code == EXIT_OK:
            code = EXIT_FAILED
        statuses = view.statuses(_rests_on(result))
        report.append(
            {
                "file": str(path),
                "title": scenario.title,
                "ok": result.ok,
                "rests_on": [
                    {**s.to_dict(), "citation": view.cite(s.clause), "warning": view.warning(s.clause)}
                    for s in statuses
                ],
            }
        )
        if not statuses:
            continue
        counts["affected"] += 1
        text = any(s.text_changed for s in statuses)
        counts["text"] += int(text)
        mark = "ожидания выполнены" if result.ok else "НЕ ВЫПОЛНЕНО"
        lines.append(f"\n== {path} ({mark})\nВопрос: {scenario.title}")
        lines.extend("  " + _status_line(view, s) for s in statuses)
        if text:
            for step in result.steps:
                lines.append(f"  Шаг {step.number}: {lexicon.verdict(step.verdict) if step.verdict else '—'}")
                lines.extend(
                    "    " + ln
                    for ln in engine.render_trace(step.trace, cite=view.cite, note=view.warning).splitlines()
                )
    flagged = view.flagged_handlers()
    if as_json:
        data = {
            "old": diff.old.to_dict(),
            "new": diff.new.to_dict(),
            "scenarios": report,
            "handlers": {h: [s.to_dict() for s in ss] for h, ss in flagged.items()},
        }
        print(json.dumps(data, ensure_ascii=False, indent=2), file=out)
        return code
    lines.append("")
    lines.append(
        f"Итого сценариев: {counts['scenarios']}; опираются на изменённые или перенумерованные пункты: "
        f"{counts['affected']}, из них на пункты с изменённым текстом: {counts['text']}; "
        f"с ошибкой в файле: {counts['invalid']}"
    )
    if flagged:
        lines.append(f"Обработчики движка, написанные для текста {diff.old.name}, который изменился:")
        for handler, statuses in flagged.items():
            lines.append(f"  {handler}: " + ", ".join(view.cite(s.clause) for s in statuses))
    else:
        lines.append("Текст всех пунктов, которые применяет движок, не изменился.")
    print("\n".join(lines), file=out)
    return code
