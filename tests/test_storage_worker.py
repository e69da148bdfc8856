"""The bounded worker (issue 26): a file's parse may cost a worker, never the server.

Each limit is passed by a job built to pass it (tests/worker_jobs.py), and the test checks the
Russian message names the limit and that no child outlives its job.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import casebook
from casebook import nodes
from storage import worker
from tests import worker_jobs as jobs

ROOT = Path(__file__).resolve().parent.parent
SMALL = worker.Limits(cpu_s=2, memory_mb=256, output_mb=1, wall_s=60)


@pytest.fixture(scope="module")
def pool() -> Iterator[worker.Pool]:
    yield worker.Pool(preload=["storage.worker", "tests.worker_jobs"], slots=2, queue_s=30, grace_s=0)


@pytest.fixture(autouse=True)
def no_child_left() -> Iterator[None]:
    yield
    assert worker.child_pids() == []


def test_a_result_comes_back_with_its_pickled_size(pool: worker.Pool) -> None:
    done = pool.run(jobs.echo, {"name": "Карлик Унд", "life": 3}, limits=SMALL)
    assert done.value == {"name": "Карлик Унд", "life": 3}
    assert done.size > 0


def test_a_frozen_index_crosses_as_mapping_proxies(pool: worker.Pool) -> None:
    value = pool.run(jobs.frozen, {"211.4": 1}, limits=SMALL).value
    assert dict(value["inner"]) == {"211.4": 1}
    with pytest.raises(TypeError):
        value["inner"]["211.4"] = 2  # type: ignore[index]


def test_the_jobs_own_error_is_raised_here_with_its_type(pool: worker.Pool) -> None:
    with pytest.raises(ValueError, match="файл не тот"):
        pool.run(jobs.fail, "файл не тот", limits=SMALL)


def test_an_error_that_does_not_unpickle_still_says_what_happened(pool: worker.Pool) -> None:
    with pytest.raises(worker.LimitError, match="первое/второе") as err:
        pool.run(jobs.fail_oddly, limits=SMALL)
    assert err.value.limit == "crash"


def test_a_job_that_spins_is_stopped_at_its_cpu_seconds(pool: worker.Pool) -> None:
    with pytest.raises(worker.LimitError) as err:
        pool.run(jobs.spin, limits=SMALL)
    assert err.value.limit == "cpu"
    assert "больше 2 с процессорного времени" in str(err.value)


def test_a_job_that_eats_memory_is_stopped_at_its_megabytes(pool: worker.Pool) -> None:
    with pytest.raises(worker.LimitError) as err:
        pool.run(jobs.eat, limits=SMALL)
    assert err.value.limit == "memory"
    assert "256 МБ памяти" in str(err.value)


def test_an_answer_over_the_output_limit_is_not_read(pool: worker.Pool) -> None:
    assert len(pool.run(jobs.big, 0, limits=SMALL).value) == 0
    with pytest.raises(worker.LimitError) as err:
        pool.run(jobs.big, 3, limits=SMALL)
    assert err.value.limit == "output"
    assert "больше 1 МБ" in str(err.value)


def test_a_job_that_waits_is_stopped_at_the_wall_clock(pool: worker.Pool) -> None:
    limits = worker.Limits(cpu_s=5, memory_mb=256, output_mb=1, wall_s=1)
    with pytest.raises(worker.LimitError) as err:
        pool.run(jobs.sleep, 120, limits=limits)
    assert err.value.limit == "wall"
    assert "за 1 с" in str(err.value)


def test_a_crashed_child_is_reported_not_raised_as_a_traceback(pool: worker.Pool) -> None:
    with pytest.raises(worker.LimitError) as err:
        pool.run(jobs.crash, limits=SMALL)
    assert err.value.limit == "crash"
    assert "256 МБ" in str(err.value)


def test_a_job_is_stopped_when_its_window_goes_away(pool: worker.Pool) -> None:
    gone = threading.Event()
    threading.Timer(0.5, gone.set).start()
    with pytest.raises(worker.Cancelled):
        pool.run(jobs.sleep, 120, limits=SMALL, cancelled=gone.is_set)


def test_a_window_that_is_away_for_less_than_the_grace_keeps_its_job() -> None:
    patient = worker.Pool(preload=["storage.worker", "tests.worker_jobs"], grace_s=60)
    started = time.monotonic()
    away = lambda: time.monotonic() - started < 1.0  # noqa: E731 — a phone's connection drops for a second
    assert patient.run(jobs.sleep, 1.5, limits=SMALL, cancelled=away).value == "woke"


def test_progress_reports_reach_the_parent(pool: worker.Pool) -> None:
    seen: list[float] = []
    assert pool.run(jobs.count, 4, limits=SMALL, progress=seen.append).value == 4
    assert seen and all(0 <= s < 1 for s in seen)
    assert seen == sorted(seen)


def test_an_exception_in_the_parents_progress_stops_the_child(pool: worker.Pool) -> None:
    def stop(share: float) -> None:
        raise KeyboardInterrupt  # what Streamlit's rerun does: an exception at the next call

    with pytest.raises(KeyboardInterrupt):
        pool.run(jobs.count, 100, limits=SMALL, progress=stop)


def test_jobs_beyond_the_slots_wait_then_are_refused_in_russian() -> None:
    narrow = worker.Pool(preload=["storage.worker", "tests.worker_jobs"], slots=1, queue_s=0.5)
    running = threading.Event()  # the first job's child reports progress: it holds the one slot
    first = threading.Thread(
        target=narrow.run,
        args=(jobs.count, 24),  # 6 s: far longer than the second job's 0.5 s in line
        kwargs={"limits": SMALL, "progress": lambda _s: running.set()},
    )
    first.start()
    try:
        assert running.wait(timeout=120), "the first job never started"
        with pytest.raises(worker.LimitError) as err:
            narrow.run(jobs.echo, 1, limits=SMALL)
    finally:
        first.join()
    assert err.value.limit == "busy"
    assert "не больше 1 одновременно" in str(err.value)
    assert narrow.run(jobs.echo, 1, limits=SMALL).value == 1  # the slot is free again


def test_every_job_is_a_fresh_child(pool: worker.Pool) -> None:
    pids = {pool.run(jobs.pid, limits=SMALL).value for _ in range(3)}
    assert len(pids) == 3


def test_a_child_does_not_run_the_servers_main_script_again(tmp_path: Path) -> None:
    # multiprocessing would re-run a main script without an `if __name__` guard in every child
    # (Streamlit's command line, a bench script): here the script would start a pool in the child.
    script = tmp_path / "server.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from storage import worker\n"
        "from tests import worker_jobs\n"
        "print('main ran', flush=True)\n"
        "pool = worker.Pool(preload=['storage.worker'])\n"
        "print(pool.run(worker_jobs.echo, 'ответ', limits=worker.Limits(wall_s=60)).value, flush=True)\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["main ran", "ответ"]


def test_an_error_that_comes_back_saying_something_else_is_sent_as_its_message(pool: worker.Pool) -> None:
    with pytest.raises(worker.LimitError, match="в файле три ошибки"):
        pool.run(jobs.fail_garbled, limits=SMALL)


def test_a_scenario_error_crosses_whole(pool: worker.Pool) -> None:
    with pytest.raises(casebook.ScenarioError) as err:
        pool.run(nodes.read_yaml, "a: [", "x.yaml", limits=SMALL)
    assert err.value.problems[0].line == 1 and err.value.problems[0].key == "a"
    assert str(err.value).startswith("x.yaml, строка 1")
