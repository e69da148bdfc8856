"""Section 535 «Взятие карт в отряд»: owner and controller, recruit, summon, resurrect,
incarnation, control."""

from __future__ import annotations

import engine
from tests.engine_cases import FLYER, ORC, act, kinds, position, props, run, spec


def creature(
    name: str, *abilities: dict[str, object], life: int = 5, subtype: str = "ground"
) -> dict[str, object]:
    return {"name": name, "type": "creature", "subtype": subtype, "life": life, "abilities": list(abilities)}


LONER = creature("Одиночка", {"kind": "cannot_join_with", "cards": ["Вайл"]})

# ---- 535.1 / 535.1.1 / 535.8 / 535.8.1 -------------------------------------------------


def test_535_8_take_control_and_535_1_owner_stays() -> None:
    gs = position(spec("v", "Вайл", "B", at="c4"))
    out = act(gs, "take_control", card="v", by="A")
    assert out.verdict == "legal"
    p = props(out.state, "v")
    assert p["owner"] == "B" and p["controller"] == "A" and p["control_marker"] is True
    assert {"535.8", "535.1", "535.1.1", "535.2"} <= set(out.clauses())
    again = act(out.state, "take_control", card="v", by="A")
    assert again.verdict == "illegal" and again.forbidden_by == ["535.8"]


def test_535_1_1_marker_disappears_back_under_owner() -> None:
    gs = position(spec("v", "Вайл", "B", at="c4", controller="A"))
    assert props(gs, "v")["control_marker"] is True
    out = act(gs, "lose_control", card="v")
    assert out.verdict == "legal"
    assert props(out.state, "v")["controller"] == "B" and props(out.state, "v")["control_marker"] is False
    assert "state_check" in kinds(out, "535.1.1")


def test_535_8_lost_control_goes_to_opponent() -> None:
    gs = position(spec("o", ORC, "A", at="c2"))
    out = act(gs, "lose_control", card="o")
    assert props(out.state, "o")["controller"] == "B" and props(out.state, "o")["control_marker"] is True


def test_535_8_1_keeps_control_and_reports_conflict_with_535_1() -> None:
    gs = position(spec("x", LONER, "A", at="c2"), spec("v", "Вайл", "B", at="c5"))
    out = act(gs, "lose_control", card="x")
    assert out.verdict == "legal"
    assert props(out.state, "x")["controller"] == "A" and props(out.state, "x")["owner"] == "A"
    assert "conflict" in kinds(out, "535.8.1") and "535.1" in out.clauses()


def test_535_9_cannot_take_control_with_the_named_card_in_squad() -> None:
    gs = position(spec("x", LONER, "B", at="c5"), spec("v", "Вайл", "A", at="c2"))
    out = act(gs, "take_control", card="x", by="A")
    assert out.verdict == "illegal" and out.forbidden_by == ["535.9"]
    gs2 = position(spec("x", LONER, "B", at="c5"), spec("v", "Вайл", "B", at="c4"))
    assert act(gs2, "take_control", card="x", by="A").verdict == "legal"


# ---- 535.2 / 535.3 / 535.9 recruit -----------------------------------------------------


def test_535_3_recruit_makes_controller_and_403_2_is_missing() -> None:
    gs = position(spec("o", ORC, "A", at="hand"), phase="recruit")
    out = act(gs, "recruit", card="o", at="b2")
    assert out.verdict == "undetermined"
    assert props(out.state, "o")["controller"] == "A" and props(out.state, "o")["cell"] == "b2"
    assert any("403.2" in s.reason for s in out.steps() if s.kind == "undetermined")


def test_535_2_recruit_only_in_recruit_subphase() -> None:
    gs = position(spec("o", ORC, "A", at="hand"))
    out = act(gs, "recruit", card="o", at="b2")
    assert out.verdict == "illegal" and out.forbidden_by == ["535.2"]


def test_535_9_squad_with_card_and_its_text_is_illegal_in_recruit() -> None:
    gs = position(spec("x", LONER, "A", at="b2"), spec("v", "Вайл", "A", at="hand"), phase="recruit")
    out = act(gs, "recruit", card="v", at="c2")
    assert out.verdict == "illegal" and out.forbidden_by == ["535.9"]


