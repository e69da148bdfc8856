"""The engine invariant fuzzer at scale: ≥ 100,000 random actions over random positions, every
invariant checked after each (tests/engine_fuzz.py). Reports counts and speed; fails on a broken
invariant (an AssertionError names it).

Run: .venv/bin/python tests/bench/bench_fuzz_engine.py [--actions N] [--seed S]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import engine_fuzz  # noqa: E402

MIN_ACTIONS = 100_000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=MIN_ACTIONS)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    report = engine_fuzz.run(args.actions, seed=args.seed)
    took = time.perf_counter() - start
    for line in engine_fuzz.describe(report):
        print(line)
    print(f"время: {took:.1f} с ({report.actions / took:.0f} действий/с); нарушений инвариантов: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
