"""The journal on a PostgreSQL server: the league's shared journal, with the file's guarantees.

- Connections come from a small pool per server URL and process (psycopg_pool; checked before use,
  so a restarted server costs a reconnect, not an error);
- every write runs at SERIALIZABLE isolation: two judges amending one ruling at once cannot both
  win, the second sees the first's revision as a conflict. A transaction the server aborts for
  serialization (or a deadlock, or a unique key a concurrent writer took first) is run again from
  the start, with a short random back-off, until the busy timeout is spent;
- reads run in one REPEATABLE READ, READ ONLY snapshot;
- the schema is created or upgraded under an advisory lock, in the write's own transaction
  (`rulings.schema`; the version in table `journal_meta`); a database holding other tables and not
  ours is refused;
- a lost connection is reported as «не сохранено»: a transaction is committed whole or not at all,
  and a write whose commit may have reached the server is found again by its draft id when the
  judge presses the button again.
"""

from __future__ import annotations

import functools
import os
import random
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
import psycopg_pool
from psycopg import errors

from rulings import schema
from rulings.db import PgConn, shown_url
from rulings.model import JournalError, JournalLockedError

T = TypeVar("T")
_SCHEMA_LOCK = 0x4245_5253_0001  # advisory lock ids: creating/upgrading the schema
SIGN_IN_LOCK = 0x4245_5253_0002  # one password check at a time per journal (rulings.throttle)
_RETRY = (errors.SerializationFailure, errors.DeadlockDetected, errors.UniqueViolation)
MAX_ATTEMPTS = 60


class _Pools:
    """This process's connection pools, one per server URL: a resource like a cached index, never
    a judge's state (a forked process builds its own: see `_pools`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_url: dict[str, psycopg_pool.ConnectionPool[Any]] = {}

    def get(self, url: str) -> psycopg_pool.ConnectionPool[Any]:
        with self._lock:
            pool = self._by_url.get(url)
            if pool is None:
                pool = psycopg_pool.ConnectionPool(
                    url,
                    min_size=0,
                    max_size=8,
                    max_idle=30.0,
                    open=True,
                    check=psycopg_pool.ConnectionPool.check_connection,
                    kwargs={"autocommit": False, "connect_timeout": 5},
                )
                self._by_url[url] = pool
            return pool

    def close(self, url: str) -> None:
        with self._lock:
            pool = self._by_url.pop(url, None)
        if pool is not None:
            pool.close()


@functools.cache
def _pools(pid: int) -> _Pools:
    return _Pools()


def close_pool(url: str) -> None:
    """Close this process's connections to a journal (a test dropping its schema; a server's
    process exiting needs nothing)."""
    _pools(os.getpid()).close(url.strip())


class PgDatabase:
    """Transactions on a journal in a PostgreSQL database; holds the URL and settings."""

    engine = "postgres"

    def __init__(self, url: str, busy_timeout_ms: int) -> None:
        self.url = url.strip()
        self.busy_timeout_ms = busy_timeout_ms

    def where(self) -> str:
        return f"Журнал на сервере: {shown_url(self.url)}"

    def translate(self, exc: psycopg.Error, write: bool) -> JournalError:
        if isinstance(exc, _RETRY):
            return JournalLockedError(
                f"Журнал решений был занят другими записями дольше {self.busy_timeout_ms / 1000:g} с; "
                "запись не выполнена, уже записанные решения целы. Повторите через несколько секунд.",
                self.where(),
            )
        if isinstance(exc, psycopg.OperationalError | psycopg_pool.PoolTimeout):
            lost = " Запись не сохранена; повторите, когда сервер ответит (повтор дубля не создаст)."
            return JournalError(
                f"Сервер журнала недоступен или разорвал связь ({_first_line(exc)}).{lost if write else ''}",
                self.where(),
            )
        return JournalError(f"Ошибка базы журнала решений: {_first_line(exc)}.", self.where())

    def run(self, write: bool, body: Callable[[PgConn, int], T]) -> T:
        """`body(conn, schema_version)` in one transaction (SERIALIZABLE for writes), run again while
        the server aborts it for a concurrent writer and the busy timeout lasts.

        Raises:
            FileNotFoundError: reading a database that holds no journal yet (no rulings).
            JournalError: the server cannot be used, or the database is not a journal.
        """
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        pause = 0.005
        attempt = 0
        while True:
            attempt += 1
            started: list[bool] = []
            try:
                return self._once(write, body, deadline, started)
            except psycopg.Error as exc:
                # A connection that failed before the body ran (a pooled one the server dropped)
                # is safe to try again; one lost during the body or its commit is reported.
                fresh = isinstance(exc, psycopg.OperationalError) and not started
                retry = isinstance(exc, _RETRY) or (fresh and attempt <= 2)
                if retry and attempt < MAX_ATTEMPTS and time.monotonic() + pause < deadline:
                    time.sleep(pause * random.uniform(0.5, 1.0))
                    pause = min(pause * 2, 0.2)
                    continue
                raise self.translate(exc, write) from None
            except psycopg_pool.PoolTimeout as exc:
                raise self.translate(exc, write) from None

    def _once(self, write: bool, body: Callable[[PgConn, int], T], deadline: float, started: list[bool]) -> T:
        left = max(deadline - time.monotonic(), 0.05)
        with _pools(os.getpid()).get(self.url).connection(timeout=left) as raw:
            mode = "SERIALIZABLE" if write else "REPEATABLE READ, READ ONLY"
            raw.execute(f"SET TRANSACTION ISOLATION LEVEL {mode}")
            raw.execute(f"SET LOCAL statement_timeout = {int(left * 1000):d}")
            conn = PgConn(raw)
            version = self._prepare(conn, write)
            started.append(True)
            return body(conn, version)

    def _prepare(self, conn: PgConn, write: bool) -> int:
        version = self._version(conn)
        if version == schema.SCHEMA_VERSION:
            return version
        if version > schema.SCHEMA_VERSION:
            raise JournalError(
                f"Журнал записан более новой версией приложения (схема {version}, "
                f"эта версия понимает {schema.SCHEMA_VERSION}); обновите приложение.",
                self.where(),
            )
        if not write:
            if version == 0:
                raise FileNotFoundError(self.url)  # no journal here yet: no rulings
            return version
        conn.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
        version = self._version(conn)  # another writer may have done it while we waited
        if version < schema.SCHEMA_VERSION:
            schema.upgrade(conn, "postgres", version)
            conn.execute(
                "INSERT INTO journal_meta (key, value) VALUES ('schema_version', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(schema.SCHEMA_VERSION),),
            )
        return schema.SCHEMA_VERSION

    def _version(self, conn: PgConn) -> int:
        """The journal's schema version here, 0 for a database without one (refused if it holds
        tables of its own)."""
        if conn.execute("SELECT to_regclass('journal_meta')").fetchone()[0] is None:
            tables = [
                str(r[0])
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
                ).fetchall()
            ]
            if tables:
                raise JournalError(
                    f"В базе данных уже есть чужие таблицы ({', '.join(tables[:8])}), а журнала решений нет. "
                    f"Приложение их не трогает; укажите отдельную базу в переменной {schema.ENV_VAR}.",
                    self.where(),
                )
            return 0
        row = conn.execute("SELECT value FROM journal_meta WHERE key = 'schema_version'").fetchone()
        return int(row[0]) if row else 0


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
