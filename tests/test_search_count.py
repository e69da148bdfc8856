"""A question that counts more than one of a kind finds the clause that allows only one (211.6
«только одного симбиота», 535.5 «не более 1 карты на клетку»), and an ordinal counts for a
clause only beside the thing it says which one of («третий симбиот» is not «третьем ряду»)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rules_index
from rules_index import RulesIndex
from rules_index.search import query, ranking, retrieval
from rules_index.search.corpus import build
from rules_index.tables import DATA_DIR, load_tables


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def _kinds(ix: RulesIndex, text: str) -> list[frozenset[str]]:
    c = ix._search.corpus
    return ranking.counted_kinds(c, query.read(c, text, ()))


@pytest.mark.parametrize(
    "text",
    [
        "2 симба 1 сущ",  # a digit before the word
        "2 симба на 1 хоста",
        "третий симбиот на то же существо",  # an ordinal after the first before it
        "второй компаньон на хоста",
        "на хосте уже сидит компаньон можно еще паразита подселить",  # «ещё», two symbiotes
        "у моего существа уже есть компаньон можно сверху еще паразита от противника",
        # «уже» before both, in one part with the first: one is there, the other is to be added
        "у опа на юните уже висит его компаньон, могу я туда своего паразита докинуть",
        "двух компаньонов на одно существо",  # a count in the genitive (asks.yaml «pair»)
        "несколько симбиотов на одно существо",
    ],
)
def test_a_question_counting_symbiotes_finds_the_clause_allowing_one(ix: RulesIndex, text: str) -> None:
    # 211.6: «На существо можно поместить только одного симбиота» (asks.yaml «limit»)
    assert ix.search(text, 3)[0].id == "211.6"


def test_an_ordinal_with_its_thing_before_it_counts_that_thing(ix: RulesIndex) -> None:
    # «второго» says of the «паразит» before it. 211.3.1's example names Вайл, a card weighing more
    # than any word: 211.6 comes second.
    ids = [h.id for h in ix.search("у оппа на вайле уже сидит мой паразит, второго могу туда же кинуть", 3)]
    assert "211.6" in ids[:2]


def test_a_count_of_creatures_on_a_cell_finds_the_limit_of_cards(ix: RulesIndex) -> None:
    # 535.5, 535.6 and 535.7 say «не более 1 карты на клетку»: a creature is a card (asks.yaml
    # «card_kinds»), and no clause limits creatures by their own word.
    assert ix.search("два существа на одну клетку", 3)[0].id in {"535.5", "535.6", "535.7"}
    assert ix.search("два сущ вызываю разом, на одну клетку можно их обоих?", 3)[0].id == "535.5"


def test_a_limit_of_a_kind_by_its_own_word_goes_before_a_limit_of_cards(ix: RulesIndex) -> None:
    # A symbiote is a card too, but 211.6 limits symbiotes by name: 535.5's «не более 1 карты на
    # клетку» gains nothing for «2 симба».
    ids = [h.id for h in ix.search("2 симба 1 сущ", 5)]
    assert ids[0] == "211.6"
    assert not {"535.5", "535.6", "535.7"} & set(ids[:3])


def test_two_of_a_kind_without_a_count_still_find_the_clause_about_another(ix: RulesIndex) -> None:
    # A symbiote on a symbiote is 211.4's «на другого симбиота», not a second one on a creature.
    assert ix.search("можно ли положить паразита на другого паразита", 3)[0].id == "211.4"
    assert ix.search("симб на симба", 3)[0].id == "211.4"
    # «несколько особенностей "инкарнация Х", то применяется только одна из них»
    assert ix.search("инкарнация 2 и инкарнация 3", 3)[0].id == "535.7.4"
    # a count about something else than the limit: the host's death
    assert ix.search("хост умер, на нем было 2 симба, что с ними", 3)[0].id == "211.4"


def test_a_limit_pointing_back_limits_the_many_named_before_it(ix: RulesIndex) -> None:
    # 535.7.4's «только одна из них» (asks.yaml «limit_back») limits the «несколько особенностей
    # "инкарнация Х"» before it, not the creature the sentence also names.
    c = ix._search.corpus
    d = c.first["535.7.4"]
    assert ranking._limits(c, d, frozenset({"инкарн"}))
    assert not ranking._limits(c, d, frozenset({"существ"}))
    assert ix.search("две инкарнации у существа", 3)[0].id == "535.7.4"


def test_what_a_question_counts(ix: RulesIndex) -> None:
    assert _kinds(ix, "2 симба 1 сущ") == [frozenset({"симбиот"})]
    assert _kinds(ix, "двух компаньонов на одно существо") == [frozenset({"компаньон", "симбиот"})]
    # an ordinal's thing after it; with none after it, the one before it
    assert _kinds(ix, "третий симбиот на то же существо") == [frozenset({"симбиот"})]
    assert _kinds(ix, "сидит мой паразит, второго могу кинуть") == [frozenset({"паразит", "симбиот"})]
    # two words of one kind with a word of one more: their shared kind
    assert _kinds(ix, "на хосте уже сидит компаньон можно еще паразита") == [frozenset({"симбиот"})]
    # no count: the first, one, two words of two kinds, a word of one more alone
    assert _kinds(ix, "первый ход") == []
    assert _kinds(ix, "одно существо на одну клетку") == []
    assert _kinds(ix, "можно ли положить паразита на другого паразита") == []
    assert _kinds(ix, "симбиот уже погиб") == []


def test_slang_the_dictionary_reads_as_an_adjective_is_counted(ix: RulesIndex) -> None:
    # «сущ» is «сущий» to the dictionary, «существо» to the jargon table
    assert _kinds(ix, "два сущ на клетку") == [frozenset({"существ"})]


def test_an_ordinal_counts_only_beside_the_thing_it_says_which_one_of(ix: RulesIndex) -> None:
    c = ix._search.corpus
    q = query.read(c, "третий симбиот на то же существо", ())
    astray = ranking.astray_ordinals(c, q)
    third = next(wi for wi, w in enumerate(q.words) if w.word == "третий")
    assert c.first["535.7"] in astray[third]  # «в своём третьем ряду»: a row, not a symbiote
    _, how, covered = retrieval.word_scores(c, q.words, astray)
    assert third not in how.get(c.first["535.7"], {})
    assert third not in covered.get(c.first["535.7"], set())
    # the row is the thing of 535.7's ordinal
    q = query.read(c, "третий ряд", ())
    assert ranking.astray_ordinals(c, q) == {}
    result = ix.lookup("третий ряд")
    assert result.hits[0].id == "535.7"
    assert any(m.word == "третий" for m in result.hits[0].matched)
    # an ordinal said of nothing typed stays as it is («кто первым»: relation.doers_order)
    assert ranking.astray_ordinals(c, query.read(c, "кто первым", ())) == {}


def test_an_ordinal_said_of_another_thing_is_no_answer(ix: RulesIndex) -> None:
    # «третий» matched 535.7's «третьем ряду»; now 211.6 answers
    ids = [h.id for h in ix.search("третий симбиот на то же существо", 5)]
    assert ids[0] == "211.6" and "535.7" not in ids
    # an ordinal the rules never say of the thing asked still weighs: «первый ход» is no
    # clause's «первом ряду», and the rules say nothing of the first turn
    assert ix.lookup("первый ход").answer.answered is False
    assert ix.lookup("кто первым вскрывает карты").answer.answered is False
    word = next(w for w in ix.lookup("третий симбиот на то же существо").words if w.word == "третий")
    assert word.found == ()


def test_the_words_of_a_limit_are_data(tmp_path: Path) -> None:
    tables = load_tables()
    assert ("только", "одного") in tables.asks.limit
    assert ("из", "них") in tables.asks.limit_back
    assert {"еще", "уже", "сверху"} <= tables.asks.more
    assert tables.asks.first == frozenset({"первый"})
    assert "существо" in tables.asks.card_kinds
    assert {"двух", "несколько"} <= tables.asks.pair
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data, ignore=shutil.ignore_patterns("corpus"))
    asks = (data / "asks.yaml").read_text(encoding="utf-8")
    start = asks.index("\nlimit:")
    end = asks.index("\nlimit_back:")
    (data / "asks.yaml").write_text(asks[:start] + "\nlimit: []" + asks[end:], encoding="utf-8")
    ix = rules_index.load_default()
    c = build(ix.paragraphs, {}, load_tables(data))
    scores = {c.first["211.6"]: 1.0, c.first["211.4"]: 1.0}
    ranking.limited(c, query.read(c, "2 симба 1 сущ", ()), scores)
    assert scores == {c.first["211.6"]: 1.0, c.first["211.4"]: 1.0}
    scores = {c.first["211.6"]: 1.0}
    ranking.limited(ix._search.corpus, query.read(ix._search.corpus, "2 симба 1 сущ", ()), scores)
    assert scores == {c.first["211.6"]: ranking.LIMIT_GAIN}


def test_one_more_said_in_another_part_counts_nothing(ix: RulesIndex) -> None:
    # «уже» of «я уже спрашивал» is the asker's, not a second symbiote
    assert _kinds(ix, "я уже спрашивал: паразит может атаковать, а компаньон?") == []


def test_how_many_times_an_effect_works_is_how_many_times_it_applies(ix: RulesIndex) -> None:
    # «срабатывает» says only that it happens (a light verb): 534.4's «только 1 раз» counts it
    result = ix.lookup("сколько раз срабатывает один и тот же эффект замещения на одно игродействие")
    assert result.answer.answered and result.hits[0].id == "534.4", [h.id for h in result.hits]
