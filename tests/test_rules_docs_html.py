"""Web pages and Word files: the shapes community sites and head judges' notes come in."""

from __future__ import annotations

import io
import zipfile

import docx
import pytest

import rules_index
from rules_index import RulesIndex
from tests import rules_docs


def shape(ix: RulesIndex) -> list[tuple[object, ...]]:
    return [(p.id, p.parent, p.text, p.examples, p.bullets, p.is_heading, p.cut_off) for p in ix.paragraphs]


@pytest.fixture(scope="module")
def page() -> RulesIndex:
    return rules_index.load_texts([("правила.html", rules_docs.COMMUNITY_PAGE.encode("utf-8"))])


def test_a_web_page_of_the_embedded_rules_parses_as_the_plain_text(index: RulesIndex) -> None:
    ix = rules_index.load_texts([("rules.html", rules_docs.corpus_html().encode("utf-8"))])
    assert shape(ix) == shape(index)
    assert not ix.has("211.99") and not ix.has("999.1")  # the menu and the footer are not rules


def test_implicit_numbering_from_a_heading_and_lists(page: RulesIndex) -> None:
    assert [p.id for p in page.paragraphs] == [
        "210",
        "210.1",
        "210.2",
        "210.3",
        "210.11",
        "210.11а",
        "210.11б",
        "220",
        "220.1",
        "290",
    ]
    assert page.get("210").is_heading and page.get("210").text == "Симбиоты и Паразиты."  # type: ignore[union-attr]
    # <li value="11"> moves the count; the nested <ol type="a"> is lettered Cyrillic
    assert page.get("210.11а").text == "Если перемещается хозяин, симбиот перемещается вместе с ним."  # type: ignore[union-attr]
    assert page.integrity().gaps == ("210.4–210.10",)


def test_navigation_scripts_styles_forms_and_footers_are_skipped(page: RulesIndex) -> None:
    everything = "\n".join(p.full_text + "".join(p.examples) for p in page.paragraphs)
    for junk in ("Главная", "Меню", "скрипта", "из стиля", "боковой колонки", "из формы", "Подвал", "©"):
        assert junk not in everything, junk
    assert not any(page.has(cid) for cid in ("210.50", "210.55", "210.66", "210.77", "210.88", "210.99"))


def test_entities_examples_bullets_and_glossary(page: RulesIndex) -> None:
    assert page.get("210.1").text.startswith("У симбиотов вместо символа «запаса движения»")  # type: ignore[union-attr]
    assert "паразитов — см. 210.11а." in page.get("210.1").text  # type: ignore[union-attr]
    assert "& не на летающее" in page.get("210.3").text  # type: ignore[union-attr]
    assert page.get("210.3").examples == ("Карлик Унд является паразитом Вайла противника.",)  # type: ignore[union-attr]
    assert page.get("220").bullets == ("из своей колоды;", "под своим контролем.")  # type: ignore[union-attr]
    glossary = page.get("290")
    assert glossary is not None
    assert glossary.bullets == (
        "Хозяин — существо, на которое помещён симбиот",
        "Паразит — симбиот, помещённый на существо противника",
    )
    assert page.search("хозяин существо симбиот помещён")[0].id == "290"


def test_lettered_ids_parse_order_parent_and_cite(page: RulesIndex) -> None:
    assert page.children("210") == ["210.1", "210.2", "210.3", "210.11"]
    assert page.children("210.11") == ["210.11а", "210.11б"]  # the nested <ol type="a"> of 210.11
    assert page.parent("210.11а") == "210.11" and page.parent("210.11") == "210"
    assert {c.source for c in page.cited_by("210.11а")} == {"210.1", "210.11б"}
    assert page.search("210.11а")[0].id == "210.11а"
    assert page.search("п. 210.11")[0].id == "210.11"
    assert page.resolve("210.11a") == "210.11а"  # a Latin «a» typed for the Cyrillic «а»


def test_latin_lettered_pages_keep_latin_letters() -> None:
    ix = rules_index.load_texts([("page.htm", rules_docs.LATIN_LETTERS_PAGE.encode())])
    assert [p.id for p in ix.paragraphs] == ["100", "100.1", "100.1a"]
    assert ix.resolve("100.1а") == "100.1a"
    assert [c.target for c in ix.cites("100.1")] == ["100.1a"]


def test_a_page_in_windows_1251_with_a_meta_charset() -> None:
    page = '<html><head><meta charset="windows-1251"></head><body><h2>300. Раздел.</h2><ol><li>Ёж.</li></ol>'
    ix = rules_index.load_texts([("old.html", page.encode("cp1251"))])
    assert ix.get("300.1").text == "Ёж."  # type: ignore[union-attr]
    assert "windows-1251" in ix.sources[0].encoding


# Word ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("automatic", [False, True], ids=["typed numbers", "Word numbering"])
def test_a_word_file_of_the_embedded_rules_parses_as_the_plain_text(
    automatic: bool, index: RulesIndex
) -> None:
    data = rules_docs.corpus_docx(automatic=automatic)
    if automatic:  # the numbers are really not in the text: Word draws them
        text = "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)
        assert "211.3.1" not in text.replace("см.", "") and "Если симбиот меняет хозяина" in text
    ix = rules_index.load_texts([("rules.docx", data)])
    assert shape(ix) == shape(index)
    assert ix.version == "РП 4.1-2 от 09.11.2024"
    notes = " ".join(ix.sources[0].notes)
    assert ("номеров восстановлено из нумерации списков: 44" in notes) == automatic


def test_word_numbering_formats_letters_and_restarts() -> None:
    document = docx.Document()
    num = rules_docs._numbering_definition(
        document, [("decimal", "%1."), ("decimal", "%1.%2."), ("russianLower", "%1.%2%3")]
    )
    num = rules_docs._restart(document, num, [210])
    for ilvl, text in [
        (0, "Симбиоты."),
        (1, "Первый."),
        (1, "Второй."),
        (2, "С буквой."),
        (2, "Ещё."),
        (1, "Третий."),
    ]:
        rules_docs._number(document.add_paragraph(text), num, ilvl)
    out = io.BytesIO()
    document.save(out)
    ix = rules_index.load_texts([("notes.docx", out.getvalue())])
    assert [p.id for p in ix.paragraphs] == ["210", "210.1", "210.2", "210.2а", "210.2б", "210.3"]


@pytest.mark.parametrize(
    ("name", "data", "needle"),
    [
        ("заметки.docx", b"PK\x03\x04 not really a zip", "повреждён"),
        ("заметки.docx", b"", "пуст"),
        ("заметки.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "Сохраните документ как .docx"),
    ],
)
def test_bad_word_files_get_russian_messages(name: str, data: bytes, needle: str) -> None:
    with pytest.raises(rules_index.CorpusError, match=needle) as err:
        rules_index.load_texts([(name, data)])
    assert name in str(err.value)


def test_a_zip_that_is_not_word_and_a_zip_bomb_are_refused() -> None:
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("readme.txt", "211.1. Текст.")
    with pytest.raises(rules_index.CorpusError, match="не документ Word"):
        rules_index.load_texts([("архив.docx", plain.getvalue())])
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"<a>" + b" " * (120 * 1024 * 1024) + b"</a>")
    with pytest.raises(rules_index.CorpusError, match="zip-бомба"):
        rules_index.load_texts([("бомба.docx", bomb.getvalue())])
