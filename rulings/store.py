"""The rulings journal: record, amend, lock, list, get and search rulings; nothing is overwritten.

A ruling is the disputed position (scenario YAML), the engine's trace (JSON), the judge's decision in
their own words and their answer (законно / запрещено / не определено), the clauses cited with the
rules version, and the tournament facts (event, table, round, players, outcome). Amending a ruling
appends a revision; no revision is ever updated or deleted (triggers in the schema refuse it), so the
old text stays readable. Each revision names the judge's account that wrote it (rulings.accounts).

The journal's parts:
- `rulings.schema`: the tables and their versioned migrations;
- `rulings.sqlite_file`: transactions on the file (WAL, busy timeout and retries, the integrity
  check before the first write, SQLite's errors in Russian);
- `rulings.records`: rulings as rows (a revision appended, rulings read back with their history);
- `rulings.signins`: accounts and sign-in sessions as methods of `Journal`;
- here: the one write path for rulings (`Journal._write`): the input is validated, the judge's
  sign-in checked, the draft looked up (a repeated submit returns the first write), the base
  revision compared (a colleague's amendment is a conflict, not overwritten), the judge's rate
  checked, then the ruling row (when new) and its revision are committed together or not at all.

Parameterised SQL only: judge-typed text is bound as a value, never joined into a statement. A file
that is not a readable journal (corrupt, foreign, locked) raises `JournalError` with a Russian
message naming the file; the file is never recreated or written over.

The path: `BERSERK_JOURNAL` if set, else `data/rulings.sqlite3` beside the project.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import argon2

from rulings import accounts, backup, db, records, search, throttle
from rulings.accounts import Account, SignedIn
from rulings.db import Conn
from rulings.model import (
    JournalError,
    KnownClauses,
    RateLimitError,
    Revision,
    Ruling,
    RulingConflictError,
    RulingHit,
    RulingInput,
    RulingLockedError,
    Written,
)
from rulings.schema import APPLICATION_ID, ENV_VAR, SCHEMA_VERSION
from rulings.signins import JudgesMixin
from rulings.sqlite_file import SqliteFile

if TYPE_CHECKING:
    from rulings import postgres

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = PROJECT_ROOT / "data" / "rulings.sqlite3"
HALL_ENV = "BERSERK_HALL"
BUSY_TIMEOUT_MS = 10_000
MAX_WRITES_PER_MINUTE = 12  # per judge: a flood from one account cannot slow everyone's journal
MAX_HALL_CHARS = 60
T = TypeVar("T")
__all__ = ["APPLICATION_ID", "ENV_VAR", "SCHEMA_VERSION", "Journal", "JournalError", "default_path"]


def default_path() -> Path | str:
    """The journal: `$BERSERK_JOURNAL` when set (a file path, or a `postgresql://` URL), else
    data/rulings.sqlite3 in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    if db.is_url(env):
        return env
    return Path(env).expanduser() if env else DEFAULT_PATH


def default_hall() -> str:
    """This hall's name as rulings record it: `$BERSERK_HALL`, else "" (one hall needs none)."""
    return " ".join(os.environ.get(HALL_ENV, "").split())[:MAX_HALL_CHARS]