# ---- 535.4 / 535.5 summon ---------------------------------------------------------------

CALLER = creature("Зовущий", {"kind": "summon", "card": "Орк"})
TOP_CALLER = creature("Ловец", {"kind": "summon", "search": "top_card"})
FLY_CALLER = creature("Птичник", {"kind": "summon", "card": "Гарпия"})
ROW_FLY_CALLER = creature("Голубятник", {"kind": "summon", "card": "Гарпия", "where": "own_third_row"})
TRIGGER = creature("Сигнальщик", {"kind": "summon", "card": "Орк", "trigger": True, "once_per_battle": True})
ONCE = creature("Разовый", {"kind": "summon", "card": "Орк", "once_per_battle": True})


def summon_board(caller: dict[str, object], *extra: engine.CardSpec, seed: int = 0) -> engine.GameState:
    return position(
        spec("c", caller, "A", at="c2"),
        spec("o1", ORC, "A", at="deck"),
        spec("x1", "Вайл", "A", at="deck"),
        spec("o2", ORC, "A", at="deck"),
        *extra,
        seed=seed,
    )


def test_535_5_summon_to_free_adjacent_cell_open_revealed_own_control() -> None:
    out = act(summon_board(CALLER), "summon", by="c", card="o2", cell="d3")
    assert out.verdict == "legal", engine.render_trace(out.trace)
    p = props(out.state, "o2")
    assert (p["cell"], p["closed"], p["hidden"], p["controller"]) == ("d3", False, False, "A")
    assert {"535.5", "535.5.1", "535.5.1.2", "535.5.1.3", "535.4"} <= set(out.clauses())
    assert "o2" not in out.state.deck("A")


def test_535_5_not_adjacent_or_occupied_is_illegal() -> None:
    gs = summon_board(CALLER, spec("b", ORC, "A", at="d3"))
    far = act(gs, "summon", by="c", card="o2", cell="e4")
    assert far.verdict == "illegal" and far.forbidden_by == ["535.5"]
    taken = act(gs, "summon", by="c", card="o2", cell="d3")
    assert taken.verdict == "illegal" and taken.forbidden_by == ["535.5"]
    assert far.state is gs


def test_535_5_only_from_own_deck() -> None:
    gs = summon_board(CALLER, spec("theirs", ORC, "B", at="deck"))
    out = act(gs, "summon", by="c", card="theirs", cell="d3")
    assert out.verdict == "illegal" and out.forbidden_by == ["535.5"]


def test_535_5_1_look_through_deck_and_choose_or_pay() -> None:
    gs = summon_board(ONCE)
    out = act(gs, "summon", by="c", cell="d3")
    assert out.pending is not None and out.pending.clause == "535.5.1"
    assert {o.key for o in out.pending.options} == {"o1", "o2", "none"}
    paid = run(gs, "summon", "none", by="c", cell="d3")
    assert paid.verdict == "legal" and props(paid.state, "o1")["zone"] == "deck"
    again = act(paid.state, "summon", by="c", cell="d3")
    assert again.verdict == "illegal"  # the once-per-battle summon was paid
    took = run(gs, "summon", "o1", by="c", cell="d3")
    assert props(took.state, "o1")["cell"] == "d3"


def test_535_5_1_1_no_name_means_top_card_without_looking() -> None:
    gs = summon_board(TOP_CALLER)
    out = act(gs, "summon", by="c", cell="b3")
    assert out.verdict == "legal" and props(out.state, "o1")["cell"] == "b3"
    assert "535.5.1.1" in out.clauses()
    wrong = act(gs, "summon", by="c", card="o2", cell="b3")
    assert wrong.verdict == "illegal" and wrong.forbidden_by == ["535.5.1.1"]


def test_535_5_1_2_failed_summon_returns_card_to_deck() -> None:
    blockers = [
        spec(f"b{i}", ORC, "B", at=cell)
        for i, cell in enumerate(("b1", "c1", "d1", "b2", "d2", "b3", "c3", "d3"))
    ]
    gs = position(spec("c", ONCE, "A", at="c2"), spec("o1", ORC, "A", at="deck"), *blockers)
    out = run(gs, "summon", "o1", by="c")
    assert out.verdict == "legal"
    assert props(out.state, "o1")["zone"] == "deck"
    assert kinds(out, "535.5.1.2") == {"effect"} and "535.5.1.3" in out.clauses()


