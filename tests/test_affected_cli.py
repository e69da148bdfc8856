"""`python -m engine affected OLD NEW [--json] [--journal ФАЙЛ]`: the journal's rulings and the
library's scenarios that cite clauses a FICTIONAL next version (tests/fictional_rules.py) changed."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from casebook import cli
from rulings import sqlite_file
from tests import fictional_rules as fr
from tests import helpers, rulings_samples

RECRUIT_535_2 = "scenarios/rulings/535.2_recruit_during_battle.yaml"


@pytest.fixture(scope="module")
def fictional_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fictional_rules")
    for name, data in fr.as_files(fr.fictional_texts()):
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture
def journal(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """A journal with three rulings of РП 4.1-2: on 535.2 (renumbered), on 534.8 (removed), and
    on clauses the fictional version left alone."""
    path = tmp_path / "rulings.sqlite3"
    _, ids = rulings_samples.journal_for_affected(path)
    # As an earlier run of the app leaves it: the WAL folded into the file and the file let go, so
    # a byte compared later is one the command under test could have changed, not this process's
    # own fold of the writes above (2 s after them, from a background thread).
    sqlite_file.let_go(path)
    return path, ids


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_text_lists_affected_rulings_and_scenarios(
    fictional_dir: Path, journal: tuple[Path, dict[str, int]]
) -> None:
    path, ids = journal
    code, out, err = _run("affected", "builtin", str(fictional_dir), "--journal", str(path))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Что затрагивают изменения РП 4.1-2 → РП 9.9-1"
    assert lines[1].startswith("Решений в журнале: 2 из 3; сценариев: ")
    assert lines[1].endswith(f" из {helpers.library_size(with_bases=False)}")  # cli.main opens no base
    rulings_part = out.split("Сценарии библиотеки:")[0]
    # the removed clause's ruling first: its text went away, that needs reading before a renumbering
    gone = rulings_part.index(f"№ {ids['gone']} «Действует ли защита")
    moved = rulings_part.index(f"№ {ids['moved']} «Можно ли добрать")
    assert gone < moved
    assert "534.8 — удалён: в РП 9.9-1 этого пункта нет, ссылаться не на что" in rulings_part
    assert "    535.2 → 535.3 — перенумерован" in rulings_part
    assert "Вопрос о неизменных пунктах" not in out
    scenarios_part = out.split("Сценарии библиотеки:")[1]
    block = scenarios_part.split(f"  {RECRUIT_535_2} ")[1].split("\n  scenarios/")[0]
    assert "    535.2 → 535.3 — перенумерован" in block
    assert "535.3 → 535.4 и 535.4.1 — разделён на части" in scenarios_part


def test_json_has_both_lists_with_the_suggested_citations(
    fictional_dir: Path, journal: tuple[Path, dict[str, int]]
) -> None:
    path, ids = journal
    env = {**os.environ, "BERSERK_JOURNAL": str(path)}
    done = helpers.run_module("engine", "affected", "builtin", str(fictional_dir), "--json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["old"]["label"] == "РП 4.1-2" and data["new"]["label"] == "РП 9.9-1"
    assert data["counts"]["rulings"] == 2 and data["counts"]["rulings_total"] == 3
    assert data["counts"]["scenarios_total"] == helpers.library_size() and data["scenarios_checked"] is True
    by_id = {r["ruling"]: r for r in data["rulings"]}
    assert set(by_id) == {ids["moved"], ids["gone"]}
    assert by_id[ids["moved"]]["fates"] == [
        {
            "old": "535.2",
            "kind": "renumbered",
            "new": ["535.3"],
            "parts": [],
            "line": "535.2 → 535.3 — перенумерован",
        }
    ]
    assert by_id[ids["gone"]]["fates"][0]["kind"] == "removed"
    assert by_id[ids["gone"]]["fates"][0]["new"] == []
    scenario = next(s for s in data["scenarios"] if s["path"] == RECRUIT_535_2)
    assert [(f["old"], f["new"]) for f in scenario["fates"]] == [("535.2", ["535.3"])]
    assert len(data["scenarios"]) == data["counts"]["scenarios"]


def test_the_journal_is_only_read(fictional_dir: Path, journal: tuple[Path, dict[str, int]]) -> None:
    path, _ = journal
    before = path.read_bytes()
    code, _, _ = _run("affected", "builtin", str(fictional_dir), "--journal", str(path))
    assert code == 0 and path.read_bytes() == before
    absent = path.parent / "absent.sqlite3"
    code, out, _ = _run("affected", "builtin", str(fictional_dir), "--journal", str(absent))
    assert code == 0 and "В журнале пока нет решений." in out and not absent.exists()


def test_scenarios_are_not_checked_against_another_old_version(
    fictional_dir: Path, journal: tuple[Path, dict[str, int]]
) -> None:
    path, _ = journal
    code, out, _ = _run("affected", str(fictional_dir), "builtin", "--journal", str(path))
    assert code == 0
    # Rulings of РП 4.1-2 say nothing about a diff from РП 9.9-1; the library is not run.
    assert "Решений в журнале: 0 из 3; сценариев: не проверялись (библиотека написана для РП 4.1-2)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("affected", "builtin"), "не хватает аргументов: НОВЫЕ"),
        (
            ("affected", "builtin", "builtin", "--frobnicate"),
            "неизвестный ключ командной строки: --frobnicate",
        ),
        (("affected", "builtin", "builtin", "--journal"), "после --journal нужно значение"),
        (("affected", "builtin", "/nonexistent/rules.txt"), "Ошибка: правила не загружены:"),
    ],
)
def test_wrong_command_lines_say_what_is_wrong(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert message in err and "Traceback" not in err + out


def test_an_unreadable_journal_is_named_and_scenarios_still_listed(
    fictional_dir: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "rulings.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    code, out, err = _run("affected", "builtin", str(fictional_dir), "--journal", str(bad))
    assert code == 2
    assert "журнал не прочитан" in out and "Журнал решений не прочитан" in out
    assert f"журнал решений не прочитан ({bad})" in err
    assert RECRUIT_535_2 in out
    assert bad.read_bytes() == b"not a database at all" * 100
