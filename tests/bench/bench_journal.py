"""The league journal at scale (run by `make bench`): 100,000 rulings on SQLite and on PostgreSQL.

Targets (issue 25): search p95 <= 50 ms, record and amend p95 <= 20 ms on both engines at 100,000
rulings; a sync of 10,000 rulings <= 30 s. Each call is made as the app makes it, through a new
`Journal` handle (one per request). Then the choice of PostgreSQL's text search, measured on the
same 100,000 rulings: our search keys in a 'simple' tsvector (what the journal uses), the
'russian' configuration over the raw text, and pg_trgm trigrams over the raw text — the time of
each query and the share of the true top 10 (today's ranking over every ruling) it finds.

The rulings are made from the embedded rules' own words (titles of 5–12 words, decisions of
20–80, two to four cited clauses), 10 % of them amended once; the same seed gives the same journal.
PostgreSQL is a server of Debian's package started for the run in a temporary folder (a Unix
socket, no TCP); without it that half is skipped with a note. Numbers are reported, not asserted.
BENCH_JOURNAL_N sets the size (default 100000).
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BERSERK_BACKUP_MIN", "0")  # a backup of the 100,000 is its own question

import yaml  # noqa: E402

import rules_index  # noqa: E402
from rulings import records, search, sync  # noqa: E402
from rulings.model import Revision, Ruling, RulingInput  # noqa: E402
from rulings.store import Journal  # noqa: E402
from tests.pg_server import PgServer, _bindir  # noqa: E402
from tests.rulings_samples import journal_with_judge  # noqa: E402

N = int(os.environ.get("BENCH_JOURNAL_N", "100000"))
SYNC_N = 10_000
CALLS = 200


def words_and_clauses() -> tuple[list[str], list[str]]:
    index = rules_index.load_default()
    text = " ".join(p.full_text for p in index.paragraphs)
    vocab = [w for w in search.words(text) if not w[0].isdigit() and len(w) > 2]
    return vocab, [p.id for p in index.paragraphs]


def make_rulings(n: int, seed: int, hall: str) -> list[Ruling]:
    rng = random.Random(seed)
    vocab, clause_ids = words_and_clauses()
    start = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
    out = []
    for i in range(n):
        at = (start + dt.timedelta(seconds=60 * i)).isoformat(timespec="microseconds")
        data = RulingInput(
            title=" ".join(rng.choices(vocab, k=rng.randint(5, 12))).capitalize() + "?",
            decision=" ".join(rng.choices(vocab, k=rng.randint(20, 80))) + ".",
            clauses=tuple(sorted(set(rng.choices(clause_ids, k=rng.randint(2, 4))))),
            event=f"Турнир {i % 50}",
            table_no=str(i % 30),
            judge=f"Судья {i % 20}",
            rules_version="РП 4.1-2",
        )
        first = Revision(1, at, data, author=data.judge, uid=records.new_uid(), hall=hall)
        revs = [first]
        if i % 10 == 0:
            later = (start + dt.timedelta(seconds=60 * i + 30)).isoformat(timespec="microseconds")
            amended = RulingInput(
                **{**data.__dict__, "decision": data.decision + " Уточнено.", "note": "правка"}
            )
            revs.append(
                Revision(2, later, amended, author=data.judge, uid=records.new_uid(), base_uids=(first.uid,))
            )
        out.append(
            Ruling(
                i + 1, at, revs[-1].created_at, revs[-1].data, tuple(revs), uid=records.new_uid(), hall=hall
            )
        )
    return out


def fill(book: Journal, rulings: Sequence[Ruling]) -> float:
    """Store rulings as a sync would (same rows, same index), in transactions of 1,000."""
    t0 = time.perf_counter()
    for start in range(0, len(rulings), 1000):
        batch = list(rulings[start : start + 1000])
        book._run(True, lambda conn, _v, b=batch: sync._receive(conn, b))
    return time.perf_counter() - t0


def queries() -> list[str]:
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "data").glob("questions*.yaml")):
        out += [
            str(item["q"]) for item in yaml.safe_load(path.read_text(encoding="utf-8")) or [] if "q" in item
        ]
    rng = random.Random(7)
    rng.shuffle(out)
    return out[:CALLS]


def timed(calls: Sequence[Callable[[], object]]) -> tuple[float, float]:
    spent = []
    for call in calls:
        t0 = time.perf_counter()
        call()
        spent.append((time.perf_counter() - t0) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(len(spent) * 0.95) - 1]


def engine_numbers(name: str, target: str) -> None:
    _book, by = journal_with_judge(target, name="Бенч", max_writes_per_minute=10**9)
    took = fill(Journal(target), make_rulings(N, 1, "Казань"))
    print(f"  {name}: {N} решений записано за {took:.0f} с")
    qs = queries()
    p50, p95 = timed([lambda q=q: Journal(target).search(q) for q in qs])
    print(f"  {name}: поиск p50 {p50:.1f} мс, p95 {p95:.1f} мс ({len(qs)} вопросов из tests/data; цель ≤ 50)")
    ops = [lambda i=i: Journal(target, max_writes_per_minute=10**9).record(
        RulingInput(title=f"Новый спор {i} о паразите", decision="Решение.", clauses=("211.4",)), by
    ) for i in range(CALLS)]  # fmt: skip
    p50, p95 = timed(ops)
    print(f"  {name}: запись p50 {p50:.1f} мс, p95 {p95:.1f} мс (цель p95 ≤ 20)")
    rng = random.Random(3)
    picks = [rng.randint(1, N) for _ in range(CALLS)]
    seen = {rid: Journal(target).get(rid) for rid in picks}
    revs = {rid: r.rev for rid, r in seen.items() if r is not None}

    def amend(rid: int) -> None:
        title = seen[rid].current.title  # type: ignore[union-attr]
        change = RulingInput(title=title, decision=f"Правка {rid}.")
        revs[rid] = Journal(target, max_writes_per_minute=10**9).amend(rid, change, by, base_rev=revs[rid])

    p50, p95 = timed([lambda r=r: amend(r) for r in dict.fromkeys(picks)])
    print(f"  {name}: правка p50 {p50:.1f} мс, p95 {p95:.1f} мс (цель p95 ≤ 20)")


def sync_numbers(server: PgServer, root: Path) -> None:
    hall = str(root / "sync-hall.sqlite3")
    fill(Journal(hall), make_rulings(SYNC_N, 2, "Пермь"))
    league = server.new_schema()
    t0 = time.perf_counter()
    sync.sync(Journal(hall), Journal(league))
    there = time.perf_counter() - t0
    back = str(root / "sync-back.sqlite3")
    t0 = time.perf_counter()
    sync.sync(Journal(league), Journal(back))
    home = time.perf_counter() - t0
    t0 = time.perf_counter()
    sync.sync(Journal(hall), Journal(league))
    again = time.perf_counter() - t0
    print(
        f"  синхронизация {SYNC_N}: SQLite → PostgreSQL {there:.1f} с, PostgreSQL → SQLite {home:.1f} с, "
        f"повтор (ничего нового) {again:.1f} с (цель ≤ 30 с)"
    )


# The current text of every ruling, raw, for the two alternatives to our keys.
RAW = (
    "CREATE TABLE IF NOT EXISTS bench_raw AS SELECT r.ruling_id, r.title || ' ' || r.decision AS text "
    "FROM revisions r WHERE r.rev = (SELECT MAX(x.rev) FROM revisions x "
    "WHERE x.ruling_id = r.ruling_id)"
)
# Candidates as each alternative would hand them to our ranking (400, the database's best first).
RUSSIAN = (
    "SELECT ruling_id FROM bench_raw, to_tsquery('russian', %s) q "
    "WHERE to_tsvector('russian', text) @@ q ORDER BY ts_rank(to_tsvector('russian', text), q) DESC LIMIT 400"
)
TRIGRAM = "SELECT ruling_id FROM bench_raw WHERE lower(text) LIKE ANY(%s) LIMIT 400"


def fts_choice(url: str) -> None:
    """The three ways to find candidates in PostgreSQL, on the benchmark's 100,000 rulings."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        t0 = time.perf_counter()
        conn.execute(RAW)
        conn.execute(
            "CREATE INDEX IF NOT EXISTS bench_raw_ru ON bench_raw USING gin (to_tsvector('russian', text))"
        )
        ru_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        conn.execute(
            "CREATE INDEX IF NOT EXISTS bench_raw_trgm ON bench_raw USING gin (lower(text) gin_trgm_ops)"
        )
        trgm_build = time.perf_counter() - t0
        conn.execute("ANALYZE")
        qs = queries()[:60]
        keyed, russian, trigram = [], [], []
        found = {"keys": 0, "russian": 0, "trigram": 0}
        total = 0
        for q in qs:
            words, keys = search.query_terms(q, search.stopwords())
            if not keys:
                continue
            t0 = time.perf_counter()
            truth = {h.ruling.id for h in Journal(url).search(q, top=10, stopwords=search.stopwords())}
            keyed.append((time.perf_counter() - t0) * 1000)
            if not truth:
                continue
            total += len(truth)
            found["keys"] += len(truth)  # exact by construction: tests/test_journal_search.py
            lexemes = " | ".join(f"'{w}'" for w in words if "'" not in w)
            t0 = time.perf_counter()
            rows = conn.execute(RUSSIAN, (lexemes,)).fetchall()
            russian.append((time.perf_counter() - t0) * 1000)
            found["russian"] += len(truth & {int(r[0]) for r in rows})
            stems = [k for k in keys if len(k) >= 3]
            if stems:
                t0 = time.perf_counter()
                rows = conn.execute(TRIGRAM, ([f"%{k}%" for k in stems],)).fetchall()
                trigram.append((time.perf_counter() - t0) * 1000)
                found["trigram"] += len(truth & {int(r[0]) for r in rows})
        for label, spent, key in (
            ("наши ключи, tsvector 'simple' (выбрано; точный порядок)", keyed, "keys"),
            ("конфигурация 'russian' по тексту", russian, "russian"),
            ("триграммы pg_trgm по тексту", trigram, "trigram"),
        ):
            spent.sort()
            p95 = spent[int(len(spent) * 0.95) - 1] if spent else float("nan")
            print(f"  {label}: p95 {p95:.1f} мс, найдено из верных top-10 {found[key] / max(total, 1):.0%}")
        print(f"  построение индексов: 'russian' {ru_build:.1f} с, триграммы {trgm_build:.1f} с")


def main() -> None:
    print(f"Журнал решений на {N} решениях (машина общая: нагрузка {os.getloadavg()[0]:.1f})")
    root = Path(tempfile.mkdtemp(prefix="journal-bench-"))
    engine_numbers("SQLite", str(root / "league.sqlite3"))
    if _bindir() is None:
        print("  PostgreSQL: пропущено — нет сервера (apt-get install postgresql)")
        return
    server = PgServer(_bindir() or Path(), Path(tempfile.mkdtemp(prefix="journal-bench-pg-")))
    server.init()
    server.start()
    try:
        url = server.new_schema()
        engine_numbers("PostgreSQL", url)
        sync_numbers(server, root)
        print("Выбор поиска в PostgreSQL (те же решения):")
        fts_choice(url)
    finally:
        server.stop("immediate")


if __name__ == "__main__":
    main()
