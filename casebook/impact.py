"""What a rules diff touches: the journal's rulings and the library's scenarios that cite a clause
that changed, moved, split or went away, each with the citation to use now. Read-only: nothing
here writes a ruling or a scenario.

Shared by the «Что изменилось» page (app_pages.changes) and `python -m engine affected OLD NEW
[--json] [--journal ФАЙЛ]`. Rulings are checked when they were written for the diff's old version
(or name none: rulings.affected); the library's scenarios speak the engine's numbering (the
built-in rules, РП 4.1-2), so they are checked only when the old side is that version.

Exit codes of the command: 0 the lists were printed (affected items or not); 2 a wrong command
line, rules that do not load, or a journal that cannot be read (the scenarios are still listed).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO, TypeVar

import engine
from casebook.affected import EXIT_INVALID, EXIT_OK, AffectedScenario, Cites, affected_scenarios
from casebook.catalogue import library_scenarios
from casebook.model import CardSource
from rules_index import CorpusError, RulesIndex, ids, load_default
from rules_index.diff import RulesDiff, Side, diff_indexes
from rules_index.diff_cli import load_side
from rules_index.fates import Fate, fate_line
from rulings.affected import AffectedRuling, affected_rulings, written_for
from rulings.model import JournalError, Ruling
from rulings.store import Journal


@dataclasses.dataclass(frozen=True)
class Impact:
    """The rulings and scenarios a diff touches, with how many there are in all."""

    old: Side
    new: Side
    rulings: tuple[AffectedRuling, ...]
    rulings_total: int
    scenarios: tuple[AffectedScenario, ...]
    scenarios_total: int
    library_version: str  # the version the library's scenarios are written for («РП 4.1-2»)
    scenarios_checked: bool  # the diff's old side is that version
    journal_problem: str = ""  # why the journal was not read ("" when it was)

    def lines(self, fate_list: Sequence[Fate]) -> list[str]:
        """The suggestion lines of one item: «535.2 → 535.3 — перенумерован» …"""
        return [fate_line(f, self.new.name) for f in fate_list]

    def counts_line(self) -> str:
        """«Решений в журнале: 3 из 17; сценариев: 12 из 94»."""
        rulings = (
            "журнал не прочитан" if self.journal_problem else f"{len(self.rulings)} из {self.rulings_total}"
        )
        scenarios = (
            f"{len(self.scenarios)} из {self.scenarios_total}"
            if self.scenarios_checked
            else f"не проверялись (библиотека написана для {self.library_version})"
        )
        return f"Решений в журнале: {rulings}; сценариев: {scenarios}"

    def rulings_empty_text(self) -> str:
        if self.journal_problem:
            return f"Журнал решений не прочитан: {self.journal_problem}"
        if not self.rulings_total:
            return "В журнале пока нет решений."
        return f"Ни одно решение журнала не ссылается на пункты, которые изменились в {self.new.name}."

    def scenarios_empty_text(self) -> str:
        if not self.scenarios_checked:
            return (
                f"Сценарии библиотеки ссылаются на пункты {self.library_version}; чтобы увидеть, "
                f"какие из них затронуты, сравните с «Было» = {self.library_version}."
            )
        return f"Ни один сценарий библиотеки не опирается на пункты, которые изменились в {self.new.name}."

    def to_dict(self) -> dict[str, object]:
        def fates(found: Sequence[Fate]) -> list[dict[str, object]]:
            return [{**f.to_dict(), "line": fate_line(f, self.new.name)} for f in found]

        return {
            "old": self.old.to_dict(),
            "new": self.new.to_dict(),
            "counts": {
                "rulings": len(self.rulings),
                "rulings_total": self.rulings_total,
                "scenarios": len(self.scenarios),
                "scenarios_total": self.scenarios_total,
            },
            "journal_problem": self.journal_problem,
            "rulings": [{**r.to_dict(), "fates": fates(r.fates)} for r in self.rulings],
            "library_version": self.library_version,
            "scenarios_checked": self.scenarios_checked,
            "scenarios": [{**s.to_dict(), "fates": fates(s.fates)} for s in self.scenarios],
        }


def library_label(builtin: RulesIndex) -> str:
    """The version the library's scenarios and the engine cite: the built-in rules' («РП 4.1-2»)."""
    return builtin.version_label or builtin.version or "встроенные правила"


def _in_order(found: Sequence[Fate]) -> tuple[Fate, ...]:
    return tuple(sorted(found, key=lambda f: ids.sort_key(f.old)))


_Item = TypeVar("_Item", AffectedRuling, AffectedScenario)


def text_changed(item: AffectedRuling | AffectedScenario) -> bool:
    """Whether a cited clause's text changed (or went away): worth re-reading, not only renumbering."""
    return any(f.text_changed for f in item.fates)


