"""A clause whose source breaks off mid-sentence (211.5 of РП 4.1-2 ends «Если бестелесный
симбиот») says nothing about what that sentence was to say. A question about it gets «об этом
ничего нет» with the reason, not the clause's whole sentences, which speak of other things; once
the text is whole, the same question is answered by it."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex
from tests import fictional_rules


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


@pytest.mark.parametrize(
    "query",
    [
        "бестелесный симб небестелесный хост",
        "можно ли бестелесного симбиота посадить на обычное существо",
        # the host ceasing to be incorporeal is 211.3's «перестаёт быть его хозяином» by its words only
        "у меня бестелесный симбиот а хозяин не бестелесный, так можно? "
        "и что если хозяин перестал быть бестелесным",
        # a companion is a symbiote (jargon.yaml's broader word)
        "бестелесный компаньон на обычное небестелесное существо можно?",
        # the two words in the other order («симбиот бестелесный»), as spoken
        "а если сам симбиот бестелесный а его хозяин перестал быть бестелесным что тогда с таким "
        "симбиотом происходит",
        # 211.8.1 has «прочие подтипы существ» (jargon.yaml's «обычное существо») and ranks
        # above 211.5, which still breaks off where the question's two words would be
        "бестелесный симбиот на обычное существо",
    ],
)
def test_a_question_about_where_the_text_breaks_off_is_not_answered(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert not result.hits
    assert not result.answer.answered and result.answer.clause == "211.5"
    assert "п. 211.5 обрывается на полуслове" in result.answer.reason
    assert result.answer.cut_off == "Если бестелесный симбиот"  # the sentence it breaks off in
    assert "бестелесн" in result.answer.reason  # the words it breaks off at, as typed


@pytest.mark.parametrize(
    "query",
    [
        # the whole sentences of 211.5 answer these
        "можно ли посадить небестелесного симбиота на бестелесное существо",
        "существо стало бестелесным его симбиот",  # «бестелесным | его симбиот» is no pair
        "стала бестелеской что с симбом",
        # «стал бестелесным | паразит умирает»: the two words do not agree, they are no pair
        "хзояин стал бестелесным паразит умирает",
        # a word cut short after the noun qualifies the next one, not the symbiote
        "небестелесный симб бестелесн сущ-во",
    ],
)
def test_what_the_whole_sentences_of_a_cut_off_clause_say_is_answered(ix: RulesIndex, query: str) -> None:
    result = ix.lookup(query)
    assert result.answer.answered and result.hits[0].id == "211.5"


def test_once_the_sentence_is_whole_the_same_question_is_answered() -> None:
    whole = rules_index.load_texts(fictional_rules.as_files(fictional_rules.fictional_texts()))
    assert not whole.get("211.5").cut_off
    result = whole.lookup("бестелесный симб небестелесный хост")
    assert result.answer.answered and result.hits[0].id == "211.5"


def test_a_noun_after_the_noun_is_no_qualifier_of_the_cut_sentence(ix: RulesIndex) -> None:
    # «симбиоту бестелесность»: a noun and a noun, not 211.5's «бестелесный симбиот»
    result = ix.lookup("симбиоту бестелесность даёт хозяин?")
    assert "обрывается" not in result.answer.reason


def test_a_symbiote_typed_with_a_separate_not_is_the_rules_whole_word(ix: RulesIndex) -> None:
    # «не бестелесного паразита» is 211.5's «Небестелесного симбиота нельзя поместить на
    # бестелесное существо», a whole sentence, not the one its source breaks off in
    result = ix.lookup("можно ли не бестелесного паразита посадить на бестелесное существо")
    assert result.answer.answered and not result.answer.cut_off and result.hits[0].id == "211.5"
    # without «не» it is the sentence that breaks off
    assert ix.lookup("бестелесный паразит на бестелесное существо можно?").answer.cut_off
