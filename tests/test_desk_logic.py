"""The desk's logic without Streamlit: card entries from a form, the one card formatter, the rows of
the field, the action form's click and marks, and the package's own rules (no Streamlit, no state)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import desk
import engine
from casebook import wording
from desk import actions, edits, entries, model, view
from tests.desk_cases import ORC, UND, VAIL

ROOT = Path(__file__).resolve().parent.parent


def _desk() -> model.Desk:
    d = model.Desk()
    for entry in (VAIL, UND, ORC):
        d = edits.put_card(d, entry)
    return d


def _props(state: engine.GameState) -> dict[str, dict[str, object]]:
    return {cid: dict(engine.card_props(state, cid)) for cid in state.card_ids()}


def test_package_imports_without_streamlit_and_holds_no_mutable_state() -> None:
    code = "import sys; sys.modules['streamlit'] = None; import desk, desk.model; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    names = [f"desk.{m.name}" for m in pkgutil.iter_modules(desk.__path__)]
    assert {"desk.model", "desk.entries", "desk.view", "desk.actions", "desk.share"} <= set(names)
    for name in names:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if not attr.startswith("__"):
                assert not isinstance(value, list | dict | set | bytearray | types.SimpleNamespace), (
                    f"{name}.{attr}"
                )


@pytest.mark.parametrize(
    ("name", "wanted"),
    [("Карлик Унд", "karlik_und"), ("Вожак сатиров", "vozhak_satirov"), ("Ёж", "ezh"), ("Щит", "schit")],
)
def test_latin_ids_from_russian_names(name: str, wanted: str) -> None:
    assert entries.latin_id(name) == wanted


def test_a_new_entry_gets_a_free_id_a_place_or_a_host_and_only_non_default_keys() -> None:
    d = _desk()
    vail2 = entries.new_entry(
        d, "Вайл", "A", at="b2", controller="A", flags={"closed": False}, counts={"wounds": 0}
    )
    assert vail2 == {"id": "vail2", "card": "Вайл", "owner": "A", "at": "b2"}
    sym = entries.new_entry(d, "Карлик Унд", "A", host="orc", controller="B", flags={"hidden": True})
    assert sym == {
        "id": "karlik_und",
        "card": "Карлик Унд",
        "owner": "A",
        "host": "orc",
        "controller": "B",
        "hidden": True,
    }
    own = entries.adhoc_card("Паразит", "  Клещ ", 3, incorporeal=True)
    assert own == {"template": "Паразит", "name": "Клещ", "life": 3, "incorporeal": True}
    assert entries.new_entry(d, own, "B", at="hand")["id"] == "klesch"  # own cards get ids from names too
    with pytest.raises(model.DeskError, match="хозяина"):
        entries.new_entry(d, "Карлик Унд", "A", at=None, host=None)
    with pytest.raises(model.DeskError, match="название"):
        entries.adhoc_card("Паразит", "   ", 3)


def test_an_edited_entry_keeps_its_card_and_changes_what_was_edited() -> None:
    edited = entries.edited_entry(
        {**ORC, "wounds": 2, "closed": True},
        at="e5",
        controller="A",
        flags={"closed": False},
        counts={"wounds": 1},
    )
    assert edited == {
        "id": "orc",
        "card": ORC["card"],
        "owner": "B",
        "at": "e5",
        "controller": "A",
        "wounds": 1,
    }
    moved = entries.edited_entry(UND, at="b5")
    assert "host" not in moved and moved["at"] == "b5"


def test_one_formatter_names_a_card_the_same_way_everywhere_and_by_name() -> None:
    d = edits.with_action(_desk(), engine.parse_action("take_control", {"card": "vail", "by": "A"}))
    props = _props(model.replay(d).current)
    line = view.card_text(props["vail"])
    assert line.startswith("Вайл · наземное существо · владелец B · ⚑ маркер контроля: управляет A")
    assert "раны 0/" in line and "vail" not in line
    assert view.card_label(props, "orc") == "Орк (d4, владелец B)"
    assert view.card_label(props, "") == "—"
    assert view.on_cells(props) == {"c4": ["vail"], "d4": ["orc"]}  # the symbiote is drawn with its host


def test_names_for_people_keep_two_cards_of_one_name_apart_and_drop_ids() -> None:
    d = edits.put_card(
        _desk(),
        {"id": "orc2", "card": {"template": "Наземное существо", "name": "Орк"}, "owner": "A", "at": "b2"},
    )
    props = _props(model.replay(d).current)
    names = view.names(props)
    assert names["vail"] == "Вайл" and names["orc"] == "Орк (d4)" and names["orc2"] == "Орк (b2)"
    said = view.humane("«Вайл» (vail) не может напасть на «Орк» (orc2); источника und нет", names)
    assert said == "«Вайл» не может напасть на «Орк (b2)»; источника «Карлик Унд» нет"
    assert view.humane("клетка c4 занята", {"c4": "Клетка"}) == "клетка c4 занята"  # an id like a cell stays


def test_rows_are_named_by_the_engines_board() -> None:
    # A4: row 3 is A's first row, row 1 its third; row 4 is B's first, row 6 its third.
    assert view.row_label(3) == "ряд 3 — 1-й ряд игрока A"
    assert view.row_label(1) == "ряд 1 — 3-й ряд игрока A"
    assert view.row_label(4) == "ряд 4 — 1-й ряд игрока B"
    assert view.table_row_label(6) == "6 (B: 3-й ряд)"


def test_zones_beside_the_field_by_owner_and_controller() -> None:
    d = model.Desk()
    for entry in (
        {"id": "top", "card": "Вайл", "owner": "A", "at": "deck"},
        {"id": "next", "card": "Сугед", "owner": "A", "at": "deck"},
        {"id": "h", "card": "Вайл", "owner": "B", "at": "hand"},
    ):
        d = edits.put_card(d, entry)
    state = model.replay(d).current
    props = _props(state)
    assert view.side_zones(props, state, "A") == [("Колода (сверху вниз)", ["top", "next"])]
    assert view.side_zones(props, state, "B") == [("Рука", ["h"])]


def test_an_action_in_words_uses_the_judges_words() -> None:
    wound = engine.parse_action("wound", {"card": "und", "amount": 2, "source": "orc", "kind": "ranged"})
    assert (
        wording.action_words(wound)
        == "Нанести раны: кому — und; сколько — 2; источник — orc; вид — дальняя атака"
    )
    back = engine.parse_action("return_to_deck", {"card": "und", "position": "bottom"})
    assert wording.action_words(back).endswith("под низ колоды")


def test_a_click_fills_the_cell_argument_or_the_next_empty_card() -> None:
    props = _props(model.replay(_desk()).current)
    specs = engine.ACTION_SPECS
    assert actions.click_fill(specs["move"], props, "c3", {}) == ("to", "c3")
    assert actions.click_fill(specs["attack"], props, "d4", {}) == ("attacker", "orc")
    assert actions.click_fill(specs["attack"], props, "d4", {"attacker": "vail"}) == ("target", "orc")
    assert actions.click_fill(specs["attack"], props, "a1", {}) is None  # nobody stands there
    # the symbiote shares its host's cell; a click on the cell means the card standing there
    assert actions.click_fill(specs["destroy"], props, "c4", {}) == ("card", "vail")


def test_marks_say_what_applying_gives_with_the_citation() -> None:
    d = edits.with_action(_desk(), engine.parse_action("take_control", {"card": "vail", "by": "A"}))
    state = model.replay(d).current
    verdicts = actions.legal_map(state, "attack", {"attacker": "vail"})
    marks = actions.hints(verdicts, "target")
    assert marks["orc"][0] == "illegal" and marks["orc"][1].startswith("п. 211.3.1")
    # the text allows the attack (211.3.1, 211.9) and says what it could not check
    assert marks["und"][0] == "legal" and "не проверено: атака идёт «по общим правилам»" in marks["und"][1]
    cells = actions.card_cell_marks(_props(state), marks)
    assert cells["d4"][0] == "illegal" and cells["d4"][1].startswith("Орк (d4, владелец B): п. 211.3.1")
    assert view.verdict_counts(verdicts) == "Движок проверил вариантов: 2: ✔ можно — 1, ✘ нельзя — 1."
    assert actions.legal_map(state, "no_such_kind", {}) == []


def test_form_values_become_action_arguments() -> None:
    types_ = (("card", "card"), ("amount", "int"), ("source", "card"), ("cells", "cells"))
    values = {"card": "und", "amount": 2.0, "source": "", "cells": ("a1", "a2")}
    assert actions.args_from_values(types_, values) == {"card": "und", "amount": 2, "cells": ["a1", "a2"]}
    assert "choose" not in actions.kinds() and "attack" in actions.kinds()
    label = actions.arg_label(engine.ACTION_SPECS["recruit"].arg("at"))  # type: ignore[arg-type]
    assert label == "клетка или вспомогательная зона (необязательно)"


def test_header_edits_only_before_the_actions() -> None:
    d = edits.set_header(model.Desk(), "phase", "reveal")
    assert d.phase == "reveal" and edits.set_header(d, "turn", 3.0).turn == 3
    assert edits.set_header(d, "seed", "x") == d and edits.set_header(d, "nope", 1) == d
    started = edits.with_action(_desk(), engine.parse_action("end_turn", {}))
    assert edits.set_header(started, "phase", "recruit") == started
