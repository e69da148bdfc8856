"""Parsing facts of issue 3, each checked on the embedded seeds or on small crafted files."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import rules_index
from rules_index import CorpusError, RulesIndex

CORPUS = Path(rules_index.__file__).resolve().parent / "data" / "corpus"


@pytest.fixture(scope="module")
def seeds() -> RulesIndex:
    return rules_index.load_default()


def load(text: str, name: str = "rules.txt", encoding: str = "utf-8") -> RulesIndex:
    return rules_index.load_texts([(name, text.encode(encoding))])


def test_seeds_have_44_entries_two_of_them_headings(seeds: RulesIndex) -> None:
    assert len(seeds.paragraphs) == 44
    assert [p.id for p in seeds.paragraphs if p.is_heading] == ["211", "535"]
    assert seeds.get("211") is not None and seeds.get("211").text == "Симбиоты."  # type: ignore[union-attr]


def test_paragraph_fields(seeds: RulesIndex) -> None:
    p = seeds.get("535.5.1.2")
    assert p is not None
    source = "534-535_zameshchenie_i_vzyatie_v_otryad.txt"
    assert (p.parent, p.level, p.source, p.line) == ("535.5.1", 4, source, 30)
    assert p.text.startswith("Показанные для вызова карты")
    top = seeds.get("211")
    assert top is not None and (top.parent, top.level, top.line) == (None, 1, 1)
    assert seeds.get("211.3.1") is not None and seeds.get("211.3.1").line == 9  # type: ignore[union-attr]


def test_ids_are_strings_and_211_10_is_not_211_1(seeds: RulesIndex) -> None:
    ids = [p.id for p in seeds.paragraphs]
    assert "211.10" in ids and "211.1" in ids
    assert seeds.get("211.10").text == "Нельзя объявить движение симбиота."  # type: ignore[union-attr]
    assert seeds.children("211")[-2:] == ["211.10", "211.11"]


def test_examples_kept_apart_and_attached_to_the_paragraph_they_follow(seeds: RulesIndex) -> None:
    with_examples = {p.id: p.examples for p in seeds.paragraphs if p.examples}
    assert sorted(with_examples) == ["211.3.1", "211.8.1", "534.5", "534.7.2"]
    assert sum(len(e) for e in with_examples.values()) == 4
    assert with_examples["211.3.1"][0].startswith("Карлик Унд является паразитом Вайла")
    assert with_examples["534.7.2"][0].startswith("Вожак сатиров без ран")
    for p in seeds.paragraphs:
        assert "ПРИМЕР" not in p.text


def test_continuation_lines_stay_with_their_paragraph(seeds: RulesIndex) -> None:
    continued = {p.id for p in seeds.paragraphs if "\n" in p.text}
    assert continued == {"534.7", "535.1", "535.7.3"}
    assert seeds.get("534.7").text.split("\n")[1].startswith("Замещающая особенность на шаге")  # type: ignore[union-attr]
    assert seeds.get("535.7.3").text.endswith("“при гибели”).")  # type: ignore[union-attr]


def test_bullets_form_a_list_even_two_on_one_line(seeds: RulesIndex) -> None:
    for cid in ("535.5", "535.6", "535.7"):
        assert len(seeds.get(cid).bullets) == 7, cid  # type: ignore[union-attr]
    b = seeds.get("535.6").bullets  # type: ignore[union-attr]
    assert b[4] == "на свободную клетку;"
    assert b[5] == "не более 1 карты на клетку (если возрождаемых карт несколько);"
    assert "●" not in seeds.get("535.5").text  # type: ignore[union-attr]
    assert len(seeds.get("535.9").bullets) == 2  # type: ignore[union-attr]


def test_tab_separated_bullets() -> None:
    ix = load("100. Раздел.\n100.1. Правила:\n●\tпервое;\n•\tвторое;третье.")
    assert ix.get("100.1").bullets == ("первое;", "второе;", "третье.")  # type: ignore[union-attr]


def test_version_stamp_is_split_off_211_11(seeds: RulesIndex) -> None:
    assert seeds.version == "РП 4.1-2 от 09.11.2024"
    assert seeds.version_label == "РП 4.1-2"
    text = seeds.get("211.11").text  # type: ignore[union-attr]
    assert "РП" not in text and text.endswith("хозяина этого существа.")


def test_cut_off_paragraph_is_recorded(seeds: RulesIndex) -> None:
    assert [p.id for p in seeds.paragraphs if p.cut_off] == ["211.5"]
    assert seeds.integrity().cut_off == ("211.5",)


def test_gaps_inside_a_section_only(seeds: RulesIndex) -> None:
    assert seeds.integrity().gaps == ("534", "534.1", "534.2", "534.3")


def test_duplicates_keep_both_with_lines() -> None:
    ix = load("100. Раздел.\n100.1. Первый текст.\n100.1. Второй текст.\n100.2. Ещё.")
    assert [p.id for p in ix.paragraphs].count("100.1") == 2
    assert ix.get("100.1").text == "Первый текст."  # type: ignore[union-attr]
    dup = ix.integrity().duplicates
    assert len(dup) == 1 and dup[0].id == "100.1"
    assert dup[0].places == (("rules.txt", 2), ("rules.txt", 3))
    assert any("100.1" in w for w in ix.integrity().warnings)


def test_preamble_is_text_before_the_first_entry() -> None:
    ix = load("Правила игры «Берсерк»\nВведение.\n\n100. Раздел.\n100.1. Текст.")
    assert ix.sources[0].preamble == "Правила игры «Берсерк»\nВведение."
    assert [p.id for p in ix.paragraphs] == ["100", "100.1"]


def test_neither_seed_ends_in_newline_and_files_are_not_glued() -> None:
    for f in CORPUS.glob("*.txt"):
        assert not f.read_bytes().endswith(b"\n")
    ix = rules_index.load_default()
    assert ix.get("211.11").source == "211_simbioty.txt"  # type: ignore[union-attr]
    assert ix.get("534.4").source.startswith("534-535")  # type: ignore[union-attr]


# sha256 of ../shared/seeds/000_6b0038ae6536258d.txt and 004_a6891a335d2b8411.txt.
SEED_SHA256 = {
    "211_simbioty.txt": "26bfe6dc999ed0da2217317024d8393502e1f03c41fc1b5b2a40dca01315eb89",
    "534-535_zameshchenie_i_vzyatie_v_otryad.txt": (
        "b9d151f25d6e56f54cb20382b8a69ac790448ac67ac88ed76274d0c0e3fd7d62"
    ),
}


def test_embedded_corpus_is_the_seeds_byte_for_byte_with_a_note_on_origin() -> None:
    got = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in CORPUS.glob("*.txt")}
    assert got == SEED_SHA256
    origin = (CORPUS / "ORIGIN.md").read_text(encoding="utf-8")
    assert "РП 4.1-2 от 09.11.2024" in origin and "000_6b0038ae6536258d.txt" in origin


def test_default_loader_ignores_non_txt_files_in_corpus_dir() -> None:
    # ORIGIN.md sits next to the seeds; its numbered lines must never become rules.
    ix = rules_index.load_default()
    assert all(s.name.endswith(".txt") for s in ix.sources)
    assert len(ix.sources) == 2


# Encodings ------------------------------------------------------------------------------------

SAMPLE = "211. Симбиоты.\n211.1. Симбиот — существо.\n211.2. Ещё ёж’ пункт."


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (SAMPLE.encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + SAMPLE.encode("utf-8"), "utf-8-sig"),
        (SAMPLE.replace("\n", "\r\n").encode("utf-8"), "utf-8"),
        (SAMPLE.replace("’", "'").encode("cp1251"), "cp1251"),
        (SAMPLE.replace("’", "'").replace("\n", "\r\n").encode("cp1251"), "cp1251"),
        (SAMPLE.encode("utf-16"), "utf-16"),
        (SAMPLE.encode("utf-16-le"), "utf-16-le"),
        (SAMPLE.encode("utf-16-be"), "utf-16-be"),
        (SAMPLE.replace("’", "'").replace("—", "-").encode("koi8-r"), "koi8-r"),
    ],
)
def test_encodings_and_line_endings(data: bytes, encoding: str) -> None:
    ix = rules_index.load_texts([("r.txt", data)])
    assert [p.id for p in ix.paragraphs] == ["211", "211.1", "211.2"]
    assert ix.sources[0].encoding == encoding
    assert ix.get("211.1").text.replace("-", "—") == "Симбиот — существо."  # type: ignore[union-attr]
    assert ix.get("211.2").line == 3  # type: ignore[union-attr]


@pytest.mark.parametrize("encoding", ["cp1251", "koi8-r"])
def test_the_seeds_in_an_8_bit_russian_encoding_parse_as_in_utf8(seeds: RulesIndex, encoding: str) -> None:
    # «●», «–» and «’» have no code in these encodings (KOI8-R lacks «—» and «» too): an
    # export writes «•», «-», «'» or «?» instead.
    files = []
    for f in sorted(CORPUS.glob("*.txt")):
        text = f.read_text("utf-8").replace("●", "•").replace("–", "-").replace("’", "'")
        files.append((f.name, text.encode(encoding, errors="replace")))
    ix = rules_index.load_texts(files)
    assert [s.encoding for s in ix.sources] == [encoding, encoding]
    assert [p.id for p in ix.paragraphs] == [p.id for p in seeds.paragraphs]
    assert ix.get("211.10").text == "Нельзя объявить движение симбиота."  # type: ignore[union-attr]
    assert ix.version == "РП 4.1-2 от 09.11.2024"
    assert ix.search("Бул'Багур", 1)[0].id == "534.5"


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"", "пуст"),
        (b"\xef\xbb\xbf", "пуст"),
        (b"\xef\xbb\xbf \r\n", "пуст"),
        (b"ab\x00\x00cd", "двоичный"),
        (b"   \n\n", "пуст"),
        (b"\x00\x01\x02binary\x00", "двоичный"),
        # zero bytes only at even offsets, as in UTF-16 BE, yet not text: binary, not «UTF-16»
        (bytes(range(256)) + bytes(range(1, 256)) + b"\x01", "двоичный"),
        (bytes(range(128, 256)) * 4, "кодировк"),
        (b"211. \xd0\xa1\xd0", "кодировк"),
        ("просто текст без номеров".encode(), "ни одного пронумерованного"),
    ],
)
def test_bad_files_raise_a_russian_corpus_error_naming_the_file(data: bytes, needle: str) -> None:
    with pytest.raises(CorpusError) as err:
        rules_index.load_texts([("плохой.txt", data)])
    assert needle in str(err.value)
    assert "плохой.txt" in str(err.value)


def test_load_paths_folder_and_missing(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("100. Раздел.\n100.1. Текст см. 200.1.", encoding="utf-8")
    (tmp_path / "b.md").write_text("# 200. Другой\n\n200.1. Текст.\n", encoding="utf-8")
    (tmp_path / "ignored.doc").write_bytes(b"\xd0\xcf\x11\xe0")  # not a rules format
    ix = rules_index.load_paths([tmp_path])
    assert [p.id for p in ix.paragraphs] == ["100", "100.1", "200", "200.1"]
    assert [c.target for c in ix.cites("100.1")] == ["200.1"]
    with pytest.raises(CorpusError, match="не найден"):
        rules_index.load_paths([tmp_path / "нет.txt"])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CorpusError, match="нет файлов правил"):
        rules_index.load_paths([empty])


# Markup ---------------------------------------------------------------------------------------


def test_markdown_markup_is_stripped_and_headings_are_sections() -> None:
    md = (
        "# Правила игры\n\nВводный **текст**.\n\n"
        "## 211. Симбиоты\n\n"
        "211.1. У *симбиотов* [ссылка](http://x) и `код`.\n"
        "- первый пункт;\n- второй пункт.\n\n"
        "212\\. Другой раздел\n---------\n\n"
        "212.1. Текст.\n"
    )
    ix = load(md, name="rules.md")
    assert [p.id for p in ix.paragraphs] == ["211", "211.1", "212", "212.1"]
    assert ix.get("211").is_heading and ix.get("212").is_heading  # type: ignore[union-attr]
    assert ix.get("211.1").text == "У симбиотов ссылка и код."  # type: ignore[union-attr]
    assert ix.get("211.1").bullets == ("первый пункт;", "второй пункт.")  # type: ignore[union-attr]
    assert ix.sources[0].preamble == "Правила игры\nВводный текст."
    assert ix.section_title("212.1") == "Другой раздел"


def test_rst_markup_is_stripped_and_underlined_numbers_are_sections() -> None:
    rst = (
        ".. comment:: ignored\n   body\n\n"
        "211. Симбиоты\n=\n\n"
        "211.1. Текст с **жирным** и ``кодом``.\n\n"
        "535. Взятие\n~~~~~~~~~~~~~~~~~~~~~~~~\n\n"
        "535.1. Ещё `ссылка <http://x>`_.\n"
    )
    ix = load(rst, name="rules.rst")
    assert [p.id for p in ix.paragraphs] == ["211", "211.1", "535", "535.1"]
    assert ix.get("211.1").text == "Текст с жирным и кодом."  # type: ignore[union-attr]
    assert ix.get("535.1").text == "Ещё ссылка."  # type: ignore[union-attr]
    assert ix.get("535").is_heading  # type: ignore[union-attr]
    assert ix.get("211.1").line == 7  # type: ignore[union-attr]


@pytest.mark.parametrize("underline", ["=", "==========================", "-", "---"])
def test_markdown_underlined_numbered_line_of_either_kind_and_any_length_is_a_section(underline: str) -> None:
    ix = load(f"Вступление.\n\n211. Симбиоты\n{underline}\n\n211.1. Текст.\n", name="r.md")
    assert [p.id for p in ix.paragraphs] == ["211", "211.1"]
    assert ix.get("211").is_heading and ix.get("211").text == "Симбиоты"  # type: ignore[union-attr]
    assert ix.section_title("211.1") == "Симбиоты"
    assert ix.sources[0].preamble == "Вступление."


@pytest.mark.parametrize("underline", ["=", "-", "-----------------------------", "===="])
def test_rst_underlined_numbered_line_of_either_kind_and_any_length_is_a_section(underline: str) -> None:
    ix = load(f"211. Симбиоты\n{underline}\n\n211.1. Текст.\n", name="r.rst")
    assert [p.id for p in ix.paragraphs] == ["211", "211.1"]
    assert ix.get("211").is_heading and ix.get("211").text == "Симбиоты"  # type: ignore[union-attr]
    assert underline not in ix.get("211.1").text  # type: ignore[union-attr]


def test_plain_text_underlines_are_not_rule_text() -> None:
    ix = load("Правила\n=======\n211. Симбиоты\n=\n211.1. Текст.\n\n212. Другой\n---\n212.1. Ещё.")
    assert [(p.id, p.is_heading, p.text) for p in ix.paragraphs] == [
        ("211", True, "Симбиоты"),
        ("211.1", False, "Текст."),
        ("212", True, "Другой"),
        ("212.1", False, "Ещё."),
    ]
    assert ix.sources[0].preamble == "Правила"
    assert ix.integrity().cut_off == ()


def test_numbered_list_inside_a_clause_is_not_a_section() -> None:
    ix = load("535. Раздел.\n535.9. Если так, то:\n1. первое;\n2. второе.\n536. Другой.\n536.1. Текст.")
    assert [p.id for p in ix.paragraphs] == ["535", "535.9", "536", "536.1"]
    assert ix.get("535.9").text == "Если так, то:\n1. первое;\n2. второе."  # type: ignore[union-attr]


def test_numbered_example_heading() -> None:
    ix = load(
        "100. Раздел.\n100.1. Правило.\nПример 1: первый случай.\nПРИМЕРЫ. Второй случай.\n"
        "100.2. Другое правило.\nПРИМЕР.\nТретий случай.\n● с пунктом.\n100.3. Примерно так."
    )
    assert ix.get("100.1").examples == ("первый случай.", "Второй случай.")  # type: ignore[union-attr]
    assert ix.get("100.2").examples == ("Третий случай.\n● с пунктом.",)  # type: ignore[union-attr]
    assert ix.get("100.2").text == "Другое правило."  # type: ignore[union-attr]
    assert ix.get("100.3").examples == ()  # type: ignore[union-attr]


def test_a_file_without_entries_among_others_is_a_warning() -> None:
    ix = rules_index.load_texts([("a.txt", b"100. X.\n100.1. Y."), ("readme.txt", "Просто текст.".encode())])
    assert [p.id for p in ix.paragraphs] == ["100", "100.1"]
    assert any("readme.txt" in w for w in ix.integrity().warnings)
