"""534.4–534.8: the replacement pipeline over one game action."""

from __future__ import annotations

import engine
from tests.engine_cases import FLYER, ORC, act, kinds, position, props, run, spec

WARDED = {
    "name": "Заговорённый",
    "type": "creature",
    "subtype": "ground",
    "life": 9,
    "abilities": [{"kind": "protection", "from": ["influence"]}],
}


def lantern_board(*extra: engine.CardSpec) -> engine.GameState:
    """Бул'Багур (A) at c2 lights c3, c4, c5 at the start of B's turn."""
    gs = position(
        spec("bul", "Бул'Багур", "A", at="c2"),
        spec("orc", ORC, "B", at="c4"),
        spec("archer", ORC, "B", at="e5"),
        *extra,
        active="B",
    )
    out = act(gs, "mark_cells", card="bul", cells=["c3", "c4", "c5"])
    assert out.verdict == "legal", engine.render_trace(out.trace)
    return out.state


def test_534_5_lantern_adds_a_wound_and_keeps_kind_and_source() -> None:
    gs = lantern_board()
    out = act(gs, "wound", card="orc", amount=2, source="archer", kind="ranged")
    assert out.verdict == "legal"
    assert props(out.state, "orc")["wounds"] == 3
    assert "534.5" in out.clauses() and "A9" in out.clauses()
    reason = next(s.reason for s in out.steps() if s.clause == "534.5")
    assert "дальней атаки" in reason and "archer" in reason


def test_lantern_applies_to_poison_and_own_strike_only() -> None:
    gs = lantern_board()
    assert props(act(gs, "wound", card="orc", amount=1, kind="poison").state, "orc")["wounds"] == 2
    assert (
        props(act(gs, "wound", card="orc", amount=1, source="bul", kind="strike").state, "orc")["wounds"] == 2
    )
    assert (
        props(act(gs, "wound", card="orc", amount=1, source="archer", kind="strike").state, "orc")["wounds"]
        == 1
    )
    assert props(act(gs, "wound", card="orc", amount=1, kind="magic").state, "orc")["wounds"] == 1


def test_lantern_cells_boundaries() -> None:
    gs = position(spec("bul", "Бул'Багур", "A", at="c2"), active="B")
    assert act(gs, "mark_cells", card="bul", cells=["d3", "e4"]).verdict == "legal"  # diagonal
    assert act(gs, "mark_cells", card="bul", cells=["c3", "c5"]).verdict == "illegal"  # not consecutive
    assert act(gs, "mark_cells", card="bul", cells=["c3", "c4", "c5", "c6"]).verdict == "illegal"  # 4 cells
    assert (
        act(position(spec("bul", "Бул'Багур", "A", at="c2")), "mark_cells", card="bul", cells=["c3"]).verdict
        == "illegal"
    )  # only at the start of the opponent's turn


def test_lantern_expires_after_controllers_next_turn() -> None:
    gs = lantern_board()
    nxt = run(run(gs, "end_turn").state, "start_turn")  # A's turn: still lit
    assert props(act(nxt.state, "wound", card="orc", amount=1, kind="poison").state, "orc")["wounds"] == 2
    after = run(nxt.state, "end_turn").state
    assert props(act(after, "wound", card="orc", amount=1, kind="poison").state, "orc")["wounds"] == 1


def test_534_4_applies_once_and_says_why_not_again() -> None:
    out = act(lantern_board(), "wound", card="orc", amount=2, kind="poison")
    assert props(out.state, "orc")["wounds"] == 3
    assert kinds(out, "534.4") == {"effect", "not_applied"}


