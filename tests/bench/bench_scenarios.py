"""Benchmark: the scenario library — load (validate) and run every file under scenarios/.

Reports the whole-library time (what `python -m engine check` spends after start-up) and the
per-file median and worst, separately for loading and running. No target in the issue; the
numbers are reported, not asserted. Run with `make bench` or
`.venv/bin/python tests/bench/bench_scenarios.py`.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import casebook  # noqa: E402
import engine  # noqa: E402
import rules_index  # noqa: E402
from cardbase import sources  # noqa: E402

ROUNDS = 5


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main() -> None:
    index, library = rules_index.load_default(), engine.load_library()
    # the scenarios on real cards name their card base (`card_base`), opened as `engine run` does
    cards = sources.scenario_cards()
    files = casebook.scenario_files(ROOT / "scenarios")
    load_times: dict[Path, list[float]] = {f: [] for f in files}
    run_times: dict[Path, list[float]] = {f: [] for f in files}
    totals = []
    steps = 0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        steps = 0
        for f in files:
            t0 = time.perf_counter()
            s = casebook.load_scenario(f, index=index, library=library, cards=cards)
            t1 = time.perf_counter()
            result = casebook.run_scenario(s, index, library)
            t2 = time.perf_counter()
            load_times[f].append(t1 - t0)
            run_times[f].append(t2 - t1)
            steps += len(result.steps)
        totals.append(time.perf_counter() - start)
    per_load = [statistics.median(v) for v in load_times.values()]
    per_run = [statistics.median(v) for v in run_times.values()]
    worst = max(files, key=lambda f: statistics.median(run_times[f]))
    print(f"scenario files: {len(files)}, steps: {steps}, rounds: {ROUNDS}")
    print(f"whole library (load + run): median {ms(statistics.median(totals))} ms")
    print(f"per file load: median {ms(statistics.median(per_load))} ms, max {ms(max(per_load))} ms")
    slowest = f"max {ms(max(per_run))} ms ({worst.name})"
    print(f"per file run:  median {ms(statistics.median(per_run))} ms, {slowest}")


if __name__ == "__main__":
    main()
