"""Running a scenario: every step through `engine.apply`, answering choices from the file.

A choice is answered by `lexicon.match_option` (an option's key, or its label with «ё» folded and
case ignored), the same matcher the desk uses, so a file runs the same way in both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import engine
import lexicon
from casebook.expect import check_step
from casebook.model import Expectation, Scenario, ScenarioResult, ScenarioStep, StepResult

if TYPE_CHECKING:
    from rules_index import RulesIndex


def run_scenario(
    s: Scenario, index: RulesIndex | None = None, library: engine.CardLibrary | None = None
) -> ScenarioResult:
    """Run every step from the setup, answering choices from the file, checking expectations.

    A step whose choice the file leaves unanswered stops the run (the rest is not run). An
    engine failure on a step is reported as that step's error, never raised.
    """
    notes = _version_notes(s, index)
    library = s.library or library  # a scenario that names its card base runs on that base
    try:
        state = engine.build_state(s.setup, library)
    except engine.SetupError as exc:  # loaded scenarios were built once already
        return ScenarioResult(s, [_broken_step(s, f"расстановка не собирается: {exc}")], notes)
    results: list[StepResult] = []
    for step in s.steps:
        result, state, stop = _run_step(state, step)
        results.append(result)
        if stop:
            break
    return ScenarioResult(s, results, notes)


def _version_notes(s: Scenario, index: RulesIndex | None) -> list[str]:
    """A scenario judged under other rules still runs, with a note saying so."""
    if s.rules is None or index is None or not index.version_label:
        return []
    loaded = {index.version_label, index.version or ""}
    if s.rules.strip() in loaded:
        return []
    return [f"сценарий решён по правилам «{s.rules}», а загружены «{index.version or index.version_label}»"]


def _broken_step(s: Scenario, error: str) -> StepResult:
    first = s.steps[0]
    return StepResult(
        action=first.action, outcome=None, expectations=[], number=1, line=first.line, error=error
    )


def _options(pending: engine.Pending) -> str:
    return ", ".join(f"{o.key} ({o.label})" for o in pending.options)


def _run_step(state: engine.GameState, step: ScenarioStep) -> tuple[StepResult, engine.GameState, bool]:
    outcomes: list[engine.Outcome] = []
    asked: list[engine.Pending] = []
    checks: list[Expectation] = []
    choices = list(step.choices)
    before = state
    try:
        outcome = engine.apply(state, step.action)
        outcomes.append(outcome)
        while outcome.pending is not None and choices:
            pending = outcome.pending
            asked.append(pending)
            answer = choices.pop(0)
            key = lexicon.match_option(answer, ((o.key, o.label) for o in pending.options))
            if key is None:
                checks.append(
                    Expectation(
                        f"ответ «{answer}» на выбор по {lexicon.cite(pending.clause)}",
                        False,
                        f"такого варианта нет; варианты: {_options(pending)}",
                    )
                )
                break
            outcome = engine.apply(outcome.state, engine.parse_action("choose", {"option": key}))
            outcomes.append(outcome)
    except Exception as exc:  # an engine bug must not crash the runner: report it on the step
        error = f"движок не смог выполнить шаг: {type(exc).__name__}: {exc}"
        return (
            StepResult(step.action, None, checks, None, step.number, step.line, None, (), step.xfail, error),
            state,
            True,
        )
    last = outcomes[-1]
    # The engine replays the interrupted action with every answer so far, so the last outcome
    # holds the whole story of the step: its trace and its verdict.
    unanswered = last.pending
    if unanswered is not None:
        checks.append(
            Expectation(
                "все выборы шага получили ответ (choices)",
                False,
                f"ждёт ответа игрок {unanswered.who} по {lexicon.cite(unanswered.clause)}:"
                f" {unanswered.question}; варианты: {_options(unanswered)}",
            )
        )
    elif choices:
        checks.append(
            Expectation("все ответы из choices использованы", False, f"лишние ответы: {', '.join(choices)}")
        )
    if outcomes[0].verdict == "illegal":
        # An illegal action leaves the game exactly as it was.
        same = outcomes[0].state == before
        checks.append(
            Expectation(
                "запрещённое действие не изменило позицию",
                same,
                "" if same else "состояние после запрета отличается от исходного",
            )
        )
    if step.expect is not None:
        checks.extend(check_step(step.expect, last.verdict, last.trace, last.state, asked))
    result = StepResult(
        action=step.action,
        outcome=last,
        expectations=checks,
        pending_unanswered=unanswered,
        number=step.number,
        line=step.line,
        verdict=last.verdict,
        trace=last.trace,
        xfail=step.xfail,
    )
    return result, last.state, unanswered is not None