def test_534_4_1_player_with_several_effects_chooses_and_534_6_replaces_the_result() -> None:
    gs = position(
        spec("bul", "Бул'Багур", "A", at="c2"),
        spec("bul2", "Бул'Багур", "A", at="e4"),
        spec("orc", ORC, "B", at="c4"),
        active="B",
    )
    gs = act(gs, "mark_cells", card="bul", cells=["c3", "c4"]).state
    gs = act(gs, "mark_cells", card="bul2", cells=["d4", "c4"]).state
    out = act(gs, "wound", card="orc", amount=1, kind="poison")
    assert out.pending is not None and out.pending.who == "A" and out.pending.clause == "534.4.1"
    assert len(out.pending.options) == 2
    done = run(gs, "wound", "2", card="orc", amount=1, kind="poison")
    assert props(done.state, "orc")["wounds"] == 3
    assert "534.6" in done.clauses()


def test_534_4_2_active_player_chooses_when_both_can() -> None:
    gs = lantern_board(spec("vozhak", "Вожак сатиров", "B", at="c3"), spec("harpy", FLYER, "A", at="aux"))
    out = act(gs, "wound", card="vozhak", amount=2, source="harpy", kind="ranged")
    assert out.pending is not None and out.pending.clause == "534.4.2" and out.pending.who == "B"
    done = run(gs, "wound", "1", card="vozhak", amount=2, source="harpy", kind="ranged")
    assert props(done.state, "vozhak")["wounds"] == 2  # +1 and −1, each once
    assert out.state.pending is not None and out.state.cards == gs.cards


def test_534_7_example_vozhak_satyrov_replaces_healing_with_a_wound() -> None:
    gs = position(
        spec("vozhak", "Вожак сатиров", "A", at="c2"),
        spec("orc", ORC, "B", at="c3"),
        spec("far", ORC, "B", at="e5"),
    )
    out = act(gs, "heal", card="vozhak", amount=2)
    assert out.pending is not None and out.pending.clause == "A8"  # «может»: the card's own choice
    assert {o.key for o in out.pending.options} == {"1", "none"}
    target = engine.apply(out.state, engine.parse_action("choose", {"option": "1"}))
    # only the adjacent creature can be the target: a choice of one is taken by itself
    assert target.pending is None
    assert any(
        s.clause == "534.7" and "единственный вариант: «Орк» (orc)" in s.reason for s in target.steps()
    )
    done = run(gs, "heal", "1", card="vozhak", amount=2)
    assert props(done.state, "orc")["wounds"] == 2 and props(done.state, "vozhak")["wounds"] == 0
    assert {"534.7", "534.7.1", "534.7.2", "A10"} <= set(done.clauses())
    declined = run(gs, "heal", "none", card="vozhak", amount=2)
    assert props(declined.state, "orc")["wounds"] == 0


def test_534_7_only_while_unwounded_and_three_times_a_turn() -> None:
    wounded = position(
        spec("vozhak", "Вожак сатиров", "A", at="c2", wounds=1), spec("orc", ORC, "B", at="c3")
    )
    out = act(wounded, "heal", card="vozhak", amount=1)
    assert out.pending is None and props(out.state, "vozhak")["wounds"] == 0
    gs = position(
        spec("vozhak", "Вожак сатиров", "A", at="c2"), spec("orc", {**ORC, "life": 20}, "B", at="c3")
    )
    for _ in range(3):
        gs = run(gs, "heal", "1", card="vozhak", amount=1).state
    assert props(gs, "orc")["wounds"] == 3
    fourth = act(gs, "heal", card="vozhak", amount=1)
    assert fourth.pending is None and props(fourth.state, "orc")["wounds"] == 3


def test_534_7_1_generated_wound_can_be_replaced_when_executed() -> None:
    gs = lantern_board(spec("vozhak", "Вожак сатиров", "B", at="d5"))
    out = run(gs, "heal", "1", "orc", card="vozhak", amount=1)
    # the influence wound is not poison or ranged: the lantern does not match it
    assert props(out.state, "orc")["wounds"] == 1
    assert "534.7.1" in out.clauses()


def test_534_8_replacing_ability_counts_as_influence_at_protection_check() -> None:
    gs = position(spec("vozhak", "Вожак сатиров", "A", at="c2"), spec("w", WARDED, "B", at="c3"))
    out = run(gs, "heal", "1", card="vozhak", amount=2)
    assert props(out.state, "w")["wounds"] == 0 and "534.8" in out.clauses()


