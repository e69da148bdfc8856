"""Clause numbers said aloud and typed by a phone's voice input («двести одиннадцать три»), and
words it heard as two («сим биота»)."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex
from rules_index.search import spoken
from rules_index.tables import load_tables


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("двести одиннадцать три", "211.3"),
        ("двести одиннадцать точка три что там", "211.3 что там"),
        ("пятьсот тридцать пять пять один два", "535.5.1.2"),
        ("пятьсот тридцать пять точка семь точка четыре", "535.7.4"),
        ("двести одиннадцать десять", "211.10"),
        # ordinals in any case, read by their dictionary forms
        ("ссылается на пятьсот тридцать шестой пункт", "ссылается на 536 пункт"),
        ("в пятьсот тридцать пятом разделе", "в 535 разделе"),
        # no hundred said, or a hundred alone: words, not a clause
        ("два симбиота на одно существо", "два симбиота на одно существо"),
        ("сто раз за бой", "сто раз за бой"),
        ("двести одиннадцать ноль", "211 ноль"),
        # a hundred and units with no subclause: a count («сто два симбиота»)
        ("сто два симбиота", "сто два симбиота"),
        # one number's words stand apart only by spaces: what is typed between them stays
        ("двести 11 три", "двести 11 три"),
        ("двести одиннадцать, два симбиота", "211, два симбиота"),
        ("пятьсот тридцать пять, первый игрок берет карты?", "535, первый игрок берет карты?"),
        ("двести одиннадцать. Три симбиота можно?", "211. Три симбиота можно?"),
    ],
)
def test_a_clause_number_said_in_words_is_read_as_digits(said: str, read: str) -> None:
    asks = load_tables().asks
    assert spoken.read_said(asks.numerals, asks.joins, said)[0] == read


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("Симбиоты раздел двести одиннадцать что там вообще написано", "211"),
        ("покажи весь раздел взятие карт в отряд пятьсот тридцать пять", "535"),
        ("двести одиннадцать три", "211.3"),
        ("пятьсот тридцать пять пять один два", "535.5.1.2"),
    ],
)
def test_a_clause_said_aloud_is_found_by_its_number(ix: RulesIndex, query: str, first: str) -> None:
    result = ix.lookup(query)
    assert result.hits and result.hits[0].id == first, [h.id for h in result.hits]


def test_a_clause_said_aloud_is_reported_as_said(ix: RulesIndex) -> None:
    # «Понято: «двести одиннадцать три» → п. 211.3», not the digits the judge never typed
    words = ix.lookup("двести одиннадцать три").words
    assert [(w.word, w.how) for w in words] == [("двести одиннадцать три", "number")]
    assert words[0].found[0] == "211.3"
    # with the word that says it is a clause
    words = ix.lookup("пункт двести одиннадцать три").words
    assert [(w.word, w.how) for w in words] == [("пункт двести одиннадцать три", "number")]


def test_a_clause_said_aloud_that_the_rules_lack_is_said_to_be_absent(ix: RulesIndex) -> None:
    result = ix.lookup("друг ссылается на какой то пятьсот тридцать шестой пункт")
    assert result.answer.reason == "пункта 536 нет в загруженных правилах, на него ссылается п. 534.7"


@pytest.mark.parametrize(
    ("said", "word", "first"),
    [
        ("два сим биота на одно существо можно или нет", "симбиота", "211.6"),
        ("ну вот на бес телесное существо можно компаньона обычного поставить", "бестелесное", "211.5"),
        ("пример с многоликим и су гедом где это", "сугедом", "211.8.1"),
        # a little word heard apart from the rest of the word: «за» + «мещающая», no word alone
        ("короче что такое за мещающая особенность", "замещающая", "534.7"),
        # … «фазу» is a word, but the rules write «подфазу» whole
        ("кто контролирует карту которую я набрал в под фазу набора", "подфазу", "535.3"),
    ],
)
def test_a_word_voice_input_heard_as_two_is_one(ix: RulesIndex, said: str, word: str, first: str) -> None:
    result = ix.lookup(said)
    assert word in [w.word for w in result.words], result.words
    assert result.answer.answered and result.hits[0].id == first, [h.id for h in result.hits]


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        # «ходом» is a word of the rules, but «ход» is one too and «ом» a word of the dictionary
        ("ход ом", "ход ом"),
        # a little word keeps them apart («небестелесный» is a word of the rules)
        ("не бестелесный паразит", "не бестелесный паразит"),
        # together no word of the rules
        ("симбиот бестелесный", "симбиот бестелесный"),
        # a half no dictionary knows beside a word of the rules is a piece of one
        ("рас садки", "рассадки"),
        # a little word and a word of the dictionary are two, though «пропустую» reads as a word
        # of the rules («пропустить»)
        ("что в правилах про пустую колоду", "что в правилах про пустую колоду"),
    ],
)
def test_two_words_that_are_words_stay_two(ix: RulesIndex, typed: str, read: str) -> None:
    from rules_index.search import query

    c = ix._search.corpus
    assert query.rejoin(c, typed, c.analyzer.stemmer()) == read
