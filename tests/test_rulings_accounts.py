"""Judges' accounts and the journal's write checks: the API itself refuses what a page must not do."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import rules_index
from rulings import accounts, cli, sqlite_file, store
from rulings.accounts import SignedIn
from rulings.model import (
    JournalError,
    NotSignedInError,
    RateLimitError,
    RulingConflictError,
    RulingInputError,
    RulingLockedError,
    SignInError,
)
from rulings.store import Journal, require_judge
from tests import helpers
from tests.rulings_samples import PASSWORD, CountingHasher, cheap_hasher, journal_with_judge, raw_rows
from tests.rulings_samples import ruling as _ruling


class Clock:
    """A hand-moved clock: delays are counted, not waited for."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_no_account_by_default_and_no_write_without_a_signed_in_judge(journal_target: str) -> None:
    path = journal_target
    book = Journal(path, hasher=cheap_hasher())
    assert book.accounts() == []
    with pytest.raises(NotSignedInError, match="только судья"):
        book.record(_ruling(), None)
    forged = SignedIn(name="Главный судья Иванов", role="head", token="x" * 43)
    with pytest.raises(NotSignedInError, match="недействителен"):
        book.record(_ruling(), forged)
    book.add_account("Сидорова", "judge", PASSWORD)
    real = book.sign_in("Сидорова", PASSWORD)
    # The name and role of a sign-in are not trusted: only the stored token counts.
    with pytest.raises(NotSignedInError):
        book.record(_ruling(), dataclasses.replace(real, name="Иванов"))
    with pytest.raises(NotSignedInError):
        # Alter the last character to one it is not (a token ends in «A» once in 64).
        altered = real.token[:-1] + ("B" if real.token.endswith("A") else "A")
        book.record(_ruling(), dataclasses.replace(real, token=altered))
    assert book.count() == 0
    rid = book.record(_ruling(judge="Главный судья Иванов"), real)
    got = book.get(rid)
    assert got is not None and got.author == "Сидорова" and got.current.judge == "Сидорова"
    assert "token" not in repr(real) and real.token not in repr(real)
    stored = " ".join(str(v) for row in raw_rows(path, "SELECT * FROM accounts, sessions") for v in row)
    assert PASSWORD not in stored and real.token not in stored


def test_sign_in_expires_after_inactivity_and_activity_extends_it(journal_target: str) -> None:
    clock = Clock()
    book, by = journal_with_judge(journal_target, clock=clock, idle_s=600)
    clock.now += 590
    assert book.signed_in(by) is not None
    book.record(_ruling(title="Первый"), by)  # a write is activity
    clock.now += 590
    book.record(_ruling(title="Второй"), by)
    clock.now += 601
    assert book.signed_in(by) is None
    with pytest.raises(NotSignedInError, match="Вход истёк"):
        book.record(_ruling(title="Третий"), by)
    assert book.count() == 2
    again = book.sign_in("Сидорова", PASSWORD)
    assert book.record(_ruling(title="Третий"), again) == 3


def test_wrong_passwords_slow_down_their_source_counted_not_timed(journal_target: str) -> None:
    clock = Clock()
    book, _ = journal_with_judge(journal_target, clock=clock)
    phone = "ip:192.168.1.23"
    waits: list[float] = []
    refused_unchecked = 0
    for _attempt in range(8):
        try:
            book.sign_in("Сидорова", "неверный пароль", source=phone)
        except SignInError as exc:
            waits.append(exc.wait_s)
        # Straight away, even the right password from that source is refused while a wait is on.
        if waits[-1]:
            with pytest.raises(SignInError, match="с этого устройства") as err:
                book.sign_in("Сидорова", PASSWORD, source=phone)
            assert err.value.wait_s == pytest.approx(waits[-1])
            refused_unchecked += 1
        clock.now += waits[-1]
    assert waits == [0, 0, 1, 2, 4, 8, 16, 32]
    assert refused_unchecked == 6
    signed = book.sign_in("Сидорова", PASSWORD, source=phone)  # the wait is over: the right password works
    assert signed.name == "Сидорова"
    with pytest.raises(SignInError) as err:
        book.sign_in("Сидорова", "снова неверный", source=phone)
    assert err.value.wait_s == 0  # a success starts the count again
    # Other names from the same source share its count: random names do not buy free guesses.
    for name in ("Никто", "Петров", "Орлов"):
        with pytest.raises(SignInError) as err:
            book.sign_in(name, "что-нибудь", source=phone)
    assert err.value.wait_s == 1
    with pytest.raises(SignInError, match="Следующая попытка — через 1 с"):
        book.sign_in("Кто-то ещё", "что-нибудь", source=phone)
    # An unknown name is refused with the same words as a wrong password.
    messages = set()
    for i in range(2):
        with pytest.raises(SignInError) as err:
            book.sign_in("Никто", "что-нибудь", source=f"ip:10.0.0.{i}")
        messages.add(str(err.value))
    assert messages == {"Неверное имя или пароль."}