def test_534_8_numeric_replacement_counts_as_influence() -> None:
    gs = position(spec("bul", "Бул'Багур", "A", at="c2"), spec("w", WARDED, "B", at="c3"), active="B")
    gs = act(gs, "mark_cells", card="bul", cells=["c3"]).state
    out = act(gs, "wound", card="w", amount=2, kind="poison")
    assert props(out.state, "w")["wounds"] == 2 and "534.8" in out.clauses()


def test_mnogolikiy_exiles_instead_of_destroying_and_takes_abilities() -> None:
    gs = position(
        spec("m", "Многоликий", "A", at="c3"),
        spec("sug", "Сугед", "B", at="c4"),
        spec("foe", ORC, "B", at="d4"),
    )
    out = act(gs, "destroy", card="sug", by="m")
    assert props(out.state, "sug")["zone"] == "exile" and "534.4" in out.clauses()
    own = act(gs, "destroy", card="foe")  # not by Многоликий: graveyard
    assert props(own.state, "foe")["zone"] == "graveyard"
    killed = act(gs, "wound", card="foe", amount=5, source="m")
    assert props(killed.state, "foe")["zone"] == "exile"
    nxt = run(run(out.state, "end_turn").state, "start_turn")
    assert nxt.state.cards["m"].borrowed == "sug"


def test_534_7_vozhak_may_wound_its_own_companion_by_211_9_not_a1() -> None:
    gs = position(
        spec("vozhak", "Вожак сатиров", "A", at="c3"),
        spec("comp", {"template": "Компаньон", "name": "Фамильяр", "life": 6}, "A", host="vozhak"),
        spec("far", ORC, "B", at="c5"),
    )
    out = run(gs, "heal", "1", card="vozhak", amount=2)
    assert props(out.state, "comp")["wounds"] == 2
    assert "allowed" in kinds(out, "211.9")
    # no cell is «next to» here: the only target stands next to Вожак by 211.9, not by A1
    assert "A1" not in out.clauses()
    near = position(spec("vozhak", "Вожак сатиров", "A", at="c3"), spec("o", ORC, "B", at="d4"))
    out2 = run(near, "heal", "1", card="vozhak", amount=1)
    assert "A1" in out2.clauses("assumption") and "211.9" not in out2.clauses()


def test_534_4_mnogolikiy_exile_is_card_text_applied_once() -> None:
    gs = position(spec("mnog", "Многоликий", "A", at="c3"), spec("orc", ORC, "B", at="c4"))
    out = act(gs, "destroy", card="orc", by="mnog")
    assert props(out.state, "orc")["zone"] == "exile"
    text = [s for s in out.steps() if s.clause == "A8" and s.kind == "effect"]
    assert text and "изгоняет" in text[0].reason and text[0].changes
    once = [s.reason for s in out.steps() if s.clause == "534.4" and s.kind == "effect"]
    assert once and "1 раз" in once[0]


def test_534_7_replacing_ability_with_no_target_is_not_offered() -> None:
    # Alone, Вожак сатиров has nobody to wound: its player is not asked, and the trace does not
    # claim the effect «was already applied» (534.4) when it never was.
    gs = position(spec("vozhak", "Вожак сатиров", "A", at="c3", wounds=0), spec("far", ORC, "B", at="a6"))
    out = act(gs, "heal", card="vozhak", amount=1)
    assert out.verdict == "legal" and out.pending is None
    assert "not_applied" in kinds(out, "534.7") and "534.4" not in out.clauses()


def test_534_7_per_turn_limit_says_why_not() -> None:
    gs = position(spec("vozhak", "Вожак сатиров", "A", at="c3"), spec("o", ORC, "B", at="c4"))
    for _ in range(3):
        gs = run(gs, "heal", "1", card="vozhak", amount=1).state
    out = act(gs, "heal", card="vozhak", amount=1)
    assert out.pending is None and props(out.state, "o")["wounds"] == 3
    assert any("3 раза за этот ход" in s.reason for s in out.steps() if s.kind == "not_applied")
