"""Backups of a SQLite journal, made while judges write, and bringing one back.

`maybe_backup` runs after a committed write: when the newest backup is older than
`$BERSERK_BACKUP_MIN` minutes (default 30), it copies the journal with SQLite's online backup API
(a consistent snapshot, readers and writers go on) into `backups/` beside the file, named by the
time, and keeps the newest `KEEP`. A backup that fails never fails the judge's write: the
write is already safe, and the next write tries again.

`restore` checks a backup whole (SQLite's integrity check and every revision's checksum), moves the
damaged journal aside (nothing is deleted), and puts a copy of the backup in its place. Stop the
app first: a judge writing during the swap would write to the file being replaced.

A journal on PostgreSQL is backed up by the server's own tools (`pg_dump`; see data/README.md):
`backup` and `restore` say so and change nothing.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from rulings import accounts, sqlite_file
from rulings.model import JournalError

KEEP = 24
EVERY_ENV = "BERSERK_BACKUP_MIN"
DEFAULT_EVERY_MIN = 30.0
PG_HINT = (
    "Журнал на сервере PostgreSQL копирует сам сервер: `pg_dump -Fc -f журнал.dump URL` "
    "(по расписанию, например cron), вернуть — `pg_restore --clean -d URL журнал.dump` (data/README.md)."
)


def folder(path: Path | str) -> Path:
    if not isinstance(path, Path):
        raise JournalError(PG_HINT)
    return path.parent / "backups"


def every_s() -> float:
    return max(accounts.minutes_from_env(EVERY_ENV, DEFAULT_EVERY_MIN), 0.0) * 60.0


def listed(path: Path | str) -> list[Path]:
    """The journal's backups, newest first."""
    if not isinstance(path, Path):
        return []
    where = folder(path)
    return sorted(where.glob(f"{path.stem}-*.sqlite3"), reverse=True) if where.is_dir() else []


def make(path: Path | str, now: dt.datetime | None = None) -> Path:
    """A backup now (online: writers wait only for the page copy); returns its path.

    Raises:
        JournalError: the journal is on PostgreSQL, damaged, or the folder cannot be written.
    """
    where = folder(path)
    assert isinstance(path, Path)
    moment = (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%d-%H%M%S-%f")
    target = where / f"{path.stem}-{moment}.sqlite3"
    tmp = where / f".{target.name}.part"
    try:
        where.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = DELETE")
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(tmp, target)
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise JournalError(f"Резервная копия журнала не сделана ({exc}).", f"Папка копий: {where}") from None
    for old in listed(path)[KEEP:]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target


def maybe_backup(path: Path | str) -> Path | None:
    """A backup if the newest is older than the interval (SQLite only); never raises."""
    if not isinstance(path, Path) or every_s() <= 0:
        return None
    found = listed(path)
    if found:
        try:
            age = time.time() - found[0].stat().st_mtime
        except OSError:
            age = every_s()
        if age < every_s():
            return None
    try:
        return make(path)
    except JournalError:
        return None


def restore(path: Path | str, backup: Path, problems: Callable[[Path], list[str]]) -> Path:
    """Put `backup` in place of the journal at `path`; returns where the replaced file was moved.
    `problems(backup)` must find nothing wrong with the copy (`Journal.problems`).

    Raises:
        JournalError: the journal is on PostgreSQL, or the backup is missing or fails its checks
            (then nothing is changed).
    """
    if not isinstance(path, Path):
        raise JournalError(PG_HINT)
    if not backup.is_file():
        raise JournalError(f"Резервной копии нет: {backup}.")
    try:
        found = problems(backup)
    except JournalError as exc:
        found = [exc.public]
    if found:
        raise JournalError("Резервная копия не прошла проверку, журнал не изменён: " + "; ".join(found[:5]))
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    sqlite_file.let_go(path)  # this process's handle folds the WAL in first, so the file set aside is whole
    aside = path.with_name(f"{path.name}.before-restore-{stamp}")
    tmp = path.with_name(f".{path.name}.restore")
    shutil.copyfile(backup, tmp)
    if path.exists():
        os.replace(path, aside)
    for extra in ("-wal", "-shm"):
        leftover = Path(f"{path}{extra}")
        if leftover.exists():
            os.replace(leftover, Path(f"{aside}{extra}"))
    os.replace(tmp, path)
    return aside