def test_a_players_guesses_do_not_lock_the_judge_out(journal_target: str) -> None:
    clock = Clock()
    book, _ = journal_with_judge(journal_target, name="Иванов", role="head", clock=clock)
    player = "ip:192.168.1.50"
    for _ in range(12):  # a player in the hall types «Иванов» with wrong passwords, again and again
        with contextlib.suppress(SignInError):
            book.sign_in("Иванов", "угадываю", source=player)
        clock.now += 1
    with pytest.raises(SignInError, match="с этого устройства"):
        book.sign_in("Иванов", PASSWORD, source=player)
    # The head judge at once, from his own laptop's tab or his phone: let in at the first try.
    assert book.sign_in("Иванов", PASSWORD, source="tab:ноутбук").name == "Иванов"
    assert book.sign_in("Иванов", PASSWORD, source="ip:192.168.1.7").name == "Иванов"
    with pytest.raises(SignInError, match="с этого устройства"):
        book.sign_in("Иванов", "угадываю", source=player)  # and the player still waits


def test_the_server_wide_cap_refuses_without_hashing(journal_target: str) -> None:
    clock = Clock()
    hasher = CountingHasher()
    path = journal_target
    book = Journal(path, clock=clock, hasher=hasher, max_checks_per_minute=5)
    book.add_account("Сидорова", "judge", PASSWORD)
    # Five devices with random names use up the minute's checks (each its first, free, attempt).
    for i in range(5):
        with pytest.raises(SignInError, match="Неверное имя или пароль"):
            book.sign_in(f"Случайное имя {i}", "что-нибудь", source=f"ip:10.0.0.{i}")
        clock.now += 1
    hashed = hasher.verified
    assert hashed == 5  # an unknown name costs a hash as a known one does (no probing for names)
    for i in range(5, 50):
        with pytest.raises(SignInError, match="не больше 5 паролей в минуту") as err:
            book.sign_in(f"Случайное имя {i}", "что-нибудь", source=f"ip:10.0.0.{i}")
    assert err.value.wait_s == pytest.approx(55.0) and "Подождите 55 с" in str(err.value)
    with pytest.raises(SignInError, match="в минуту"):
        book.sign_in("Сидорова", PASSWORD, source="ip:192.168.1.7")  # right, but not checked now
    assert hasher.verified == hashed
    clock.now += 55.5  # the first check left the window: one more may be made
    assert book.sign_in("Сидорова", PASSWORD, source="ip:192.168.1.7").name == "Сидорова"
    assert hasher.verified == hashed + 1
    # The log keeps only the last minute's checks.
    assert raw_rows(path, "SELECT COUNT(*) FROM password_checks") == [(5,)]


def test_the_throttle_is_shared_by_journals_on_one_file(journal_target: str) -> None:
    clock = Clock()
    path = journal_target
    journal_with_judge(path, clock=clock)
    first = Journal(path, clock=clock, hasher=cheap_hasher(), max_checks_per_minute=5)
    second = Journal(path, clock=clock, hasher=cheap_hasher(), max_checks_per_minute=5)
    for book in (first, second, first):
        with pytest.raises(SignInError, match="Неверное"):
            book.sign_in("Сидорова", "неверный пароль", source="tab:1")
    # Another handle (another process, tab or request) sees the source's wait…
    with pytest.raises(SignInError, match="с этого устройства"):
        second.sign_in("Сидорова", PASSWORD, source="tab:1")
    # …and the checks both handles made (and the first sign-in) count against one server-wide cap.
    assert second.sign_in("Сидорова", PASSWORD, source="tab:2").name == "Сидорова"
    with pytest.raises(SignInError, match="не больше 5 паролей в минуту"):
        first.sign_in("Сидорова", PASSWORD, source="tab:3")


