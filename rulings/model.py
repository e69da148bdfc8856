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
from collections.abc import Collection, Mapping
from typing import Protocol

import lexicon
from rules_index import ids

# Text fields of a revision, in the order the form and the export show them.
TEXT_FIELDS: tuple[str, ...] = (
    "title",
    "decision",
    "judge_verdict",
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
        "judge_verdict": "Ответ судьи",
        "outcome": "Что сделали за столом",
        "event": "Турнир",
        "table_no": "Стол",
        "round": "Тур",
        "players": "Игроки",
        "judge": "Судья",
        "rules_version": "Версия правил",
        "verdict": "Вердикт движка (последний шаг)",
        "clauses": "Пункты правил",
        "scenario_yaml": "Сценарий",
        "trace_json": "Трассировка",
        "note": "Причина правки",
    }
)
# The most characters each field takes: a question is a line, a decision a page, a scenario a file
# of the scenario format (casebook.nodes.MAX_BYTES) and its trace a few times that; a pasted book
# does not fit anywhere. The page's widgets carry the same limits (max_chars).
FIELD_LIMITS: Mapping[str, int] = types.MappingProxyType(
    {
        "title": 300,
        "decision": 10_000,
        "judge_verdict": 20,
        "outcome": 500,
        "event": 200,
        "table_no": 20,
        "round": 20,
        "players": 300,
        "judge": 100,
        "rules_version": 100,
        "verdict": 20,
        "scenario_yaml": 262_144,
        "trace_json": 1_048_576,
        "note": 1_000,
    }
)
MAX_FIELD_CHARS = max(FIELD_LIMITS.values())
MAX_CLAUSES = 40
# Fields kept exactly as typed: the decision's layout is the judge's, the attachments are files.
_VERBATIM = frozenset({"scenario_yaml", "trace_json", "decision"})


class JournalError(RuntimeError):
    """The journal file cannot be used; `str(e)` is a Russian message naming the file.

    `public` is the same message without the server's path, for pages that players see.
    """

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{message} {where}".strip())
        self.public = message


class JournalLockedError(JournalError):
    """Another process held the file longer than the busy timeout; nothing was written."""


class RulingInputError(ValueError):
    """A ruling's fields are unusable (empty question, bad clause id …); Russian message naming the field."""


class NotSignedInError(PermissionError):
    """A write without a signed-in judge (or with an expired or revoked sign-in); Russian message."""


class RulingLockedError(PermissionError):
    """The ruling is locked by a head judge (or only a head judge may do this); Russian message."""


class RateLimitError(RuntimeError):
    """Too many writes by one judge in a minute; nothing was written; Russian message."""


class SignInError(PermissionError):
    """A refused sign-in: wrong name or password, or a wait after repeated failures.

    `wait_s` is how long the next attempt is refused (0 when it may be made at once).
    """

    def __init__(self, message: str, wait_s: float = 0.0) -> None:
        super().__init__(message)
        self.wait_s = wait_s


class RulingConflictError(RuntimeError):
    """A colleague amended the ruling after this judge started from revision `base_rev`.

    `current` is the ruling as stored now (its last revision is the colleague's); nothing was written.
    """

    def __init__(self, base_rev: int, current: Ruling) -> None:
        last = current.revisions[-1] if current.revisions else None
        who = f" ({last.author})" if last is not None and last.author else ""
        super().__init__(
            f"Пока вы правили решение № {current.id} (с редакции {base_rev}), коллега{who} сохранил "
            f"редакцию {current.rev}. Ваша правка не записана и не потеряна: сравните и выберите."
        )
        self.base_rev = base_rev
        self.current = current


class KnownClauses(Protocol):
    """What the clause check needs of the loaded rules (rules_index.RulesIndex has both)."""

    def has(self, cid: str) -> bool: ...

    def nearest_ids(self, cid: str, n: int = 5) -> list[str]: ...


