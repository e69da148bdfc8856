"""PDF import: a PDF printed by chromium from the embedded rules parses exactly as the plain text.

The PDF (tests/rules_docs.py) has small pages, running headers, «стр. N из M» footers, page
breaks inside clauses and examples, soft-hyphenated words at line ends next to real hyphens,
and a wrapped line in 534.7 that starts with «536. Эффекты…».
"""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

import rules_index
from rules_index import RulesIndex
from rules_index.importers import common as importer_common
from tests import rules_docs


def shape(ix: RulesIndex) -> list[tuple[object, ...]]:
    return [(p.id, p.parent, p.text, p.examples, p.bullets, p.is_heading, p.cut_off) for p in ix.paragraphs]


@pytest.fixture(scope="module")
def printed(chromium_executable: str) -> bytes:
    return rules_docs.print_pdf(rules_docs.print_html(), chromium_executable)


def page_lines(pdf: bytes) -> list[list[str]]:
    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for i in range(len(doc)):
            text = doc[i].get_textpage()
            out.append(text.get_text_range(0, text.count_chars()).split("\r\n"))
        return out
    finally:
        doc.close()


def test_the_printed_pdf_has_the_traps(printed: bytes) -> None:
    pages = page_lines(printed)
    assert len(pages) >= 8
    lines = [line for page in pages for line in page]
    assert sum(line.startswith("стр. ") for line in lines) == len(pages)  # a footer on every page
    assert sum("Правила игры «Берсерк»" in line for line in lines) == len(pages)  # a header too
    assert any(line.startswith("536. Эффекты") for line in lines)  # the citation at a line start
    assert any(line.endswith("\u2010") for line in lines)  # a word broken by a soft hyphen
    assert any("\ufffe" in line for line in lines)  # a real hyphen at a line end («какой-/либо»)
    # some page starts in the middle of a sentence (a page break inside a clause or example)
    assert any(page[1][:1].islower() for page in pages if len(page) > 1)


def test_pdf_parses_into_the_same_entries_as_the_plain_text(printed: bytes, index: RulesIndex) -> None:
    ix = rules_index.load_texts([("rules.pdf", printed)])
    assert shape(ix) == shape(index)
    assert len(ix.paragraphs) == 44 and ix.integrity().examples == 4
    assert ix.version == "РП 4.1-2 от 09.11.2024"
    # the wrapped «536.» is the citation it is, not a new section
    assert not ix.has("536") and ix.is_absent("536")
    assert "536" in [c.target for c in ix.cites("534.7")]
    # headers and footers are gone, and the file says so
    assert not any("стр." in p.text or "Правила игры «Берсерк»" in p.text for p in ix.paragraphs)
    assert ix.sources[0].encoding.startswith("PDF, страниц:")
    assert any("колонтитулов" in note for note in ix.sources[0].notes)
    # the contents (its title and two lines) are not two doubled headings
    assert "убрано строк оглавления: 3" in ix.sources[0].notes
    assert not ix.integrity().duplicates and ix.sources[0].preamble == ""
    # where an entry starts is a page, not a line of a text file
    assert ix.get("535.9").page > ix.get("211").page >= 1  # type: ignore[union-attr]
    assert ix.get("211.3.1").where.startswith("rules.pdf, страница ")  # type: ignore[union-attr]


def test_search_and_graph_work_on_the_pdf(printed: bytes) -> None:
    ix = rules_index.load_texts([("rules.pdf", printed)])
    assert ix.search("Карлик Унд")[0].id == "211.3.1"
    assert ix.search("маркер контроля")[0].id == "535.1.1"
    assert ix.integrity().gaps == ("534", "534.1", "534.2", "534.3")


@pytest.mark.parametrize(
    ("left", "right", "joined"),
    [
        ("небес\u2010", "телесного симбиота", "небестелесного симбиота"),  # a line-break hyphen
        ("по-", "прежнему паразит", "по-прежнему паразит"),  # the word is spelled so elsewhere
        ("какой-", "либо особенности", "какой-либо особенности"),  # a particle keeps its hyphen
        ("хозяина-", "Вайла.", "хозяина-Вайла."),  # before a capital the hyphen is the spelling
        ("Бул’Багур –", "до конца", None),  # a dash is no hyphen: not joined here at all
    ],
)
def test_hyphens_at_line_ends(left: str, right: str, joined: str | None) -> None:
    words = importer_common.word_set(["Карлик Унд по-прежнему паразит", "небестелесного"])
    if joined is None:
        assert not left.endswith(("-", "\u2010"))
        return
    assert importer_common.join_hyphenated(left, right, words) == joined