def test_535_5_1_3_shuffle_is_reproducible_by_seed() -> None:
    deck = [spec(f"d{i}", ORC, "A", at="deck") for i in range(8)]
    a = act(position(spec("c", TOP_CALLER, "A", at="c2"), *deck, seed=7), "summon", by="c", cell="b3")
    b = act(position(spec("c", TOP_CALLER, "A", at="c2"), *deck, seed=7), "summon", by="c", cell="b3")
    c = act(position(spec("c", TOP_CALLER, "A", at="c2"), *deck, seed=8), "summon", by="c", cell="b3")
    assert a.state.deck("A") == b.state.deck("A")
    assert sorted(a.state.deck("A")) == [f"d{i}" for i in range(1, 8)]
    assert a.state.deck("A") != c.state.deck("A") or a.state.deck("A") != tuple(f"d{i}" for i in range(1, 8))


def test_535_5_2_triggered_summon_may_be_skipped_without_paying() -> None:
    gs = summon_board(TRIGGER)
    skipped = run(gs, "summon", "skip", by="c", cell="d3")
    assert skipped.verdict == "legal" and "535.5.2" in skipped.clauses()
    assert skipped.state.deck("A") == gs.deck("A")
    later = run(skipped.state, "summon", "summon", by="c", card="o1", cell="d3")
    assert props(later.state, "o1")["cell"] == "d3"


def test_535_4_flyer_goes_to_aux_without_a_cell() -> None:
    gs = position(spec("c", FLY_CALLER, "A", at="c2"), spec("f", FLYER, "A", at="deck"))
    out = act(gs, "summon", by="c", card="f")
    assert out.verdict == "legal" and props(out.state, "f")["zone"] == "aux"
    with_cell = act(gs, "summon", by="c", card="f", cell="d3")
    assert with_cell.verdict == "illegal" and with_cell.forbidden_by == ["535.4"]


def test_535_4_conditions_on_place_must_hold_even_for_flyers() -> None:
    gs = position(spec("c", ROW_FLY_CALLER, "A", at="c2"), spec("f", FLYER, "A", at="deck"))
    bad = act(gs, "summon", by="c", card="f", cell="c2")
    assert bad.verdict == "illegal" and bad.forbidden_by == ["535.4"]
    ok = act(gs, "summon", by="c", card="f", cell="a1")
    assert ok.verdict == "legal" and props(ok.state, "f")["zone"] == "aux"


def test_535_9_cannot_summon_with_the_named_card_in_squad() -> None:
    caller = creature("Зовущий одиночку", {"kind": "summon", "card": "Одиночка"})
    gs = position(
        spec("c", caller, "A", at="c2"), spec("x", LONER, "A", at="deck"), spec("v", "Вайл", "A", at="a1")
    )
    out = act(gs, "summon", by="c", card="x", cell="d3")
    assert out.verdict == "illegal" and out.forbidden_by == ["535.9"]


# ---- 535.6 resurrect ---------------------------------------------------------------------

RAISER = creature("Некромант", {"kind": "resurrect"})


def test_535_6_resurrect_from_own_graveyard_adjacent() -> None:
    gs = position(
        spec("n", RAISER, "A", at="c2"),
        spec("dead", ORC, "A", at="graveyard"),
        spec("theirs", ORC, "B", at="graveyard"),
    )
    out = act(gs, "resurrect", by="n", card="dead", cell="c3")
    assert out.verdict == "legal" and props(out.state, "dead")["cell"] == "c3"
    assert props(out.state, "dead")["closed"] is False and "535.6" in out.clauses()
    other = act(gs, "resurrect", by="n", card="theirs", cell="c3")
    assert other.verdict == "illegal" and other.forbidden_by == ["535.6"]


def test_535_7_1_resurrected_card_loses_incarnation_tokens() -> None:
    phoenix = creature("Феникс", {"kind": "incarnation", "x": 3})
    gs = position(spec("n", RAISER, "A", at="c2"), spec("p", phoenix, "A", at="graveyard", tokens=2))
    out = act(gs, "resurrect", by="n", card="p", cell="c3")
    assert props(out.state, "p")["tokens"] == 0 and "535.7.1" in out.clauses()


