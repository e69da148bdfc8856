"""Sample rulings for the journal's tests: a real dispute and text chosen to break storage or markup."""

from __future__ import annotations

import os
from typing import Any, Literal

import argon2

from rulings.accounts import SignedIn
from rulings.model import RulingInput
from rulings.store import Journal

# Text a judge might type, or an attacker paste: SQL, HTML, Markdown, paths, fences, odd Unicode.
HOSTILE = [
    "'); DROP TABLE rulings; --",
    "Robert'); DELETE FROM revisions WHERE 1=1; --\"",
    "<script>alert('x')</script><img src=x onerror=alert(1)>",
    "[ссылка](javascript:alert(1)) ![картинка](http://example.com/a.png) <http://example.com>",
    "# Заголовок\n- пункт\n1. список\n> цитата\n    код с отступом\n---",
    "**жирный** _курсив_ `код` ~~зачёркнутый~~ | таблица | ::: $формула$",
    "../../etc/passwd ..\\..\\windows\\system32 /abs/path C:\\x\\y",
    "```\nзакрытие блока кода\n````",
    "Кавычки «ёлочки» ‘’ “” и апостроф Бул'Багур; символ NUL-подобный \u2028 и эмодзи 🃏",
    "&amp; &lt;не сущность&gt; \\ обратная косая \\\\ двойная",
    "www.example.com http://example.com:8080/x?y=1",
]


def ruling(title: str = "Может ли Вайл атаковать не Карлика Унда?", **kw: object) -> RulingInput:
    """The Вайл and Карлик Унд dispute with every field filled; `kw` replaces fields."""
    fields: dict[str, object] = {
        "title": title,
        "decision": "Нет: Вайл может атаковать только Карлика Унда (п. 211.3.1).",
        "clauses": ("211.3.1",),
        "event": "Кубок города",
        "table_no": "7",
        "round": "3",
        "players": "Иванов — Петров",
        "rules_version": "РП 4.1-2",
        "verdict": "illegal",
        "outcome": "атака отменена",
    }
    fields.update(kw)
    return RulingInput(**fields)  # type: ignore[arg-type]


PASSWORD = "верный-пароль-1"


def cheap_hasher() -> argon2.PasswordHasher:
    """Argon2id at its smallest cost: the tests hash many passwords; the app keeps the defaults."""
    return argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


class CountingHasher(argon2.PasswordHasher):
    """The cheap hasher that counts the passwords it checked (the throttle must refuse unhashed)."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verified += 1
        return super().verify(hash, password)


def journal_with_judge(
    path: str | os.PathLike[str], name: str = "Сидорова", role: str = "judge", **kw: Any
) -> tuple[Journal, SignedIn]:
    """A journal at `path` with one account, and that judge signed in."""
    book = Journal(path, hasher=cheap_hasher(), **kw)
    book.add_account(name, role, PASSWORD)
    return book, book.sign_in(name, PASSWORD)


def judges_journal(path: str | os.PathLike[str], monkeypatch: Any, name: str = "Сидорова") -> Journal:
    """The app's journal at `path` ($BERSERK_JOURNAL for this test) with one judge's account."""
    from rulings import store

    monkeypatch.setenv(store.ENV_VAR, str(path))
    book = Journal(path, hasher=cheap_hasher())
    book.add_account(name, "judge", PASSWORD)
    return book


# Rulings of РП 4.1-2 against the FICTIONAL next version (tests/fictional_rules.py): one cites a
# renumbered clause, one a removed one, one only clauses that version left alone.
AFFECTED_SAMPLES = {
    "moved": ("Можно ли добрать карту в отряд посреди боя?", ("535.2",)),
    "gone": ("Действует ли защита от воздействий на лишнюю рану?", ("534.8",)),
    "same": ("Вопрос о неизменных пунктах: кто хозяин паразита?", ("211.4", "A8")),
}


def journal_for_affected(path: str | os.PathLike[str]) -> tuple[Journal, dict[str, int]]:
    """A journal at `path` holding AFFECTED_SAMPLES, and their ids by key."""
    book, judge = journal_with_judge(path)
    ids = {
        key: book.record(ruling(title, clauses=clauses, rules_version="РП 4.1-2"), judge)
        for key, (title, clauses) in AFFECTED_SAMPLES.items()
    }
    return book, ids


def raw_rows(target: str | os.PathLike[str], sql: str) -> list[tuple[Any, ...]]:
    """Rows of a statement run straight on a journal's database (either engine), past the API."""
    import sqlite3

    from rulings import db

    if db.is_url(str(target)):
        import psycopg

        with psycopg.connect(str(target), autocommit=True) as conn:
            return [tuple(r) for r in conn.execute(sql).fetchall()]
    with sqlite3.connect(target) as raw:
        return [tuple(r) for r in raw.execute(sql).fetchall()]


def dump(book: Journal) -> dict[str, object]:
    """What a journal holds, by global ids (local numbers differ between journals)."""
    out: dict[str, object] = {}
    for r in book.rulings():
        revs = sorted(
            (v.uid, v.base_uids, v.created_at, v.author, v.hall, v.data, v.replaced, v.damaged)
            for v in r.revisions
        )
        out[r.uid] = (r.created_at, r.hall, r.locked_by, tuple(revs))
    return out
