"""Benchmark: importing a card base of 2,000 cards, and finding a card by name in it.

Run with `make bench` (or `.venv/bin/python tests/bench/bench_cards.py`). The base is made up here
(community JSON shape, varied texts so that every phrasing and the unmodelled path are exercised).
Targets of issue 16: import ≤ 2 s; search p95 ≤ 5 ms over 2,000 cards. Numbers are reported, not
asserted; wall time and the process's CPU time are both given, with the load average, because the
machine is shared (a descheduled process shows in the wall time only).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import cardbase  # noqa: E402

CARDS = 2000
IMPORT_ROUNDS = 5
QUERIES = 1000
IMPORT_TARGET_S = 2.0
SEARCH_TARGET_MS = 5.0

_SYLLABLES = [
    "ка",
    "ра",
    "го",
    "мо",
    "ли",
    "шт",
    "ен",
    "ор",
    "ун",
    "да",
    "ве",
    "ти",
    "бур",
    "рах",
    "зел",
    "пе",
    "кро",
    "ва",
    "ний",
    "щит",
    "лу",
]
_TEXTS = (
    "Инкарнация {n}.",
    "Бестелесное. {{tap}}: ранить существо на {n}.",
    "Защита от отравления и магии. {{counter}}{{tap}}: выстрел на {n}.",
    "Не может быть взята в отряд с «{other}».",
    "{{tap}}: вызвать «{other}» рядом с собой.",
    "При гибели вызвать из своей колоды «{other}» (1 раз за бой).",
    "Может возродить существо со своего кладбища в свой третий ряд.",
    "Располагается во вспомогательной зоне. +{n} к {{strike}} по летающим.",
    "В начале вашего хода ранить себя на {n}. Пока рядом враг, получает {{ova}} {n}.",
    "nan",
)


def _name(rng: random.Random, used: set[str]) -> str:
    while True:
        words = [
            "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()
            for _ in range(rng.randint(1, 2))
        ]
        name = " ".join(words)
        if name not in used:
            used.add(name)
            return name


def made_up_base(n: int = CARDS, seed: int = 16) -> tuple[bytes, list[str]]:
    rng = random.Random(seed)
    used: set[str] = set()
    names = [_name(rng, used) for _ in range(n)]
    records = []
    for i, name in enumerate(names):
        kind = rng.choice((0, 0, 0, 0, 1, 2, 3, 4, 5))
        text = rng.choice(_TEXTS).format(n=rng.randint(1, 4), other=rng.choice(names))
        records.append(
            {
                "id": str(100000 + i),
                "set_id": rng.choice((10, 20, 30, 40)),
                "number": i + 1,
                "name": name,
                "rarity": rng.randint(1, 4),
                "cost": rng.randint(1, 9),
                "elite": rng.random() < 0.2,
                "uniq": rng.random() < 0.2,
                "color": rng.choice((1, 2, 4, 8, 16, 32, 3, 17)),
                "class": [rng.choice(("", "Орк", "Гном", "Эльф"))],
                "type": kind,
                "life": rng.randint(2, 15) if kind < 4 else None,
                "move": None if kind in (1, 2, 3) else 1,
                "hit": [1, 2, 3],
                "icons": rng.choice(({}, {"zoo": 0}, {"inc": 0, "regen": 1}, {"zoal": 0, "armor": 2})),
                "text": text,
                "altto": None,
            }
        )
    return json.dumps(records, ensure_ascii=False).encode("utf-8"), names


def _typo(rng: random.Random, name: str) -> str:
    """A query as a judge types it: a letter dropped or doubled, «е» for «ё», part of the name."""
    low = name.lower()
    choice = rng.randint(0, 3)
    if choice == 0 and len(low) > 4:
        i = rng.randrange(len(low))
        return low[:i] + low[i + 1 :]
    if choice == 1:
        i = rng.randrange(len(low))
        return low[:i] + low[i] + low[i:]
    if choice == 2:
        return low[: max(3, len(low) // 2)]
    return low.replace("е", "ё")


def main() -> int:
    data, names = made_up_base()
    times, cpu_times = [], []
    base = None
    cardbase.import_base(made_up_base(5)[0], "warm.json")  # our tables are read once per process
    for _ in range(IMPORT_ROUNDS):
        start, cpu = time.perf_counter(), time.process_time()
        base = cardbase.import_base(data, "bench.json")
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu)
    assert base is not None and base.report is not None and len(base.records) == CARDS
    start = time.perf_counter()
    loaded = cardbase.Loaded.of(base)
    prepare = time.perf_counter() - start
    rng = random.Random(7)
    queries = [_typo(rng, rng.choice(names)) for _ in range(QUERIES)]
    took, cpu_took = [], []
    found = 0
    for q in queries:
        start, cpu = time.perf_counter(), time.process_time()
        hits = loaded.finder.find(q, limit=20)
        took.append((time.perf_counter() - start) * 1000)
        cpu_took.append((time.process_time() - cpu) * 1000)
        found += bool(hits)
    took.sort()
    cpu_took.sort()
    p95 = took[int(len(took) * 0.95)]
    cpu_p95 = cpu_took[int(len(cpu_took) * 0.95)]
    report = base.report
    print(
        f"import of {CARDS} cards ({len(data) // 1024} KB): median {statistics.median(times):.2f} s, "
        f"worst {max(times):.2f} s wall; CPU median {statistics.median(cpu_times):.2f} s "
        f"(target ≤ {IMPORT_TARGET_S} s); modelled {report.modelled}, fully {report.fully_modelled}"
    )
    print(f"search index, engine library, query names built in {prepare * 1000:.0f} ms")
    print(
        f"card search over {CARDS} cards, {QUERIES} typed queries: median {statistics.median(took):.2f} ms, "
        f"p95 {p95:.2f} ms, worst {took[-1]:.2f} ms wall; CPU p95 {cpu_p95:.2f} ms "
        f"(target p95 ≤ {SEARCH_TARGET_MS} ms); a hit for {found}/{QUERIES}"
    )
    print(f"load average while measuring: {', '.join(f'{v:.1f}' for v in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
