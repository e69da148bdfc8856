"""The engine knows what rules text it implements (engine/data/implemented.yaml), and says how its
citations read under another version: a FICTIONAL next version (tests/fictional_rules.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

import engine
import rules_index
from engine import implemented
from engine.implemented import Record, VersionView
from rules_index.diff import diff_indexes
from tests import fictional_rules as fr
from tests import helpers

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def fictional() -> rules_index.RulesIndex:
    return rules_index.load_texts(fr.as_files(fr.fictional_texts()))


@pytest.fixture(scope="module")
def view(index: rules_index.RulesIndex, fictional: rules_index.RulesIndex) -> VersionView:
    return VersionView(diff_indexes(index, fictional), fictional)


def test_shipped_record_matches_the_handlers_and_the_embedded_text(index: rules_index.RulesIndex) -> None:
    current = implemented.build_record(index)
    shipped = implemented.load_record()
    assert implemented.stale(current, shipped) == [], "run: python -m engine implemented --write"
    assert shipped.version == "РП 4.1-2 от 09.11.2024"
    # Every clause a handler declares is in the record, under that handler.
    for handler, clauses in implemented.declared().items():
        assert tuple(shipped.handlers[handler]) == clauses


def _with(record: Record, handler: str, table: dict[str, str]) -> Record:
    handlers = dict(record.handlers)
    handlers[handler] = types.MappingProxyType(table)
    return Record(record.version, types.MappingProxyType(handlers))


def test_a_changed_declaration_or_text_makes_the_record_stale(index: rules_index.RulesIndex) -> None:
    shipped = implemented.load_record()
    handler, table = next(iter(shipped.handlers.items()))
    first = next(iter(table))
    declared_more = _with(shipped, handler, {**table, "211.10": "0" * 16})
    assert implemented.stale(declared_more, shipped) == [f"{handler}: объявлены новые пункты 211.10"]
    text_changed = _with(shipped, handler, {**table, first: "f" * 16})
    assert implemented.stale(text_changed, shipped) == [f"{handler}: изменился текст {first}"]
    # The same check over other rules: the fictional version changes texts handlers declare.
    other = implemented.build_record(rules_index.load_texts(fr.as_files(fr.fictional_texts())))
    problems = implemented.stale(other, shipped)
    assert any(p.startswith("s534_replacement.run: ") and "534.6" in p for p in problems)


def test_command_checks_the_shipped_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "implemented"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=helpers.PROCESS_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "implemented.yaml соответствует" in done.stdout


def test_citations_in_the_loaded_numbering(view: VersionView) -> None:
    assert view.cite("535.5.1.2") == "п. 535.6.1.2 (в РП 4.1-2 — 535.5.1.2)"
    assert view.cite("211.4") == "п. 211.4"
    assert view.cite("A8") == "допущение A8"
    assert view.cite("535.3") == "п. 535.4, п. 535.4.1 (в РП 4.1-2 — 535.3)"
    assert view.cite("534.8") == "п. 534.8 РП 4.1-2 (в РП 9.9-1 этого пункта нет)"


def test_handlers_written_for_a_changed_text_are_flagged(view: VersionView) -> None:
    assert view.warning("534.6") == "пункт изменился: движок применяет текст РП 4.1-2"
    assert view.warning("211.5") == "пункт изменился: движок применяет текст РП 4.1-2"
    assert view.warning("534.8") == "пункта нет в РП 9.9-1: движок применяет текст РП 4.1-2"
    # Renumbered (its citation updated along with its target): the same text, no warning.
    assert view.warning("535.5.1.3") is None
    assert view.warning("211.4") is None
    flagged = view.flagged_handlers()
    assert {"s534_replacement.run", "s534_replacement.protection", "s535_squad.do_recruit"} <= set(flagged)
    assert "s535_summon.do_summon" not in flagged
    assert all(s.text_changed for statuses in flagged.values() for s in statuses)


def test_same_rules_flag_nothing(index: rules_index.RulesIndex) -> None:
    same = VersionView(diff_indexes(index, index), index)
    assert same.flagged_handlers() == {}
    assert same.cite("535.5.1.2") == "п. 535.5.1.2"


def test_trace_rendered_in_the_loaded_numbering(view: VersionView) -> None:
    step = engine.TraceStep("534.6", "effect", "эффект замещения применён к замещённому эффекту")
    moved = engine.TraceStep("535.5.1.2", "effect", "карта показана и помещена в руку")
    text = engine.render_trace([step, moved], cite=view.cite, note=view.warning)
    assert "[п. 534.6] эффект: эффект замещения применён к замещённому эффекту (!) пункт изменился" in text
    assert "[п. 535.6.1.2 (в РП 4.1-2 — 535.5.1.2)] эффект: карта показана" in text
    assert engine.render_trace([step]) == "- [534.6] эффект: эффект замещения применён к замещённому эффекту"


@pytest.fixture(scope="module")
def fictional_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fictional_rules")
    for name, text in fr.fictional_texts():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _engine(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_check_under_another_version_reports_scenarios_on_changed_clauses(fictional_dir: Path) -> None:
    done = _engine("check", "--corpus", str(fictional_dir), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["new"]["version"] == fr.FICTIONAL_VERSION
    by_file = {Path(s["file"]).name: s for s in data["scenarios"]}
    lantern = by_file["534.5_bul_bagur_lantern.yaml"]
    assert lantern["ok"] is True
    assert {r["clause"]: r["text_changed"] for r in lantern["rests_on"]}["534.5"] is True
    summon = by_file["535.5.1.2_summon_fails.yaml"]
    rests = {r["clause"]: r for r in summon["rests_on"]}
    assert rests["535.5.1.2"]["citation"] == "п. 535.6.1.2 (в РП 4.1-2 — 535.5.1.2)"
    assert rests["535.5.1.2"]["text_changed"] is False
    assert not by_file["211.10_move_symbiote.yaml"]["rests_on"]
    assert "s534_replacement.run" in data["handlers"]


def test_check_under_another_version_text_and_errors(fictional_dir: Path, tmp_path: Path) -> None:
    done = _engine("check", "--corpus", str(fictional_dir))
    assert done.returncode == 0, done.stderr
    assert "движок и сценарии написаны для «РП 4.1-2 от 09.11.2024»" in done.stdout
    assert "(!) п. 534.5 — изменён; пункт изменился: движок применяет текст РП 4.1-2" in done.stdout
    assert "Обработчики движка, написанные для текста РП 4.1-2, который изменился:" in done.stdout
    missing = _engine("check", "--corpus", str(tmp_path / "нет"))
    assert missing.returncode == 2 and "не найден" in missing.stderr and "Traceback" not in missing.stderr
    wrong = _engine("run", "scenarios/official/211.3.1_karlik_und.yaml", "--corpus", str(fictional_dir))
    assert wrong.returncode == 2 and "неизвестный ключ командной строки: --corpus" in wrong.stderr
    assert "python -m engine run" in wrong.stderr  # the usage of the command it was given to
