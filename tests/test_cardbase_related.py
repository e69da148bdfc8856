"""What applies to a card: the rules for its kind (each id in the rules index), the scenarios and
rulings that name it, and what a rules search should read for its name."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardbase
import rules_index
from cardbase import related
from rulings import model as rulings_model
from tests import cardbase_cases as cases
from tests import rulings_samples
from tests.cardbase_cases import by_name


def test_every_clause_of_the_table_exists_in_the_rules(index: rules_index.RulesIndex) -> None:
    table = related.rule_table()
    assert table
    for entry in table:
        assert entry.clauses and entry.label and entry.search, entry
        for cid in entry.clauses:
            assert index.has(cid), f"{cid} ({entry.label}) нет в правилах"


@pytest.mark.parametrize(
    ("name", "label", "first"),
    [
        ("Горный клещ", "паразит — симбиот", "211"),
        ("Лесной спутник", "компаньон — симбиот", "211"),
        ("Болотный скат", "летающее существо", "535.4"),
        ("Тёмный шептун", "инкарнация", "535.7"),
        ("Призрачный сокол", "бестелесное", "211.5"),
        ("Серый странник", "«не может быть взята в отряд с …»", "535.9"),
        ("Светлый паладин", "вызов", "535.5"),
        ("Некромант пустошей", "возрождение", "535.6"),
        ("Каменный голем", "защита", "534.8"),
    ],
)
def test_the_rules_for_a_kind(name: str, label: str, first: str) -> None:
    applies = {a.label: a.clauses for a in related.rules_for(by_name(cases.json_base(), name))}
    assert label in applies, applies
    assert applies[label][0] == first


def test_unmodelled_text_still_brings_its_rules() -> None:
    # a card that says «вызвать» unrecognised still gets 535.5
    base = cardbase.import_base(
        '[{"name": "Шарлатан", "type": 0, "life": 3, "text": "Может вызвать дождь."}]'.encode(), "x.json"
    )
    r = base.records[0]
    assert not r.abilities and r.unmodelled
    assert "535.5" in related.clauses_for(r)
    assert related.rules_for(r)[0].label == "вызов (по тексту карты)"


def test_a_clause_is_listed_once() -> None:
    clauses = related.clauses_for(by_name(cases.json_base(), "Вестник бури"))
    assert len(clauses) == len(set(clauses)) and "535.5" in clauses and "535.4" in clauses


def test_scenarios_that_name_a_card_in_any_word_form() -> None:
    texts = related.scenario_texts()
    karlik = {e.path for e in related.scenarios_mentioning("Карлик Унд", texts)}
    assert "scenarios/official/211.3.1_karlik_und.yaml" in karlik
    assert related.scenarios_mentioning("Горный клещ", texts) == []


def test_rulings_that_name_a_card(tmp_path: Path) -> None:
    journal, judge = rulings_samples.journal_with_judge(tmp_path / "j.sqlite3")
    journal.record(
        rulings_model.RulingInput(title="Может ли Горного клеща взять под контроль?", decision="Нет."), judge
    )
    journal.record(rulings_model.RulingInput(title="Другой вопрос", decision="Горный обвал не карта."), judge)
    found = related.rulings_mentioning("Горный клещ", journal.rulings())
    assert [r.current.title for r in found] == ["Может ли Горного клеща взять под контроль?"]


def test_card_names_in_a_rules_query() -> None:
    queries = cases.loaded().queries
    named = queries.find("что будет, если Горного клеща хозяин умрёт")
    assert [c.record.name for c in named] == ["Горный клещ"] and named[0].words == "горного клеща"
    expanded = queries.expand("Горного клеща хозяин умер")
    assert expanded.startswith("Горного клеща хозяин умер ") and "паразит" in expanded
    assert "бестелесное" in expanded
    assert queries.expand("хозяин умер") == "хозяин умер"
    # the longer name wins: «Болотный звонарь» is not read as «Звонарь»
    assert [c.record.name for c in queries.find("болотный звонарь вызвал")] == ["Болотный звонарь"]


def test_a_bad_rules_table_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "rules.yaml"
    bad.write_text("- when: {ability: flying}\n  clauses: ['535.4']\n", encoding="utf-8")
    with pytest.raises(cardbase.CardBaseError, match="flying"):
        related.rule_table(bad)
    bad.write_text("- when: {ability: summon}\n  clauses: [535.4]\n", encoding="utf-8")
    with pytest.raises(cardbase.CardBaseError, match="в кавычках"):
        related.rule_table(bad)
