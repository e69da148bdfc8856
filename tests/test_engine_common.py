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
    *cards: engine.CardSpec, phase: str = "battle", active: str = "A", seed: int = 0
) -> engine.GameState:
    """A position from card specs (in battle the active player's turn has started)."""
    return engine.build_state(engine.Setup(phase=phase, active=active, seed=seed, cards=list(cards)))


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


# ---- random streams (property tests and the benchmark) -----------------------------------

PHOENIX = {
    "name": "Феникс",
    "type": "creature",
    "subtype": "ground",
    "life": 4,
    "abilities": [{"kind": "incarnation", "x": 2}],
}
CALLER = {
    "name": "Зовущий",
    "type": "creature",
    "subtype": "ground",
    "life": 6,
    "abilities": [{"kind": "summon", "search": "top_card"}, {"kind": "resurrect"}],
}
SYMBIOTE_CALLER = {
    "name": "Кукловод",
    "type": "creature",
    "subtype": "ground",
    "life": 6,
    "abilities": [{"kind": "summon", "card": "Клещ", "places_on": "enemy_creature"}],
}


def full_board(seed: int = 0) -> engine.GameState:
    """A busy position: the seven example cards, templates, decks, a graveyard."""
    cards = [
        spec("vail", "Вайл", "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("mnogo", "Многоликий", "A", at="b3"),
        spec("suged", "Сугед", "A", host="mnogo"),
        spec("slua", "Выкормыш слуа", "B", at="b4"),
        spec("bul", "Бул'Багур", "A", at="d2"),
        spec("vozhak", "Вожак сатиров", "B", at="d5"),
        spec("orc", ORC, "B", at="e4"),
        spec("orc2", ORC, "A", at="a3"),
        spec("harpy", FLYER, "B", at="aux"),
        spec("ghost", GHOST, "A", at="e2"),
        spec("caller", CALLER, "A", at="c2"),
        spec("puppet", SYMBIOTE_CALLER, "B", at="a5"),
        spec("phoenix", PHOENIX, "A", at="graveyard", tokens=1),
        spec("dead", ORC, "B", at="graveyard"),
        spec("tick", PARASITE, "B", at="deck"),
        spec("dA1", ORC, "A", at="deck"),
        spec("dA2", FLYER, "A", at="deck"),
        spec("dA3", COMPANION, "A", at="deck"),
        spec("dB1", ORC, "B", at="deck"),
        spec("dB2", "Вайл", "B", at="deck"),
        *(spec(f"fa{i}", ORC, "A", at=cell) for i, cell in enumerate(("a1", "b1", "e1", "a2", "b2", "e3"))),
        *(spec(f"fb{i}", ORC, "B", at=cell) for i, cell in enumerate(("a6", "b6", "c6", "e6", "e5", "c5"))),
    ]
    return position(*cards, seed=seed)


KINDS = (
    "move",
    "relocate",
    "attach",
    "attack",
    "wound",
    "heal",
    "destroy",
    "exile",
    "return_to_deck",
    "take_control",
    "lose_control",
    "summon",
    "resurrect",
    "change_type",
    "set_incorporeal",
    "end_turn",
    "start_turn",
    "mark_cells",
    "choose",
)


def random_action(gs: engine.GameState, rng: Any) -> engine.Action:
    """A random action, legal or not, with arguments drawn from the position."""
    from engine.model import board as board_mod

    ids = list(gs.cards)
    if gs.pending is not None and rng.random() < 0.9:
        return engine.parse_action("choose", {"option": rng.choice(gs.pending.options).key})
    if gs.phase != "battle" and rng.random() < 0.85:
        return _preparation_action(gs, rng)
    kind = rng.choice(KINDS)
    plausible = _plausible(gs, kind, rng) if rng.random() < 0.5 else None
    if plausible is not None:
        return engine.parse_action(kind, plausible)
    if kind in ("exile", "return_to_deck", "destroy") and rng.random() < 0.6:
        kind = rng.choice(("move", "attack", "start_turn", "end_turn", "summon", "resurrect"))
    card = rng.choice(ids)
    other = rng.choice(ids)
    cell = rng.choice(board_mod.CELLS)
    # most of the time, plausible arguments: the active player's creatures, nearby cells and targets
    if rng.random() < 0.7:
        mine = [c for c in gs.cards.values() if c.in_play and c.controller == gs.active and c.cell]
        if mine:
            me = rng.choice(mine)
            card = me.id
            near = board_mod.neighbours(me.cell or "a1")
            cell = rng.choice(near)
            close = [
                c.id for c in gs.cards.values() if c.in_play and c.cell in (*near, me.cell) and c.id != me.id
            ]
            if close:
                other = rng.choice(close)
        if kind == "resurrect":
            dead = [c.id for c in gs.cards.values() if c.zone == "graveyard"]
            if dead:
                other = rng.choice(dead)
    args: dict[str, object]
    if kind in ("move", "relocate"):
        args = {"card": card, "to": cell}
        if kind == "relocate" and rng.random() < 0.2:
            args["symbiote_alone"] = True
    elif kind == "attach":
        args = {"card": card, "host": other}
    elif kind == "attack":
        args = {"attacker": card, "target": other}
    elif kind == "wound":
        args = {
            "card": card,
            "amount": rng.randint(0, 4),
            "kind": rng.choice(("strike", "ranged", "poison", "magic", "influence")),
        }
        if rng.random() < 0.7:
            args["source"] = other
    elif kind == "heal":
        args = {"card": card, "amount": rng.randint(0, 3)}
    elif kind in ("destroy", "exile"):
        args = {"card": card}
        if rng.random() < 0.5:
            args["by"] = other
    elif kind == "return_to_deck":
        args = {"card": card, "position": rng.choice(("top", "bottom"))}
    elif kind == "take_control":
        args = {"card": card, "by": rng.choice("AB")}
    elif kind == "lose_control":
        args = {"card": card}
    elif kind == "summon":
        args = {"by": rng.choice(("caller", "puppet", card))}
        if rng.random() < 0.7:
            args["cell"] = cell
        if rng.random() < 0.3:
            args["host"] = other
    elif kind == "resurrect":
        args = {"by": rng.choice(("caller", card)), "card": other}
        if rng.random() < 0.8:
            args["cell"] = cell
    elif kind == "change_type":
        args = {"card": card, "subtype": rng.choice(("ground", "flyer", "companion", "parasite"))}
        if rng.random() < 0.2:
            args = {"card": card, "type": "artifact"}
    elif kind == "set_incorporeal":
        args = {"card": card, "value": rng.random() < 0.5}
    elif kind == "mark_cells":
        args = {"card": rng.choice(("bul", card)), "cells": [cell]}
    elif kind == "choose":
        args = {"option": rng.choice(("1", "2", "none", card, cell))}
    else:
        args = {}
    return engine.parse_action(kind, args)


def _preparation_action(gs: engine.GameState, rng: Any) -> engine.Action:
    """Recruit, placement and reveal: recruit a card onto a free cell of its owner's half, put a
    symbiote on a creature, or move on."""
    from engine.model import board as board_mod

    if gs.phase == "recruit":
        waiting = [c for c in gs.cards.values() if not c.in_play and c.zone != "deck"]
        if waiting and rng.random() < 0.8:
            card = rng.choice(waiting)
            taken = {c.cell for c in gs.cards.values() if c.zone == "battle"}
            free = [c for c in board_mod.CELLS if board_mod.half_of(c) == card.owner and c not in taken]
            return engine.parse_action("recruit", {"card": card.id, "at": rng.choice(free or ["a1"])})
        return engine.parse_action("next_phase", {})
    if gs.phase == "reveal":
        loose = [c for c in gs.cards.values() if c.is_symbiote and c.zone == "battle" and c.host is None]
        creatures = [c for c in gs.cards.values() if c.zone == "battle" and c.is_creature and c.host is None]
        if loose and creatures and rng.random() < 0.7:
            s = rng.choice(loose)
            return engine.parse_action("place_symbiote", {"card": s.id, "host": rng.choice(creatures).id})
        return engine.parse_action("end_reveal", {})
    return engine.parse_action("next_phase", {})


def _plausible(gs: engine.GameState, kind: str, rng: Any) -> dict[str, object] | None:
    """Arguments that often make a legal action of `kind` in this position (so that the random
    streams exercise legal sequences, not only refusals), or None."""
    from engine.model import board as board_mod

    cards = gs.cards
    if kind == "attach":
        if gs.last_attack is not None and rng.random() < 0.7:
            attacker, target = gs.last_attack
            return {"card": target, "host": attacker}
        syms = [
            c for c in cards.values() if c.is_symbiote and c.host is not None and c.controller == gs.active
        ]
        if syms:
            s = rng.choice(syms)
            own = [c.id for c in cards.values() if c.zone == "battle" and c.controller == s.controller]
            return {"card": s.id, "host": rng.choice(own)} if own else None
    if kind == "attack":
        mine = [c for c in cards.values() if c.zone == "battle" and c.controller == gs.active and c.cell]
        if mine:
            me = rng.choice(mine)
            near = [
                c.id
                for c in cards.values()
                if c.zone == "battle"
                and c.id != me.id
                and c.cell
                and board_mod.distance(c.cell, me.cell or "") <= 1
            ]
            return {"attacker": me.id, "target": rng.choice(near)} if near else None
    if kind == "mark_cells":
        lamps = [c for c in cards.values() if c.in_play and c.cell and c.name == "Бул'Багур"]
        if lamps:
            lamp = rng.choice(lamps)
            oc, orow = board_mod.coords(lamp.cell or "a1")
            dc, dr = rng.choice([(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)])
            line = [board_mod.cell_at(oc + dc * i, orow + dr * i) for i in range(1, rng.randint(1, 3) + 1)]
            cells = [c for c in line if c is not None]
            return {"card": lamp.id, "cells": cells} if cells else None
    if kind == "resurrect":
        dead = [c for c in cards.values() if c.zone == "graveyard" and c.owner == gs.active]
        callers = [
            c for c in cards.values() if c.in_play and c.card.has("resurrect") and c.controller == gs.active
        ]
        if dead and callers:
            return {"by": rng.choice(callers).id, "card": rng.choice(dead).id}
    if kind == "wound" and gs.marks:
        marked = {cell for m in gs.marks for cell in m.cells}
        lit = [c.id for c in cards.values() if c.zone == "battle" and c.cell in marked and c.is_creature]
        return {"card": rng.choice(lit), "amount": 1, "kind": "ranged"} if lit else None
    if kind == "heal":
        leaders = [c.id for c in cards.values() if c.in_play and c.card.has("replace_heal_with_wound")]
        return {"card": rng.choice(leaders), "amount": rng.randint(1, 2)} if leaders else None
    if kind == "destroy":
        exilers = [c for c in cards.values() if c.in_play and c.card.has("replace_destroy_with_exile")]
        if exilers:
            by = rng.choice(exilers)
            foes = [
                c.id for c in cards.values() if c.in_play and c.is_creature and c.controller != by.controller
            ]
            return {"card": rng.choice(foes), "by": by.id} if foes else None
    if kind == "summon":
        callers = [
            c for c in cards.values() if c.in_play and c.card.has("summon") and c.controller == gs.active
        ]
        return {"by": rng.choice(callers).id} if callers else None
    return None


def reveal_board(seed: int = 0) -> engine.GameState:
    """The reveal subphase: hidden creatures and symbiotes standing on their own cells (211.2)."""
    cards = [
        spec("vail", "Вайл", "B", at="c4", hidden=True),
        spec("orcB", ORC, "B", at="b5", hidden=True),
        spec("harpy", FLYER, "B", at="aux", hidden=True),
        spec("ghost", GHOST, "B", at="e4", hidden=True),
        spec("und", "Карлик Унд", "A", at="a2", hidden=True),
        spec("suged", "Сугед", "A", at="e1", hidden=True),
        spec("tick", PARASITE, "B", at="a6", hidden=True),
        spec("firefly", COMPANION, "B", at="e6", hidden=True),
        spec("mnogo", "Многоликий", "A", at="b3", hidden=True),
        spec("bul", "Бул'Багур", "A", at="d2", hidden=True),
        spec("caller", CALLER, "A", at="c2", hidden=True),
        spec("slua", "Выкормыш слуа", "B", at="d4", hidden=True),
        spec("vozhak", "Вожак сатиров", "B", at="d5", hidden=True),
        spec("orcA", ORC, "A", at="c3", hidden=True),
        spec("dA1", ORC, "A", at="deck"),
        spec("dB1", PARASITE, "B", at="deck"),
        spec("phoenix", PHOENIX, "B", at="graveyard"),
    ]
    return position(*cards, phase="reveal", seed=seed)


def recruit_board(seed: int = 0) -> engine.GameState:
    """The recruit subphase: every card still in hand (then placement and reveal follow)."""
    cards = [
        spec("vail", "Вайл", "B", at="hand"),
        spec("und", "Карлик Унд", "A", at="hand"),
        spec("suged", "Сугед", "A", at="hand"),
        spec("orcA", ORC, "A", at="hand"),
        spec("orcB", ORC, "B", at="hand"),
        spec("harpy", FLYER, "B", at="hand"),
        spec("tick", PARASITE, "B", at="hand"),
        spec("dA1", ORC, "A", at="deck"),
    ]
    return position(*cards, phase="recruit", seed=seed)


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
