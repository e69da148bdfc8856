"""The question sets `make bench` measures the search on (tests/data/questions*.yaml) are data a
person wrote by hand: every one must read, and every clause it names as a right answer must be a
clause of the embedded rules, or a set would count a search right or wrong against a clause that
is not there."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import rules_index
from tests.bench import bench_search

SETS = sorted((Path(__file__).parent / "data").glob("questions*.yaml"))


@pytest.fixture(scope="module")
def ids() -> set[str]:
    return {p.id for p in rules_index.load_default().paragraphs}


def test_there_are_blind_sets_and_tuning_sets() -> None:
    # A blind set may be named before its file is merged (it is being written while the search
    # changes), so not every BLIND name need be present; but each must be a name the bench globs,
    # at least one must be here to measure on, and something must be left to tune on.
    names = {p.name for p in SETS}
    assert all(Path(name).match("questions*.yaml") for name in bench_search.BLIND)
    assert names & bench_search.BLIND  # something to measure on
    assert names - bench_search.BLIND  # something to tune on


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.name)
def test_a_question_set_names_only_clauses_of_the_rules(path: Path, ids: set[str]) -> None:
    questions = bench_search.load_questions(path)
    assert questions
    # Ids are strings in the file itself: unquoted, 211.10 would read as the number 211.1.
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert all(isinstance(x, str) for item in raw for x in item["ok"])
    unknown = sorted({x for q in questions for x in q.ok} - ids)
    assert not unknown, f"{path.name}: нет в правилах: {unknown}"
    texts = [q.q.strip().lower() for q in questions]
    assert len(texts) == len(set(texts)), f"{path.name}: вопрос повторяется"