def test_an_expired_sign_in_says_seconds_under_a_minute(journal_target: str) -> None:
    clock = Clock()
    book, by = journal_with_judge(journal_target, clock=clock, idle_s=45)
    clock.now += 46
    with pytest.raises(NotSignedInError, match="больше 45 с без действий"):
        book.record(_ruling(), by)
    assert accounts.idle_text(1800) == "30 мин" and accounts.idle_text(90) == "1,5 мин"
    assert accounts.idle_text(0.2) == "1 с"


def test_removed_account_and_changed_password_end_sign_ins(journal_target: str) -> None:
    book, by = journal_with_judge(journal_target)
    book.set_password("Сидорова", "новый-пароль-2")
    with pytest.raises(NotSignedInError):
        book.record(_ruling(), by)
    with pytest.raises(SignInError):
        book.sign_in("Сидорова", PASSWORD)
    by = book.sign_in("Сидорова", "новый-пароль-2")
    rid = book.record(_ruling(), by)
    book.remove_account("Сидорова")
    with pytest.raises(NotSignedInError):
        book.record(_ruling(), by)
    got = book.get(rid)
    assert got is not None and got.author == "Сидорова"  # the ruling keeps who wrote it


def test_head_judge_locks_a_ruling_and_a_judge_cannot(journal_target: str) -> None:
    book, judge = journal_with_judge(journal_target)
    book.add_account("Орлов", "head", PASSWORD)
    head = book.sign_in("Орлов", PASSWORD)
    rid = book.record(_ruling(), judge)
    with pytest.raises(RulingLockedError, match="только главный судья"):
        book.set_locked(rid, judge)
    book.set_locked(rid, head)
    got = book.get(rid)
    assert got is not None and got.locked_by == "Орлов" and got.locked_at
    for who in (judge, head):
        with pytest.raises(RulingLockedError, match="закреплено"):
            book.amend(rid, _ruling(note="поправка"), who, base_rev=1)
    book.set_locked(rid, head, locked=False)
    assert book.amend(rid, _ruling(note="поправка"), judge, base_rev=1) == 2
    with pytest.raises(KeyError):
        book.set_locked(rid + 5, head)


def test_concurrent_amendment_is_a_conflict_not_a_loss(journal_target: str) -> None:
    book, a = journal_with_judge(journal_target)
    book.add_account("Орлов", "judge", PASSWORD)
    b = book.sign_in("Орлов", PASSWORD)
    rid = book.record(_ruling(decision="Первое"), a)
    # Both opened revision 1; A saves first.
    assert book.amend(rid, _ruling(decision="Правка A", note="A"), a, base_rev=1) == 2
    mine = _ruling(decision="Правка B", note="B")
    with pytest.raises(RulingConflictError) as err:
        book.amend(rid, mine, b, base_rev=1)
    conflict = err.value
    assert conflict.base_rev == 1 and conflict.current.rev == 2
    assert conflict.current.current.decision == "Правка A"
    assert conflict.current.revisions[-1].author == "Сидорова" and "Сидорова" in str(conflict)
    got = book.get(rid)
    assert got is not None and got.rev == 2  # nothing written by the refused save
    # B saves on top of the colleague's revision, knowingly.
    assert book.amend(rid, mine, b, base_rev=conflict.current.rev) == 3
    got = book.get(rid)
    assert got is not None
    assert [r.data.decision for r in got.revisions] == ["Первое", "Правка A", "Правка B"]
    assert [r.author for r in got.revisions] == ["Сидорова", "Сидорова", "Орлов"]
    with pytest.raises(TypeError):
        book.write(rid, mine, b)  # an amendment must say which revision it started from


