"""`python -m rules_index` as other tools use it: JSON shapes, exit codes, Russian errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_index.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_module_entry_point_runs_as_a_process() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rules_index", "show", "211.10", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
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
    for argv in (["check", "--json"], ["show", "100.1", "--json"], ["graph", "--format", "json"]):
        code, out, err = run(*argv, "--corpus", str(f))
        assert code == 0, err
        assert "211" not in out
        code2, out2, _ = run("--corpus", str(f), *argv)
        assert (code2, out2) == (code, out)


@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"", "пуст"), (b"\x00\x00\x00\x01", "двоичный"), (b"\xfd\xc0\x80\x81\x82\x83", "кодировк")],
)
def test_bad_corpus_exits_2_without_traceback(tmp_path: Path, content: bytes, needle: str) -> None:
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    for cmd in ("check", "graph"):
        code, _, err = run(cmd, "--corpus", str(f))
        assert code == 2 and needle in err and "bad.txt" in err and "Traceback" not in err


def test_missing_corpus_and_bad_arguments() -> None:
    code, _, err = run("check", "--corpus", "/nonexistent/rules.txt")
    assert code == 2 and "не найден" in err
    code, _, err = run("graph", "--format", "svg")
    assert code == 2 and "недопустимое значение" in err
