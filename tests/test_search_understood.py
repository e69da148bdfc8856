"""What the search understood, and the clause a judge would cite first (issue 14, items 1, 2, 5)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_index
from rules_index import QueryError, RulesIndex, understood
from rules_index.cli import main


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


SEEDS = rules_index.load_default()


# The issue's own examples --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("можно ли двигать симбиота", "211.10"),  # was: the heading first, 211.10 13th
        ("хост улетел что с паразитом", "211.4"),  # «улетел» → «становится летающим»
        ("хост умер что с паразитом", "211.4"),  # was 211.2 first
        ("хоста изгнали симб погибает?", "211.4"),
        ("после вызова тасуем колоду?", "535.5.1.3"),  # «тасуем»: a form of the listed «тасовать»
        ("вожака хилят", "534.7.2"),
    ],
)
def test_the_clause_a_judge_cites_comes_first(ix: RulesIndex, query: str, first: str) -> None:
    assert ix.search(query, 3)[0].id == first


def test_headings_rank_below_their_clauses_unless_the_query_is_the_sections_name(ix: RulesIndex) -> None:
    for name in ("симбиоты", "раздел симбиоты", "все про симбов"):
        assert ix.search(name, 1)[0].id == "211", name
    # the section's name that is also a term: the term's definition, then the section
    assert [h.id for h in ix.search("взятие карт в отряд", 2)] == ["535.2", "535"]
    for q in ("паразит", "симбиот на летающем", "симб на симба"):
        found = [h.id for h in ix.search(q, 10)]
        assert found[0] != "211", (q, found)
    # a term's definition stays above the section named the same way
    assert ix.search("взять карту в отряд", 1)[0].id == "535.2"


# Out of scope ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "3 ываыва",
        "ываыв",
        "12345",
        "сколько кристаллов в начале игры",
        "как работает броня",
        "привет",
        "сколько жизней у героя",
        "мулиган",
        "хозяин гоблина",
    ],
)
def test_a_query_the_rules_do_not_answer_gets_no_hits(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.hits == (), [h.id for h in result.hits]
    assert ix.search(query) == []


def test_unmatched_words_are_named_and_counts_match_nothing_alone(ix: RulesIndex) -> None:
    result = ix.lookup("3 ываыва")
    assert result.unmatched == ("ываыва",)
    assert [(w.word, w.how) for w in result.words] == [("3", "count"), ("ываыва", "")]
    # a count still helps other words: «не более 1 карты на клетку»
    hits = ix.search("не более 1 карты на клетку", 3)
    assert {h.id for h in hits} == {"535.5", "535.6", "535.7"}


def test_the_cli_says_nothing_is_there_and_json_is_an_empty_list() -> None:
    out = io.StringIO()
    assert main(["search", "3 ываыва"], out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert understood.NOTHING in text and "«ываыва»" in text
    out = io.StringIO()
    assert main(["search", "3 ываыва", "--json"], out=out, err=io.StringIO()) == 0
    assert json.loads(out.getvalue()) == []


def test_the_cli_says_which_words_matched_what() -> None:
    out = io.StringIO()
    assert main(["search", "хост улетел абракадабра", "--top", "1"], out=out, err=io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Понято: «хост» → хозяин (жаргон); «улетел» → становится летающим (жаргон)")
    assert lines[1] == "Не нашлось в тексте: «абракадабра»"
    assert lines[2].startswith("Ответ есть: п. 211.4 — «хост» → существо (более общее слово)")
    assert lines[3].startswith("1. 211.4")


# What each word matched ------------------------------------------------------------------------


def test_words_the_rules_lack_are_linked_to_words_they_have(ix: RulesIndex) -> None:
    kinds = {w.word: (w.how, w.found) for w in ix.lookup("можно ли смотреть колоду при вызове").words}
    assert kinds["смотреть"][0] == "derived" and "посмотреть" in kinds["смотреть"][1]
    kinds = {w.word: (w.how, w.found) for w in ix.lookup("носителя сдвинули").words}
    assert kinds["носителя"] == ("jargon", ("хозяин",))
    assert kinds["сдвинули"] == ("jargon", ("перемещение",))  # a form of the listed «сдвинуть»


def test_a_real_word_is_not_taken_for_a_typo_of_another(ix: RulesIndex) -> None:
    words = {w.word: w.how for w in ix.lookup("возрождённая карта приходит закрытой").words}
    assert words["приходит"] != "typo"  # «приходит» is no misspelt «приводит»
    assert {w.word: w.how for w in ix.lookup("хазяен").words}["хазяен"] == "typo"


def test_how_it_was_found_names_only_the_words_typed(ix: RulesIndex) -> None:
    hit = ix.search("хост", 1)[0]
    assert hit.id == "211.2"
    assert all(m.word == "хост" for m in hit.matched), hit.matched
    term = next(m for m in hit.matched if m.how == "term")
    assert understood.match_note(term) == "«хост» → «хозяин» (термин правил)"


def test_a_term_typed_twice_is_a_relation_not_the_term(ix: RulesIndex) -> None:
    assert ix.search("замещение замещения", 1)[0].id == "534.6"
    assert not any(m.how == "term" for m in ix.search("симб на симба", 1)[0].matched)


@settings(max_examples=150, deadline=None)
@given(query=st.text(alphabet="хостулемрпазиы 0123456789.,«»абвгд", max_size=60))
def test_every_reason_names_text_the_user_typed(query: str) -> None:
    try:
        result = SEEDS.lookup(query, 5)
    except QueryError:
        return
    for h in result.hits:
        for m in h.matched:
            if m.how == "parent":  # names no word: the subclause came with its parent
                assert not m.word and m.found == SEEDS.parent(h.id), (query, m)
                continue
            assert m.word and m.word in query, (query, m)
    assert all(w.word in query for w in result.words)


def test_a_terms_words_must_stand_in_its_order_and_name_one_thing(ix: RulesIndex) -> None:
    # «хозяин симбиота» is a term (211.2); «симб и хост» names two things
    assert not any(m.how == "term" for m in ix.search("симб и хост рядом стоят?", 1)[0].matched)
    assert ix.search("симб и хост рядом стоят?", 1)[0].id == "211.9"
    # the whole wording of a term, little words included, is that term
    assert ix.search("карта не может быть взята в отряд с другой картой", 1)[0].id == "535.9"
    # a misspelt term still names it
    assert ix.search("замещющая особенность", 1)[0].id == "534.7"


def test_every_kind_of_match_is_said_in_russian(ix: RulesIndex) -> None:
    # a kind without a label was shown as its code: «компа» → компаньона (prefix)
    from rules_index.search import linking

    assert set(linking.WEIGHT) <= set(understood.HOW)
    heard = {w.word: w for w in ix.lookup("компа на вражину при рассадке можно").words}
    assert heard["компа"].how == "prefix"
    assert understood.word_note(heard["компа"]) == "«компа» → компаньона (по началу слова)"
