"""Words for people on every page (issue 22 item 7): a walk through every page of the app, with
something on it (a search, a clause, a card, a loaded desk with a card selected, a ruling), lists
every Latin-letter word a player can see. Streamlit's icon names, the folded parts for scenario
authors and the names of file formats and text encodings a judge picks files by are not words to
translate; everything else must read in Russian."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser

from app_pages import registry
from rulings import model
from rulings import store as journal
from tests.browser import PHONE, close, new_page, settle, shot, tile
from tests.rulings_samples import journal_with_judge

pytestmark = pytest.mark.browser

# Names people know as they are: file formats and encodings («Скачать сценарий (YAML)», «UTF-8»), and
# the key on the keyboard («нажмите Enter»).
NAMES = frozenset(
    {"yaml", "json", "csv", "pdf", "html", "txt", "md", "rst", "docx", "word", "utf", "windows"}
)
NAMES |= {"koi", "enter"}
LATIN = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]{2,}(?![A-Za-z])")
# A file's name is a name («211_simbioty.txt», «const.json», «.docx»), not a word.
FILE_NAME = re.compile(r"[\w.-]*\.(?:txt|md|rst|pdf|html?|docx|json|ya?ml|csv)\b", re.IGNORECASE)

# Every text node a player can see: not inside an icon (its name is a font ligature), not in a
# folded part for scenario authors, not hidden, not shrunk to nothing (a word our style replaces).
_VISIBLE_WORDS = """() => {
  const skip = (el) => el.closest(
    '[data-testid="stIconMaterial"], .material-symbols-rounded, [class*="_authors"], script, style');
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !n.nodeValue.trim()) continue;
    if (el.checkVisibility && !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const style = getComputedStyle(el);
    if (style.fontFamily.includes("Material") || parseFloat(style.fontSize) === 0) continue;
    out.push(n.nodeValue.trim());
  }
  document.querySelectorAll('input, textarea').forEach((i) => {
    if (i.closest('[class*="_authors"]')) return;
    // a checkbox's or a radio's value («on») is not drawn; only a field's text is
    if (i.type !== 'checkbox' && i.type !== 'radio' && i.value) out.push(i.value);
    if (i.placeholder) out.push(i.placeholder);
  });
  return out;
}"""


def latin_words(pg: Any, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Each Latin word a player sees, with the text it stands in."""
    found = []
    for text in pg.evaluate(_VISIBLE_WORDS):
        words = [w for w in LATIN.findall(FILE_NAME.sub(" ", text)) if w.lower() not in NAMES | allowed]
        found += [f"{w} («{text[:80]}»)" for w in words]
    return found


@pytest.fixture(scope="module")
def a_ruling() -> int:
    """A ruling in the journal the app reads, so the journal page shows one."""
    book, by = journal_with_judge(journal.default_path(), "Орлова")
    ruling = book.record(
        model.RulingInput(
            title="Может ли Вайл под контролем атаковать Орка?",
            decision="Нет: Вайл может заявлять только нападение на Карлика Унда (211.3.1).",
            clauses=("211.3.1",),
            judge_verdict="illegal",
        ),
        by,
    )
    return int(ruling)


VISITS = [
    ("search", registry.ROOT, {}),
    ("search_query", registry.ROOT, {"q": "паразит хозяин"}),
    ("search_page", registry.SEARCH, {"q": "Карлик Унд"}),
    ("clause", registry.ROOT, {"p": "211.3.1"}),
    ("clause_page", registry.CLAUSE, {}),
    ("graph", registry.GRAPH, {"s": "211"}),
    ("rules", registry.RULES_PAGE, {}),
    ("changes", registry.CHANGES, {}),
    ("cards", registry.CARDS, {}),
    ("card", registry.CARDS, {"card": "builtin-1"}),  # Карлик Унд of the embedded library
    ("desk", registry.DESK, {"scn": "scenarios/official/211.3.1_karlik_und.yaml"}),
    ("journal", registry.JOURNAL, {}),
]


@pytest.mark.parametrize(("name", "page", "query"), VISITS, ids=[v[0] for v in VISITS])
def test_no_latin_word_a_player_sees(
    browser: Browser, app_server: str, a_ruling: int, name: str, page: registry.Page, query: dict[str, str]
) -> None:
    pg = new_page(browser, PHONE)
    try:
        address = registry.address(page, query)
        if page.default:  # the root page answers at the app's root address
            address = "/" + address.removeprefix("/" + page.url_path)
        pg.goto(app_server + address)
        pg.locator('[data-testid="stMain"]').wait_for()
        settle(pg)
        if page is registry.DESK:
            tile(pg, "c4").click()  # a card selected: its actions
            settle(pg)
            pg.locator(".st-key-desk_why summary").first.click()  # and the trace, step by step
            settle(pg)
        if page is registry.JOURNAL:
            pg.get_by_text("Может ли Вайл под контролем", exact=False).first.click()
            settle(pg)
        found = latin_words(pg)
        # and no Markdown shown as text (stars, tildes, the backslash of an escape)
        raw = [s for s in pg.evaluate(_VISIBLE_WORDS) if "**" in s or "~~" in s or "\\" in s]
        assert raw == [], f"{name}: {raw}"
        shot(pg, f"words_{name}")
        assert found == [], f"{name}: {sorted(set(found))}"
    finally:
        close(pg)


def test_the_walk_visits_every_page() -> None:
    assert {page.key for _, page, _ in VISITS} == {page.key for page in registry.PAGES}