def test_a_repeated_submit_of_one_draft_records_once(journal_target: str) -> None:
    book, by = journal_with_judge(journal_target)
    first = book.write(None, _ruling(), by, draft_id="черновик-1")
    again = book.write(None, _ruling(), by, draft_id="черновик-1")
    assert (first.ruling_id, first.repeated) == (1, False)
    assert (again.ruling_id, again.rev, again.repeated) == (1, 1, True)
    assert book.count() == 1
    amended = book.write(1, _ruling(note="x"), by, base_rev=1, draft_id="правка-1")
    twice = book.write(1, _ruling(note="x"), by, base_rev=1, draft_id="правка-1")
    assert (amended.rev, twice.rev, twice.repeated) == (2, 2, True)
    got = book.get(1)
    assert got is not None and got.rev == 2
    assert book.record(_ruling(), by, draft_id="черновик-2") == 2
    # A stale second press under a new draft id, with the text already saved: still nothing new.
    stale = book.write(1, _ruling(note="x"), by, base_rev=2, draft_id="правка-2")
    assert (stale.rev, stale.repeated) == (2, True)


def test_a_judge_writing_too_fast_is_stopped(journal_target: str) -> None:
    clock = Clock()
    book, by = journal_with_judge(journal_target, clock=clock, max_writes_per_minute=3)
    for i in range(3):
        book.record(_ruling(title=f"Спор {i}"), by)
        clock.now += 1
    with pytest.raises(RateLimitError, match="в минуту"):
        book.record(_ruling(title="Лишний"), by)
    assert book.count() == 3
    clock.now += 60
    assert book.record(_ruling(title="Через минуту"), by) == 4


def test_cited_clauses_are_checked_against_the_loaded_rules(journal_target: str) -> None:
    index = rules_index.load_default()
    book, by = journal_with_judge(journal_target)
    with pytest.raises(RulingInputError, match=r"Пункта 999\.9 нет в загруженных правилах") as err:
        book.record(_ruling(clauses=("211.3.1", "999.9")), by, rules=index, assumptions={"A1", "A2"})
    near = index.nearest_ids("999.9", 5)
    assert near and all(n in str(err.value) for n in near)
    with pytest.raises(RulingInputError, match="Допущения A99 нет"):
        book.record(_ruling(clauses=("A99",)), by, rules=index, assumptions={"A1", "A2"})
    assert book.count() == 0
    rid = book.record(_ruling(clauses=("211.3.1", "A1")), by, rules=index, assumptions={"A1"})
    got = book.get(rid)
    assert got is not None and got.current.clauses == ("211.3.1", "A1")


def test_the_guard_for_rules_versions(journal_target: str) -> None:
    book, judge = journal_with_judge(journal_target)
    assert require_judge(judge, book).name == "Сидорова"
    with pytest.raises(NotSignedInError, match="войдите"):
        require_judge(None, book)
    with pytest.raises(RulingLockedError, match="только главный судья"):
        require_judge(judge, book, head=True)
    book.add_account("Орлов", "head", PASSWORD)
    assert require_judge(book.sign_in("Орлов", PASSWORD), book, head=True).is_head


def test_a_truncated_journal_is_never_written_and_never_grows(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    book, by = journal_with_judge(path, max_writes_per_minute=100)
    for i in range(40):
        book.record(_ruling(title=f"Спор {i}", decision="Решение " * 200), by)
    sqlite_file.let_go(path)  # this process's handle on the file folds the WAL in and closes
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])
    before = path.read_bytes()
    for i in range(5):
        with pytest.raises(JournalError, match="повреждён") as err:
            Journal(path).record(_ruling(title=f"После порчи {i}"), by)
        assert "не перезаписывает" in str(err.value) and str(path) not in err.value.public
    for call in (
        lambda: Journal(path, hasher=cheap_hasher()).add_account("Новый", "judge", PASSWORD),
        lambda: Journal(path).sign_in("Сидорова", PASSWORD),
        lambda: Journal(path).set_locked(1, by),
    ):
        with pytest.raises(JournalError, match="повреждён"):
            call()
    assert path.read_bytes() == before
    # Nothing new beside it (the backups folder holds the copy the first good write made).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backups", "j.sqlite3"]
    assert len(list((tmp_path / "backups").iterdir())) == 1


