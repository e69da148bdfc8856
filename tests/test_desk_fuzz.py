"""Tampered desk links and desk files: each gets a Russian message, never a traceback (issue 15).

A few hundred examples here; tests/bench/bench_fuzz_desk.py runs ≥ 10,000 in `make bench`.
"""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from hypothesis import HealthCheck, given, settings

import engine
from desk import model, share
from tests import desk_fuzz

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FAST
@given(raw=desk_fuzz.tampered_json())
def test_tampered_desk_json_is_refused_in_words_or_read(library: engine.CardLibrary, raw: bytes) -> None:
    desk_fuzz.check_json(raw, library)


@FAST
@given(token=desk_fuzz.RAW_TOKENS)
def test_any_token_is_refused_in_words_or_read(library: engine.CardLibrary, token: str) -> None:
    desk_fuzz.check(lambda: share.decode(token), library)


def _with(path: tuple[object, ...], value: object) -> bytes:
    doc = desk_fuzz.base_desk()
    target = doc
    for step in path[:-1]:
        target = target[step]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    return json.dumps(doc).encode("utf-8")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (_with(("cards", 1, "host"), ["v"]), "cards[1].host: нужен id карты (строка)"),
        (_with(("cards", 0, "borrowed"), []), "cards[0].borrowed: нужен id карты"),
        (_with(("cards", 0, "borrowed"), "vail"), "cards[0].borrowed: карта не может ссылаться на саму себя"),
        (_with(("cards", 1, "host"), "und"), "cards[1].host: карта не может ссылаться на саму себя"),
        (_with(("cards", 0, "id"), "vail\n"), "cards[0].id: нужен id карты"),
        (_with(("cards", 0, "wounds"), 10**50), "cards[0].wounds: нужно целое число от 0 до 999"),
        (_with(("cards", 0, "at"), "z9"), "cards[0].at: допустимы a1 … exile"),
        (_with(("cards", 2, "card", "life"), "5"), "cards[2].card.life: нужно целое число"),
        (_with(("cards", 2, "id"), "vail"), "cards[2].id: id «vail» уже есть у другой карты"),
        (_with(("actions", 0), {"take_control": {"card": ["vail"], "by": "A"}}), "actions[0]"),
        (_with(("actions", 1), {"fly": {}}), "actions[1]: неизвестное действие «fly»"),
        (_with(("seed",), 10**30), "seed: нужно целое число от 0 до 2147483648"),
        (_with(("title",), "a\x00b"), "title: недопустимый управляющий символ"),
        (_with(("extra",), 1), "неизвестный ключ «extra»"),
        (_with(("cards", 2, "card", "abilities"), [[[[[[["x"]]]]]]]), "cards[2].card.abilities[0]"),
        (
            json.dumps(desk_fuzz.base_desk()).replace('"vail"', "[" * 5000 + "]" * 5000, 1).encode(),
            "вложенность",
        ),
        (b'{"format": "berserk-desk", "version": 1, "seed": ' + b"9" * 5000 + b"}", "слишком длинное число"),
    ],
)
def test_each_tampering_gets_its_own_russian_message(raw: bytes, message: str) -> None:
    with pytest.raises(model.DeskError) as from_file:
        share.from_file_text(raw)
    assert message in str(from_file.value), str(from_file.value)
    token = base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")
    with pytest.raises(model.DeskError) as from_link:
        share.decode(token)
    if "длинное число" not in message:  # a link says «повреждена» for what JSON cannot even read
        assert message in str(from_link.value), str(from_link.value)


def test_the_untampered_desk_reads_and_replays(library: engine.CardLibrary) -> None:
    raw = json.dumps(desk_fuzz.base_desk()).encode()
    assert desk_fuzz.check_json(raw, library) == ("прочитан и переигран", "прочитан и переигран")
