"""The league's journal under load and faults, on the session's real PostgreSQL server:
8 processes writing at once lose nothing, a restarted server leaves no half-written ruling, and a
sync killed half-way and run again ends as one run would."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

from rulings import sync
from rulings.accounts import SignedIn
from rulings.model import RulingConflictError
from rulings.store import Journal
from tests.pg_server import PgServer
from tests.rulings_samples import PASSWORD, cheap_hasher, dump, journal_with_judge
from tests.rulings_samples import ruling as _ruling

ROOT = Path(__file__).resolve().parent.parent
WORKERS, RECORDS, SHARED = 8, 200, 4


def _worker(url: str, worker: int, by: SignedIn, shared: list[int], out: str) -> None:
    book = Journal(url, max_writes_per_minute=100_000, busy_timeout_ms=120_000)
    done: dict[str, list[object]] = {"recorded": [], "amended": [], "conflicts": []}
    for i in range(RECORDS):
        rid = book.record(_ruling(title=f"Спор {worker}-{i}", decision=f"Решение {worker}-{i}."), by)
        done["recorded"].append(rid)
        if i % 10 == 0:  # every tenth write also amends a ruling every worker amends
            target = shared[i // 10 % SHARED]
            seen = book.get(target)
            assert seen is not None
            text = f"Правка {worker}-{i}."
            try:
                rev = book.amend(target, _ruling(title="Общий спор", decision=text), by, base_rev=seen.rev)
                done["amended"].append([target, rev, text])
            except RulingConflictError as exc:
                done["conflicts"].append([target, exc.base_rev, exc.current.rev])
    Path(out).write_text(json.dumps(done), encoding="utf-8")


def test_eight_processes_at_once_lose_nothing_and_every_conflict_is_reported(
    postgres_server: PgServer, tmp_path: Path
) -> None:
    url = postgres_server.new_schema()
    book = Journal(url, hasher=cheap_hasher(), max_writes_per_minute=100_000)
    signed = []
    for w in range(WORKERS):
        book.add_account(f"Судья {w}", "judge", PASSWORD)
        signed.append(book.sign_in(f"Судья {w}", PASSWORD))
    shared = [book.record(_ruling(title="Общий спор"), signed[0]) for _ in range(SHARED)]
    ctx = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"w{w}.json") for w in range(WORKERS)]
    procs = [ctx.Process(target=_worker, args=(url, w, signed[w], shared, outs[w])) for w in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=280)
        assert p.exitcode == 0, f"процесс-писатель упал: код {p.exitcode}"
    results = [json.loads(Path(o).read_text(encoding="utf-8")) for o in outs]
    rulings = {r.id: r for r in Journal(url).rulings()}
    recorded = [rid for r in results for rid in r["recorded"]]
    assert len(recorded) == len(set(recorded)) == WORKERS * RECORDS
    assert len(rulings) == WORKERS * RECORDS + SHARED
    for w, r in enumerate(results):
        for i, rid in enumerate(r["recorded"]):
            assert (
                rulings[rid].current.decision == f"Решение {w}-{i}." and rulings[rid].author == f"Судья {w}"
            )
    amended = [a for r in results for a in r["amended"]]
    conflicts = [c for r in results for c in r["conflicts"]]
    assert len(amended) + len(conflicts) == WORKERS * (RECORDS // 10)  # every attempt answered
    assert conflicts, "восемь процессов правят четыре решения — конфликты должны быть"
    for target in shared:
        revs = rulings[target].revisions
        mine = sorted((rid_rev, text) for rid, rid_rev, text in amended if rid == target)
        # Each successful amendment is its revision, in order; none is lost or doubled.
        assert [(v.rev, v.data.decision) for v in revs[1:]] == mine
        assert [v.rev for v in revs] == list(range(1, len(revs) + 1))
    assert Journal(url).problems() == []


WRITER = """
import json, sys
from rulings.store import Journal
from rulings.accounts import SignedIn
from rulings.model import JournalError
from tests.rulings_samples import ruling
url, name, token, out = sys.argv[1:5]
book = Journal(url, max_writes_per_minute=100000, busy_timeout_ms=3000)
by = SignedIn(name=name, role="judge", token=token)
with open(out, "w", encoding="utf-8") as log:
    for i in range(400):
        try:
            rid = book.record(ruling(title=f"Спор {i}", decision=f"Решение {i}."), by, draft_id=f"d{i}")
            log.write(json.dumps(["ok", i, rid]) + "\\n")
        except JournalError as exc:
            log.write(json.dumps(["failed", i, str(exc)]) + "\\n")
        log.flush()
"""


def test_a_server_restarted_mid_run_leaves_writes_committed_or_reported_never_half(
    postgres_server: PgServer, tmp_path: Path
) -> None:
    url = postgres_server.new_schema()
    book, by = journal_with_judge(url, max_writes_per_minute=100_000)
    out = tmp_path / "log.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url, by.name, by.token, str(out)], env=env, cwd=ROOT
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 40):
            time.sleep(0.05)
        postgres_server.restart()  # immediate: in-flight transactions are cut
        assert writer.wait(timeout=240) == 0
    finally:
        if writer.poll() is None:
            writer.kill()
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 400
    failed = [entry for entry in lines if entry[0] == "failed"]
    for _kind, _i, message in failed:
        assert "не сохранена" in message or "недоступен" in message  # said, in Russian
    stored = {r.current.title: r for r in Journal(url).rulings()}
    for kind, i, rid in lines:
        if kind == "ok":
            assert stored[f"Спор {i}"].id == rid and stored[f"Спор {i}"].current.decision == f"Решение {i}."
    for ruling in stored.values():
        assert len(ruling.revisions) == 1 and not ruling.damaged  # whole, never half-written
    assert Journal(url).problems() == []
    # The judge presses the button again for each failed write: nothing is recorded twice.
    for _kind, i, _message in failed:
        book.record(_ruling(title=f"Спор {i}", decision=f"Решение {i}."), by, draft_id=f"d{i}")
    assert sorted(r.current.title for r in Journal(url).rulings()) == sorted(f"Спор {i}" for i in range(400))


SYNCER = """
import sys
from rulings import sync
from rulings.store import Journal
sync.sync(Journal(sys.argv[1]), Journal(sys.argv[2]), progress=lambda _n: print("batch", flush=True))
"""


def test_a_sync_killed_half_way_and_run_again_ends_as_one_run(
    postgres_server: PgServer, tmp_path: Path
) -> None:
    hall = tmp_path / "hall.sqlite3"
    book, by = journal_with_judge(hall, max_writes_per_minute=100_000)
    for i in range(sync.BATCH * 2 + 50):
        book.record(_ruling(title=f"Спор {i}", decision=f"Решение {i}."), by)
    once, killed = postgres_server.new_schema(), postgres_server.new_schema()
    sync.sync(Journal(hall), Journal(once))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", SYNCER, str(hall), killed],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "batch"  # one batch is in
    proc.kill()
    proc.wait(timeout=30)
    part = Journal(killed).count()
    assert 0 < part < sync.BATCH * 2 + 50
    sync.sync(Journal(hall), Journal(killed))
    assert dump(Journal(killed)) == dump(Journal(once)) == dump(Journal(hall))
    assert Journal(killed).problems() == []
