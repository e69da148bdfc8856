"""Clause numbers as people type them (issue 14, item 3): one grammar, ids.parse_typed, used by
the search, the CLI's `show` and the clause page's number box."""

from __future__ import annotations

import io
import json

import pytest
from streamlit.testing.v1 import AppTest

import rules_index
from app_pages import registry
from rules_index import RulesIndex, ids
from rules_index.cli import main
from rules_index.numbers import typed_list
from tests.apptest import APP, ROOT_PAGE, clause_links, open_page


@pytest.fixture(scope="module")
def ix() -> RulesIndex:
    return rules_index.load_default()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("211,10", ["211.10"]),  # a Russian phone's decimal comma
        ("п.211,3,1", ["211.3.1"]),
        ("211.10.", ["211.10"]),
        ("п 211.10", ["211.10"]),
        ("п535.1.1", ["535.1.1"]),
        ("пункт 534.8", ["534.8"]),
        ("§ 211.4", ["211.4"]),
        ("пп. 211.3–211.5", ["211.3", "211.5"]),
        ("534.4.1-534.4.2", ["534.4.1", "534.4.2"]),
        ("пп. 211.3, 211.5", ["211.3", "211.5"]),
        ("211.3,211.5", ["211.3", "211.5"]),  # a comma before three digits starts a new number
        ("534 4 2", ["534.4.2"]),  # a query of bare numbers: spaces for dots
        ("п. 535.5.1,2", ["535.5.1.2"]),
        ("что говорит 535.5.1.2 про руку", ["535.5.1.2"]),
        ("211.1", ["211.1"]),
    ],
)
def test_parse_typed_reads_numbers_as_typed(typed: str, expected: list[str]) -> None:
    assert ids.parse_typed(typed) == expected


@pytest.mark.parametrize("typed", ["РП 4.1-2 от 09.11.2024", "3 ываыва", "1 раз за бой", "хост, симб", ""])
def test_counts_versions_and_dates_are_not_clause_numbers(typed: str) -> None:
    assert ids.parse_typed(typed) == []


def test_a_range_knows_its_ends_and_its_span() -> None:
    (ref,) = ids.typed_refs("см. пп. 211.3–211.5!")
    assert (ref.first, ref.last, ref.lead) == ("211.3", "211.5", "пп")
    assert "см. пп. 211.3–211.5!"[ref.start : ref.end].startswith("пп. 211.3–211.5")


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("211,10", "211.10"),
        ("п.211,3,1", "211.3.1"),
        ("211.10.", "211.10"),
        ("п 211.10", "211.10"),
        ("535,5,1,3", "535.5.1.3"),
        ("534,6", "534.6"),
        ("211 9", "211.9"),
        ("п 535.7.4?", "535.7.4"),
    ],
)
def test_the_search_finds_typed_numbers_first(ix: RulesIndex, query: str, first: str) -> None:
    result = ix.lookup(query, 3)
    assert result.hits[0].id == first
    assert result.words[0].how == "number" and result.words[0].found[0] == first


def test_211_1_typed_with_a_comma_never_finds_211_10(ix: RulesIndex) -> None:
    for q in ("211,1", "п.211,1", "211.1."):
        found = [h.id for h in ix.search(q)]
        assert found[0] == "211.1", q
        assert "211.10" not in found and "211.11" not in found, q


def test_a_typed_range_lists_every_clause_in_it(ix: RulesIndex) -> None:
    assert [h.id for h in ix.search("пп. 211.3–211.5", 4)] == ["211.3", "211.3.1", "211.4", "211.5"]
    assert [h.id for h in ix.search("534.4.1-534.4.2", 2)] == ["534.4.1", "534.4.2"]


@pytest.mark.parametrize("typed", ["211,10", "п.211,10", "п 211.10.", "211.10."])
def test_show_reads_the_same_numbers(typed: str) -> None:
    out = io.StringIO()
    assert main(["show", typed, "--json"], out=out, err=io.StringIO()) == 0
    assert json.loads(out.getvalue())["id"] == "211.10"


@pytest.mark.parametrize(
    ("typed", "cid"), [("211,10", "211.10"), ("п.211,3,1", "211.3.1"), ("п 211.10.", "211.10")]
)
def test_the_clause_page_box_opens_typed_numbers(typed: str, cid: str) -> None:
    at = open_page(registry.CLAUSE.script)
    at.text_input(key="clause_number").input(typed).run()
    assert not at.exception, at.exception
    assert at.query_params.get("p") == cid
    assert [t.value.replace("\\", "") for t in at.title] == [f"п. {cid}"]


def test_the_clause_page_box_lists_a_range_and_says_what_is_no_number() -> None:
    at = open_page(registry.CLAUSE.script)
    at.text_input(key="clause_number").input("пп. 211.3–211.5").run()
    assert not at.exception, at.exception
    assert [t.value for t in at.title] == ["Пункт правил"]  # stays, and lists the range
    listed = clause_links(at)
    assert listed[:4] == ["211.3", "211.3.1", "211.4", "211.5"]
    at.text_input(key="clause_number").input("хост").run()
    assert any("не номер пункта" in w.value for w in at.warning)
    # a word with a digit is not a number: no link to a clause «3»
    at.text_input(key="clause_number").input("3 ываыва").run()
    assert any("не номер пункта" in w.value for w in at.warning)
    assert "3" not in clause_links(at)
    at.text_input(key="clause_number").input("211.4 и 211.6").run()
    assert clause_links(at)[:2] == ["211.4", "211.6"]


@pytest.mark.parametrize(
    ("typed", "listed"),
    [
        ("пп. 211.3–211.5", ["211.3", "211.3.1", "211.4", "211.5"]),
        ("211.3–5", ["211.3", "211.3.1", "211.4", "211.5"]),
        ("211.4, 211.6", ["211.4", "211.6"]),
        ("п.211,3,1", ["211.3.1"]),
        ("999.9", ["999.9"]),  # named, though the rules lack it: the page says so on the clause
        ("3 ываыва", None),
        ("симбиот 211.4", None),
        ("хост", None),
    ],
)
def test_typed_list_takes_only_numbers(
    index: rules_index.RulesIndex, typed: str, listed: list[str] | None
) -> None:
    assert typed_list((p.id for p in index.paragraphs), typed) == listed


def test_a_clause_link_with_a_comma_opens_the_clause() -> None:
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"p": "211,10"})
    at.run()
    assert not at.exception, at.exception
    assert [t.value.replace("\\", "") for t in at.title] == ["п. 211.10"]
    assert registry.ROOT.script == ROOT_PAGE and registry.ROOT.default  # the root is the search page
