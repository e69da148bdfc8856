"""What one search redraws, read off Streamlit's websocket in a real browser.

Enter in the box reruns only the search's fragment (the box, what was understood, the hits, the
ready answers): the run ends as a fragment run and sends nothing of what is drawn above it (the
title, the rules line) nor the menu, which stay on the page as they were; its hits are still page
links that open the clause in the same window. A search on other rules than the page was drawn for
(here: a window that never chose a version, after another judge made a new version the default)
redraws the whole page, so the rules line names the rules the hits come from.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

import rules_index
from rules_index import versions
from tests import fictional_rules as fr
from tests.browser import SEARCH_HIT, SEARCH_LABEL, Wire, close, new_page, settle, shot, wait_params, waited

pytestmark = pytest.mark.browser

# Drawn above the fragment: the title and the rules line (each also names the test's negative
# control: a whole run sends both).
OUTSIDE = ("Поиск по правилам", "Правила: ")
HIT = SEARCH_HIT


def _types(wire: Wire, at: int) -> set[str]:
    return {str(m.WhichOneof("type")) for m in wire.msgs[at:]}


def _first_hit(pg: Any) -> str:
    """The first hit's clause id (its link reads «211.3.1 · Симбиоты»)."""
    text = pg.locator(HIT).first.inner_text()
    found = re.search(r"(?m)^(\S+) · ", text)
    assert found, text
    return found.group(1)


def _search(pg: Any, query: str) -> None:
    box = pg.get_by_label(SEARCH_LABEL)
    box.fill(query)
    box.press("Enter")
    wait_params(pg, q=query)
    settle(pg)


def test_a_search_redraws_only_the_box_and_what_it_found(browser: Browser, app_server: str) -> None:
    pg = new_page(browser)
    wire = Wire(pg)
    try:
        at = wire.mark()
        pg.goto(app_server + "/")
        settle(pg)
        waited(pg, pg.get_by_label(SEARCH_LABEL))
        _, whole = wire.since(at)
        assert all(label in whole for label in OUTSIDE), "a whole run sends the title and the rules line"
        assert "navigation" in _types(wire, at), "a whole run sends the menu"

        for query, clause in (("Карлик Унд", "211.3.1"), ("хост улетел", "211")):
            at = wire.mark()
            _search(pg, query)
            finished, sent = wire.since(at)
            assert finished == [ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY], finished
            assert f'\\"p\\": \\"{clause}' in sent  # the hits (their links' parameters) were sent
            assert [label for label in OUTSIDE if label in sent] == []
            assert "navigation" not in _types(wire, at)
            # what was not redrawn is still on the page, the menu too
            pg.get_by_role("heading", name="Поиск по правилам").first.wait_for()
            pg.get_by_text("Правила: ", exact=False).first.wait_for()
            pg.locator('[data-testid="stSidebarNav"]').get_by_role("link", name="Стол судьи").wait_for()
            assert _first_hit(pg).startswith(clause), _first_hit(pg)
        shot(pg, "search_fragment")

        # a hit opens its clause inside the app, as a page link did: in the same window, not
        # reloaded (a reload would start a new session: a judge signed in would be signed out)
        pg.evaluate("() => { window.__notReloaded = true; }")
        cid = _first_hit(pg)
        pg.locator(HIT).first.click()
        wait_params(pg, p=cid)
        pg.get_by_role("heading", name=f"п. {cid}").first.wait_for()
        assert pg.evaluate("() => window.__notReloaded === true")
    finally:
        close(pg)


def test_a_search_after_a_new_default_version_redraws_the_whole_page(
    browser: Browser, app_server: str
) -> None:
    shop = versions.default_store()
    files = fr.as_files(fr.fictional_texts())
    pg = new_page(browser)
    wire = Wire(pg)
    vid = ""
    try:
        pg.goto(app_server + "/")  # a window that has not chosen a version: it reads the default
        settle(pg)
        built_in = pg.get_by_text("Правила: ", exact=False).first.inner_text()
        assert fr.FICTIONAL_VERSION not in built_in
        vid = shop.save(files, rules_index.load_texts(files, berserk=True), berserk=True).id
        versions.publish_version(shop, vid, make_default=True)  # another judge, in another window

        at = wire.mark()
        _search(pg, "хост улетел")
        finished, _ = wire.since(at)
        assert ForwardMsg.FINISHED_SUCCESSFULLY in finished, finished  # the whole page, this time
        pg.get_by_text(f"Правила: {fr.FICTIONAL_VERSION}", exact=False).first.wait_for()
        wait_params(pg, v=vid)
        pg.locator(HIT).first.wait_for()
    finally:
        close(pg)
        versions.publish_version(shop, versions.BUILTIN, make_default=True)
        if vid:
            versions.remove_version(shop, vid)