def _first_writer(paths: list[str], worker: int, errors: multiprocessing.Queue[str], start: Any) -> None:
    start.wait()  # all processes start writing together
    for p in paths:
        book = Journal(p, hasher=cheap_hasher())
        try:
            book.add_account(f"Судья {worker}", "judge", PASSWORD)  # the first write to a new file
            by = book.sign_in(f"Судья {worker}", PASSWORD)
            book.record(_ruling(title=f"Спор {worker}"), by)
        except Exception as exc:  # counted by the test: any refusal is a failure
            errors.put(f"{p}: {type(exc).__name__}: {exc}")


def test_concurrent_first_writers_of_new_files_all_succeed(tmp_path: Path) -> None:
    workers, files = 4, 30
    paths = [str(tmp_path / f"new-{i}" / "rulings.sqlite3") for i in range(files)]
    ctx = multiprocessing.get_context("spawn")
    errors: multiprocessing.Queue[str] = ctx.Queue()
    start = ctx.Barrier(workers)
    procs = [ctx.Process(target=_first_writer, args=(paths, w, errors, start)) for w in range(workers)]
    with helpers.processes(procs):
        for p in procs:
            p.join()
            assert p.exitcode == 0
    refused = []
    while not errors.empty():
        refused.append(errors.get())
    assert refused == []
    for path in paths:
        book = Journal(path)
        assert sorted(a.name for a in book.accounts()) == [f"Судья {w}" for w in range(workers)]
        assert sorted(r.current.title for r in book.rulings()) == [f"Спор {w}" for w in range(workers)]


def test_a_journal_of_schema_1_is_read_and_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    fields = "title, decision, outcome, event, table_no, round, players, judge, rules_version, verdict"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE rulings (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL)")
        cols = ", ".join(f"{c} TEXT NOT NULL" for c in fields.split(", "))
        conn.execute(
            f"CREATE TABLE revisions (ruling_id INTEGER, rev INTEGER, created_at TEXT, {cols}, "
            "scenario_yaml TEXT, trace_json TEXT, note TEXT, clauses_json TEXT, PRIMARY KEY (ruling_id, rev))"
        )
        conn.execute("INSERT INTO rulings VALUES (1, '2024-11-09T11:05:00+00:00')")
        conn.execute(
            "INSERT INTO revisions VALUES (1, 1, '2024-11-09T11:05:00+00:00', 'Старый спор', 'Да.', '', "
            "'', '', '', '', 'Петров (текстом)', '', 'legal', '', '', '', '[\"211.3\"]')"
        )
        conn.execute("PRAGMA application_id = 1111839315")
        conn.execute("PRAGMA user_version = 1")
    old = Journal(path).get(1)
    assert old is not None and old.current.judge == "Петров (текстом)" and old.author == ""
    assert Journal(path).accounts() == []
    book, by = journal_with_judge(path)
    assert book.amend(1, _ruling(title="Старый спор", note="уточнил"), by, base_rev=1) == 2
    got = book.get(1)
    assert got is not None and [r.author for r in got.revisions] == ["", "Сидорова"]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION


