"""The rules text the engine implements, and what becomes of it under another rules version.

Every rule handler declares its clause ids with `@rule` (engine/rules/registry.py). Those ids, and
the text behind them, belong to the version the engine was written for: РП 4.1-2, the embedded
rules. engine/data/implemented.yaml records, per handler, a checksum of each declared clause's
text there (text, bullets and examples; whitespace aside; `rules_index.wordiff.Content`).
`python -m engine implemented --write` regenerates it; tests/test_engine_implemented.py fails when
a handler's declared clauses, or the embedded text of one, change without the file.

Under another version, `VersionView` (built from the diff of the embedded rules to that version)
names each cited clause in the loaded version's numbering («п. 211.7 (в РП 4.1-2 — 211.6)») and
flags a clause whose text is no longer the one the engine implements («пункт изменился: движок
применяет текст РП 4.1-2»).
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import types
from collections.abc import Iterable, Mapping
from typing import TextIO

import lexicon
from engine import errors
from engine.rules import CATALOGUE
from rules_index import RulesIndex, ids, yamlread
from rules_index.diff import CITATION_CHANGED, TEXT_CHANGED, RulesDiff
from rules_index.wordiff import checksum

IMPLEMENTED_FILE = pathlib.Path(__file__).parent / "data" / "implemented.yaml"
# A declared clause the embedded text does not hold (cited there, absent): nothing to checksum.
ABSENT = "нет в тексте"

_HEADER = """\
# The rules text each engine handler implements: per handler (module.function), the clauses it
# declares with @rule and a checksum of each clause's text in the version below (text, bullets and
# examples, whitespace aside: SHA-256, first 16 hex digits). Generated from the embedded rules by
#   python -m engine implemented --write
# Do not edit by hand; tests/test_engine_implemented.py fails when this file is out of date.
"""


@dataclasses.dataclass(frozen=True)
class Record:
    """What engine/data/implemented.yaml says: the version, and handler → clause → checksum."""

    version: str
    handlers: Mapping[str, Mapping[str, str]]

    def clauses(self) -> dict[str, str]:
        """Every declared clause → its checksum (the same whichever handler declares it)."""
        return {cid: digest for table in self.handlers.values() for cid, digest in table.items()}

    def to_dict(self) -> dict[str, object]:
        return {"version": self.version, "handlers": {h: dict(t) for h, t in self.handlers.items()}}


def declared() -> dict[str, tuple[str, ...]]:
    """Handler (module.function) → the clause ids it declares (assumptions aside), in id order."""
    out: dict[str, list[str]] = {}
    for cid, handlers in CATALOGUE.citations.items():
        if ids.is_clause_id(cid):
            for handler in handlers:
                out.setdefault(handler, []).append(cid)
    return {h: tuple(sorted(set(c), key=ids.sort_key)) for h, c in sorted(out.items())}


def build_record(index: RulesIndex) -> Record:
    """The record for the handlers as declared now, over the rules `index` (the embedded ones)."""
    handlers: dict[str, Mapping[str, str]] = {}
    for handler, clauses in declared().items():
        table = {}
        for cid in clauses:
            para = index.get(cid)
            table[cid] = checksum(para) if para is not None else ABSENT
        handlers[handler] = types.MappingProxyType(table)
    return Record(index.version or "", types.MappingProxyType(handlers))


def dump_record(record: Record) -> str:
    """The YAML text of a record; clause ids and checksums quoted (a clause id is a string)."""
    lines = [_HEADER.rstrip("\n"), f"version: '{record.version}'", "handlers:"]
    for handler, table in record.handlers.items():
        lines.append(f"  {handler}:")
        lines.extend(f"    '{cid}': '{digest}'" for cid, digest in table.items())
    return "\n".join(lines) + "\n"


def load_record(path: str | pathlib.Path | None = None) -> Record:
    """Read implemented.yaml; raises LibraryError naming the file."""
    file = pathlib.Path(path) if path else IMPLEMENTED_FILE
    try:
        raw = yamlread.load_file(file)
    except yamlread.YamlError as exc:
        raise errors.LibraryError(f"{file.name}: не удалось прочитать: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("handlers"), dict):
        raise errors.LibraryError(f"{file.name}: ожидались ключи version и handlers")
    handlers: dict[str, Mapping[str, str]] = {}
    for handler, table in raw["handlers"].items():
        if not isinstance(table, dict):
            raise errors.LibraryError(f"{file.name}, {handler}: ожидался словарь «пункт: контрольная сумма»")
        for cid in table:
            if not ids.is_clause_id(str(cid)):
                raise errors.LibraryError(f"{file.name}, {handler}: «{cid}» — не номер пункта")
        handlers[str(handler)] = types.MappingProxyType({str(k): str(v) for k, v in table.items()})
    return Record(str(raw.get("version", "")), types.MappingProxyType(handlers))


@functools.cache
def record() -> Record:
    """The shipped record, read once per process (read-only)."""
    return load_record()


def stale(current: Record, shipped: Record) -> list[str]:
    """What differs between the record built now and the shipped one, in Russian (empty: none)."""
    out: list[str] = []
    if current.version != shipped.version:
        out.append(f"версия правил: в файле «{shipped.version}», встроены «{current.version}»")
    for handler in sorted(set(current.handlers) | set(shipped.handlers)):
        now, was = current.handlers.get(handler), shipped.handlers.get(handler)
        if was is None:
            out.append(f"{handler}: обработчика нет в файле")
        elif now is None:
            out.append(f"{handler}: в файле есть, а в движке такого обработчика с @rule нет")
        elif dict(now) != dict(was):
            added = sorted(set(now) - set(was), key=ids.sort_key)
            dropped = sorted(set(was) - set(now), key=ids.sort_key)
            texts = sorted((c for c in set(now) & set(was) if now[c] != was[c]), key=ids.sort_key)
            bits = [f"объявлены новые пункты {', '.join(added)}"] if added else []
            bits += [f"больше не объявлены {', '.join(dropped)}"] if dropped else []
            bits += [f"изменился текст {', '.join(texts)}"] if texts else []
            out.append(f"{handler}: " + "; ".join(bits))
    return out


def command(out: TextIO, err: TextIO, *, write: bool = False) -> int:
    """`python -m engine implemented [--write]`: check (or regenerate) engine/data/implemented.yaml."""
    from rules_index import load_default

    current = build_record(load_default())
    if write:
        IMPLEMENTED_FILE.write_text(dump_record(current), encoding="utf-8")
        print(
            f"Записан {IMPLEMENTED_FILE.name}: обработчиков {len(current.handlers)}, "
            f"пунктов {len(current.clauses())}, версия {current.version}.",
            file=out,
        )
        return 0
    try:
        shipped = load_record()
    except errors.LibraryError as exc:
        print(f"Ошибка: {exc}", file=err)
        return 1
    problems = stale(current, shipped)
    if problems:
        print(f"{IMPLEMENTED_FILE.name} устарел (обновите: python -m engine implemented --write):", file=out)
        for line in problems:
            print(f"  {line}", file=out)
        return 1
    print(
        f"{IMPLEMENTED_FILE.name} соответствует обработчикам и встроенным правилам ({current.version}).",
        file=out,
    )
    return 0


# Under another version --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ClauseStatus:
    """One clause the engine cites (its РП 4.1-2 id), as the loaded version has it."""

    clause: str
    now: tuple[str, ...]  # its ids in the loaded version (empty: removed)
    kind: str  # the diff's kind for it («same», «renumbered», «edited», …)
    text_changed: bool  # the loaded text is not the text the engine implements

    @property
    def moved(self) -> bool:
        return self.now != (self.clause,)

    def to_dict(self) -> dict[str, object]:
        return {
            "clause": self.clause,
            "now": list(self.now),
            "kind": self.kind,
            "text_changed": self.text_changed,
        }


class VersionView:
    """How the engine's citations read under the rules `loaded`, given `diff` (embedded → loaded).

    Read-only after construction (shareable); statuses are computed on demand.
    """

    def __init__(self, diff: RulesDiff, loaded: RulesIndex, implemented: Record | None = None) -> None:
        self.diff = diff
        self.loaded = loaded
        self.record = implemented if implemented is not None else record()
        self._sums = types.MappingProxyType(self.record.clauses())
        self.written_for = diff.old.name
        self.loaded_name = diff.new.name

    @property
    def same_rules(self) -> bool:
        return self.diff.identical

    def status(self, cid: str) -> ClauseStatus | None:
        """None for an assumption or an id the engine's rules do not hold."""
        if not ids.is_clause_id(cid):
            return None
        change = self.diff.of_old(cid)
        if change is None:
            return None
        now = change.new
        changed = change.kind in TEXT_CHANGED
        if changed and len(now) == 1 and change.kind != "merged":
            # The loaded text may still be the one recorded (the diff compares it with the
            # embedded text; the record is what the engine was checked against).
            para = self.loaded.get(now[0])
            recorded = self._sums.get(cid)
            if para is not None and recorded not in (None, ABSENT) and checksum(para) == recorded:
                changed = False
        return ClauseStatus(cid, now, change.kind, changed)

    def cite(self, cid: str) -> str:
        """«п. 211.7 (в РП 4.1-2 — 211.6)», «п. 211.6» when nothing moved, an assumption as is."""
        status = self.status(cid)
        if status is None or not status.moved:
            return lexicon.cite(cid)
        if not status.now:
            return f"{lexicon.cite(cid)} {self.written_for} (в {self.loaded_name} этого пункта нет)"
        now = ", ".join(lexicon.cite(n) for n in status.now)
        return f"{now} (в {self.written_for} — {cid})"

    def warning(self, cid: str) -> str | None:
        """«пункт изменился: движок применяет текст РП 4.1-2» for a clause whose text changed."""
        status = self.status(cid)
        if status is None or not status.text_changed:
            return None
        if not status.now:
            return f"пункта нет в {self.loaded_name}: движок применяет текст {self.written_for}"
        return f"пункт изменился: движок применяет текст {self.written_for}"

    def statuses(self, cids: Iterable[str]) -> list[ClauseStatus]:
        """The statuses of the clauses among `cids` that moved or changed, in the order given."""
        out = []
        for cid in dict.fromkeys(cids):
            status = self.status(cid)
            if status is not None and (
                status.moved or status.text_changed or status.kind in CITATION_CHANGED
            ):
                out.append(status)
        return out

    def flagged_handlers(self) -> dict[str, list[ClauseStatus]]:
        """Handler → its declared clauses whose text changed in the loaded version."""
        out: dict[str, list[ClauseStatus]] = {}
        for handler, table in self.record.handlers.items():
            changed = [s for cid in table if (s := self.status(cid)) is not None and s.text_changed]
            if changed:
                out[handler] = changed
        return out


__all__ = [
    "ABSENT",
    "IMPLEMENTED_FILE",
    "ClauseStatus",
    "Record",
    "VersionView",
    "build_record",
    "command",
    "declared",
    "dump_record",
    "load_record",
    "record",
    "stale",
]
