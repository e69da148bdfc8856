"""The engine invariant fuzzer, briefly (`make bench` runs ≥ 100,000 actions: bench_fuzz_engine.py)."""

from __future__ import annotations

import dataclasses
import os

import pytest

import engine
import rules_index
from tests import engine_fuzz
from tests.engine_cases import full_board

ACTIONS = int(os.environ.get("FUZZ_ENGINE_ACTIONS", "3000"))


def test_random_positions_and_actions_keep_every_invariant() -> None:
    report = engine_fuzz.run(ACTIONS, seed=15)
    assert report.actions == ACTIONS
    assert report.positions - report.refused_positions >= ACTIONS // 50
    # The stream is not all refusals: every verdict occurs, and traces cite clauses.
    assert set(report.verdicts) == {"legal", "illegal", "undetermined"}, report.verdicts
    assert report.cited > ACTIONS


def test_the_fuzzer_catches_a_broken_invariant() -> None:
    """The checks can fail: a forged outcome that changes an owner, or cites a made-up clause."""
    gs = full_board(1)
    index = rules_index.load_default()
    out = engine.apply(gs, engine.parse_action("end_turn", {}))
    some = next(iter(gs.cards))
    moved = dict(out.state.cards)
    moved[some] = dataclasses.replace(moved[some], owner="B" if moved[some].owner == "A" else "A")
    forged = dataclasses.replace(out, state=dataclasses.replace(out.state, cards=moved))
    with pytest.raises(AssertionError, match="owner"):
        engine_fuzz.check_step(gs, forged, index.has)
    step = engine.TraceStep(clause="999.9", kind="effect", reason="выдумано")
    cites = dataclasses.replace(out, trace=(step,))
    with pytest.raises(AssertionError, match=r"999\.9"):
        engine_fuzz.check_step(gs, cites, index.has)
