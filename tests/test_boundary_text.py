"""Clean text where files and links come in (issue 26): a lone surrogate (JSON's and YAML's
«\\ud800») or a control character in a desk file, a `?desk=` link, a scenario or a card base is
refused naming where it is, or its record is skipped; nothing that reaches a page holds one.
Before, such a name crashed every desk render and «Карты» with UnicodeEncodeError."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardbase
import casebook
import engine
import rules_index
from desk import model, share
from storage import clean
from tests import cardbase_cases as cards
from tests import casebook_cases as cases
from tests import desk_fuzz
from tests.hostile_text import BAD_CHARS, hostile


def _shown_safely(*texts: str) -> None:
    for t in texts:
        t.encode("utf-8")  # what Streamlit's protobuf does with every string it sends
        assert clean.first_flaw(t) is None, t


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _strings(dataclasses.asdict(value))
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


# -- the desk: its file and its link ---------------------------------------------------------------


def _desk_with(name: str) -> dict[str, Any]:
    doc = desk_fuzz.base_desk()
    doc["cards"][0]["card"] = name
    return doc


def test_a_desk_file_with_a_lone_surrogate_is_refused_naming_the_key() -> None:
    raw = json.dumps(_desk_with("Вайл\ud800"), ensure_ascii=True).encode()  # how a JSON file writes it
    with pytest.raises(model.DeskError) as err:
        share.from_file_text(raw)
    assert str(err.value).startswith("cards[0].card: недопустимый символ U+D800")
    _shown_safely(str(err.value))


def test_a_desk_link_with_a_lone_surrogate_is_refused_too() -> None:
    token = desk_fuzz.token_of(json.dumps(_desk_with("Вайл\ud800"), ensure_ascii=True).encode())
    with pytest.raises(model.DeskError, match=r"^cards\[0\]\.card: недопустимый символ U\+D800"):
        share.decode(token)


def test_a_desk_title_with_a_control_character_is_refused() -> None:
    doc = desk_fuzz.base_desk()
    doc["title"] = "Карлик\x1b[31m Унд"
    with pytest.raises(model.DeskError, match=r"^title: недопустимый управляющий символ U\+001B"):
        share.from_file_text(json.dumps(doc).encode())


_DESK_STRINGS = [p for p in desk_fuzz._paths(desk_fuzz.base_desk()) if p]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.sampled_from(_DESK_STRINGS), value=hostile())
def test_hostile_text_in_any_field_of_a_desk_is_refused_or_stays_showable(
    path: tuple[Any, ...], value: str, library: engine.CardLibrary
) -> None:
    doc = desk_fuzz._set(desk_fuzz.base_desk(), path, value)
    raw = json.dumps(doc, ensure_ascii=True).encode()
    for read in (lambda: share.from_file_text(raw), lambda: share.decode(desk_fuzz.token_of(raw))):
        try:
            desk = read()
        except model.DeskError as err:
            _shown_safely(str(err))
            continue
        _shown_safely(*_strings(desk.to_dict()))
        try:
            model.replay(desk, library)
        except (engine.SetupError, model.DeskError) as err:
            _shown_safely(str(err))


# -- a scenario file ----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["\\ud800", "\\udfff", "\\x07", "\\u202e"])
def test_an_escaped_bad_character_in_a_scenario_is_refused_with_its_line(
    bad: str, index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = cases.VAIL.replace('title: "Может ли Вайл', f'title: "Может{bad} ли Вайл')
    err = cases.error_of(text, index, library)
    problem = err.problems[0]
    assert problem.line == 1 and problem.key == "title"
    assert f"U+{bad[2:].upper():0>4}" in problem.message
    _shown_safely(str(err))


def test_a_bad_character_in_a_scenario_key_is_refused(
    index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    text = cases.VAIL.replace("source:", '"sour\\ud800ce":')
    err = cases.error_of(text, index, library)
    assert err.problems[0].line == 2 and "в имени ключа" in err.problems[0].message
    _shown_safely(str(err))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=hostile())
def test_hostile_text_in_a_scenario_is_refused_or_stays_showable(
    value: str, index: rules_index.RulesIndex, library: engine.CardLibrary
) -> None:
    quoted = json.dumps(value, ensure_ascii=True)  # a YAML double-quoted string, escapes and all
    text = cases.VAIL.replace('"ПРИМЕР к 211.3.1"', quoted)
    try:
        sc = casebook.load_scenario_text(text, "hostile.yaml", index=index, library=library)
    except casebook.ScenarioError as err:
        _shown_safely(str(err))
        return
    _shown_safely(sc.title, sc.source)


# -- a card base --------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["name", "text", "class", "id"])
@pytest.mark.parametrize("bad", BAD_CHARS[:4])
def test_a_card_with_a_bad_character_is_skipped_and_named_safely(field: str, bad: str) -> None:
    recs = cards.records()
    recs[0][field] = f"{recs[0][field]}{bad}"
    base = cardbase.import_base(json.dumps(recs, ensure_ascii=True).encode(), "base.json")
    assert base.report is not None
    skipped = [p for p in base.report.errors if p.where.startswith("запись 1")]
    assert skipped and str(skipped[0]).endswith("запись пропущена"), base.report.errors
    whole = cardbase.import_base(cards.dump(cards.records()), "base.json")
    assert len(base.records) == len(whole.records) - 1
    _shown_safely(*(str(p) for p in base.report.errors))


def test_a_constants_file_with_a_bad_character_is_refused_naming_it() -> None:
    name, data = cards.files()[1]
    raw = json.loads(data)
    raw["sets"] = {**raw.get("sets", {}), "77": "Выпуск\ud800"}
    bad = json.dumps(raw, ensure_ascii=True).encode()
    base_name, base = cards.files()[0]
    with pytest.raises(cardbase.CardBaseError) as err:
        cardbase.import_base(base, base_name, constants=(name, bad))
    assert str(err.value).startswith(f"Файл кодов «{name}», sets.77: недопустимый символ U+D800")
    _shown_safely(str(err.value))


_CARD_FIELDS = sorted({k for r in cards.records() for k, v in r.items() if isinstance(v, str)})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 5), field=st.sampled_from(_CARD_FIELDS), value=hostile())
def test_hostile_text_in_any_field_of_a_card_is_skipped_or_stays_showable(
    index: int, field: str, value: str
) -> None:
    recs = cards.records()
    recs[index][field] = value
    base = cardbase.import_base(json.dumps(recs, ensure_ascii=True).encode(), "hostile.json")
    assert base.report is not None
    _shown_safely(*(str(p) for p in (*base.report.errors, *base.report.notes)))
    for record in base.records:
        _shown_safely(*_strings(record))


def test_a_decomposed_letter_in_a_card_name_is_one_letter() -> None:
    recs = cards.records()
    recs[0]["name"] = "Разбои\u0306ник"
    base = cardbase.import_base(json.dumps(recs, ensure_ascii=False).encode(), "nfc.json")
    assert base.records[0].name == "Разбойник"
