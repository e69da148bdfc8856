"""The process's handle on a SQLite journal (issue 25, record/amend speed): while it is open a
request's connection closing does not fold the WAL into the file and delete it, the file alone is
whole once writes stop, and the handle never writes to a file put at the journal's path."""

from __future__ import annotations

import io
import os
import shutil
import time
from pathlib import Path

import pytest

from rulings import backup, cli, sqlite_file
from rulings.store import Journal
from tests.rulings_samples import journal_with_judge
from tests.rulings_samples import ruling as _ruling


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _idle_fold_done(path: Path, bound_s: float = 10.0) -> None:
    """Wait (bounded) until the holder's thread has folded the WAL in: it leaves the WAL empty."""
    deadline = time.monotonic() + bound_s
    while time.monotonic() < deadline:
        wal = _wal(path)
        if wal.exists() and wal.stat().st_size == 0:
            return
        time.sleep(0.05)


def test_a_write_leaves_the_wal_in_place_for_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    book.record(_ruling(title="Первый спор"), by)
    first = _wal(path).stat().st_size  # still there, holding the write, after its connection closed
    assert first > 0
    book.record(_ruling(title="Второй спор"), by)
    assert _wal(path).stat().st_size > first  # appended to, not folded into the file and deleted
    assert sorted(r.current.title for r in Journal(path).rulings()) == ["Второй спор", "Первый спор"]


def test_the_file_alone_holds_every_ruling_once_writes_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_file, "IDLE_S", 0.2)
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    rid = book.record(_ruling(title="Спор о паразите"), by)
    _idle_fold_done(path)
    copy = tmp_path / "copy" / "rulings.sqlite3"
    copy.parent.mkdir()
    shutil.copyfile(path, copy)  # a judge's hand copy of the one file, without -wal and -shm
    got = Journal(copy).get(rid)
    assert got is not None and got.current.title == "Спор о паразите"


def test_the_handle_never_writes_a_file_put_in_the_journals_place(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    book.record(_ruling(title="Спор"), by)  # committed pages wait in the WAL; the handle is open
    garbage = b"not a database " * 300
    other = tmp_path / "other.bin"
    other.write_bytes(garbage)
    os.replace(other, path)  # another file at the path (a new inode)
    for extra in ("-wal", "-shm"):
        path.with_name(path.name + extra).unlink()
    assert sqlite_file.fold(str(path)) is False  # not a journal: nothing folded into it
    sqlite_file.let_go(path)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backups", "rulings.sqlite3"]


def test_a_fold_creates_no_file_where_the_journal_was_removed(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    book.record(_ruling(), by)
    sqlite_file.let_go(path)
    for p in tmp_path.glob("rulings.sqlite3*"):
        p.unlink()
    assert sqlite_file.fold(str(path)) is False
    assert not path.exists()


def test_restore_in_the_same_process_sets_a_whole_file_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(backup.EVERY_ENV, "0")
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    kept = book.record(_ruling(title="До копии"), by)
    backup.make(path)
    later = book.record(_ruling(title="После копии"), by)  # in the WAL, under the process's handle
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["restore", "latest", "--file", str(path)], out=out, err=err) == 0, err.getvalue()
    assert [r.id for r in Journal(path).rulings()] == [kept]
    (aside,) = tmp_path.glob("rulings.sqlite3.before-restore-*[0-9]")
    alone = tmp_path / "alone" / "set-aside.sqlite3"
    alone.parent.mkdir()
    shutil.copyfile(aside, alone)  # the file set aside, without its -wal: nothing of it is missing
    assert sorted(r.id for r in Journal(alone).rulings()) == [kept, later]
    # The journal put back takes writes at once, through a new handle on the new file.
    assert book.record(_ruling(title="После возврата"), by) != kept
    assert len(Journal(path).rulings()) == 2


def test_a_forked_child_writes_through_a_handle_of_its_own(tmp_path: Path) -> None:
    """A process forked while its parent holds the journal (multiprocessing's default on Linux)
    writes and reads normally, and the parent goes on after it."""
    import multiprocessing

    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    book.record(_ruling(title="Родитель"), by)
    child = multiprocessing.get_context("fork").Process(target=_record_in_child, args=(str(path),))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0
    book.record(_ruling(title="Родитель снова"), by)
    assert sorted(r.current.title for r in Journal(path).rulings()) == [
        "Ребёнок",
        "Родитель",
        "Родитель снова",
    ]


def _record_in_child(path: str) -> None:
    book = Journal(path, max_writes_per_minute=100)
    from tests.rulings_samples import PASSWORD

    by = book.sign_in("Сидорова", PASSWORD)
    book.record(_ruling(title="Ребёнок"), by)
    os._exit(0 if Journal(path).count() == 2 else 1)


def test_letting_go_leaves_the_journal_as_one_file(tmp_path: Path) -> None:
    """At the process's exit (or before `restore`): the WAL folded in and its files gone, as a
    journal without a running app always was."""
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    rid = book.record(_ruling(title="Последний спор"), by)
    assert _wal(path).exists()
    sqlite_file.let_go(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backups", "rulings.sqlite3"]
    got = Journal(path).get(rid)
    assert got is not None and got.current.title == "Последний спор"
