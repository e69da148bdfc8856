"""The judge's app: a thin router over the pages in app_pages/ (st.navigation over st.Page).

The root page answers `/?q=<query>` and `/?p=<clause id>` (see app_pages/search.py); the other
pages have their own paths. Pages hold no rules logic: they call rules_index and engine.
"""

from __future__ import annotations

import streamlit as st

from app_pages import common, search

st.set_page_config(page_title="Берсерк: помощник судьи", page_icon="⚖️", layout="centered")

# The root serves a search (/?q=) or a clause (/?p=) and is not in the menu; the menu's «Поиск»
# is a page of its own, so choosing it always leaves a clause (the root would stay on ?p=).
ROOT = st.Page(
    common.ROOT_PAGE,
    title="Поиск",
    icon=":material/search:",
    url_path="home",
    default=True,
    visibility="hidden",
)
RULES_PAGES = [
    st.Page(search.search_only, title="Поиск", icon=":material/search:", url_path="search"),
    st.Page(common.CLAUSE_PAGE, title="Пункт", icon=":material/description:", url_path="clause"),
    st.Page(common.GRAPH_PAGE, title="Граф", icon=":material/account_tree:", url_path="graph"),
    st.Page(common.RULES_PAGE, title="Правила", icon=":material/menu_book:", url_path="rules"),
    st.Page("app_pages/changes.py", title="Что изменилось", icon=":material/difference:", url_path="changes"),
]
JUDGE_PAGES = [
    st.Page("app_pages/cards.py", title="Карты", icon=":material/style:", url_path="cards"),
    st.Page("app_pages/desk.py", title="Стол судьи", icon=":material/grid_on:", url_path="desk"),
    st.Page("app_pages/journal.py", title="Журнал решений", icon=":material/edit_note:", url_path="journal"),
]

page = st.navigation({"Правила игры": [*RULES_PAGES, ROOT], "Судейство": JUDGE_PAGES}, position="sidebar")

# On the root (and the clause page), echo the run's query parameters into the address bar: a
# link clicked inside the app then leaves a shareable URL (/?p=211.4) and a browser history step
# for the back button. Other pages manage their own parameters (and may bind widgets to them).
if page is ROOT or page is RULES_PAGES[1]:
    st.query_params.from_dict(st.query_params.to_dict())

common.russian_widgets()
problem = common.base_rules().problem
if problem:
    st.error(common.escape_md(problem), icon=common.ICON_ERROR)
page.run()
