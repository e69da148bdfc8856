"""What a ruling is: the judge's input with its validation, stored revisions, search hits, errors.

Plain values only (frozen dataclasses and read-only tables): the store, the search and the export
all speak these types, and none of them holds a judge's state between calls.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
import types
from collections.abc import Mapping

from rules_index import ids

# Text fields of a revision, in the order the form and the export show them.
TEXT_FIELDS: tuple[str, ...] = (
    "title",
    "decision",
    "outcome",
    "event",
    "table_no",
    "round",
    "players",
    "judge",
    "rules_version",
    "verdict",
    "scenario_yaml",
    "trace_json",
    "note",
)
FIELD_LABELS: Mapping[str, str] = types.MappingProxyType(
    {
        "title": "Вопрос",
        "decision": "Решение судьи",
        "outcome": "Итог",
        "event": "Турнир",
        "table_no": "Стол",
        "round": "Тур",
        "players": "Игроки",
        "judge": "Судья",
        "rules_version": "Версия правил",
        "verdict": "Вердикт движка",
        "clauses": "Пункты правил",
        "scenario_yaml": "Сценарий",
        "trace_json": "Трассировка",
        "note": "Причина правки",
    }
)
MAX_FIELD_CHARS = 200_000  # a whole scenario with its trace fits; a pasted book does not.
# Fields kept exactly as typed: the decision's layout is the judge's, the attachments are files.
_VERBATIM = frozenset({"scenario_yaml", "trace_json", "decision"})


class JournalError(RuntimeError):
    """The journal file cannot be used; `str(e)` is a Russian message naming the file."""


class JournalLockedError(JournalError):
    """Another process held the file longer than the busy timeout; nothing was written."""


class RulingInputError(ValueError):
    """A ruling's fields are unusable (empty question, bad clause id …); Russian message naming the field."""


@dataclasses.dataclass(frozen=True)
class RulingInput:
    """What a judge records (or amends). Every field is plain text; clauses are ids like '211.3.1'."""

    title: str
    decision: str
    clauses: tuple[str, ...] = ()
    outcome: str = ""
    event: str = ""
    table_no: str = ""
    round: str = ""
    players: str = ""
    judge: str = ""
    rules_version: str = ""
    verdict: str = ""
    scenario_yaml: str = ""
    trace_json: str = ""
    note: str = ""

    def validated(self) -> RulingInput:
        """A copy with surrounding blanks trimmed from the short fields and repeated clauses dropped.

        Raises:
            RulingInputError: empty question or decision, an over-long field, a malformed clause id,
                or trace text that is not JSON.
        """
        if not self.title.strip():
            raise RulingInputError("Не заполнен «Вопрос»: опишите, о чём спор.")
        if not self.decision.strip():
            raise RulingInputError("Не заполнено «Решение судьи».")
        for name in TEXT_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, str):
                raise RulingInputError(f"Поле «{FIELD_LABELS[name]}» должно быть текстом.")
            if len(value) > MAX_FIELD_CHARS:
                raise RulingInputError(
                    f"Поле «{FIELD_LABELS[name]}» длиннее {MAX_FIELD_CHARS} символов ({len(value)})."
                )
        clauses: list[str] = []
        for raw in self.clauses:
            cid = str(raw).strip()
            if not cid:
                continue
            if not ids.is_citation_id(cid):
                raise RulingInputError(
                    f"«{cid}» не похоже на номер пункта правил (ожидается вида 211.3.1) или допущения (A1)."
                )
            if cid not in clauses:
                clauses.append(cid)
        if self.trace_json.strip():
            try:
                json.loads(self.trace_json)
            except json.JSONDecodeError as exc:
                raise RulingInputError(f"Трассировка — не JSON (строка {exc.lineno}): {exc.msg}.") from None
        short = {name: getattr(self, name).strip() for name in TEXT_FIELDS if name not in _VERBATIM}
        return dataclasses.replace(self, clauses=tuple(clauses), **short)


def parse_clauses(text: str) -> tuple[str, ...]:
    """Clause ids as a judge types them: «211.3.1, 535.8 п.534.4» → ('211.3.1', '535.8', '534.4').

    The «п.» prefixes, separators and a closing full stop are dropped; anything else is kept as
    typed, so that `RulingInput.validated` names a word that is not an id instead of losing it.
    """
    parts = re.split(r"[\s,;]+", text.replace("п.", " ").replace("П.", " "))
    return tuple(p.strip().rstrip(".") for p in parts if p.strip().rstrip("."))


@dataclasses.dataclass(frozen=True)
class Revision:
    """One stored version of a ruling."""

    rev: int
    created_at: str
    data: RulingInput


@dataclasses.dataclass(frozen=True)
class Ruling:
    """A ruling as stored: its current text plus every earlier revision (oldest first)."""

    id: int
    created_at: str
    updated_at: str
    current: RulingInput
    revisions: tuple[Revision, ...]

    @property
    def rev(self) -> int:
        return self.revisions[-1].rev if self.revisions else 1


@dataclasses.dataclass(frozen=True)
class RulingHit:
    """A ruling found by a search: score in 0..1, and the query words it matched."""

    ruling: Ruling
    score: float
    matched: tuple[str, ...]


def now_iso() -> str:
    """The current moment in UTC, as the journal stores it (ISO 8601 with microseconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")