class Journal(JudgesMixin):
    """The rulings journal: a SQLite file or a PostgreSQL database (`path` is a file path or a
    `postgresql://` URL). Holds the target and settings: create one per request.

    `hall` names the hall whose rulings this handle records (`$BERSERK_HALL`). `clock` (seconds since
    the epoch), `idle_s` (sign-in inactivity limit), the judge's write rate, the server's password
    checks per minute and the password hasher can be set (tests make them small).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        *,
        clock: Callable[[], float] = time.time,
        idle_s: float | None = None,
        max_writes_per_minute: int = MAX_WRITES_PER_MINUTE,
        max_checks_per_minute: int = throttle.MAX_CHECKS_PER_MINUTE,
        hasher: argon2.PasswordHasher | None = None,
        hall: str | None = None,
    ) -> None:
        target = default_path() if path is None else path
        self.busy_timeout_ms = int(busy_timeout_ms)
        self.clock = clock
        self.idle_s = accounts.idle_seconds() if idle_s is None else float(idle_s)
        self.max_writes_per_minute = int(max_writes_per_minute)
        self.max_checks_per_minute = int(max_checks_per_minute)
        self.hasher = hasher  # None: Argon2id with the library's defaults (tests pass a cheaper one)
        self.hall = default_hall() if hall is None else " ".join(hall.split())[:MAX_HALL_CHARS]
        self._db: SqliteFile | postgres.PgDatabase
        if isinstance(target, str) and db.is_url(target):
            from rulings import postgres  # psycopg loads only for a journal on a server (0.5 s)

            self.path: Path | str = target.strip()
            self._db = postgres.PgDatabase(target, self.busy_timeout_ms)
        else:
            self.path = Path(target)
            self._db = SqliteFile(self.path, self.busy_timeout_ms)

    @property
    def engine(self) -> str:
        """ "sqlite" or "postgres"."""
        return self._db.engine

    @property
    def shown(self) -> str:
        """Where the journal is, for the head judge's page and messages (a URL without its password)."""
        return db.shown_url(self.path) if isinstance(self.path, str) else str(self.path)

    def _now_iso(self, at: float | None = None) -> str:
        moment = dt.datetime.fromtimestamp(self.clock() if at is None else at, dt.UTC)
        return moment.isoformat(timespec="microseconds")

    # -- transactions ----------------------------------------------------------------------

    def _run(self, write: bool, body: Callable[[Conn, int], T]) -> T:
        return self._db.run(write, body)

    def _read(self, body: Callable[[Conn, int], T], absent: T) -> T:
        try:
            return self._run(False, body)
        except FileNotFoundError:
            return absent

    # -- writing rulings --------------------------------------------------------------------

    def record(
        self,
        ruling: RulingInput,
        by: SignedIn | None,
        *,
        draft_id: str = "",
        rules: KnownClauses | None = None,
        assumptions: Collection[str] | None = None,
    ) -> int:
        """Store a new ruling written by the signed-in judge `by`; returns its id.

        `draft_id` names the form's draft: a second submit of the same draft returns the first
        ruling's id and writes nothing. `rules`/`assumptions`: the cited ids must exist there.

        Raises:
            NotSignedInError: no judge signed in, or the sign-in expired (nothing is written).
            RulingInputError: the fields are unusable (nothing is written).
            RateLimitError: this judge wrote too many rulings in the last minute.
            JournalError: the journal is corrupt, foreign, locked or unwritable (nothing is written).
        """
        return self.write(None, ruling, by, draft_id=draft_id, rules=rules, assumptions=assumptions).ruling_id

    def amend(
        self,
        ruling_id: int,
        ruling: RulingInput,
        by: SignedIn | None,
        *,
        base_rev: int,
        draft_id: str = "",
        rules: KnownClauses | None = None,
        assumptions: Collection[str] | None = None,
        overwrites: bool = False,
    ) -> int:
        """Append a revision to a ruling (the earlier text stays); returns the new revision number.

        `base_rev` is the revision the judge started from: if a colleague saved another one since,
        nothing is written and `RulingConflictError` carries the stored ruling. To save on top of the
        colleague's text, amend again with `base_rev` set to that ruling's current revision and
        `overwrites=True`: the revision records whose revision it replaced. The ruling's «Судья»
        stays the judge who recorded it; each revision names its own author.

        Raises:
            RulingConflictError: the ruling moved on since `base_rev`.
            RulingLockedError: a head judge locked the ruling.
            KeyError: no ruling with this id.
            NotSignedInError, RulingInputError, RateLimitError, JournalError: see `record`.
        """
        written = self.write(
            int(ruling_id),
            ruling,
            by,
            base_rev=base_rev,
            draft_id=draft_id,
            rules=rules,
            assumptions=assumptions,
            overwrites=overwrites,
        )
        return written.rev

    def write(
        self,
        ruling_id: int | None,
        ruling: RulingInput,
        by: SignedIn | None,
        *,
        base_rev: int | None = None,
        draft_id: str = "",
        rules: KnownClauses | None = None,
        assumptions: Collection[str] | None = None,
        overwrites: bool = False,
    ) -> Written:
        """`record` (ruling_id None) or `amend`, saying also whether the submit was a repeat."""
        if ruling_id is not None and base_rev is None:
            raise TypeError("amend needs base_rev: the revision the judge started from")
        data = ruling.validated(rules, assumptions)
        return self._write(ruling_id, data, by, base_rev, str(draft_id)[:100], overwrites)

    def _write(
        self,
        ruling_id: int | None,
        data: RulingInput,
        by: SignedIn | None,
        base_rev: int | None,
        draft: str,
        overwrites: bool,
    ) -> Written:
        """The one write path for rulings: in one transaction (IMMEDIATE on SQLite, SERIALIZABLE on
        PostgreSQL) check the sign-in, return an earlier write of the same draft, check the judge's
        rate, the lock and the base revision, then create the ruling (when `ruling_id` is None) and
        append its revision. Whatever a write must check against stored rows belongs here, so that
        judges writing at once are serialised by it.
        """

        def body(conn: Conn, version: int) -> Written:
            now = self.clock()
            account = accounts.authenticate(conn, by, now, self.idle_s, touch=True)
            if draft:
                sql = "SELECT ruling_id, rev FROM revisions WHERE draft_id = ?"
                row = conn.execute(sql, (draft,)).fetchone()
                if row is not None:
                    return Written(int(row[0]), int(row[1]), repeated=True)
            sql = "SELECT COUNT(*) FROM revisions WHERE author = ? AND created_at > ?"
            recent = int(conn.execute(sql, (account.name, self._now_iso(now - 60.0))).fetchone()[0])
            if recent >= self.max_writes_per_minute:
                raise RateLimitError(
                    f"За последнюю минуту вы записали {recent} решений или правок — больше "
                    f"{self.max_writes_per_minute} в минуту журнал не принимает. "
                    "Подождите минуту; текст формы сохранён."
                )
            stamp = self._now_iso(now)
            replaced = ""
            if ruling_id is None:
                ruling_uid = records.new_uid()
                cur = conn.execute(
                    "INSERT INTO rulings (created_at, uid, hall, updated_at) "
                    "VALUES (?, ?, ?, ?) RETURNING id",
                    (stamp, ruling_uid, self.hall, stamp),
                )
                new_id, rev = int(cur.fetchone()[0]), 1
                bases: tuple[str, ...] = ()
                signed = dataclasses.replace(data, judge=account.name)  # «Судья»: the account, never typed
            else:
                new_id = ruling_id
                row = conn.execute("SELECT locked_by FROM rulings WHERE id = ?", (new_id,)).fetchone()
                if row is None:
                    raise KeyError(new_id)
                if row[0]:
                    raise RulingLockedError(
                        f"Решение № {new_id} закреплено главным судьёй ({row[0]}): править его нельзя. "
                        "Снять закрепление может главный судья."
                    )
                stored = records.fetch(conn, version, new_id)
                if stored is None:
                    raise KeyError(new_id)
                last = stored.revisions[-1]
                # The ruling's judge is whoever recorded it; an amendment is signed by its author.
                signed = dataclasses.replace(data, judge=stored.current.judge or account.name)
                if stored.current == signed and last.author == account.name:
                    # The same text by the same judge again (a stale second press): nothing new.
                    return Written(new_id, stored.rev, repeated=True)
                if base_rev is not None and stored.rev != int(base_rev):
                    raise RulingConflictError(int(base_rev), stored)
                if overwrites and last.author and last.author != account.name:
                    replaced = f"ред. {last.rev}, {last.author}"
                rev = stored.rev + 1
                # Written on the current text, and on every branch a sync left apart: the judge saw
                # them all, so this revision resolves the conflict.
                bases = records.heads_of(stored.revisions) or ((last.uid,) if last.uid else ())
                ruling_uid = stored.uid
                conn.execute("UPDATE rulings SET updated_at = ? WHERE id = ?", (stamp, new_id))
            revision = Revision(
                rev=rev,
                created_at=stamp,
                data=signed,
                author=account.name,
                uid=records.new_uid(),
                base_uids=tuple(bases),
                hall=self.hall,
                replaced=replaced,
            )
            records.insert_revision(conn, new_id, ruling_uid, rev, revision, draft)
            records.index_ruling(conn, new_id, signed)
            return Written(new_id, rev)

        written = self._run(True, body)
        if not written.repeated:
            backup.maybe_backup(self.path)
        return written

    def set_locked(self, ruling_id: int, by: SignedIn | None, locked: bool = True) -> None:
        """Lock a ruling against amendments (or unlock it); only a head judge may.

        Raises:
            NotSignedInError, RulingLockedError (not a head judge), KeyError, JournalError.
        """

        def body(conn: Conn, _version: int) -> None:
            account = accounts.authenticate(conn, by, self.clock(), self.idle_s, touch=True)
            if not account.is_head:
                raise RulingLockedError("Закреплять решения может только главный судья.")
            if conn.execute("SELECT 1 FROM rulings WHERE id = ?", (int(ruling_id),)).fetchone() is None:
                raise KeyError(ruling_id)
            who, when = (account.name, self._now_iso()) if locked else ("", "")
            conn.execute(
                "UPDATE rulings SET locked_by = ?, locked_at = ? WHERE id = ?", (who, when, int(ruling_id))
            )

        self._run(True, body)

    # -- reading ----------------------------------------------------------------------------

    def rulings(
        self, limit: int | None = None, offset: int = 0, *, hall: str | None = None, event: str | None = None
    ) -> list[Ruling]:
        """Rulings, newest change first (an absent journal is an empty one); `limit`/`offset` page
        them; `hall` and `event` keep only a hall's rulings, or a tournament's (the current text's).

        Raises:
            JournalError: the journal is corrupt, foreign or unreadable.
        """

        def body(conn: Conn, version: int) -> list[Ruling]:
            where, params = _filters(version, hall, event)
            page = "" if limit is None else f" LIMIT {int(limit):d} OFFSET {int(offset):d}"
            if version >= 4:
                sql = f"SELECT id FROM rulings AS g{where} ORDER BY updated_at DESC, id DESC{page}"
            else:
                sql = (
                    "SELECT ruling_id FROM revisions GROUP BY ruling_id "
                    f"ORDER BY MAX(created_at) DESC, ruling_id DESC{page}"
                )
            wanted = [int(r[0]) for r in conn.execute(sql, params).fetchall()]
            found = {r.id: r for r in records.fetch_many(conn, version, wanted)}
            return [found[i] for i in wanted if i in found]

        return self._read(body, [])

    def get(self, ruling_id: int) -> Ruling | None:
        """One ruling with its history, or None.

        Raises:
            JournalError: the journal is corrupt, foreign or unreadable.
        """
        return self._read(lambda conn, version: records.fetch(conn, version, int(ruling_id)), None)

    def by_uid(self, uid: str) -> Ruling | None:
        """The ruling with this global id (the same in every journal a sync copied it to), or None."""

        def body(conn: Conn, version: int) -> Ruling | None:
            if version < 4:
                return None
            row = conn.execute("SELECT id FROM rulings WHERE uid = ?", (str(uid),)).fetchone()
            return None if row is None else records.fetch(conn, version, int(row[0]))

        return self._read(body, None)

    def initialise(self) -> str:
        """Create the journal where there is none (a file, or the schema in an empty database), or
        bring an existing one to this version's schema; returns what was done, in Russian.

        Raises:
            JournalError: what is there is not a journal (empty file, foreign tables, damage).
        """
        before = self._read(lambda _conn, version: version, 0)
        after = self._run(True, lambda _conn, version: version)
        if before == 0:
            return f"Создан новый пустой журнал: {self.shown}."
        if before < after:
            return f"Журнал {self.shown} обновлён до схемы {after}; решения сохранены."
        return f"Журнал {self.shown} уже готов (схема {after})."

    def problems(self) -> list[str]:
        """What is wrong with the stored journal, in Russian (empty: all is well): SQLite's integrity
        check of the file, then every revision against its checksum.

        Raises:
            JournalError: the journal cannot be opened at all.
        """

        def body(conn: Conn, version: int) -> list[str]:
            found: list[str] = []
            if conn.engine == "sqlite":
                rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
                if rows != ["ok"]:
                    found.append("проверка целостности SQLite: " + "; ".join(rows[:3]))
            for start in range(0, len(ids := _all_ids(conn)), 500):
                for ruling in records.fetch_many(conn, version, ids[start : start + 500]):
                    found += [f"решение № {ruling.id}, редакция {n} повреждена" for n in ruling.damaged]
            return found

        return self._read(body, [])

    def count(self, *, hall: str | None = None, event: str | None = None) -> int:
        def body(conn: Conn, version: int) -> int:
            where, params = _filters(version, hall, event)
            return int(conn.execute(f"SELECT COUNT(*) FROM rulings AS g{where}", params).fetchone()[0])

        return self._read(body, 0)

    def halls_and_events(self) -> tuple[list[str], list[str]]:
        """The halls that recorded rulings and the tournaments the rulings name, for the filters."""

        def body(conn: Conn, version: int) -> tuple[list[str], list[str]]:
            halls: list[str] = []
            if version >= 4:
                sql = "SELECT DISTINCT hall FROM rulings WHERE hall != ''"
                halls = [str(r[0]) for r in conn.execute(sql).fetchall()]
            sql = f"SELECT DISTINCT r.event FROM revisions AS r WHERE {_CURRENT} AND r.event != ''"
            events = [str(r[0]) for r in conn.execute(sql).fetchall()]
            return sorted(halls), sorted(events)

        nothing: tuple[list[str], list[str]] = ([], [])
        return self._read(body, nothing)

    def search(
        self, query: str, top: int = 20, *, stopwords: Collection[str] = frozenset()
    ) -> list[RulingHit]:
        """Rulings whose current text matches the query's words (any Russian word form) or clause ids.

        The database counts `rulings.search.match`'s points over its index (SQLite FTS5, PostgreSQL
        tsvectors with GIN indexes over the same search keys) and returns only the best: the ranking
        is the one a scan of every ruling gave, without reading every ruling (a journal older than
        schema 4, not yet upgraded, is scanned whole). An empty query lists
        nothing. Raises `JournalError` as `rulings` does.
        """
        query_words, query_keys = search.query_terms(query, stopwords)
        if not query_keys:
            return []

        def body(conn: Conn, version: int) -> list[RulingHit]:
            if version < 4:
                return search.search_rulings(
                    records.fetch_many(conn, version, _all_ids(conn)), query, top, stopwords
                )
            pairs = list(zip(query_words, query_keys, strict=True))
            best = records.ranked(conn, pairs, top)
            keys = records.keys_of(conn, [rid for rid, _points in best])
            rulings = {r.id: r for r in records.fetch_many(conn, version, [rid for rid, _p in best])}
            hits = []
            for rid, _points in best:
                title, text, cited = keys.get(rid, ("", "", ""))
                m = search.match(
                    query_words, query_keys, set(title.split()), set(text.split()), cited.split()
                )
                if rid in rulings and m.score:
                    hits.append(RulingHit(rulings[rid], m.score, m.matched))
            return hits

        return self._read(body, [])


