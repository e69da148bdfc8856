"""What one action on «Стол судьи» redraws, read off Streamlit's websocket in a real browser.

An action reruns only the desk's fragment (the position line, the field, the selected card's panel
with the verdict and its trace): the run ends as a fragment run and sends nothing of the folded
parts beneath (the text, the files, the journal form, the loaded scenario's check), which stay on
the page as they were. While a part that follows the desk is open (the position text here), the
same action redraws the whole page instead, so that part never shows a position that is gone.
So does an action after the window's rules changed under it (here: another judge made a new version
the default, and this window follows the default), as a search does: the trace then cites the new
rules, and nothing drawn outside names the old. A window whose address named a version keeps it.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

import rules_index
from rules_index import versions
from tests import fictional_rules as fr
from tests.browser import (
    KARLIK,
    Wire,
    banner,
    close,
    desk_page,
    open_desk,
    params,
    settle,
    shot,
    tile,
    unfold,
    wait_params,
)

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


def _karlik_with_vail_selected(pg: Any, query: str = "") -> None:
    open_desk(pg, f"?scn={KARLIK}{query}")
    pg.get_by_text("Загружен сценарий", exact=False).first.wait_for()
    pg.locator("button[data-id='desk_restart']").click()  # «К началу»
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
        pg.locator("button[data-id='desk_undo']").click()
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


def _take_control(pg: Any, wire: Wire) -> tuple[list[int], str]:
    """A's «взять под контроль» on the selected Вайл; what the run finished as and what it sent."""
    at = wire.mark()
    pg.get_by_role("button", name="игрок A — ✔ можно", exact=True).click()
    settle(pg)
    banner(pg, "Законно").wait_for()
    return wire.since(at)


@pytest.mark.parametrize("case", ["follows_the_default", "names_its_version", "its_version_removed"])
def test_an_action_after_the_rules_changed_reads_them_as_a_whole_run_would(
    browser: Browser, app_server: str, index: rules_index.RulesIndex, case: str
) -> None:
    built_in = index.version_label
    assert built_in
    shop = versions.default_store()
    files = fr.as_files(fr.fictional_texts())
    pg = desk_page(browser, app_server)
    wire = Wire(pg)
    vid = ""
    try:
        if case == "its_version_removed":
            # a window opened by a link naming another version, which another judge then removes
            vid = shop.save(files, rules_index.load_texts(files, berserk=True), berserk=True).id
            _karlik_with_vail_selected(pg, f"&v={vid}")
            wait_params(pg, v=vid)
            versions.remove_version(shop, vid)
        else:
            # a window following the default (no version named), or one opened by a link naming the
            # built-in rules; then another judge, in another window, makes a new version the default
            _karlik_with_vail_selected(pg, f"&v={built_in}" if case == "names_its_version" else "")
            assert "v" not in params(pg), params(pg)  # the built-in is the default: the address names none
            vid = shop.save(files, rules_index.load_texts(files, berserk=True), berserk=True).id
            versions.publish_version(shop, vid, make_default=True)

        finished, _ = _take_control(pg, wire)
        verdict = banner(pg, "Законно").inner_text()
        if case == "names_its_version":
            # the window keeps the rules its link named: a desk action as ever, on the same rules,
            # and the address now names them (they are no longer the default)
            assert finished == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY], finished
            assert "п. 535.8:" in verdict, verdict
            wait_params(pg, v=built_in)
        elif case == "follows_the_default":
            # the whole page, this time: the verdict cites the new default's numbering (its 535 is
            # renumbered), as the page outside it now does
            assert ForwardMsg.FINISHED_SUCCESSFULLY in finished, finished
            assert f"п. 535.9 (в {built_in} — 535.8):" in verdict, verdict
            assert "v" not in params(pg), params(pg)  # the default: the address names none
        else:
            # the whole page: back on the default (the built-in rules) and their numbering
            assert ForwardMsg.FINISHED_SUCCESSFULLY in finished, finished
            assert "п. 535.8:" in verdict, verdict
            assert "v" not in params(pg), params(pg)
        assert "⚑A" in tile(pg, "c4").inner_text()
    finally:
        close(pg)
        versions.publish_version(shop, versions.BUILTIN, make_default=True)
        if vid and shop.get(vid) is not None:
            versions.remove_version(shop, vid)
