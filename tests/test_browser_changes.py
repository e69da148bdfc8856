"""«Что изменилось» in a real browser (Debian chromium via playwright): a judge signs in, uploads a
FICTIONAL next version (tests/fictional_rules.py; stored on the server), reads the changes, filters
them, and opens both sides.

Screenshots land in tests/artifacts/ (ignored by git), and in $SHOTS_DIR when it is set.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, FilePayload

from tests import fictional_rules as fr
from tests.browser import DESKTOP, PHONE, close, fits_width, nav, new_page, settle, shot, sign_in
from tests.rulings_samples import PASSWORD

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_upload_filter_and_open_both_sides(
    browser: Browser, app_server: str, viewport: dict[str, int], judge: str
) -> None:
    page = new_page(browser, viewport)
    try:
        # The judge signs in on «Правила» («Что изменилось» has no sign-in of its own) and goes on
        # through the menu: the sign-in lives in this tab's session.
        page.goto(app_server + "/rules")
        page.get_by_role("heading", name="Правила", exact=True).wait_for()
        sign_in(page, "rules_signin", judge, PASSWORD, folded_in="rules_signin_box")
        nav(page, "Что изменилось")
        page.get_by_role("heading", name="Что изменилось", exact=True).wait_for()
        dropzone = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
        if not page.locator('[data-testid="stFileUploaderDropzone"]').is_visible():
            # Other tests of the run may have stored shared versions: the upload box starts folded.
            page.get_by_text("Загрузить другую версию правил", exact=True).click()
            settle(page)
        dropzone.set_input_files(
            files=[
                FilePayload(name=name, mimeType="text/plain", buffer=text.encode("utf-8"))
                for name, text in fr.fictional_texts()
            ]
        )
        page.get_by_role("heading", name="Раздел 534", exact=True).wait_for()
        page.get_by_text("изменён: 3, перенумерован: 17", exact=False).wait_for()
        card = page.locator(".st-key-change_534-6")
        # the judge's upload is stored: the «Стало» side's links name it by its id on the server
        page.get_by_text("Они сохранены на сервере", exact=False).wait_for()
        new_side = card.get_by_role("link", name="РП 9.9-1: п. 534.6").get_attribute("href") or ""
        assert re.search(r"[?&]v=[0-9a-f]{16}(&|$)", new_side), new_side
        # The changed words read without colour: brackets and signs, struck through or bold.
        assert card.locator("del").first.inner_text() == "можно применять"
        assert "[−можно применять−]" in card.inner_text()
        assert card.locator("strong").filter(has_text="может быть применён и").count() == 1
        assert "[+может быть применён и+]" in card.inner_text()
        # no Markdown left as text anywhere in the changes (inserted words inside a word included)
        shown = page.locator('[data-testid="stMain"]').inner_text()
        assert "**" not in shown and "~~" not in shown and "\\" not in shown
        folded = page.locator('[data-testid="stExpander"] summary', has_text="Без изменений")
        assert folded.count() == 0
        fits_width(page)
        shot(page, "changes_only_changes")

        page.get_by_text("Только изменения", exact=True).click()
        page.get_by_text("Без изменений: 13", exact=True).wait_for()
        settle(page)
        fits_width(page)
        shot(page, "changes_all")
        page.get_by_text("Только изменения", exact=True).click()
        page.get_by_text("Без изменений: 13", exact=True).wait_for(state="detached")

        # The old side: the built-in text of 534.6, in the same window.
        card.get_by_role("link", name="РП 4.1-2: п. 534.6").click()
        page.get_by_role("heading", name="п. 534.6", exact=True).wait_for()
        page.get_by_text("Эффект замещения можно применять к эффекту", exact=False).wait_for()
        page.get_by_text("В РП 9.9-1 — п. 534.6, текст изменён.", exact=False).wait_for()
        fits_width(page)
        shot(page, "changes_old_side")

        page.go_back()
        page.get_by_role("heading", name="Раздел 534", exact=True).wait_for()
        page.locator(".st-key-change_534-6").get_by_role("link", name="РП 9.9-1: п. 534.6").click()
        page.get_by_role("heading", name="п. 534.6", exact=True).wait_for()
        page.get_by_text("Эффект замещения может быть применён и к эффекту", exact=False).wait_for()
        page.get_by_text("В РП 4.1-2 — п. 534.6, текст изменён.", exact=False).wait_for()
        shot(page, "changes_new_side")
    finally:
        close(page)
