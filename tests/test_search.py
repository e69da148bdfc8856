"""The Russian search (issue 3, «Search»): each point of the issue is a test case here."""

from __future__ import annotations

import io
import json

import pytest

import rules_index
from rules_index import QueryError, RulesIndex, snippet, understood
from rules_index.cli import main
from rules_index.search.corpus import build
from rules_index.tables import load_tables
from rules_index.text import Analyzer


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


def ids(ix: RulesIndex, q: str, top: int = 10) -> list[str]:
    return [h.id for h in ix.search(q, top)]


def first(ix: RulesIndex, q: str) -> str:
    hits = ix.search(q, 5)
    assert hits, q
    return hits[0].id


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("211.4", "211.4"),
        ("п. 535.7.1", "535.7.1"),
        ("534.7", "534.7"),
        ("пункт 211.10", "211.10"),
        ("211", "211"),
        ("что говорит 535.5.1.2 про руку", "535.5.1.2"),
    ],
)
def test_clause_numbers_come_first(ix: RulesIndex, query: str, expected: str) -> None:
    assert first(ix, query) == expected
    assert ix.search(query)[0].matched[0].how == "number"


def test_211_1_never_ranks_211_10_or_211_11_above_it(ix: RulesIndex) -> None:
    for q in ("211.1", "п. 211.1", "211.1 симбиот движение"):
        found = ids(ix, q)
        assert found[0] == "211.1"
        for other in ("211.10", "211.11"):
            assert other not in found or found.index(other) > found.index("211.1")


def test_subclauses_follow_and_absent_ids_lead_to_citers(ix: RulesIndex) -> None:
    assert ids(ix, "534.7", 3) == ["534.7", "534.7.1", "534.7.2"]
    assert first(ix, "536") == "534.7"
    assert first(ix, "п. 403.2") == "535.3"


@pytest.mark.parametrize(
    ("a", "b"),
    [("симбиота", "симбиотов"), ("возрождение", "возродить"), ("инкарнации", "инкарнирующий")],
)
def test_word_forms_find_the_same_clauses(ix: RulesIndex, a: str, b: str) -> None:
    assert ids(ix, a, 5) == ids(ix, b, 5)
    assert ids(ix, a, 5)


def test_word_forms_are_reported(ix: RulesIndex) -> None:
    hit = next(h for h in ix.search("инкарнирующий") if h.id == "535.7")
    assert any(m.word == "инкарнирующий" and m.how in {"form", "exact"} for m in hit.matched)
    hit = next(h for h in ix.search("возродить") if h.id == "535.6")
    assert any(m.how == "exact" and m.found == "возродить" for m in hit.matched)


def test_yo_case_and_apostrophes(ix: RulesIndex) -> None:
    assert first(ix, "Бул'Багур") == "534.5"
    assert first(ix, "БУЛ’БАГУР") == "534.5"
    assert ids(ix, "своём третьем ряду", 3) == ids(ix, "своем третьем ряду", 3)
    assert first(ix, "своем третьем ряду") == "535.7"
    assert ids(ix, "ХОЗЯИН", 3) == ids(ix, "хозяин", 3)
    # «Ё» in upper case folds like «ё»; the three spellings of Бул’Багур agree.
    assert ids(ix, "СВОЁМ ТРЕТЬЕМ РЯДУ", 3) == ids(ix, "своем третьем ряду", 3)
    assert ids(ix, "ВОЗРОЖДЁННЫЕ КАРТЫ", 3) == ids(ix, "возрожденные карты", 3)
    spellings = ("Бул'Багур", "Бул’Багур", "булбагур", "БУЛ`БАГУР")
    assert len({tuple(ids(ix, q, 3)) for q in spellings}) == 1


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("симбеот на летающее сущесво", "211.4"),
        ("жетон инкорнации", "535.7.1"),
        ("маркер кантроля", "535.1.1"),
        ("колода пермешивается после вызова", "535.5.1.3"),
    ],
)
def test_typos(ix: RulesIndex, query: str, expected: str) -> None:
    hits = ix.search(query, 3)
    assert expected in [h.id for h in hits]
    assert any(m.how == "typo" for h in hits for m in h.matched)


