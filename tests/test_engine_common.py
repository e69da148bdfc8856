"""Tests of the engine's public surface (the shared helpers are in tests/engine_cases.py)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from tests.engine_cases import FLYER, ORC, PARASITE, act, position, props, spec


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


def test_next_phase_walks_the_preparation() -> None:
    gs = position(spec("o", ORC, "A", at="hand"), phase="recruit")
    placement = act(gs, "next_phase")
    assert placement.state.phase == "placement"
    reveal = act(placement.state, "next_phase")
    assert reveal.state.phase == "reveal"
    assert act(reveal.state, "next_phase").verdict == "illegal"
    assert act(reveal.state, "end_reveal").state.phase == "battle"


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
    again = engine.build_state(engine.to_setup(gs))
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


def test_bad_library_and_assumption_files_give_russian_errors(tmp_path: Any) -> None:
    bad = tmp_path / "cards.yaml"
    bad.write_text(
        "cards:\n  - {name: Икс, type: creature, subtype: ground, life: 3, abilities: [{kind: fly}]}\n",
        encoding="utf-8",
    )
    with pytest.raises(engine.LibraryError, match=r"Икс.*неизвестный вид особенности «fly»"):
        engine.load_library(bad)
    bad.write_text("cards:\n  - {name: Икс, type: creature, subtype: ground}\n", encoding="utf-8")
    with pytest.raises(engine.LibraryError, match="жизнь"):
        engine.load_library(bad)
    bad.write_text("cards: [", encoding="utf-8")
    with pytest.raises(engine.LibraryError, match=r"cards.yaml"):
        engine.load_library(bad)
    ass = tmp_path / "assumptions.yaml"
    ass.write_text("B1: текст\n", encoding="utf-8")
    with pytest.raises(engine.LibraryError, match="B1"):
        engine.load_assumptions(ass)


def test_aux_zone_template_is_summoned_to_aux() -> None:
    caller = {
        "name": "Зовущий",
        "type": "creature",
        "subtype": "ground",
        "life": 5,
        "abilities": [{"kind": "summon", "search": "top_card"}],
    }
    gs = position(
        spec("c", caller, "A", at="c2"), spec("t", "Существо во вспомогательной зоне", "A", at="deck")
    )
    out = act(gs, "summon", by="c")
    assert out.verdict == "legal" and props(out.state, "t")["zone"] == "aux"
    assert "535.4" in out.clauses()


def test_outcome_to_dict_is_json() -> None:
    import json

    gs = position(spec("vozhak", "Вожак сатиров", "A", at="c2"), spec("orc", ORC, "B", at="c3"))
    out = act(gs, "heal", card="vozhak", amount=1)
    data = json.loads(json.dumps(out.to_dict(), ensure_ascii=False))
    assert data["verdict"] == "legal" and data["pending"]["who"] == "A"
    assert {o["key"] for o in data["pending"]["options"]} == {"1", "none"}


def test_an_artifact_declares_no_movement_by_a7() -> None:
    gs = position(spec("art", {"template": "Артефакт", "name": "Тотем"}, "A", at="c2"))
    out = act(gs, "move", card="art", to="c3")
    assert out.verdict == "illegal" and out.forbidden_by == ["A7"]
    assert "«Тотем» (art) — артефакт, а движение заявляют существа" in out.trace[0].reason


def test_turn_and_preparation_refusals_name_their_assumption() -> None:
    # «Начать ход — нельзя» says why: turns are A15, the order of the preparation A14
    gs = position(spec("orc", ORC, "A", at="c2"))
    started = act(gs, "start_turn").state
    assert act(started, "start_turn").forbidden_by == ["A15"]
    assert act(gs, "start_turn", player="B").forbidden_by == ["A15"]
    assert act(gs, "next_phase").forbidden_by == ["A14"]
    reveal = position(spec("orc", ORC, "A", at="c2"), phase="reveal")
    assert act(reveal, "start_turn").forbidden_by == ["A15"]
    assert act(reveal, "end_turn").forbidden_by == ["A15"]


def test_a_card_that_exiles_itself_gives_a_position_the_setup_reads_back() -> None:
    gs = position(spec("orc", ORC, "A", at="c2"), spec("m", "Многоликий", "B", at="c4"))
    out = act(gs, "exile", card="orc", by="orc")
    assert out.verdict == "legal" and props(out.state, "orc")["zone"] == "exile"
    again = engine.build_state(engine.to_setup(out.state))  # no «exiled by itself» to refuse
    assert props(again, "orc")["zone"] == "exile"
    by_other = act(gs, "exile", card="orc", by="m")
    assert by_other.state.cards["orc"].exiled_by == "m"
