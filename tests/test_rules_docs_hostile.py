"""Hostile rules documents cost bounded work and get a Russian message (issue 26): the files are
generated here (tests/hostile_docs.py), none committed. Timeouts are far above the figures
`make bench` measures; they catch a return of quadratic or unbounded work, never a slow machine."""

from __future__ import annotations

import io
import zipfile

import pytest

import rules_index
from rules_index import limits, uploads
from tests import hostile_docs

SEEDS = sorted((rules_index.index.CORPUS_DIR).glob("*.txt"))


@pytest.mark.timeout(180)
def test_a_pdf_whose_lines_never_end_a_sentence_is_read_in_linear_time() -> None:
    # 200 such pages took 316 s when each line re-read the whole growing paragraph
    with pytest.raises(rules_index.CorpusError, match="ни одного пронумерованного пункта"):
        rules_index.load_texts([("endless.pdf", hostile_docs.endless_pdf(200))])


@pytest.mark.timeout(60)
def test_a_pdf_over_the_page_limit_is_refused_before_it_is_read() -> None:
    pdf = hostile_docs.endless_pdf(limits.MAX_PAGES + 1000, lines_per_page=2)
    with pytest.raises(rules_index.CorpusError) as err:
        rules_index.load_texts([("толстый.pdf", pdf)])
    message = str(err.value)
    assert "толстый.pdf" in message and f"больше {limits.MAX_PAGES}" in message


@pytest.mark.timeout(120)
def test_a_docx_that_unpacks_to_95_mb_is_refused_by_its_size() -> None:
    data = hostile_docs.huge_docx(95)
    assert len(data) < 20 * 1024 * 1024  # within the upload limit: only the unpacked size tells
    assert uploads.check_upload([("большой.docx", data)]) is None
    with pytest.raises(rules_index.CorpusError) as err:
        rules_index.load_texts([("большой.docx", data)])
    message = str(err.value)
    assert "большой.docx" in message and f"{limits.MAX_DOCUMENT_XML // (1024 * 1024)} МБ" in message


@pytest.mark.timeout(120)
def test_a_docx_over_the_character_limit_is_refused_while_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_CHARS", 200_000)
    with pytest.raises(rules_index.CorpusError, match=r"больше 200 000 знаков") as err:
        rules_index.load_texts([("длинный.docx", hostile_docs.huge_docx(2))])
    assert "длинный.docx" in str(err.value)


@pytest.mark.timeout(120)
def test_a_text_of_700_000_clauses_is_refused_before_it_is_indexed() -> None:
    data = hostile_docs.many_clauses(700_000)
    with pytest.raises(rules_index.CorpusError) as err:
        rules_index.load_texts([("мелко.txt", data)])
    message = str(err.value)
    assert "мелко.txt" in message and "больше 200 000 строк" in message


def test_clauses_over_the_entry_limit_are_refused_before_the_index_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_ENTRIES", 1000)
    with pytest.raises(rules_index.CorpusError, match="больше 1 000 пронумерованных пунктов"):
        rules_index.load_texts([("мелко.txt", hostile_docs.many_clauses(5000))])


def test_entries_over_the_limit_in_several_files_together_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_ENTRIES", 50)
    part = hostile_docs.many_clauses(30)
    with pytest.raises(rules_index.CorpusError, match="В файлах вместе больше 50"):
        rules_index.load_texts([("a.txt", part), ("b.txt", part)])


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_passes_the_upload_check_and_reads(codec: str) -> None:
    text = SEEDS[0].read_text(encoding="utf-8")
    data = text.encode(codec)
    assert not data.startswith((b"\xff\xfe", b"\xfe\xff"))
    assert uploads.check_upload([("правила.txt", data)]) is None
    ix = rules_index.load_texts([("правила.txt", data)])
    assert ix.has("211.11") and ix.sources[0].encoding == codec


def _docx(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    "parts",
    [
        {"word/document.xml": b"<w:document><w:body><w:p>"},  # cut off
        {"word/document.xml": b"\x00\x01 not xml"},
        {"word/document.xml": b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'b'>]><x>&a;</x>"},
        {"word/document.xml": b"<w:document/>", "word/numbering.xml": b"<not closed"},
        {"word/document.xml": b"<w:document/>", "word/styles.xml": b"\xff\xfe"},
    ],
    ids=["cut off", "not xml", "entities", "bad numbering", "bad styles"],
)
def test_a_broken_docx_gets_a_russian_message_without_an_exception_name(parts: dict[str, bytes]) -> None:
    with pytest.raises(rules_index.CorpusError) as err:
        rules_index.load_texts([("сломан.docx", _docx(parts))])
    message = str(err.value)
    assert "сломан.docx" in message
    assert "Error" not in message and "Exception" not in message
