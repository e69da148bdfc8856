"""Section 211 «Симбиоты»: one test per clause and per boundary the clause names."""

from __future__ import annotations

import pytest

import engine
from tests.engine_cases import (
    COMPANION,
    FLYER,
    GHOST,
    ORC,
    PARASITE,
    act,
    kinds,
    position,
    props,
    run,
    spec,
)

# ---- 211.1 / 211.2: the reveal subphase -------------------------------------------------


def reveal(*cards):  # type: ignore[no-untyped-def]
    return position(*cards, phase="reveal")


def test_211_1_companion_goes_on_own_creature() -> None:
    gs = reveal(spec("c", COMPANION, "A", at="a1"), spec("own", ORC, "A", at="b2"))
    out = act(gs, "place_symbiote", card="c", host="own")
    assert out.verdict == "legal"
    assert props(out.state, "c")["host"] == "own" and props(out.state, "c")["cell"] == "b2"
    assert "allowed" in kinds(out, "211.1")


def test_211_1_companion_not_on_enemy_creature() -> None:
    gs = reveal(spec("c", COMPANION, "A", at="a1"), spec("foe", ORC, "B", at="b4"))
    out = act(gs, "place_symbiote", card="c", host="foe")
    assert out.verdict == "illegal" and "211.1" in out.forbidden_by
    assert out.state is gs


def test_211_1_parasite_not_on_own_creature() -> None:
    gs = reveal(spec("p", PARASITE, "A", at="a1"), spec("own", ORC, "A", at="b3"))
    out = act(gs, "place_symbiote", card="p", host="own")
    assert out.verdict == "illegal" and "211.1" in out.forbidden_by


def test_211_2_parasite_on_enemy_first_row() -> None:
    gs = reveal(spec("p", PARASITE, "A", at="a1"), spec("foe", ORC, "B", at="c4"))
    out = act(gs, "place_symbiote", card="p", host="foe")
    assert out.verdict == "legal", out.trace
    assert props(out.state, "p")["host"] == "foe"
    # which row is «первый ряд» is assumption A4, and the trace says so
    assert "A4" in out.clauses("assumption")
    assert any("стоит на c4: в первом ряду игрока B" in s.reason for s in out.steps() if s.clause == "211.2")


def test_211_2_parasite_not_on_enemy_second_row() -> None:
    gs = reveal(spec("p", PARASITE, "A", at="a1"), spec("foe", ORC, "B", at="c5"))
    out = act(gs, "place_symbiote", card="p", host="foe")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.2"]


def test_211_2_parasite_on_enemy_standing_on_controllers_half() -> None:
    gs = reveal(spec("p", PARASITE, "A", at="a1"), spec("foe", ORC, "B", at="c2"))
    assert act(gs, "place_symbiote", card="p", host="foe").verdict == "legal"


def test_211_2_only_in_reveal_subphase() -> None:
    gs = position(spec("p", PARASITE, "A", at="a1"), spec("foe", ORC, "B", at="c4"), phase="placement")
    out = act(gs, "place_symbiote", card="p", host="foe")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.2"]


# ---- 211.3 / 211.3.1: change of host and of controller ------------------------------------


def test_211_3_new_host_and_old_host_released() -> None:
    gs = position(
        spec("s", "Сугед", "A", host="h1"), spec("h1", ORC, "A", at="b2"), spec("h2", "Вайл", "A", at="c3")
    )
    out = act(gs, "attach", card="s", host="h2")
    assert out.verdict == "legal", out.trace
    assert props(out.state, "s")["host"] == "h2" and props(out.state, "s")["cell"] == "c3"
    assert props(out.state, "h1")["symbiote"] is None
    assert "effect" in kinds(out, "211.3") and "effect" in kinds(out, "211.3.1")
    assert props(out.state, "s")["subtype"] == "companion"


