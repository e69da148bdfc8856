"""Issue 23, the question's relation: a clause that has the question's words but not what it
asks of them («кто …»: who does it) does not answer it."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex, morph
from rules_index.search import relation


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_who_does_it_is_not_answered_by_the_doing_as_a_noun(ix: RulesIndex) -> None:
    # 211.2 has «до вскрытия … в первом ряду», 535.6 «во вскрытом виде»: when and how cards
    # are revealed, never who reveals first.
    result = ix.lookup("кто первым вскрывает карты")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_the_doing_a_question_of_who_asks_is_the_first_after_who(ix: RulesIndex) -> None:
    # «начинает» is asked; «набрал отряд» (535.3's «Набор») is who the player thinks it is
    result = ix.lookup("у нас спор кто из нас начинает бой тот кто набрал отряд дешевле или монетку кидают")
    assert not result.hits, [h.id for h in result.hits]
    assert result.answer.reason == "вопрос «кто», а правила не говорят, кто «начинает»", result.answer


def test_who_does_it_is_answered_where_a_clause_says_it_with_its_doer(ix: RulesIndex) -> None:
    # 211.7: «Игрок обязан вскрыть всех своих скрытых симбиотов».
    result = ix.lookup("кто вскрывает симбиотов")
    assert result.answer.answered and result.answer.clause == "211.7", result.answer
    # an active participle names its doer: «Контролирующий симбиота игрок» (211.7)
    result = ix.lookup("кто контролирует симбиота")
    assert result.answer.answered and result.hits[0].id == "211.7", result.answer


def test_who_does_it_is_answered_by_a_reflexive_of_the_doing(ix: RulesIndex) -> None:
    # 211.11: «Если перемещается хозяин, то его симбиот перемещается одновременно с ним»: the
    # reflexive says who moves it (its host), so a question of who is answered there, not silent
    result = ix.lookup("кто перемещает симбиота")
    assert result.answer.answered and result.hits[0].id == "211.11", result.answer


@pytest.mark.parametrize("query", ["когда начинается шаг рассадки", "когда заканчивается подфаза набора"])
def test_when_it_starts_is_not_answered_by_a_clause_about_the_step(ix: RulesIndex, query: str) -> None:
    # 211.1 speaks of «Шаге рассадки», 535.3 of «подфазу Набора»; no clause says when they begin
    # or end, and the rules never write those verbs
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_when_inside_a_sentence_tells_the_situation(ix: RulesIndex) -> None:
    # «когда закончилось вскрытие» says when it happened; the question is whether it lives
    result = ix.lookup("симбиот у меня остался без носителя когда закончилось вскрытие, он живой?")
    assert result.answer.answered and result.hits[0].id == "211.7", result.answer


@pytest.mark.parametrize("query", ["кто первым вызывает", "кто первым рассаживает существ"])
def test_who_goes_first_is_no_first_row(ix: RulesIndex, query: str) -> None:
    # «первым» said of the doer asks an order of turns; 211.2's «в первом ряду» is a row
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_who_first_is_answered_where_a_clause_says_who_does_it(ix: RulesIndex) -> None:
    # 534.4.2: «Активный игрок выбирает, какой именно эффект будет применён»
    result = ix.lookup("замены у обоих, кто первый выбирает")
    assert result.answer.answered and result.hits[0].id == "534.4.2", result.answer


def test_a_doing_done_to_another_thing_is_another_doing(ix: RulesIndex) -> None:
    # 535.5.2: «игрок может пропустить эту срабатывающую особенность» — a trigger, not a turn
    result = ix.lookup("можно ли пропустить ход")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]
    for query in ("можно ли пропустить срабатывающую особенность", "можно ли пропустить вызов"):
        result = ix.lookup(query)
        assert result.answer.answered and result.hits[0].id == "535.5.2", (query, result.answer)


def test_who_asks_only_about_the_verbs_of_its_own_part_of_the_question(ix: RulesIndex) -> None:
    # «кто хозяин» asks who the host is; «вызвал» is said before the comma (211.8 says «вызван»)
    result = ix.lookup("вызвал симбиота способностью, кто хозяин")
    assert result.answer.answered and result.hits[0].id == "211.8", result.answer


@pytest.mark.parametrize(
    ("word", "doer"),
    [
        ("выбирает", True),
        ("вскрыть", True),
        ("контролирующий", True),
        ("вскрытом", False),
        ("вскрытия", False),
    ],
)
def test_a_doer_is_a_verb_or_an_active_participle(word: str, doer: bool) -> None:
    assert morph.analyse(word).doer is doer


@pytest.mark.parametrize(
    ("word", "verbal"),
    [
        ("заместить", True),
        ("замещена", True),
        ("контролирующий", True),
        ("применяя", True),
        ("замещения", False),
    ],
)
def test_a_doing_is_a_verb_a_participle_or_a_gerund(word: str, verbal: bool) -> None:
    assert morph.analyse(word).verbal is verbal


@pytest.mark.parametrize(
    ("word", "ordinal"), [("первым", True), ("третьем", True), ("первой", True), ("симбиот", False)]
)
def test_an_ordinal_is_known_as_such(word: str, ordinal: bool) -> None:
    assert morph.analyse(word).ordinal is ordinal


def test_what_a_thing_is_needs_a_clause_with_the_whole_thing(ix: RulesIndex) -> None:
    # 534.8 has «на шаге проверки защит … считается», but not the attacks the rules speak of
    # elsewhere: «защита от атак» is not what it defines.
    result = ix.lookup("что делает защита от атак")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]
    assert "«атак»" in result.answer.reason, result.answer.reason


def test_a_thing_said_which_by_a_genitive_is_not_another_of_its_kind(ix: RulesIndex) -> None:
    # 535.1.1 speaks of «маркера контроля»; a token's marker is another thing, which these
    # rules never mention (they have «жетон» elsewhere: 535.7.1's incarnation tokens).
    result = ix.lookup("как снять маркер жетона")
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]
    result = ix.lookup("как снять маркер контроля")
    assert result.answer.answered and result.hits[0].id == "535.1.1", result.answer


@pytest.mark.parametrize("query", ["жетоны ран куда класть", "когда существо получает жетон защиты"])
def test_a_token_of_wounds_is_not_an_incarnation_token(ix: RulesIndex, query: str) -> None:
    # 535.7.1/535.7.2 speak of «жетоны инкарнации»: «инкарнации» reads as a genitive too, though
    # its likeliest reading is another case
    result = ix.lookup(query)
    assert not result.answer.answered and not result.hits, [h.id for h in result.hits]


def test_a_list_after_a_noun_is_no_genitive_that_says_which_one(ix: RulesIndex) -> None:
    # 535.4's «вызова (возрождения, инкарнации)» lists doings: «возрождения» is no rebirth of an
    # incarnation; «рес симбионта» is still 211.8's
    c = ix._search.corpus
    assert not relation._owned_otherwise(c, c.first["535.4"], "возрожд")
    assert relation._owned_otherwise(c, c.first["535.7.1"], "жетон")
    assert ix.lookup("рес симбионта").hits[0].id == "211.8"


@pytest.mark.parametrize(
    ("word", "genitive"), [("жетона", True), ("контроля", True), ("инкарнации", True), ("маркер", False)]
)
def test_a_genitive_noun_says_which_one(word: str, genitive: bool) -> None:
    assert morph.analyse(word).genitive is genitive


def test_who_followed_by_a_light_verb_asks_the_chat_not_the_doer(ix: RulesIndex) -> None:
    # «кто шарит» asks who knows; «бить» (211.9's «объявлять атаку») is no doing whose doer is asked
    result = ix.lookup("кто шарит паразит может бить своего хозяина или нет")
    assert result.answer.answered and result.hits[0].id == "211.9", [h.id for h in result.hits]
    # «кто первым вскрывает карты» still asks the doer: 211.7 has the uncovering, not who does it
    assert not ix.lookup("кто первым вскрывает карты").hits


@pytest.mark.parametrize(
    "query",
    ["симбиота на симбиота можно? типа матрешка"],
)
def test_a_thing_the_question_likens_to_is_no_topic(ix: RulesIndex, query: str) -> None:
    # «типа матрёшка» ending the question is a likeness: 211.4 («на другого симбиота») answers
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "211.4", [h.id for h in result.hits]


def test_one_thing_of_each_player_is_no_two_of_a_kind(ix: RulesIndex) -> None:
    # «замещение» typed twice, once «у меня» and once «у оппа»: both players (534.4.2), not several
    # replacements of one player (534.4.1's «несколько эффектов замещения»)
    result = ix.lookup(
        "у меня эффект замещения и у соперника эффект замещения на одно и то же игродействие, "
        "сейчас идет мой ход. кто выбирает какой будет применён?"
    )
    assert result.hits[0].id == "534.4.2", [h.id for h in result.hits]
    assert (
        ix.lookup("и у меня и у опа есть эффект замещения на одно игродействие, кто выбирает").hits[0].id
        == "534.4.2"
    )
    from rules_index.search import ranking

    assert ranking._two_owners("у меня замещение и у него тоже замещение")
    assert ranking._two_owners("у меня, короче, замещение, и у оппа тоже")  # punctuation
    assert not ranking._two_owners("у меня замена на замену и хочу применить обе")
