"""Leave-one-set-out cross-validation of one constant of the answerability decision.

For every question of every tuning set (tests/data/questions*.yaml minus bench_search.BLIND) it
runs the search with the constant PARAM (default ANSWER_COVERAGE; SHORT_TOPICS, 0 = off, also
makes sense) swept over a grid, and records whether the search said
"nothing" (no hits). Then, holding out each set in turn, it picks the threshold that minimises
the errors on the other sets (an answerable question with no hits counts SILENT_COST errors, an
unanswerable one with hits one error) and reports, on the held-out set, the share of answerable
questions that got no hits ("silent") and the share of unanswerable ones that got none
("nothing"), at the chosen threshold and at the current one. A threshold that is only right on
the set it was fitted on shows up here as a worse held-out figure.

Blind sets are never read. Usage: `.venv/bin/python tests/bench/answerability_cv.py`
(PARAM=SHORT_TOPICS GRID=0,1,2,3 to sweep another constant or other values).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rules_index  # noqa: E402
from rules_index.search import answerability  # noqa: E402
from tests.bench import bench_search  # noqa: E402

# Saying "nothing" where the rules speak is worse than a needless answer (issue 23).
SILENT_COST = 3.0


def tuning_sets() -> list[Path]:
    paths = sorted((ROOT / "tests" / "data").glob("questions*.yaml"))
    return [p for p in paths if p.name not in bench_search.BLIND]


def outcomes(param: str, grid: list[float]) -> dict[str, list[tuple[bool, list[bool]]]]:
    """Per set: for each question, (answerable, [got hits at each threshold of the grid])."""
    index = rules_index.load_default()
    rank = bench_search.ours(index)
    saved = getattr(answerability, param)
    out: dict[str, list[tuple[bool, list[bool]]]] = {}
    try:
        for path in tuning_sets():
            rows = []
            for qn in bench_search.load_questions(path):
                got = []
                for t in grid:
                    setattr(answerability, param, type(saved)(t))
                    got.append(bool(rank(qn.q)))
                rows.append((bool(qn.ok), got))
            out[path.name] = rows
    finally:
        setattr(answerability, param, saved)
    return out


def rates(rows: list[tuple[bool, list[bool]]], i: int) -> tuple[float | None, float | None, float]:
    ans = [got[i] for ok, got in rows if ok]
    una = [got[i] for ok, got in rows if not ok]
    silent = sum(not g for g in ans) / len(ans) if ans else None
    nothing = sum(not g for g in una) / len(una) if una else None
    cost = SILENT_COST * sum(not g for g in ans) + sum(g for g in una)
    return silent, nothing, cost


def main() -> None:
    param = os.environ.get("PARAM", "ANSWER_COVERAGE")
    grid_env = os.environ.get("GRID")
    default = [round(0.30 + 0.02 * i, 2) for i in range(21)]
    grid = [float(x) for x in grid_env.split(",")] if grid_env else default
    current = float(getattr(answerability, param))
    if current not in grid:
        grid = sorted([*grid, current])
    data = outcomes(param, grid)
    cur = grid.index(current)

    def f(x: float | None) -> str:
        return "   —  " if x is None else f"{x:6.3f}"

    print(f"{'held out':<28}{'chosen':>7}{'silent':>8}{'nothing':>9}   | now {current}: silent  nothing")
    for held in data:
        train = [r for name, rows in data.items() if name != held for r in rows]
        best = min(range(len(grid)), key=lambda i: (rates(train, i)[2], abs(grid[i] - current)))
        s, n, _ = rates(data[held], best)
        s0, n0, _ = rates(data[held], cur)
        print(f"{held:<28}{grid[best]:>7.2f}{f(s)}{f(n):>9}   |           {f(s0)}  {f(n0)}")
    allrows = [r for rows in data.values() for r in rows]
    print(f"\nall tuning sets, per value of {param}: silent, nothing, cost")
    for i, t in enumerate(grid):
        s, n, c = rates(allrows, i)
        print(f"  {t:.2f}  {f(s)}  {f(n)}  {c:6.1f}")


if __name__ == "__main__":
    main()
