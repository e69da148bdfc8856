"""Issue 23, third pass: covered questions that came back «ничего нет», questions the rules do
not answer that still got hits, and a subclause against its parent."""

from __future__ import annotations

import pytest

import rules_index
from rules_index import RulesIndex


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_another_form_of_the_same_dictionary_word_is_that_word(ix: RulesIndex) -> None:
    # The stemmer cuts «стоит» to «сто» and «стоящими» to «стоя»; the dictionary knows both as
    # forms of «стоять», and 211.9 says where a symbiote stands.
    result = ix.lookup("на какой клетке стоит симбик")
    word = next(w for w in result.words if w.word == "стоит")
    assert word.how in ("form", "exact") and word.found[0].startswith("стоящ")
    assert result.answer.answered and result.hits[0].id == "211.9"


@pytest.mark.parametrize(
    ("query", "first", "word", "means"),
    [
        # face down is what «во вскрытом виде» rules out
        ("вызванный сущ приходит рубашкой вверх?", "535.5", "рубашкой вверх", "скрытый"),
        # a knight is a creature
        ("а можно мне моего паразитика на моего же рыцаря посадить", "211.1", "рыцаря", "существо"),
        # a terrain is a card that is not a creature
        ("можно сажать симбиота на местность", "211.4", "местность", "карты не являющиеся существами"),
        ("а если вызов не получился, карту обратно в колоду?", "535.5.1.2", "не получился", "не удалось"),
    ],
)
def test_table_words_that_kept_covered_questions_silent(
    ix: RulesIndex, query: str, first: str, word: str, means: str
) -> None:
    result = ix.lookup(query)
    typed = next(w for w in result.words if w.word == word)
    assert typed.how == "jargon" and means in typed.found
    assert result.answer.answered and result.hits[0].id == first
