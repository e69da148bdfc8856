"""The rulings journal in one SQLite file: amendments append revisions, nothing is overwritten.

A ruling is the disputed position (scenario YAML), the engine's trace (JSON), the judge's decision in
their own words and their answer (законно / запрещено / не определено), the clauses cited with the
rules version, and the tournament facts (event, table, round, players, outcome). Amending a ruling
appends a revision; no revision is ever updated or deleted (triggers in the schema refuse it), so the
old text stays readable. Each revision names the judge's account that wrote it (rulings.accounts).

Storage rules that keep rulings safe when several judges write at once:
- WAL journal mode and a busy timeout, so writers queue instead of failing at once; a «database is
  locked» that SQLite returns without waiting (WAL start-up, a concurrent first write) is retried
  with a short back-off until the busy timeout is spent;
- every write in its own short `BEGIN IMMEDIATE` transaction on a fresh connection (no shared
  connection, no module-level state: `Journal` holds the path and its settings);
- before the first write of a `Journal`, `PRAGMA quick_check`: a file found damaged is never written;
- the schema is read, created (new file) or upgraded inside the same IMMEDIATE transaction as the
  write, so concurrent first writers of a new file all succeed;
- one write path for rulings (`Journal._write`): the input is validated, the judge's sign-in checked,
  the draft looked up (a repeated submit returns the first write), the base revision compared (a
  colleague's amendment is a conflict, not overwritten), the judge's rate checked, then the ruling
  row (when new) and its revision are committed together or not at all;
- parameterised SQL only: judge-typed text is bound as a value, never joined into a statement;
- a file that is not a readable journal (corrupt, foreign, locked) raises `JournalError` with a
  Russian message naming the file; the file is never recreated or written over.

The path: `BERSERK_JOURNAL` if set, else `data/rulings.sqlite3` beside the project.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import random
import sqlite3
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import argon2

from rulings import accounts, throttle
from rulings.accounts import Account, SignedIn
from rulings.model import (
    TEXT_FIELDS,
    JournalError,
    JournalLockedError,
    KnownClauses,
    RateLimitError,
    Revision,
    Ruling,
    RulingConflictError,
    RulingHit,
    RulingInput,
    RulingLockedError,
    SignInError,
    Written,
)
from rulings.search import search_rulings

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATH = PROJECT_ROOT / "data" / "rulings.sqlite3"
ENV_VAR = "BERSERK_JOURNAL"
SCHEMA_VERSION = 3
APPLICATION_ID = 0x42455253  # "BERS": marks the file as ours, so a foreign database is refused.
BUSY_TIMEOUT_MS = 10_000
MAX_WRITES_PER_MINUTE = 12  # per judge: a flood from one account cannot slow everyone's journal
T = TypeVar("T")

_SCHEMA = (
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


def _select_revisions(version: int) -> str:
    cols = [f"'' AS {n}" if version < 2 and n in _NEW_IN_2 else f"r.{n}" for n in TEXT_FIELDS]
    author = "r.author" if version >= 2 else "''"
    return (
        f"SELECT r.ruling_id, r.rev, r.created_at, {', '.join(cols)}, r.clauses_json, {author} "
        "FROM revisions AS r"
    )


def _select_rulings(version: int) -> str:
    lock = "locked_by, locked_at" if version >= 2 else "'', ''"
    return f"SELECT id, created_at, {lock} FROM rulings"


def default_path() -> Path:
    """The journal file: `$BERSERK_JOURNAL` when set, else data/rulings.sqlite3 in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return Path(env).expanduser() if env else DEFAULT_PATH


