"""The rulings journal: judges' rulings kept in one SQLite file, amendments as history.

A ruling is the disputed position (scenario YAML), the engine's trace (JSON), the judge's decision in
their own words, the clauses cited with the rules version, and the tournament facts (event, table,
round, players, judge, outcome). Amending a ruling appends a revision; no revision is ever updated or
deleted (triggers in the schema refuse it), so the old text stays readable.

Storage rules that keep rulings safe when several judges write at once:
- WAL journal mode and a busy timeout, so writers queue instead of failing at once;
- every write in its own short `BEGIN IMMEDIATE` transaction on a fresh connection (no shared
  connection, no module-level state: `Journal` holds only the path);
- parameterised SQL only: judge-typed text is bound as a value, never joined into a statement;
- a file that is not a readable journal (corrupt, foreign, locked) raises `JournalError` with a
  Russian message naming the file; the file is never recreated or written over.

The path: `BERSERK_JOURNAL` if set, else `data/rulings.sqlite3` beside the project.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import json
import os
import re
import sqlite3
import types
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import Stemmer

from rules_index import tables as ri_tables
from rules_index import text as ri_text

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = PROJECT_ROOT / "data" / "rulings.sqlite3"
ENV_VAR = "BERSERK_JOURNAL"
SCHEMA_VERSION = 1
APPLICATION_ID = 0x42455253  # "BERS": marks the file as ours, so a foreign database is refused.
BUSY_TIMEOUT_MS = 10_000

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

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rulings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS revisions (
    ruling_id     INTEGER NOT NULL REFERENCES rulings(id),
    rev           INTEGER NOT NULL,
    created_at    TEXT NOT NULL,
    title         TEXT NOT NULL,
    decision      TEXT NOT NULL,
    outcome       TEXT NOT NULL,
    event         TEXT NOT NULL,
    table_no      TEXT NOT NULL,
    round         TEXT NOT NULL,
    players       TEXT NOT NULL,
    judge         TEXT NOT NULL,
    rules_version TEXT NOT NULL,
    verdict       TEXT NOT NULL,
    scenario_yaml TEXT NOT NULL,
    trace_json    TEXT NOT NULL,
    note          TEXT NOT NULL,
    clauses_json  TEXT NOT NULL,
    PRIMARY KEY (ruling_id, rev)
);
CREATE INDEX IF NOT EXISTS revisions_by_time ON revisions(created_at);
CREATE TRIGGER IF NOT EXISTS revisions_append_only_update BEFORE UPDATE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS revisions_append_only_delete BEFORE DELETE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS rulings_keep BEFORE DELETE ON rulings
BEGIN SELECT RAISE(ABORT, 'rulings are never deleted'); END;
"""

_CLAUSE_RE = re.compile(r"^(?:\d+(?:\.\d+)*|A\d+)$")
_WORD_RE = re.compile(r"\d+(?:\.\d+)*|[^\W\d_]+", re.UNICODE)


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
        """A copy with surrounding blanks trimmed from the short fields.

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
            if not _CLAUSE_RE.match(cid):
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
        short = {
            name: getattr(self, name).strip()
            for name in TEXT_FIELDS
            if name not in ("scenario_yaml", "trace_json", "decision")
        }
        return dataclasses.replace(self, clauses=tuple(clauses), **short)


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
    """A ruling found by `Journal.search`: score in 0..1, and the query words it matched."""

    ruling: Ruling
    score: float
    matched: tuple[str, ...]


def default_path() -> Path:
    """The journal file: `$BERSERK_JOURNAL` when set, else data/rulings.sqlite3 in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env).expanduser() if env else DEFAULT_PATH


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="microseconds")