# The current revision of a ruling, as a condition on `revisions AS r`.
_CURRENT = "r.rev = (SELECT MAX(x.rev) FROM revisions AS x WHERE x.ruling_id = r.ruling_id)"


def _filters(version: int, hall: str | None, event: str | None) -> tuple[str, list[object]]:
    """WHERE over `rulings AS g` for a hall and a tournament (both optional)."""
    parts: list[str] = []
    params: list[object] = []
    if hall is not None and version >= 4:
        parts.append("g.hall = ?")
        params.append(hall)
    if event is not None:
        parts.append(
            f"EXISTS (SELECT 1 FROM revisions AS r WHERE r.ruling_id = g.id AND {_CURRENT} AND r.event = ?)"
        )
        params.append(event)
    return (" WHERE " + " AND ".join(parts) if parts else ""), params


def _all_ids(conn: Conn) -> list[int]:
    return [int(r[0]) for r in conn.execute("SELECT id FROM rulings").fetchall()]


def require_judge(who: SignedIn | None, journal: Journal | None = None, head: bool = False) -> Account:
    """The guard for writes outside the journal (rules versions): the signed-in judge's account, or
    NotSignedInError / RulingLockedError with a Russian message. See `Journal.require_judge`."""
    return (journal or Journal()).require_judge(who, head=head)
