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
print(json.dumps({p.name + "|" + q.q: rank(q.q) for p in bench_search.question_sets()
                  for q in bench_search.load_questions(p)}, ensure_ascii=False))
"""


def _hits(seed: str) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(out.stdout)


def test_every_question_gets_the_same_hits_whatever_the_hash_seed() -> None:
    first, second = _hits("1"), _hits("2")
    assert first.keys() == second.keys()
    differ = sorted(k for k in first if first[k] != second[k])
    assert not differ, f"{len(differ)} вопросов получают разные ответы в разных процессах"
