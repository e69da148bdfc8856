"""Benchmark (fuzzing): ≥ 10,000 tampered desk links and desk files, each refused in Russian or read.

Run with `make bench` (or `.venv/bin/python tests/bench/bench_fuzz_desk.py [N]`). The same
property as tests/test_desk_fuzz.py (tests/desk_fuzz.py) over many more examples; prints how many
were refused, read, replayed, and the time. Exits 1 on the first input that escapes as an
exception other than a DeskError or an engine.SetupError (a traceback on a judge's screen).
"""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import engine  # noqa: E402
from desk import share  # noqa: E402
from tests import desk_fuzz  # noqa: E402

EXAMPLES = 10_000


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLES
    library = engine.load_library()
    counts: collections.Counter[str] = collections.Counter()
    run = settings(
        max_examples=n,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )

    @run
    @given(raw=desk_fuzz.tampered_json())
    def tampered(raw: bytes) -> None:
        link, upload = desk_fuzz.check_json(raw, library)
        counts["ссылка: " + link] += 1
        counts["файл: " + upload] += 1

    @run
    @given(token=desk_fuzz.RAW_TOKENS | st.text(max_size=40).map(lambda t: t.replace(" ", "")))
    def tokens(token: str) -> None:
        counts["случайная ссылка: " + desk_fuzz.check(lambda: share.decode(token), library)] += 1

    start = time.perf_counter()
    try:
        tampered()
        tokens()
    except Exception as exc:  # the property failed: hypothesis has shrunk the input and re-raised
        print(f"Ввод, на котором чтение стола упало: {type(exc).__name__}: {exc}")
        return 1
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    print(f"Стол судьи, фаззинг ссылок и файлов: {total} проверок за {seconds:.0f} с, ни одного исключения")
    for what, count in sorted(counts.items()):
        print(f"  {what}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
