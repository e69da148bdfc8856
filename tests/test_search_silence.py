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
