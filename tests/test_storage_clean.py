"""Clean text at the boundary and numbers in links (issue 26): lone surrogates and control
characters are refused with where they are, or replaced; clean text is NFC; link numbers are
ASCII digits within bounds."""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from rules_index import numbers
from storage import clean as text
from tests.hostile_text import BAD_CHARS, hostile


def _encodable(value: object) -> None:
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # what Streamlit's protobuf needs


@pytest.mark.parametrize("bad", BAD_CHARS)
def test_each_bad_character_is_refused_with_its_code_and_never_shown(bad: str) -> None:
    with pytest.raises(text.TextError) as err:
        text.check(f"Карлик{bad}Унд", "cards[0].name")
    message = str(err.value)
    assert message.startswith("cards[0].name: ")
    assert f"U+{ord(bad):04X}" in message
    assert bad not in message
    message.encode("utf-8")


def test_tab_newline_and_carriage_return_are_text() -> None:
    assert text.check("строка 1\tи\r\nстрока 2", "x") == "строка 1\tи\r\nстрока 2"


def test_the_line_of_a_bad_character_is_named_when_asked() -> None:
    with pytest.raises(text.TextError, match=r"^f, строка 3: недопустимый управляющий символ U\+0007"):
        text.check("a\nb\nc\x07", "f", lines=True)


def test_clean_text_comes_out_in_nfc() -> None:
    assert text.check("и\u0306", "x") == "й"
    assert text.scrub("Бул'Багур и\u0306\ud800") == "Бул'Багур й\ufffd"


def test_a_json_desk_with_a_lone_surrogate_is_refused_naming_the_key() -> None:
    data = json.loads('{"cards": [{"id": "c1", "name": "\\ud800"}], "format": "berserk-desk"}')
    with pytest.raises(text.TextError, match=r"^cards\[0\]\.name: недопустимый символ U\+D800"):
        text.check_tree(data)


def test_a_bad_key_is_refused_too() -> None:
    wanted = r"^cards\[0\]: в имени ключа недопустимый управляющий символ U\+001B"
    with pytest.raises(text.TextError, match=wanted):
        text.check_tree({"cards": [{"na\x1bme": "x"}]})


def test_keys_that_become_one_in_nfc_are_refused_not_merged() -> None:
    with pytest.raises(text.TextError, match="ключ повторяется"):
        text.check_tree({"й": 1, "и\u0306": 2})


def test_a_tree_is_normalised_in_place_and_keeps_its_order() -> None:
    data = {"b": ["и\u0306", {"и\u0306": "ё"}], "a": 1}
    assert text.check_tree(data) is data
    assert data == {"b": ["й", {"й": "ё"}], "a": 1}
    assert list(data) == ["b", "a"]


def test_a_yaml_alias_bomb_is_walked_in_linear_time() -> None:
    # Nine levels of nine aliases each: 387 million strings if expanded, nine lists when shared.
    lines = ['a0: &a0 ["лол"]']
    lines += [f"a{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 9)}]" for k in range(1, 10)]
    data = yaml.safe_load("\n".join(lines))
    assert text.check_tree(data) is data


@given(hostile())
def test_any_text_is_either_refused_or_comes_back_encodable(raw: str) -> None:
    try:
        clean = text.check_tree({"name": raw, "list": [raw]})
    except text.TextError as err:
        str(err).encode("utf-8")
    else:
        _encodable(clean)
    _encodable(text.scrub(raw))
    assert text.first_flaw(text.scrub(raw)) is None


@given(st.text())
def test_scrub_leaves_clean_text_as_it_is_apart_from_nfc(raw: str) -> None:
    if text.first_flaw(raw) is None:
        assert text.scrub(raw) == text.normal(raw)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("7", 7),
        (" 12 ", 12),
        ("0", None),
        ("²", None),
        ("⑦", None),
        ("٣", None),
        ("3²", None),
        ("+5", None),
        ("-5", None),
        ("5.0", None),
        ("", None),
        ("1" * 26, None),
        (str(numbers.INT64_MAX), numbers.INT64_MAX),
        (str(numbers.INT64_MAX + 1), None),
        (None, None),
    ],
)
def test_link_numbers_are_ascii_digits_within_bounds(raw: object, expected: int | None) -> None:
    assert numbers.whole(raw, 1) == expected


def test_a_number_over_the_upper_bound_is_nothing() -> None:
    assert numbers.whole("21", 1, 20) is None
    assert numbers.whole("20", 1, 20) == 20
