"""The app's pages, declared once: script, title, icon, address, menu section and who may open them.

`app.py` builds `st.navigation` from `PAGES`, and every link inside the app goes through `link`,
`switch` or `address` with one of the pages below; no page path is written anywhere else
(tests/test_pages.py proves it). The declarations are checked once, at import, as
engine/rules/registry.py checks the rules': a script that does not exist, an address or a key used
twice, an unknown menu section or audience, or not exactly one default page fails with a message
naming the page.

Who may open a page: `everyone` (players read rulings, rules and the desk; what writes asks for a
judge's sign-in on the page itself) or `judges` (left out of the menu and refused unless a judge
is signed in in this tab). Every page is open to everyone today.
"""

from __future__ import annotations

import dataclasses
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

import streamlit as st
from streamlit.navigation.page import StreamlitPage

PROJECT = Path(__file__).resolve().parent.parent
SECTIONS = ("Правила игры", "Судейство")
AUDIENCES = ("everyone", "judges")
Audience = Literal["everyone", "judges"]


@dataclasses.dataclass(frozen=True, slots=True)
class Page:
    """One page of the app: the file Streamlit runs, its menu entry and its address (/<url_path>)."""

    key: str
    script: str  # relative to the project: the file Streamlit runs as the page
    title: str
    icon: str
    url_path: str
    section: str
    opens: Audience = "everyone"
    in_menu: bool = True
    default: bool = False  # served at the app's root address as well


def declare(*pages: Page) -> tuple[Page, ...]:
    """The pages, checked: each script exists under app_pages/, keys and addresses are unique,
    sections and audiences are known, exactly one page is the default.

    Raises:
        ValueError: naming the page whose declaration is wrong.
    """
    seen: dict[str, str] = {}
    for p in pages:
        where = f"страница «{p.key}»"
        if not p.script.startswith("app_pages/") or not (PROJECT / p.script).is_file():
            raise ValueError(f"{where}: файла {p.script} нет в app_pages/")
        for kind, value in (("key", p.key), ("url", p.url_path), ("script", p.script)):
            other = seen.setdefault(f"{kind}:{value}", p.key)
            if other != p.key:
                raise ValueError(f"{where}: {value} уже объявлен у страницы «{other}»")
        if p.section not in SECTIONS:
            raise ValueError(f"{where}: раздела меню «{p.section}» нет (есть: {', '.join(SECTIONS)})")
        if p.opens not in AUDIENCES:
            raise ValueError(f"{where}: кто открывает — {', '.join(AUDIENCES)}, а не «{p.opens}»")
        if not p.url_path or "/" in p.url_path:
            raise ValueError(f"{where}: адрес страницы — одно слово без «/», а не «{p.url_path}»")
    defaults = [p.key for p in pages if p.default]
    if len(defaults) != 1:
        raise ValueError(f"страница по умолчанию должна быть одна, а их: {', '.join(defaults) or 'нет'}")
    return pages


RULES, JUDGING = SECTIONS
# The root serves a search (/?q=) or a clause (/?p=) and is not in the menu; the menu's «Поиск»
# is a page of its own, so choosing it always leaves a clause (the root would stay on ?p=).
ROOT = Page(
    "root",
    "app_pages/search/page.py",
    "Поиск",
    ":material/search:",
    "home",
    RULES,
    in_menu=False,
    default=True,
)
SEARCH = Page("search", "app_pages/search/only.py", "Поиск", ":material/search:", "search", RULES)
CLAUSE = Page("clause", "app_pages/clause.py", "Пункт", ":material/description:", "clause", RULES)
GRAPH = Page("graph", "app_pages/graph.py", "Граф", ":material/account_tree:", "graph", RULES)
RULES_PAGE = Page("rules", "app_pages/rules.py", "Правила", ":material/menu_book:", "rules", RULES)
CHANGES = Page(
    "changes", "app_pages/changes/page.py", "Что изменилось", ":material/difference:", "changes", RULES
)
CARDS = Page("cards", "app_pages/cards.py", "Карты", ":material/style:", "cards", JUDGING)
DESK = Page("desk", "app_pages/desk/page.py", "Стол судьи", ":material/grid_on:", "desk", JUDGING)
JOURNAL = Page(
    "journal", "app_pages/journal/page.py", "Журнал решений", ":material/edit_note:", "journal", JUDGING
)

# The menu lists them in this order, by section.
PAGES: tuple[Page, ...] = declare(SEARCH, CLAUSE, GRAPH, RULES_PAGE, CHANGES, ROOT, CARDS, DESK, JOURNAL)


def may_open(page: Page, judge_signed_in: bool) -> bool:
    """Whether this tab may open the page."""
    return page.opens == "everyone" or judge_signed_in


def navigation(signed_in: Callable[[], bool]) -> tuple[StreamlitPage, Page]:
    """`st.navigation` over the pages this tab may open, by section in the declared order; returns
    the StreamlitPage to run and its declaration. `signed_in` is asked only when a page is for judges."""
    judge = any(p.opens == "judges" for p in PAGES) and signed_in()
    built = [
        (
            p,
            st.Page(
                p.script,
                title=p.title,
                icon=p.icon,
                url_path=p.url_path,
                default=p.default,
                visibility="visible" if p.in_menu else "hidden",
            ),
        )
        for p in PAGES
        if may_open(p, judge)
    ]
    menu = {s: [sp for p, sp in built if p.section == s] for s in SECTIONS}
    running = st.navigation({s: items for s, items in menu.items() if items}, position="sidebar")
    declared = next(p for p, sp in built if sp is running)
    return running, declared


def link(
    page: Page,
    label: str,
    icon: str | None = None,
    query_params: Mapping[str, str] | None = None,
    width: Literal["stretch", "content"] = "content",
) -> None:
    """A link to a page of the app (st.page_link: following it does not reload the app)."""
    st.page_link(page.script, label=label, icon=icon, query_params=dict(query_params or {}), width=width)


def switch(page: Page, query_params: Mapping[str, str] | None = None) -> None:
    """Go to a page now (st.switch_page)."""
    st.switch_page(page.script, query_params=dict(query_params or {}))


def address(page: Page, params: Sequence[tuple[str, str]] | Mapping[str, str] = ()) -> str:
    """The page's address with its query, as a judge shares it: «/desk?scn=scenarios/…»."""
    return f"/{page.url_path}" + _query(params)


def href(page: Page, params: Sequence[tuple[str, str]] | Mapping[str, str] = ()) -> str:
    """The page's address for a link drawn in a page (app_pages/shared/linklist), relative to the
    app's own so that it works under a base path too: «./?p=211.4» for the root (served at the
    app's address), «./desk?scn=…» for another page."""
    return "./" + ("" if page.default else page.url_path) + _query(params)


def _query(params: Sequence[tuple[str, str]] | Mapping[str, str]) -> str:
    pairs = list(params.items()) if isinstance(params, Mapping) else list(params)
    query = "&".join(f"{k}={urllib.parse.quote(v)}" for k, v in pairs)
    return f"?{query}" if query else ""


def by_key(key: object) -> Page | None:
    """The declared page with this key (a value from a browser may be anything: None then)."""
    return next((p for p in PAGES if p.key == key), None)
