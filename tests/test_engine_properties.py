"""Property tests over random action streams, legal and illegal (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from tests.engine_cases import (
    check_invariants,
    full_board,
    random_action,
    recruit_board,
    reveal_board,
    snapshot,
)


def in_hand(gs: engine.GameState) -> set[str]:
    return {c.id for c in gs.cards.values() if c.zone == "hand"}


START = {"battle": full_board, "reveal": reveal_board, "recruit": recruit_board}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rng=st.randoms(use_true_random=False),
    seed=st.integers(0, 1000),
    start=st.sampled_from(sorted(START)),
)
def test_random_streams_keep_the_invariants(rng: random.Random, seed: int, start: str) -> None:
    gs = START[start](seed)
    check_invariants(gs)
    for _ in range(60):
        action = random_action(gs, rng)
        before = snapshot(gs)
        out = engine.apply(gs, action)
        # apply never mutates its input
        assert snapshot(gs) == before
        assert out.verdict in ("legal", "illegal", "undetermined")
        if out.verdict == "illegal":
            # an illegal action changes nothing
            assert out.state is gs
            assert any(s.kind == "forbidden" for s in out.steps())
        check_invariants(out.state)
        # cards shown for a summon pass through the hand within the action (535.5.1.2)
        assert in_hand(out.state) <= in_hand(gs)
        gs = out.state


@settings(max_examples=25, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_choose_replay_is_deterministic(rng: random.Random) -> None:
    """The same stream from the same position gives the same states (choices replay, shuffles seeded)."""
    actions = []
    gs = full_board(3)
    for _ in range(40):
        action = random_action(gs, rng)
        actions.append(action)
        gs = engine.apply(gs, action).state
    again = full_board(3)
    for action in actions:
        again = engine.apply(again, action).state
    assert snapshot(again) == snapshot(gs)


def test_tracing_off_gives_the_same_states() -> None:
    rng = random.Random(5)
    gs = full_board()
    for _ in range(300):
        action = random_action(gs, rng)
        a = engine.apply(gs, action)
        b = engine.apply(gs, action, tracing=False)
        assert a.verdict == b.verdict and snapshot(a.state) == snapshot(b.state)
        if a.verdict != "illegal":
            assert b.trace == ()
        gs = a.state


def _state_changing_kinds(start: str, seeds: int, length: int) -> tuple[set[str], set[str]]:
    """Action kinds that changed the position at least once in the random streams, and the
    clauses of every step those streams produced."""
    kinds: set[str] = set()
    clauses: set[str] = set()
    for seed in range(seeds):
        rng = random.Random(seed)
        gs = START[start](seed)
        for _ in range(length):
            action = random_action(gs, rng)
            out = engine.apply(gs, action)
            check_invariants(out.state)
            if out.verdict != "illegal" and snapshot(out.state) != snapshot(gs):
                kinds.add(action.kind)
            clauses.update(s.clause for s in out.steps() if s.kind != "forbidden")
            gs = out.state
    return kinds, clauses


def test_the_random_streams_exercise_legal_sequences_of_every_kind() -> None:
    """The properties above are only as strong as the streams: each action kind must actually
    succeed in them (not only be refused), and the rules the invariants guard must fire."""
    battle, clauses = _state_changing_kinds("battle", 12, 120)
    reveal, clauses_r = _state_changing_kinds("reveal", 12, 60)
    recruit, _ = _state_changing_kinds("recruit", 6, 40)
    every = {
        "move", "relocate", "attach", "attack", "wound", "heal", "destroy", "exile", "return_to_deck",
        "take_control", "lose_control", "summon", "resurrect", "change_type", "set_incorporeal",
        "end_turn", "start_turn", "mark_cells", "choose",
    }  # fmt: skip
    assert every <= battle, every - battle
    assert {"place_symbiote", "end_reveal"} <= reveal, reveal
    assert {"recruit", "next_phase"} <= recruit, recruit
    # symbiotes get hosts, die with them, markers come and go, cards incarnate, replacements run
    for cid in ("211.3", "211.4", "211.7", "211.11", "535.1.1", "535.7", "535.7.1", "534.4", "534.7"):
        assert cid in clauses | clauses_r, cid
