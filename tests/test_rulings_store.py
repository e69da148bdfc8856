"""The rulings journal's file: nothing a judge records is ever lost, altered or turned into SQL."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from rulings import model, store
from rulings.accounts import SignedIn
from rulings.model import JournalError, JournalLockedError, RulingInputError
from rulings.store import Journal
from tests import helpers
from tests.pg_server import PgServer
from tests.rulings_samples import HOSTILE, PASSWORD, cheap_hasher, journal_with_judge, raw_rows
from tests.rulings_samples import ruling as _ruling


def _writer(path: str, worker: int, count: int, by: SignedIn) -> None:
    j = Journal(path, busy_timeout_ms=60_000, max_writes_per_minute=10_000)
    for i in range(count):
        j.record(
            _ruling(title=f"Спор {worker}-{i}", decision=f"Решение {worker}-{i}", table_no=str(worker)), by
        )


def test_parallel_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "data" / "rulings.sqlite3"
    workers, count = 6, 20
    book = Journal(path, hasher=cheap_hasher())
    signed = []
    for w in range(workers):
        book.add_account(f"Судья {w}", "judge", PASSWORD)
        signed.append(book.sign_in(f"Судья {w}", PASSWORD))
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), w, count, signed[w])) for w in range(workers)]
    with helpers.processes(procs):
        for p in procs:
            p.join()
            assert p.exitcode == 0, f"процесс-писатель упал: код {p.exitcode}"
    rulings = Journal(path).rulings()
    titles = sorted(r.current.title for r in rulings)
    assert titles == sorted(f"Спор {w}-{i}" for w in range(workers) for i in range(count))
    assert len({r.id for r in rulings}) == workers * count
    for r in rulings:
        worker, i = r.current.title.removeprefix("Спор ").split("-")
        assert r.current.decision == f"Решение {worker}-{i}"
        assert r.current.table_no == worker
        assert r.author == f"Судья {worker}" and r.current.judge == f"Судья {worker}"
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_record_open_and_history(journal_target: str) -> None:
    j, by = journal_with_judge(journal_target)
    rid = j.record(_ruling(), by)
    second = _ruling(decision="Нет, и атака на Орка запрещена.", note="добавил про Орка")
    rev = j.amend(rid, second, by, base_rev=1)
    assert rev == 2
    more = _ruling(decision="Окончательно: нет.", clauses=("211.3.1", "535.8"), note="ещё пункт")
    rev = j.amend(rid, more, by, base_rev=2)
    ruling = j.get(rid)
    assert ruling is not None
    assert [r.rev for r in ruling.revisions] == [1, 2, 3]
    assert ruling.revisions[0].data.decision.startswith("Нет: Вайл может атаковать только")
    assert ruling.current.decision == "Окончательно: нет."
    assert ruling.current.clauses == ("211.3.1", "535.8")
    assert ruling.created_at == ruling.revisions[0].created_at
    assert ruling.updated_at == ruling.revisions[-1].created_at > ruling.created_at
    assert j.count() == 1
    assert j.get(rid + 1) is None
    assert [r.author for r in ruling.revisions] == ["Сидорова"] * 3
    with pytest.raises(KeyError):
        j.amend(rid + 1, _ruling(), by, base_rev=1)


def test_revisions_cannot_be_rewritten_even_by_hand(journal_target: str) -> None:
    path = journal_target
    j, by = journal_with_judge(path)
    rid = j.record(_ruling(), by)
    with pytest.raises(Exception, match="append-only"):
        raw_rows(path, f"UPDATE revisions SET decision = 'подделка' WHERE ruling_id = {rid}")
    with pytest.raises(Exception, match="append-only"):
        raw_rows(path, "DELETE FROM revisions")
    with pytest.raises(Exception, match="never deleted"):
        raw_rows(path, "DELETE FROM rulings")
    got = Journal(path).get(rid)
    assert got is not None and got.current.decision.startswith("Нет: Вайл")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_strings_stored_verbatim(journal_target: str, text: str) -> None:
    j, by = journal_with_judge(journal_target)
    rid = j.record(
        _ruling(title=text, decision=text, players=text, event=text, note=text, scenario_yaml=text[:300]), by
    )
    got = j.get(rid)
    assert got is not None
    for name in ("title", "decision", "players", "event", "note"):
        assert getattr(got.current, name) == text.strip() or getattr(got.current, name) == text
    assert got.current.scenario_yaml == text[:300]
    assert got.current.decision == text  # the decision is never trimmed
    # The tables are intact and nothing else was touched.
    assert j.count() == 1
    assert [h.ruling.id for h in j.search(text)] in ([rid], [])


def test_corrupt_file_gives_russian_message_and_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    garbage = b"this is not sqlite, it holds a judge's only copy " * 200
    path.write_bytes(garbage)
    j = Journal(path)
    calls = (j.rulings, j.count, lambda: j.record(_ruling(), None), lambda: j.search("Вайл"), j.accounts)
    for call in calls:
        with pytest.raises(JournalError) as err:
            call()
        message = str(err.value)
        assert "повреждён" in message and str(path) in message and "не перезаписывает" in message
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulings.sqlite3"]


def test_damaged_pages_are_reported_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    j, by = journal_with_judge(path, max_writes_per_minute=100)
    for i in range(30):
        j.record(_ruling(title=f"Спор {i}", decision="x" * 2000), by)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
        root = int(conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'revisions'").fetchone()[0])
    raw = bytearray(path.read_bytes())
    start = page * (root - 1)
    raw[start : start + 400] = b"\xff" * 400  # smash the revisions table's root page
    path.write_bytes(bytes(raw))
    with pytest.raises(JournalError) as err:
        Journal(path).rulings()
    assert str(path) in str(err.value)
    assert path.read_bytes() == bytes(raw)


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE accounts (name TEXT)")
        conn.execute("INSERT INTO accounts VALUES ('x')")
    before = path.read_bytes()
    with pytest.raises(JournalError, match="не журнал решений"):
        Journal(path).add_account("Сидорова", "head", PASSWORD)
    assert path.read_bytes() == before


def test_locked_file_gives_clear_message_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "rulings.sqlite3"
    j, by = journal_with_judge(path)
    first = j.record(_ruling(title="Первое решение"), by)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalLockedError) as err:
            Journal(path, busy_timeout_ms=200).record(_ruling(title="Второе решение"), by)
        message = str(err.value)
        assert "занят" in message and str(path) in message and "Повторите" in message
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    second = j.record(_ruling(title="Второе решение"), by)
    assert [r.current.title for r in sorted(j.rulings(), key=lambda r: r.id)] == [
        "Первое решение",
        "Второе решение",
    ]
    assert second == first + 1


def test_absent_file_is_an_empty_journal_and_is_not_created_by_reading(tmp_path: Path) -> None:
    path = tmp_path / "data" / "rulings.sqlite3"
    j = Journal(path)
    assert j.rulings() == [] and j.get(1) is None and j.count() == 0 and j.search("Вайл") == []
    assert not path.exists()
    assert j.accounts() == [] and j.signed_in(None) is None
    assert not path.exists()


def test_an_empty_database_is_an_empty_journal_and_reading_creates_nothing(postgres_server: PgServer) -> None:
    url = postgres_server.new_schema()
    j = Journal(url)
    assert j.rulings() == [] and j.get(1) is None and j.count() == 0 and j.search("Вайл") == []
    assert j.accounts() == [] and j.signed_in(None) is None
    assert raw_rows(url, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()") == []


def test_path_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(store.ENV_VAR, raising=False)
    assert store.default_path() == store.PROJECT_ROOT / "data" / "rulings.sqlite3"
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "elsewhere.sqlite3"))
    assert Journal().path == tmp_path / "elsewhere.sqlite3"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"title": "  "}, "Вопрос"),
        ({"decision": ""}, "Решение судьи"),
        ({"clauses": ("211.3.1", "DROP TABLE")}, "DROP TABLE"),
        ({"trace_json": "{не json"}, "Трассировка"),
        ({"note": "x" * (model.FIELD_LIMITS["note"] + 1)}, "Причина правки"),
        ({"title": "x" * (model.FIELD_LIMITS["title"] + 1)}, "Вопрос"),
        ({"judge_verdict": "ну вроде да"}, "Ответ судьи"),
        ({"clauses": tuple(f"211.{i}" for i in range(model.MAX_CLAUSES + 1))}, "Пунктов правил"),
    ],
)
def test_bad_input_is_refused_with_the_field_named(
    journal_target: str, kw: dict[str, object], message: str
) -> None:
    j, by = journal_with_judge(journal_target)
    with pytest.raises(RulingInputError, match=message):
        j.record(_ruling(**kw), by)  # type: ignore[arg-type]
    assert j.count() == 0


def test_an_empty_file_is_refused_and_never_initialised(tmp_path: Path) -> None:
    """A journal cut to 0 bytes is damage, not a new journal (issue 26): nothing reads as «Пока
    ничего нет» and no failed sign-in writes a fresh schema into it."""
    path = tmp_path / "rulings.sqlite3"
    path.write_bytes(b"")
    j = Journal(path, hasher=cheap_hasher())
    calls = (j.rulings, j.count, lambda: j.get(1), lambda: j.search("Вайл"), j.accounts)
    calls += (lambda: j.sign_in("Сидорова", PASSWORD), lambda: j.add_account("Сидорова", "head", PASSWORD))
    for call in calls:
        with pytest.raises(JournalError, match="пуст") as err:
            call()
        assert "restore" in str(err.value) and str(path) in str(err.value)
    assert path.read_bytes() == b""
