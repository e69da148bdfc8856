"""The journal's schema and its versioned migrations.

The schema version is stored in the file (`PRAGMA user_version`), the file is marked as ours
(`PRAGMA application_id`), and `prepare` runs inside the transaction of the first write that finds
an empty file (creating the schema) or an older one (upgrading it), so concurrent first writers of
a new file all succeed and a half-upgraded file never exists. A foreign or newer file is refused
with a Russian message; nothing is written to it.
"""

from __future__ import annotations

import sqlite3

from rulings import accounts, throttle
from rulings.model import TEXT_FIELDS, JournalError

SCHEMA_VERSION = 3
APPLICATION_ID = 0x42455253  # "BERS": marks the file as ours, so a foreign database is refused.
ENV_VAR = "BERSERK_JOURNAL"

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS rulings (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  TEXT NOT NULL,
    locked_by   TEXT NOT NULL DEFAULT '',
    locked_at   TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS revisions (
    ruling_id     INTEGER NOT NULL REFERENCES rulings(id),
    rev           INTEGER NOT NULL,
    created_at    TEXT NOT NULL,
    title         TEXT NOT NULL,
    decision      TEXT NOT NULL,
    judge_verdict TEXT NOT NULL DEFAULT '',
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
    author        TEXT NOT NULL DEFAULT '',
    draft_id      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (ruling_id, rev)
);
CREATE INDEX IF NOT EXISTS revisions_by_time ON revisions(created_at);
CREATE INDEX IF NOT EXISTS revisions_by_author ON revisions(author, created_at);
CREATE UNIQUE INDEX IF NOT EXISTS revisions_by_draft ON revisions(draft_id) WHERE draft_id != '';
CREATE TRIGGER IF NOT EXISTS revisions_append_only_update BEFORE UPDATE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS revisions_append_only_delete BEFORE DELETE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are append-only'); END;
CREATE TRIGGER IF NOT EXISTS rulings_keep BEFORE DELETE ON rulings
BEGIN SELECT RAISE(ABORT, 'rulings are never deleted'); END;
"""
    + accounts.SCHEMA
    + throttle.SCHEMA
)
# Schema 1 (before accounts) to 2: new columns with defaults, then the new tables and indexes.
_UPGRADE_1_TO_2 = (
    "ALTER TABLE rulings ADD COLUMN locked_by TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE rulings ADD COLUMN locked_at TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE revisions ADD COLUMN judge_verdict TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE revisions ADD COLUMN author TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE revisions ADD COLUMN draft_id TEXT NOT NULL DEFAULT ''",
)
# Schema 2 to 3: the sign-in throttle counts sources, not names (rulings.throttle); the old
# per-name counts are dropped, the new tables come from the schema.
_UPGRADE_2_TO_3 = ("DROP TABLE IF EXISTS sign_in_failures",)
_NEW_IN_2 = frozenset({"judge_verdict"})


def select_revisions(version: int) -> str:
    """The SELECT of revision rows (as `records.group` reads them) for a file of this schema."""
    cols = [f"'' AS {n}" if version < 2 and n in _NEW_IN_2 else f"r.{n}" for n in TEXT_FIELDS]
    author = "r.author" if version >= 2 else "''"
    return (
        f"SELECT r.ruling_id, r.rev, r.created_at, {', '.join(cols)}, r.clauses_json, {author} "
        "FROM revisions AS r"
    )


def select_rulings(version: int) -> str:
    lock = "locked_by, locked_at" if version >= 2 else "'', ''"
    return f"SELECT id, created_at, {lock} FROM rulings"


def prepare(conn: sqlite3.Connection, write: bool, where: str) -> int:
    """Inside the transaction: refuse a foreign or newer file; create the schema in an empty one
    and upgrade an older one (writes only). Returns the schema version to read with.

    Raises:
        JournalError: a foreign file, a file missing our tables, or one of a newer schema.
        FileNotFoundError: reading an empty file (it holds no rulings yet).
    """
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if app_id == APPLICATION_ID:
        if not {"rulings", "revisions"} <= tables:
            raise JournalError("В файле журнала не хватает таблиц rulings/revisions.", where)
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"Журнал записан более новой версией приложения (схема {version}, "
                f"эта версия понимает {SCHEMA_VERSION}); обновите приложение.",
                where,
            )
        if version < SCHEMA_VERSION and write:
            for statement in (_UPGRADE_1_TO_2 if version < 2 else ()) + _UPGRADE_2_TO_3:
                conn.execute(statement)
            for statement in split_sql(SCHEMA):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            version = SCHEMA_VERSION
        return version
    if tables:
        raise JournalError(
            "Файл — база SQLite, но не журнал решений (чужие таблицы: "
            f"{', '.join(sorted(tables))}). Приложение его не трогает; укажите другой файл в "
            f"переменной {ENV_VAR}.",
            where,
        )
    if not write:
        raise FileNotFoundError(where)  # an empty file holds no rulings yet
    for statement in split_sql(SCHEMA):
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return SCHEMA_VERSION


def split_sql(script: str) -> list[str]:
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