def _busy(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class Journal:
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
        self._checked = False  # quick_check passed on this handle (a handle lives for one request)

    def _now_iso(self, at: float | None = None) -> str:
        moment = dt.datetime.fromtimestamp(self.clock() if at is None else at, dt.UTC)
        return moment.isoformat(timespec="microseconds")

    # -- connection -------------------------------------------------------------------------

    def _where(self) -> str:
        return f"Файл журнала: {self.path}"

    def _corrupt(self, detail: str) -> JournalError:
        return JournalError(
            f"Файл журнала повреждён или это не база SQLite ({detail}). Приложение его не перезаписывает: "
            f"сохраните копию файла и восстановите её (например, `sqlite3 файл .recover`) или укажите "
            f"другой файл в переменной {ENV_VAR}.",
            self._where(),
        )

    def _translate(self, exc: sqlite3.Error) -> JournalError:
        text = str(exc).lower()
        if _busy(exc):
            return JournalLockedError(
                f"Журнал решений занят другим процессом дольше {self.busy_timeout_ms / 1000:g} с; "
                f"запись не выполнена, уже записанные решения целы. Повторите через несколько секунд.",
                self._where(),
            )
        if "not a database" in text or "malformed" in text or "corrupt" in text:
            return self._corrupt(str(exc))
        if "readonly" in text or "read-only" in text or "unable to open" in text:
            return JournalError(
                f"Нет доступа к файлу журнала на запись или чтение ({exc}). Проверьте права на файл и папку.",
                self._where(),
            )
        return JournalError(f"Ошибка базы журнала решений: {exc}.", self._where())

    def _run(self, write: bool, body: Callable[[sqlite3.Connection, int], T]) -> T:
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
                raise self._translate(exc) from None

    def _once(self, write: bool, body: Callable[[sqlite3.Connection, int], T], deadline: float) -> T:
        if self.path.is_dir():
            raise JournalError("Вместо файла журнала найдена папка.", self._where())
        if write:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"Не удалось создать папку для журнала ({exc}).", self._where()) from None
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
                result = body(conn, self._schema(conn, write))
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
            raise self._corrupt(f"проверка целостности: {rows[0][:200] if rows else 'нет ответа'}")

    def _wal(self, conn: sqlite3.Connection) -> None:
        """WAL mode, set after a committed write (outside a transaction, without waiting): when another
        process holds the file, a later write switches it. Best effort: the write is already safe."""
        try:
            if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
                conn.execute("PRAGMA busy_timeout = 0")
                conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error:
            pass

    def _schema(self, conn: sqlite3.Connection, write: bool) -> int:
        """Inside the transaction: refuse a foreign or newer file; create the schema in an empty one
        and upgrade an older one (writes only). Returns the schema version to read with."""
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id == APPLICATION_ID:
            if not {"rulings", "revisions"} <= tables:
                raise JournalError("В файле журнала не хватает таблиц rulings/revisions.", self._where())
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"Журнал записан более новой версией приложения (схема {version}, "
                    f"эта версия понимает {SCHEMA_VERSION}); обновите приложение.",
                    self._where(),
                )
            if version < SCHEMA_VERSION and write:
                for statement in (_UPGRADE_1_TO_2 if version < 2 else ()) + _UPGRADE_2_TO_3:
                    conn.execute(statement)
                for statement in _split_sql(_SCHEMA):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                version = SCHEMA_VERSION
            return version
        if tables:
            raise JournalError(
                "Файл — база SQLite, но не журнал решений (чужие таблицы: "
                f"{', '.join(sorted(tables))}). Приложение его не трогает; укажите другой файл в "
                f"переменной {ENV_VAR}.",
                self._where(),
            )
        if not write:
            raise FileNotFoundError(self.path)  # an empty file holds no rulings yet
        for statement in _split_sql(_SCHEMA):
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return SCHEMA_VERSION

    def _read(self, body: Callable[[sqlite3.Connection, int], T], absent: T) -> T:
        try:
            return self._run(False, body)
        except FileNotFoundError:
            return absent

    def _accounts_read(self, body: Callable[[sqlite3.Connection], T], absent: T) -> T:
        """Read account tables; a journal without them (new, or schema 1) has no accounts."""
        return self._read(lambda conn, version: body(conn) if version >= 2 else absent, absent)

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
                stored = _fetch(conn, version, new_id)
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
            _insert_revision(conn, new_id, rev, stamp, signed, account.name, draft)
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

    # -- accounts ---------------------------------------------------------------------------

    def add_account(self, name: str, role: str, password: str) -> Account:
        """A new judge's account (the command line's `users add`). Raises AccountError, JournalError."""
        name, role = accounts.check_name(name), accounts.check_role(role)
        pw_hash = accounts.hash_password(password, self.hasher)
        stamp = self._now_iso()
        self._run(True, lambda conn, _v: accounts.add(conn, name, role, pw_hash, stamp))
        return Account(name=name, role=role, created_at=stamp)

    def remove_account(self, name: str) -> None:
        self._run(True, lambda conn, _v: accounts.remove(conn, accounts.check_name(name)))

    def set_password(self, name: str, password: str) -> None:
        pw_hash = accounts.hash_password(password, self.hasher)
        self._run(True, lambda conn, _v: accounts.set_password(conn, accounts.check_name(name), pw_hash))

    def accounts(self) -> list[Account]:
        return self._accounts_read(accounts.listed, [])

    def sign_in(self, name: str, password: str, source: str = "") -> SignedIn:
        """Check the password and open a sign-in. `source` is where the attempt comes from (the
        client's address, else its tab; see `rulings.throttle`): wrong attempts slow that source.

        Raises:
            SignInError: wrong name or password (counted against the source), or the attempt is
                refused unchecked: the source's wait is not over, or the server has checked its
                passwords for this minute (`wait_s` says how long to wait).
            JournalError: the file cannot be used.
        """

        def body(conn: sqlite3.Connection, _version: int) -> tuple[SignedIn | None, SignInError | None]:
            now = self.clock()
            accounts.forget_expired(conn, now, self.idle_s)
            return accounts.sign_in(
                conn,
                name,
                password,
                now,
                source=source,
                max_checks=self.max_checks_per_minute,
                hasher=self.hasher,
            )

        signed, refusal = self._run(True, body)
        if refusal is not None or signed is None:
            raise refusal or SignInError("Неверное имя или пароль.")
        return signed

    def sign_out(self, who: SignedIn) -> None:
        self._run(True, lambda conn, _v: accounts.sign_out(conn, who))

    def require_judge(self, who: SignedIn | None, head: bool = False) -> Account:
        """The account of a valid sign-in (refreshing its inactivity timer), for any write that is
        not a ruling: making a rules version available to all, removing one.

        Raises:
            NotSignedInError: no sign-in, or it expired, or its account is gone.
            RulingLockedError: `head` is asked and the judge is not a head judge.
            JournalError: the file cannot be used.
        """

        def body(conn: sqlite3.Connection, version: int) -> Account:
            if version < 2:
                return accounts.authenticate(conn, None, 0.0, 0.0, touch=False)  # raises
            return accounts.authenticate(conn, who, self.clock(), self.idle_s, touch=True)

        account = self._run(True, body)
        if head and not account.is_head:
            raise RulingLockedError("Это может сделать только главный судья.")
        return account

    def signed_in(self, who: SignedIn | None) -> Account | None:
        """The account if the sign-in is still valid, else None; reading only (a page's rerun)."""
        if who is None:
            return None

        def body(conn: sqlite3.Connection) -> Account | None:
            try:
                return accounts.authenticate(conn, who, self.clock(), self.idle_s, touch=False)
            except PermissionError:
                return None

        return self._accounts_read(body, None)

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
            found = {r.id: r for r in _fetch_many(conn, version, wanted)}
            return [found[i] for i in wanted if i in found]

        return self._read(body, [])

    def get(self, ruling_id: int) -> Ruling | None:
        """One ruling with its history, or None.

        Raises:
            JournalError: the file is corrupt, foreign or unreadable.
        """
        return self._read(lambda conn, version: _fetch(conn, version, int(ruling_id)), None)

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


