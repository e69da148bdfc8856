"""Rules documents made by the world's tools (tests/fixtures/rules_docs, made by make_fixtures.py
with chromium, pandoc and LibreOffice from a fictional older edition): every entry each one holds,
id and text, heading, examples and bullets, compared with the truth written from the edition.

The files are committed; these tests need none of the converters.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import rules_index
from rules_index import RulesIndex, ids

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rules_docs"
DOCUMENTS = [
    "page_h2.html",
    "page_bold_br.html",
    "page_ol.html",
    "page_ol.pandoc.docx",
    "page_ol.soffice.docx",
    "page_h2.soffice.docx",
    "single.pandoc.docx",
    "single.soffice.docx",
    "multilevel.soffice.docx",
    "print_a4.pdf",
    "print_a5_tight.pdf",
    "print_two_columns.pdf",
]


@cache
def truth() -> dict[str, object]:
    return json.loads((FIXTURES / "truth.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def loaded(name: str) -> RulesIndex:
    return rules_index.load_texts([(name, (FIXTURES / name).read_bytes())], berserk=False)


def shape(ix: RulesIndex) -> list[dict[str, object]]:
    return [
        {
            "id": p.id,
            "heading": p.is_heading,
            "text": p.text.replace("\n", " "),
            "examples": list(p.examples),
            "bullets": list(p.bullets),
        }
        for p in ix.paragraphs
    ]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_entry_of_the_document_is_recovered(name: str) -> None:
    expected = truth()["entries"]
    assert isinstance(expected, list)
    got = shape(loaded(name))
    assert [e["id"] for e in got] == [e["id"] for e in expected]
    assert got == expected
    ix = loaded(name)
    assert ix.version == truth()["version"]
    assert not ix.integrity().duplicates


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_report_says_what_was_recovered(name: str) -> None:
    counts = truth()["counts"]
    assert isinstance(counts, dict)
    report = loaded(name).integrity()
    assert report.headings == counts["sections"]
    assert report.paragraphs - report.headings == counts["clauses"]
    lettered = sum(n for _, n in report.lettered)
    assert lettered == counts["lettered"]
    assert sum(n for _, n in report.levels) == report.paragraphs


def test_numbers_implied_by_list_numbering_are_counted() -> None:
    counts = truth()["counts"]
    assert isinstance(counts, dict)
    # every clause of the <ol> page is numbered by the browser, none typed
    assert loaded("page_ol.html").integrity().implied == counts["clauses"]
    assert loaded("page_h2.html").integrity().implied == 0


@pytest.mark.parametrize("name", ["page_h2.html", "page_ol.html", "page_ol.pandoc.docx", "print_a4.pdf"])
def test_the_table_of_contents_is_dropped_and_counted(name: str) -> None:
    report = loaded(name).integrity()
    assert report.dropped.get("contents", 0) >= 62, report.dropped


@pytest.mark.parametrize("name", ["print_a4.pdf", "print_a5_tight.pdf", "print_two_columns.pdf"])
def test_running_headers_footers_and_page_numbers_are_dropped_and_counted(name: str) -> None:
    report = loaded(name).integrity()
    running = sum(report.dropped.get(k, 0) for k in ("header", "footer", "page_number"))
    assert running >= 10, report.dropped


def test_lettered_subclauses_belong_to_their_clause() -> None:
    ix = loaded("page_ol.pandoc.docx")
    lettered = [p for p in ix.paragraphs if ids.lettered(p.id)]
    assert lettered
    for p in lettered:
        assert ix.parent(p.id) == p.id[:-1]
        assert p.id in ix.children(p.id[:-1])
