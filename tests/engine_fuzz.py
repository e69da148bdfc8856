"""The engine's invariant fuzzer over random positions and random actions (no pytest import here:
tests/test_engine_fuzz.py runs it briefly, tests/bench/bench_fuzz_engine.py runs ≥ 100,000 actions).

For every action applied, whatever its verdict:
- an illegal action leaves the state equal to the one before (and `apply` never mutates its input);
- no card's owner ever changes, and no card appears or vanishes;
- every card is in exactly one place, and a symbiote shares its host's cell
  (tests/engine_cases.check_invariants, the engine's structural invariants);
- every clause the trace cites exists in the rules index, and every assumption in the assumptions file;
- what decided the action is cited: every problem a check found (Outcome.deciding) is a step of
  the trace, and a clause named in a step's words is a step of its own (check_citations).
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import engine
import rules_index
from engine.model import board
from rules_index import ids
from tests.engine_cases import (
    CALLER,
    COMPANION,
    FLYER,
    GHOST,
    ORC,
    PARASITE,
    PHOENIX,
    check_invariants,
    full_board,
    random_action,
    snapshot,
    spec,
)

# Real-card abilities the embedded library has no card for (cardbase recognises them).
LEECH = {"template": "Паразит", "name": "Присосок", "abilities": [{"kind": "host_cannot_move"}]}
DARK = {"name": "Тёмный", "type": "creature", "subtype": "ground", "life": 4, "element": "Тьма"}
HERMIT = {
    "template": "Наземное существо",
    "name": "Пустынник",
    "abilities": [
        {"kind": "cannot_join_with_element", "elements": ["Тьма"]},
        {"kind": "incarnation", "x": 1},
    ],
}
WARDEN = {
    "template": "Наземное существо",
    "name": "Страж",
    "abilities": [
        {
            "kind": "wound_modifier",
            "delta": -1,
            "target": "self",
            "damage_kinds": ["strike"],
            "source_flying": True,
        }
    ],
}

# Cards a random position draws from: the example cards, every kind of template and the
# real-card abilities above.
POOL: tuple[str | Mapping[str, object], ...] = (
    "Вайл",
    "Карлик Унд",
    "Многоликий",
    "Сугед",
    "Выкормыш слуа",
    "Бул'Багур",
    "Вожак сатиров",
    ORC,
    FLYER,
    COMPANION,
    PARASITE,
    GHOST,
    CALLER,
    PHOENIX,
    LEECH,
    DARK,
    HERMIT,
    WARDEN,
)
ZONES_OFF_BOARD = ("aux", "deck", "hand", "graveyard", "exile")


@dataclasses.dataclass
class FuzzReport:
    positions: int = 0
    refused_positions: int = 0  # random setups the engine refused (SetupError): never fuzzed
    actions: int = 0
    verdicts: Counter[str] = dataclasses.field(default_factory=Counter)
    cited: int = 0


def random_position(rng: random.Random) -> engine.GameState | None:
    """A random legal-looking position: 3–14 cards on random cells and zones, some symbiotes on
    hosts; None when the engine refuses the setup (that is its job, counted by the caller)."""
    n = rng.randint(3, 14)
    cells = rng.sample(list(board.CELLS), n)
    specs: list[engine.CardSpec] = []
    placed: list[str] = []
    for i in range(n):
        cid = f"c{i}"
        card = rng.choice(POOL)
        owner = rng.choice(("A", "B"))
        roll = rng.random()
        if roll < 0.15 and placed:
            specs.append(spec(cid, card, owner, host=rng.choice(placed)))
            continue
        if roll < 0.35:
            specs.append(spec(cid, card, owner, at=rng.choice(ZONES_OFF_BOARD)))
            continue
        extra: dict[str, object] = {}
        if rng.random() < 0.2:
            extra["wounds"] = rng.randint(1, 3)
        if rng.random() < 0.15:
            extra["controller"] = "B" if owner == "A" else "A"
        if rng.random() < 0.1:
            extra["closed"] = True
        specs.append(spec(cid, card, owner, at=cells[i], **extra))
        placed.append(cid)
    setup = engine.Setup(
        phase="battle", active=rng.choice(("A", "B")), seed=rng.randint(0, 10_000), cards=specs
    )
    try:
        return engine.build_state(setup)
    except engine.SetupError:
        return None


# A clause with at least one dot, or an assumption, inside prose: «… (A4)», «по 211.9 …».
IN_PROSE = re.compile(r"(?<![\w.])(?:[1-9]\d{2}(?:\.\d{1,4}[a-zа-яё]?)+|A[1-9]\d{0,2})(?![\w])")
WORDINGS = engine.load_assumptions()


@functools.cache
def _index() -> rules_index.RulesIndex:
    return rules_index.load_default()


def _mentioned(step: engine.TraceStep, index: rules_index.RulesIndex) -> set[str]:
    """Clauses a step's words name: not an absent clause (named as missing, it decides nothing),
    nor the ids an assumption's own wording refers to (A7 says «шагами по A1»: a definition)."""
    reason = step.reason
    if step.kind == "assumption" and step.clause in WORDINGS:
        reason = reason.replace(WORDINGS[step.clause].rstrip("."), "")
    return {cid for cid in IN_PROSE.findall(reason) if not index.is_absent(cid)}


