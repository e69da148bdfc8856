"""Words a clause has only in passing do not make it an answer.

A step the rules name as the time their statement holds («На шаге проверки защит эффект
замещения … считается воздействием», 534.8) is not what the clause is about: a question about
the step itself («шаг проверки защит когда наступает») is not answered by it (asks.yaml `frames`),
while a question that names the step as its own time («после шага рассадки») still is. A
parenthesis of examples or of an exception («(например, погибает, изгоняется, возвращается в
колоду)», 211.4) does not answer a question that has nothing else of the clause («изгнанную карту
можно вернуть»)."""

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
    # the step's name as typed: its frame word and the words after it in order
    keys = ["шаг", "примен", "эффект", "замещ", "когд"]
    assert c.names_a_step(d["534.7"], keys) == {"шаг", "примен", "эффект", "замещ"}
    assert c.names_a_step(d["534.7"], ["шаг", "когд"]) == frozenset()
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
        # the step's name typed whole: 534.7 names it only as its time, and 534.7.1's «в момент
        # применения» is no step
        "шаг применения эффектов замещения когда наступает",
        "шаг применения эффектов замещения это когда",
        # 535.9: «в подфазу Набора отряд игрока считается нелегальным» defines no phase
        "что такое подфаза набора",
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
        # a judge's note that names the step and what the clause says on it
        ("подфаза набора кто контролер карт", "535.3"),
        ("шаг расадки паразит", "211.1"),
    ],
)
def test_a_question_that_names_the_step_as_its_own_time_is_still_answered(
    ix: RulesIndex, query: str, clause: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == clause, [h.id for h in result.hits]


def test_a_clause_that_has_the_question_only_in_its_parenthesis_of_examples_does_not_answer(
    ix: RulesIndex,
) -> None:
    result = ix.lookup("изгнанную карту можно вернуть в игру")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]
    # 211.4's parenthesis alone; the evidence says so
    c = ix._search.corpus
    assert {"изгн", "возвраща"} <= c.paren_keys[c.first["211.4"]]
    result = ix.lookup("что такое передвижение")
    assert not result.answer.answered
    assert [e.where for e in result.answer.evidence if e.word == "передвижение"] == ["aside"]


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        # the parenthesis is the detail of a clause the question names otherwise
        ("хозяина изгнали, что с симбиотом", "211.4"),
        ("хозяин стал артефактом, симбиот живет?", "211.4"),
        ("вызов верхнего существа колоды", "535.5.1.1"),
    ],
)
def test_a_parenthesis_beside_what_the_question_names_still_answers(
    ix: RulesIndex, query: str, clause: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == clause, [h.id for h in result.hits]


def test_a_parenthesis_of_the_other_cases_a_rule_covers_is_the_rule(ix: RulesIndex) -> None:
    # «вызываемый (возрождаемый или инкарнирующий) симбиот», 211.8: no example, the rule itself
    c = ix._search.corpus
    assert "возрожд" not in c.paren_keys[c.first["211.8"]]
    result = ix.lookup("рес симбионта прямо на существо")
    assert result.answer.answered and "211.8" in [h.id for h in result.hits[:3]]


@pytest.mark.parametrize(
    "query",
    [
        "особенности при гибели когда срабатывают",
        "у моего сущ есть особенность при гибели, опп говорит что в чужой ход она не срабатывает",
    ],
)
def test_a_name_the_rules_quote_only_in_an_aside_is_what_the_question_asks_about(
    ix: RulesIndex, query: str
) -> None:
    # 535.7.3 names «особенностей “при гибели”» in passing; 535.5.2's «срабатывающая особенность»
    # and 211.4's «погибает» are not that name
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_a_clause_that_states_only_a_common_word_of_the_question_does_not_answer(ix: RulesIndex) -> None:
    # 535.7.3 states «существо» (so do most clauses) and names abilities «при гибели» only in an aside
    result = ix.lookup("какие особенности срабатывают при гибели существа")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]
    assert "535.7.3 упоминает это только" in result.answer.reason
    # the step a rule holds in is no passing mention: 535.3 is about «подфаза набора»
    result = ix.lookup("подфаза набора контроль карты")
    assert result.answer.answered and result.hits[0].id == "535.3", [h.id for h in result.hits]