def test_211_3_1_example_karlik_und_and_vail() -> None:
    gs = position(
        spec("vail", "Вайл", "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("orc", ORC, "B", at="d4"),
    )
    taken = act(gs, "take_control", card="vail", by="A")
    assert taken.verdict == "legal"
    assert {"535.8", "535.1.1", "211.3.1"} <= set(taken.clauses())
    und, vail = props(taken.state, "und"), props(taken.state, "vail")
    assert und["subtype"] == "parasite" and und["host"] == "vail" and und["controller"] == "A"
    assert vail["controller"] == "A" and vail["control_marker"] is True
    # Вайл still may declare nothing but an attack on Карлик Унд
    out = act(taken.state, "attack", attacker="vail", target="orc")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.3.1"]
    assert act(taken.state, "move", card="vail", to="c3").forbidden_by == ["211.3.1"]
    # Карлик Унд still takes wounds only from its host
    hit = act(taken.state, "wound", card="und", amount=2, source="orc")
    assert hit.verdict == "legal" and props(hit.state, "und")["wounds"] == 0
    assert "211.3.1" in hit.clauses()
    by_host = act(taken.state, "wound", card="und", amount=2, source="vail")
    assert props(by_host.state, "und")["wounds"] == 2


def test_host_lock_without_any_change_cites_card_text() -> None:
    gs = position(
        spec("vail", "Вайл", "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("orc", ORC, "A", at="d3"),
        active="B",
    )
    out = act(gs, "attack", attacker="vail", target="orc")
    assert out.verdict == "illegal" and out.forbidden_by == ["A8"]


# ---- 211.4 -----------------------------------------------------------------------------


def test_211_4_not_on_flyer_symbiote_or_artifact() -> None:
    gs = reveal(
        spec("p", PARASITE, "A", at="a1"),
        spec("fly", FLYER, "B", at="aux"),
        spec("sym", PARASITE, "B", at="c4"),
        spec("art", {"template": "Артефакт", "name": "Идол"}, "B", at="d4"),
    )
    for host in ("fly", "sym", "art"):
        out = act(gs, "place_symbiote", card="p", host=host)
        assert out.verdict == "illegal" and "211.4" in out.forbidden_by, host


def test_211_4_symbiote_dies_when_host_leaves_battle() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    for kind in ("destroy", "exile", "return_to_deck"):
        out = act(gs, kind, card="vail")
        assert out.verdict == "legal", kind
        assert props(out.state, "und")["zone"] == "graveyard", kind
        assert props(out.state, "und")["host"] is None
        assert "211.4" in out.clauses(), kind


def test_211_4_symbiote_dies_when_host_stops_being_ground() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    flyer = act(gs, "change_type", card="vail", subtype="flyer")
    assert props(flyer.state, "und")["zone"] == "graveyard" and props(flyer.state, "vail")["zone"] == "aux"
    artifact = act(gs, "change_type", card="vail", type="artifact")
    assert props(artifact.state, "und")["zone"] == "graveyard"
    assert "211.4" in artifact.clauses()


# ---- 211.5 -----------------------------------------------------------------------------


def test_211_5_corporeal_symbiote_not_on_incorporeal_host() -> None:
    gs = reveal(spec("p", PARASITE, "A", at="a1"), spec("g", GHOST, "B", at="c4"))
    out = act(gs, "place_symbiote", card="p", host="g")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.5"]


def test_211_5_symbiote_dies_when_host_becomes_incorporeal() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"))
    out = act(gs, "set_incorporeal", card="vail", value=True)
    assert out.verdict == "legal"
    assert props(out.state, "und")["zone"] == "graveyard" and "211.5" in out.clauses()


def test_211_5_cut_off_tail_is_undetermined() -> None:
    ghost_parasite = {"template": "Паразит", "name": "Дух", "incorporeal": True}
    gs = reveal(spec("p", ghost_parasite, "A", at="a1"), spec("foe", ORC, "B", at="c4"))
    out = act(gs, "place_symbiote", card="p", host="foe")
    assert out.verdict == "undetermined"
    assert any("Если бестелесный симбиот" in s.reason for s in out.steps() if s.clause == "211.5")


# ---- 211.6 -----------------------------------------------------------------------------


def test_211_6_one_symbiote_per_creature() -> None:
    gs = reveal(
        spec("p1", PARASITE, "A", at="a1"), spec("p2", PARASITE, "A", at="b1"), spec("foe", ORC, "B", at="c4")
    )
    first = act(gs, "place_symbiote", card="p1", host="foe")
    assert first.verdict == "legal"
    second = act(first.state, "place_symbiote", card="p2", host="foe")
    assert second.verdict == "illegal" and second.forbidden_by == ["211.6"]


# ---- 211.7 -----------------------------------------------------------------------------


def test_211_7_player_must_choose_a_host_and_the_rest_die() -> None:
    gs = reveal(
        spec("c", COMPANION, "A", at="a1", hidden=True),
        spec("own", ORC, "A", at="b2"),
        spec("own2", ORC, "A", at="c2"),
        spec("p", PARASITE, "B", at="e6", hidden=True),
    )
    out = act(gs, "end_reveal")
    assert out.pending is not None and out.pending.who == "A" and out.pending.clause == "211.7"
    assert {o.key for o in out.pending.options} == {"own", "own2"}
    assert props(out.state, "c")["host"] is None  # nothing happens until the choice
    done = run(gs, "end_reveal", "own2")
    assert props(done.state, "c")["host"] == "own2" and props(done.state, "c")["hidden"] is False
    # B's parasite has no enemy in A's first row nor on B's half: it dies
    assert props(done.state, "p")["zone"] == "graveyard"
    assert done.state.phase == "battle"
    assert "211.7" in done.clauses()


# ---- 211.8 / 211.8.1 ------------------------------------------------------------------


def summoner(places_on: str | None) -> dict[str, object]:
    ability: dict[str, object] = {"kind": "summon", "card": "Клещ"}
    if places_on:
        ability["places_on"] = places_on
    return {"name": "Призыватель", "type": "creature", "subtype": "ground", "life": 5, "abilities": [ability]}


def test_211_8_symbiote_summon_needs_placed_on_text() -> None:
    cards = [
        spec("sum", summoner(None), "A", at="c2"),
        spec("t", PARASITE, "A", at="deck"),
        spec("foe", ORC, "B", at="c4"),
    ]
    out = act(position(*cards), "summon", by="sum", card="t", host="foe")
    assert out.verdict == "illegal" and "211.8" in out.forbidden_by


def test_211_8_summoned_symbiote_gets_its_host() -> None:
    cards = [
        spec("sum", summoner("enemy_creature"), "A", at="c2"),
        spec("t", PARASITE, "A", at="deck"),
        spec("foe", ORC, "B", at="c4"),
    ]
    out = act(position(*cards), "summon", by="sum", card="t", host="foe")
    assert out.verdict == "legal", out.trace
    assert props(out.state, "t")["host"] == "foe"
    assert "211.8" in out.clauses()


def mnogo_with_suged(extra: list[object] | None = None):  # type: ignore[no-untyped-def]
    return position(
        spec("m", "Многоликий", "A", at="c2", borrowed="sug"),
        spec("sug", "Сугед", "B", at="exile", exiled_by="m"),
        spec("own", ORC, "A", at="c3"),
        *(extra or []),
    )


def test_211_8_1_example_mnogolikiy_with_suged_ability_is_illegal() -> None:
    out = act(mnogo_with_suged(), "attach", card="m", host="own")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.8.1"]


def test_211_8_1_example_mnogolikiy_as_parasite_is_legal() -> None:
    # Многоликий with Выкормыш слуа's ability becomes a parasite of its attacker ...
    gs = position(
        spec("m", "Многоликий", "A", at="c3", borrowed="slua"),
        spec("slua", "Выкормыш слуа", "B", at="exile", exiled_by="m"),
        spec("sug", "Сугед", "B", at="exile", exiled_by="m"),
        spec("foe", ORC, "B", at="c4"),
        spec("own", ORC, "A", at="b2"),
        active="B",
    )
    attacked = run(gs, "attack", "none", attacker="foe", target="m")  # blocked: no strike
    assert attacked.verdict == "legal"
    parasite = act(attacked.state, "attach", card="m", host="foe")
    assert parasite.verdict == "legal", parasite.trace
    assert props(parasite.state, "m")["subtype"] == "parasite" and props(parasite.state, "m")["host"] == "foe"
    assert "211.8.1" in parasite.clauses()
    # ... then takes Сугед's abilities and is placed on another creature of its squad.
    gs2 = parasite.state
    turn = run(gs2, "end_turn")
    turn = run(turn.state, "start_turn")  # A's turn: Многоликий keeps its subtype
    assert turn.verdict == "legal"
    nxt = run(run(turn.state, "end_turn").state, "start_turn", "sug")  # B's turn: takes Сугед's abilities
    assert props(nxt.state, "m")["subtype"] == "parasite"
    again = run(run(nxt.state, "end_turn").state, "start_turn")
    out = act(again.state, "attach", card="m", host="own")
    assert out.verdict == "legal", out.trace
    assert props(out.state, "m")["host"] == "own"
    assert "allowed" in kinds(out, "211.8.1")


def test_become_parasite_only_once_per_battle() -> None:
    raiser = {
        "name": "Некромант",
        "type": "creature",
        "subtype": "ground",
        "life": 5,
        "abilities": [{"kind": "resurrect"}],
    }
    gs = position(
        spec("slua", "Выкормыш слуа", "A", at="c3"),
        spec("foe", ORC, "B", at="c4"),
        spec("foe2", ORC, "B", at="b4"),
        spec("n", raiser, "A", at="a2"),
        active="B",
    )
    first = act(
        run(gs, "attack", "none", attacker="foe", target="slua").state, "attach", card="slua", host="foe"
    )
    assert first.verdict == "legal"
    freed = act(first.state, "destroy", card="foe")
    assert props(freed.state, "slua")["zone"] == "graveyard"  # 211.4: the host died, so did the parasite
    assert props(freed.state, "slua")["subtype"] == "ground"  # back to its printed card
    back = act(freed.state, "resurrect", by="n", card="slua", cell="b3")
    assert back.verdict == "legal", back.trace
    attacked = run(back.state, "attack", "none", attacker="foe2", target="slua")
    assert attacked.verdict == "legal"
    second = act(attacked.state, "attach", card="slua", host="foe2")
    assert second.verdict == "illegal" and "1 раз за бой" in second.steps()[0].reason


# ---- 211.9 / 211.10 / 211.11 -----------------------------------------------------------


def test_211_9_host_and_symbiote_may_attack_each_other_by_general_rules_not_checked() -> None:
    gs = position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail"), active="B")
    out = act(gs, "attack", attacker="vail", target="und")
    # the declaration is allowed (211.9), what «по общим правилам» needs is said as not checked,
    # and the number of wounds is the judge's: the text is silent on it
    assert out.verdict == "legal"
    assert kinds(out, "211.9") == {"allowed", "unchecked"}
    assert out.pending is not None and out.pending.judge and out.pending.clause == "211.9"
    struck = run(gs, "attack", "3", attacker="vail", target="und")
    assert props(struck.state, "und")["wounds"] == 3
    back = run(
        position(spec("vail", "Вайл", "B", at="c4"), spec("und", "Карлик Унд", "A", host="vail")),
        "attack",
        "none",
        attacker="und",
        target="vail",
    )
    assert back.verdict == "legal" and kinds(back, "211.9") >= {"allowed", "unchecked"}
    assert props(back.state, "vail")["wounds"] == 0


def test_an_attack_applies_what_the_text_decides_about_its_wounds() -> None:
    # Карлик Унд takes wounds only from its host: an attack by anyone else asks no number
    gs = position(
        spec("vail", "Вайл", "B", at="c4"),
        spec("und", "Карлик Унд", "A", host="vail"),
        spec("gnome", ORC, "B", at="c5"),
        active="B",
    )
    out = act(gs, "attack", attacker="gnome", target="und")
    assert out.verdict == "legal" and out.pending is None
    assert props(out.state, "und")["wounds"] == 0
    assert any(s.clause == "A8" and "только от хозяина" in s.reason for s in out.steps())
    # a number given with the action goes through the same pipeline
    given = act(gs, "attack", attacker="vail", target="und", wounds=2)
    assert given.pending is None and props(given.state, "und")["wounds"] == 2
    with pytest.raises(engine.ActionError, match="отрицательным"):
        engine.parse_action("attack", {"attacker": "vail", "target": "und", "wounds": -1})


def test_211_10_symbiote_cannot_declare_movement() -> None:
    gs = position(spec("s", "Сугед", "A", host="h"), spec("h", ORC, "A", at="c2"))
    out = act(gs, "move", card="s", to="c1")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.10"]


def test_211_11_host_carries_its_symbiote() -> None:
    gs = position(spec("s", "Сугед", "A", host="h"), spec("h", ORC, "A", at="c2"))
    out = act(gs, "move", card="h", to="c1")
    assert out.verdict == "legal"
    assert props(out.state, "s")["cell"] == "c1" and props(out.state, "h")["cell"] == "c1"
    assert "211.11" in out.clauses()
    moved = act(gs, "relocate", card="h", to="e1")
    assert props(moved.state, "s")["cell"] == "e1"


def test_211_11_symbiote_not_relocated_alone_unless_ability_says_so() -> None:
    gs = position(spec("s", "Сугед", "A", host="h"), spec("h", ORC, "A", at="c2"))
    out = act(gs, "relocate", card="s", to="a1")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.11"]
    ok = act(gs, "relocate", card="s", to="a1", symbiote_alone=True)
    assert props(ok.state, "s")["cell"] == "a1" and "allowed" in kinds(ok, "211.11")
    # then a symbiote stands hostless mid-battle: 211.7 speaks only of the end of the reveal subphase
    assert ok.verdict == "undetermined" and "211.7" in ok.clauses("undetermined")


def test_211_11_symbiote_restriction_limits_its_host() -> None:
    timid = {
        "template": "Компаньон",
        "name": "Трусишка",
        "abilities": [{"kind": "cannot_enter", "cells": ["c1"]}],
    }
    gs = position(spec("s", timid, "A", host="h"), spec("h", ORC, "A", at="c2"))
    out = act(gs, "move", card="h", to="c1")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.11"]
    assert act(gs, "move", card="h", to="b1").verdict == "legal"


def test_211_8_1_refusal_comes_before_the_timing_assumption() -> None:
    # In the opponent's turn too, Многоликий with Сугед's ability is refused by the rule, not by A12.
    gs = position(
        spec("m", "Многоликий", "A", at="c2", borrowed="sug"),
        spec("sug", "Сугед", "B", at="exile", exiled_by="m"),
        spec("own", ORC, "A", at="c3"),
        active="B",
    )
    out = act(gs, "attach", card="m", host="own")
    assert out.verdict == "illegal" and out.forbidden_by == ["211.8.1"]


def test_relocation_onto_an_occupied_cell_cites_one_card_per_cell() -> None:
    gs = position(spec("a", ORC, "A", at="c2"), spec("b", ORC, "A", at="c3"))
    out = act(gs, "relocate", card="a", to="c3")
    assert out.verdict == "illegal" and out.forbidden_by == ["A4"]


def test_211_4_host_turned_symbiote_is_undetermined_by_211_7() -> None:
    gs = position(spec("host", "Вайл", "A", at="c2"), spec("comp", "Сугед", "A", host="host"))
    out = act(gs, "change_type", card="host", subtype="parasite")
    assert props(out.state, "comp")["zone"] == "graveyard" and "effect" in kinds(out, "211.4")
    assert out.verdict == "undetermined" and out.clauses("undetermined") == ["211.7"]


def test_211_4_a_ground_creature_in_the_auxiliary_zone_is_not_forbidden_but_undetermined() -> None:
    # 211.4 asks only for a ground creature, and the auxiliary zone is part of the battle zone; but a
    # symbiote takes its host's cell (211.9) and this host has none: our text does not settle it.
    aux = {"template": "Существо во вспомогательной зоне", "name": "Дух"}
    gs = reveal(spec("c", COMPANION, "A", at="c2"), spec("h", aux, "A", at="aux"))
    out = act(gs, "place_symbiote", card="c", host="h")
    assert out.verdict == "undetermined" and out.state is gs
    assert not out.forbidden_by and "211.9" in out.clauses("undetermined")


def test_attach_with_an_unknown_card_names_it() -> None:
    gs = position(spec("h", ORC, "A", at="c2"))
    out = act(gs, "attach", card="ghost42", host="h")
    assert out.verdict == "illegal" and "card = ghost42" in out.trace[0].reason
