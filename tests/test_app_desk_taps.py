"""The desk's own components under AppTest: the field and the panel's rows of buttons
(app_pages/desk/board.py, app_pages/desk/taps.py) do what a judge's taps ask, open what is folded
only when asked, and never act on what a browser sends that no button of theirs would."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages import registry
from app_pages.desk import board, taps
from desk import edits, model
from tests.apptest import buttons, field, open_desk, open_fold, press, rows, send, tap, tap_card
from tests.browser import KARLIK

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def _vail_selected(at: AppTest) -> AppTest:
    at = press(at, "desk_restart")  # the set-up of the Карлик Унд example
    at = tap(at, "c4")
    assert at.session_state["desk_sel"] == "vail"
    return at


def test_wounds_are_how_many_and_what_kind_then_from_whom() -> None:
    at = _vail_selected(open_desk(scn=KARLIK))
    shown = buttons(at)
    assert shown["desk_q_wound_vail_n_1"]["pressed"] is True  # one wound unless changed
    assert shown["desk_q_wound_vail_kind_strike"]["pressed"] is True  # a strike unless changed
    at = press(at, "desk_q_wound_vail_n_3")
    at = press(at, "desk_q_wound_vail_kind_magic")
    shown = buttons(at)
    assert (
        shown["desk_q_wound_vail_n_3"]["pressed"] is True
        and shown["desk_q_wound_vail_n_1"]["pressed"] is False
    )
    assert shown["desk_q_wound_vail_kind_magic"]["pressed"] is True
    (orc,) = [i for i in rows(at)["desk_q_wound"]["items"] if i["text"].startswith("от Орк")]
    at = press(at, orc["id"])
    assert not at.exception
    (last,) = at.session_state["desk"].actions[-1:]
    assert last == {"wound": {"card": "vail", "amount": 3, "kind": "magic", "source": "orc"}}, last


def test_a_folded_part_of_the_panel_makes_its_buttons_only_once_opened() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["scn"] = KARLIK
    at.run()
    at.switch_page(registry.DESK.script).run()
    at = _vail_selected(at)
    more = rows(at)["desk_more"]
    assert more["fold"].startswith("Ещё действия (") and not more["open"] and more["rows"] == []
    at = open_fold(at, "desk_more")
    more = rows(at)["desk_more"]
    assert more["open"] and more["rows"], more
    inside = [item["id"] for row in more["rows"] for item in row.get("items", [])]
    assert inside and all(i in buttons(at) for i in inside)
    at = open_fold(at, "desk_more", open_=False)
    assert rows(at)["desk_more"]["rows"] == []


@pytest.mark.parametrize(
    "value",
    [
        "desk_no_such_button",
        "",
        7,
        None,
        ["desk_undo"],
        {"fold": "desk_nothing", "open": True},
        {"fold": "desk_more", "open": "да"},
        {"cell": "c4"},
    ],
)
def test_a_row_of_buttons_does_nothing_for_what_no_button_sends(value: object) -> None:
    at = _vail_selected(open_desk(scn=KARLIK))
    before = (at.session_state["desk"], at.session_state["desk_sel"], at.session_state["desk_more"])
    key = next(k for k in (e.key for e in at.get("bidi_component")) if k and k.startswith("desk_taps"))
    at = send(at, key, value)
    assert not at.exception
    assert (at.session_state["desk"], at.session_state["desk_sel"], at.session_state["desk_more"]) == before


@pytest.mark.parametrize(
    "value", ["c4", {"cell": "z9"}, {"cell": 4}, {"card": ""}, {"card": "nobody"}, [1], None]
)
def test_the_field_does_nothing_for_what_no_tile_sends(value: object) -> None:
    at = _vail_selected(open_desk(scn=KARLIK))
    desk = at.session_state["desk"]
    at = send(at, board.KEY, value)
    assert not at.exception
    assert at.session_state["desk"] == desk and at.session_state["desk_sel"] == "vail"  # as it was


def test_what_the_browser_sends_is_read_as_data() -> None:
    assert board.tapped({"cell": "c4"}) == ("cell", "c4")
    assert board.tapped({"card": "vail"}) == ("card", "vail")
    not_tiles: tuple[object, ...] = (
        "c4",
        {"cell": "z9"},
        {"cell": None},
        {"card": 3},
        {},
        None,
        [("cell", "c4")],
    )
    for bad in not_tiles:
        assert board.tapped(bad) is None, bad
    called: list[object] = []
    acts = {"desk_undo": (called.append, ("undo",))}
    assert taps.pressed("desk_undo", acts) and called == ["undo"]
    not_buttons: tuple[object, ...] = (
        "desk_redo",
        0,
        None,
        {"id": "desk_undo"},
        {"fold": "desk_more", "open": True},
    )
    for bad in not_buttons:
        assert not taps.pressed(bad, acts), bad  # a fold not drawn is not opened
    assert called == ["undo"]


def test_a_card_outside_the_field_is_shown_by_its_zone_and_selected_by_a_tap() -> None:
    at = open_desk()
    desk = model.Desk(phase="battle")
    for entry in (
        {"id": "vail", "card": "Вайл", "owner": "B", "at": "c4"},
        {"id": "und", "card": "Карлик Унд", "owner": "A", "at": "hand"},
    ):
        desk = edits.put_card(desk, entry)
    at.session_state["desk"] = desk
    at.run()
    sides = field(at)["zones"]["sides"]
    assert [s["player"] for s in sides] == ["A", "B"]
    (zone,) = sides[0]["zones"]
    assert zone["label"].endswith(": 1") and [c["id"] for c in zone["cards"]] == ["und"]
    assert "Карлик Унд" in zone["cards"][0]["text"] and not zone["cards"][0]["selected"]
    assert sides[1]["zones"] == [] and sides[1]["empty"]
    at = tap_card(at, "und")
    assert at.session_state["desk_sel"] == "und"
    (card,) = field(at)["zones"]["sides"][0]["zones"][0]["cards"]
    assert card["selected"] and card["text"].startswith("▶ ")


def test_tiles_share_a_tooltip_that_differs_only_by_their_cell_and_each_reads_its_own() -> None:
    tips: list[str] = []
    said = "Заявить движение: {0} — ✘ нельзя: допущение A7. Клетка {0} занята"
    tiles = [
        board._shared_tip({"cell": c, "head": c, "tip": f"{c}: " + said.format(c)}, tips)
        for c in ("a1", "b1")
    ]
    odd = board._shared_tip({"cell": "c1", "head": "c1", "name": "", "tip": "c1: {cell} как есть"}, tips)
    assert len(tips) == 1 and "name" not in odd  # one shared; empty lines are not sent
    shown = {"tips": tips}
    assert [board.tip_of(shown, t) for t in tiles] == [f"{c}: " + said.format(c) for c in ("a1", "b1")]
    assert board.tip_of(shown, odd) == "c1: {cell} как есть"  # a tooltip with the placeholder in it, as it is


def test_a_host_and_its_symbiote_switch_with_one_tap_on_the_pair() -> None:
    at = _vail_selected(open_desk(scn=KARLIK))
    pair = rows(at)["desk_pair"]
    assert pair["label"] == "Карта на клетке"
    assert [(i["text"], i["pressed"]) for i in pair["items"]] == [
        ("Вайл (хозяин)", True),
        ("Карлик Унд (симбиот)", False),
    ]
    at = press(at, pair["items"][1]["id"])
    symbiote = at.session_state["desk_sel"]
    assert symbiote != "vail" and any(m.value.startswith("**Выбрана: Карлик Унд") for m in at.markdown)
    assert [i["pressed"] for i in rows(at)["desk_pair"]["items"]] == [False, True]
    at = press(at, "desk_pair_vail")
    assert at.session_state["desk_sel"] == "vail"
