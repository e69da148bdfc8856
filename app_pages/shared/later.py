"""What a process's first window does not need, made ready in the background once it is drawn.

A new server's first window (issue 24: the cold first window) runs the search page: it needs the
rules and their index, not the engine, the card bases, the scenario library or the journal, whose
imports were about 120 ms of that run's CPU (and as much again compiling them where no bytecode is
cached). The pages import those where they use them; `start()`, at the end of every run of app.py,
imports them once per process in a background thread AFTER_S after the first run, so the first
search does not wait for them either. A run that needs one sooner imports it itself (Python's
import lock makes the two wait for each other; nothing is imported twice).

The thread then runs the library's scenarios on the base rules (`ready.scenario_digests`, kept
for the process): that was 80% of a fresh server's first search (about 0.5 s in a browser). A search
that comes first waits for it as before (Streamlit's cache computes a value once, the other caller
waits for it). Only on a server: not under AppTest (Streamlit sets `global.appTest` for its runs),
where a test may change what the scenarios read while the thread runs them. Streamlit's warning
that this thread has no window's run (its caches ask) says nothing to a judge reading the server's
console, so it is dropped for this thread alone.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time

import streamlit as st
from streamlit import config
from streamlit.runtime import Runtime

AFTER_S = 0.5
THREAD = "after-first-window"
# The logger of Streamlit's «missing ScriptRunContext» warning.
CONTEXT_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"
# What the search page's results, a clause, a card base and the journal import.
MODULES = (
    "app_pages.search.ready",
    "app_pages.clause",
    "app_pages.shared.card_base",
    "cardbase.find",
    "cardbase.importer",
    "cardbase.library",
    "cardbase.related",
    "app_pages.journal.form",
)


def start() -> None:
    """Once per process, on a server: the background work begins AFTER_S from now."""
    if Runtime.exists() and not config.get_option("global.appTest"):
        _started()


class NoRunWarning(logging.Filter):
    """Drops Streamlit's warning that THREAD runs outside a window's run (it is meant to)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.args, tuple) and record.args[:1] == (THREAD,))


@st.cache_resource(show_spinner=False)
def _started() -> threading.Thread:
    logging.getLogger(CONTEXT_LOGGER).addFilter(NoRunWarning())
    thread = threading.Thread(target=prepare, args=(AFTER_S,), name=THREAD, daemon=True)
    thread.start()
    return thread


def prepare(after_s: float = 0.0) -> None:
    """Import MODULES and run the library's scenarios, `after_s` from now. Nothing it meets is
    shown here: a failure is met again, and explained, by the page that needs the thing."""
    time.sleep(after_s)
    for name in MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # the page that imports it will show why
            continue
    try:
        from app_pages.search import ready

        ready.scenario_digests()
    except Exception:  # the first search runs them again and shows why
        return
