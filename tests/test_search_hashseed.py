"""The same question gets the same answer in every server process. Python salts the hashes of
strings per process (PYTHONHASHSEED), so a decision that walks a set of phrases or words in the
set's order may answer one judge's phone and stay silent on another's. Every question of every
question set is searched in two processes with different seeds, and the hits must be the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from tests.bench import bench_search
import rules_index
rank = bench_search.ours(rules_index.load_default())
# each question once, though several sets ask it
typed = sorted({q.q for p in bench_search.question_sets() for q in bench_search.load_questions(p)})
print(json.dumps({q: rank(q) for q in typed}, ensure_ascii=False))
"""


def _hits(*seeds: str) -> list[dict[str, list[str]]]:
    """Each seed's hits, the processes run side by side."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _SCRIPT, str(ROOT)],
            env={**os.environ, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in seeds
    ]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        outs.append(json.loads(out))
    return outs


def test_every_question_gets_the_same_hits_whatever_the_hash_seed() -> None:
    first, second = _hits("1", "2")
    assert first.keys() == second.keys()
    differ = sorted(k for k in first if first[k] != second[k])
    assert not differ, f"{len(differ)} вопросов получают разные ответы в разных процессах"
