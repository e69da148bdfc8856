"""«Карты» in a real browser (Debian chromium via playwright), as a judge uses it: sign in on the
page, load a card base (stored on the server), find a card with a typo, open its page, follow
«Поставить на стол».

The app runs with its own card store (BERSERK_CARDS_DIR in a temporary folder) and journal (one
judge's account), so nothing lands in data/. Screenshots at 1280 and 390 px go to tests/artifacts/
for a human to review.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import cardbase
from cardbase import importer, store
from tests import cardbase_cases as cases
from tests import helpers
from tests.browser import (
    _QUIET,
    DESKTOP,
    PHONE,
    QUIET_MS,
    assert_local_only,
    close,
    fits_width,
    new_page,
    params,
    record_requests,
    settle,
    shot,
    sign_in,
    unfold,
)
from tests.rulings_samples import PASSWORD, journal_with_judge

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
JUDGE = "Сидорова"


@pytest.fixture(scope="module")
def cards_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("cards")
    old = {k: os.environ.get(k) for k in (store.ENV_VAR, "BERSERK_JOURNAL")}
    os.environ[store.ENV_VAR] = str(folder / "store")
    os.environ["BERSERK_JOURNAL"] = str(folder / "journal.sqlite3")
    journal_with_judge(folder / "journal.sqlite3", JUDGE)  # the cheap hash: its cost is in the hash
    try:
        with helpers.running_app(ROOT) as url:
            yield url
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_import_find_with_a_typo_open_and_put_on_the_desk(
    browser: Browser, cards_app: str, viewport: dict[str, int]
) -> None:
    pg = new_page(browser, viewport)
    requests = record_requests(pg)
    try:
        pg.goto(cards_app + "/cards")
        pg.get_by_role("heading", name="Карты", exact=True).first.wait_for()
        settle(pg)
        shot(pg, "cards_empty")
        # storing a base on the server is a judge's act: sign in under «Для судей» on this page
        sign_in(pg, "cards_signin", JUDGE, PASSWORD, folded_in="cards_manage")
        files = [(cases.BASE_JSON.name, cases.BASE_JSON.read_bytes())]
        stored_before = store.default_store().get(importer.base_id(files)) is not None
        uploader = pg.locator('[data-testid="stFileUploader"]').filter(has_text="Файл базы карт")
        uploader.locator('input[type="file"]').set_input_files(str(cases.BASE_JSON))
        # the first viewport stores it; the second finds the same files on the server already
        said = "Эта база уже есть на сервере" if stored_before else "База сохранена на сервере"
        pg.get_by_text(said, exact=False).wait_for()
        assert store.default_store().get(importer.base_id(files)) is not None
        pg.get_by_text("База карт: «base.json» (карт: 26", exact=False).wait_for()
        fits_width(pg)
        shot(pg, "cards_imported")

        box = pg.get_by_label("Название карты")
        box.fill("паладн")
        box.press("Enter")
        first = pg.locator(".st-key-cards_hits a.head").first
        first.wait_for()
        assert "Светлый паладин" in first.inner_text(), first.inner_text()
        pg.get_by_text("найдено: похожее написание", exact=False).first.wait_for()
        settle(pg)
        fits_width(pg)
        shot(pg, "cards_search")

        first.click()
        pg.get_by_role("heading", name="Светлый паладин").first.wait_for()
        pg.wait_for_function("() => new URLSearchParams(location.search).get('card') === '90008'")
        # a link another judge can open: the base is the one imported (no constants file here)
        assert params(pg)["base"] == cardbase.import_base(cases.BASE_JSON.read_bytes(), "base.json").id
        pg.get_by_text("вызов: берёт карту из колоды в зону битвы", exact=False).first.wait_for()
        pg.get_by_text("Правила для карт этого вида", exact=True).wait_for()
        pg.get_by_role("link", name=re.compile(r"п\. 535\.5$")).first.wait_for()
        settle(pg)
        fits_width(pg)
        shot(pg, "cards_card")

        put = pg.get_by_role("link", name=re.compile("Поставить на стол"))
        href = put.get_attribute("href") or ""
        assert href.startswith(("desk?", "/desk?")) and "put=" in href, href
        put.click()
        pg.wait_for_function("() => location.pathname.endsWith('/desk')")
        # one tap: the card stands on the free middle of A's first row, selected, and the desk says so
        pg.get_by_text("«Светлый паладин» — на свободную клетку c3", exact=False).wait_for()
        pg.get_by_text("Выбрана: Светлый паладин", exact=False).wait_for()
        pg.get_by_text("Текст карты и что моделирует движок", exact=True).wait_for()
        # the address now names the desk (a shared link opens it), not the card request
        pg.wait_for_function("() => new URLSearchParams(location.search).has('desk')")
        assert "put" not in params(pg)
        fits_width(pg)
        shot(pg, "cards_desk_placed")
        assert_local_only(requests)
    finally:
        close(pg)


@pytest.mark.parametrize("viewport", [PHONE], ids=["phone390"])
def test_a_file_with_a_bad_record_waits_for_the_judge(
    browser: Browser, cards_app: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    recs = cases.records()
    recs[2]["type"] = 7
    bad = tmp_path / "with_error.json"
    bad.write_bytes(cases.dump(recs))
    pg = new_page(browser, viewport)
    try:
        pg.goto(cards_app + "/cards")
        pg.get_by_role("heading", name="Карты", exact=True).first.wait_for()
        settle(pg)
        # a new window opens the server's default base, the embedded library: the upload is unfolded
        pg.get_by_text("Файл базы карт", exact=False).first.wait_for()
        uploader = pg.locator('[data-testid="stFileUploader"]').filter(has_text="Файл базы карт")
        uploader.locator('input[type="file"]').set_input_files(str(bad))
        pg.get_by_text("База пока не загружена", exact=False).wait_for()
        pg.get_by_text(
            "запись 3 (id 90003, «Лесной спутник»): неизвестный код типа «7»", exact=False
        ).wait_for()
        accept = pg.get_by_role("button", name=re.compile(r"Загрузить без записей с ошибками \(1\)"))
        accept.wait_for()
        fits_width(pg)
        shot(pg, "cards_skipped")
        accept.click()
        pg.get_by_text("База карт: «with_error.json» (карт: 25", exact=False).wait_for()
    finally:
        close(pg)


def _upload(pg: Any, *paths: Path) -> None:
    uploader = pg.locator('[data-testid="stFileUploader"]').filter(has_text="Файл базы карт")
    uploader.locator('input[type="file"]').set_input_files([str(p) for p in paths])
    settle(pg)


@pytest.mark.parametrize("order", ["base_then_codes", "codes_then_base", "together"])
def test_a_base_and_its_codes_file_in_either_order_or_together(
    browser: Browser, cards_app: str, order: str
) -> None:
    """The report reads the set names from const.json whichever file the judge picks first (the
    base alone knows only «выпуск 90»)."""
    pg = new_page(browser, DESKTOP)
    try:
        pg.goto(cards_app + "/cards")
        pg.get_by_role("heading", name="Карты", exact=True).first.wait_for()
        settle(pg)
        if not pg.get_by_text("Файл базы карт", exact=False).first.is_visible():
            pg.get_by_text("Загрузить базу карт", exact=True).click()  # a base is open: unfold the upload
            settle(pg)
        if order == "together":
            _upload(pg, cases.BASE_JSON, cases.CONST_JSON)
        else:
            first, second = (
                (cases.BASE_JSON, cases.CONST_JSON)
                if order == "base_then_codes"
                else (cases.CONST_JSON, cases.BASE_JSON)
            )
            _upload(pg, first)
            if first == cases.CONST_JSON:
                pg.get_by_text("Файл кодов «const.json» получен: выберите файл базы", exact=False).wait_for()
            _upload(pg, second)
        pg.get_by_text("Коды — из «const.json»", exact=False).first.wait_for()
        pg.get_by_text("«Пробный выпуск» — 24", exact=False).first.wait_for()
        assert pg.get_by_text("выпуск 90", exact=False).count() == 0
        shot(pg, f"cards_codes_{order}")
    finally:
        close(pg)


def test_a_flying_card_of_a_base_goes_on_the_desk_in_one_tap(browser: Browser, cards_app: str) -> None:
    """«Поставить на стол» on a flyer's page: one tap, and it stands in the auxiliary zone (535.4),
    said in the judge's words, never the scenario format's «at: aux»."""
    pg = new_page(browser, PHONE)
    try:
        base = cardbase.import_base(
            cases.BASE_JSON.read_bytes(),
            "base.json",
            constants=(cases.CONST_JSON.name, cases.CONST_JSON.read_bytes()),
        )
        files = [
            (cases.BASE_JSON.name, cases.BASE_JSON.read_bytes()),
            (cases.CONST_JSON.name, cases.CONST_JSON.read_bytes()),
        ]
        stored = store.default_store().get(importer.base_id(files)) or store.default_store().save(base, files)
        pg.goto(cards_app + f"/cards?card=90014&base={stored.id}")  # Призрачный сокол, a flyer
        pg.get_by_role("heading", name="Призрачный сокол").first.wait_for()
        settle(pg)
        pg.get_by_role("link", name=re.compile("Поставить на стол")).click()  # the one tap
        pg.wait_for_function("() => location.pathname.endsWith('/desk')")
        message = pg.get_by_text("летающее существо ставится во вспомогательную зону (п. 535.4", exact=False)
        message.first.wait_for()
        settle(pg)
        zone = pg.locator(".st-key-desk_board .desk-zones")  # the field's cards outside it
        zone.get_by_text("Вспомогательная зона: 1").wait_for()
        assert "Призрачный сокол" in zone.inner_text()
        assert pg.get_by_text("at: aux", exact=False).count() == 0
        shot(pg, "cards_flyer_on_the_desk")
    finally:
        close(pg)


def test_the_harness_waits_for_a_font_still_loading(browser: Browser, cards_app: str) -> None:
    """A font that swaps in late wraps the text anew and moves what is under it (a fold's summary
    pressed on a fresh phone page, the release on the text below it: a clean-clone run). The page
    is not quiet while a font loads: here one is held back until the test lets it go."""
    pg = new_page(browser, PHONE)
    try:
        pg.goto(cards_app + "/cards")
        pg.get_by_role("heading", name="Карты", exact=True).first.wait_for()
        settle(pg)
        held: list[Any] = []
        pg.route("**/held-font.woff2", lambda route: held.append(route))
        pg.evaluate(
            "() => { const f = new FontFace('Held', 'url(/held-font.woff2)');"
            " document.fonts.add(f); f.load().catch(() => {}); }"
        )
        with pytest.raises(PlaywrightTimeout):
            pg.wait_for_function(_QUIET, arg=[QUIET_MS, id(pg)], polling=50, timeout=1500)
        assert len(held) == 1  # the font's request, held all that time
        held[0].fulfill(status=404)
        settle(pg)
        assert pg.evaluate("() => document.fonts.status") == "loaded"
    finally:
        close(pg)


def test_the_harness_taps_in_a_fold_only_once_it_has_stopped_moving(browser: Browser, cards_app: str) -> None:
    """A fold opens in a 500 ms animation and the content in it moves while it runs: «Войти» pressed
    at the end of the opening was released on the select box above it, and the sign-in never came
    (a fresh server's first sign-in, once in 140 under load; issue 27). `unfold` returns only once
    the fold is still: here its opening is slowed tenfold, and the button stays where it was."""
    pg = new_page(browser, DESKTOP)
    try:
        animations = pg.context.new_cdp_session(pg)
        animations.send("Animation.enable")
        animations.send("Animation.setPlaybackRate", {"playbackRate": 0.1})
        pg.goto(cards_app + "/cards")
        pg.get_by_role("heading", name="Карты", exact=True).first.wait_for()
        settle(pg)
        fold = unfold(pg, "cards_manage")
        button = fold.locator(".st-key-cards_signin_signin_submit button")
        where = button.bounding_box()
        still = fold.locator("details").first.evaluate("d => [d.getAnimations().length, d.style.height]")
        assert still == [0, ""], still  # no animation, and the height it held while opening let go
        pg.wait_for_timeout(300)  # not a wait for the page: the time in which a moving fold moves
        assert button.bounding_box() == where
    finally:
        close(pg)
