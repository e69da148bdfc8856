"""A base as the engine's card library: real life, class and text; modelled abilities working in
the engine (round trip to the desk's calls: build_state and apply, through a scenario)."""

from __future__ import annotations

import json

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


def _embedded_names(records: list[dict[str, object]]) -> cardbase.Loaded:
    return cardbase.Loaded.of(cardbase.import_base(json.dumps(records).encode(), "real.json"))


def test_a_base_card_named_like_an_embedded_one_has_the_bases_facts_and_the_hand_written_abilities() -> None:
    loaded = _embedded_names(
        [
            # the base's facts differ from the rules example's card (life 8, no class, strike 1-2-2)
            {
                "id": "u1",
                "name": "Карлик Унд",
                "type": 3,
                "life": 4,
                "class": "Гном",
                "hit": [1, 1, 1],
                "color": 2,
                "cost": 2,
                "text": "Хозяин не может атаковать никого, кроме Карлика Унда. Защита от магии.",
            },
            {"id": "w1", "name": "Вайл", "type": 0, "life": 9, "text": "Другой текст."},
        ]
    )
    und = loaded.library.get("Карлик Унд")
    assert und is not None
    assert (und.life, und.subtype, und.classes, und.strike, und.element, und.cost, und.ref) == (
        4,
        "parasite",
        ("Гном",),
        (1, 1, 1),
        "Горы",
        2,
        "u1",
    )
    kinds = [a.kind for a in und.abilities]
    assert kinds[:2] == ["host_lock", "wounds_only_from_host"] and "protection" in kinds, kinds
    assert und.text.startswith("Хозяин не может атаковать")
    record = loaded.record("Карлик Унд")  # what the desk shows beside the card
    assert record is not None and record.id == "u1"
    assert [m.source for m in record.modelled][:2] == [cardbase.library.HAND_WRITTEN] * 2
    note = loaded.shadowed["u1"]
    assert "жизнь, класс, удар, стихия, стоимость и текст отсюда" in note and "описаны вручную" in note
    assert "из текста этой карты добавлено: защита" in note, note
    vail = loaded.library.get("Вайл")
    assert vail is not None and (vail.life, vail.text, vail.abilities) == (9, "Другой текст.", ())
    assert "особенностей у неё нет" in loaded.shadowed["w1"]
    assert loaded.library.get("Сугед").life == 6  # type: ignore[union-attr]  # not in the base: embedded
    host = engine.CardSpec(id="h", card="Вайл", owner="A", at="b2")
    und_on_host = engine.CardSpec(id="u", card="Карлик Унд", owner="B", host="h")
    setup = engine.Setup(phase="battle", active="A", cards=[host, und_on_host])
    state = engine.build_state(setup, loaded.library)
    assert engine.card_props(state, "u")["life"] == 4 and engine.card_props(state, "h")["life"] == 9


def test_a_base_card_of_another_kind_keeps_only_what_its_text_gives() -> None:
    suged_as_ground = {"id": "s1", "name": "Сугед", "type": 0, "life": 5, "text": "Защита от магии."}
    loaded = _embedded_names([suged_as_ground])
    suged = loaded.library.get("Сугед")
    assert suged is not None and (suged.life, suged.subtype, suged.ref) == (5, "ground", "s1")
    assert [a.kind for a in suged.abilities] == ["protection"]  # not place_on_own_creature (a companion's)
    assert "другого вида (симбиот-компаньон)" in loaded.shadowed["s1"], loaded.shadowed["s1"]
    record = loaded.record("Сугед")
    assert record is not None and all(m.source != cardbase.library.HAND_WRITTEN for m in record.modelled)


def test_the_embedded_library_alone_is_unchanged() -> None:
    assert cardbase.Loaded.of(cardbase.builtin_base()).library == engine.load_library()


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
