"""The search page in a real browser (Debian chromium via playwright), at 1280 and 390 px:
the menu's «Поиск» leaves a clause; the best clause is the first thing on the screen, above
the ready answers; «ничего нет» for what the rules lack, with the words the text lacks; the
evidence of an answer on the first screen. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import re

import pytest

from tests.browser import DESKTOP, PHONE, SEARCH_HIT, SEARCH_LABEL, Visit

pytestmark = pytest.mark.browser


def ask(v: Visit, query: str) -> None:
    v.page.goto(v.base + "/search")
    v.heading("Поиск по правилам")
    box = v.page.get_by_label(SEARCH_LABEL)
    box.fill(query)
    box.press("Enter")
    v.wait_params(q=query)
    v.settle()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_the_menus_search_leaves_a_clause(browser: object, app_server: str, viewport: dict[str, int]) -> None:
    v = Visit(browser, viewport, app_server)
    try:
        v.page.goto(app_server + "/?p=211.4")
        v.heading("п. 211.4")
        if viewport is PHONE:  # the menu hides behind its button on a phone
            opener = '[data-testid="stExpandSidebarButton"], [data-testid="stSidebarCollapsedControl"] button'
            v.page.locator(opener).first.click()
        v.page.locator('[data-testid="stSidebarNav"] a').filter(has_text="Поиск").first.click()
        v.heading("Поиск по правилам")
        assert "p" not in v.params() and v.page.url.split("?")[0].endswith("/search"), v.page.url
    finally:
        v.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_the_best_clause_is_first_on_the_screen(
    browser: object, app_server: str, viewport: dict[str, int]
) -> None:
    v = Visit(browser, viewport, app_server)
    tag = "desktop" if viewport is DESKTOP else "phone390"
    try:
        ask(v, "можно ли двигать симбиота")
        page = v.page
        page.get_by_text("Понято: «двигать» → движение (жаргон)", exact=False).wait_for()
        first = page.locator(SEARCH_HIT).first
        assert re.search(r"(?m)^211\.10 · ", first.inner_text()), first.inner_text()
        answers = page.locator(".st-key-search_answers").first
        answers.wait_for()
        first_box, answers_box = first.bounding_box(), answers.bounding_box()
        assert first_box and answers_box and first_box["y"] < answers_box["y"]
        # the judge's answer is ordinary text, not the grey of a caption
        answer = answers.get_by_text(re.compile(r"^Ответ: Нет")).first
        # (a caption is the same colour at 0.6 opacity; the hit's «Как нашлось» note is grey and smaller)
        note = page.get_by_text("Как нашлось", exact=False).first
        assert _opacity(answer) == 1.0 and _muted(note, answer), (_look(note), _look(answer))
        v.fits_width()
        v.shot(f"search_move_symbiote_{tag}")

        ask(v, "3 ываыва")
        page.get_by_text("В загруженных правилах об этом ничего нет.", exact=False).wait_for()
        page.get_by_text("Не нашлось в тексте: «ываыва»").wait_for()
        assert page.locator(".st-key-search_hits").count() == 0
        v.fits_width()
        v.shot(f"search_nothing_{tag}")
        v.assert_local_only()
    finally:
        v.close()


def _opacity(element: object) -> float:
    """The opacity a reader sees: the product over the element and its ancestors."""
    return float(
        element.evaluate(  # type: ignore[attr-defined]
            "e => { let o = 1;"
            " for (let x = e; x; x = x.parentElement) o *= parseFloat(getComputedStyle(x).opacity);"
            " return o; }"
        )
    )


def _look(element: object) -> tuple[str, float, float]:
    """The colour, font size (px) and opacity a reader sees."""
    color, size = element.evaluate(  # type: ignore[attr-defined]
        "e => [getComputedStyle(e).color, parseFloat(getComputedStyle(e).fontSize)]"
    )
    return str(color), float(size), _opacity(element)


def _muted(note: object, text: object) -> bool:
    """Whether `note` reads as a side note beside `text`: fainter or another colour, and smaller."""
    n, t = _look(note), _look(text)
    return (n[2] < t[2] or n[0] != t[0]) and n[1] < t[1]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone390"])
def test_the_evidence_and_the_silence_are_on_the_first_screen(
    browser: object, app_server: str, viewport: dict[str, int]
) -> None:
    # issue 23: why the rules answer is read before the first clause; when they are silent, the
    # page says so with the words the text lacks, and offers no clause and no scenario
    v = Visit(browser, viewport, app_server)
    tag = "desktop" if viewport is DESKTOP else "phone390"
    try:
        page = v.page
        ask(v, "хост умер")
        evidence = page.get_by_text("Ответ есть: п. 211.4", exact=False).first
        evidence.wait_for()
        first = page.locator(SEARCH_HIT).first
        assert re.search(r"(?m)^211\.4 · ", first.inner_text()), first.inner_text()
        box, first_box = evidence.bounding_box(), first.bounding_box()
        assert box and first_box and box["y"] < first_box["y"]
        assert first_box["y"] + first_box["height"] <= viewport["height"], first_box
        v.fits_width()
        v.shot(f"search_evidence_{tag}")

        ask(v, "кто ходит первым")
        page.get_by_text("В загруженных правилах об этом ничего нет.", exact=False).wait_for()
        lacking = page.get_by_text("Не нашлось в тексте: «ходит первым»").first
        lacking.wait_for()
        lacking_box = lacking.bounding_box()
        assert lacking_box and lacking_box["y"] + lacking_box["height"] <= viewport["height"]
        assert page.locator(".st-key-search_hits").count() == 0
        assert page.locator(".st-key-search_answers").count() == 0
        v.fits_width()
        v.shot(f"search_silent_{tag}")
        v.assert_local_only()
    finally:
        v.close()
