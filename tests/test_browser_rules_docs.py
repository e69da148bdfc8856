"""A judge signs in on the «Правила» page and uploads a PDF of the rules in a real browser (Debian
chromium): search finds a clause only the PDF has, a reload keeps the version, and the permalink
opens the same version in another judge's browser. A player's upload of the same PDF opens in that
window alone: the address carries no stored version. Screenshots at 1280 and 390 px land in
tests/artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests import rules_docs
from tests.browser import DESKTOP, PHONE, SEARCH_HIT, SEARCH_LABEL, Visit, sign_in
from tests.rulings_samples import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def rules_pdf(chromium_executable: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "Правила РП 4.1-2.pdf"
    path.write_bytes(rules_docs.print_pdf(rules_docs.print_html_with_extra(), chromium_executable))
    return path


def upload(v: Visit, pdf: Path) -> None:
    """Say it is «Берсерк» rules and upload the PDF on the open «Правила» page."""
    page = v.page
    page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
    v.settle()  # its run drawn before the file is given (the uploader may be redrawn)
    page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(pdf))
    page.get_by_text("Загружены правила РП 4.1-2 от 09.11.2024: пунктов 45", exact=False).wait_for()


def open_rules(v: Visit, judge: str = "") -> None:
    """The «Правила» page in a new session; `judge` signs in through the page's own form."""
    v.page.goto(v.base + "/rules")
    v.heading("Правила")
    if judge:
        sign_in(v.page, "rules_signin", judge, PASSWORD, folded_in="rules_signin_box")


def upload_pdf(v: Visit, pdf: Path, judge: str) -> str:
    """A signed-in judge uploads on the «Правила» page; returns the stored version's id from the
    address."""
    open_rules(v, judge)
    upload(v, pdf)
    page = v.page
    page.wait_for_function("() => /^[0-9a-f]{16}$/.test(new URLSearchParams(location.search).get('v') || '')")
    vid = v.params()["v"]
    page.get_by_text("открыта у вас", exact=False).first.wait_for()
    page.get_by_text(pdf.name, exact=False).first.wait_for()
    page.get_by_text("PDF, страниц:", exact=False).first.wait_for()
    return vid


def test_upload_a_pdf_search_reload_and_follow_the_permalink(
    browser: Browser, app_server: str, rules_pdf: Path, judge: str, rules_store: Path
) -> None:
    # A player (nobody signed in) first: the upload opens in this window alone, nothing is stored,
    # so the address gets no `v=`; yet this window's search reads the PDF.
    stored_before = sorted(p.name for p in rules_store.iterdir())
    player = Visit(browser, DESKTOP, app_server)
    try:
        open_rules(player)
        upload(player, rules_pdf)
        said = player.page.get_by_text
        said("только в этом окне; сохранить на сервере может судья", exact=False).wait_for()
        said(f"загружены вами только в это окно: «{rules_pdf.name}»", exact=False).wait_for()
        assert "v" not in player.params(), player.page.url
        assert sorted(p.name for p in rules_store.iterdir()) == stored_before  # the server stored nothing
        player.shot("docs_upload_player_desktop")
        player.page.locator('[data-testid="stSidebarNav"] a', has_text="Поиск").click()
        player.heading("Поиск по правилам")
        box = player.page.get_by_label(SEARCH_LABEL)
        box.fill("гномий фонарь")
        box.press("Enter")
        player.wait_params(q="гномий фонарь")
        first = player.page.locator(SEARCH_HIT).first
        first.wait_for()
        assert re.search(r"^535\.10 · ", first.inner_text(), re.M), first.inner_text()
        # the search address names the upload by its label only: no stored version's id
        assert not re.fullmatch(r"[0-9a-f]{16}", player.params().get("v", "")), player.page.url
    finally:
        player.close()
    v = Visit(browser, DESKTOP, app_server)
    try:
        vid = upload_pdf(v, rules_pdf, judge)
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
        first = page.locator(SEARCH_HIT).first
        first.wait_for()
        assert re.search(r"^535\.10 · ", first.inner_text(), re.M), first.inner_text()
        # a reload is a new session: the address alone brings the version back
        page.reload()
        v.heading("Поиск по правилам")
        first = page.locator(SEARCH_HIT).first
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


def test_the_rules_page_on_a_phone(browser: Browser, app_server: str, rules_pdf: Path, judge: str) -> None:
    v = Visit(browser, PHONE, app_server)
    try:
        upload_pdf(v, rules_pdf, judge)
        v.fits_width()
        v.shot("docs_upload_phone")
        v.page.reload()
        v.heading("Правила")
        v.page.get_by_text("открыта у вас", exact=False).first.wait_for()
        v.page.get_by_text(rules_pdf.name, exact=False).first.wait_for()
    finally:
        v.close()
