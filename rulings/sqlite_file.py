"""The journal's SQLite file: one short transaction per call, on a fresh connection.

- WAL journal mode and a busy timeout, so writers queue instead of failing at once; a «database is
  locked» that SQLite returns without waiting (WAL start-up, a concurrent first write) is retried
  with a short back-off until the busy timeout is spent;
- every write in its own `BEGIN IMMEDIATE` transaction (no shared connection, no module-level
  state: `SqliteFile` holds the path and its settings);
- before writing, `PRAGMA quick_check`: a file found damaged is never written. Once a file passed,
  this process checks it again only when it got smaller (truncated): on 100,000 rulings the check
  reads the whole file (seconds), too long for a judge's write; damage inside a page is what the
  revisions' checksums are for;
- a new journal is made whole in a temporary file and linked into place, so a journal file always
  holds our schema from the moment it exists: an existing file that is empty or lacks our schema
  (truncated, foreign) is refused, never initialised over;
- an older schema is upgraded inside the transaction of the first write that finds it (`rulings.schema`);
- text is decoded leniently (bytes that are not UTF-8 survive as lone surrogates), so a damaged
  revision fails its checksum (`rulings.records`) instead of failing the whole read;
- SQLite's errors become `JournalError` with a Russian message naming the file; the file is never
  recreated or written over;
- the process holds the file open (`_Holder`) from its first transaction on it: one read-only
  connection that never reads again. While it is open, a request's connection closing is never the
  file's last, so SQLite does not fold the WAL back into the file and delete it after every write
  (that close cost three fsyncs and two unlinks, most of a judge's 20 ms). The WAL is folded in by
  the holder's own thread instead, once no transaction has run for `IDLE_S` seconds, so the journal
  file alone is whole a moment after the judges stop writing (a hand copy of it then misses nothing),
  and at the process's exit. The holder never writes: the fold runs on a fresh connection to
  whatever file is at the path then, as every request does, so a journal moved aside or put back by
  `restore` is never written through an old handle.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import random
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from rulings import schema
from rulings.db import SqliteConn
from rulings.model import JournalError, JournalLockedError

T = TypeVar("T")
IDLE_S = 2.0  # the holder folds the WAL into the file after this long without a transaction
BACKUP_HINT = "резервную копию можно вернуть командой `python -m rulings restore`"


def _busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _lenient(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    conn.text_factory = _lenient
    return conn


@functools.lru_cache(maxsize=64)
def _seen(path: str, dev: int, ino: int) -> list[int]:
    """The size at which this file last passed quick_check in this process (empty: never). A cached
    value, not a judge's state: the same answer for every request."""
    return []


def _passed(path: str, dev: int, ino: int, size: int) -> bool:
    """Whether the file passed before at no larger size: it only grew since (a checkpoint, new
    pages), which cannot cut what was checked; a file that shrank (truncated) is checked again."""
    box = _seen(path, dev, ino)
    return bool(box) and size >= box[0]


def _remember(path: str, dev: int, ino: int, size: int) -> None:
    box = _seen(path, dev, ino)
    box[:] = [size]


