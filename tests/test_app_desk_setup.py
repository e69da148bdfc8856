"""Setting up a position on «Стол судьи» (AppTest): the card form a cell opens, its defaults, Enter,
typos, editing after placing, the position as text, asking before replacing work, tampered links,
the marks and the trace in words."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import casebook
from app_pages.desk import opening
from desk import edits, model, share
from rulings import store
from tests.apptest import buttons, form_key, open_desk, pick, place, plain, press, tap, targets, tile_lines

ROOT = Path(__file__).resolve().parent.parent
KARLIK = "scenarios/official/211.3.1_karlik_und.yaml"


@pytest.fixture(autouse=True)
def _journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.ENV_VAR, str(tmp_path / "rulings.sqlite3"))


def _cards(at: AppTest) -> tuple[dict[str, object], ...]:
    return tuple(dict(c) for c in at.session_state["desk"].cards)


def test_an_empty_desk_opens_on_the_set_up_and_a_cell_opens_its_form() -> None:
    at = open_desk()
    assert any("Щёлкните клетку поля, чтобы положить на неё карту" in i.value for i in at.info)
    assert not any(w.key and w.key.startswith("desk_new_") for w in at.text_input)  # no form until a click
    at = tap(at, "b5")
    key = form_key(at, "desk_new_")
    assert at.radio(key=f"{key}_owner").value == "B"  # b5 is on B's half
    assert at.selectbox(key=f"{key}_at").value == "b5"
    assert at.text_input(key=f"{key}_name").value == ""


def test_enter_never_places_a_card_only_the_button_does() -> None:
    at = open_desk()
    at = tap(at, "c4")
    key = form_key(at, "desk_new_")
    at = at.text_input(key=f"{key}_name").input("Вайл").run()  # Enter: the name commits, nothing more
    assert _cards(at) == ()
    assert any("Вайл: наземное существо" in plain(c.value) for c in at.caption)  # it says what it read
    at = at.text_input(key=f"{key}_name").input("").run()
    at = at.button(key=f"{key}_put").click().run()
    assert [e.value for e in at.error] == ["Укажите карту."] and _cards(at) == ()
    at.text_input(key=f"{key}_name").input("Вайл")
    at = at.button(key=f"{key}_put").click().run()
    assert _cards(at) == ({"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"},)


def test_defaults_come_from_where_the_card_goes_never_from_the_last_card() -> None:
    at = open_desk()
    at = place(at, "c5", "Вайл", owner="A")  # a card of A on B's half
    at = tap(at, "d5")
    key = form_key(at, "desk_new_")
    assert at.radio(key=f"{key}_owner").value == "B" and at.text_input(key=f"{key}_name").value == ""
    assert at.selectbox(key=f"{key}_at").value == "d5"
    at = tap(at, "b2")  # another form: fresh keys, A's half
    key2 = form_key(at, "desk_new_")
    assert key2 != key and at.radio(key=f"{key2}_owner").value == "A"


def test_a_symbiote_goes_on_its_host_and_a_parasite_belongs_to_the_hosts_opponent() -> None:
    at = open_desk()
    at = place(at, "c4", "Вайл")
    assert at.session_state["desk_sel"] == "vail"  # the new card is selected: its panel is open
    key = form_key(at, "desk_sym_")
    at = at.text_input(key=f"{key}_name").input("карлик унд").run()  # case does not matter
    owner = next(r for r in at.radio if r.key and r.key.startswith(f"{key}_owner"))
    assert owner.value == "A"  # a parasite on B's creature belongs to A
    at = at.button(key=f"{key}_put").click().run()
    assert _cards(at)[1] == {"id": "karlik_und", "card": "Карлик Унд", "owner": "A", "host": "vail"}
    assert [plain(s.value) for s in at.success] == ["«Карлик Унд» (игрок A) — на карте «Вайл»."]
    # A refusal reads with names and stays next to the form: a second symbiote on the same host.
    at = tap(at, "c4")  # the host again (no symbiote field now: it has one)
    assert not any(w.key and w.key.startswith("desk_sym_") for w in at.text_input)


def test_a_typo_gets_the_nearest_name_and_an_own_card_is_placed_only_when_asked() -> None:
    at = open_desk()
    at = tap(at, "c4")
    key = form_key(at, "desk_new_")
    at = at.text_input(key=f"{key}_name").input("Вайлл").run()
    assert any(plain(w.value) == "«Вайлл» нет в библиотеке карт. Похожие названия:" for w in at.warning)
    assert at.button(key=f"{key}_name_near_0").label == "Вайл"
    at = at.button(key=f"{key}_name_near_0").click().run()  # the nearest name, one click
    assert at.text_input(key=f"{key}_name").value == "Вайл"
    at = at.button(key=f"{key}_put").click().run()
    assert _cards(at)[0]["card"] == "Вайл"
    # An own card by the notation's syntax, typed in one go.
    at = place(at, "d4", "Орк (Наземное существо, жизнь 6)")
    assert _cards(at)[1] == {
        "id": "ork",
        "card": {"template": "Наземное существо", "name": "Орк", "life": 6},
        "owner": "B",
        "at": "d4",
    }


def test_owner_host_and_every_property_are_editable_after_placing() -> None:
    at = open_desk()
    at = place(at, "c4", "Вайл")
    at = place(at, "d4", "Вайл")
    at = place(at, "a2", "Карлик Унд", owner="A")  # a symbiote on a cell, to be moved onto a host
    key = "desk_edit_karlik_und_0"
    at.selectbox(key=f"{key}_at").set_value("host")
    at.selectbox(key=f"{key}_host").set_value("vail2")
    at = at.button(key=f"{key}_save").click().run()
    assert not at.exception
    assert _cards(at)[2] == {"id": "karlik_und", "card": "Карлик Унд", "owner": "A", "host": "vail2"}
    at = tap(at, "c4")
    key = "desk_edit_vail_0"
    at.radio(key=f"{key}_owner").set_value("A")
    at.radio(key=f"{key}_ctrl").set_value("B")
    at.number_input(key=f"{key}_wounds").set_value(3)
    at.button_group(key=f"{key}_flags").set_value(["closed", "hidden"])
    at = at.button(key=f"{key}_save").click().run()
    assert _cards(at)[0] == {
        "id": "vail",
        "card": "Вайл",
        "owner": "A",
        "at": "c4",
        "controller": "B",
        "closed": True,
        "hidden": True,
        "wounds": 3,
    }
    assert "закрыта" in tile_lines(at, "c4")[2]  # the state line
    # An illegal edit is refused in words next to the form; the desk stays as it was.
    at.selectbox(key=f"{key}_at").set_value("d4")
    at = at.button(key=f"{key}_save").click().run()
    assert any("клетка d4 уже занята картой «Вайл»" in plain(e.value) for e in at.error), [
        e.value for e in at.error
    ]
    assert _cards(at)[0]["at"] == "c4"


def test_the_position_as_text_is_read_and_written() -> None:
    at = open_desk()
    area = next(t for t in at.text_area if t.key and t.key.startswith("desk_text_"))
    area.input("B Вайл c4; A Карлик Унд на Вайлл Вайлл")
    at = at.button(key="desk_text_read").click().run()
    assert any(
        plain(e.value).startswith("Текст не прочитан, стол не изменился: знак 28, «Вайлл Вайлл»")
        for e in at.error
    )
    assert _cards(at) == ()
    area = next(t for t in at.text_area if t.key and t.key.startswith("desk_text_"))
    area.input("фаза вскрытие; B Вайл c4 раны 2; A Карлик Унд на Вайл")
    at = at.button(key="desk_text_read").click().run()
    assert at.session_state["desk"].phase == "reveal"
    assert [c["id"] for c in _cards(at)] == ["vail", "karlik_und"] and _cards(at)[0]["wounds"] == 2
    area = next(t for t in at.text_area if t.key and t.key.startswith("desk_text_"))
    assert area.value == "фаза вскрытие; B Вайл c4 раны 2; A Карлик Унд на Вайл"


def _with_work() -> AppTest:
    at = open_desk()
    return place(at, "e6", "Вайл")


def test_opening_onto_work_asks_first() -> None:
    at = _with_work()
    at.button_group(key="desk_official_pick").set_value(KARLIK).run()
    assert any(plain(m.value).startswith("На столе: карт 1, действий 0.") for m in at.markdown)
    at = at.button(key="desk_offer_no").click().run()
    assert _cards(at) == ({"id": "vail", "card": "Вайл", "owner": "B", "at": "e6"},)
    assert any(plain(i.value) == "Стол оставлен как был." for i in at.info)
    at.button_group(key="desk_official_pick").set_value(KARLIK).run()
    at = at.button(key="desk_offer_yes").click().run()
    assert at.session_state["desk"].scenario_name == KARLIK
    assert any(s.value.startswith("Загружен сценарий") for s in at.success)
    # «Новый пустой стол» over work asks too.
    at = at.button(key="desk_new").click().run()
    at = at.button(key="desk_offer_yes").click().run()
    assert _cards(at) == ()


def test_a_link_onto_work_asks_and_an_empty_desk_opens_it_at_once() -> None:
    desk = edits.put_card(
        model.Desk(title="по ссылке"), {"id": "v", "card": "Вайл", "owner": "A", "at": "a1"}
    )
    at = open_desk(desk=share.encode(desk))
    assert at.session_state["desk"] == desk and not any(b.key == "desk_offer_yes" for b in at.button)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"][1].__setitem__("host", ["v"]), "cards[1].host: нужен id карты"),
        (lambda d: d["cards"][0].__setitem__("borrowed", []), "cards[0].borrowed: нужен id карты"),
        (lambda d: d.__setitem__("cards", [[[[[[[[["deep"]]]]]]]]]), "cards[0]: карта записывается словарём"),
    ],
)
def test_a_tampered_link_gets_a_russian_message_not_a_traceback(mutate: object, message: str) -> None:
    from tests import desk_fuzz

    doc = desk_fuzz.base_desk()
    mutate(doc)  # type: ignore[operator]
    token = base64.urlsafe_b64encode(zlib.compress(json.dumps(doc).encode())).decode().rstrip("=")
    at = open_desk(desk=token)
    assert not at.exception
    errors = [plain(e.value) for e in at.error]
    assert any(
        e.startswith("Ссылка на стол не открылась, стол не изменился:") and message in e for e in errors
    ), errors


def test_marks_have_three_states_and_agree_with_applying() -> None:
    at = open_desk(scn=KARLIK)
    at = press(at, "desk_restart")
    at = press(at, "desk_redo")  # Вайл taken under control
    at = tap(at, "c4")
    labels = list(targets(at, "attack"))
    # 211.9 allows the host's attack on its symbiote (what it leaves to general rules is «не проверено»)
    assert labels == ["Карлик Унд (c4) — ✔ можно", "Орк (d4) — ✘ нельзя: п. 211.3.1"], labels
    at = pick(at, "attack", "Карлик Унд (c4)")
    assert any(w.value.startswith("**Законно**") for w in at.success)  # what the mark said
    # An assumption is never a clause: its mark reads «допущение A…», never «п. A…».
    everything = " ".join(b.label for b in at.button) + " ".join(m.value for m in at.markdown)
    everything += " ".join(b["text"] + " " + b.get("tip", "") for b in buttons(at).values())  # the panel's
    everything += " ".join(labels)  # the targets, read before the tap
    assert "п. A" not in plain(everything)


def test_the_trace_reads_as_the_explanation() -> None:
    at = open_desk(scn=KARLIK)
    # the parts for scenario authors, folded: the ids and YAML lines, the expectations in the file's keys
    authors = {
        t.value for key in ("desk_authors", "desk_expectations_authors") for t in at.get_by_key(key).text
    }
    texts = [t.value for t in at.text if t.value not in authors]  # the authors' part, folded, has the YAML
    shown = " ".join(texts + [plain(m.value) for m in at.markdown] + [plain(c.value) for c in at.caption])
    assert "служебный шаг" not in shown and "wound: {" not in shown
    assert "Нанести раны: кому — Карлик Унд; сколько — 2; источник — Вайл; вид — удар" in shown
    assert "[und]" not in shown and "(und)" not in shown and "(vail)" not in shown
    # The effect of the declared action itself (a step with no clause) says so.
    assert "**эффект** — действие «Нанести раны»" in plain(" ".join(m.value for m in at.markdown))


def test_the_desk_offers_only_the_scenarios_it_can_open() -> None:
    """A scenario on real cards (`card_base:`) is not offered: the desk plays with the window's base."""
    offered = opening.scenario_entries()
    assert offered and not any(e.card_base for e in offered)
    assert len(offered) == sum(not e.card_base for e in casebook.library_scenarios())