class Journal:
    """The rulings journal in one SQLite file. Holds only the path: safe to create per request."""

    def __init__(
        self, path: str | os.PathLike[str] | None = None, busy_timeout_ms: int = BUSY_TIMEOUT_MS
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.busy_timeout_ms = int(busy_timeout_ms)

    # -- connection -------------------------------------------------------------------------

    def _where(self) -> str:
        return f"Файл журнала: {self.path}"

    def _translate(self, exc: sqlite3.Error) -> JournalError:
        text = str(exc).lower()
        if "locked" in text or "busy" in text:
            return JournalLockedError(
                f"Журнал решений занят другим процессом дольше {self.busy_timeout_ms / 1000:g} с; "
                f"запись не выполнена, уже записанные решения целы. Повторите через несколько секунд. "
                f"{self._where()}"
            )
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return JournalError(
                f"Файл журнала повреждён или это не база SQLite ({exc}). Приложение его не перезаписывает: "
                f"сохраните копию файла и восстановите её (например, `sqlite3 файл .recover`) или укажите "
                f"другой файл в переменной {ENV_VAR}. {self._where()}"
            )
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return JournalError(
                f"Нет доступа к файлу журнала на запись или чтение ({exc}). Проверьте права на файл "
                f"и папку. {self._where()}"
            )
        return JournalError(f"Ошибка базы журнала решений: {exc}. {self._where()}")

    @contextlib.contextmanager
    def _connect(self, write: bool) -> Iterator[sqlite3.Connection]:
        """A fresh connection in a transaction (IMMEDIATE for writes); SQLite errors become JournalError."""
        if self.path.is_dir():
            raise JournalError(f"Вместо файла журнала найдена папка. {self._where()}")
        if write:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"Не удалось создать папку для журнала ({exc}). {self._where()}") from None
        elif not self.path.exists():
            raise FileNotFoundError(self.path)
        try:
            conn = sqlite3.connect(self.path, timeout=self.busy_timeout_ms / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms:d}")
            self._check_and_init(conn, write)
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._translate(exc) from None
        finally:
            conn.close()

    def _check_and_init(self, conn: sqlite3.Connection, write: bool) -> None:
        """Refuse a foreign or corrupt file; create the schema in an empty one (writes only)."""
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id == APPLICATION_ID:
            if not {"rulings", "revisions"} <= tables:
                raise JournalError(f"В файле журнала не хватает таблиц rulings/revisions. {self._where()}")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"Журнал записан более новой версией приложения (схема {version}, "
                    f"эта версия понимает {SCHEMA_VERSION}); обновите приложение. {self._where()}"
                )
            return
        if tables:
            raise JournalError(
                "Файл — база SQLite, но не журнал решений (чужие таблицы: "
                f"{', '.join(sorted(tables))}). Приложение его не трогает; укажите другой файл в "
                f"переменной {ENV_VAR}. {self._where()}"
            )
        if not write:
            raise FileNotFoundError(self.path)  # an empty file holds no rulings yet
        # An empty file (or a new one): make it a journal. Several processes may race here; the
        # exclusive transaction lets one win, and the others see its tables afterwards.
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
            if app_id != APPLICATION_ID:
                for statement in _split_sql(_SCHEMA):
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    # -- writing ----------------------------------------------------------------------------

    def record(self, ruling: RulingInput) -> int:
        """Store a new ruling; returns its id.

        Raises:
            RulingInputError: the fields are unusable (nothing is written).
            JournalError: the file is corrupt, foreign, locked or unwritable (nothing is written).
        """
        data = ruling.validated()
        now = now_iso()
        with self._connect(write=True) as conn:
            cur = conn.execute("INSERT INTO rulings (created_at) VALUES (?)", (now,))
            ruling_id = int(cur.lastrowid or 0)
            _insert_revision(conn, ruling_id, 1, now, data)
        return ruling_id

    def amend(self, ruling_id: int, ruling: RulingInput) -> int:
        """Append a new revision to a ruling (the earlier text stays); returns the new revision number.

        Raises:
            RulingInputError: the fields are unusable.
            KeyError: no ruling with this id.
            JournalError: see `record`.
        """
        data = ruling.validated()
        now = now_iso()
        with self._connect(write=True) as conn:
            sql = "SELECT MAX(rev) FROM revisions WHERE ruling_id = ?"
            row = conn.execute(sql, (int(ruling_id),)).fetchone()
            if row is None or row[0] is None:
                raise KeyError(ruling_id)
            rev = int(row[0]) + 1
            _insert_revision(conn, int(ruling_id), rev, now, data)
        return rev

    # -- reading ----------------------------------------------------------------------------

    def rulings(self, limit: int | None = None) -> list[Ruling]:
        """Every ruling, newest change first (an absent file is an empty journal).

        Raises:
            JournalError: the file is corrupt, foreign or unreadable.
        """
        try:
            with self._connect(write=False) as conn:
                rows = conn.execute(_SELECT_REVISIONS + " ORDER BY r.ruling_id, r.rev").fetchall()
                created = dict(conn.execute("SELECT id, created_at FROM rulings").fetchall())
        except FileNotFoundError:
            return []
        rulings = _group(rows, created)
        rulings.sort(key=lambda r: (r.updated_at, r.id), reverse=True)
        return rulings[:limit] if limit is not None else rulings

    def get(self, ruling_id: int) -> Ruling | None:
        """One ruling with its history, or None.

        Raises:
            JournalError: the file is corrupt, foreign or unreadable.
        """
        try:
            with self._connect(write=False) as conn:
                rows = conn.execute(
                    _SELECT_REVISIONS + " WHERE r.ruling_id = ? ORDER BY r.rev", (int(ruling_id),)
                ).fetchall()
                sql = "SELECT id, created_at FROM rulings WHERE id = ?"
                created = dict(conn.execute(sql, (int(ruling_id),)).fetchall())
        except FileNotFoundError:
            return None
        found = _group(rows, created)
        return found[0] if found else None

    def count(self) -> int:
        try:
            with self._connect(write=False) as conn:
                return int(conn.execute("SELECT COUNT(*) FROM rulings").fetchone()[0])
        except FileNotFoundError:
            return 0

    def search(self, query: str, top: int = 20) -> list[RulingHit]:
        """Rulings whose current text matches the query's words (any Russian word form) or clause ids.

        Ranking: the share of query words found, words in the question counting double. An empty
        query lists nothing. Raises `JournalError` as `rulings` does.
        """
        return search_rulings(self.rulings(), query, top=top)


