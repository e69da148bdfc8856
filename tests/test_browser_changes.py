"""«Что изменилось» in a real browser (Debian chromium via playwright): a judge uploads a FICTIONAL
next version (tests/fictional_rules.py), reads the changes, filters them, and opens both sides.

Screenshots land in tests/artifacts/ (ignored by git), and in $SHOTS_DIR when it is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright import sync_api as playwright_sync

from tests import fictional_rules as fr
from tests import helpers

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def browser(chromium_executable: str) -> Iterator[object]:
    with playwright_sync.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_executable, args=helpers.CHROMIUM_ARGS)
        yield b
        b.close()


def _settle(page: playwright_sync.Page) -> None:
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="detached")


def _shot(page: playwright_sync.Page, name: str, width: int) -> None:
    _settle(page)
    size = page.viewport_size or {"width": width, "height": 900}
    tall = page.evaluate(
        "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
        " return m ? m.scrollHeight : document.body.scrollHeight; }"
    )
    page.set_viewport_size({"width": size["width"], "height": max(int(tall), size["height"])})
    page.wait_for_timeout(300)
    folders = [ARTIFACTS] + ([Path(os.environ["SHOTS_DIR"])] if os.environ.get("SHOTS_DIR") else [])
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"changes_{name}_{width}.png"), full_page=True)
    page.set_viewport_size(size)


def _fits(page: playwright_sync.Page, width: int) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than a {width}px screen"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_upload_filter_and_open_both_sides(
    browser: object, app_server: str, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    context = browser.new_context(viewport=viewport, locale="ru-RU")  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(app_server + "/changes")
        page.get_by_role("heading", name="Что изменилось", exact=True).wait_for()
        dropzone = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
        if not page.locator('[data-testid="stFileUploaderDropzone"]').is_visible():
            # Other tests of the run may have stored shared versions: the upload box starts folded.
            page.get_by_text("Загрузить другую версию правил", exact=True).click()
        dropzone.set_input_files(
            files=[
                {"name": name, "mimeType": "text/plain", "buffer": text.encode("utf-8")}
                for name, text in fr.fictional_texts()
            ]
        )
        page.get_by_role("heading", name="Раздел 534", exact=True).wait_for()
        page.get_by_text("изменён: 3, перенумерован: 17", exact=False).wait_for()
        card = page.locator(".st-key-change_534-6")
        # The changed words read without colour: brackets and signs, struck through or bold.
        assert card.locator("del").first.inner_text() == "можно применять"
        assert "[−можно применять−]" in card.inner_text()
        assert card.locator("strong").filter(has_text="[+может быть применён и+]").count() == 1
        folded = page.locator('[data-testid="stExpander"] summary', has_text="Без изменений")
        assert folded.count() == 0
        _fits(page, width)
        _shot(page, "only_changes", width)

        page.get_by_text("Только изменения", exact=True).click()
        page.get_by_text("Без изменений: 13", exact=True).wait_for()
        _settle(page)
        _fits(page, width)
        _shot(page, "all", width)
        page.get_by_text("Только изменения", exact=True).click()
        page.get_by_text("Без изменений: 13", exact=True).wait_for(state="detached")

        # The old side: the built-in text of 534.6, in the same window.
        card.get_by_role("link", name="РП 4.1-2: п. 534.6").click()
        page.get_by_role("heading", name="п. 534.6", exact=True).wait_for()
        page.get_by_text("Эффект замещения можно применять к эффекту", exact=False).wait_for()
        page.get_by_text("В РП 9.9-1 — п. 534.6, текст изменён.", exact=False).wait_for()
        _fits(page, width)
        _shot(page, "old_side", width)

        page.go_back()
        page.get_by_role("heading", name="Раздел 534", exact=True).wait_for()
        page.locator(".st-key-change_534-6").get_by_role("link", name="РП 9.9-1: п. 534.6").click()
        page.get_by_role("heading", name="п. 534.6", exact=True).wait_for()
        page.get_by_text("Эффект замещения может быть применён и к эффекту", exact=False).wait_for()
        page.get_by_text("В РП 4.1-2 — п. 534.6, текст изменён.", exact=False).wait_for()
        _shot(page, "new_side", width)
    finally:
        context.close()
