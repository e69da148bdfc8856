"""The search's hits and ready answers drawn as one element each (app_pages/shared/linklist, issue
24), in a real browser: what a judge typed is shown as text, never run; a plain tap opens the page
inside the app; a tap with Ctrl opens the link's own address in a new tab and leaves this one
where it was; each link is a tap target a phone can hit."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser

from rulings import model
from rulings import store as journal
from tests.browser import PHONE, SEARCH_HIT, SEARCH_LABEL, close, new_page, settle, shot, wait_params
from tests.rulings_samples import journal_with_judge

pytestmark = pytest.mark.browser

# A judge's title that would run, load an image or make a link if it were read as HTML or Markdown.
HOSTILE = (
    '<img src=x onerror="window.__ran=1"><script>window.__ran=1</script>'
    " Сугед [ссылка](javascript:x) летающее"
)
ANSWERS = ".st-key-search_answers"


@pytest.fixture(scope="module")
def hostile_ruling() -> Iterator[str]:
    book, by = journal_with_judge(journal.default_path(), "Линкова")
    rid = book.record(model.RulingInput(title=HOSTILE, decision="Нет.", clauses=("211.4",)), by)
    yield str(rid)
    # The server's journal is the worker's for the whole run, and other tests read it (the words
    # check lists every word the journal page shows): the title is made plain again.
    plain = model.RulingInput(
        title="Может ли Сугед сесть на летающее существо?", decision="Нет.", clauses=("211.4",)
    )
    book.amend(rid, plain, by, base_rev=book.get(rid).rev)  # type: ignore[union-attr]


def _search(pg: object, query: str) -> None:
    box = pg.get_by_label(SEARCH_LABEL)  # type: ignore[attr-defined]
    box.fill(query)
    box.press("Enter")
    wait_params(pg, q=query)  # type: ignore[arg-type]
    settle(pg)  # type: ignore[arg-type]


def test_a_judges_title_is_text_and_its_link_opens_in_the_app_or_a_new_tab(
    browser: Browser, app_server: str, hostile_ruling: str
) -> None:
    pg = new_page(browser)
    try:
        pg.goto(app_server + "/")
        settle(pg)
        _search(pg, "Сугед летающее")
        answers = pg.locator(ANSWERS)
        answers.get_by_text(HOSTILE, exact=True).wait_for()  # shown as typed
        assert answers.locator("img, script, a[href^='javascript']").count() == 0
        assert pg.evaluate("() => window.__ran === undefined")
        link = answers.get_by_role("link", name="Открыть в журнале").first
        href = link.get_attribute("href") or ""
        assert href == f"./journal?r={hostile_ruling}", href  # relative: works under a base path too

        # Ctrl + tap: the browser's own new tab with the link's address; this window stays
        before = pg.url
        with pg.context.expect_page() as opened:
            link.click(modifiers=["Control"])
        tab = opened.value
        tab.wait_for_load_state()
        assert urlsplit(tab.url).path == "/journal" and parse_qs(urlsplit(tab.url).query) == {
            "r": [hostile_ruling]
        }
        tab.close()
        settle(pg)
        assert pg.url == before

        # a plain tap: the journal inside the app, the page not reloaded
        pg.evaluate("() => { window.__notReloaded = true; }")
        link.click()
        wait_params(pg, r=hostile_ruling)
        pg.get_by_role("heading", name="Журнал решений").first.wait_for()
        assert pg.evaluate("() => window.__notReloaded === true")
    finally:
        close(pg)


def test_on_a_phone_each_link_is_a_tap_target_inside_the_screen(browser: Browser, app_server: str) -> None:
    pg = new_page(browser, PHONE)
    try:
        pg.goto(app_server + "/")
        settle(pg)
        _search(pg, "можно ли двигать симбиота")
        links = pg.locator(f"{SEARCH_HIT}, {ANSWERS} a")
        assert links.count() >= 3
        for i in range(links.count()):
            box = links.nth(i).bounding_box()
            assert box is not None and box["height"] >= 40, (i, box)  # 2.5rem at 16 px
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (i, box)
        # the link reads as its clause, not as the icon's name
        assert pg.locator(SEARCH_HIT).first.inner_text().startswith("211.10 · ")
        assert pg.get_by_role("link", name="211.10 · Симбиоты").count() == 1
        shot(pg, "linklist_phone")
    finally:
        close(pg)


def test_back_from_a_clause_opened_from_the_menus_search_brings_the_search_back(
    browser: Browser, app_server: str
) -> None:
    # Streamlit writes a link's parameters into the address of the page it leaves, so Back would
    # land on «/search?p=…» with an empty box; the search page remembers which query it was.
    pg = new_page(browser)
    try:
        pg.goto(app_server + "/search")
        settle(pg)
        for query in ("хост умер", "можно ли двигать симбиота"):
            _search(pg, query)
            first = pg.locator(SEARCH_HIT).first
            cid = first.inner_text().split(" · ")[0]
            first.click()
            wait_params(pg, p=cid)
            pg.get_by_role("heading", name=f"п. {cid}").first.wait_for()
            pg.go_back()
            wait_params(pg, q=query)
            settle(pg)
            assert urlsplit(pg.url).path == "/search"
            assert pg.get_by_label(SEARCH_LABEL).input_value() == query
            assert pg.locator(SEARCH_HIT).first.inner_text().split(" · ")[0] == cid
        # the menu's search itself still starts empty, wherever it is chosen from
        pg.goto(app_server + "/?p=211.4")
        settle(pg)
        pg.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Поиск", exact=True).click()
        pg.get_by_role("heading", name="Поиск по правилам").first.wait_for()
        settle(pg)
        assert pg.get_by_label(SEARCH_LABEL).input_value() == ""
    finally:
        close(pg)