# ---- 535.7 incarnation -----------------------------------------------------------------

PHOENIX = creature("Феникс", {"kind": "incarnation", "x": 2})


def battle(*cards: engine.CardSpec, active: str = "A") -> engine.GameState:
    gs = position(*cards, active=active)
    return _unstarted(gs)


def _unstarted(gs: engine.GameState) -> engine.GameState:
    import dataclasses

    return dataclasses.replace(gs, started=False)


def test_535_7_1_token_at_own_turn_start_and_incarnation_at_x() -> None:
    blockers = [spec(f"b{c}", ORC, "A", at=f"{c}1") for c in "abde"]
    gs = battle(spec("p", PHOENIX, "A", at="graveyard"), *blockers)
    one = act(gs, "start_turn")
    assert props(one.state, "p")["tokens"] == 1 and props(one.state, "p")["zone"] == "graveyard"
    assert "535.7.1" in one.clauses()
    two = act(_unstarted(one.state), "start_turn")
    p = props(two.state, "p")
    assert (p["zone"], p["cell"], p["closed"], p["hidden"], p["tokens"]) == ("battle", "c1", True, False, 0)
    assert p["incarnated"] is True and "535.7" in two.clauses()


def test_535_7_1_no_token_at_opponents_turn_start() -> None:
    gs = battle(spec("p", PHOENIX, "A", at="graveyard"), active="B")
    assert props(act(gs, "start_turn").state, "p")["tokens"] == 0


def test_535_7_several_free_cells_mean_a_choice() -> None:
    gs = battle(spec("p", PHOENIX, "A", at="graveyard", tokens=1))
    out = act(gs, "start_turn")
    assert out.pending is not None and out.pending.clause == "535.7"
    assert {o.key for o in out.pending.options} == {"a1", "b1", "c1", "d1", "e1"}
    done = run(gs, "start_turn", "e1")
    assert props(done.state, "p")["cell"] == "e1"


def test_535_7_2_waits_until_rules_allow_then_incarnates() -> None:
    blockers = [spec(f"b{c}", ORC, "A", at=f"{c}1") for c in "abcde"]
    gs = battle(spec("p", PHOENIX, "A", at="graveyard", tokens=1), *blockers)
    out = act(gs, "start_turn")
    assert props(out.state, "p")["zone"] == "graveyard" and props(out.state, "p")["tokens"] == 2
    assert "535.7.2" in out.clauses()
    freed = act(out.state, "destroy", card="bc")
    assert props(freed.state, "p")["cell"] == "c1" and props(freed.state, "p")["tokens"] == 0
    assert "effect" in kinds(freed, "535.7.2")


def test_535_7_3_once_per_battle_and_exiled_on_death_after_triggers() -> None:
    bomb = creature(
        "Мина",
        {"kind": "incarnation", "x": 1},
        {"kind": "on_death", "effect": "wound_adjacent_enemies", "amount": 1},
    )
    gs = battle(spec("p", bomb, "A", at="c3", incarnated=True), spec("foe", ORC, "B", at="c4"))
    out = act(gs, "destroy", card="p")
    assert props(out.state, "p")["zone"] == "exile"
    assert props(out.state, "foe")["wounds"] == 1
    steps = [s.clause for s in out.steps()]
    assert "535.7.3" in steps
    gy = battle(spec("p", PHOENIX, "A", at="graveyard", incarnated=True))
    again = act(gy, "start_turn")
    assert props(again.state, "p")["tokens"] == 0 and "not_applied" in kinds(again, "535.7.3")


def test_535_7_4_highest_x_applies() -> None:
    double = creature("Двойной", {"kind": "incarnation", "x": 1}, {"kind": "incarnation", "x": 3})
    gs = battle(spec("p", double, "A", at="graveyard"))
    out = act(gs, "start_turn")
    assert props(out.state, "p")["zone"] == "graveyard" and props(out.state, "p")["tokens"] == 1
    assert "535.7.4" in out.clauses()


