"""Shared helpers for the engine tests, and tests of the engine's public surface."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import engine

ORC = {"name": "Орк", "type": "creature", "subtype": "ground", "life": 5}
FLYER = {"template": "Летающее существо", "name": "Гарпия"}
COMPANION = {"template": "Компаньон", "name": "Светлячок"}
PARASITE = {"template": "Паразит", "name": "Клещ"}
GHOST = {"template": "Бестелесное существо", "name": "Призрак"}


def spec(cid: str, card: str | Mapping[str, object], owner: str, **kw: Any) -> engine.CardSpec:
    return engine.CardSpec(id=cid, card=card, owner=owner, **kw)


def position(
    *cards: engine.CardSpec, phase: str = "battle", active: str = "A", seed: int = 0, started: bool = True
) -> engine.GameState:
    gs = engine.build_state(engine.Setup(phase=phase, active=active, seed=seed, cards=list(cards)))
    return gs


def act(gs: engine.GameState, kind: str, /, **args: object) -> engine.Outcome:
    return engine.apply(gs, engine.parse_action(kind, args))


def run(gs: engine.GameState, kind: str, /, *answers: str, **args: object) -> engine.Outcome:
    """Apply and answer the pending choices in order; fails if a choice is left."""
    out = act(gs, kind, **args)
    for answer in answers:
        assert out.pending is not None, f"ожидался выбор перед ответом {answer}"
        out = engine.apply(out.state, engine.parse_action("choose", {"option": answer}))
    assert out.pending is None, f"остался выбор: {out.pending}"
    return out


def props(gs: engine.GameState, cid: str) -> dict[str, object]:
    return engine.card_props(gs, cid)


def kinds(out: engine.Outcome, clause: str) -> set[str]:
    return {s.kind for s in out.steps() if s.clause == clause}


def test_library_has_the_seven_example_cards_and_templates() -> None:
    lib = engine.load_library()
    for name in ("Карлик Унд", "Вайл", "Многоликий", "Сугед", "Выкормыш слуа", "Бул'Багур", "Вожак сатиров"):
        assert lib.get(name) is not None, name
    assert lib.get("бул’багур") is not None  # typographic apostrophe and case fold
    assert lib.get("ВЫКОРМЫШ СЛУА") is not None
    assert lib.get("Карлик Унд").subtype == "parasite"  # type: ignore[union-attr]
    assert lib.get("Сугед").subtype == "companion"  # type: ignore[union-attr]
    assert {"Летающее существо", "Компаньон", "Паразит", "Бестелесное существо", "Артефакт"} <= set(
        lib.templates()
    )
    assert "Вайл" in lib.nearest("Ваил")


def test_unknown_card_suggests_nearest_names() -> None:
    with pytest.raises(engine.SetupError, match="Вайл"):
        position(spec("x", "Ваил", "A", at="c3"))


def test_setup_errors_name_card_and_key() -> None:
    with pytest.raises(engine.SetupError, match="карта x, ключ at"):
        position(spec("x", "Вайл", "A", at="z9"))
    with pytest.raises(engine.SetupError, match=r"ключ host.*211.4"):
        position(spec("h", FLYER, "B", at="aux"), spec("s", PARASITE, "A", host="h"))
    with pytest.raises(engine.SetupError, match="ключ tokens"):
        position(spec("x", "Вайл", "A", at="c3", tokens=1))
    with pytest.raises(engine.SetupError, match="уже занята"):
        position(spec("x", "Вайл", "A", at="c3"), spec("y", ORC, "A", at="c3"))


def test_parse_action_errors_name_the_argument() -> None:
    with pytest.raises(engine.ActionError, match="«to»"):
        engine.parse_action("move", {"card": "x"})
    with pytest.raises(engine.ActionError, match=r"«to».*не клетка"):
        engine.parse_action("move", {"card": "x", "to": "k9"})
    with pytest.raises(engine.ActionError, match="неизвестный аргумент «foo»"):
        engine.parse_action("move", {"card": "x", "to": "c3", "foo": 1})
    with pytest.raises(engine.ActionError, match="Неизвестное действие"):
        engine.parse_action("fly", {})
    with pytest.raises(engine.ActionError, match="игрок"):
        engine.parse_action("take_control", {"card": "x", "by": "C"})


def test_action_repr_reads_like_yaml_and_round_trips() -> None:
    a = engine.parse_action("take_control", {"card": "vail", "by": "a"})
    assert repr(a) == "take_control: {card: vail, by: A}"
    assert a.to_dict() == {"take_control": {"card": "vail", "by": "A"}}
    b = engine.parse_action("mark_cells", {"card": "bul", "cells": ["C4", "c5"]})
    assert repr(b) == "mark_cells: {card: bul, cells: [c4, c5]}"
    assert engine.parse_action(*next(iter(b.to_dict().items()))) == b


def test_every_issue_action_kind_has_a_spec() -> None:
    wanted = {
        "recruit",
        "place_symbiote",
        "end_reveal",
        "start_turn",
        "end_turn",
        "move",
        "relocate",
        "attach",
        "change_type",
        "set_incorporeal",
        "destroy",
        "exile",
        "return_to_deck",
        "take_control",
        "lose_control",
        "summon",
        "resurrect",
        "attack",
        "wound",
        "heal",
        "choose",
    }
    assert wanted <= set(engine.ACTION_SPECS)
    for spec_ in engine.ACTION_SPECS.values():
        for arg in spec_.args:
            assert arg.label and arg.type


def test_illegal_action_returns_the_same_state() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    out = act(gs, "move", card="und", to="c3")
    assert out.verdict == "illegal"
    assert out.state is gs


def test_to_setup_round_trips() -> None:
    gs = position(
        spec("vail", "Вайл", "B", at="c4", wounds=2),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("d1", ORC, "A", at="deck"),
        spec("d2", "Сугед", "A", at="deck"),
    )
    again = engine.build_state(gs.to_setup())  # type: ignore[arg-type]
    assert again.cards == gs.cards and again.decks == gs.decks


def test_render_trace_is_russian_text_with_clauses() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    out = act(gs, "take_control", card="vail", by="A")
    text = engine.render_trace(out.trace)
    assert "[535.8]" in text and "«Вайл» (vail)" in text
    d = out.trace[0].to_dict()
    assert set(d) == {"clause", "kind", "reason", "changes", "children"}


def test_engine_imports_without_streamlit() -> None:
    import subprocess
    import sys

    code = "import sys, engine; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
