"""«Правила» in chromium: a second upload over a player's unsaved rules asks, then replaces them
(issue 20 item 2), at a laptop's width and a phone's; the question and its buttons are on screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.browser

FIRST = "900. Первый раздел.\n900.1. Пункт первой версии.\nРП 9.9 от 01.01.2030"
SECOND = "800. Другой раздел.\n800.1. Пункт второй версии.\n800.2. Ещё пункт.\nРП 8.8 от 01.01.2028"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_second_upload_asks_then_replaces_the_unsaved_first(
    browser: object, app_server: str, tmp_path: Path, viewport: dict[str, int]
) -> None:
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_text(FIRST, encoding="utf-8")
    second.write_text(SECOND, encoding="utf-8")
    v = Visit(browser, viewport, app_server)
    try:
        page = v.page
        page.goto(v.base + "/rules")
        v.heading("Правила")
        page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
        v.settle()  # its run drawn first: during it the old and the new uploader are both on the page
        box = page.locator('[data-testid="stFileUploader"] input[type="file"]')
        box.set_input_files(str(first))
        page.get_by_text("Загружены правила РП 9.9", exact=False).wait_for()
        v.settle()
        box.set_input_files(str(second))
        question = page.get_by_text("которых нет на сервере", exact=False)
        question.wait_for()
        v.settle()
        replace = page.get_by_role("button", name="Открыть новые")
        replace.scroll_into_view_if_needed()
        assert replace.is_visible() and page.get_by_role("button", name="Оставить прежние").is_visible()
        box_of = replace.bounding_box()
        assert box_of is not None and box_of["x"] + box_of["width"] <= viewport["width"]
        v.fits_width()
        v.shot("replace_question")
        replace.click()
        page.get_by_text("Загружены правила РП 8.8", exact=False).wait_for()
        v.settle()
        page.get_by_text("заменили прежние", exact=False).wait_for()
        # the first upload is no longer the window's rules (other tests' stored versions may be
        # listed on the page by name, so the check is on what this window has loaded)
        assert page.get_by_text("Загружены правила РП 9.9", exact=False).count() == 0
        v.shot("replaced")
    finally:
        v.close()
