"""What the README promises a file may be, every check accepts (issue 26 item 5: UTF-16 without a
BOM, which the README lists, was refused as «двоичные данные» before the parser saw it).

The README's «Правила»: text (.txt, .md, .rst) in UTF-8, UTF-16, Windows-1251 or KOI8-R, and a
saved web page (.html); «Карты»: community JSON with or without its const.json, CSV with a header,
our YAML; «Стол судьи»: a scenario (.yaml, .yml) and a desk file (.json). Each file is made here
in the encoding it names, and goes through the same checks as an upload: the page's size and
kind check, then the parse in the bounded worker.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
import yaml

import cardbase
import casebook
import engine
import rules_index
from casebook import nodes
from desk import share
from rules_index import uploads
from storage import worker
from tests import cardbase_cases as cards
from tests import casebook_cases as cases
from tests import desk_fuzz

RULES = (
    "900. Пробный раздел.\n"
    "900.1. Первый пункт: симбиот ёжится, см. 900.2.\n"
    "900.2. Второй пункт.\n"
    "РП 9.9 от 01.01.2030\n"
)
LIMITS = worker.Limits(cpu_s=60, memory_mb=1024, output_mb=128, wall_s=120)


@pytest.fixture(scope="module")
def pool() -> worker.Pool:
    return worker.Pool(preload=["storage.worker", "rules_index", "cardbase", "casebook", "desk.share"])


def _encoded(encoding: str) -> bytes:
    codecs = {
        "UTF-8": ("utf-8", b""),
        "UTF-8 с BOM": ("utf-8", b"\xef\xbb\xbf"),
        "UTF-16 LE с BOM": ("utf-16-le", b"\xff\xfe"),
        "UTF-16 BE с BOM": ("utf-16-be", b"\xfe\xff"),
        "UTF-16 LE без BOM": ("utf-16-le", b""),
        "UTF-16 BE без BOM": ("utf-16-be", b""),
        "Windows-1251": ("cp1251", b""),
        "KOI8-R": ("koi8-r", b""),
    }
    codec, bom = codecs[encoding]
    return bom + RULES.encode(codec)


@pytest.mark.parametrize(
    "encoding",
    [
        "UTF-8",
        "UTF-8 с BOM",
        "UTF-16 LE с BOM",
        "UTF-16 BE с BOM",
        "UTF-16 LE без BOM",
        "UTF-16 BE без BOM",
        "Windows-1251",
        "KOI8-R",
    ],
)
@pytest.mark.parametrize("suffix", [".txt", ".md", ".rst"])
def test_rules_text_in_every_promised_encoding_is_taken(
    pool: worker.Pool, encoding: str, suffix: str
) -> None:
    files = [(f"rules{suffix}", _encoded(encoding))]
    assert uploads.check_upload(files) is None
    index = pool.run(rules_index.load_texts, files, limits=LIMITS, berserk=True).value
    assert [p.id for p in index.paragraphs] == ["900", "900.1", "900.2"]
    assert "ёжится" in index.get("900.1").text  # type: ignore[union-attr]


@pytest.mark.parametrize("charset", ["utf-8", "windows-1251"])
def test_a_saved_web_page_is_taken(pool: worker.Pool, charset: str) -> None:
    body = "".join(f"<p>{line}</p>" for line in RULES.splitlines())
    page = f'<html><head><meta charset="{charset}"></head><body>{body}</body></html>'.encode(charset)
    files = [("rules.html", page)]
    assert uploads.check_upload(files) is None
    index = pool.run(rules_index.load_texts, files, limits=LIMITS, berserk=True).value
    assert [p.id for p in index.paragraphs] == ["900", "900.1", "900.2"]


# -- card bases ---------------------------------------------------------------------------------


def _imported(pool: worker.Pool, name: str, data: bytes, constants: tuple[str, bytes] | None = None) -> int:
    base = pool.run(cardbase.import_base, data, name, limits=LIMITS, constants=constants).value
    assert base.report is not None and not base.report.errors, base.report.errors
    return len(base.records)


def test_community_json_with_and_without_its_codes(pool: worker.Pool) -> None:
    (name, data), consts = cards.files()
    assert _imported(pool, name, data, consts) == _imported(pool, name, data) > 0


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251"])
def test_csv_with_a_header_in_the_encodings_excel_writes(pool: worker.Pool, encoding: str) -> None:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["id", "name", "type", "life", "cost", "text"])
    writer.writerow(["1", "Горный клещ", "Паразит", "3", "2", "Бестелесное."])
    writer.writerow(["2", "Ёжик степей", "Нелетающее", "4", "3", ""])
    assert _imported(pool, "base.csv", out.getvalue().encode(encoding)) == 2


def test_our_yaml(pool: worker.Pool) -> None:
    assert _imported(pool, cards.BASE_YAML.name, cards.BASE_YAML.read_bytes()) > 0


# -- the desk -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("suffix", [".yaml", ".yml"])
def test_a_scenario_file(pool: worker.Pool, bom: bytes, suffix: str, library: engine.CardLibrary) -> None:
    raw = bom + cases.VAIL.encode()
    text = raw.decode("utf-8-sig")  # as «Стол судьи» reads an upload
    root = pool.run(nodes.read_yaml, text, f"s{suffix}", limits=LIMITS).value
    scenario = casebook.load_scenario_nodes(root, f"s{suffix}", library=library)
    assert scenario.title.startswith("Может ли Вайл") and yaml.safe_load(text)


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_desk_file(pool: worker.Pool, bom: bytes) -> None:
    raw = bom + json.dumps(desk_fuzz.base_desk(), ensure_ascii=False).encode()
    desk = pool.run(share.from_file_text, raw, limits=LIMITS).value
    assert desk.title == "Карлик Унд" and len(desk.cards) == 3
