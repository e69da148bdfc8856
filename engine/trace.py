"""The explanation trace: data (TraceStep), built by a Tracer that belongs to one `apply`.

Rendering is a separate function (render_trace); the CLI, the tests and the app use the same
objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import lexicon
from engine import assumptions
from engine.model import state as state_mod
from rules_index import ids

# Step kinds and verdicts are codes; their Russian words live in lexicon (words.yaml).
KINDS = lexicon.STEP_KINDS
VERDICTS = lexicon.VERDICTS


@dataclasses.dataclass(frozen=True, slots=True)
class TraceStep:
    """One decision: the clause (or assumption id) behind it, its kind, a Russian reason, the
    changes it made to the state, and nested steps."""

    clause: str
    kind: str
    reason: str
    changes: tuple[str, ...] = ()
    children: tuple[TraceStep, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "clause": self.clause,
            "kind": self.kind,
            "reason": self.reason,
            "changes": list(self.changes),
            "children": [c.to_dict() for c in self.children],
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """Why something cannot be done, or cannot be decided by our text: the clause that says so,
    the kind (forbidden: the clause forbids it; undetermined: our text stops there), the reason
    in Russian, and the assumptions (A4 …) the reason rests on.

    Check functions (s211_hosts.host_problems, s535_summon.place_problems …) return Problems;
    those found while an action is applied are the clauses that decided it (Ctx.found), and the
    handler that acts on one cites it (Ctx.cite)."""

    clause: str
    kind: str
    reason: str
    rests_on: tuple[str, ...] = ()

    @property
    def forbids(self) -> bool:
        return self.kind == "forbidden"


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """The result of apply: the new state (the old one when illegal), the verdict, the trace and
    the pending choice, if any. `deciding` holds the problems the checks found while the
    action was applied (outside hypothetical looks): each of their clauses decided something, so
    each is cited in the trace (tests/test_engine_citations.py holds the engine to that)."""

    state: state_mod.GameState
    verdict: str
    trace: tuple[TraceStep, ...]
    pending: state_mod.Pending | None = None
    deciding: tuple[Problem, ...] = ()

    def steps(self) -> list[TraceStep]:
        """Every step, depth first."""
        return all_steps(self.trace)

    def clauses(self, kind: str | None = None) -> list[str]:
        """The clause ids in the trace (of one kind, if given), in order, without repeats."""
        seen: dict[str, None] = {}
        for s in self.steps():
            if s.clause and (kind is None or s.kind == kind):
                seen.setdefault(s.clause, None)
        return list(seen)

    @property
    def forbidden_by(self) -> list[str]:
        return self.clauses("forbidden")

    @property
    def unchecked(self) -> list[TraceStep]:
        """What the text allows here but leaves to rules our text lacks (kind «unchecked»)."""
        return [s for s in self.steps() if s.kind == "unchecked"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "trace": [s.to_dict() for s in self.trace],
            "pending": self.pending.to_dict() if self.pending else None,
        }


def all_steps(trace: tuple[TraceStep, ...]) -> list[TraceStep]:
    """Every step of `trace`, depth first."""
    out: list[TraceStep] = []
    stack = list(reversed(trace))
    while stack:
        s = stack.pop()
        out.append(s)
        stack.extend(reversed(s.children))
    return out


def _assumption_note(clause: str, kind: str) -> tuple[TraceStep, ...]:
    """A step that rests on an assumption (a refusal by A3, an effect by A8) carries a child step
    of kind «assumption» with the assumption's wording, so the trace itself says which decisions
    are ours and not the rules text's."""
    if kind == "assumption" or not ids.is_assumption_id(clause):
        return ()
    wording = assumptions.wordings().get(clause, "нет в файле допущений")
    return (
        TraceStep(clause, "assumption", f"{wording.rstrip('.')} — наше допущение, в тексте правил этого нет"),
    )


def render_trace(
    trace: tuple[TraceStep, ...] | list[TraceStep],
    indent: int = 0,
    *,
    cite: Callable[[str], str] | None = None,
    note: Callable[[str], str | None] | None = None,
) -> str:
    """The trace as indented Russian text, one step a line, changes under their step.

    Under another rules version (engine.implemented.VersionView) `cite` names a clause in the
    loaded version's numbering and `note` gives the warning for a clause whose text changed.
    """
    lines: list[str] = []

    def walk(step: TraceStep, depth: int) -> None:
        pad = "  " * depth
        if cite is not None and step.clause:
            label = cite(step.clause)
        else:
            label = lexicon.cite(step.clause) if ids.is_assumption_id(step.clause) else step.clause
        head = f"[{label}] " if step.clause else ""
        warning = note(step.clause) if note is not None and step.clause else None
        tail = f" (!) {warning}" if warning else ""
        lines.append(f"{pad}- {head}{lexicon.step_kind(step.kind)}: {step.reason}{tail}")
        for change in step.changes:
            lines.append(f"{pad}    → {change}")
        for child in step.children:
            walk(child, depth + 1)

    for step in trace:
        walk(step, indent)
    return "\n".join(lines)


class Tracer:
    """Builds the nested trace of one computation. Mutable, but owned by one `apply` call."""

    __slots__ = ("_stack", "enabled")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        # Each frame: [clause, kind, reason, changes, children]
        self._stack: list[list[Any]] = [["", "", "", [], []]]

    def add(self, clause: str, kind: str, reason: str, changes: tuple[str, ...] = ()) -> None:
        if self.enabled:
            self._stack[-1][4].append(
                TraceStep(clause, kind, reason, changes, _assumption_note(clause, kind))
            )

    def open(self, clause: str, kind: str, reason: str) -> None:
        self._stack.append([clause, kind, reason, [], []])

    def close(self) -> None:
        clause, kind, reason, changes, children = self._stack.pop()
        if self.enabled:
            children = _assumption_note(clause, kind) + tuple(children)
            self._stack[-1][4].append(TraceStep(clause, kind, reason, tuple(changes), children))

    def change(self, text: str) -> None:
        if self.enabled:
            frame = self._stack[-1]
            if len(self._stack) == 1 or (not frame[0] and not frame[1]):
                self._stack[-1][4].append(TraceStep("", "effect", text))
            else:
                frame[3].append(text)

    def result(self) -> tuple[TraceStep, ...]:
        while len(self._stack) > 1:
            self.close()
        return tuple(self._stack[0][4])
