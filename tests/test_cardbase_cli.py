"""`python -m engine cards …`: import, list, find, show; exit codes; Russian, no tracebacks."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardbase import cli, store
from tests import cardbase_cases as cases
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cards_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cards"
    monkeypatch.setenv(store.ENV_VAR, str(folder))
    return folder


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), out, err)
    return code, out.getvalue(), err.getvalue()


def test_import_stores_the_base_and_makes_it_the_default(cards_dir: Path) -> None:
    code, out, err = run("import", str(cases.BASE_JSON), "--constants", str(cases.CONST_JSON))
    assert (code, err) == (0, "")
    assert "записей 28, карт 26" in out and "Сохранена как база" in out and "по умолчанию" in out
    cards = store.CardStore(cards_dir)
    assert cards.default_id() == cases.json_base().id
    code, out, _ = run("list")
    assert code == 0 and "«base.json», JSON, карт 26, выпусков 2" in out and "(по умолчанию)" in out


def test_a_file_with_bad_records_is_not_stored_unless_accepted(cards_dir: Path, tmp_path: Path) -> None:
    run("import", str(cases.BASE_JSON), "--constants", str(cases.CONST_JSON))
    good = store.CardStore(cards_dir).default_id()
    recs = cases.records()
    recs[2]["type"] = 7
    bad = tmp_path / "bad.json"
    bad.write_bytes(cases.dump(recs))
    code, out, _ = run("import", str(bad))
    assert code == 1
    assert "запись 3 (id 90003, «Лесной спутник»): неизвестный код типа «7»" in out
    assert "База НЕ сохранена" in out and "--accept-skipped" in out
    assert store.CardStore(cards_dir).default_id() == good
    code, out, _ = run("import", str(bad), "--accept-skipped", "--keep-default")
    assert code == 0 and "Сохранена как база" in out
    assert store.CardStore(cards_dir).default_id() == good
    assert len(store.CardStore(cards_dir).bases()) == 2


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("import",), "не хватает аргументов: ФАЙЛ"),
        (("import", "нет-такого.json"), "не читается"),
        (("frobnicate",), "неизвестная команда"),
        (("find", "--cost"), "после --cost нужно значение"),
        (("find", "--cost", "дорого"), "нужно число"),
        (("find", "--wat"), "неизвестный ключ"),
        ((), "не указана команда"),
    ],
)
def test_a_wrong_command_line_says_so(cards_dir: Path, args: tuple[str, ...], says: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and says in err and "Traceback" not in err + out


def test_a_malformed_file_exits_2(cards_dir: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[{"name": "A",}]', encoding="utf-8")
    code, out, err = run("import", str(broken))
    assert code == 2 and "строка 1" in err and "ошибка JSON" in err and out == ""
    assert store.CardStore(cards_dir).bases() == []


def test_find_and_show(cards_dir: Path) -> None:
    run("import", str(cases.BASE_JSON), "--constants", str(cases.CONST_JSON))
    code, out, _ = run("find", "паладн")
    assert code == 0 and out.startswith("Светлый паладин [90008]") and "похожее написание" in out
    code, out, _ = run("find", "--element", "Тьма", "--cost", "4-5", "--json")
    rows = json.loads(out)
    assert code == 0 and rows and {r["id"] for r in rows} >= {"90005", "90010"}
    code, out, _ = run("find", "--set", "Второй пробный выпуск")
    assert code == 0 and "Страж ворот" in out and "Звонарь" not in out
    code, out, _ = run("find", "щщщщщщ")
    assert code == 1 and "Ничего не найдено" in out
    code, out, _ = run("show", "горный клещ")
    assert code == 0 and "симбиот-паразит" in out and "моделируется: incorporeal" in out
    assert "не смоделировано: решайте по тексту карты — [закрыть]: ранить хозяина на 1." in out
    code, out, _ = run("show", "90004", "--json")
    shown = json.loads(out)
    assert shown["name"] == "Болотный скат" and "535.4" in shown["clauses"]
    code, out, _ = run("show", "Несуществующая тварь")
    assert code == 1 and "не найдена" in out
    code, out, _ = run("show", "Карлик Унд", "--base", "builtin")
    assert code == 0 and "Карлик Унд" in out


def test_python_m_engine_cards_routes_here(tmp_path: Path) -> None:
    env = {**os.environ, store.ENV_VAR: str(tmp_path / "cards")}
    done = subprocess.run(
        [sys.executable, "-m", "engine", "cards", "find", "Карлик"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Карлик Унд")


def test_a_bad_value_in_a_record_is_named_not_an_internal_error(cards_dir: Path, tmp_path: Path) -> None:
    recs = cases.records()
    recs[1]["type"] = True
    recs[2]["life"] = float("inf")
    bad = tmp_path / "values.json"
    bad.write_bytes(cases.dump(recs))
    code, out, err = run("import", str(bad))
    assert (code, err) == (1, ""), err
    assert "запись 2 (id 90002, «Горный клещ»): type (тип): нужен код типа или слово, а не «true»" in out
    assert "запись 3 (id 90003, «Лесной спутник»): life (жизнь): нужно целое число от 0 до 99" in out
    assert "Внутренняя ошибка" not in out + err and store.CardStore(cards_dir).bases() == []
