"""What a new server's first window leaves for later (app_pages/shared/later.py, issue 24)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_an_empty_search_page_imports_no_engine_card_readers_scenarios_or_journal() -> None:
    # A fresh interpreter: what the root page's first run imports (the later thread runs on a server
    # only, not under AppTest: nothing is imported behind the run's back here).
    code = textwrap.dedent(
        """
        import sys
        from streamlit.testing.v1 import AppTest
        at = AppTest.from_file("app.py", default_timeout=60).run()
        assert not at.exception, at.exception
        assert at.text_input(key="search_box") is not None
        import threading
        assert "after-first-window" not in [t.name for t in threading.enumerate()]  # a server's only
        loaded = [m for m in ("engine", "casebook", "cardbase.importer", "rulings.store") if m in sys.modules]
        print(",".join(loaded))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip().splitlines()[-1:] in ([], [""]), out.stdout


def test_prepare_imports_what_the_pages_left_and_runs_the_scenarios() -> None:
    code = textwrap.dedent(
        """
        import sys
        from app_pages.search import ready
        from app_pages.shared import later
        later.prepare()
        assert all(m in sys.modules for m in later.MODULES)
        calls = []
        real = ready.answers.scenario_digests
        ready.answers.scenario_digests = lambda *a, **k: calls.append(1) or real(*a, **k)
        ready.scenario_digests()  # kept for the process: not run again
        assert calls == [], calls
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip().endswith("ok"), out.stdout + out.stderr


def test_streamlit_s_no_run_warning_is_dropped_for_the_later_thread_only() -> None:
    import logging
    import threading

    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    from app_pages.shared import later

    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger(later.CONTEXT_LOGGER)
    quiet = later.NoRunWarning()
    logger.addFilter(quiet)
    logger.addHandler(handler)
    try:
        for name in (later.THREAD, "someone-else"):
            thread = threading.Thread(target=get_script_run_ctx, name=name)
            thread.start()
            thread.join()
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(quiet)
    assert len(said) == 1 and "someone-else" in said[0], said
