"""The journal's search index (rulings.postings): rows that read back what was put in, a ranking equal
to scoring every ruling, across chunks of ids, and a rebuild when the search keys change."""

from __future__ import annotations

import random
import sqlite3

import pytest

from rulings import postings, search
from rulings.db import SqliteConn
from rulings.store import Journal
from tests.rulings_samples import journal_with_judge, raw_rows
from tests.rulings_samples import ruling as _ruling


@pytest.mark.parametrize("count", [0, 1, 2, 254, 255, 256, 1000, postings.CHUNK])
def test_a_row_reads_back_the_offsets_it_was_made_of(count: int) -> None:
    rng = random.Random(count)
    offsets = sorted(rng.sample(range(postings.CHUNK), count))
    blob = postings.encode(offsets)
    assert len(blob) <= postings.CHUNK // 8  # never more than the bitmap
    assert postings.decode(blob).tolist() == offsets


def _bare_index() -> SqliteConn:
    raw = sqlite3.connect(":memory:")
    raw.execute("CREATE TABLE rulings (id INTEGER PRIMARY KEY)")
    conn = SqliteConn(raw)
    postings.create_tables(conn, "sqlite")
    return conn


def test_the_best_rulings_are_those_the_scoring_of_every_ruling_ranks_first() -> None:
    """Ids spread over several chunks (4,096 each), amendments that drop and add keys: the index's
    top rulings, points and order (ties newest first) are exactly those of scoring every one."""
    rng = random.Random(25)
    words = ["паразит", "хозяин", "отряд", "вайл", "карлик", "атака", "рана", "инкарнация", "211", "535"]
    conn = _bare_index()
    texts: dict[int, tuple[str, str, tuple[str, ...]]] = {}
    ids = rng.sample(range(1, 3 * postings.CHUNK + 500), 3000)  # bitmaps and short lists both
    for round_ in range(2):  # the second round amends half of them
        batch = []
        for rid in ids if round_ == 0 else ids[::2]:
            title = " ".join(rng.choices(words, k=rng.randint(1, 4)))
            body = " ".join(rng.choices(words, k=rng.randint(0, 8)))
            clauses = tuple(rng.sample(["211.3.1", "211.4", "535.7", "534.4"], rng.randint(0, 2)))
            texts[rid] = (title, body, clauses)
            batch.append((rid, _ruling(title=title, decision=body or "-", clauses=clauses)))
        postings.index_rulings(conn, batch)
    lengths = {int(r[0]) for r in conn.execute("SELECT length(ids) FROM search_postings").fetchall()}
    assert postings.CHUNK // 8 in lengths and min(lengths) < postings.CHUNK // 8  # both forms met
    for query in ["паразит", "паразит хозяин", "вайл вайл карлик 211", "535 отряд рана атака", "211.3"]:
        qw, qk = search.query_terms(query)
        weights: dict[tuple[bool, str], int] = {}
        for w, k in zip(qw, qk, strict=True):
            weights[(w[:1].isdigit(), k)] = weights.get((w[:1].isdigit(), k), 0) + 1
        scored = []
        for rid, (title, body, clauses) in texts.items():
            data = _ruling(title=title, decision=body or "-", clauses=clauses)
            t, b = search.fields(data)
            m = search.match(qw, qk, set(search.stems(t)), set(search.stems(b)), data.clauses)
            if m.score:
                scored.append((m.score * 2 * len(qk), rid))
        scored.sort(key=lambda p: (-p[0], -p[1]))
        assert postings.best(conn, weights, 25) == [(rid, pts) for pts, rid in scored[:25]], query


def test_a_change_of_the_search_keys_rebuilds_the_index_before_the_next_write(
    journal_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    book, by = journal_with_judge(journal_target, max_writes_per_minute=1000)
    first = book.record(_ruling(title="Паразит и хозяин", decision="Решение."), by)
    assert [h.ruling.id for h in Journal(journal_target).search("паразит")] == [first]
    monkeypatch.setattr(search, "keys_version", lambda: "другая-версия")
    # Until a write rebuilds it, the index is not trusted: the search reads every ruling.
    assert [h.ruling.id for h in Journal(journal_target).search("паразит")] == [first]
    second = book.record(_ruling(title="Паразит без хозяина", decision="Решение."), by)
    assert raw_rows(journal_target, "SELECT value FROM journal_meta WHERE key = 'search_keys'") == [
        ("другая-версия",)
    ]
    assert [h.ruling.id for h in Journal(journal_target).search("паразит")] == [second, first]


def test_the_card_page_gets_every_ruling_naming_the_card_from_the_index(journal_target: str) -> None:
    from cardbase import related

    book, by = journal_with_judge(journal_target, max_writes_per_minute=1000)
    texts = [
        ("Карлик Унд и Вайл", "Решение.", ""),
        ("Вопрос о паразите", "Карлика Унда атакует только хозяин.", ""),
        ("Без имени в тексте", "Решение.", "cards:\n  - name: Карлик Унд\n    at: c4\n"),
        ("Унд без карлика", "Карлик стоит отдельно.", ""),  # both words, not the name
        ("Про отряд", "Ничего о нём.", ""),
    ]
    for title, decision, scene in texts:
        book.record(_ruling(title=title, decision=decision, scenario_yaml=scene), by)
    keys = related.name_keys("Карлик Унд")
    every = Journal(journal_target).rulings()
    found = Journal(journal_target).mentioning(keys)
    assert len(found) < len(every)  # the index, not the whole journal
    want = related.rulings_mentioning("Карлик Унд", every)
    assert [r.id for r in related.rulings_mentioning("Карлик Унд", found)] == [r.id for r in want]
    assert len(want) == 3


def test_an_amendment_takes_its_lost_words_out_of_the_index_and_puts_its_new_ones_in(
    journal_target: str,
) -> None:
    """On both engines: a word only the old text had leaves the index (its row is deleted, the
    ruling is no longer found by it), a word the new text brings is found, and a word both keep
    stays; other rulings in the same chunk keep theirs."""
    book, by = journal_with_judge(journal_target, max_writes_per_minute=1000)
    first = book.record(_ruling(title="Спор о гномах", decision="Гномы и паразит."), by)
    other = book.record(_ruling(title="Спор о паразите", decision="Без гномов."), by)
    book.amend(first, _ruling(title="Спор о троллях", decision="Тролли и паразит."), by, base_rev=1)
    fresh = Journal(journal_target)

    def found(query: str) -> list[int]:
        return sorted(h.ruling.id for h in fresh.search(query))

    assert found("тролли") == [first]
    assert found("гномы") == [other]  # the amended ruling lost it, the other kept it
    assert found("паразит") == [first, other]
    book.amend(other, _ruling(title="Спор о паразите", decision="Без подгорного народа."), by, base_rev=1)
    assert found("гномы") == []
    # No ruling holds it any more: its rows are deleted, not left empty.
    assert raw_rows(journal_target, "SELECT term FROM search_postings WHERE term LIKE '%гном%'") == []
    assert raw_rows(journal_target, "SELECT term FROM search_postings WHERE term LIKE '%тролл%'")