def test_535_7_incarnation_blocked_by_535_9() -> None:
    gs = battle(
        spec(
            "p",
            creature(
                "Гордый", {"kind": "incarnation", "x": 1}, {"kind": "cannot_join_with", "cards": ["Вайл"]}
            ),
            "A",
            at="graveyard",
        ),
        spec("v", "Вайл", "A", at="c2"),
    )
    out = act(gs, "start_turn")
    assert props(out.state, "p")["zone"] == "graveyard" and "535.7.2" in out.clauses()


def test_tokens_only_in_graveyard_after_any_exit() -> None:
    gs = position(spec("p", PHOENIX, "A", at="graveyard", tokens=1))
    out = act(gs, "exile", card="p")
    assert props(out.state, "p")["tokens"] == 0


# ---- review: refusals cite what governs them; symbiote incarnation; host lock ------------


def test_recruit_refusals_cite_their_assumptions() -> None:
    gs = position(spec("o", ORC, "A", at="hand"), spec("p", ORC, "A", at="b2"), phase="recruit")
    no_cell = act(gs, "recruit", card="o")
    assert no_cell.verdict == "illegal" and no_cell.forbidden_by == ["A5"]
    taken = act(gs, "recruit", card="o", at="b2")
    assert taken.verdict == "illegal" and taken.forbidden_by == ["A4"]


def test_535_9_summon_refusal_names_a13_like_take_control() -> None:
    caller = creature("Зовущий одиночку", {"kind": "summon", "card": "Одиночка"})
    gs = position(
        spec("c", caller, "A", at="c2"), spec("x", LONER, "A", at="deck"), spec("v", "Вайл", "A", at="a1")
    )
    out = act(gs, "summon", by="c", card="x", cell="d3")
    assert out.forbidden_by == ["535.9"] and "A13" in out.clauses("assumption")


