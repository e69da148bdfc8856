"""`python -m rules_index` as other tools use it: JSON shapes, exit codes, Russian errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rules_index
from rules_index.cli import main
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_module_entry_point_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rules_index", "show", "211.10", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["text"] == "Нельзя объявить движение симбиота."


def test_show_json_keys_and_values() -> None:
    code, out, _ = run("show", "535.5.1.2", "--json")
    assert code == 0
    data = json.loads(out)
    keys = ("id", "title", "text", "examples", "parent", "children", "cites", "cited_by", "absent", "source")
    for key in keys:
        assert key in data
    assert data["id"] == "535.5.1.2" and data["title"] == "Взятие карт в отряд"
    assert data["parent"] == "535.5.1" and data["absent"] is False
    assert [c["target"] for c in data["cites"]] == ["207"]
    assert [c["source"] for c in data["cited_by"]] == ["535.5.1.3"]
    assert data["source"]["line"] == 30


def test_show_absent_cited_id_exits_0() -> None:
    code, out, _ = run("show", "536", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["absent"] is True and [c["source"] for c in data["cited_by"]] == ["534.7"]


def test_show_unknown_id_exits_2_with_nearest() -> None:
    code, out, err = run("show", "211.12")
    assert code == 2 and out == ""
    assert "нет такого пункта" in err and "211.11" in err
    code, _, err = run("show", "абв")
    assert code == 2 and "не номер пункта" in err


def test_show_text_mentions_cut_off_and_examples() -> None:
    code, out, _ = run("show", "211.5")
    assert code == 0 and "обрывается" in out
    code, out, _ = run("show", "211.3.1")
    assert "ПРИМЕР: Карлик Унд" in out and "Симбиоты" in out


def test_check_json_on_seeds() -> None:
    code, out, _ = run("check", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["version"] == "РП 4.1-2 от 09.11.2024"
    assert (data["paragraphs"], data["headings"], data["examples"]) == (44, 2, 4)
    assert data["absent_cited"] == ["207", "403.2", "536", "537"]
    assert data["gaps"] == ["534", "534.1", "534.2", "534.3"]
    assert data["cut_off"] == ["211.5"] and data["duplicates"] == []


def test_check_text_is_russian() -> None:
    code, out, _ = run("check")
    assert code == 0 and "Оборванные пункты: 211.5" in out


def test_graph_json_and_dot() -> None:
    code, out, _ = run("graph", "--format", "json")
    assert code == 0
    data = json.loads(out)
    cites = {(e["source"], e["target"]) for e in data["edges"] if e["kind"] == "cites"}
    assert len(cites) == 6 and ("534.7", "536") in cites
    assert all({"source", "target", "kind", "sentence"} <= set(e) for e in data["edges"])
    ids = {n["id"] for n in data["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])
    code, out, _ = run("graph")
    assert code == 0 and out.startswith("digraph")
    code, out, _ = run("graph", "--format", "json", "--id", "535.3")
    assert {n["id"] for n in json.loads(out)["nodes"]} == {"535", "535.3", "403.2"}


def test_corpus_option_on_every_command(tmp_path: Path) -> None:
    f = tmp_path / "r.txt"
    f.write_text("100. Раздел.\n100.1. Текст см. 200.\n", encoding="utf-8")
    for argv in (
        ["check", "--json"],
        ["show", "100.1", "--json"],
        ["graph", "--format", "json"],
        ["search", "текст", "--json"],
    ):
        code, out, err = run(*argv, "--corpus", str(f))
        assert code == 0, err
        # nothing of the embedded rules (the file's own path may hold any digits: pytest-211/)
        assert "211" not in out.replace(str(tmp_path), "")
        code2, out2, _ = run("--corpus", str(f), *argv)
        assert (code2, out2) == (code, out)


EVERY_COMMAND = (["search", "симбиот"], ["show", "211.4"], ["check"], ["graph"])


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("bad.txt", b"", "пуст"),
        ("bad.txt", b"\x00\x00\x00\x01", "двоичный"),
        ("bad.txt", b"\xfd\xc0\x80\x81\x82\x83", "кодировк"),
        ("bad.txt", "Только преамбула, без номеров.".encode(), "ни одного пронумерованного"),
        ("bad.docx", b"PK\x03\x04\x14\x00\x06\x00binary", "повреждён"),
        ("bad.doc", b"\xd0\xcf\x11\xe0binary", "Сохраните документ как .docx"),
    ],
)
def test_bad_corpus_exits_2_on_every_command_without_traceback(
    tmp_path: Path, name: str, content: bytes, needle: str
) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    for argv in EVERY_COMMAND:
        code, out, err = run(*argv, "--corpus", str(f))
        assert code == 2, argv
        assert needle in err and name in err and "Ошибка" in err, (argv, err)
        assert "Traceback" not in err and out == ""


def test_missing_corpus_or_a_folder_without_rules_exits_2_on_every_command(tmp_path: Path) -> None:
    (tmp_path / "notes.doc").write_bytes(b"PK")  # not a rules format: the folder has no rules
    for argv in EVERY_COMMAND:
        code, _, err = run(*argv, "--corpus", str(tmp_path / "нет.txt"))
        assert code == 2 and "не найден" in err and "нет.txt" in err, argv
        code, _, err = run(*argv, "--corpus", str(tmp_path))
        assert code == 2 and "нет файлов правил" in err, argv


def test_duplicate_ids_across_two_files_are_kept_shown_and_reported(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("100. Раздел.\n100.1. Первый текст.", encoding="utf-8")
    (tmp_path / "b.txt").write_text("100.1. Второй текст.\n100.2. Ещё.", encoding="utf-8")
    code, out, _ = run("check", "--json", "--corpus", str(tmp_path))
    assert code == 0
    # --corpus is repeatable: the two files named one by one index the same as their folder.
    a, b = str(tmp_path / "a.txt"), str(tmp_path / "b.txt")
    assert run("check", "--json", "--corpus", a, "--corpus", b)[1] == out
    dup = json.loads(out)["duplicates"]
    assert [d["id"] for d in dup] == ["100.1"]
    assert [(Path(p["source"]).name, p["line"]) for p in dup[0]["places"]] == [("a.txt", 2), ("b.txt", 1)]
    code, out, _ = run("show", "100.1", "--json", "--corpus", str(tmp_path))
    data = json.loads(out)
    assert data["text"] == "Первый текст."
    assert [(Path(d["source"]["file"]).name, d["source"]["line"], d["text"]) for d in data["duplicates"]] == [
        ("b.txt", 1, "Второй текст.")
    ]
    code, out, _ = run("show", "100.1", "--corpus", str(tmp_path))
    assert "повторяется" in out and "Второй текст." in out
    code, out, _ = run("search", "второй текст", "--json", "--corpus", str(tmp_path))
    assert [h["id"] for h in json.loads(out)] == ["100.1"]


@pytest.mark.parametrize("typed", ["211.4", "211.4.", "п. 211.4", "П.211.4", "пункт 211.4", "§ 211.4"])
def test_show_accepts_the_forms_judges_type(typed: str) -> None:
    code, out, err = run("show", typed, "--json")
    assert code == 0, err
    assert json.loads(out)["id"] == "211.4"


def test_ids_are_strings_on_the_command_line(tmp_path: Path) -> None:
    f = tmp_path / "r.txt"
    f.write_text("211. Раздел.\n211.1. Один.\n211.10. Десять, см. 211.1.\n211.2. Два.", encoding="utf-8")
    _, out, _ = run("show", "211.10", "--json", "--corpus", str(f))
    assert json.loads(out)["text"] == "Десять, см. 211.1."
    _, out, _ = run("show", "211.1", "--json", "--corpus", str(f))
    data = json.loads(out)
    assert data["text"] == "Один." and [c["source"] for c in data["cited_by"]] == ["211.10"]
    _, out, _ = run("search", "211.1", "--json", "--corpus", str(f))
    assert [h["id"] for h in json.loads(out)] == ["211.1", "211.10"]
    _, out, _ = run("graph", "--format", "json", "--corpus", str(f))
    edges = {(e["source"], e["target"], e["kind"]) for e in json.loads(out)["edges"]}
    assert ("211.10", "211.1", "cites") in edges and ("211.1", "211.10", "parent") not in edges


def test_queries_with_nothing_to_search() -> None:
    code, out, err = run("search", "?!…", "--json")
    assert code == 2 and out == "" and "нет ни слов, ни номера" in err
    code, out, _ = run("search", "и в на", "--json")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run("search", "что это")
    assert code == 0 and "В загруженных правилах об этом ничего нет." in out


def test_a_clause_the_rules_lack_is_nothing_then_what_cites_it() -> None:
    code, out, _ = run("search", "история боя 537")
    lines = out.splitlines()
    nothing = next(i for i, line in enumerate(lines) if "В загруженных правилах об этом ничего нет." in line)
    pointers = lines.index("Пункты по номеру из запроса (как нашёлся каждый — под ним):")
    assert code == 0 and nothing < pointers, out
    assert lines[pointers + 1].startswith("1. 534.5"), out


def test_missing_corpus_and_bad_arguments() -> None:
    code, _, err = run("check", "--corpus", "/nonexistent/rules.txt")
    assert code == 2 and "не найден" in err
    code, _, err = run("graph", "--format", "svg")
    assert code == 2 and "недопустимое значение" in err


def test_counts_read_as_russian(tmp_path: Path) -> None:
    from rules_index.text import plural

    assert [plural(n, "пункт", "пункта", "пунктов") for n in (1, 2, 5, 11, 14, 21, 22, 30, 111)] == [
        "1 пункт",
        "2 пункта",
        "5 пунктов",
        "11 пунктов",
        "14 пунктов",
        "21 пункт",
        "22 пункта",
        "30 пунктов",
        "111 пунктов",
    ]
    f = tmp_path / "r.txt"
    f.write_text("100. Раздел.\n100.1. А.\n100.1. Б.\n100.1. В.\n100.1. Г.\n100.1. Д.", encoding="utf-8")
    _, out, _ = run("check", "--corpus", str(f))
    assert "(6 пунктов, utf-8)" in out and "встречается 5 раз:" in out
    _, out, _ = run("check")
    assert "(14 пунктов, utf-8)" in out and "(30 пунктов, utf-8)" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [(["search", "х" * 10_000], "слишком длинный"), (["check", "--corpus", "/нет/rules.txt"], "не найден")],
)
def test_bad_input_as_a_process_exits_2_with_a_russian_message(argv: list[str], needle: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rules_index", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
    )
    assert proc.returncode == 2 and needle in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_an_internal_error_is_reported_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object, query: str, top: int = 10) -> list[object]:
        raise RuntimeError("сбой")

    monkeypatch.setattr(rules_index.RulesIndex, "lookup", broken)
    code, out, err = run("search", "хост")
    assert code == 3 and out == ""
    assert "Внутренняя ошибка" in err and "Traceback" not in err


def test_other_rules_keep_their_literal_words_and_can_be_told_apart(tmp_path: Path) -> None:
    """A foreign text that says «Свойства» finds it first, though our jargon reads «свойства» as
    «особенности»; with --other-game our jargon is not applied at all."""
    rules = tmp_path / "other.txt"
    rules.write_text(
        "100. Общие правила.\n100.1. Свойства карты указаны на её лицевой стороне.\n"
        "100.2. Особенности карты действуют, пока она в игре.\n",
        encoding="utf-8",
    )
    code, out, _ = run("search", "свойства", "--corpus", str(rules), "--json")
    assert code == 0 and [h["id"] for h in json.loads(out)][:2] == ["100.1", "100.2"]
    code, out, _ = run("search", "свойства", "--corpus", str(rules), "--other-game", "--json")
    assert code == 0 and [h["id"] for h in json.loads(out)] == ["100.1"]
    code, out, _ = run("search", "абилка", "--corpus", str(rules), "--other-game", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = run("search", "симбиот", "--other-game")
    assert code == 2 and "--other-game относится к правилам из --corpus" in err