def _text_first(items: Sequence[_Item]) -> list[_Item]:
    """Items citing a clause whose text changed first (they need reading), then the renumbered ones;
    otherwise in the order given (the journal's newest first, the library's by file)."""
    return sorted(items, key=lambda item: not text_changed(item))


def impact(
    diff: RulesDiff,
    rulings: Sequence[Ruling],
    scenarios: Sequence[Cites],
    library_version: str,
    journal_problem: str = "",
) -> Impact:
    """The rulings and the scenarios (run, in the engine's numbering) the diff touches."""
    checked = bool(written_for(library_version, diff.old))
    found_rulings = [
        dataclasses.replace(r, fates=_in_order(r.fates)) for r in affected_rulings(rulings, diff)
    ]
    found_scenarios = [
        dataclasses.replace(s, fates=_in_order(s.fates))
        for s in (affected_scenarios(diff, scenarios) if checked else [])
    ]
    return Impact(
        old=diff.old,
        new=diff.new,
        rulings=tuple(_text_first(found_rulings)),
        rulings_total=len(rulings),
        scenarios=tuple(_text_first(found_scenarios)),
        scenarios_total=len(scenarios),
        library_version=library_version,
        scenarios_checked=checked,
        journal_problem=journal_problem,
    )


# python -m engine affected OLD NEW ---------------------------------------------------------------


def render_text(found: Impact) -> str:
    out = [f"Что затрагивают изменения {found.old.name} → {found.new.name}", found.counts_line(), ""]
    out.append("Решения журнала:")
    for r in found.rulings:
        written = f"записано по {r.rules_version}" if r.rules_version else "версия правил не указана"
        out.append(f"  № {r.ruling_id} «{r.title}» ({written})")
        out.extend("    " + line for line in found.lines(r.fates))
    if not found.rulings:
        out.append("  " + found.rulings_empty_text())
    out.append("")
    out.append("Сценарии библиотеки:")
    for s in found.scenarios:
        out.append(f"  {s.path} «{s.title}»")
        out.extend("    " + line for line in found.lines(s.fates))
    if not found.scenarios:
        out.append("  " + found.scenarios_empty_text())
    return "\n".join(out) + "\n"


def command(
    old_spec: str,
    new_spec: str,
    journal: Path | None,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    cards: CardSource | None = None,
) -> int:
    """`python -m engine affected OLD NEW`: OLD and NEW each a file, a folder or `builtin`.
    `cards` opens the bases of the library's real-card scenarios (else they are left out)."""
    try:
        old = load_side(old_spec)
        new = load_side(new_spec)
    except CorpusError as exc:
        print(f"Ошибка: правила не загружены: {exc}", file=err)
        return EXIT_INVALID
    diff = diff_indexes(old, new)
    book = Journal(journal) if journal is not None else Journal()
    try:
        rulings = book.rulings()
        problem = ""
    except JournalError as exc:
        rulings, problem = [], str(exc)
    builtin = load_default()
    label = library_label(builtin)
    entries: tuple[Cites, ...] = ()
    if written_for(label, diff.old):
        entries = tuple(
            e
            for e in library_scenarios(run=True, index=builtin, library=engine.load_library(), cards=cards)
            if e.ran
        )
    found = impact(diff, rulings, entries, label, problem)
    if as_json:
        print(json.dumps(found.to_dict(), ensure_ascii=False, indent=2), file=out)
    else:
        out.write(render_text(found))
    if problem:
        print(f"Ошибка: журнал решений не прочитан ({book.path}): {problem}", file=err)
        return EXIT_INVALID
    return EXIT_OK


__all__ = ["Impact", "command", "impact", "render_text", "text_changed"]
