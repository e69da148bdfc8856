"""A journal that sees its own damage (issue 26, «Damage the journal does not see»): each defect
made in the test, on a real file, and what a judge is shown afterwards."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from rulings import backup, cli, sqlite_file
from rulings.model import JournalError
from rulings.store import Journal
from tests.rulings_samples import PASSWORD, cheap_hasher, journal_with_judge
from tests.rulings_samples import ruling as _ruling

MARK = "ПОВРЕЖДАЕМЫЙ-ТЕКСТ-РЕШЕНИЯ-" * 4


def _journal_of_three(path: Path) -> tuple[Journal, list[int]]:
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    ids = [
        book.record(_ruling(title=f"Спор {i}", decision=(MARK if i == 1 else f"Решение {i}.")), by)
        for i in range(3)
    ]
    sqlite_file.let_go(path)  # this process's handle on the file folds the WAL in and closes
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return book, ids


def test_a_journal_truncated_to_zero_bytes_is_refused_and_a_failed_sign_in_writes_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rulings.sqlite3"
    book, _ = _journal_of_three(path)
    path.write_bytes(b"")  # what a crash of a careless copy leaves
    for call in (book.rulings, lambda: book.sign_in("Сидорова", "неверный пароль")):
        with pytest.raises(JournalError, match="пуст") as err:
            call()
        assert "Пока ничего нет" not in str(err.value)
    assert path.read_bytes() == b""


def test_flipped_bytes_in_a_ruling_show_it_damaged_in_russian_and_the_rest_readable(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    _book, ids = _journal_of_three(path)
    raw = bytearray(path.read_bytes())
    at = raw.find(MARK.encode("utf-8"))
    assert at > 0
    raw[at + 10 : at + 20] = b"\xff" * 10  # ten bytes inside the decision's text
    path.write_bytes(bytes(raw))
    with sqlite3.connect(path) as conn:  # SQLite itself sees nothing wrong
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    listed = {r.id: r for r in Journal(path).rulings()}
    assert sorted(listed) == sorted(ids)
    damaged = listed[ids[1]]
    assert damaged.damaged == (1,) and "\ufffd" in damaged.current.decision
    assert all(not listed[i].damaged for i in (ids[0], ids[2]))
    assert listed[ids[0]].current.decision == "Решение 0."
    problems = Journal(path).problems()
    assert problems == [f"решение № {ids[1]}, редакция 1 повреждена"]
    # Nothing in English reaches a reader: the search and the export read the same rows.
    hits = Journal(path).search("Спор")
    assert {h.ruling.id for h in hits} == set(ids)


def test_a_changed_decision_that_is_still_utf8_fails_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    _journal_of_three(path)
    raw = path.read_bytes().replace("ПОВРЕЖДАЕМЫЙ".encode(), "ИСПРАВЛЕННЫЙ".encode(), 1)
    path.write_bytes(raw)
    assert any(r.damaged for r in Journal(path).rulings())


def test_backups_rotate_and_restore_brings_the_journal_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(backup.EVERY_ENV, "0")  # no automatic copy: this test makes its own
    path = tmp_path / "rulings.sqlite3"
    _book, ids = _journal_of_three(path)
    copies = [backup.make(path) for _ in range(backup.KEEP + 3)]
    assert backup.listed(path) == sorted(copies, reverse=True)[: backup.KEEP]
    path.write_bytes(b"")  # the journal is lost
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["restore", "--file", str(path)], out=out, err=err) == 0
    assert str(copies[-1]) in out.getvalue()
    assert cli.main(["restore", "latest", "--file", str(path)], out=out, err=err) == 0, err.getvalue()
    assert sorted(r.id for r in Journal(path).rulings()) == sorted(ids)
    assert list(tmp_path.glob("rulings.sqlite3.before-restore-*"))  # the damaged file is kept aside
    hurt = tmp_path / "hurt.sqlite3"
    hurt.write_bytes(b"garbage" * 100)
    code = cli.main(["restore", str(hurt), "--file", str(path)], out=out, err=err)
    assert code == 2 and "не прошла проверку" in err.getvalue()
    assert sorted(r.id for r in Journal(path).rulings()) == sorted(ids)


def test_writes_keep_a_backup_without_being_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(backup.EVERY_ENV, "30")
    path = tmp_path / "rulings.sqlite3"
    book, by = journal_with_judge(path)
    book.record(_ruling(), by)
    book.record(_ruling(title="Второй"), by)
    (only,) = backup.listed(path)  # one per half hour, not one per write
    assert Journal(only).count() == 1 and Journal(only).problems() == []


def test_init_creates_a_journal_and_refuses_an_empty_file(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "new" / "rulings.sqlite3"
    assert cli.main(["init", "--file", str(path)], out=out, err=err) == 0
    assert "Создан" in out.getvalue() and Journal(path).count() == 0
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    assert cli.main(["init", "--file", str(empty)], out=out, err=err) == 2
    assert "пуст" in err.getvalue() and empty.read_bytes() == b""
    assert Journal(path, hasher=cheap_hasher()).add_account("Орлов", "head", PASSWORD).name == "Орлов"