@dataclasses.dataclass(frozen=True)
class RulingInput:
    """What a judge records (or amends). Every field is plain text; clauses are ids like '211.3.1'."""

    title: str
    decision: str
    clauses: tuple[str, ...] = ()
    judge_verdict: str = ""  # the judge's answer: legal | illegal | undetermined | "" (not given)
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

    def validated(
        self, rules: KnownClauses | None = None, assumptions: Collection[str] | None = None
    ) -> RulingInput:
        """A copy with surrounding blanks trimmed from the short fields and repeated clauses dropped.

        With `rules` (the loaded rules index) every cited clause must exist in it, and with
        `assumptions` every cited assumption id must be one of them; an unknown id is refused with
        the nearest existing ids.

        Raises:
            RulingInputError: empty question or decision, an over-long field, a malformed or unknown
                clause id, an answer that is not one of the verdicts, or trace text that is not JSON.
        """
        if not self.title.strip():
            raise RulingInputError("Не заполнен «Вопрос»: опишите, о чём спор.")
        if not self.decision.strip():
            raise RulingInputError("Не заполнено «Решение судьи».")
        for name in TEXT_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, str):
                raise RulingInputError(f"Поле «{FIELD_LABELS[name]}» должно быть текстом.")
            if len(value) > FIELD_LIMITS[name]:
                raise RulingInputError(
                    f"Поле «{FIELD_LABELS[name]}» длиннее {FIELD_LIMITS[name]} символов ({len(value)})."
                )
        if self.judge_verdict.strip() and self.judge_verdict.strip() not in lexicon.VERDICTS:
            words = ", ".join(f"«{lexicon.verdict(v)}»" for v in lexicon.VERDICTS)
            raise RulingInputError(f"«Ответ судьи» — одно из: {words}.")
        if not isinstance(self.clauses, tuple | list) or len(self.clauses) > MAX_CLAUSES:
            raise RulingInputError(f"Пунктов правил больше {MAX_CLAUSES}: оставьте те, что решили спор.")
        clauses: list[str] = []
        for raw in self.clauses:
            cid = str(raw).strip()
            if not cid:
                continue
            if not ids.is_citation_id(cid):
                raise RulingInputError(
                    f"«{cid}» не похоже на номер пункта правил (ожидается вида 211.3.1) или допущения (A1)."
                )
            _check_known(cid, rules, assumptions)
            if cid not in clauses:
                clauses.append(cid)
        if self.trace_json.strip():
            try:
                json.loads(self.trace_json)
            except json.JSONDecodeError as exc:
                raise RulingInputError(f"Трассировка — не JSON (строка {exc.lineno}): {exc.msg}.") from None
        short = {name: getattr(self, name).strip() for name in TEXT_FIELDS if name not in _VERBATIM}
        return dataclasses.replace(self, clauses=tuple(clauses), **short)


def _check_known(cid: str, rules: KnownClauses | None, assumptions: Collection[str] | None) -> None:
    if ids.is_assumption_id(cid):
        if assumptions is not None and cid not in assumptions:
            known = ", ".join(sorted(assumptions, key=lambda a: int(a[1:]))[:12])
            raise RulingInputError(f"Допущения {cid} нет в файле допущений движка (есть: {known}).")
        return
    if rules is not None and not rules.has(cid):
        near = ", ".join(rules.nearest_ids(cid, 5))
        hint = f" Ближайшие номера: {near}." if near else ""
        raise RulingInputError(f"Пункта {cid} нет в загруженных правилах.{hint}")


def parse_clauses(text: str) -> tuple[str, ...]:
    """Clause ids as a judge types them: «211.3.1, 535.8 п.534.4» → ('211.3.1', '535.8', '534.4').

    The «п.» prefixes, separators and a closing full stop are dropped; anything else is kept as
    typed, so that `RulingInput.validated` names a word that is not an id instead of losing it.
    """
    parts = re.split(r"[\s,;]+", text.replace("п.", " ").replace("П.", " "))
    return tuple(p.strip().rstrip(".") for p in parts if p.strip().rstrip("."))


@dataclasses.dataclass(frozen=True)
class Revision:
    """One stored version of a ruling; `author` is the account that wrote it ("" before accounts).

    `uid` is the revision's global id (the same in every journal a sync copied it to) and
    `base_uids` the revisions it was written on (one; two or more when it resolved a conflict);
    `hall` is where it was written; `replaced` names the colleague's revision a judge chose to
    overwrite in a conflict («ред. 3, Орлов»). `damaged` says the stored text no longer matches its
    checksum: the text shown is what could be read, and must not be trusted.
    """

    rev: int
    created_at: str
    data: RulingInput
    author: str = ""
    uid: str = ""
    base_uids: tuple[str, ...] = ()
    hall: str = ""
    replaced: str = ""
    damaged: bool = False


