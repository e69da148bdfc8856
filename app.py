"""The judge's app: a thin router over the pages declared in app_pages/registry.py.

The root page answers `/?q=<query>` and `/?p=<clause id>` (app_pages.search.page); the other
pages have their own paths. Pages hold no rules logic: they call rules_index and engine.
"""

from __future__ import annotations

import streamlit as st

from app_pages import registry
from app_pages.journal import form as journal_form
from app_pages.shared import common

st.set_page_config(page_title="Берсерк: помощник судьи", page_icon="⚖️", layout="centered")
common.new_run()  # what this window's rules are is read from the store once per run

page, declared = registry.navigation(lambda: journal_form.current_judge() is not None)

# On the root (and the clause page), echo the run's query parameters into the address bar: a
# link clicked inside the app then leaves a shareable URL (/?p=211.4) and a browser history step
# for the back button. Other pages manage their own parameters (and may bind widgets to them).
if declared in (registry.ROOT, registry.CLAUSE):
    st.query_params.from_dict(st.query_params.to_dict())

common.russian_widgets()
problem = common.base_rules().problem
if problem:
    st.error(common.escape_md(problem), icon=common.ICON_ERROR)
page.run()
