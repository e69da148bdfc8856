"""`python -m engine run|check|coverage`: output, JSON shape and exit codes 0/1/2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import rules_index
from engine import cli, scenario

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
title: "Может ли Вайл атаковать не Карлика Унда после смены контроля?"
setup:
  phase: battle
  active: A
  cards:
    - {id: vail, card: "Вайл", owner: B, at: c4}
    - {id: und, card: "Карлик Унд", owner: A, host: vail}
    - {id: orc, card: {template: "Наземное существо", name: "Орк"}, owner: B, at: d4}
steps:
  - take_control: {card: vail, by: A}
    expect:
      verdict: legal
      cards:
        vail: {controller: A, control_marker: true}
  - attack: {attacker: vail, target: orc}
    expect: {verdict: illegal, forbidden_by: ["211.3.1"]}
"""
WRONG = GOOD.replace("{controller: A, control_marker: true}", "{controller: B}")


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(args), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name, text in (("good", GOOD), ("wrong", WRONG), ("bad", GOOD.replace('"211.3.1"', "211.10"))):
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        made[name] = path
    return made


def test_run_good_file_prints_trace_and_exits_0(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["good"]))
    assert code == 0, out
    assert "Шаг 2 (строка 15): attack: {attacker: vail, target: orc}" in out
    assert "Вердикт: запрещено" in out
    assert "[211.3.1]" in out  # the trace, with its clause
    assert "✓ запрещает п. 211.3.1" in out
    assert "Итог: все ожидания выполнены." in out


def test_run_failed_expectation_exits_1_and_says_what(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["wrong"]))
    assert code == 1
    assert "✗ карта vail: controller = B — получено: A" in out
    assert "НЕ ВЫПОЛНЕНО в шагах 1" in out


def test_invalid_file_exits_2_and_wins_over_1(files: dict[str, Path]) -> None:
    code, out, _ = run("run", str(files["wrong"]), str(files["bad"]))
    assert code == 2
    assert "пишите '211.10' в кавычках" in out
    assert f"{files['bad']}, строка 16" in out


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
    assert bad["problems"][0]["line"] == 16 and bad["problems"][0]["key"] == "forbidden_by"


def test_unanswered_choice_stops_the_run_with_exit_1(tmp_path: Path) -> None:
    # Two creatures of A: a companion revealed without a host must get one (211.7), and the
    # player chooses which: the file gives no answer.
    text = """\
title: "Кому достанется компаньон, если хозяев двое?"
setup:
  phase: reveal
  active: A
  cards:
    - {id: comp, card: "Компаньон", owner: A, at: c2}
    - {id: g1, card: "Наземное существо", owner: A, at: b2}
    - {id: g2, card: "Наземное существо", owner: A, at: d2}
steps:
  - end_reveal: {}
  - end_turn: {}
"""
    path = tmp_path / "choice.yaml"
    path.write_text(text, encoding="utf-8")
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
    assert code == 2 and "укажите хотя бы один файл" in err
    code, _, err = run("check", str(tmp_path / "nope"))
    assert code == 2 and "папки" in err
    code, out, _ = run("run", str(tmp_path / "nope.yaml"))
    assert code == 2 and "файл не найден" in out


def test_module_entry_point_has_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: [unclosed\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "не корректный YAML" in proc.stdout


def test_dump_scenario_round_trips(files: dict[str, Path]) -> None:
    index, library = rules_index.load_default(), engine.load_library()
    s = scenario.load_scenario(files["good"], index=index, library=library)
    result = scenario.run_scenario(s, index, library)
    text = scenario.dump_scenario(
        s.setup,
        [st.action for st in s.steps],
        "Вопрос?",
        "проверка",
        outcomes=[r.outcome for r in result.steps if r.outcome is not None],
    )
    again = scenario.load_scenario_text(text, "dump.yaml", index=index, library=library)
    assert again.setup == s.setup
    assert [st.action for st in again.steps] == [st.action for st in s.steps]
    rerun = scenario.run_scenario(again, index, library)
    assert rerun.ok
    assert [st.verdict for st in rerun.steps] == ["legal", "illegal"]
