"""`python -m rules_index diff OLD NEW`: text and JSON output, `builtin`, folders, Russian errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_index.cli import main
from tests import fictional_rules as fr
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fictional_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fictional_rules")
    for name, text in fr.fictional_texts():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_text_output_lists_changes_by_section(fictional_dir: Path) -> None:
    code, out, err = run("diff", "builtin", str(fictional_dir))
    assert code == 0 and not err
    assert f"Стало: {fr.FICTIONAL_VERSION} (45 пунктов)" in out
    assert (
        "Итого: изменён: 3, перенумерован: 17, добавлен: 1, удалён: 1, разделён: 1; без изменений: 22" in out
    )
    assert "~ 534.6 — изменён (текст)" in out
    assert "[−можно применять−] [+может быть применён и+]" in out
    assert "⑂ 535.3 → 535.4, 535.4.1 — разделён" in out
    assert "ссылка на 535.5.1.2 теперь ведёт на 535.6.1.2 (номер в тексте обновлён)" in out
    assert "Раздел 211\n" in out and "Раздел 534\n" in out
    # Unchanged clauses are left out unless asked for.
    assert "211.1 —" not in out
    _, everything, _ = run("diff", "builtin", str(fictional_dir), "--all")
    assert "= 211.1 — без изменений" in everything


def test_json_contract_from_a_subprocess(fictional_dir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules_index", "diff", "builtin", str(fictional_dir), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["old"]["version"] == "РП 4.1-2 от 09.11.2024"
    assert data["new"]["version"] == fr.FICTIONAL_VERSION
    kinds = [(c["kind"], tuple(c["old"]), tuple(c["new"])) for c in data["changes"]]
    assert kinds == fr.EXPECTED
    for c in data["changes"]:
        assert set(c) == {"kind", "old", "new", "similarity", "parts", "words", "refs"}
        assert 0.0 <= c["similarity"] <= 1.0
        assert all(w["op"] in ("equal", "insert", "delete") for w in c["words"])


def test_same_rules_say_no_changes() -> None:
    code, out, _ = run("diff", "builtin", "builtin")
    assert code == 0
    assert "Итого: изменений нет; без изменений: 44" in out
    assert "Тексты совпадают: изменений нет." in out


def test_bad_input_is_a_russian_message(tmp_path: Path) -> None:
    code, out, err = run("diff", "builtin", str(tmp_path / "нет.txt"))
    assert code == 2 and not out
    assert "не найден" in err and "Traceback" not in err
    empty = tmp_path / "empty.txt"
    empty.write_text("просто текст без пунктов\n", encoding="utf-8")
    code, _, err = run("diff", str(empty), "builtin")
    assert code == 2 and "не найдено ни одного пронумерованного пункта" in err
    code, _, err = run("diff", "builtin")
    assert code == 2 and "не хватает аргументов" in err