def test_a_journal_of_schema_2_drops_its_per_name_waits(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    book, by = journal_with_judge(path)
    rid = book.record(_ruling(), by)
    with sqlite3.connect(path) as conn:  # the file as schema 2 left it: a name locked for minutes
        conn.execute("DROP TABLE sign_in_sources")
        conn.execute("DROP TABLE password_checks")
        conn.execute("CREATE TABLE sign_in_failures (name TEXT PRIMARY KEY, failures INTEGER, last_at REAL)")
        conn.execute("INSERT INTO sign_in_failures VALUES ('Сидорова', 9, 1e12)")
        conn.execute("PRAGMA user_version = 2")
    assert Journal(path).get(rid) is not None
    assert Journal(path, hasher=cheap_hasher()).sign_in("Сидорова", PASSWORD).name == "Сидорова"
    with sqlite3.connect(path) as conn:
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    assert "sign_in_failures" not in tables and {"sign_in_sources", "password_checks"} <= tables


def test_account_names_and_passwords_are_checked() -> None:
    assert accounts.check_name("  Анна   Петрова ") == "Анна Петрова"
    for bad in ("", "  ", "x" * 41, "a;DROP", "имя\x00", "_под"):
        with pytest.raises(accounts.AccountError):
            accounts.check_name(bad)
    for bad in ("коротко", " с пробелом ", "x" * 300):
        with pytest.raises(accounts.AccountError):
            accounts.check_password(bad)
    with pytest.raises(accounts.AccountError, match="judge"):
        accounts.check_role("admin")


# -- the command line ---------------------------------------------------------------------------


def _cli(path: Path, *args: str, stdin: str = "", prompts: tuple[str, ...] = ()) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    answers = iter(prompts)
    code = cli.main(
        ["users", *args, "--file", str(path)],
        out=out,
        err=err,
        stdin=_Tty(stdin) if prompts else io.StringIO(stdin),
        prompt=lambda _label: next(answers),
    )
    return code, out.getvalue(), err.getvalue()


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_users_commands(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    code, out, _ = _cli(path, "list")
    assert code == 0 and "Учётных записей нет" in out and "--role head" in out
    code, out, err = _cli(path, "add", "Орлов", "--role", "head", stdin=PASSWORD + "\n")
    assert (code, err) == (0, "") and "Орлов (главный судья)" in out
    code, _, err = _cli(path, "add", "Сидорова", "--role", "judge", prompts=(PASSWORD, PASSWORD + "x"))
    assert code == 2 and "не совпали" in err
    code, _, _ = _cli(path, "add", "Сидорова", "--role", "judge", prompts=(PASSWORD, PASSWORD))
    assert code == 0
    code, _, err = _cli(path, "add", "Сидорова", "--role", "judge", stdin=PASSWORD)
    assert code == 2 and "уже есть" in err
    code, out, _ = _cli(path, "list")
    assert code == 0 and out.splitlines()[0].startswith("Орлов\tглавный судья")
    assert out.splitlines()[1].startswith("Сидорова\tсудья")
    code, _, err = _cli(path, "add", "Петров", stdin=PASSWORD)
    assert code == 2 and "--role" in err
    code, _, err = _cli(path, "add", "Петров", "--role", "judge", stdin="корот")
    assert code == 2 and "короче" in err
    code, out, _ = _cli(path, "passwd", "Сидорова", stdin="другой-пароль\n")
    assert code == 0 and "сменён" in out
    assert Journal(path).sign_in("Сидорова", "другой-пароль").name == "Сидорова"
    code, out, _ = _cli(path, "remove", "Сидорова")
    assert code == 0 and "удалена" in out
    code, _, err = _cli(path, "remove", "Сидорова")
    assert code == 2 and "нет" in err
    code, _, err = _cli(path, "frobnicate")
    assert code == 2 and "Использование" in err
    assert [a.name for a in Journal(path).accounts()] == ["Орлов"]


def test_rules_versions_are_shared_and_removed_only_by_a_signed_in_judge(tmp_path: Path) -> None:
    from rules_index import versions
    from rulings import guard

    book, judge = journal_with_judge(tmp_path / "j.sqlite3")
    shop = versions.VersionStore(tmp_path / "rules")
    files = [("r.txt", "900. Раздел.\n900.1. Пункт.\nРП 9.9 от 01.01.2030".encode())]
    info = shop.save(files, rules_index.load_texts(files), berserk=True)
    with pytest.raises(NotSignedInError):
        guard.publish_rules_version(None, shop, info.id, journal=book)
    with pytest.raises(NotSignedInError):
        guard.publish_rules_version(dataclasses.replace(judge, token="x"), shop, info.id, journal=book)
    assert shop.versions(shared_only=True) == []  # nothing changed
    account, shared = guard.publish_rules_version(judge, shop, info.id, make_default=True, journal=book)
    assert account.name == "Сидорова" and shared is not None and shared.shared
    assert shop.default_id() == info.id
    with pytest.raises(NotSignedInError):
        guard.remove_rules_version(None, shop, info.id, journal=book)
    assert shop.get(info.id) is not None
    _, removed = guard.remove_rules_version(judge, shop, info.id, journal=book)
    assert removed.id == info.id and shop.get(info.id) is None