def _insert_revision(
    conn: sqlite3.Connection, ruling_id: int, rev: int, now: str, data: RulingInput, author: str, draft: str
) -> None:
    columns = ["ruling_id", "rev", "created_at", *TEXT_FIELDS, "clauses_json", "author", "draft_id"]
    values: list[object] = [ruling_id, rev, now, *(getattr(data, n) for n in TEXT_FIELDS)]
    values += [json.dumps(list(data.clauses), ensure_ascii=False), author, draft]
    marks = ", ".join("?" for _ in columns)
    # Column names come from our own constant tuple; every value is bound.
    conn.execute(f"INSERT INTO revisions ({', '.join(columns)}) VALUES ({marks})", values)


def _fetch(conn: sqlite3.Connection, version: int, ruling_id: int) -> Ruling | None:
    found = _fetch_many(conn, version, [ruling_id])
    return found[0] if found else None


def _fetch_many(conn: sqlite3.Connection, version: int, wanted: Sequence[int]) -> list[Ruling]:
    out: list[Ruling] = []
    for start in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
        chunk = list(wanted[start : start + 500])
        marks = ", ".join("?" for _ in chunk)
        rows = conn.execute(
            _select_revisions(version) + f" WHERE r.ruling_id IN ({marks}) ORDER BY r.ruling_id, r.rev", chunk
        ).fetchall()
        heads = conn.execute(_select_rulings(version) + f" WHERE id IN ({marks})", chunk).fetchall()
        out.extend(_group(rows, {int(h[0]): (str(h[1]), str(h[2]), str(h[3])) for h in heads}))
    return out


def _group(rows: Sequence[Sequence[object]], heads: Mapping[int, tuple[str, str, str]]) -> list[Ruling]:
    by_id: dict[int, list[Revision]] = {}
    n = len(TEXT_FIELDS)
    for row in rows:
        ruling_id, rev, created_at = int(str(row[0])), int(str(row[1])), str(row[2])
        texts = {name: str(row[3 + i]) for i, name in enumerate(TEXT_FIELDS)}
        try:
            clauses = tuple(str(c) for c in json.loads(str(row[3 + n])))
        except (json.JSONDecodeError, TypeError):
            clauses = ()
        data = RulingInput(clauses=clauses, **texts)
        revision = Revision(rev=rev, created_at=created_at, data=data, author=str(row[4 + n]))
        by_id.setdefault(ruling_id, []).append(revision)
    out = []
    for ruling_id, revs in by_id.items():
        created, locked_by, locked_at = heads.get(ruling_id, (revs[0].created_at, "", ""))
        out.append(
            Ruling(
                id=ruling_id,
                created_at=created,
                updated_at=revs[-1].created_at,
                current=revs[-1].data,
                revisions=tuple(revs),
                locked_by=locked_by,
                locked_at=locked_at,
            )
        )
    return out