_SELECT_REVISIONS = (
    "SELECT r.ruling_id, r.rev, r.created_at, "
    + ", ".join(f"r.{name}" for name in TEXT_FIELDS)
    + ", r.clauses_json FROM revisions AS r"
)


def _split_sql(script: str) -> list[str]:
    """Statements of our own fixed schema (triggers hold ';' inside BEGIN … END)."""
    out: list[str] = []
    buf: list[str] = []
    for line in script.strip().splitlines():
        buf.append(line)
        joined = "\n".join(buf).strip()
        in_trigger = joined.upper().startswith("CREATE TRIGGER")
        if joined.endswith(";") and (not in_trigger or joined.upper().endswith("END;")):
            out.append(joined)
            buf = []
    return out


def _insert_revision(conn: sqlite3.Connection, ruling_id: int, rev: int, now: str, data: RulingInput) -> None:
    columns = ["ruling_id", "rev", "created_at", *TEXT_FIELDS, "clauses_json"]
    values: list[object] = [ruling_id, rev, now, *(getattr(data, n) for n in TEXT_FIELDS)]
    values.append(json.dumps(list(data.clauses), ensure_ascii=False))
    marks = ", ".join("?" for _ in columns)
    # Column names come from our own constant tuple; every value is bound.
    conn.execute(f"INSERT INTO revisions ({', '.join(columns)}) VALUES ({marks})", values)


def _group(rows: Sequence[Sequence[object]], created: Mapping[object, object]) -> list[Ruling]:
    by_id: dict[int, list[Revision]] = {}
    for row in rows:
        ruling_id, rev, created_at = int(str(row[0])), int(str(row[1])), str(row[2])
        texts = {name: str(row[3 + i]) for i, name in enumerate(TEXT_FIELDS)}
        try:
            clauses = tuple(str(c) for c in json.loads(str(row[3 + len(TEXT_FIELDS)])))
        except (json.JSONDecodeError, TypeError):
            clauses = ()
        data = RulingInput(clauses=clauses, **texts)
        by_id.setdefault(ruling_id, []).append(Revision(rev=rev, created_at=created_at, data=data))
    out = []
    for ruling_id, revs in by_id.items():
        out.append(
            Ruling(
                id=ruling_id,
                created_at=str(created.get(ruling_id, revs[0].created_at)),
                updated_at=revs[-1].created_at,
                current=revs[-1].data,
                revisions=tuple(revs),
            )
        )
    return out


# -- search -----------------------------------------------------------------------------------


def words(text: str) -> list[str]:
    """Lower-cased words and clause numbers of a text, «ё» folded to «е»."""
    return [w.lower().replace("ё", "е") for w in _WORD_RE.findall(text)]


