"""Issue 23, fourth pass: a multi-word meaning a clause states only in part, and the other
behaviours of this pass (each test fails without its change)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import rules_index
from rules_index import RulesIndex
from rules_index.search import query, retrieval
from rules_index.search.corpus import build
from rules_index.tables import DATA_DIR, Derivation, load_tables
from rules_index.text import Analyzer


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def test_a_meaning_stated_in_part_with_its_noun_counts_for_the_clause(ix: RulesIndex) -> None:
    # «переманил» is «взять под контроль»; 535.1.1 says «под контролем», not «взять»: the noun of
    # the meaning is there, so the clause about the control marker answers.
    result = ix.lookup("переманил существо, чей маркер")
    assert result.answer.answered
    assert result.hits[0].id == "535.1.1"


def test_a_meaning_is_not_stated_by_its_modifier_alone(ix: RulesIndex) -> None:
    # «ходит первым» is «первый ход»; 211.2's «в первом ряду» has the modifier, not the turn.
    assert ix.lookup("кто ходит первым после рассадки").hits == ()
    assert ix.lookup("кто ходит первым").hits == ()


def test_a_meaning_stated_in_part_counts_in_part_for_the_ranking(
    ix: RulesIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 535.1.1 has «контролем» of «взять под контроль»: half the meaning covers half its weight.
    corpus = build(ix.paragraphs, {})
    q = query.read(corpus, "переманил маркер")
    d = corpus.first["535.1.1"]
    with_part = retrieval.word_scores(corpus, q.words)[0][d]
    monkeypatch.setattr(retrieval, "PARTIAL_SHARE", 0.0)
    without = retrieval.word_scores(corpus, q.words)[0][d]
    assert with_part > without


def test_a_verb_of_the_other_aspect_finds_its_noun(ix: RulesIndex) -> None:
    # «просматривают» (imperfective, «-ива-», «а» in the root) is «просмотр» of 535.5.1.1.
    result = ix.lookup("когда при призыве колоду не просматривают")
    word = next(w for w in result.words if w.word == "просматривают")
    assert (word.how, word.found) == ("derived", ("просмотр",))
    assert result.hits[0].id == "535.5.1.1"


def test_aspect_variants_follow_the_derivation_table() -> None:
    analyzer = Analyzer(load_tables())
    assert analyzer.aspect_variants("просматрива") == ("просмотр",)
    assert "срабатыва" in analyzer.aspect_variants("сработа")
    assert analyzer.aspect_variants("перемешива") == ()  # no «а» to turn back
    bare = Analyzer(replace(load_tables(), derivation=Derivation()))
    assert bare.aspect_variants("просматрива") == ()


def test_a_word_typed_twice_finds_the_clause_about_several_of_its_kind(ix: RulesIndex) -> None:
    # 535.7.4: «несколько особенностей "инкарнация Х"» — which of two incarnations applies.
    assert ix.search("инкарнация 2 и инкарнация 3, какая работает", 1)[0].id == "535.7.4"
    assert ix.search("симб на симба", 1)[0].id == "211.4"  # «на другого симбиота» still


def test_the_words_of_two_of_a_kind_are_data(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("corpus"))
    asks = (data / "asks.yaml").read_text(encoding="utf-8").replace("другой, несколько]", "другой]")
    (data / "asks.yaml").write_text(asks, encoding="utf-8")
    ix = rules_index.load_default()
    corpus = build(ix.paragraphs, {}, load_tables(data))
    assert corpus.another_keys == frozenset({"друг"})
    assert build(ix.paragraphs, {}).another_keys == frozenset({"друг", "нескольк"})


def test_a_light_verb_weighs_little_in_the_ranking(ix: RulesIndex) -> None:
    # «считается» says what is asked, not about what: 535.2 defines taking into the squad, 535.9
    # only says a squad «считается нелегальным».
    assert ix.search("что считается взятием в отряд", 1)[0].id == "535.2"
