"""Engine throughput: actions per second over a long random stream on a full board,
with and without tracing. Target: ≥ 5,000 actions/s (reported, not asserted).

Run: .venv/bin/python tests/bench/bench_engine.py [--actions N]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from tests.engine_cases import full_board, random_action  # noqa: E402

TARGET = 5000


def stream(n: int, seed: int) -> list[tuple[engine.GameState, engine.Action]]:
    """A fixed stream of (position, action) pairs; a new full board whenever the old one empties."""
    rng = random.Random(seed)
    gs = full_board(seed)
    pairs = []
    for i in range(n):
        if i % 400 == 0:
            gs = full_board(seed + i)
        action = random_action(gs, rng)
        pairs.append((gs, action))
        gs = engine.apply(gs, action, tracing=False).state
    return pairs


def measure(pairs: list[tuple[engine.GameState, engine.Action]], tracing: bool) -> tuple[float, Counter[str]]:
    verdicts: Counter[str] = Counter()
    start = time.perf_counter()
    for gs, action in pairs:
        verdicts[engine.apply(gs, action, tracing=tracing).verdict] += 1
    return len(pairs) / (time.perf_counter() - start), verdicts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pairs = stream(args.actions, args.seed)
    cards = len(full_board(args.seed).cards)
    print(f"engine: {len(pairs)} действий, поле из {cards} карт, seed {args.seed}")
    for tracing in (True, False):
        best = 0.0
        for _ in range(3):
            rate, verdicts = measure(pairs, tracing)
            best = max(best, rate)
        label = "с трассировкой" if tracing else "без трассировки"
        mix = ", ".join(f"{k}: {v}" for k, v in sorted(verdicts.items()))
        print(f"  {label}: {_num(best)} действий/с (цель ≥ {_num(TARGET)}); вердикты — {mix}")
    legal = [(gs, a) for gs, a in pairs if engine.apply(gs, a, tracing=False).verdict != "illegal"]
    rate = max(measure(legal, True)[0] for _ in range(3))
    print(f"  только законные и неопределённые ({len(legal)}), с трассировкой: {_num(rate)} действий/с")
    return 0


def _num(x: float) -> str:
    return f"{x:,.0f}".replace(",", " ")


if __name__ == "__main__":
    raise SystemExit(main())
