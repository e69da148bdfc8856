"""The scenario library as the desk and the ready answers list it: files, groups, titles, verdicts."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import casebook
import engine
import rules_index
from cardbase import sources
from casebook import catalogue
from tests.casebook_cases import CHOICE, VAIL, choice, write

ROOT = Path(__file__).resolve().parent.parent


def _library_files() -> list[Path]:
    return [
        *sorted((ROOT / "scenarios" / "official").glob("*.y*ml")),
        *sorted((ROOT / "scenarios" / "rulings").glob("*.y*ml")),
    ]


def test_lists_every_library_file_official_first_with_its_title() -> None:
    entries = casebook.library_scenarios()
    files = _library_files()
    assert [e.path for e in entries] == [str(p.relative_to(ROOT)) for p in files]
    assert len(entries) > 40
    groups = [e.group for e in entries]
    assert groups == sorted(groups, key=["official", "rulings"].index)  # official first
    assert {(e.group, e.group_label) for e in entries} == {
        ("official", "официальный пример"),
        ("rulings", "разбор"),
    }
    assert all(not e.error and not e.ran for e in entries)
    karlik = next(e for e in entries if e.path == "scenarios/official/211.3.1_karlik_und.yaml")
    assert "Карлик Унд" in karlik.title and karlik.title.endswith("?")
    assert karlik.source  # what the file says, read without running it


def test_listed_titles_and_answers_are_those_the_loader_reads(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    for entry in casebook.library_scenarios():
        sc = casebook.load_scenario(
            ROOT / entry.path, index=index, library=library, cards=sources.scenario_cards()
        )
        assert (entry.title, entry.source, entry.answer) == (sc.title, sc.source or "", sc.answer or "")


def test_run_gives_each_step_its_verdict_and_the_deciding_clauses(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    entries = casebook.library_scenarios(
        run=True, index=index, library=library, cards=sources.scenario_cards()
    )
    assert [e.path for e in entries] == [e.path for e in casebook.library_scenarios()]
    for e in entries:
        assert e.ran and not e.error, e.path
        result = casebook.run_scenario(
            casebook.load_scenario(
                ROOT / e.path, index=index, library=library, cards=sources.scenario_cards()
            )
        )
        assert e.ok == result.ok
        assert e.verdicts == tuple(step.verdict or "" for step in result.steps)
        assert e.fired == frozenset(result.fired_clauses())
        assert set(e.clauses) <= e.fired
        assert all(rules_index.ids.is_clause_id(c) for c in e.clauses), e.clauses  # no assumptions
    karlik = next(e for e in entries if e.path == "scenarios/official/211.3.1_karlik_und.yaml")
    assert "illegal" in karlik.verdicts and "211.3.1" in karlik.clauses


def test_decisive_clauses_follow_the_trace_order(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    sc = casebook.load_scenario_text(VAIL, "x.yaml", index=index, library=library)
    result = casebook.run_scenario(sc, index, library)
    clauses = catalogue.decisive_clauses(result)
    assert clauses.index("535.8") < clauses.index("211.3.1")
    assert len(clauses) == len(set(clauses))
    forbidding = [t.clause for t in result.steps[1].trace_steps() if t.kind == "forbidden"]
    assert forbidding and set(forbidding) <= set(clauses)


@pytest.fixture()
def small_library(tmp_path: Path) -> Path:
    write(tmp_path / "scenarios" / "official", "b_vail.yaml", VAIL)
    write(tmp_path / "scenarios" / "official", "a_broken.yaml", "title: [unclosed\n")
    write(tmp_path / "scenarios" / "rulings", "choice.yaml", choice("choices: [g1]"))
    bad = CHOICE.replace("CHOICES", "choices: [g2]").replace('"211.7"', '"211.77"')
    write(tmp_path / "scenarios" / "rulings", "bad_clause.yml", bad)
    write(tmp_path / "scenarios" / "rulings", "notes.txt", "не сценарий")
    write(tmp_path / "scenarios" / "other", "elsewhere.yaml", VAIL)
    return tmp_path


def test_a_broken_file_is_listed_with_its_error(small_library: Path) -> None:
    entries = casebook.library_scenarios(small_library)
    assert [e.path for e in entries] == [
        "scenarios/official/a_broken.yaml",
        "scenarios/official/b_vail.yaml",
        "scenarios/rulings/bad_clause.yml",
        "scenarios/rulings/choice.yaml",
    ]
    broken, vail, bad, _ = entries
    assert broken.title == "a_broken" and "не корректный YAML" in broken.error
    assert "a_broken.yaml, строка 1" in broken.error
    assert vail.title.startswith("Может ли Вайл") and vail.source == "ПРИМЕР к 211.3.1" and not vail.error
    assert bad.title.startswith("Кому достанется компаньон") and not bad.error  # listing does not validate


def test_run_reports_invalid_files_and_failed_expectations(
    small_library: Path, index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    entries = {
        e.path: e
        for e in casebook.library_scenarios(
            small_library, run=True, index=index, library=library, cards=sources.scenario_cards()
        )
    }
    bad = entries["scenarios/rulings/bad_clause.yml"]
    assert not bad.ran and "пункта 211.77 нет в загруженных правилах" in bad.error
    assert not entries["scenarios/official/a_broken.yaml"].ran
    vail = entries["scenarios/official/b_vail.yaml"]
    assert vail.ran and vail.ok and vail.verdicts == ("legal", "illegal")
    wrong_host = entries["scenarios/rulings/choice.yaml"]  # answered g1, expects comp on g2
    assert wrong_host.ran and not wrong_host.ok and wrong_host.verdicts == ("legal", "legal")


def test_entries_are_immutable() -> None:
    entry = casebook.library_scenarios()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.title = "другое"  # type: ignore[misc]
    assert isinstance(entry.fired, frozenset)


def test_scenario_files_walks_a_folder_in_order(small_library: Path) -> None:
    files = casebook.scenario_files(small_library / "scenarios")
    names = [p.relative_to(small_library / "scenarios").as_posix() for p in files]
    assert names == [
        "official/a_broken.yaml",
        "official/b_vail.yaml",
        "other/elsewhere.yaml",
        "rulings/bad_clause.yml",
        "rulings/choice.yaml",
    ]


def test_an_entry_says_whether_its_cards_come_from_a_base() -> None:
    """The desk lists only what it can open: a real-card scenario runs with `python -m engine run`."""
    named = {e.path for e in casebook.library_scenarios() if e.card_base}
    expected = {
        str(p.relative_to(ROOT))
        for p in _library_files()
        if any(line.startswith("card_base:") for line in p.read_text(encoding="utf-8").splitlines())
    }
    assert named == expected and len(named) >= 10