def test_host_under_karlik_und_cannot_declare_a_summon() -> None:
    gs = position(
        spec("c", CALLER, "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="c"),
        spec("o1", ORC, "B", at="deck"),
        active="B",
    )
    out = act(gs, "summon", by="c", card="o1", cell="c5")
    assert out.verdict == "illegal" and out.forbidden_by == ["A8"]
    assert any("может заявлять только нападение" in s.reason for s in out.steps())


SEED_TICK = creature(
    "Клещ-семя", {"kind": "incarnation", "x": 1, "places_on": "enemy_creature"}, subtype="parasite", life=3
)


def test_535_7_2_incarnating_symbiote_without_a_host_waits_then_asks_for_one() -> None:
    gs = battle(spec("t", SEED_TICK, "A", at="graveyard"), spec("o", ORC, "A", at="c2"))
    start = act(gs, "start_turn")
    assert props(start.state, "t")["zone"] == "graveyard" and props(start.state, "t")["tokens"] == 1
    waits = [s for s in start.steps() if s.clause == "535.7.2"]
    assert [s.kind for s in waits] == ["state_check"]
    # why it waits is cited, each clause its own step: no host at all (211.8), because Орк is the
    # player's own creature and the text puts the card on an enemy one (211.8 again)
    why = engine.render_trace(waits[0].children)
    assert "[211.8]" in why and "нет карты, на которую можно поместить" in why
    assert "«Орк» (o) — своё" in why
    assert not any("инкарнирует (" in s.reason for s in start.steps())
    # nothing about the waiting card on an unrelated action
    quiet = act(start.state, "wound", card="o", amount=1)
    assert not [c for c in quiet.clauses() if c.startswith("535.7")]
    # once an enemy creature is in play the rules stop being broken: the only host is taken by
    # itself (a choice of one is no choice), and the trace says so
    done = act(start.state, "lose_control", card="o")
    assert done.pending is None
    assert any(s.clause == "211.8" and "единственный вариант" in s.reason for s in done.steps())
    assert props(done.state, "t")["host"] == "o" and props(done.state, "t")["incarnated"] is True


def test_535_5_adjacent_to_a_summoner_in_the_auxiliary_zone_is_undetermined() -> None:
    # «рядом с картой, использующей вызов»: a flying summoner stands on no cell (A5); what is
    # «рядом» with it our text does not say — neither legal nor forbidden.
    flying_caller = creature("Летучий зазыватель", {"kind": "summon", "card": "Орк"}, subtype="flyer")
    gs = position(spec("c", flying_caller, "A", at="aux"), spec("o1", ORC, "A", at="deck"))
    out = act(gs, "summon", by="c", card="o1", cell="c2")
    assert out.verdict == "undetermined" and out.state is gs
    assert "535.5" in out.clauses("undetermined") and not out.forbidden_by
    # a flyer summoned by it needs no cell and goes to the auxiliary zone (535.4)
    gs2 = position(
        spec("c", flying_caller, "A", at="aux"), spec("o1", FLYER | {"name": "Орк"}, "A", at="deck")
    )
    ok = act(gs2, "summon", by="c", card="o1")
    assert ok.verdict == "legal" and props(ok.state, "o1")["zone"] == "aux"


def test_on_death_names_its_wounds_and_why_the_victims_stand_next_to_it() -> None:
    bomb = creature("Мина", {"kind": "on_death", "effect": "wound_adjacent_enemies", "amount": 1})
    gs = battle(
        spec("p", bomb, "A", at="c3"),
        spec("foe", ORC, "B", at="c4"),
        spec("und", "Карлик Унд", "B", host="p"),
    )
    out = act(gs, "destroy", card="p")
    assert props(out.state, "foe")["wounds"] == 1
    assert any("1 рану стоящим рядом врагам" in s.reason for s in out.steps())
    assert "allowed" in kinds(out, "211.9") and "A1" in out.clauses("assumption")


def test_535_5_1_2_a_symbiote_found_by_a_blind_search_fails_the_summon_and_goes_back() -> None:
    # The player did not pick the top card (535.5.1.1): the declaration was legal, but 211.8 does not
    # let this ability summon a symbiote, so the summon fails: back to the deck, then shuffled.
    gs = position(
        spec("c", TOP_CALLER, "A", at="c2"),
        spec("t", {"template": "Паразит", "name": "Клещ"}, "A", at="deck"),
        spec("o1", ORC, "A", at="deck"),
    )
    out = act(gs, "summon", by="c", cell="c3")
    assert out.verdict == "legal", out.trace
    assert props(out.state, "t")["zone"] == "deck" and sorted(out.state.deck("A")) == ["o1", "t"]
    assert "not_applied" in kinds(out, "211.8") and "535.5.1.3" in out.clauses()
    # naming the symbiote is different: the player chose it, so that declaration is illegal (211.8)
    named = creature("Зовущий клеща", {"kind": "summon", "card": "Клещ"})
    gs2 = position(
        spec("c", named, "A", at="c2"), spec("t", {"template": "Паразит", "name": "Клещ"}, "A", at="deck")
    )
    bad = act(gs2, "summon", by="c", card="t", cell="c3")
    assert bad.verdict == "illegal" and bad.forbidden_by == ["211.8"]


def test_a_chain_of_on_death_triggers_kills_every_card_once() -> None:
    # 15 hosts of A each carrying a parasite of B, all with «при гибели: 1 рана стоящим рядом врагам».
    # Destroying one sets off the whole chain. A dying card wounded back by its victim's trigger does
    # not die again (once the engine recursed without end here, and a depth cap hid it by
    # silently dropping wounds after 20 levels, leaving 22 of the 30 cards alive).
    bomb = creature("Мина", {"kind": "on_death", "effect": "wound_adjacent_enemies", "amount": 1}, life=1)
    tick = creature(
        "Клещ-мина",
        {"kind": "on_death", "effect": "wound_adjacent_enemies", "amount": 1},
        life=1,
        subtype="parasite",
    )
    cells = [f"{c}{r}" for r in (1, 2, 3) for c in "abcde"]
    cards = []
    for i, cell in enumerate(cells):
        cards += [spec(f"h{i}", bomb, "A", at=cell), spec(f"p{i}", tick, "B", host=f"h{i}")]
    out = act(battle(*cards), "destroy", card="h0")
    assert out.verdict == "legal"
    assert [c.id for c in out.state.cards.values() if c.in_play] == []
    assert any(s.kind == "not_applied" and "уже погибает" in s.reason for s in out.steps())