def test_quoted_phrase_prefers_exact_wording(ix: RulesIndex) -> None:
    hits = ix.search("«свет фонаря»")
    assert hits[0].id == "534.5"
    assert [m.word for m in hits[0].matched if m.how == "phrase"] == ["свет фонаря"]  # as typed, not stems
    assert first(ix, '"не использует стек"') in {"535.1.1", "535.7.1"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("хост", "211.2"),
        ("рес карты", "535.6"),
        ("можно ли тапнуть инкарнированную", "535.7"),
        ("кто контроллер карты", "535.1"),
        ("майндконтроль", "535.8"),
    ],
)
def test_jargon(ix: RulesIndex, query: str, expected: str) -> None:
    hits = ix.search(query, 3)
    assert hits[0].id == expected
    assert any(m.how == "jargon" for m in hits[0].matched)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Карлика Унда", "211.3.1"),
        ("карлик унд", "211.3.1"),
        ("Вожака сатиров", "534.7.2"),
        ("сугед", "211.8.1"),
        ("выкормыша слуа", "211.8.1"),
        ("багур подсвечивает клетки", "534.5"),  # a short name, as «Унд», «Вожак»
        ("булбагур", "534.5"),
        ("Вайл", "211.3.1"),
    ],
)
def test_card_names_in_any_case(ix: RulesIndex, query: str, expected: str) -> None:
    hits = ix.search(query, 3)
    assert hits[0].id == expected
    card = [m for m in hits[0].matched if m.how == "card"]
    assert card and card[0].found


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("хозяин", "211.2"),
        ("маркер контроля", "535.1.1"),
        ("замещающая особенность", "534.7"),
        ("взять карту в отряд", "535.2"),
        ("что такое именная особенность", "535.7.4"),
        ("жетон инкарнации", "535.7.1"),
        ("владелец карты", "535.1"),
    ],
)
def test_defined_terms_rank_their_definition_first(ix: RulesIndex, query: str, expected: str) -> None:
    hits = ix.search(query, 3)
    assert hits[0].id == expected
    # «Как нашлось» names the words the user typed, and the term they make.
    terms = [m for m in hits[0].matched if m.how == "term"]
    assert terms and all(m.word and m.word in query for m in terms), hits[0].matched


def test_hit_fields(ix: RulesIndex) -> None:
    hit = ix.search("летающее существо симбиот", 1)[0]
    assert hit.id == "211.4" and hit.title == "Симбиоты" and hit.score > 0
    assert "".join(t for t, _ in hit.spans) == hit.snippet
    marked = [t.lower() for t, m in hit.spans if m]
    assert "летающее" in marked and "симбиота" in marked
    d = hit.to_dict()
    assert set(d) >= {"id", "score", "title", "snippet", "spans", "matched"}
    assert ix.search("замещающая особенность", 1)[0].title == ""  # 534's heading is absent


def test_no_hits_and_bad_queries(ix: RulesIndex) -> None:
    assert ix.search("ксилофон") == []
    assert ix.search("что это") == []
    for bad in ("", "   ", "а" * 501, "?!…"):
        with pytest.raises(QueryError):
            ix.search(bad)
    with pytest.raises(QueryError):
        ix.search("симбиот", top=0)


