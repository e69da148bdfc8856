"""What the journal's SQL runs on: one connection protocol over SQLite and PostgreSQL.

Every statement of the journal is written once, with `?` for its bound values; `PgConn` hands
PostgreSQL the same text with psycopg's `%s` (no statement of ours holds a literal `?` or `%`).
A journal is named by a *target*: a file path (SQLite, the default) or a `postgresql://` URL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

URL_PREFIXES = ("postgresql://", "postgres://")


class Cursor(Protocol):
    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Conn(Protocol):
    """A connection inside a transaction the journal opened; `engine` is "sqlite" or "postgres"."""

    engine: str

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> None: ...


class SqliteConn:
    """A sqlite3 connection seen through `Conn`."""

    engine = "sqlite"

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor:
        return self.raw.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> None:
        self.raw.executemany(sql, rows)


class PgConn:
    """A psycopg connection seen through `Conn`: `?` becomes `%s`."""

    engine = "postgres"

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = (), /) -> Cursor:
        cursor: Cursor = self.raw.execute(sql.replace("?", "%s"), tuple(params) or None)
        return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]], /) -> None:
        with self.raw.cursor() as cur:
            cur.executemany(sql.replace("?", "%s"), [tuple(r) for r in rows])


def is_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.strip().lower().startswith(URL_PREFIXES)


def shown_url(url: str) -> str:
    """The URL without its password, for messages and the head judge's page."""
    head, sep, rest = url.partition("://")
    if "@" not in rest.split("/", 1)[0]:
        return url
    creds, _, host = rest.partition("@")
    user = creds.split(":", 1)[0]
    return f"{head}{sep}{user}{':***' if ':' in creds else ''}@{host}"
