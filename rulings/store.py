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
import sqlite3
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TypeVar

import argon2

from rulings import accounts, records, throttle
from rulings.accounts import Account, SignedIn
from rulings.model import (
    JournalError,
    KnownClauses,
    RateLimitError,
    Ruling,
    RulingConflictError,
    RulingHit,
    RulingInput,
    RulingLockedError,
    Written,
)
from rulings.schema import APPLICATION_ID, ENV_VAR, SCHEMA_VERSION
from rulings.search import search_rulings
from rulings.signins import JudgesMixin
from rulings.sqlite_file import SqliteFile

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = PROJECT_ROOT / "data" / "rulings.sqlite3"
BUSY_TIMEOUT_MS = 10_000
MAX_WRITES_PER_MINUTE = 12  # per judge: a flood from one account cannot slow everyone's journal
T = TypeVar("T")
__all__ = ["APPLICATION_ID", "ENV_VAR", "SCHEMA_VERSION", "Journal", "JournalError", "default_path"]


def default_path() -> Path:
    """The journal file: `$BERSERK_JOURNAL` when set, else data/rulings.sqlite3 in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env).expanduser() if env else DEFAULT_PATH


class Journal(JudgesMixin):
    """The rulings journal in one SQLite file. Holds the path and settings: create one per request.

    `clock` (seconds since the epoch), `idle_s` (sign-in inactivity limit), the judge's write rate,
    the server's password checks per minute and the password hasher can be set (tests make them small).
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
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.busy_timeout_ms = int(busy_timeout_ms)
        self.clock = clock
        self.idle_s = accounts.idle_seconds() if idle_s is None else float(idle_s)
        self.max_writes_per_minute = int(max_writes_per_minute)
        self.max_checks_per_minute = int(max_checks_per_minute)
        self.hasher = hasher  # None: Argon2id with the library's defaults (tests pass a cheaper one)
        self._file = SqliteFile(self.path, self.busy_timeout_ms)

    def _now_iso(self, at: float | None = None) -> str:
        moment = dt.datetime.fromtimestamp(self.clock() if at is None else at, dt.UTC)
        return moment.isoformat(timespec="microseconds")

    # -- transactions ----------------------------------------------------------------------

    def _run(self, write: bool, body: Callable[[sqlite3.Connection, int], T]) -> T:
        return self._file.run(write, body)

    def _read(self, body: Callable[[sqlite3.Connection, int], T], absent: T) -> T:
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
            JournalError: the file is corrupt, foreign, locked or unwritable (nothing is written).
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
    ) -> int:
        """Append a revision to a ruling (the earlier text stays); returns the new revision number.

        `base_rev` is the revision the judge started from: if a colleague saved another one since,
        nothing is written and `RulingConflictError` carries the stored ruling. To save on top of the
        colleague's text, amend again with `base_rev` set to that ruling's current revision.

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
    ) -> Written:
        """`record` (ruling_id None) or `amend`, saying also whether the submit was a repeat."""
        if ruling_id is not None and base_rev is None:
            raise TypeError("amend needs base_rev: the revision the judge started from")
        return self._write(ruling_id, ruling.validated(rules, assumptions), by, base_rev, str(draft_id)[:100])

    def _write(
        self, ruling_id: int | None, data: RulingInput, by: SignedIn | None, base_rev: int | None, draft: str
    ) -> Written:
        """The one write path for rulings: in one IMMEDIATE transaction check the sign-in, return an
        earlier write of the same draft, check the judge's rate, the lock and the base revision, then
        create the ruling (when `ruling_id` is None) and append its revision. Whatever a write must
        check against stored rows belongs here, so that judges writing at once are serialised by it.
        """

        def body(conn: sqlite3.Connection, version: int) -> Written:
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
            if ruling_id is None:
                cur = conn.execute("INSERT INTO rulings (created_at) VALUES (?)", (stamp,))
                new_id, rev = int(cur.lastrowid or 0), 1
            else:
                new_id = ruling_id
                row = conn.execute("SELECT locked_by FROM rulings WHERE id = ?", (new_id,)).fetchone()
                top = conn.execute("SELECT MAX(rev) FROM revisions WHERE ruling_id = ?", (new_id,)).fetchone()
                if row is None or top is None or top[0] is None:
                    raise KeyError(new_id)
                if row[0]:
                    raise RulingLockedError(
                        f"Решение № {new_id} закреплено главным судьёй ({row[0]}): править его нельзя. "
                        "Снять закрепление может главный судья."
                    )
                stored = records.fetch(conn, version, new_id)
                assert stored is not None
                mine = dataclasses.replace(data, judge=account.name)
                if stored.current == mine and stored.revisions[-1].author == account.name:
                    # The same text by the same judge again (a stale second press): nothing new.
                    return Written(new_id, stored.rev, repeated=True)
                if base_rev is not None and int(top[0]) != int(base_rev):
                    raise RulingConflictError(int(base_rev), stored)
                rev = int(top[0]) + 1
            # The «Судья» of a revision is its account, never a typed name.
            signed = dataclasses.replace(data, judge=account.name)
            records.insert_revision(conn, new_id, rev, stamp, signed, account.name, draft)
            return Written(new_id, rev)

        return self._run(True, body)

    def set_locked(self, ruling_id: int, by: SignedIn | None, locked: bool = True) -> None:
        """Lock a ruling against amendments (or unlock it); only a head judge may.

        Raises:
            NotSignedInError, RulingLockedError (not a head judge), KeyError, JournalError.
        """

        def body(conn: sqlite3.Connection, _version: int) -> None:
            account = accounts.authenticate(conn, by, self.clock(), self.idle_s, touch=True)
            if not account.is_head:
                raise RulingLockedError("Закреплять решения может только главный судья.")
            if conn.execute("SELECT 1 FROM rulings WHERE id = ?", (int(ruling_id),)).fetchone() is None:
                raise KeyError(ruling_id)
            who, when = (account.name, self._now_iso()) if locked else ("", "")
            conn.execute(
                "UPDATE rulings SET locked_by = ?, locked_at = ? WHERE id = ?", (who, when, ruling_id)
            )

        self._run(True, body)

    # -- reading ----------------------------------------------------------------------------

    def rulings(self, limit: int | None = None, offset: int = 0) -> list[Ruling]:
        """Rulings, newest change first (an absent file is an empty journal); `limit`/`offset` page them.

        Raises:
            JournalError: the file is corrupt, foreign or unreadable.
        """

        def body(conn: sqlite3.Connection, version: int) -> list[Ruling]:
            sql = (
                "SELECT ruling_id FROM revisions GROUP BY ruling_id "
                "ORDER BY MAX(created_at) DESC, ruling_id DESC LIMIT ? OFFSET ?"
            )
            wanted = [
                int(r[0]) for r in conn.execute(sql, (-1 if limit is None else int(limit), int(offset)))
            ]
            found = {r.id: r for r in records.fetch_many(conn, version, wanted)}
            return [found[i] for i in wanted if i in found]

        return self._read(body, [])

    def get(self, ruling_id: int) -> Ruling | None:
        """One ruling with its history, or None.

        Raises:
            JournalError: the file is corrupt, foreign or unreadable.
        """
        return self._read(lambda conn, version: records.fetch(conn, version, int(ruling_id)), None)

    def count(self) -> int:
        return self._read(lambda conn, _v: int(conn.execute("SELECT COUNT(*) FROM rulings").fetchone()[0]), 0)

    def search(self, query: str, top: int = 20) -> list[RulingHit]:
        """Rulings whose current text matches the query's words (any Russian word form) or clause ids.

        Ranking: `rulings.search.match`. An empty query lists nothing. Raises `JournalError` as
        `rulings` does.
        """
        return search_rulings(self.rulings(), query, top=top)


def require_judge(who: SignedIn | None, journal: Journal | None = None, head: bool = False) -> Account:
    """The guard for writes outside the journal (rules versions): the signed-in judge's account, or
    NotSignedInError / RulingLockedError with a Russian message. See `Journal.require_judge`."""
    return (journal or Journal()).require_judge(who, head=head)
