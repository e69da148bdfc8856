"""Adversarial shapes build in bounded work: each runs under a hard timeout far above its target
(the figures themselves are measured by tests/bench/bench_build.py, not asserted here)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_index
from rules_index import ids, parser
from tests import rules_docs


@pytest.mark.timeout(60)
def test_one_clause_of_1500_sentences_and_200_citations() -> None:
    ix = rules_index.load_texts([("long.txt", rules_docs.long_clause())])
    cites = ix.cites("100.1")
    assert len(cites) == 200
    first = cites[0]
    assert first.target == "200.1" and first.sentence.startswith("Предложение номер 0 ")
    assert first.sentence.endswith("(см. п. 200.1).")


def test_sentence_bounds_are_found_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = parser._sentence_bounds

    def counting(text: str) -> list[int]:
        nonlocal calls
        calls += 1
        return real(text)

    monkeypatch.setattr(parser, "_sentence_bounds", counting)
    found = parser.find_citations(rules_docs.long_clause().decode().split("100.1. ", 1)[1])
    assert len(found) == 200 and calls == 1


@pytest.mark.timeout(60)
def test_huge_gaps_are_reported_as_ranges() -> None:
    ix = rules_index.load_texts([("gaps.txt", rules_docs.huge_gaps())])
    gaps = ix.integrity().gaps
    # each section: its missing heading and one range, however big the number
    assert len(gaps) == 800
    assert gaps[:4] == ("100", "100.1–100.9998", "101", "101.1–101.9998")


def test_small_gaps_are_listed_one_by_one_and_long_runs_as_a_range() -> None:
    text = "100. Р.\n100.1. А.\n100.5. Б.\n100.9. В.\n100.9.2. Г.\n211.6. Д.\n211.9999. Е."
    gaps = rules_index.load_texts([("g.txt", text.encode())]).integrity().gaps
    assert gaps == (
        "100.2",
        "100.3",
        "100.4",
        "100.6",
        "100.7",
        "100.8",
        "100.9.1",
        "211",
        "211.1–211.5",
        "211.7–211.9998",
    )


@pytest.mark.timeout(60)
@pytest.mark.parametrize("levels", [200, 200_000])
def test_too_deep_numbers_are_refused_with_the_line(levels: int) -> None:
    ix = rules_index.load_texts([("deep.txt", rules_docs.deep_numbering(levels))])
    assert [p.id for p in ix.paragraphs] == ["100", "100.1", "100.2"]
    assert all(p.level <= ids.MAX_DEPTH for p in ix.paragraphs)
    warning = next(w for w in ix.integrity().warnings if "глубже" in w)
    assert "«deep.txt», строка 3" in warning and str(ids.MAX_DEPTH) in warning


def test_the_deepest_allowed_id_is_kept() -> None:
    cid = ".".join(["1"] * (ids.MAX_DEPTH - 1)).replace("1", "100", 1) + ".1"
    assert ids.level(cid) == ids.MAX_DEPTH and ids.is_clause_id(cid)
    assert not ids.is_clause_id(cid + ".1")
    ix = rules_index.load_texts([("d.txt", f"{cid}. Текст.".encode())])
    assert ix.has(cid)


@pytest.mark.timeout(120)
def test_a_5_mb_single_line() -> None:
    ix = rules_index.load_texts([("line.txt", rules_docs.single_line())])
    assert [p.id for p in ix.paragraphs] == ["211.1"]
    assert {c.target for c in ix.cites("211.1")} == {"211.3", "211.4"}


@settings(max_examples=150, deadline=None)
@given(
    head=st.sampled_from(
        [b"", b"%PDF-1.7\n", b"PK\x03\x04", b"<html><body><h2>211. X.</h2><ol><li>", b"\xef\xbb\xbf"]
    ),
    data=st.binary(max_size=300),
    name=st.sampled_from(["r.pdf", "r.html", "r.docx", "r.htm", "r.txt", "r"]),
)
def test_any_bytes_in_any_format_give_an_index_or_a_russian_corpus_error(
    head: bytes, data: bytes, name: str
) -> None:
    try:
        rules_index.load_texts([(name, head + data)])
    except rules_index.CorpusError as err:
        assert name in str(err)


@settings(max_examples=100, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(
            [
                "<ol>",
                "</ol>",
                "<li>",
                "</li>",
                "<ol type=a>",
                "<h2>210. Р.</h2>",
                "<p>",
                "текст ",
                "210.11а",
                "&amp;",
                "<table><tr><td>a</td><td>b</td></tr></table>",
                "<nav>",
                "</nav>",
                "<li value=99999>",
                "<ol start=-5>",
                "Пример: ",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_web_pages_of_odd_shapes_give_well_formed_ids(text: str) -> None:
    try:
        ix = rules_index.load_texts([("p.html", f"<html><body>{text}</body></html>".encode())])
    except rules_index.CorpusError:
        return
    for p in ix.paragraphs:
        assert ids.is_clause_id(p.id) and p.parent == ids.parent(p.id)
        # a parent is the id one part shorter («211.3» of «211.3.1») or without its letter
        assert p.parent is None or p.id in {f"{p.parent}.{p.id.rsplit('.', 1)[1]}", p.parent + p.id[-1]}
