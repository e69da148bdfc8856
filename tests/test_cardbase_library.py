"""A base as the engine's card library: real life, class and text; modelled abilities working in
the engine (round trip to the desk's calls: build_state and apply, through a scenario)."""

from __future__ import annotations

import pytest

import cardbase
import engine
import rules_index
from cardbase import links
from casebook import load_scenario_text, run_scenario
from tests import cardbase_cases as cases


def test_every_card_is_in_the_library_with_its_facts() -> None:
    lib = cases.loaded().library
    for r in cases.json_base().records:
        cdef = lib.get(r.library_name)
        assert cdef is not None, r.library_name
        assert (cdef.type, cdef.text, cdef.ref, cdef.classes) == (r.type, r.text, r.id, r.classes)
        if r.type == "creature":
            assert (cdef.life, cdef.subtype) == (r.life, r.subtype)
    tick = lib.get("Горный клещ")
    assert tick is not None and tick.subtype == "parasite" and tick.incorporeal and tick.life == 3
    assert lib.get("Подземный резонатор").life is None  # type: ignore[union-attr]
    assert lib.get("степной дозорный").life == 8  # type: ignore[union-attr]
    assert lib.get("Степной дозорный (Пробный выпуск, №1)").life == 7  # type: ignore[union-attr]
    assert lib.get("Карлик Унд") is not None and "Паразит" in lib.templates()


def test_the_record_behind_a_library_card() -> None:
    loaded = cases.loaded()
    r = loaded.record("горный клещ")
    assert r is not None and r.id == "90002" and r.unmodelled == ("[закрыть]: ранить хозяина на 1.",)
    assert loaded.record("Паразит") is None and loaded.record("Карлик Унд") is None
    builtin = cardbase.Loaded.of(cardbase.builtin_base())
    assert builtin.record("Карлик Унд").name == "Карлик Унд"  # type: ignore[union-attr]


def test_the_embedded_card_wins_a_name_both_have() -> None:
    data = '[{"id": "1", "name": "Вайл", "type": 0, "life": 99, "text": "Другой текст."}]'.encode()
    loaded = cardbase.Loaded.of(cardbase.import_base(data, "x.json"))
    assert loaded.library.get("Вайл").life == 14  # type: ignore[union-attr]
    assert "встроенной библиотеки" in loaded.shadowed["1"]


def test_a_desk_link_names_the_card_the_library_has() -> None:
    loaded = cases.loaded()
    for r in loaded.base.records:
        request = links.desk_request(links.desk_params(loaded.base.id, r))
        assert request is not None and request.base_id == loaded.base.id
        assert loaded.library.get(request.name).ref == r.id  # type: ignore[union-attr]
    assert links.desk_params(cardbase.BUILTIN, loaded.base.records[0]) == {
        "put": "Степной дозорный (Пробный выпуск, №1)"
    }
    assert links.desk_request({"put": "  "}) is None
    assert links.desk_request({"put": "x" * 500}) is None
    assert links.desk_request({"put": "Звонарь"}) == links.DeskRequest("Звонарь", cardbase.BUILTIN)


def _run(text: str, index: rules_index.RulesIndex) -> None:
    library = cases.loaded().library
    result = run_scenario(load_scenario_text(text, "base.yaml", index=index, library=library), index, library)
    assert result.ok, [s.to_dict() for s in result.steps if s.failed]


def test_a_recognised_summon_works_with_the_real_life(index: rules_index.RulesIndex) -> None:
    _run(
        """
title: вызов по тексту карты из базы
setup:
  phase: battle
  active: A
  cards:
    - {id: paladin, card: "Светлый паладин", owner: A, at: c2}
    - {id: scout, card: "Степной дозорный", owner: A, at: deck}
steps:
  - summon: {by: paladin, card: scout, cell: c3}
    expect:
      verdict: legal
      fired: ["535.5"]
      cards:
        scout: {zone: battle, cell: c3, life: 8}
  - summon: {by: paladin, card: scout, cell: e5}
    expect:
      verdict: illegal
""",
        index,
    )


def test_a_recognised_squad_ban_forbids(index: rules_index.RulesIndex) -> None:
    _run(
        """
title: «не может быть взята в отряд с …» из текста карты базы
setup:
  phase: battle
  active: A
  cards:
    - id: caller
      card: {template: "Наземное существо", name: "Призыватель",
             abilities: [{kind: summon, card: "Серый странник"}]}
      owner: A
      at: c2
    - {id: paladin, card: "Светлый паладин", owner: A, at: a2}
    - {id: stranger, card: "Серый странник", owner: A, at: deck}
steps:
  - summon: {by: caller, card: stranger, cell: c3}
    expect:
      verdict: illegal
      forbidden_by: ["535.9"]
      cards:
        stranger: {zone: deck}
""",
        index,
    )


def test_a_recognised_incarnation_counts_tokens(index: rules_index.RulesIndex) -> None:
    _run(
        """
title: инкарнация из текста карты базы
setup:
  phase: battle
  active: B
  cards:
    - {id: whisper, card: "Тёмный шептун", owner: A, at: graveyard}
steps:
  - end_turn: {}
  - start_turn: {}
    expect:
      fired: ["535.7.1"]
      cards:
        whisper: {zone: graveyard, tokens: 1}
""",
        index,
    )


def test_a_card_placed_by_name_has_its_real_life_and_class() -> None:
    lib = cases.loaded().library
    setup = engine.Setup(
        phase="battle",
        active="A",
        cards=[
            engine.CardSpec(id="g", card="Каменный голем", owner="A", at="b2"),
            engine.CardSpec(id="s", card="Болотный скат", owner="B", at="aux"),
        ],
    )
    state = engine.build_state(setup, lib)
    golem, skate = engine.card_props(state, "g"), engine.card_props(state, "s")
    assert (golem["life"], golem["subtype"], golem["name"]) == (11, "ground", "Каменный голем")
    assert (skate["life"], skate["subtype"]) == (6, "flyer")
    with pytest.raises(engine.SetupError, match="похожие: «Каменный голем»"):
        engine.build_state(
            engine.Setup(
                phase="battle",
                active="A",
                cards=[engine.CardSpec(id="x", card="Каменый голем", owner="A", at="b2")],
            ),
            lib,
        )