@functools.cache
def _analyzer() -> ri_text.Analyzer:
    """The rules search's word analysis (Snowball stems plus our word-family table), built once.

    Shared with the rules index so that «паразит» and «паразитом» meet here as they do there; the
    analyzer holds only immutable tables, so caching it keeps no judge's state.
    """
    return ri_text.Analyzer(ri_tables.load_tables())


def _key(word: str, stemmer: Stemmer.Stemmer) -> str:
    return word if word[0].isdigit() else _analyzer().key(word, stemmer)


def stems(text: str, stemmer: Stemmer.Stemmer | None = None) -> list[str]:
    """Search keys of a text's words (stems, word families merged); clause numbers are kept whole."""
    st = stemmer or _analyzer().stemmer()
    return [_key(w, st) for w in words(text)]


def query_terms(query: str, stopwords: frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
    """The query's words and their search keys, question words («можно», «ли» …) left out."""
    kept = [w for w in words(query) if w not in stopwords]
    st = _analyzer().stemmer()
    return kept, [_key(w, st) for w in kept]


def search_rulings(
    rulings: Sequence[Ruling], query: str, top: int = 20, stopwords: frozenset[str] = frozenset()
) -> list[RulingHit]:
    """Rank rulings against a query: pure text matching, shared with the search page's «answers»."""
    stemmer = _analyzer().stemmer()
    query_words, query_stems = query_terms(query, stopwords)
    if not query_stems:
        return []
    hits: list[RulingHit] = []
    for ruling in rulings:
        cur = ruling.current
        title = set(stems(cur.title, stemmer))
        body = set(
            stems(" ".join([cur.decision, cur.outcome, cur.players, cur.event, cur.judge, cur.note]), stemmer)
        )
        clause_ids = set(cur.clauses)
        score = 0.0
        matched: list[str] = []
        for word, stem in zip(query_words, query_stems, strict=True):
            if word[0].isdigit():
                hit = any(c == word or c.startswith(word + ".") for c in clause_ids) or word in title
                gain = 2.0 if hit else 0.0
            else:
                gain = 2.0 if stem in title else 1.0 if stem in body else 0.0
            if gain:
                matched.append(word)
            score += gain
        if score:
            share = score / (2.0 * len(query_stems))
            hits.append(RulingHit(ruling=ruling, score=share, matched=tuple(matched)))
    hits.sort(key=lambda h: (-h.score, -h.ruling.id))
    return hits[:top]


# -- Markdown export --------------------------------------------------------------------------

# Marks that can form Markdown or HTML anywhere in a line, and the ones that do so only at its start.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&|~$])")
_MD_LINE_START = re.compile(r"^([#+=>-]|\d+[.)](?=\s|$))")
_MD_AUTOLINK = re.compile(r"(?i)(://|www\.)")


def md_text(text: str) -> str:
    """Judge-typed text as Markdown that renders verbatim.

    Every mark that could form HTML, a link, an image, emphasis, code or a table is backslash-escaped,
    as are heading, list and quote marks at a line's start and bare-URL openings (so no autolink forms);
    lines become hard breaks and leading blanks no-break spaces (so they cannot open a code block).
    """
    lines = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.lstrip(" \t")
        lead = "\u00a0" * (len(line) - len(stripped))
        body = _MD_INLINE.sub(r"\\\1", stripped.rstrip())
        body = _MD_AUTOLINK.sub(lambda m: m.group(1).replace(":", "\\:").replace(".", "\\."), body)
        body = _MD_LINE_START.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], body)
        lines.append(lead + body)
    return "  \n".join(lines)