def test_search_cli_json_and_exit_codes() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["search", "хост", "--json", "--top", "2"], out=out, err=err) == 0
    data = json.loads(out.getvalue())
    assert len(data) <= 2 and data[0]["id"] == "211.2"
    assert {"id", "score", "title", "snippet", "matched"} <= set(data[0])
    out = io.StringIO()
    assert main(["search", "ксилофон", "--json"], out=out, err=err) == 0
    assert json.loads(out.getvalue()) == []
    bad_queries = (("", "Пустой запрос"), ("   ", "Пустой запрос"), ("х" * 10_000, "слишком длинный: 10000"))
    for bad, needle in bad_queries:
        err = io.StringIO()
        assert main(["search", bad], out=io.StringIO(), err=err) == 2
        assert needle in err.getvalue() and "Traceback" not in err.getvalue()
    out = io.StringIO()
    assert main(["search", "Карлика Унда"], out=out, err=io.StringIO()) == 0
    assert "211.3.1" in out.getvalue() and "[Карлик] [Унд]" in out.getvalue()


def test_search_on_another_corpus(tmp_path: object) -> None:
    text = "100. Раздел.\n100.1. Первый пункт про драконов.\n100.2. Второй пункт про гоблинов."
    other = rules_index.load_texts([("r.txt", text.encode())])
    assert [h.id for h in other.search("дракон")] == ["100.1"]
    assert other.search("хозяин") == []  # terms of clauses this corpus lacks are ignored


def test_a_missing_number_offers_the_nearest_clauses(ix: RulesIndex) -> None:
    hits = ix.search("534.2", 3)
    assert [h.id for h in hits] == ["534.4", "534.5", "534.6"]
    # … marked as the nearest numbers, not as the clause typed, and no answer
    assert all(h.matched[0].how == "absent" for h in hits)
    result = ix.lookup("534.2")
    assert not result.answer.answered
    assert result.answer.reason == "пункта 534.2 нет в загруженных правилах"
    assert understood.understood(result.words).startswith(
        "Понято: «534.2» — такого пункта нет в загруженных правилах, ближайшие номера: п. 534.4"
    )


def test_a_number_the_rules_only_cite_is_no_answer_but_shows_who_cites_it(ix: RulesIndex) -> None:
    # 534.7 «в порядке, описанном в 536»: 536 is not in the loaded rules; 534.7 is shown as the
    # clause that cites it, never as «п. 536»
    result = ix.lookup("порождённое игродействие в каком порядке, там ссылка на 536")
    assert not result.answer.answered and [h.id for h in result.hits] == ["534.7"]
    assert result.answer.reason == "пункта 536 нет в загруженных правилах, на него ссылается п. 534.7"
    assert "«536» — такого пункта нет в загруженных правилах, на него ссылается: п. 534.7" in (
        understood.understood(result.words)
    )
    assert understood.hit_notes(result.hits[0].matched).startswith(
        "Как нашлось: ссылается на п. 536, которого нет в загруженных правилах"
    )
    # a number the rules have is still the answer, and so is a range with clauses inside
    assert ix.lookup("211.5").answer.answered
    assert ix.lookup("534.3-534.5").answer.answered
    assert ix.lookup("534.1-534.3").answer.reason == "пунктов 534.1–534.3 нет в загруженных правилах"


def test_a_number_no_clause_has_or_cites_or_neighbours_is_a_quantity(ix: RulesIndex) -> None:
    # «300» is no clause, cited by none, near none: the words decide
    result = ix.lookup("у меня 300 жетонов инкарнации")
    assert result.answer.answered and result.hits[0].id == "535.7.1"


def test_a_digit_inside_a_clause_id_is_not_a_word(ix: RulesIndex) -> None:
    # 535.5.1.3 cites «535.5.1.2»: its «5» and «2» are parts of a number, not words.
    assert ix.search("5") == []
    assert ix.search("РП 4.1-2") == []
    hits = ix.search("не более 1 карты на клетку", 3)
    assert {h.id for h in hits} == {"535.5", "535.6", "535.7"}
    assert all(any(m.word == "1" and m.how == "exact" for m in h.matched) for h in hits)


