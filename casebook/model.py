"""A loaded scenario and the result of running it: immutable values, no logic beyond reading them.

A scenario names the cards (the setup), the actions (the steps) and what should come of each
(`expect`). The format is documented for judges in docs/scenarios.md; casebook.loader reads it,
casebook.runner runs it and casebook.expect checks each step's expectations.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

import engine

# --- the loaded scenario ----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class CardExpectation:
    """`expect.cards.<id>`: a subset of the card's documented properties."""

    card: str
    props: tuple[tuple[str, object], ...]
    line: int


@dataclasses.dataclass(frozen=True)
class TraceExpectation:
    """`expect.trace[]`: a trace step with this clause (and kind, and words in its reason)."""

    clause: str
    kind: str | None
    reason_has: str | None
    line: int


@dataclasses.dataclass(frozen=True)
class ChoiceExpectation:
    """`expect.asked[]`: a choice the step raised: its clause, who decides, some of its options."""

    clause: str | None
    who: str | None
    options: tuple[str, ...]
    line: int


@dataclasses.dataclass(frozen=True)
class StepExpect:
    verdict: str | None = None
    fired: tuple[str, ...] = ()
    not_fired: tuple[str, ...] = ()
    forbidden_by: tuple[str, ...] = ()
    undetermined_by: tuple[str, ...] = ()
    unchecked_by: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()
    trace: tuple[TraceExpectation, ...] = ()
    cards: tuple[CardExpectation, ...] = ()
    asked: tuple[ChoiceExpectation, ...] = ()
    line: int = 0

    def clause_ids(self) -> Iterator[tuple[str, int]]:
        """Every clause or assumption id this expectation names, with a line for errors."""
        for cid in (
            *self.fired,
            *self.not_fired,
            *self.forbidden_by,
            *self.undetermined_by,
            *self.unchecked_by,
            *self.assumptions,
        ):
            yield cid, self.line
        for t in self.trace:
            yield t.clause, t.line
        for a in self.asked:
            if a.clause is not None:
                yield a.clause, a.line


@dataclasses.dataclass(frozen=True)
class ScenarioStep:
    number: int
    line: int
    action: engine.Action
    choices: tuple[str, ...] = ()
    expect: StepExpect | None = None
    xfail: str | None = None
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class CardBaseRef:
    """A scenario's `card_base`: a base stored on the server (its id or its name), or a card file
    next to the scenario (`file`, its path made absolute, with its `constants` file)."""

    stored: str = ""
    file: str = ""
    constants: str = ""
    line: int = 0

    def describe(self) -> str:
        return f"база карт «{self.stored}» на сервере" if self.stored else f"файл карт «{self.file}»"


# Opens the card base a scenario names, as an engine library whose `label` names it. Raises
# ValueError with a Russian message naming the base. The casebook opens no card base itself (the
# card base package builds on it): the command line and the desk pass cardbase's.
CardSource = Callable[[CardBaseRef], engine.CardLibrary]


@dataclasses.dataclass(frozen=True)
class CardBases:
    """How a command line opens card bases, given by the card base package (python -m engine):
    `named(base, constants)` for `--cards` (raises ValueError naming the base) and `source` for
    the scenarios' own `card_base`."""

    named: Callable[[str, str | None], engine.CardLibrary]
    source: CardSource


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    source: str | None
    rules: str | None
    answer: str | None
    setup: engine.Setup
    steps: tuple[ScenarioStep, ...]
    card_lines: tuple[tuple[str, int], ...] = ()
    # The base the scenario's cards come from (`card_base`) and the library it gave: the runner
    # uses that library, so a base record wins over an embedded card of the same name.
    card_base: CardBaseRef | None = None
    library: engine.CardLibrary | None = None

    def card_ids(self) -> list[str]:
        return [spec.id for spec in self.setup.cards]


# --- results ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Expectation:
    """One checked expectation: what was expected, whether it held, and what was found."""

    what: str
    ok: bool
    detail: str = ""

    def to_dict(self) -> dict[str, object]:
        return {"what": self.what, "ok": self.ok, "detail": self.detail}


@dataclasses.dataclass(frozen=True)
class StepResult:
    action: engine.Action
    outcome: engine.Outcome | None
    expectations: list[Expectation]
    pending_unanswered: engine.Pending | None = None
    number: int = 0
    line: int = 0
    verdict: str | None = None
    trace: tuple[engine.TraceStep, ...] = ()
    xfail: str | None = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        """An expectation does not hold, the engine failed, or a choice was left unanswered."""
        return (
            self.error is not None
            or self.pending_unanswered is not None
            or any(not e.ok for e in self.expectations)
        )

    @property
    def status(self) -> str:
        """`ok`, `failed`, `xfail` (a documented engine gap that still fails) or `xpass`."""
        if self.xfail is None:
            return "failed" if self.failed else "ok"
        return "xfail" if self.failed else "xpass"

    def trace_steps(self) -> list[engine.TraceStep]:
        """Every step of this step's trace, nested ones included, depth first."""
        return list(walk(self.trace))

    def to_dict(self) -> dict[str, object]:
        pending = self.pending_unanswered
        return {
            "step": self.number,
            "line": self.line,
            "action": self.action.to_dict(),
            "verdict": self.verdict,
            "status": self.status,
            "xfail": self.xfail,
            "error": self.error,
            "pending": None if pending is None else pending_dict(pending),
            "trace": [t.to_dict() for t in self.trace],
            "expectations": [e.to_dict() for e in self.expectations],
        }


@dataclasses.dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    steps: list[StepResult]
    notes: list[str] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every step holds; a documented engine gap (`xfail`) does not count as a pass
        of its step, but it does not fail the file either (it is reported apart)."""
        return all(s.status in ("ok", "xfail") for s in self.steps)

    @property
    def xfailed(self) -> list[StepResult]:
        return [s for s in self.steps if s.status == "xfail"]

    @property
    def failures(self) -> list[StepResult]:
        return [s for s in self.steps if s.status in ("failed", "xpass")]

    def fired_clauses(self) -> set[str]:
        """Every clause id that appears anywhere in the traces of this run."""
        return {t.clause for step in self.steps for t in walk(step.trace) if t.clause}

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.scenario.name,
            "title": self.scenario.title,
            "source": self.scenario.source,
            "answer": self.scenario.answer,
            "ok": self.ok,
            "xfail": [s.number for s in self.xfailed],
            "notes": list(self.notes),
            "steps": [s.to_dict() for s in self.steps],
        }


def pending_dict(p: engine.Pending) -> dict[str, object]:
    """A choice waiting for its answer, as the JSON output and the messages show it."""
    return {
        "who": p.who,
        "clause": p.clause,
        "question": p.question,
        "options": [{"key": o.key, "label": o.label} for o in p.options],
    }


def walk(trace: Sequence[engine.TraceStep]) -> Iterator[engine.TraceStep]:
    """The steps of a trace and of their children, depth first."""
    for t in trace:
        yield t
        yield from walk(t.children)
