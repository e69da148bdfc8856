"""Rulings and library scenarios that cite clauses a FICTIONAL next version changed
(rulings.affected, casebook.affected, rules_index.fates)."""

from __future__ import annotations

import pytest

import rules_index
from casebook import affected as casebook_affected
from casebook.catalogue import Entry
from rules_index.diff import RulesDiff, Side, diff_indexes
from rules_index.fates import describe, fates, other_side, suggestion_text
from rulings import affected
from rulings.model import Revision, Ruling, RulingInput
from tests import fictional_rules as fr


@pytest.fixture(scope="module")
def result(index: rules_index.RulesIndex) -> RulesDiff:
    return diff_indexes(index, rules_index.load_texts(fr.as_files(fr.fictional_texts())))


def _ruling(rid: int, clauses: tuple[str, ...], version: str) -> Ruling:
    data = RulingInput(title=f"Вопрос {rid}", decision="Решение.", clauses=clauses, rules_version=version)
    return Ruling(rid, "2026-01-01", "2026-01-01", data, (Revision(1, "2026-01-01", data),))


def test_fates_of_cited_clauses(result: RulesDiff) -> None:
    found = fates(result, ["211.4", "535.5.1.2", "534.8", "535.3", "A8", "534.5"])
    assert [(f.old, f.kind, f.new) for f in found] == [
        ("535.5.1.2", "renumbered", ("535.6.1.2",)),
        ("534.8", "removed", ()),
        ("535.3", "split", ("535.4", "535.4.1")),
        ("534.5", "edited", ("534.5",)),
    ]
    name = result.new.name
    assert [describe(f, name) for f in found] == [
        "п. 535.5.1.2 → в РП 9.9-1 п. 535.6.1.2 (перенумерован)",
        "п. 534.8 — в РП 9.9-1 этого пункта нет (удалён)",
        "п. 535.3 → в РП 9.9-1 п. 535.4, п. 535.4.1 (разделён)",
        "п. 534.5 — в РП 9.9-1 изменён: пример",
    ]
    assert suggestion_text(found[1]) == "ссылаться не на что: пункт удалён"
    assert suggestion_text(found[2]) == "цитировать: п. 535.4, п. 535.4.1"


def test_other_side_sentences(result: RulesDiff) -> None:
    assert other_side(result, "535.6.1.2", reading="new") == (
        "В РП 4.1-2 — п. 535.5.1.2, другой номер, текст тот же.",
        ("535.5.1.2",),
    )
    assert other_side(result, "534.5", reading="old") == (
        "В РП 9.9-1 — п. 534.5, текст изменён (пример).",
        ("534.5",),
    )
    assert other_side(result, "535.2", reading="new") == ("В РП 4.1-2 этого пункта не было: он новый.", ())
    assert other_side(result, "999.1", reading="old") is None


def test_rulings_of_the_old_version_are_affected(result: RulesDiff) -> None:
    rulings = [
        _ruling(1, ("535.5.1.2", "211.4"), "РП 4.1-2"),
        _ruling(2, ("211.4", "A8"), "РП 4.1-2"),  # nothing it cites changed
        _ruling(3, ("534.6",), "РП 4.1-2 от 09.11.2024"),
        _ruling(4, ("534.6",), "РП 3.0"),  # written for another version: this diff says nothing
        _ruling(5, ("534.8",), ""),  # names no version
    ]
    found = affected.affected_rulings(rulings, result)
    assert [(a.ruling_id, [f.old for f in a.fates], a.version_unknown) for a in found] == [
        (1, ["535.5.1.2"], False),
        (3, ["534.6"], False),
        (5, ["534.8"], True),
    ]
    assert affected.notice_lines(found[0].fates, "РП 9.9-1") == [
        "п. 535.5.1.2 → в РП 9.9-1 п. 535.6.1.2 (перенумерован); цитировать: п. 535.6.1.2"
    ]


def test_version_names() -> None:
    side = Side("РП 4.1-2 от 09.11.2024", "РП 4.1-2", 44)
    assert affected.written_for("РП 4.1-2", side)
    assert affected.written_for("рп 4.1-2 от 09.11.2024", side)
    assert affected.written_for("4.1-2", side)
    assert affected.written_for("РП 4.1", side) is False
    assert affected.written_for("  ", side) is None


def test_library_scenarios_resting_on_changed_clauses(result: RulesDiff) -> None:
    entries = [
        Entry(
            "scenarios/x/a.yaml",
            "x",
            "разбор",
            "А",
            ran=True,
            clauses=("535.5.1.2",),
            fired=frozenset({"A8"}),
        ),
        Entry(
            "scenarios/x/b.yaml", "x", "разбор", "Б", ran=True, clauses=("211.4",), fired=frozenset({"211.4"})
        ),
    ]
    found = casebook_affected.affected_scenarios(result, entries)
    assert [(a.path, [f.old for f in a.fates], a.text_changed) for a in found] == [
        ("scenarios/x/a.yaml", ["535.5.1.2"], False)
    ]
