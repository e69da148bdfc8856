"""The rulings journal in one SQLite file: amendments append revisions, nothing is overwritten.

A ruling is the disputed position (scenario YAML), the engine's trace (JSON), the judge's decision in
their own words, the clauses cited with the rules version, and the tournament facts (event, table,
round, players, judge, outcome). Amending a ruling appends a revision; no revision is ever updated or
deleted (triggers in the schema refuse it), so the old text stays readable.

Storage rules that keep rulings safe when several judges write at once:
- WAL journal mode and a busy timeout, so writers queue instead of failing at once;
- every write in its own short `BEGIN IMMEDIATE` transaction on a fresh connection (no shared
  connection, no module-level state: `Journal` holds only the path);
- one write path (`Journal._write`): the input is validated, then the ruling row (when new) and its
  revision are committed together or not at all;
- parameterised SQL only: judge-typed text is bound as a value, never joined into a statement;
- a file that is not a readable journal (corrupt, foreign, locked) raises `JournalError` with a
  Russian message naming the file; the file is never recreated or written over.

The path: `BERSERK_JOURNAL` if set, else `data/rulings.sqlite3` beside the project.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from rulings.model import (
    TEXT_FIELDS,
    JournalError,
    JournalLockedError,
    Revision,
    Ruling,
    RulingHit,
    RulingInput,
    now_iso,
)
from rulings.search import search_rulings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = PROJECT_ROOT / "data" / "rulings.sqlite3"
ENV_VAR = "BERSERK_JOURNAL"
SCHEMA_VERSION = 1
APPLICATION_ID = 0x42455253  # "BERS": marks the file as ours, so a foreign database is refused.
BUSY_TIMEOUT_MS = 10_000

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

_SELECT_REVISIONS = (
    "SELECT r.ruling_id, r.rev, r.created_at, "
    + ", ".join(f"r.{name}" for name in TEXT_FIELDS)
    + ", r.clauses_json FROM revisions AS r"
)


def default_path() -> Path:
    """The journal file: `$BERSERK_JOURNAL` when set, else data/rulings.sqlite3 in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env).expanduser() if env else DEFAULT_PATH


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
        ruling_id, _rev = self._write(None, ruling)
        return ruling_id

    def amend(self, ruling_id: int, ruling: RulingInput) -> int:
        """Append a new revision to a ruling (the earlier text stays); returns the new revision number.

        Raises:
            RulingInputError: the fields are unusable.
            KeyError: no ruling with this id.
            JournalError: see `record`.
        """
        _id, rev = self._write(int(ruling_id), ruling)
        return rev

    def _write(self, ruling_id: int | None, ruling: RulingInput) -> tuple[int, int]:
        """The one write path: validate, then in one IMMEDIATE transaction create the ruling (when
        `ruling_id` is None) or find its next revision number, and append the revision. Returns
        (ruling id, revision). Whatever a write must check against stored rows belongs here, inside
        the transaction, so that two judges writing at once are serialised by it.
        """
        data = ruling.validated()
        now = now_iso()
        with self._connect(write=True) as conn:
            if ruling_id is None:
                cur = conn.execute("INSERT INTO rulings (created_at) VALUES (?)", (now,))
                ruling_id, rev = int(cur.lastrowid or 0), 1
            else:
                sql = "SELECT MAX(rev) FROM revisions WHERE ruling_id = ?"
                row = conn.execute(sql, (ruling_id,)).fetchone()
                if row is None or row[0] is None:
                    raise KeyError(ruling_id)
                rev = int(row[0]) + 1
            _insert_revision(conn, ruling_id, rev, now, data)
        return ruling_id, rev

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

        Ranking: `rulings.search.match`. An empty query lists nothing. Raises `JournalError` as
        `rulings` does.
        """
        return search_rulings(self.rulings(), query, top=top)


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
