"""The scenario runner: choices, xfail/xpass, engine failures and notes, as a judge relies on them."""

from __future__ import annotations

import pytest

import casebook
import engine
import rules_index
from tests.casebook_cases import choice, load, not_found_answered_without_yo, run


def test_choice_answered_by_key_or_label(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    result = run(choice("choices: [g2]"), index, library)
    assert result.ok, [e for st in result.steps for e in st.expectations if not e.ok]
    assert [st.verdict for st in result.steps] == ["legal", "legal"]
    assert result.notes == []
    label = "«Вайл» (g2) на d2"
    result = run(choice(f'choices: ["{label}"]'), index, library)
    assert result.ok


def test_unanswered_choice_stops_and_names_who_and_clause(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    result = run(choice(None), index, library)
    assert not result.ok
    assert len(result.steps) == 1  # the second step never ran
    step = result.steps[0]
    assert step.pending_unanswered is not None
    assert step.pending_unanswered.who == "A" and step.pending_unanswered.clause == "211.7"
    failed = [e for e in step.expectations if not e.ok]
    assert "ждёт ответа игрок A по п. 211.7" in failed[0].detail
    assert "g1" in failed[0].detail and "g2" in failed[0].detail


def test_wrong_and_extra_answers_fail(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    result = run(choice("choices: [g3]"), index, library)
    assert not result.ok
    assert any("такого варианта нет" in e.detail for e in result.steps[0].expectations)
    result = run(choice("choices: [g2, g1]"), index, library)
    assert not result.ok
    assert any("лишние ответы: g1" in e.detail for e in result.steps[0].expectations)


def test_wrong_expectation_fails_with_what_was_found(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = choice("choices: [g2]").replace("comp: {host: g2}", "comp: {host: g1}")
    result = run(text, index, library)
    assert not result.ok
    bad = [e for e in result.steps[0].expectations if not e.ok]
    assert [(e.what, e.detail) for e in bad] == [("карта comp: хозяин (host) = g1", "получено: g2")]


def test_xfail_is_reported_apart_and_xpass_fails(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    wrong = choice("choices: [g2]\n    xfail: 'движок кладёт не туда'").replace(
        "comp: {host: g2}", "comp: {host: g1}"
    )
    result = run(wrong, index, library)
    assert result.ok  # the file does not fail the suite …
    assert [s.status for s in result.steps] == ["xfail", "ok"]  # … but the step is not a pass
    assert result.to_dict()["xfail"] == [1]
    right = choice("choices: [g2]\n    xfail: 'движок кладёт не туда'")
    result = run(right, index, library)
    assert not result.ok
    assert result.steps[0].status == "xpass"


def test_illegal_step_is_checked_to_leave_the_position(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = (
        choice("choices: [g2]")
        .replace("to: d3}", "to: e6}")
        .replace(
            "{verdict: legal, cards: {comp: {cell: d3}}}", "{verdict: illegal, cards: {comp: {cell: d2}}}"
        )
    )
    result = run(text, index, library)
    assert result.ok
    checks = [e.what for e in result.steps[1].expectations]
    assert "запрещённое действие не изменило позицию" in checks


def test_engine_failure_is_a_step_error_not_a_crash(
    index: rules_index.RulesIndex, library: engine.CardLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = load(choice("choices: [g2]"), index, library)

    def broken(state: engine.GameState, action: engine.Action) -> engine.Outcome:
        raise KeyError("comp")

    monkeypatch.setattr(engine, "apply", broken)
    result = casebook.run_scenario(s, index, library)
    assert not result.ok
    assert result.steps[0].error is not None and "KeyError" in result.steps[0].error
    assert len(result.steps) == 1


def test_other_rules_version_is_noted(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    result = run(choice("choices: [g2]").replace("РП 4.1-2", "РП 3.0"), index, library)
    assert result.ok
    assert result.notes and "РП 3.0" in result.notes[0]


def test_empty_steps_is_an_error(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    text = choice(None).split("steps:")[0] + "steps: []\n"
    with pytest.raises(casebook.ScenarioError, match="нужен хотя бы один шаг"):
        casebook.load_scenario_text(text, "x.yaml", index=index, library=library)


def test_an_answer_written_without_yo_names_its_option(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    # The option reads «не нашёл (не захотел найти)»; a judge types «е», in any case.
    result = run(not_found_answered_without_yo(), index, library)
    assert result.ok, [e for st in result.steps for e in st.expectations if not e.ok]
    assert [st.verdict for st in result.steps] == ["legal", "illegal"]
    shouted = not_found_answered_without_yo().replace("не нашел (не захотел", "НЕ НАШЕЛ (не Захотел")
    assert run(shouted, index, library).ok


def test_scenario_modules_hold_no_mutable_state() -> None:
    import importlib
    import pkgutil
    import types

    names = [
        m.name for m in pkgutil.iter_modules(casebook.__path__, "casebook.") if m.name != "casebook.__main__"
    ]
    assert len(names) >= 8, names
    for module in [casebook, *(importlib.import_module(n) for n in names)]:
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            assert not isinstance(value, list | set | dict | bytearray | types.SimpleNamespace), (
                f"{module.__name__}.{name}"
            )


def test_dump_folds_answers_into_their_step(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    s = load(choice("choices: [g2]"), index, library)
    state = engine.build_state(s.setup, library)
    actions, outcomes = [], []
    for act in (s.steps[0].action, engine.parse_action("choose", {"option": "g2"}), s.steps[1].action):
        out = engine.apply(state, act)
        actions.append(act)
        outcomes.append(out)
        state = out.state
    text = casebook.dump_scenario(s.setup, actions, "Вопрос?", outcomes=outcomes)
    again = casebook.load_scenario_text(text, "dump.yaml", index=index, library=library)
    assert [st.action.kind for st in again.steps] == ["end_reveal", "move"]
    assert again.steps[0].choices == ("g2",)
    assert again.steps[0].expect is not None and again.steps[0].expect.verdict == outcomes[1].verdict
    assert casebook.run_scenario(again, index, library).ok


def test_the_documented_example_runs(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    result = run(example, index, library)
    assert result.ok, [e for st in result.steps for e in st.expectations if not e.ok]
    assert [st.verdict for st in result.steps] == ["legal", "illegal"]


ISSUE_EXAMPLE = """\
title: "Может ли Вайл атаковать не Карлика Унда после смены контроля?"   # the question
source: "ПРИМЕР к 211.3.1"        # where the case comes from
rules: "РП 4.1-2"                 # optional: the rules version it is judged under
seed: 7                           # optional: for shuffles
setup:
  phase: battle                   # recruit | placement | reveal | battle
  active: A                       # players are A and B
  cards:                          # deck cards are listed top first
    - {id: vail, card: "Вайл", owner: B, at: c4}
    - {id: und, card: "Карлик Унд", owner: A, host: vail}
    - {id: orc, card: {name: "Орк", type: creature, subtype: ground, life: 5}, owner: B, at: d4}
steps:
  - take_control: {card: vail, by: A}
    expect:
      verdict: legal              # legal | illegal | undetermined
      fired: ["535.8", "535.1.1"] # these clauses appear in the trace (a subset)
      cards:
        und: {subtype: parasite, host: vail, controller: A}
        vail: {controller: A, control_marker: true}
  - attack: {attacker: vail, target: orc}
    expect: {verdict: illegal, forbidden_by: ["211.3.1"]}
"""


def test_the_issue_example_runs_verbatim(index: rules_index.RulesIndex, library: engine.CardLibrary) -> None:
    result = run(ISSUE_EXAMPLE, index, library)
    assert result.ok, [e for st in result.steps for e in st.expectations if not e.ok]
    assert result.scenario.setup.seed == 7
