"""The journal's SQLite file: one short transaction per call, on a fresh connection.

- WAL journal mode and a busy timeout, so writers queue instead of failing at once; a «database is
  locked» that SQLite returns without waiting (WAL start-up, a concurrent first write) is retried
  with a short back-off until the busy timeout is spent;
- every write in its own `BEGIN IMMEDIATE` transaction (no shared connection, no module-level
  state: `SqliteFile` holds the path and its settings);
- before the first write through a handle, `PRAGMA quick_check`: a file found damaged is never written;
- the schema is read, created or upgraded inside the same transaction (`rulings.schema.prepare`);
- SQLite's errors become `JournalError` with a Russian message naming the file; the file is never
  recreated or written over.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rulings import schema
from rulings.model import JournalError, JournalLockedError

T = TypeVar("T")


def _busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class SqliteFile:
    """Transactions on one journal file. Holds the path and settings; lives for one request."""

    def __init__(self, path: Path, busy_timeout_ms: int) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self._checked = False  # quick_check passed on this handle

    def where(self) -> str:
        return f"Файл журнала: {self.path}"

    def corrupt(self, detail: str) -> JournalError:
        return JournalError(
            f"Файл журнала повреждён или это не база SQLite ({detail}). Приложение его не перезаписывает: "
            f"сохраните копию файла и восстановите её (например, `sqlite3 файл .recover`) или укажите "
            f"другой файл в переменной {schema.ENV_VAR}.",
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

    def run(self, write: bool, body: Callable[[sqlite3.Connection, int], T]) -> T:
        """`body(conn, schema_version)` in one transaction (IMMEDIATE for writes), retried while
        SQLite says the file is busy and the busy timeout lasts; SQLite errors become JournalError.

        Raises:
            FileNotFoundError: reading a file that does not exist or is empty (no rulings yet).
        """
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        pause = 0.005
        while True:
            try:
                return self._once(write, body, deadline)
            except sqlite3.Error as exc:
                if _busy(exc) and time.monotonic() + pause < deadline:
                    time.sleep(pause * random.uniform(0.5, 1.0))
                    pause = min(pause * 2, 0.2)
                    continue
                raise self.translate(exc) from None

    def _once(self, write: bool, body: Callable[[sqlite3.Connection, int], T], deadline: float) -> T:
        if self.path.is_dir():
            raise JournalError("Вместо файла журнала найдена папка.", self.where())
        if write:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"Не удалось создать папку для журнала ({exc}).", self.where()) from None
        elif not self.path.exists():
            raise FileNotFoundError(self.path)
        left = max(deadline - time.monotonic(), 0.05)
        conn = sqlite3.connect(self.path, timeout=left, isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(left * 1000):d}")
            if write and not self._checked:
                self._quick_check(conn)
                self._checked = True
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = body(conn, schema.prepare(conn, write, self.where()))
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            if write:
                self._wal(conn)  # only now: the file is known to be ours
            return result
        finally:
            conn.close()

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