class _Holder:
    """The process's read-only handle on one journal file (see the module's docstring), and the
    thread that folds the WAL into the file once the file is idle. Shared by every request in the
    process; it holds no judge's data."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._ident: tuple[int, int] | None = None  # (dev, ino) of the file the handle was opened on
        self._last = 0.0
        self._folding = False  # a fold thread is waiting for the file to go idle
        self._inherited: sqlite3.Connection | None = None

    def touch(self) -> None:
        """After a transaction: keep the file open, and fold the WAL in once it goes idle."""
        try:
            stat = os.stat(self.path)
        except OSError:
            return
        ident = (stat.st_dev, stat.st_ino)
        with self._lock:
            self._last = time.monotonic()
            if self._ident != ident:  # first use, or a file replaced at the path (restore)
                self._reopen(ident)
            if self._folding:
                return
            self._folding = True
        threading.Thread(target=self._fold_when_idle, name="journal-wal-fold", daemon=True).start()

    def _reopen(self, ident: tuple[int, int]) -> None:
        old, self._conn, self._ident = self._conn, None, None
        if old is not None:
            with contextlib.suppress(sqlite3.Error):
                old.close()  # read-only: its close never writes the file
        try:
            conn = sqlite3.connect(
                f"file:{quote(self.path)}?mode=ro", uri=True, timeout=0.05, check_same_thread=False
            )
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # joins the WAL, holds the file
        except sqlite3.Error:
            return  # best effort: without the handle, writes are only slower
        self._conn, self._ident = conn, ident

    def _fold_when_idle(self) -> None:
        while True:
            with self._lock:
                wait = self._last + IDLE_S - time.monotonic()
                if wait <= 0:
                    self._folding = False
                    break
            time.sleep(wait)
        fold(self.path)

    def forked(self) -> None:
        """In a child just forked: the parent's fold thread is not here, its lock may have been held
        at the fork, and its handle is the parent's. The child keeps that handle, never closing it
        (SQLite's rule for a connection across a fork); its first transaction opens its own."""
        self._lock = threading.Lock()
        self._folding = False
        self._inherited, self._conn, self._ident = self._conn, None, None

    def release(self) -> None:
        """Fold what is left and let go of the file (the next transaction takes it again)."""
        with self._lock:
            conn, self._conn, self._ident = self._conn, None, None
        if conn is None:
            return
        with contextlib.suppress(sqlite3.Error):
            conn.close()  # read-only: its close never writes the file
        # A fresh connection, the file's last one in this process: it folds the WAL in, and on
        # closing SQLite removes the -wal and -shm files when no other process has the file open.
        fold(self.path)


def fold(path: str) -> bool:
    """Fold the WAL into the journal file now, without waiting for anyone: True when it was all
    folded, False when a transaction was running or no journal of ours is at the path (nothing is
    written or created then). A fresh connection, so it acts on the file at the path now."""
    try:
        conn = sqlite3.connect(f"file:{quote(path)}?mode=rw", uri=True, timeout=0.05)
        try:
            conn.execute("PRAGMA busy_timeout = 0")
            if int(conn.execute("PRAGMA application_id").fetchone()[0]) != schema.APPLICATION_ID:
                return False
            busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            return not busy
        finally:
            conn.close()
    except sqlite3.Error:
        return False


@functools.lru_cache(maxsize=64)
def _holder(path: str) -> _Holder:
    """One holder per journal file and process (a cached handle, the same for every request); one
    pushed out of the cache closes its read-only handle when it is collected."""
    holder = _Holder(path)
    _held().add(holder)
    return holder


@functools.lru_cache(maxsize=1)
def _held() -> weakref.WeakSet[_Holder]:
    """The holders alive in this process, for the fold at exit."""
    return weakref.WeakSet()


@atexit.register
def _release_all() -> None:
    for holder in list(_held()):
        holder.release()


def _after_fork() -> None:
    for holder in list(_held()):
        holder.forked()


os.register_at_fork(after_in_child=_after_fork)


def let_go(path: Path) -> None:
    """Fold the WAL into the file and close this process's handle on it, for a step that needs the
    file to itself (`restore` moving it aside, a tool switching its journal mode); the next
    transaction takes it again."""
    _holder(str(path)).release()


class SqliteFile:
    """Transactions on one journal file. Holds the path and settings; lives for one request."""

    engine = "sqlite"

    def __init__(self, path: Path, busy_timeout_ms: int) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self._checked = False  # quick_check passed on this handle

    def where(self) -> str:
        return f"Файл журнала: {self.path}"

    def corrupt(self, detail: str) -> JournalError:
        return JournalError(
            f"Файл журнала повреждён или это не база SQLite ({detail}). Приложение его не перезаписывает: "
            f"{BACKUP_HINT}; или сохраните копию файла и восстановите её (`sqlite3 файл .recover`), или "
            f"укажите другой файл в переменной {schema.ENV_VAR}.",
            self.where(),
        )

    def translate(self, exc: sqlite3.Error) -> JournalError:
        text = str(exc).lower()
        if _busy(exc):
            return JournalLockedError(
                f"Журнал решений занят другим процессом дольше {self.busy_timeout_ms / 1000:g} с; "
                f"запись не выполнена, уже записанные решения целы. Повторите через несколько секунд.",
                self.where(),
            )
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return self.corrupt(str(exc))
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return JournalError(
                f"Нет доступа к файлу журнала на запись или чтение ({exc}). Проверьте права на файл и папку.",
                self.where(),
            )
        return JournalError(f"Ошибка базы журнала решений: {exc}.", self.where())

    def run(self, write: bool, body: Callable[[SqliteConn, int], T], serial: bool = False) -> T:
        """`body(conn, schema_version)` in one transaction (IMMEDIATE for writes), retried while
        SQLite says the file is busy and the busy timeout lasts; SQLite errors become JournalError.
        (`serial` is for PostgreSQL: writes to a file are one at a time already.)
        A write to a path where no file is creates the journal first.

        Raises:
            FileNotFoundError: reading where no journal file is (no rulings yet).
        """
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        pause = 0.005
        while True:
            try:
                if write and not self.path.exists():
                    self.create()
                return self._once(write, body, deadline)
            except sqlite3.Error as exc:
                if _busy(exc) and time.monotonic() + pause < deadline:
                    time.sleep(pause * random.uniform(0.5, 1.0))
                    pause = min(pause * 2, 0.2)
                    continue
                raise self.translate(exc) from None

    def create(self) -> bool:
        """Make a new, empty journal at the path unless a file is there; True when this call made it.
        Built in a temporary file beside it and linked into place (atomic: never a half-made file)."""
        if self.path.is_dir():
            raise JournalError("Вместо файла журнала найдена папка.", self.where())
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"Не удалось создать папку для журнала ({exc}).", self.where()) from None
        tmp = self.path.with_name(f".{self.path.name}.new-{os.getpid()}-{random.getrandbits(32):08x}")
        try:
            conn = connect(tmp, 1.0)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("BEGIN IMMEDIATE")
                schema.create(SqliteConn(conn), "sqlite")
                conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")
                conn.execute("COMMIT")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                conn.close()
            try:
                os.link(tmp, self.path)
                return True
            except FileExistsError:
                return False  # another writer made it first: theirs is as good
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()

    def _once(self, write: bool, body: Callable[[SqliteConn, int], T], deadline: float) -> T:
        if self.path.is_dir():
            raise JournalError("Вместо файла журнала найдена папка.", self.where())
        if not self.path.exists():
            raise FileNotFoundError(self.path)
        if self.path.stat().st_size == 0:
            raise self.empty()
        left = max(deadline - time.monotonic(), 0.05)
        conn = connect(self.path, left)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(left * 1000):d}")
            if write and not self._checked:
                stat = self.path.stat()
                if not _passed(str(self.path), stat.st_dev, stat.st_ino, stat.st_size):
                    self._quick_check(conn)
                    _remember(str(self.path), stat.st_dev, stat.st_ino, stat.st_size)
                self._checked = True
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = body(SqliteConn(conn), self._prepare(conn, write))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            if write:
                self._wal(conn)
        finally:
            conn.close()
        _holder(str(self.path)).touch()
        return result

    def empty(self) -> JournalError:
        return JournalError(
            "Файл журнала пуст: в нём нет ни решений, ни схемы журнала — похоже, его обрезали или "
            f"перезаписали. Приложение не создаёт журнал поверх него: {BACKUP_HINT}; новый пустой "
            "журнал — `python -m rulings init` на месте убранного файла.",
            self.where(),
        )

    def _prepare(self, conn: sqlite3.Connection, write: bool) -> int:
        """Inside the transaction: refuse a foreign, empty or newer file; upgrade an older one (writes
        only). Returns the schema version to read with."""
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id != schema.APPLICATION_ID:
            if not tables:
                raise self.empty()
            raise JournalError(
                "Файл — база SQLite, но не журнал решений (чужие таблицы: "
                f"{', '.join(sorted(tables))}). Приложение его не трогает; укажите другой файл в "
                f"переменной {schema.ENV_VAR}.",
                self.where(),
            )
        if not {"rulings", "revisions"} <= tables:
            raise JournalError("В файле журнала не хватает таблиц rulings/revisions.", self.where())
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > schema.SCHEMA_VERSION:
            raise JournalError(
                f"Журнал записан более новой версией приложения (схема {version}, "
                f"эта версия понимает {schema.SCHEMA_VERSION}); обновите приложение.",
                self.where(),
            )
        if version < schema.SCHEMA_VERSION and write:
            schema.upgrade(SqliteConn(conn), "sqlite", version)
            conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION}")
            version = schema.SCHEMA_VERSION
        if write and version == schema.SCHEMA_VERSION:
            schema.keep_index(SqliteConn(conn))
        return version

    def _quick_check(self, conn: sqlite3.Connection) -> None:
        """Refuse a damaged file before anything is written to it."""
        rows = [str(r[0]) for r in conn.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            raise self.corrupt(f"проверка целостности: {rows[0][:200] if rows else 'нет ответа'}")

    def _wal(self, conn: sqlite3.Connection) -> None:
        """WAL mode, set after a committed write (outside a transaction, without waiting): when another
        process holds the file, a later write switches it. Best effort: the write is already safe."""
        try:
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                conn.execute("PRAGMA busy_timeout = 0")
                conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error:
            pass
