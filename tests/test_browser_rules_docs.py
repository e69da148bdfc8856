"""A judge uploads a PDF of the rules on the «Правила» page in a real browser (Debian chromium):
search finds a clause only the PDF has, a reload keeps the version, and the permalink opens the
same version in another judge's browser. Screenshots at 1280 and 390 px land in tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import rules_docs
from tests.browser import DESKTOP, PHONE, SEARCH_LABEL, Visit

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def rules_pdf(chromium_executable: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "Правила РП 4.1-2.pdf"
    path.write_bytes(rules_docs.print_pdf(rules_docs.print_html_with_extra(), chromium_executable))
    return path


def upload_pdf(v: Visit, pdf: Path) -> str:
    """Upload on the «Правила» page; returns the stored version's id from the address."""
    page = v.page
    page.goto(v.base + "/rules")
    v.heading("Правила")
    page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(pdf))
    page.get_by_text("Загружены правила РП 4.1-2 от 09.11.2024: пунктов 45", exact=False).wait_for()
    page.wait_for_function("() => /^[0-9a-f]{16}$/.test(new URLSearchParams(location.search).get('v') || '')")
    vid = v.params()["v"]
    page.get_by_text("открыта у вас", exact=False).first.wait_for()
    page.get_by_text(pdf.name, exact=False).first.wait_for()
    page.get_by_text("PDF, страниц:", exact=False).first.wait_for()
    return vid


def test_upload_a_pdf_search_reload_and_follow_the_permalink(
    browser: object, app_server: str, rules_pdf: Path
) -> None:
    v = Visit(browser, DESKTOP, app_server)
    try:
        vid = upload_pdf(v, rules_pdf)
        v.fits_width()
        v.shot("docs_upload_desktop")
        page = v.page
        page.locator('[data-testid="stSidebarNav"] a', has_text="Поиск").click()
        v.heading("Поиск по правилам")
        box = page.get_by_label(SEARCH_LABEL)
        box.fill("гномий фонарь")
        box.press("Enter")
        v.wait_params(q="гномий фонарь")
        assert v.params().get("v") == vid  # the search address carries the version
        first = page.locator('.st-key-search_hits [data-testid="stPageLink"] a').first
        first.wait_for()
        assert re.search(r"^535\.10 · ", first.inner_text(), re.M), first.inner_text()
        # a reload is a new session: the address alone brings the version back
        page.reload()
        v.heading("Поиск по правилам")
        first = page.locator('.st-key-search_hits [data-testid="stPageLink"] a').first
        first.wait_for()
        assert re.search(r"^535\.10 · ", first.inner_text(), re.M), first.inner_text()
        first.click()
        v.heading("п. 535.10")
        v.wait_params(p="535.10")
        assert v.params().get("v") == vid
        page.get_by_text("гномий фонарь светит", exact=False).first.wait_for()
        page.get_by_text(f"Источник: {rules_pdf.name}, страница", exact=False).wait_for()
        v.shot("docs_clause_desktop")
        permalink = page.url
        v.assert_local_only()
    finally:
        v.close()
    # another judge opens the permalink: the same stored version, the same clause
    other = Visit(browser, PHONE, app_server)
    try:
        other.page.goto(permalink)
        other.heading("п. 535.10")
        other.page.get_by_text("гномий фонарь светит", exact=False).first.wait_for()
        other.fits_width()
        other.shot("docs_permalink_phone")
        # and a fresh window without the link still reads the embedded rules
        other.page.goto(other.base + "/?p=535.10")
        other.heading("п. 535.10")
        other.page.get_by_text("Не найдено", exact=False).wait_for()
    finally:
        other.close()


def test_the_rules_page_on_a_phone(browser: object, app_server: str, rules_pdf: Path) -> None:
    v = Visit(browser, PHONE, app_server)
    try:
        upload_pdf(v, rules_pdf)
        v.fits_width()
        v.shot("docs_upload_phone")
        v.page.reload()
        v.heading("Правила")
        v.page.get_by_text("открыта у вас", exact=False).first.wait_for()
        v.page.get_by_text(rules_pdf.name, exact=False).first.wait_for()
    finally:
        v.close()
