"""Issue 23: a search that knows when the rules are silent, and is never silent when they speak.

One test per example of the issue's «Why», then the decision's evidence, the kinds of question
(how many, what is), the jargon that grows (each entry with its query), the most specific clause.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules_index
from rules_index import CorpusError, RulesIndex, understood
from rules_index.model import SearchResult
from rules_index.search import passing, query, retrieval
from rules_index.tables import DATA_DIR, load_tables


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def first(ix: RulesIndex, query: str) -> str:
    hits = ix.search(query, 3)
    return hits[0].id if hits else ""


def lines(result: SearchResult) -> list[str]:
    """What the CLI and the page say about the words and the decision."""
    said = [understood.understood(result.words), understood.not_found(result.words)]
    return [line for line in [*said, *understood.answer_lines(result.answer)] if line]


# The examples -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "паразита можно только на существо оппа",
        "паразит на юнита соперника",
        "паразит только на тварь врага",
        "паразит на существо вражины",  # not in the table: like «враг» by its form
        "паразит на вражеского юнита",
    ],
)
def test_table_slang_for_the_opponent_is_answered_by_211_1_and_211_2(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered, lines(result)
    assert result.hits[0].id in ("211.1", "211.2"), [h.id for h in result.hits]
    assert "противник" in " ".join(understood.understood(result.words).split("; ")), lines(result)


@pytest.mark.parametrize("query", ["как работает свет фонаря", "свет фонаря бул багура", "фонарь булбагура"])
def test_the_effect_an_example_names_is_answered_by_its_clause(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.answer.clause == "534.5", lines(result)
    assert result.hits[0].id == "534.5"


def test_who_goes_first_is_not_in_these_rules_and_the_page_says_which_words(ix: RulesIndex) -> None:
    result = ix.lookup("кто ходит первым")
    assert result.hits == () and not result.answer.answered
    assert result.answer.missing == ("ходит первым",)
    assert understood.not_found(result.words) == "Не нашлось в тексте: «ходит первым»"
    # «ходит» is read as a turn here, never as the movement of 211.10
    assert all(w.how != "jargon" or "движение" not in w.found for w in result.words)


def test_the_readme_example_host_died_puts_211_4_first(ix: RulesIndex) -> None:
    hits = [h.id for h in ix.search("хост умер", 5)]
    assert hits[0] == "211.4", hits
    # 535.7.3's «существо» is no host: the broader word counts only where symbiotes are spoken of
    assert "535.7.3" not in hits[:3], hits


@pytest.mark.parametrize(
    ("query", "child", "parent"),
    [
        ("симбиот сменил хозяина подтип меняется?", "211.3.1", "211.3"),
        ("у хозяина сменился контролирующий игрок, особенности паразита", "211.3.1", "211.3"),
        ("потерял контроль а карта не может быть взята в отряд противника", "535.8.1", "535.8"),
        ("вызов без названия карты как искать", "535.5.1.1", "535.5.1"),
        ("куда кладут показанные для вызова карты", "535.5.1.2", "535.5.1"),
        ("инкарнировать некуда, клетки заняты", "535.7.2", "535.7"),
        ("инкарнация нарушает правила что тогда", "535.7.2", "535.7"),
        # «заместить» typed as a verb: 534.7.1 says «не может быть замещена», 534.7 has only the
        # noun of «эффекты замещения»
        ("замещающую особенность заместить когда она в стеке", "534.7.1", "534.7"),
        ("можно ли заместить замещающую особенность когда она кладется в стек", "534.7.1", "534.7"),
    ],
)
def test_a_detail_only_a_subclause_states_puts_it_above_its_parent(
    ix: RulesIndex, query: str, child: str, parent: str
) -> None:
    hits = [h.id for h in ix.search(query, 5)]
    assert hits[0] == child, hits


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        # 535.5.1 «он вправе посмотреть содержимое колоды»; 535.5.1.1 tells when «просмотр колоды
        # не производится»
        ("можно смотреть колоду при вызове", "535.5.1"),
        ("можно ли на карту положить не симбиота", "211.8.1"),  # «могут быть помещены только симбиоты»
    ],
)
def test_may_one_is_answered_first_by_the_clause_that_allows_or_forbids_the_doing(
    ix: RulesIndex, query: str, clause: str
) -> None:
    assert first(ix, query) == clause


@pytest.mark.parametrize(
    ("query", "parent"),
    [
        ("симбиот помещается на другую карту кто становится хозяином", "211.3"),
        ("что значит взять карту под контроль", "535.8"),
        ("объявляя вызов игрок смотрит колоду", "535.5.1"),
        ("правила инкарнации по умолчанию", "535.7"),
    ],
)
def test_a_question_about_the_whole_rule_puts_the_parent_first(
    ix: RulesIndex, query: str, parent: str
) -> None:
    assert first(ix, query) == parent


# The decision and its evidence ------------------------------------------------------------------


def test_the_evidence_names_the_clause_and_how_each_word_is_there(ix: RulesIndex) -> None:
    result = ix.lookup("хост умер")
    assert understood.answer_lines(result.answer)[0] == (
        "Ответ есть: п. 211.4 — «хост» → существо (более общее слово); «умер» → погибает (жаргон)"
    )
    assert all(e.central and e.where == "text" for e in result.answer.evidence)


def test_a_word_found_only_in_an_example_is_said_so_and_alone_answers_nothing(ix: RulesIndex) -> None:
    # 534.5's example says wounds still count as from poison: no rule about poison
    result = ix.lookup("как работает яд")
    assert result.hits == () and not result.answer.answered
    evidence = {e.word: e for e in result.answer.evidence}
    assert evidence["яд"].where == "example" and not evidence["яд"].central
    assert any("только в примере" in line for line in lines(result)), lines(result)


def test_an_example_counts_for_its_clause_with_the_rule(ix: RulesIndex) -> None:
    # the rule says «замещение», its example the healing replaced by wounding
    result = ix.lookup("замена лечения ранением соседа")
    assert result.answer.answered and result.hits[0].id in ("534.7", "534.7.2"), lines(result)
    where = {e.word: e.where for e in result.answer.evidence}
    assert where["лечения"] == "example" and where["замена"] == "text", where


def test_cards_of_an_example_are_what_it_is_about(ix: RulesIndex) -> None:
    result = ix.lookup("многоликий и сугед")
    assert result.answer.answered and result.answer.clause == "211.8.1"
    assert {e.where for e in result.answer.evidence} == {"name"}


@pytest.mark.parametrize(
    ("query", "clause"),
    [
        (
            "у меня вожак сатиров целый его лечат и я хочу вместо этого ранить стоящего рядом "
            "вражину, опп говорит это сразу происходит а я думаю через стек",
            "534.7.2",
        ),
        (
            "по клеткам под фонарем выстрел нанес на рану больше это рана от выстрела или от воздействия",
            "534.5",
        ),
    ],
)
def test_a_question_naming_an_examples_card_reads_the_example_as_its_clause(
    ix: RulesIndex, query: str, clause: str
) -> None:
    # The question names what the example is about (Вожак сатиров, «свет фонаря»): the
    # example's other words are its topic, not a passing mention
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == clause, lines(result)


def test_a_thing_the_rules_never_name_asked_of_an_examples_card_is_not_answered(ix: RulesIndex) -> None:
    # «в начале хода» is Бул'Багур's text in 534.5's example; regeneration is what is asked (a
    # term of another section, asks.yaml `elsewhere`: it outweighs the card and the example's words)
    result = ix.lookup("регенерация у бул'багура в начале хода")
    assert result.hits == () and result.answer.missing == ("регенерация",), lines(result)
    # a thing no table knows asked of the card: the clause names only the card
    result = ix.lookup("чешуя у бул'багура в начале хода")
    assert result.hits == () and "называет только карту" in result.answer.reason, lines(result)


def test_words_the_text_lacks_are_shown_never_dropped(ix: RulesIndex) -> None:
    result = ix.lookup("как считается золото при наборе отряда")
    assert "«золото»" in understood.not_found(result.words)
    assert "золото" in result.answer.missing


def test_a_word_matched_only_beside_a_cross_reference_is_no_answer(ix: RulesIndex) -> None:
    # 534.7 has «в порядке, описанном в 536»: the order is 536's, which these rules lack
    result = ix.lookup("в каком порядке вскрываются карты")
    assert not result.answer.answered, lines(result)


def test_the_words_a_parenthesised_reference_follows_are_the_clauses_own(ix: RulesIndex) -> None:
    # 535.5.1.2: «помещаются в руку (см. 207. Рука)» states the hand; the parenthesis only says
    # where to read more about it
    result = ix.lookup("почему карта при вызове в руке")
    assert result.answer.clause == "535.5.1.2" and result.answer.coverage == 1.0, lines(result)
    assert {e.word: e.where for e in result.answer.evidence}["руке"] == "text"


@pytest.mark.parametrize(
    "query",
    [
        # 211.4 speaks of flyers and ground creatures, never of attacking them; 535.4 of the
        # auxiliary zone, not of attacks on it
        "может ли летающее существо атаковать наземное",
        "можно атаковать существо во вспомогательной зоне",
    ],
)
def test_may_one_do_what_a_clause_never_says_is_not_answered_by_its_other_words(
    ix: RulesIndex, query: str
) -> None:
    result = ix.lookup(query)
    assert result.hits == () and "вопрос «можно ли»" in result.answer.reason, lines(result)


@pytest.mark.parametrize(
    "query", ["можно ли сдаться", "как работает броня", "сколько кристаллов в начале игры"]
)
def test_a_topic_the_rules_never_name_gets_nothing(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.hits == () and not result.answer.answered, lines(result)


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("летающее существо может стать защитником", "защитником"),
        ("как считается золото при наборе отряда", "золото"),
        ("у меня существо с регенерацией, в какой момент оно лечится", "регенерацией"),
        # an adjective of such a term is no word of a long question's story
        (
            "в отряде у игрока две уникальные карты с одинаковым названием, игрок Б говорит что "
            "уникальную можно брать в отряд только одну, так ли это",
            "уникальные",
        ),
        # how a battle is won or lost: a section the fragments lack, whatever a clause says of a field
        ("если у игрока на поле не осталось существ, это сразу поражение или ход доигрывают", "поражение"),
        # … and its verbs, which weigh as the term («побеждает» is asked, not a word of a story)
        ("как побеждает игрок в бою", "побеждает"),
    ],
)
def test_a_term_of_another_section_is_what_the_question_asks_about(
    ix: RulesIndex, query: str, term: str
) -> None:
    # asks.yaml `elsewhere`: the defender, gold, regeneration are treated by sections these
    # fragments lack; 211.4 on flyers, 535.3 on the squad, 534.7.1 on a start of turn do not answer
    result = ix.lookup(query)
    assert result.hits == () and term in result.answer.missing, lines(result)


@pytest.mark.parametrize(
    ("query", "lacking"),
    [
        # two things named together: 534.8 has «защит», never a flyer («первый ход» is read whole
        # as jargon.yaml's meaning, which the text lacks: tests/test_search_chat.py; «защитник»,
        # a defender, is no «защита»: tests/test_search_linking.py)
        ("защита летуна", "летуна"),
    ],
)
def test_a_terse_query_is_not_answered_by_a_clause_that_has_one_of_its_two_things(
    ix: RulesIndex, query: str, lacking: str
) -> None:
    result = ix.lookup(query)
    assert result.hits == () and f"«{lacking}»" in result.answer.reason, lines(result)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("симбиот на летуна", "211.4"),
        ("маркер контроля", "535.1.1"),
        ("владелец карты", "535.1"),
        ("многоликий стал паразитом", "211.8.1"),  # a doing said in other words
        ("чья карта если её отжали", "535.1"),
        # «существо» is in a quarter of the clauses: 535.8's card taken under control is one
        ("майнд контроль на существо", "535.8"),
    ],
)
def test_a_terse_query_whose_clause_has_both_its_things_is_answered(
    ix: RulesIndex, query: str, expected: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and expected in [h.id for h in result.hits[:3]], lines(result)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "я честно перечитал правила три раза и так и не понял: после вскрытия у меня остался "
            "паразит без хозяина, что с ним будет дальше?",
            "211.7",
        ),
        (
            "вчера на игре соперник забрал моё существо под контроль, а потом эффект закончился, я "
            "правильно понимаю что маркер контроля сам исчезает когда карта возвращается ко мне?",
            "535.1.1",
        ),
    ],
)
def test_the_story_around_a_long_question_does_not_silence_it(
    ix: RulesIndex, query: str, expected: str
) -> None:
    # «перечитал», «честно», «понял», «вчера», «закончился»: the story's words, not its topic
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == expected, lines(result)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Добрый день, можно ли поместить обычного небестелесного симбиота на бестелесное существо? "
            "Нашел такую комбинацию в колоде друга, хочу понять, легально ли это перед турниром.",
            "211.5",
        ),
        (
            "Сижу разбираю карты на выходных. Что значит что инкарнация именная особенность? Встретил "
            "это в правилах и не понял, при чем тут имя.",
            "535.7.4",
        ),
    ],
)
def test_the_sentences_around_the_one_that_asks_are_its_story(
    ix: RulesIndex, query: str, expected: str
) -> None:
    # the combination, the friend's deck, the tournament, the name: told around the sentence with «?»
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == expected, [h.id for h in result.hits]


def test_a_long_question_about_a_thing_the_rules_lack_stays_unanswered(ix: RulesIndex) -> None:
    # the story's words weigh nothing, but «броня» is a noun: the topic the rules never name
    result = ix.lookup(
        "ребята я запутался: как работает броня у существа, она уменьшает все раны "
        "или только от обычных ударов?"
    )
    assert result.hits == () and "броня" in result.answer.missing, lines(result)


# Kinds of question ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("сколько симбиотов можно поместить на одно существо", "211.6"),
        ("симбиотов скока на одно существо", "211.6"),
        ("сколько раз за бой существо может инкарнировать", "535.7.3"),
        ("сколько карт вызвать на одну клетку", "535.5"),
    ],
)
def test_how_many_is_answered_where_a_sentence_states_the_number(
    ix: RulesIndex, query: str, expected: str
) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == expected, lines(result)


@pytest.mark.parametrize(
    "query",
    [
        "сколько карт в колоде",
        "сколько карт в отряде",
        "сколько карт можно держать в руке",
        # 211.4's «не является более наземным существом» compares, it counts nothing
        "сколько ран нужно чтобы существо погибло",
    ],
)
def test_how_many_is_not_answered_by_clauses_without_the_number(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.hits == () and not result.answer.answered, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        "сколько карт в руке в начале",
        "сколько карт вскрывается за один ход",
        "сколько карт на кладбище нужно для возрождения",
        # «раз» is a unit, not a number: 535.7.3's «1 раз за бой» counts incarnations, not turns
        "сколько ходов в бою",
    ],
)
def test_how_many_needs_a_number_that_counts_a_word_of_the_question(ix: RulesIndex, query: str) -> None:
    # 535.7.1 has «карта», «в начале своего хода», «кладбище» and a number, «инкарнация Х»:
    # but the number counts the incarnation, which the question does not name
    result = ix.lookup(query)
    assert result.hits == () and "вопрос «сколько»" in result.answer.reason, lines(result)


def test_how_many_with_a_number_beside_the_word_it_counts(ix: RulesIndex) -> None:
    # «инкарнация Х» counts what the question names: the incarnation
    result = ix.lookup("инкарнация 3 через сколько ходов вернется")
    assert result.answer.answered and result.hits[0].id == "535.7.1", lines(result)


@pytest.mark.parametrize(
    "query", ["сколько раз можно вызывать за бой", "сколько раз можно возродить существо"]
)
def test_how_many_times_needs_a_clause_that_counts_the_doing_asked(ix: RulesIndex, query: str) -> None:
    # 535.7.3's «1 раз за бой» counts incarnations, not summons or resurrections
    result = ix.lookup(query)
    assert result.hits == () and "вопрос «сколько раз», а п. 535.7.3 не говорит" in result.answer.reason, (
        lines(result)
    )
    result = ix.lookup("сколько раз за бой существо может инкарнировать")
    assert result.answer.answered and result.hits[0].id == "535.7.3", lines(result)


def test_how_long_is_no_question_of_how_many(ix: RulesIndex) -> None:
    # «до конца вашего следующего хода» says how long; no count does
    result = ix.lookup("сколько длится свет фонаря")
    assert result.answer.answered and result.hits[0].id == "534.5", lines(result)
    # little words may stand between «сколько» and the verb of lasting
    result = ix.lookup(
        "у него Бул'Багур посветил светом фонаря сколько это действует до конца хода или дольше"
    )
    assert result.answer.answered and result.hits[0].id == "534.5", lines(result)


def test_how_many_says_why_when_the_words_are_there(ix: RulesIndex) -> None:
    reason = ix.lookup("сколько карт в колоде").answer.reason
    assert (
        reason.startswith("вопрос «сколько», а п. 535.5")
        and "не называет числа для «карт», «колоде»" in reason
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("что такое маркер контроля", "535.1.1"),
        ("что значит вызвать карту", "535.5"),
        ("что значит возродить", "535.6"),
        ("замена которая выбирает цель это что за штука", "534.7"),
        # what an example is about is what the example shows
        ("что такое свет фонаря", "534.5"),
        # «как работает X» asks what X is and does: the clause that defines it
        ("как работает инкарнация", "535.7"),
    ],
)
def test_what_is_is_answered_by_a_definition(ix: RulesIndex, query: str, expected: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == expected, lines(result)


@pytest.mark.parametrize(
    "query",
    [
        "что такое фишка",
        "что такое ход",
        "что такое зона битвы",
        "что делает артефакт",
        "кто такой активный игрок",
    ],
)
def test_what_is_is_not_answered_by_a_clause_that_only_uses_the_word(ix: RulesIndex, query: str) -> None:
    # «Возродить карту – это … в зону битвы» defines «возродить», not «зона битвы»
    result = ix.lookup(query)
    assert result.hits == () and "вопрос «что такое»" in result.answer.reason, result.answer


@pytest.mark.parametrize(
    "query", ["как работает броня у хозяина паразита", "что делает броня хозяина паразита"]
)
def test_what_is_asked_of_a_thing_the_rules_never_name_is_not_answered(ix: RulesIndex, query: str) -> None:
    # the host and the parasite are there (211.2 defines the host); the armour asked about is not
    result = ix.lookup(query)
    assert result.hits == () and "нет «броня»" in result.answer.reason, lines(result)


@pytest.mark.parametrize(
    "query",
    [
        "что такое стек",  # 535.1.1: «… является эффектом правил игры и не использует стек»
        "что такое колода",  # 535.1: «Игрок, в колоде которого …, является владельцем карты»
        "что такое летающее существо",  # 535.4: «если вызываемая карта является летающим существом»
        "что такое воздействие",  # 534.8: «эффект замещения … считается воздействием»
    ],
)
def test_is_and_counts_as_define_their_subject_only(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.hits == () and "вопрос «что такое»" in result.answer.reason, lines(result)


def test_is_called_defines_the_words_after_it(ix: RulesIndex) -> None:
    # 535.1: «Игрок, под чьим контролем находится карта …, называется игроком, контролирующим карту»
    result = ix.lookup("что значит контролировать карту")
    assert result.answer.answered and result.hits[0].id == "535.1", lines(result)


def test_which_one_asked_with_many_words_is_no_question_of_definition(ix: RulesIndex) -> None:
    # «что за символ у … вместо …» asks which symbol, not what a symbol is: 211.1 says which
    result = ix.lookup("что за символ ставится у паразитов вместо запаса движения")
    assert result.answer.answered and result.hits[0].id == "211.1", lines(result)


def test_the_answer_is_part_of_the_json_result(ix: RulesIndex) -> None:
    data = ix.lookup("кто ходит первым").to_dict()
    assert data["answer"]["answered"] is False and data["answer"]["missing"] == ["ходит первым"]


# Jargon that grows ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "word", "means", "clause"),
    [
        # the opponent
        ("паразит на существо оппонента", "оппонента", "противник", ("211.1", "211.2")),
        ("паразит на юнита оппу", "оппу", "противник", ("211.1", "211.2")),
        ("паразит на врагу", "врагу", "противник", ("211.1", "211.2")),
        ("паразит на существо соперником", "соперником", "противник", ("211.1", "211.2")),
        # the host
        ("носитель погиб", "носитель", "хозяин", ("211.4",)),
        ("xост улетел", "xост", "хозяин", ("211.4",)),
        # dying
        ("хоста убили, паразит остается?", "убили", "погибает", ("211.4",)),
        ("носителя вынесли", "вынесли", "погибает", ("211.4",)),
        # taking control
        ("захватил контроль над существом", "захватил", "взять под контроль", ("535.8",)),
        (
            "перетянули карту к себе, противник больше не контролирует?",
            "перетянули",
            "взять под контроль",
            ("535.8",),
        ),
        (
            "противнице достался мой хост, паразит остается паразитом?",
            "достался",
            "взять под контроль",
            ("211.3.1",),
        ),
        # a symbiote that stays or turns into the other subtype: 211.3.1's «смене подтипа симбиота»
        (
            "перехватили контроль над хостом моего компаньона - компаньон превращается в паразита??",
            "превращается в паразита",
            "смена подтипа симбиота",
            ("211.3.1",),
        ),
        # an effect laid on another; where a card is put; a parasite given to a creature
        ("замену на замену накладывать можно?", "накладывать", "применять", ("534.6",)),
        ("что такое инкарнация и куда встает карта", "встает", "поместить", ("535.7",)),
        ("бестелесному можно дать паразита", "дать паразита", "помещается на существо", ("211.5",)),
        (
            "инкарнация 3 - через сколько ходов карта вернется в бой",
            "вернется в бой",
            "поместить в зону битвы",
            ("535.7.1",),
        ),
        ("знак паразита на карте вместо запаса хода", "запаса хода", "запас движения", ("211.1",)),
        (
            "когда замещающую особенность уже можно перекрыть другим замещением, при выполнении?",
            "перекрыть",
            "заместить",
            ("534.7.1",),
        ),
        ("кто владелец карточки", "карточки", "карта", ("535.1",)),
        ("зарессать карту с чужого кладбища можно", "зарессать", "возрождение", ("535.6",)),
        # a number and the extra information of 534.5
        (
            "замещение меняет только цифру, доп инфа об игродействии остается как у исходного?",
            "доп инфа",
            "дополнительная информация",
            ("534.5",),
        ),
        ("замещение поменяло циферку урона, тип тот же?", "циферку", "значение", ("534.5",)),
        ("у существа две инкарнации с разными иксами какая работает", "иксами", "значение", ("535.7.4",)),
        # the auxiliary zone
        ("вызов летуна сразу во вспомогалку", "вспомогалку", "вспомогательная зона", ("535.4",)),
        ("рес в допзону", "допзону", "вспомогательная зона", ("535.4",)),
        # another host
        ("симб перешел на другого хоста", "перешел", "помещается на другую карту", ("211.3",)),
        ("подселить паразита на чужого юнита", "подселить", "помещается на существо", ("211.1", "211.2")),
        # a creature cut short, dying in other words, sitting on a host, an icon, the owner
        ("паразит на вражеского сущ", "сущ", "существо", ("211.1", "211.2")),
        ("сколько симбов может висеть на одной тушке", "тушке", "существо", ("211.6",)),
        ("на тушке уже висит симб, можно второго", "тушке", "существо", ("211.6",)),
        ("хоста грохнули, что с компаньоном", "грохнули", "погибает", ("211.4",)),
        ("компаньон сел не на того", "сел", "помещается на существо", ("211.1", "211.2")),
        ("симбиот пересел на другого хоста", "пересел", "помещается на другую карту", ("211.3",)),
        ("какой значок у паразита", "значок", "символ", ("211.1",)),
        ("кто овнер карты", "овнер", "владелец", ("535.1",)),
        # a card back with its owner is one back «под контролем владельца» (535.1.1), not a host
        ("карта вернулась к хозяину, маркер", "вернулась к хозяину", "под контролем владельца", ("535.1.1",)),
        # the rules broken, a card's text, a number changed, searching the deck
        ("инкарнировать некуда", "некуда", "нарушает правила", ("535.7.2",)),
        ("инка должна выйти, а третий ряд весь забит", "забит", "нарушает правила", ("535.7.2",)),
        ("нет свободной клетки для инкарнации", "нет свободной клетки", "нарушает правила", ("535.7.2",)),
        ("в тексте карты не написано куда класть симбиота", "написано", "указано", ("211.8",)),
        ("замена увеличила урон на 1, тип тот же?", "увеличила", "меняющие числовое значение", ("534.5",)),
        ("вызов без названия как искать карту", "искать", "поиск", ("535.5.1.1",)),
        ("карта в руке для вызова, а эффект лезет в колоду", "лезет", "взаимодействие", ("535.5.1.3",)),
        # «заявить» is the rules' «объявить» (211.10; «заявлять» in 211.3.1, «заявка» in 535.5.1)
        ("почему нельзя заявить движение", "заявить", "объявить", ("211.10",)),
        ("отобрали контроль, оппонент контролирует?", "отобрали", "взять под контроль", ("535.8",)),
        (
            "законтрил вражину, опп ее еще контролирует вместе со мной?",
            "законтрил",
            "взять под контроль",
            ("535.8",),
        ),
        # the lantern's light as players call it; a failed summon; a creature that comes into play;
        # a judge's «эф.»
        ("у Бул’Багура подсветка клеток, раны от нее не от атак?", "подсветка", "свет фонаря", ("534.5",)),
        ("неудачный вызов карты обратно", "неудачный", "не удалось", ("535.5.1.2",)),
        (
            "вызванное существо появляется открытым или закрытым",
            "появляется",
            "поместить в зону битвы",
            ("535.5",),
        ),
        ("эф замещения поверх другого эф замещения можно", "эф", "эффект", ("534.6",)),
        # to the graveyard from the battle zone: it leaves the zone (211.4)
        ("хоста отправили на кладбище", "отправили на кладбище", "покидает зону битвы", ("211.4",)),
        ("хост ушёл в сброс", "ушёл в сброс", "покидает зону битвы", ("211.4",)),
        # a card that went over to a player is taken under control, not a symbiote moving on
        ("существо перешло под мой контроль", "перешло под мой контроль", "взять под контроль", ("535.8",)),
        # «по умолчанию» (535.5–535.7)
        ("по дефолту вызов куда", "по дефолту", "по умолчанию", ("535.5",)),
        # both players: «у меня и у опп» (534.4.2); a symbiote's abilities that «перестают
        # действовать» are those 211.3.1 says «не деактивируются»; a parasite that is «теперь
        # компаньон» changed its subtype (211.3.1)
        (
            "у меня и у опп замена на один эффект чья применяется",
            "у меня и у опп",
            "оба игрока",
            ("534.4.2",),
        ),
        (
            "симб сменил носителя его абилки перестают действовать на нового?",
            "перестают действовать",
            "деактивируются",
            ("211.3.1",),
        ),
        (
            "хозяина увели под контроль паразит теперь компаньон?",
            "теперь компаньон",
            "смена подтипа симбиота",
            ("211.3.1",),
        ),
        # dying («откинулся»), moving a symbiote («подвигать»), fitting on a creature («влезут»), a
        # creature abbreviated with a hyphen («сущ-ва»), a card taken («забрали»: at the table, under control)
        ("мой хост откинулся, а симбиот на нём что с ним", "откинулся", "погибает", ("211.4",)),
        ("можно ли подвигать паразита отдельно", "подвигать", "перемещение", ("211.10", "211.11")),
        ("а два симбиота на одно существо влезут или тока один", "влезут", "помещается", ("211.6",)),
        ("две инкарнации у сущ-ва какая работает", "сущ-ва", "существо", ("535.7.4",)),
        ("кто владелец карты если ее у меня забрали", "забрали", "взять под контроль", ("535.1",)),
        # where a card «ляжет» is where it is put; 535.7.3: an incarnated card dying is exiled
        ("инкарнировавшая тварь снова сдохла опять на кладбище ляжет?", "ляжет", "помещается", ("535.7.3",)),
        # a creature in gamers' slang («крип»), the number a card moves by («цифра движения»:
        # 211.1's «запас движения»), a control marker called a token («жетон контроля»)
        ("у крипа две инкарнации, какая из них применяется", "крипа", "существо", ("535.7.4",)),
        (
            "у симбиота вместо цифры движения символ, как его двигать",
            "цифры движения",
            "запас движения",
            ("211.1",),
        ),
        (
            "жетон контроля сам снимается когда карту вернули хозяину?",
            "жетон контроля",
            "маркер контроля",
            ("535.1.1",),
        ),
        # a row «забит» where a card is to incarnate breaks 535.7's free cell: 535.7.2's «нарушает»
        ("третий ряд забит инкарнировать некуда что будет", "забит", "нарушает правила", ("535.7.2",)),
    ],
)
def test_each_jargon_entry_reads_as_its_rules_words(
    ix: RulesIndex, query: str, word: str, means: str, clause: tuple[str, ...]
) -> None:
    result = ix.lookup(query)
    heard = {w.word: w for w in result.words}
    assert heard[word].how in ("jargon", "akin") and means in heard[word].found, heard[word]
    assert result.hits and result.hits[0].id in clause, [h.id for h in result.hits]


def test_every_jargon_form_reads_as_something_where_the_rules_write_its_meaning(ix: RulesIndex) -> None:
    # A form of the table typed alone is never «не нашлось» when the loaded rules write every word
    # of its meaning: «антап» (открытый: the rules write «в открытом виде», not «открыть»), «чей
    # он» (little words only), «за партию» (a little word and a word no stopword may swallow).
    corpus = ix._search.corpus
    stemmer = corpus.analyzer.stemmer()
    unread = []
    for entry in load_tables().jargon:
        keys = corpus.analyzer.keys(entry.means, stemmer)
        if not keys or not set.intersection(*(set(corpus.postings.get(k, ())) for k in keys)):
            continue  # a meaning no clause states whole («первый ход»)
        for slang in entry.slang:
            # a form read so only beside another word is typed with the first of them
            slang = f"{slang} {entry.only_with[0]}" if entry.only_with else slang
            q = query.read(corpus, slang)
            _, _, covered = retrieval.word_scores(corpus, q.words)
            words = [
                w for w in passing.report(corpus, slang, q.numbers, q.words, covered) if w.how != "count"
            ]
            if not words or any(not w.how for w in words):
                unread.append(slang)
    assert unread == []


@pytest.mark.parametrize(
    ("query", "word", "like"),
    [
        ("паразит на существо вражины", "вражины", "враг"),
        ("оппонентка отжала моего юнита", "оппонентка", "оппонент"),
    ],
)
def test_a_word_like_a_jargon_word_by_its_form_is_tried_and_said_so(
    ix: RulesIndex, query: str, word: str, like: str
) -> None:
    heard = {w.word: w for w in ix.lookup(query).words}
    assert heard[word].how == "akin" and heard[word].like == like
    assert f"(похоже на жаргон «{like}»)" in understood.word_note(heard[word])


def test_chat_fillers_say_nothing(ix: RulesIndex) -> None:
    result = ix.lookup("короче ребят плз можно ли двигать симбиота")
    assert result.answer.answered and result.hits[0].id == "211.10"
    assert understood.not_found(result.words) == ""


def test_chat_s_toka_is_only_and_no_token(ix: RulesIndex) -> None:
    # «тока», «токо»: chat for «только», never a token; read as one, a terse question of two
    # things lacked it in 211.1 and went silent
    for asked in ("кампаньоны тока на своих?", "компаньоны токо на своих"):
        result = ix.lookup(asked)
        assert result.answer.answered and result.hits[0].id == "211.1", lines(result)


@pytest.mark.parametrize(
    "frame",
    [
        "я новичок, {}",
        "судья, {}",
        "спорим с другом: {}",
        "{}, как правильно?",
        "новичок спрашивает: {}",
        "друг считает, что {}",
        "{}, кто прав?",
        "судья говорит, что {}",
    ],
)
def test_who_asks_and_how_they_judge_it_is_no_topic(ix: RulesIndex, frame: str) -> None:
    # «новичок», «судья», «спор», «правильно», «прав», «говорит», «спрашивает» frame the question; the
    # rules never speak of them, and they must not turn a covered question into «ничего нет»
    for question in ("инкарнация 2 и инкарнация 3, какая работает", "хост умер что с симбом"):
        plain, framed = ix.lookup(question), ix.lookup(frame.format(question))
        assert framed.answer.answered and framed.hits[0].id == plain.hits[0].id


def test_words_of_sequence_say_nothing(ix: RulesIndex) -> None:
    # «сначала», like «потом» and «затем», orders what the question tells; it names no topic
    # (as «начала» it would ask about a start 535.5.1.2 never speaks of)
    result = ix.lookup("почему при вызове карта сначала попадает в руку")
    assert result.answer.answered and result.hits[0].id == "535.5.1.2", lines(result)
    assert "сначала" not in [w.word for w in result.answer.evidence]


def test_a_tournament_is_a_topic_these_rules_do_not_cover(ix: RulesIndex) -> None:
    # a tournament's regulations are not in the game's rules: «турнир» is no filler
    assert ix.lookup("разрешены ли прокси на турнире").hits == ()


def test_which_clause_is_asked_in_any_case_of_the_word(ix: RulesIndex) -> None:
    # «пункт» says the asker wants a clause number, in any case: «по какому пункту»
    result = ix.lookup("по какому пункту карты в отряд")
    assert "пункту" not in [w.word for w in result.words] and result.answer.answered


def test_a_keep_word_these_rules_do_not_write_stands_for_its_broader_words(ix: RulesIndex) -> None:
    # «выстрел» is a rules word of the whole rulebook (jargon.yaml «keep»: a ranged attack); our
    # fragment has only «дальние атаки» (534.5's example), and the word must still read as them
    result = ix.lookup("бул'багур +1 рана от выстрела это выстрел или воздействие")
    shot = next(w for w in result.words if w.word == "выстрела")
    assert shot.how == "broader" and shot.found == ("дальние атаки",)
    assert "выстрела" not in result.answer.missing
    assert result.answer.answered and result.hits[0].id == "534.5"


def test_may_is_no_grave(ix: RulesIndex) -> None:
    # the stemmer cuts «могила» and «могу» to one stem: «могу» is a stopword, not кладбище
    assert all(w.word != "могу" for w in ix.lookup("могу я реснуть паразита").words)


# The tables ------------------------------------------------------------------------------------------


def test_a_keep_word_can_be_limited_to_clauses_with_another_word() -> None:
    host = next(e for e in load_tables().jargon if e.slang == ("хозяин",))
    assert host.keep and host.within == ("симбиот",)


def test_a_bad_asks_table_is_refused_with_its_name(tmp_path: Path) -> None:
    folder = tmp_path
    for f in DATA_DIR.glob("*.yaml"):
        (folder / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "asks.yaml").write_text("quantity: [сколько]\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=re.escape("«asks.yaml»")):
        load_tables(folder)
    (folder / "asks.yaml").write_text("light: сколько\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="«light» — список слов"):
        load_tables(folder)


def test_a_multi_word_meaning_is_stated_where_its_words_stand_together(ix: RulesIndex) -> None:
    # «отжали» → «взять под контроль»: 535.8.1 has «контроль» and «взята» a dozen words apart
    # (it speaks of losing control and of a card no squad may take), which is no such meaning;
    # 535.1, which states who owns a card whatever happens to it, answers
    result = ix.lookup("кто владелец карты если ее отжали")
    assert result.hits[0].id == "535.1", [h.id for h in result.hits]
    c = ix._search.corpus
    d = next(i for i, p in enumerate(c.paragraphs) if p.id == "535.8.1")
    taken = next(w for w in query.read(c, "отжали").words if w.together)
    assert not retrieval.complete(c, taken, d)
    for clause in (
        "535.8",
        "535.2",
    ):  # «Взять карту под контроль», «взятие карты противника под свой контроль»
        d = next(i for i, p in enumerate(c.paragraphs) if p.id == clause)
        assert retrieval.complete(c, taken, d), clause


@pytest.mark.parametrize(
    ("query", "first"),
    [
        # «легально» asks whether one may, as «можно» does: no topic of its own
        ("замещение на замещение легально?", "534.6"),
        # an apology and «фраза» frame what is asked: the term after them is
        ("извините, что означает фраза взятие карты в отряд", "535.2"),
        # … and so does «слово»: the word asked about is the host
        ("а кто такой хозяин у симбиота, откуда вообще это слово в правилах", "211.2"),
    ],
)
def test_words_that_frame_a_question_are_not_its_topic(ix: RulesIndex, query: str, first: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]


@pytest.mark.parametrize(
    "query",
    [
        "бул багур с защитой от летающих, летун стреляет в него выстрелом, работает ли защита",
        "многоликий теряет направленный удар когда изгоняет?",
        "на шаге проверки защит что проверяется раньше, защита от магии или защита от выстрелов",
    ],
)
def test_an_ability_other_sections_treat_is_what_the_question_asks_about(ix: RulesIndex, query: str) -> None:
    # asks.yaml `elsewhere_names`: 534.5's example of Бул'Багур has «дальних атак», 211.8.1's of
    # Многоликий «изгнал», 534.8 «на шаге проверки защит»; none writes the ability's name
    result = ix.lookup(query)
    assert result.hits == () and not result.answer.answered, lines(result)


def test_a_clause_that_covers_a_story_about_an_ability_it_never_names_is_no_answer(ix: RulesIndex) -> None:
    # 534.5's example has the card, the attacks and the wounds (enough of the question's words),
    # never Бул'Багур's protection from flyers, which is what the question asks about
    result = ix.lookup(
        "ну вот бул багур у соперника и у него защита от летающих а мой летун его атакует "
        "что будет урон проходит или нет"
    )
    assert result.hits == (), lines(result)
    assert result.answer.reason == (
        "«защита от летающих» — особенность из других разделов правил, а п. 534.5 о ней не говорит"
    )
    # … while a question that names what the example shows («свет фонаря») asks about it, the
    # protection around it being its story
    result = ix.lookup(
        "бул багур посветил фонарём на клетку где стоит моё существо, потом его лучник стреляет туда. "
        "лишняя рана считается от выстрела? у меня защита от выстрелов"
    )
    assert result.answer.answered and result.hits[0].id == "534.5", lines(result)


def test_a_protection_the_rules_speak_of_is_still_answered(ix: RulesIndex) -> None:
    # «защита от воздействий» is no ability of another section: 534.8 says what counts as one
    result = ix.lookup("Вожак сатиров ранит соседа у которого защита от воздействий")
    assert result.answer.answered and "534.8" in [h.id for h in result.hits[:3]], lines(result)


def test_winning_told_in_a_story_is_the_story_not_the_question(ix: RulesIndex) -> None:
    # a long question's verb is its story, a verb of winning too: 211.7 answers whether a
    # symbiote may stay hidden, whoever won with it
    result = ix.lookup(
        "можно ли не вскрывать своего симбиота после рассадки и держать его скрытым как сюрприз до "
        "середины боя друг так сделал и выиграл а я считаю что это нечестно"
    )
    assert result.answer.answered and result.hits[0].id == "211.7", lines(result)


@pytest.mark.parametrize(
    "query",
    [
        "друг закрыл свое существо атакой а в начале моего хода оно открывается или нет",
        "отравление наносит раны в начале хода или в конце",
        "хозяин паразита в начале хода получает рану от паразита автоматически?",
    ],
)
def test_a_clause_that_says_only_when_does_not_answer_what_happens_then(ix: RulesIndex, query: str) -> None:
    # asks.yaml `turn_times`: 535.7.1's «В начале своего хода» and 534.5's example «В начале хода
    # противника» say when other things happen
    result = ix.lookup(query)
    assert result.hits == () and not result.answer.answered, lines(result)
    assert "совпал только словами о том, когда («начале», «хода»)" in result.answer.reason, (
        result.answer.reason
    )


def test_the_start_of_a_turn_with_what_a_clause_says_then_is_answered(ix: RulesIndex) -> None:
    result = ix.lookup("в начале своего хода карта на кладбище получает жетон инкарнации?")
    assert result.answer.answered and result.hits[0].id == "535.7.1", lines(result)