def test_a_number_from_no_section_of_the_corpus_finds_nothing(ix: RulesIndex) -> None:
    # A year or a stray number must not be dressed up as «nearest clauses» of other sections.
    for q in ("2024", "1234.5678.1234", "999.1"):
        assert ix.search(q) == [], q
    assert [h.id for h in ix.search("211.12", 2)] == ["211.11", "211.10"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("хазяен", "211.2"),
        ("маркир кантроля", "535.1.1"),
        ("замищающая особеность", "534.7"),
        ("вледелец карты", "535.1"),
        ("жетон инкорнацыи", "535.7.1"),
    ],
)
def test_two_letters_off_and_misspelt_terms_still_find_the_definition(
    ix: RulesIndex, query: str, expected: str
) -> None:
    # «хазяен» is two letters off «хозяин» in a six-letter word.
    hit = ix.search(query, 1)[0]
    assert hit.id == expected
    assert any(m.how == "typo" for m in hit.matched)
    assert any(m.how == "term" and m.word in query for m in hit.matched)


def test_typo_tolerance_does_not_invent_matches(ix: RulesIndex) -> None:
    # «пример» is two letters off «например», but two letters more is not a typo of a short word.
    for q in ("дракон", "гоблин", "кошка", "машина", "ксилофон", "пример", "п.", "см."):
        assert ix.search(q) == [], q
    # nor does a pronoun the rules happen to use («такого перемещения» in 211.11)
    assert ix.search("нет такого слова абвгд") == []


def test_a_word_the_rules_do_not_know_does_not_hide_a_definition(ix: RulesIndex) -> None:
    for q in ("покажи пример про хозяина", "объясни маркер контроля", "кто такой хозяин симбиота, скажи"):
        hit = ix.search(q, 1)[0]
        assert any(m.how == "term" for m in hit.matched), q
    assert ix.search("покажи пример про хозяина", 1)[0].id == "211.2"


def test_a_clause_found_by_the_number_it_cites_shows_that_citation_marked(ix: RulesIndex) -> None:
    hit = ix.search("536", 1)[0]
    assert hit.id == "534.7"
    assert ("536", True) in hit.spans
    assert hit.snippet.startswith("Выполнение такой особенности происходит в порядке, описанном в 536.")
    # «п. 535.5.1.2» does not end a sentence: the snippet keeps the words before the number.
    cited = next(h for h in ix.search("535.5.1.2") if h.id == "535.5.1.3")
    assert "в соответствии с п. 535.5.1.2 какое-либо игродействие" in cited.snippet
    assert ("535.5.1.2", True) in cited.spans


def test_each_sentence_of_a_piece_knows_its_tokens(ix: RulesIndex) -> None:
    # The bounds built once per piece are what reading every token against the sentence gives.
    for pieces in build(ix.paragraphs, {}).pieces:
        for pc in pieces:
            assert pc.bounds == snippet.sentence_bounds(pc.text, pc.tokens)
            assert [b[:2] for b in pc.bounds] == snippet.sentences(pc.text)
            for start, end, lo, hi in pc.bounds:
                inside = [t for t in pc.tokens if start <= t.start and t.end <= end]
                assert list(pc.tokens[lo:hi]) == inside
            assert sum(hi - lo for _, _, lo, hi in pc.bounds) == len(pc.tokens)
    text = "Первое. Второе см. 537. История боя.\nТретье"
    analyzer = Analyzer(load_tables())
    tokens = tuple(analyzer.tokens(text, analyzer.stemmer()))
    assert [text[a:b] for a, b, _, _ in snippet.sentence_bounds(text, tokens)] == [
        "Первое.",
        "Второе см. 537. История боя.",
        "Третье",
    ]


def test_a_range_of_clauses_finds_every_clause_in_it(ix: RulesIndex) -> None:
    for q in ("211.3-211.5", "211.3–211.5", "пп. 211.3 — 211.5"):
        assert ids(ix, q, 4) == ["211.3", "211.3.1", "211.4", "211.5"], q
    # a list is not a range: the two clauses named, in the order typed
    assert ids(ix, "пп. 211.3, 211.5", 2) == ["211.3", "211.5"]