def test_a_question_on_the_clause_around_the_quoted_name_is_still_answered(ix: RulesIndex) -> None:
    result = ix.lookup("уже инкарнировавшая карта изгоняется после срабатывания особенностей при гибели?")
    assert result.answer.answered and result.hits[0].id == "535.7.3"
    assert {e.word: e.where for e in result.answer.evidence}["гибели"] == "aside"


def test_a_term_the_clause_defines_is_no_aside_though_quoted_in_parentheses(ix: RulesIndex) -> None:
    # 211.2: «(“хозяином компаньона” или “хозяином паразита” …)» names what it defines (terms.yaml)
    c = ix._search.corpus
    assert c.aside_names[c.first["211.2"]] == ()
    result = ix.lookup("хозяин компаньона и хозяин паразита что значат эти слова")
    assert result.answer.answered and result.hits[0].id == "211.2"


@pytest.mark.parametrize(
    "query",
    [
        # 534.7 «в порядке, описанном в 536. Эффекты, порождающие игродействия»: 536 is not loaded
        "порождённое игродействие порядок выполнения",
        # 534.5 «(см. 537. История боя.)»; 535.7.3's «за бой» is no «история боя»
        "что такое история боя",
    ],
)
def test_the_title_of_a_section_the_rules_only_cite_is_not_answered(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        # 534.7.2's example writes «выполнена как порождённое игродействие»
        ("вожак сатиров лечение замещает ранением, это порождённое игродействие?", "534.7.2"),
        # 534.5 states the rest and cites the history for its detail
        ("замещение меняет число ран, дополнительная информация для истории боя сохраняется?", "534.5"),
    ],
)
def test_a_clause_that_writes_the_title_or_states_the_rest_still_answers(
    ix: RulesIndex, query: str, clause: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == clause, [h.id for h in result.hits]


def test_a_cited_sections_title_is_part_of_the_reference() -> None:
    c = rules_index.load_default()._search.corpus
    d = c.first["534.7"]
    assert c.cite_names[d] == (("эффект", "порожда", "игродейств"),)
    assert "игродейств" in c.cite_keys[d]
    # a clause number is followed by the next sentence, not a title («согласно п.403.2. Игрок…»)
    assert c.cite_names[c.first["535.3"]] == ()


def _small(text: str) -> RulesIndex:
    return rules_index.load_texts([("r.txt", text.encode())], berserk=False)


def test_a_number_a_sentence_goes_on_after_has_no_title() -> None:
    # only a reference introduces a section's title («описанном в 536. Эффекты…», «(см. 537. …)»)
    ix = _small(
        "100. Раздел.\n100.2. Порядок описан в 300, игрок сбрасывает карту в конце хода.\n"
        "100.4. Подробно в 400. Игрок теряет жетоны при гибели существа.\n"
        "100.5. Смотри (см. 200. Заголовок.) и дальше."
    )
    c = ix._search.corpus
    assert [c.cite_names[c.first[cid]] for cid in ("100.2", "100.4", "100.5")] == [(), (), (("заголовок",),)]
    assert ix.lookup("игрок сбрасывает карту в конце хода").hits[0].id == "100.2"
    assert ix.lookup("игрок теряет жетоны").hits[0].id == "100.4"


def test_a_quoted_name_a_clause_states_in_plain_text_is_answered_there() -> None:
    ix = _small(
        "100. Раздел.\n100.1. Особенности при гибели срабатывают после того, как существо покинуло поле.\n"
        "100.2. Карта изгоняется, если погибает (после срабатывания особенностей “при гибели”)."
    )
    result = ix.lookup("особенности при гибели когда срабатывают")
    assert result.answer.answered and "100.1" in [h.id for h in result.hits[:2]]


def test_a_step_name_ends_where_its_genitive_nouns_end(ix: RulesIndex) -> None:
    # 211.2 «на Шаге рассадки симбиот помещается»: «симбиот помещается» is what it says
    result = ix.lookup("шаг рассадки симбиот помещается куда")
    assert result.answer.answered and result.hits[0].id in ("211.1", "211.2")


def test_a_cited_sections_title_typed_whole_is_a_reference_in_the_citing_clause(ix: RulesIndex) -> None:
    # 534.7 has «эффект» elsewhere too, but «эффекты, порождающие игродействия» is 536's title
    result = ix.lookup("эффекты, порождающие игродействия")
    assert not result.hits
    assert {e.where for e in result.answer.evidence} == {"reference"}