def test_a_scan_an_encrypted_pdf_and_a_pdf_without_clauses_get_russian_messages(
    chromium_executable: str, printed: bytes
) -> None:
    scan = rules_docs.print_pdf(rules_docs.blank_pages_html(), chromium_executable)
    with pytest.raises(rules_index.CorpusError, match=r"нет текстового слоя.*скан") as err:
        rules_index.load_texts([("скан.pdf", scan)])
    assert "скан.pdf" in str(err.value) and "OCR" in str(err.value)
    with pytest.raises(rules_index.CorpusError, match="зашифрован") as err:
        rules_index.load_texts([("закрытый.pdf", rules_docs.encrypt(printed))])
    assert "закрытый.pdf" in str(err.value)
    letter = rules_docs.print_pdf(rules_docs.prose_html(), chromium_executable)
    with pytest.raises(rules_index.CorpusError, match="ни одного пронумерованного пункта"):
        rules_index.load_texts([("письмо.pdf", letter)])
    for broken in (b"%PDF-1.7\n" + b"\x00garbage" * 50, printed[: len(printed) // 3]):
        with pytest.raises(rules_index.CorpusError, match=r"битый\.pdf"):
            rules_index.load_texts([("битый.pdf", broken)])


def test_a_pdf_renamed_txt_is_still_read_as_a_pdf(printed: bytes) -> None:
    ix = rules_index.load_texts([("rules.txt", printed)])
    assert len(ix.paragraphs) == 44


def test_the_command_line_reads_a_pdf(printed: bytes, tmp_path: object) -> None:
    import io
    from pathlib import Path

    from rules_index import cli

    path = Path(str(tmp_path)) / "правила.pdf"
    path.write_bytes(printed)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["check", "--corpus", str(path)], out, err) == 0, err.getvalue()
    text = out.getvalue()
    assert "Версия правил: РП 4.1-2 от 09.11.2024" in text
    assert "(44 пункта, PDF, страниц:" in text and "убрано колонтитулов" in text
    out = io.StringIO()
    assert cli.main(["show", "534.7", "--corpus", str(path)], out, err) == 0
    assert "536 (нет в тексте)" in out.getvalue()


def _line(text: str, base: float, x1: float = 260.0, page: int = 1, x0: float = 35.0) -> object:
    from rules_index.importers import pdf

    return pdf._Line(text=text, page=page, number=1, x0=x0, x1=x1, base=base, size=7.0)


@pytest.mark.parametrize(
    ("prev", "line", "current", "starts"),
    [
        # a wrap puts a cited section number at a line start: still the same paragraph
        (
            ("Выполнение происходит в порядке, описанном в", 300, 260),
            ("536. Эффекты, порождающие", 289.5),
            "534.7",
            False,
        ),
        # the same after a short line (a forced break): the line before does not end a sentence
        (("описанном в", 300, 120), ("536. Эффекты, порождающие", 289.5), "534.7", False),
        # a clause cut off mid-sentence, then the next clause after a gap: it follows in sequence
        (("Если бестелесный симбиот", 300, 140), ("211.6. На существо можно", 280), "211.5", True),
        # «см. / 537. История боя» is an abbreviation, not a sentence end
        (
            ("информацию, ассоциированную с игродействием (см.", 300, 260),
            ("537. История боя.), что и", 289.5),
            "534.5",
            False,
        ),
        # a section after a finished clause and a gap
        (("считается воздействием.", 300, 150), ("535. Взятие карт в отряд.", 280), "534.8", True),
        # a continuation paragraph: a short line ending a sentence, then a capital
        (("замещающую особенность.", 300, 150), ("Замещающая особенность на шаге", 285), "534.7", True),
        # a wrapped line that starts with a capital letter in the middle of a sentence
        (("контролирующего паразита, и", 300, 260), ("Вайл по-прежнему не может", 289.5), "211.3.1", False),
        # across a page break: the full last line of a page continues on the next page
        (("существо противника, стоящее в первом", 40, 260), ("ряду половины поля боя", 360), "211.2", False),
        # a full last line ending a sentence, and a clause out of sequence at the next page's top
        (("хозяина этого существа.", 40, 260), ("534.4. Один и тот же эффект", 360), "211.11", True),
        # but a cited number after an unfinished line at a page top is still the citation
        (("происходит в порядке, описанном в", 40, 260), ("536. Эффекты, порождающие", 360), "534.7", False),
    ],
)
def test_where_a_paragraph_starts(
    prev: tuple[str, float, float], line: tuple[str, float], current: str, starts: bool
) -> None:
    from rules_index import structure
    from rules_index.importers import pdf

    page2 = 2 if line[1] > prev[1] else 1
    head = _line(f"{current}. Полная строка абзаца правил для оценки", 480)
    context = [_line("полная строка абзаца правил для оценки ширины", 469.5 - 10.5 * i) for i in range(7)]
    before = _line(prev[0], prev[1], prev[2])
    after = _line(line[0], line[1], page=page2)
    printed = [head, *context, before, after]
    lines, _, _ = structure.recover("t.pdf", list(pdf._blocks(printed, printed, {})))  # type: ignore[arg-type]
    assert [ln.entry for ln in lines][:1] == [current]
    assert (len(lines) == 2) is starts, [ln.text[-60:] for ln in lines]


@pytest.mark.parametrize("spacing", ["0", "1pt"], ids=["no spacing", "tight spacing"])
def test_a5_with_tight_spacing_at_clause_starts_parses_as_the_plain_text(
    chromium_executable: str, index: RulesIndex, spacing: str
) -> None:
    # issue 20: on A5 the gap before 534.4 (1.33 line heights) was just under the old threshold,
    # and 534.4 was glued onto 211.11 and its version stamp
    page = rules_docs.print_html(page="A5").replace("margin: 0 0 4pt 0;", f"margin: 0 0 {spacing} 0;")
    assert f"margin: 0 0 {spacing} 0;" in page
    ix = rules_index.load_texts([("a5.pdf", rules_docs.print_pdf(page, chromium_executable))])
    if spacing == "0":
        # with no space and no indent nothing on the page parts a continuation paragraph (after
        # 535.7.3) from its clause when its line is full: it joins the clause's text with a space
        def flat(ix: RulesIndex) -> list[tuple[object, ...]]:
            return [(*row[:2], " ".join(str(row[2]).split()), *row[3:]) for row in shape(ix)]

        assert flat(ix) == flat(index)
    else:
        assert shape(ix) == shape(index)
    assert ix.get("211.11").text.endswith("хозяина этого существа.")  # type: ignore[union-attr]
    assert not ix.integrity().gaps[4:] and "534.4" not in ix.integrity().absent_cited
