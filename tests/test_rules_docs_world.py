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
# Every entry exact. page_ol.soffice.docx is checked apart: LibreOffice's HTML import letters the
# nested numbered lists of that page (its own rendering of the .docx shows «a.» under «2.»).
EXACT = [
    "page_h2.html",
    "page_bold_br.html",
    "page_ol.html",
    "page_ol.pandoc.docx",
    "page_h2.soffice.docx",
    "single.pandoc.docx",
    "single.soffice.docx",
    "multilevel.soffice.docx",
    "print_a4.pdf",
    "print_a5_tight.pdf",
    "print_two_columns.pdf",
]
DOCUMENTS = [*EXACT, "page_ol.soffice.docx"]


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


@pytest.mark.parametrize("name", EXACT)
def test_every_entry_of_the_document_is_recovered(name: str) -> None:
    expected = truth()["entries"]
    assert isinstance(expected, list)
    got = shape(loaded(name))
    assert [e["id"] for e in got] == [e["id"] for e in expected]
    assert got == expected
    ix = loaded(name)
    assert ix.version == truth()["version"]
    assert not ix.integrity().duplicates


def test_libreoffice_letters_nested_numbered_lists_and_we_read_what_it_shows() -> None:
    expected = truth()["entries"]
    assert isinstance(expected, list)
    got = {p.id: p for p in loaded("page_ol.soffice.docx").paragraphs}
    # every section and every clause is exact
    for e in expected:
        cid = str(e["id"])
        if cid.count(".") <= 1 and not ids.lettered(cid):
            p = got[cid]
            assert (p.text.replace("\n", " "), list(p.examples)) == (e["text"], e["examples"]), cid
    # 201.2's numbered subclauses are drawn «a.», «b.» by LibreOffice: read as 201.2а, 201.2б;
    # the letters it draws under those letters can be no id, and stay their text
    texts = {str(e["id"]): e["text"] for e in expected}
    assert got["201.2а"].text.startswith(texts["201.2.1"] + "\n" + texts["201.2.1а"])
    assert got["201.2б"].text.startswith(texts["201.2.2"])
    assert "201.2.1" not in got


@pytest.mark.parametrize("name", EXACT)
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
    assert report.dropped_as("contents") >= 62, report.dropped


@pytest.mark.parametrize("name", ["print_a4.pdf", "print_a5_tight.pdf", "print_two_columns.pdf"])
def test_running_headers_footers_and_page_numbers_are_dropped_and_counted(name: str) -> None:
    report = loaded(name).integrity()
    running = sum(report.dropped_as(k) for k in ("header", "footer", "page_number"))
    assert running >= 10, report.dropped


def test_lettered_subclauses_belong_to_their_clause() -> None:
    ix = loaded("page_ol.pandoc.docx")
    lettered = [p for p in ix.paragraphs if ids.lettered(p.id)]
    assert lettered
    for p in lettered:
        assert ix.parent(p.id) == p.id[:-1]
        assert p.id in ix.children(p.id[:-1])