def check_citations(out: engine.Outcome, index: rules_index.RulesIndex | None = None) -> None:
    """What decided the outcome is cited, and nothing hides in a reason's words."""
    index = index or _index()
    cited = {s.clause for s in out.steps() if s.clause}
    hidden = [d for d in out.deciding if d.clause not in cited]
    assert not hidden, "решили, но не процитированы: " + "; ".join(f"{d.clause}: {d.reason}" for d in hidden)
    for step in out.steps():
        prose = _mentioned(step, index) - cited
        assert not prose, f"пункт только в тексте шага [{step.clause}] «{step.reason}»: {', '.join(prose)}"


def check_step(
    before: engine.GameState,
    out: engine.Outcome,
    known: Callable[[str], bool],
) -> int:
    """Assert the invariants of one applied action; returns how many citations it checked."""
    if out.verdict == "illegal":
        assert out.state == before, "an illegal action changed the state"
    after = out.state
    assert set(after.cards) == set(before.cards), "a card appeared or vanished"
    for cid, card in before.cards.items():
        assert after.cards[cid].owner == card.owner, f"the owner of {cid} changed"
    check_invariants(after)
    check_citations(out)
    cited = 0
    for step in out.steps():
        if step.clause:
            cited += 1
            assert known(step.clause), (
                f"the trace cites {step.clause}, which is neither a clause nor an assumption"
            )
    return cited


def run(
    actions: int, seed: int = 0, stream: int = 50, index: rules_index.RulesIndex | None = None
) -> FuzzReport:
    """Apply `actions` random actions: streams of `stream` actions from random positions (and every
    tenth stream from the full example board), checking every invariant after each."""
    rng = random.Random(seed)
    index = index or _index()
    assumed = frozenset(engine.assumptions.wordings())

    def known(cid: str) -> bool:
        return cid in assumed if ids.is_assumption_id(cid) else index.has(cid)

    report = FuzzReport()
    while report.actions < actions:
        if report.positions % 10 == 0:
            gs: engine.GameState | None = full_board(rng.randint(0, 10_000))
        else:
            gs = random_position(rng)
        report.positions += 1
        if gs is None:
            report.refused_positions += 1
            continue
        check_invariants(gs)
        for _ in range(min(stream, actions - report.actions)):
            action = random_action(gs, rng)
            frozen = snapshot(gs)
            out = engine.apply(gs, action)
            assert snapshot(gs) == frozen, "apply mutated its input"
            report.cited += check_step(gs, out, known)
            report.verdicts[out.verdict] += 1
            report.actions += 1
            gs = out.state
    return report


def describe(report: FuzzReport) -> Sequence[str]:
    return (
        f"действий: {report.actions}; позиций: {report.positions} "
        f"(отвергнуто движком при построении: {report.refused_positions})",
        "вердикты: " + ", ".join(f"{k} {v}" for k, v in sorted(report.verdicts.items())),
        f"проверено ссылок на пункты и допущения: {report.cited}",
    )
