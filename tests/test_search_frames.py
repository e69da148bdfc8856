"""A step the rules name as the time their statement holds («На шаге проверки защит эффект
замещения … считается воздействием», 534.8) is not what the clause is about: a question about
the step itself («шаг проверки защит когда наступает») is not answered by it (asks.yaml `frames`),
while a question that names the step as its own time («после шага рассадки») still is."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_the_name_of_a_step_is_a_frame_but_the_verb_after_it_is_the_statement(ix: RulesIndex) -> None:
    c = ix._search.corpus
    d = {p.id: i for i, p in enumerate(c.paragraphs)}
    assert c.framed(d["534.8"], "проверк") and c.framed(d["534.8"], "защит")
    # «На шаге проверки защит эффект замещения»: the subject after the name is no part of it
    assert not c.framed(d["534.8"], "эффект")
    # «Компаньоны на Шаге рассадки помещаются»: the verb is what 211.1 says
    assert c.framed(d["211.1"], "рассадк") and not c.framed(d["211.1"], "помещ")


@pytest.mark.parametrize(
    "query",
    [
        "шаг проверки защит когда наступает",
        "шаг проверки защит порядок действий",
        "ход противника шаги",
    ],
)
def test_a_question_about_a_step_itself_is_not_answered_by_a_rule_that_holds_on_it(
    ix: RulesIndex, query: str
) -> None:
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_the_evidence_says_the_clause_names_the_step_only_as_its_time(ix: RulesIndex) -> None:
    result = ix.lookup("шаг проверки защит когда наступает")
    assert result.answer.clause == "534.8"
    assert {e.word: e.where for e in result.answer.evidence}["проверки"] == "frame"


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        ("на шаге проверки защит замещение считается воздействием", "534.8"),
        ("замещение шаг проверки защит", "534.8"),
        ("можно оставить симбиота скрытым после шага рассадки", "211.7"),
        ("кто контролирует карты которые я набрал в подфазу набора", "535.3"),
        ("в какую подфазу симбиот садится на хозяина", "211.2"),
    ],
)
def test_a_question_that_names_the_step_as_its_own_time_is_still_answered(
    ix: RulesIndex, query: str, clause: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == clause, [h.id for h in result.hits]