def md_code(text: str, lang: str = "") -> str:
    """A fenced block whose fence is longer than any backtick run inside, so the text cannot close it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


# Words for the printed trace (no icons: a printer may lack the glyphs).
KIND_WORDS: Mapping[str, str] = types.MappingProxyType(
    {
        "allowed": "разрешено",
        "forbidden": "ЗАПРЕЩЕНО",
        "effect": "эффект",
        "state_check": "проверка состояния",
        "not_applied": "не применено",
        "undetermined": "НЕ ОПРЕДЕЛЕНО текстом правил",
        "assumption": "допущение",
        "conflict": "противоречие правил",
    }
)
VERDICT_WORDS: Mapping[str, str] = types.MappingProxyType(
    {"legal": "законно", "illegal": "запрещено", "undetermined": "не определено текстом правил"}
)


def _trace_lines(steps: object, indent: str = "") -> list[str]:
    out: list[str] = []
    if not isinstance(steps, list):
        return out
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        clause = str(step.get("clause", "") or "")
        kind = str(step.get("kind", ""))
        where = (clause if clause.startswith("A") else "п. " + clause) if clause else "без пункта"
        head = f"{KIND_WORDS.get(kind, kind)}, {where}"
        out.append(f"{indent}- **{md_text(head)}:** {md_text(str(step.get('reason', '')))}")
        out.extend(_trace_lines(step.get("children", []), indent + "  "))
    return out


def trace_markdown(trace_json: str) -> list[str]:
    """The stored trace as Markdown: each action numbered with its verdict, its steps nested below.
    JSON of another shape is shown as a code block, so nothing stored is ever hidden."""
    try:
        data = json.loads(trace_json)
    except json.JSONDecodeError:
        return [md_code(trace_json)]
    if isinstance(data, Mapping):
        data = data.get("trace", data.get("steps", []))
    lines: list[str] = []
    if isinstance(data, list):
        number = 0
        for item in data:
            if isinstance(item, Mapping) and "trace" in item:
                number += 1
                verdict = str(item.get("verdict", ""))
                said = VERDICT_WORDS.get(verdict, verdict)
                lines.append(f"{number}. {md_text(str(item.get('action', '')))} — **{md_text(said)}**")
                lines.extend(_trace_lines(item["trace"], " " * (len(str(number)) + 2)))
            else:
                lines.extend(_trace_lines([item]))
    return lines or [md_code(json.dumps(data, ensure_ascii=False, indent=2), "json")]


def ruling_markdown(ruling: Ruling, with_history: bool = True) -> str:
    """One ruling as Markdown for printing: question as heading, facts as a list, decision, trace."""
    cur = ruling.current
    parts = [f"## Решение № {ruling.id}: {md_text(cur.title)}", ""]
    facts = [
        ("Записано", human_time(ruling.created_at)),
        ("Изменено", human_time(ruling.updated_at) + f" (редакция {ruling.rev})"),
    ]
    for name in ("event", "round", "table_no", "players", "judge", "outcome", "verdict", "rules_version"):
        value = getattr(cur, name)
        if value:
            shown = (
                f"{VERDICT_WORDS[value]} ({value})" if name == "verdict" and value in VERDICT_WORDS else value
            )
            facts.append((FIELD_LABELS[name], shown))
    if cur.clauses:
        label = f" ({cur.rules_version})" if cur.rules_version else ""
        facts.append((FIELD_LABELS["clauses"], ", ".join(f"п. {c}" for c in cur.clauses) + label))
    parts.extend(f"- **{label}:** {md_text(value)}" for label, value in facts)
    parts += ["", "### Решение судьи", "", md_text(cur.decision), ""]
    if cur.trace_json.strip():
        parts += ["### Трассировка движка", "", *trace_markdown(cur.trace_json), ""]
    if cur.scenario_yaml.strip():
        parts += ["### Сценарий", "", md_code(cur.scenario_yaml, "yaml"), ""]
    if with_history and len(ruling.revisions) > 1:
        parts += ["### История правок", ""]
        for rev in ruling.revisions:
            note = f" — {md_text(rev.data.note)}" if rev.data.note else ""
            parts.append(f"- Редакция {rev.rev}, {human_time(rev.created_at)}{note}")
            parts.append(f"  - Решение: {md_text(rev.data.decision)}")
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def journal_markdown(rulings: Sequence[Ruling], title: str = "Журнал решений") -> str:
    """All given rulings as one Markdown document, each starting on a new printed page."""
    head = [f"# {md_text(title)}", "", f"Решений: {len(rulings)}. Выгружено {human_time(now_iso())}.", "", ""]
    body = [ruling_markdown(r) for r in sorted(rulings, key=lambda r: r.id)]
    # A horizontal rule between rulings; printed Markdown viewers break pages poorly, a rule reads well.
    return "\n".join(head) + "\n---\n\n".join(body)


def human_time(iso: str) -> str:
    try:
        moment = dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return moment.strftime("%d.%m.%Y %H:%M UTC")
