"""The board, the quick actions and the card form without Streamlit: what a click does, what a tile
says, the three-state marks (always what applying gives), the card form's names and defaults."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engine
import lexicon
import rules_index
from desk import actions as desk_actions
from desk import board, cardform, cases, edits, model, quick
from desk.actions import Mark
from desk.citations import Citations
from engine.implemented import VersionView
from rules_index.diff import diff_indexes
from tests import fictional_rules as fr

KARLIK = "B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо, жизнь 5) d4"


def _desk(text: str = KARLIK) -> model.Desk:
    return cases.from_position_text(model.Desk(), text)


def _props(state: engine.GameState) -> dict[str, dict[str, object]]:
    return {cid: dict(engine.card_props(state, cid)) for cid in state.card_ids()}


def _act(desk: model.Desk, kind: str, **args: object) -> model.Desk:
    return edits.with_action(desk, engine.parse_action(kind, args))


def test_a_click_selects_the_card_then_its_symbiote_opens_a_form_or_moves() -> None:
    d = _desk()
    props = _props(model.replay(d).current)
    assert board.click(d, props, None, "c4", None).card == "vail"
    assert board.click(d, props, "vail", "c4", None).card == "karlik_und"  # a second click: the symbiote
    assert board.click(d, props, "karlik_und", "c4", None).card == "vail"
    assert board.click(d, props, "vail", "d4", None).card == "ork"
    # before the first action a tap on an empty cell puts a new card there, unless a move is armed
    assert board.click(d, props, "vail", "c3", None).does == "new_card"
    assert board.click(d, props, "vail", "c3", "move").does == "act"
    started = _act(d, "take_control", card="vail", by="A")
    props = _props(model.replay(started).current)
    act = board.click(started, props, "vail", "c3", "move")
    assert (act.does, act.kind, dict(act.args)) == ("act", "move", {"card": "vail", "to": "c3"})
    assert board.click(started, props, None, "c3", "move").does == "hint"


def test_tiles_say_whose_card_its_state_and_its_symbiote() -> None:
    d = _act(_desk(KARLIK + " раны 2 закрыта"), "take_control", card="vail", by="A")
    props = _props(model.replay(d).current)
    marks = {"c3": Mark("illegal", "нельзя", "✘ нельзя: п. 211.3.1"), "c4": Mark("legal", "можно", "✔ можно")}
    tiles = board.tiles(props, marks)
    c4, d4 = tiles["c4"], tiles["d4"]
    assert (c4.card, c4.symbiote, c4.owner, c4.name) == ("vail", "karlik_und", "B", "Вайл")
    assert c4.facts == "B · 0/14 · ⚑A" and c4.symbiote_line == "+ Карлик Унд A · 0/8"
    assert c4.mark is None  # a click on a card selects it: no action mark on it
    assert d4.facts == "B · 2/5 · закрыта"
    # the mark names its clause on the tile (a phone has no tooltip); a cell no action targets: its name
    assert tiles["c3"].head == "c3 · ✘ нельзя: п. 211.3.1" and tiles["a1"].head == "a1"
    assert board.half_caption("A") == "Половина игрока A: ряд 3 — первый, 2 — второй, 1 — третий"
    assert board.half_rows("B") == (6, 5, 4)


def test_quick_actions_carry_three_state_marks_with_citations() -> None:
    d = _act(_desk(), "take_control", card="vail", by="A")
    state = model.replay(d).current
    found = {q.kind: q for q in quick.quick_actions(state, _props(state), "vail")}
    attack = found["attack"]
    assert attack.style == "pick" and [c.label for c in attack.choices] == [
        "Карлик Унд (c4) — ✔ можно",  # 211.9 allows it; what it leaves to general rules is «не проверено»
        "Орк (d4) — ✘ нельзя: п. 211.3.1",
    ]
    assert found["move"].style == "cells" and found["wound"].style == "amount"
    assert found["destroy"].style == "button" and found["destroy"].choices[0].mark == "✔ можно"
    marks = quick.cell_marks(found["move"])
    assert marks["c3"][0] == "illegal" and "п. 211.3.1" in marks["c3"][1]
    wound = quick.given_option(
        state, "wound", {"card": "karlik_und", "amount": 2, "source": "ork", "kind": "strike"}
    )
    assert wound is not None and wound.mark == "✔ можно"
    # an assumption is named as one
    assert any("допущение A" in c.mark for q in found.values() for c in q.choices)
    assert not any("п. A" in c.mark for q in found.values() for c in q.choices)


@pytest.mark.parametrize("seed", range(6))
def test_every_mark_is_what_applying_the_option_gives(seed: int) -> None:
    """The desk's marks never mislead: over random positions, each option's mark is its verdict."""
    rng = random.Random(seed)
    cells = rng.sample(list(engine.CELLS), 5)
    names = ["Вайл", "Сугед", "Вожак сатиров", "Многоликий", "Бул'Багур"]
    parts = [f"{rng.choice('AB')} {names[i]} {cell}" for i, cell in enumerate(cells)]
    parts.append(f"{rng.choice('AB')} Карлик Унд на Вайл")
    d = _desk("; ".join(parts))
    if rng.random() < 0.5:
        d = _act(d, "take_control", card="vail", by=rng.choice("AB"))
    state = model.replay(d).current
    props = _props(state)
    for cid in props:
        for q in quick.quick_actions(state, props, cid):
            for choice in q.choices:
                args = dict(choice.args)
                if q.style == "amount":
                    continue
                outcome = engine.apply(state, engine.parse_action(q.kind, args))
                assert outcome.verdict == choice.verdict, (q.kind, args, choice.mark)


def test_the_card_form_reads_names_as_the_notation_does() -> None:
    lib = engine.load_library()
    assert cardform.resolve(lib, "  ").status == "empty"
    found = cardform.resolve(lib, "бул’багур")
    assert (found.status, found.card) == ("library", "Бул'Багур")
    own = cardform.resolve(lib, "Орк (Наземное существо, жизнь 6)")
    assert own.status == "own" and own.card == {"template": "Наземное существо", "name": "Орк", "life": 6}
    assert own.words.startswith("наземное существо, жизнь 6")
    typo = cardform.resolve(lib, "Вайлл")
    assert typo.status == "unknown" and typo.suggestions[0] == "Вайл" and typo.card is None
    template = cardform.resolve(lib, "Паразит")
    assert template.status == "library" and template.subtype == "parasite"


def test_the_card_forms_defaults() -> None:
    host_b = {"owner": "B", "controller": "B"}
    assert cardform.default_owner("c4", None, None) == "B" and cardform.default_owner("a2", None, None) == "A"
    assert cardform.default_owner(None, host_b, "parasite") == "A"  # the host's opponent
    assert cardform.default_owner(None, host_b, "companion") == "B"  # the host's side
    assert cardform.default_owner(None, {"owner": "B", "controller": "A"}, "parasite") == "B"
    props = _props(model.replay(_desk()).current)
    assert cardform.can_host(props["ork"]) and not cardform.can_host(props["vail"])  # vail has one
    assert cardform.placed_words("Вайл", "B", "c4", None) == "«Вайл» (игрок B) — на c4."
    assert cardform.placed_words("Вайл", "A", "hand", None) == "«Вайл» (игрок A) — в руке."
    refusal = engine.SetupError("клетка c4 уже занята картой vail", card="karlik_und", key="at")
    assert cardform.friendly(refusal, {"vail": "Вайл", "karlik_und": "Карлик Унд"}) == (
        "«Карлик Унд»: клетка c4 уже занята картой «Вайл»"
    )


def test_the_position_text_of_a_desk_and_back() -> None:
    """The text is the position after the actions: the control marker the action gave is in it."""
    d = _act(_desk(), "take_control", card="vail", by="A")
    text = cases.position_text(model.replay(d).current)
    assert text == KARLIK.replace("Вайл c4", "Вайл c4 контроль A")
    again = cases.from_position_text(d, "ход 3; " + text)
    assert again.actions == () and again.turn == 3
    assert _props(model.replay(again).current) == _props(model.replay(d).current)
    with pytest.raises(engine.SetupError):
        cases.from_position_text(d, "B Вайл c4; B Сугед c4")


def test_marks_cite_the_window_rules_numbering_under_another_version(index: rules_index.RulesIndex) -> None:
    """Under the FICTIONAL next version (535.8 → 535.9, 211.5 completed) every mark names the clause
    as the loaded rules number it; under the engine's own rules the marks stay as they were."""
    fictional = rules_index.load_texts(fr.as_files(fr.fictional_texts()))
    cites = Citations(VersionView(diff_indexes(index, fictional), fictional))
    state = model.replay(_desk()).current
    props = _props(state)

    def labels(cite: Callable[[str], str]) -> dict[str, list[str]]:
        found = quick.quick_actions(state, props, "vail", cite)
        return {q.kind: [c.label for c in q.choices] for q in found}

    own, other = labels(lexicon.cite), labels(cites.cite)
    assert own["take_control"] == ["игрок A — ✔ можно", "игрок B — ✘ нельзя: п. 535.8"]
    assert other["take_control"] == ["игрок A — ✔ можно", "игрок B — ✘ нельзя: п. 535.9 (в РП 4.1-2 — 535.8)"]
    recruit = quick.cell_marks(
        next(q for q in quick.quick_actions(state, props, "vail", cites.cite) if q.kind == "recruit")
    )
    assert "п. 535.3 (в РП 4.1-2 — 535.2)" in recruit["c3"][1] and "п. 535.2:" not in recruit["c3"][1]
    # a clause that kept its number reads as before, in both
    assert own["attack"] == other["attack"]
    turn = dict(quick.position_actions(state, cites.cite))
    assert turn["end_reveal"].mark == "✘ нельзя: п. 211.7"
    reasons = desk_actions.hints(
        desk_actions.legal_map(state, "take_control", {"card": "vail"}), "by", cites.cite
    )
    assert reasons["B"][1].startswith("п. 535.9 (в РП 4.1-2 — 535.8): ")
