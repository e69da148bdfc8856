"""The judge's app: a thin router over the pages declared in app_pages/registry.py.

The root page answers `/?q=<query>` and `/?p=<clause id>` (app_pages.search.page); the other
pages have their own paths. Pages hold no rules logic: they call rules_index and engine.
"""

from __future__ import annotations

import streamlit as st

from app_pages import registry
from app_pages.shared import common, later, uploads

st.set_page_config(page_title="Берсерк: помощник судьи", page_icon="⚖️", layout="centered")
uploads.start()  # the upload bounds in place before this process takes its first file
common.new_run()  # what this window's rules are is read from the store once per run


def judge_signed_in() -> bool:
    """Asked only when a page is for judges: the journal (and the engine it imports) is not
    imported by a run that does not need it (issue 24: the cold first window)."""
    from app_pages.journal import form as journal_form

    return journal_form.current_judge() is not None


page, declared = registry.navigation(judge_signed_in)

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
later.start()  # once per process: what the first window did not need, imported in the background
