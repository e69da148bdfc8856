"""What one action on «Стол судьи» redraws, read off Streamlit's websocket in a real browser.

An action reruns only the desk's fragment (the position line, the field, the selected card's panel
with the verdict and its trace): the run ends as a fragment run and sends nothing of the folded
parts beneath (the text, the files, the journal form, the loaded scenario's check), which stay on
the page as they were. While a part that follows the desk is open (the position text here), the
same action redraws the whole page instead, so that part never shows a position that is gone.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.browser import KARLIK, Wire, banner, close, desk_page, open_desk, settle, shot, tile, unfold

pytestmark = pytest.mark.browser

# Labels of parts drawn outside the fragment (each also names the test's negative control: a whole
# run sends every one of them).
OUTSIDE = (
    "Позиция текстом: прочитать или скопировать",
    "Сохранить и поделиться",
    "Записать решение в журнал",
    "Открыть пример из правил, сценарий или файл стола",
    "Все ожидания сценария выполняются",
)


def _karlik_with_vail_selected(pg: Any) -> None:
    open_desk(pg, f"?scn={KARLIK}")
    pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
    pg.locator(".st-key-desk_restart button:visible").first.click()  # «К началу»
    settle(pg)
    tile(pg, "c4").click()
    settle(pg)
    pg.get_by_text("Выбрана: Вайл", exact=False).first.wait_for()


def test_an_action_redraws_only_the_board_and_the_panel(browser: Browser, app_server: str) -> None:
    pg = desk_page(browser, app_server)
    wire = Wire(pg)
    try:
        at = wire.mark()
        _karlik_with_vail_selected(pg)
        _, whole = wire.since(at)
        assert all(label in whole for label in OUTSIDE), "a whole run sends the folded parts"

        at = wire.mark()
        pg.get_by_role("button", name="игрок A — ✔ можно", exact=True).click()  # take_control by A
        settle(pg)
        banner(pg, "Законно").wait_for()
        finished, sent = wire.since(at)
        assert finished == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY], finished
        assert "Законно" in sent and "⚑A" in sent  # the verdict, the tile
        assert [label for label in OUTSIDE if label in sent] == []
        # the parts outside were not redrawn, and they are still on the page
        for label in OUTSIDE:
            pg.get_by_text(label, exact=False).first.wait_for()
        assert "⚑A" in tile(pg, "c4").inner_text()
        shot(pg, "desk_fragment_action")

        # undo is an action too
        at = wire.mark()
        pg.locator(".st-key-desk_undo button:visible").first.click()
        settle(pg)
        finished, sent = wire.since(at)
        assert finished == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY], finished
        assert "⚑A" not in tile(pg, "c4").inner_text()
    finally:
        close(pg)


def test_an_open_part_that_follows_the_desk_is_never_stale(browser: Browser, app_server: str) -> None:
    pg = desk_page(browser, app_server)
    wire = Wire(pg)
    try:
        _karlik_with_vail_selected(pg)
        text = unfold(pg, "desk_text").locator("textarea")
        assert "контроль A" not in text.input_value()
        at = wire.mark()
        pg.get_by_role("button", name="игрок A — ✔ можно", exact=True).click()
        settle(pg)
        banner(pg, "Законно").wait_for()
        finished, _ = wire.since(at)
        assert ForwardMsg.FINISHED_SUCCESSFULLY in finished, finished  # the whole page, this time
        assert "B Вайл c4 контроль A" in text.input_value(), text.input_value()
    finally:
        close(pg)
