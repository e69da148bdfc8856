"""`python -m engine run|check|coverage` (casebook.cli): output, JSON shape and exit codes 0/1/2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import casebook
import engine
import rules_index
from casebook import cli
from tests import helpers
from tests.casebook_cases import VAIL, choice, write

ROOT = Path(__file__).resolve().parent.parent

WRONG = VAIL.replace("{controller: A, control_marker: true}", "{controller: B}")


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    texts = {"good": VAIL, "wrong": WRONG, "bad": VAIL.replace('"211.3.1"]', "211.10]")}
    return {name: write(tmp_path, f"{name}.yaml", text) for name, text in texts.items()}


def test_run_good_file_prints_trace_and_exits_0(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["good"]))
    assert code == 0, out
    assert "Шаг 2 (строка 17): attack: {attacker: vail, target: orc}" in out
    assert "Вердикт: запрещено" in out
    assert "[211.3.1]" in out  # the trace, with its clause
    assert "✓ запрещает п. 211.3.1" in out
    assert "Итог: все ожидания выполнены." in out


def test_run_failed_expectation_exits_1_and_says_what(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["wrong"]))
    assert code == 1
    assert "✗ карта vail: управляет (controller) = B — получено: A" in out
    assert "НЕ ВЫПОЛНЕНО в шагах 1" in out


def test_invalid_file_exits_2_and_wins_over_1(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["wrong"]), str(files["bad"]))
    assert code == 2
    assert "пишите '211.10' в кавычках" in out
    assert f"{files['bad']}, строка 18" in out


def test_run_json_shape(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["good"]), str(files["bad"]), "--json")
    assert code == 2
    data = json.loads(out)
    assert [d["file"] for d in data] == [str(files["good"]), str(files["bad"])]
    good, bad = data
    assert good["ok"] is True
    step = good["steps"][1]
    assert step["action"] == {"attack": {"attacker": "vail", "target": "orc"}}
    assert step["verdict"] == "illegal"
    assert {"clause", "kind", "reason", "children"} <= set(step["trace"][0])
    assert all({"what", "ok", "detail"} <= set(e) for e in step["expectations"])
    assert bad["ok"] is False and bad["steps"] == []
    assert bad["problems"][0]["line"] == 18 and bad["problems"][0]["key"] == "forbidden_by"


def test_unanswered_choice_stops_the_run_with_exit_1(tmp_path: Path) -> None:
    # Two creatures of A: a companion revealed without a host must get one (211.7), and the
    # player chooses which: the file gives no answer.
    path = write(tmp_path, "choice.yaml", choice(None))
    code, out, _ = run("run", str(path), "--json")
    assert code == 1
    data = json.loads(out)[0]
    assert len(data["steps"]) == 1  # the run stopped at the pending choice
    pending = data["steps"][0]["pending"]
    assert pending["who"] == "A" and pending["clause"] == "211.7"
    assert {o["key"] for o in pending["options"]} >= {"g1", "g2"}


def test_check_runs_a_folder_and_coverage_lists_every_clause(files: dict[str, Path], tmp_path: Path) -> None:
    files["bad"].unlink()
    files["wrong"].unlink()
    code, out, _ = run("check", str(tmp_path))
    assert code == 0 and "Итого сценариев: 1" in out
    code, out, _ = run("coverage", str(tmp_path), "--json")
    assert code == 0
    table = json.loads(out)
    ids = [row["id"] for row in table]
    assert ids == [p.id for p in rules_index.load_default().paragraphs]
    row = next(r for r in table if r["id"] == "211.3.1")
    assert row["scenarios"] == [str(files["good"])]
    assert set(row) == {"id", "handlers", "scenarios"}


def test_usage_errors_are_russian_and_exit_2(tmp_path: Path) -> None:
    assert run()[0] == 2
    code, _, err = run("fly")
    assert code == 2 and "неизвестная команда «fly»" in err
    code, _, err = run("run")
    assert code == 2 and "не хватает аргументов: ФАЙЛ" in err
    code, _, err = run("check", str(tmp_path / "nope"))
    assert code == 2 and "папки" in err
    code, out, _ = run("run", str(tmp_path / "nope.yaml"))
    assert code == 2 and "файл не найден" in out


@pytest.mark.parametrize("module", ["engine", "casebook"])
def test_module_entry_point_has_no_traceback(tmp_path: Path, module: str) -> None:
    bad = write(tmp_path, "bad.yaml", "title: [unclosed\n")
    proc = subprocess.run(
        [sys.executable, "-m", module, "run", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "не корректный YAML" in proc.stdout


def test_dump_scenario_round_trips(files: dict[str, Path]) -> None:
    index, library = rules_index.load_default(), engine.load_library()
    s = casebook.load_scenario(files["good"], index=index, library=library)
    result = casebook.run_scenario(s, index, library)
    text = casebook.dump_scenario(
        s.setup,
        [st.action for st in s.steps],
        "Вопрос?",
        "проверка",
        outcomes=[r.outcome for r in result.steps if r.outcome is not None],
    )
    again = casebook.load_scenario_text(text, "dump.yaml", index=index, library=library)
    assert again.setup == s.setup
    assert [st.action for st in again.steps] == [st.action for st in s.steps]
    rerun = casebook.run_scenario(again, index, library)
    assert rerun.ok
    assert [st.verdict for st in rerun.steps] == ["legal", "illegal"]