@dataclasses.dataclass(frozen=True)
class Ruling:
    """A ruling as stored: its current text plus every earlier revision (oldest first).

    `conflict` holds the other branch when two journals amended the same revision apart (a sync
    keeps both): those revisions are newer than the common one and no later revision resolves them.
    """

    id: int
    created_at: str
    updated_at: str
    current: RulingInput
    revisions: tuple[Revision, ...]
    locked_by: str = ""  # the head judge who locked it ("" when it may be amended)
    locked_at: str = ""
    uid: str = ""
    hall: str = ""
    conflict: tuple[Revision, ...] = ()

    @property
    def rev(self) -> int:
        return self.revisions[-1].rev if self.revisions else 1

    @property
    def author(self) -> str:
        """The account that recorded the ruling ("" for a ruling written before accounts)."""
        return self.revisions[0].author if self.revisions else ""

    @property
    def damaged(self) -> tuple[int, ...]:
        """Numbers of the revisions whose stored text fails its checksum."""
        return tuple(r.rev for r in self.revisions if r.damaged)


@dataclasses.dataclass(frozen=True)
class Written:
    """What a write did: the ruling and revision, and whether it only repeated an earlier submit."""

    ruling_id: int
    rev: int
    repeated: bool = False


@dataclasses.dataclass(frozen=True)
class Change:
    """One field that differs between two revisions, as text (clauses joined with «, »)."""

    field: str
    label: str
    old: str
    new: str


def changes(old: RulingInput, new: RulingInput) -> list[Change]:
    """The fields an amendment changed, in the form's order (the reason «note» is not a change)."""
    out: list[Change] = []
    for name in (*TEXT_FIELDS[:2], "clauses", *TEXT_FIELDS[2:]):
        if name == "note":
            continue
        before, after = getattr(old, name), getattr(new, name)
        if name == "clauses":
            before, after = ", ".join(before), ", ".join(after)
        if before != after:
            out.append(Change(name, FIELD_LABELS[name], str(before), str(after)))
    return out


def step_verdicts(trace_json: str) -> tuple[tuple[str, str], ...]:
    """The engine's verdict of every step of an attached trace: (action as written, verdict code).

    The desk stores a list of {"action", "verdict", "trace"}; any other shape (or no trace) gives ().
    """
    if not trace_json.strip():
        return ()
    try:
        data = json.loads(trace_json)
    except json.JSONDecodeError:
        return ()
    if not isinstance(data, list):
        return ()
    return tuple(
        (str(item.get("action", "")), str(item.get("verdict", "")))
        for item in data
        if isinstance(item, Mapping) and "verdict" in item
    )


def engine_verdicts(data: RulingInput) -> tuple[str, ...]:
    """The engine's verdict codes, one per step; a ruling stored with only `verdict` gives that one."""
    steps = tuple(v for _a, v in step_verdicts(data.trace_json))
    return steps or ((data.verdict,) if data.verdict else ())


def answer_line(data: RulingInput) -> str:
    """The ruling's answer as the journal, its export and the ready answers print it:
    «Ответ судьи: запрещено. Движок по шагам: 1 — законно, 2 — запрещено.»"""
    said = lexicon.verdict(data.judge_verdict) if data.judge_verdict else "не указан"
    steps = engine_verdicts(data)
    if not steps:
        return f"Ответ судьи: {said}."
    if len(steps) == 1 and not step_verdicts(data.trace_json):
        return f"Ответ судьи: {said}. Движок (последний шаг): {lexicon.verdict(steps[0])}."
    listed = ", ".join(f"{i} — {lexicon.verdict(v)}" for i, v in enumerate(steps, 1))
    return f"Ответ судьи: {said}. Движок по шагам: {listed}."


@dataclasses.dataclass(frozen=True)
class RulingHit:
    """A ruling found by a search: score in 0..1, and the query words it matched."""

    ruling: Ruling
    score: float
    matched: tuple[str, ...]


def now_iso() -> str:
    """The current moment in UTC, as the journal stores it (ISO 8601 with microseconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")
