"""The Russian of trace reasons, changes and questions: players named in the case their
sentence needs, no English words, plural forms that agree with their numbers."""

from __future__ import annotations

import random
import re

import pytest

import engine
import lexicon
from engine.model import board
from tests.engine_cases import (
    ORC,
    act,
    full_board,
    position,
    random_action,
    recruit_board,
    reveal_board,
    spec,
)


def _texts(outcome: engine.Outcome) -> list[str]:
    out: list[str] = []
    for s in outcome.steps():
        out.append(s.reason)
        out.extend(s.changes)
    if outcome.pending is not None:
        out.append(outcome.pending.question)
        out.extend(o.label for o in outcome.pending.options)
    return out


def _stream_texts(seeds: int = 6, length: int = 150) -> set[str]:
    texts: set[str] = set()
    for start in (full_board, reveal_board, recruit_board):
        for seed in range(seeds):
            rng = random.Random(seed)
            gs = start(seed)
            for _ in range(length):
                out = engine.apply(gs, random_action(gs, rng))
                texts.update(_texts(out))
                gs = out.state
    return texts


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("nom", "игрок B"),
        ("gen", "игрока B"),
        ("dat", "игроку B"),
        ("acc", "игрока B"),
        ("ins", "игроком B"),
        ("pre", "игроке B"),
    ],
)
def test_player_is_declined_by_case(case: str, expected: str) -> None:
    assert lexicon.player("B", case) == expected
    cap = expected.replace(" B", " A")
    assert lexicon.player("A", case, cap=True) == cap[0].upper() + cap[1:]


def test_take_control_names_the_old_controller_in_the_nominative() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"))
    out = act(gs, "take_control", card="vail", by="A")
    reason = next(s.reason for s in out.steps() if s.clause == "535.8")
    wanted = "Игрок A становится игроком, контролирующим «Вайл» (vail); игрок B перестаёт её контролировать"
    assert wanted in reason


def test_lose_control_names_the_opponent_in_the_nominative() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"))
    out = act(gs, "lose_control", card="vail")
    reason = next(s.reason for s in out.steps() if s.clause == "535.8")
    assert "противник, игрок A, автоматически становится" in reason


def test_host_lock_after_a_change_of_control_says_under_whose_control() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    gs = act(gs, "take_control", card="vail", by="A").state
    out = act(gs, "move", card="vail", to="c3")
    reason = next(s.reason for s in out.steps() if s.clause == "211.3.1" and s.kind == "forbidden")
    assert "под контролем игрока A, хозяин — под контролем игрока A" in reason


def test_a_card_leaving_play_returns_to_its_owner_in_the_genitive() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"))
    gs = act(gs, "take_control", card="vail", by="A").state
    out = act(gs, "destroy", card="vail")
    reasons = [s.reason for s in out.steps() if s.clause == "A6"]
    assert reasons == ["«Вайл» (vail) уходит из зоны битвы и снова под контролем владельца, игрока B"]


# Player names in a case their sentence does not take, as the engine once wrote them.
WRONG_CASE = (
    r"под контролем:? игрок [AB]\b",
    r"под контролем: ",
    r"игрока [AB],? (перестаёт|становится|продолжает|выбирает|обязан|потерял|не может)",
    r"владельца, игрок [AB]\b",
    r"противник, игрока [AB]",
    # lazy forms instead of agreement: «окончен(а)», «шаг(ов)»
    r"\w\((а|ов|и|ей)\)",
    r"\bNone\b",
)


def test_no_player_in_the_wrong_case_nor_lazy_forms_in_any_trace() -> None:
    bad = sorted(t for t in _stream_texts() if any(re.search(p, t) for p in WRONG_CASE))
    assert not bad, bad[:10]


def test_no_english_words_in_any_trace() -> None:
    ids = set(full_board().cards) | set(reveal_board().cards) | set(recruit_board().cards)
    # words a judge types: action names and the keys of choices
    allowed = {"A", "B", "choose", "end_turn", "end_reveal", "aux", "none", "summon", "skip"}
    allowed |= {arg.name for spec_ in engine.ACTION_SPECS.values() for arg in spec_.args}
    allowed |= set("abcde")  # column names, as the assumptions' wording of the board uses them
    leaks: set[str] = set()
    for text in _stream_texts():
        for word in re.findall(r"\b[A-Za-z_][A-Za-z_0-9]*\b", text):
            if word in ids or word in allowed or board.is_cell(word) or re.fullmatch(r"A\d+", word):
                continue
            leaks.add(f"{word}: {text}")
    assert not leaks, sorted(leaks)[:10]


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, "1 шаг"), (2, "2 шага"), (5, "5 шагов"), (11, "11 шагов"), (21, "21 шаг"), (22, "22 шага")],
)
def test_plural_agrees_with_the_number(n: int, expected: str) -> None:
    assert lexicon.plural(n, "шаг", "шага", "шагов") == expected


def test_movement_and_replacing_ability_counts_read_as_russian() -> None:
    gs = position(spec("vail", "Вайл", "A", at="c2"))
    out = act(gs, "move", card="vail", to="c3")
    assert any("(1 шаг, запас 1)" in s.reason for s in out.steps() if s.clause == "A7")
    far = act(gs, "move", card="vail", to="c4")
    assert any("c4 в 2 шагах от c2" in s.reason for s in far.steps())


def test_a_wrong_answer_lists_each_option_with_its_meaning() -> None:
    caller = {"name": "Зовущий", "type": "creature", "subtype": "ground", "life": 5}
    caller["abilities"] = [{"kind": "summon", "card": "Вайл"}]
    gs = position(spec("c", caller, "A", at="c2"), spec("v", "Вайл", "A", at="deck"))
    asked = act(gs, "summon", by="c", cell="c3")
    assert asked.pending is not None
    wrong = engine.apply(asked.state, engine.parse_action("choose", {"option": "zzz"}))
    assert wrong.verdict == "illegal" and wrong.state is asked.state
    reason = wrong.trace[0].reason
    assert "варианта «zzz» нет" in reason and "Какую карту «Вайл» вызвать из колоды игрока A?" in reason
    assert "v — «Вайл» (v); none — не нашёл (не захотел найти)" in reason


def test_a_range_reads_with_its_number() -> None:
    hopper = {"template": "Компаньон", "name": "Прыгун"}
    hopper["abilities"] = [{"kind": "place_on_own_creature", "range": 1}]
    gs = position(
        spec("h", ORC, "A", at="c2"), spec("j", hopper, "A", host="h"), spec("o", ORC, "A", at="c5")
    )
    out = act(gs, "attach", card="j", host="o")
    assert out.verdict == "illegal" and "«Орк» (o) дальше 1 клетки от «Прыгун» (j)" in out.trace[-1].reason
