"""Helpers shared by tests and benchmarks (no pytest import here)."""

from __future__ import annotations

import contextlib
import json
import multiprocessing.process
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

# The clauses the engine issue names: each needs a handler (test_engine_clauses) and must fire
# in at least one scenario (test_casebook_scenarios).
ENGINE_ISSUE_CLAUSES = (
    *("211.1", "211.2", "211.3", "211.3.1", "211.4", "211.5", "211.6", "211.7", "211.8", "211.8.1"),
    *("211.9", "211.10", "211.11"),
    *("534.4", "534.4.1", "534.4.2", "534.5", "534.6", "534.7", "534.7.1", "534.7.2", "534.8"),
    *("535.1", "535.1.1", "535.2", "535.3", "535.4", "535.5", "535.5.1", "535.5.1.1", "535.5.1.2"),
    *("535.5.1.3", "535.5.2", "535.6", "535.7", "535.7.1", "535.7.2", "535.7.3", "535.7.4"),
    *("535.8", "535.8.1", "535.9"),
)

# The bound on one subprocess a test runs (a CLI, chromium printing a PDF): generous for a shared
# 2-core machine under load, and under pytest-timeout's 300 s for the whole test.
PROCESS_TIMEOUT = 240

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200 and r.read().strip() == b"ok":
                    return
        except OSError as exc:
            last = exc
        time.sleep(0.3)
    raise TimeoutError(f"{url} не ответил за {timeout} с: {last}")


@contextlib.contextmanager
def running_app(
    root: Path, extra_make_args: list[str] | None = None, env: dict[str, str] | None = None
) -> Iterator[str]:
    """Start the app exactly as `make run` does, on a free port; stop it afterwards.

    The port is free when chosen, but on a shared machine another run may take it before
    Streamlit binds it: that Streamlit exits («Port … is not available») and another port is
    tried. A server counts as ours only once its own log says it listens on the port (a health
    check alone could be answered by someone else's server). The log goes to a file, never an
    unread pipe that a chatty server could fill and block on.
    """
    problems: list[str] = []
    for _attempt in range(5):
        port = free_port()
        with tempfile.TemporaryFile() as log:
            proc = subprocess.Popen(
                ["make", "--no-print-directory", "run", f"PORT={port}", *(extra_make_args or [])],
                cwd=root,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, **(env or {}), "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none"},
            )
            url = f"http://127.0.0.1:{port}"
            try:
                if _listening(proc, log, url):
                    yield url
                    return
                problems.append(_text(log)[-2000:])
            finally:
                stop_group(proc)
    raise RuntimeError("приложение не запустилось ни на одном из пяти портов:\n" + "\n---\n".join(problems))


def _text(log: BinaryIO) -> str:
    # pread leaves the file offset alone: the server keeps appending at it.
    return os.pread(log.fileno(), 1 << 20, 0).decode("utf-8", "replace")


def _listening(proc: subprocess.Popen[bytes], log: BinaryIO, url: str, timeout: float = 120.0) -> bool:
    """True once this server says it listens on `url` and answers there; False if it exited
    first (its port was taken). A bound on the wait, not a pace: it returns as soon as it can."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        if f"URL: {url}" in _text(log):
            wait_healthy(url, max(deadline - time.monotonic(), 1.0))
            return proc.poll() is None
        time.sleep(0.1)
    raise TimeoutError(f"{url}: сервер не начал слушать за {timeout:.0f} с:\n{_text(log)[-2000:]}")


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server started with start_new_session=True, and everything it started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@contextlib.contextmanager
def processes(procs: Sequence[multiprocessing.process.BaseProcess]) -> Iterator[None]:
    """Start the processes; whatever happens in the block (a failed assertion, pytest-timeout's
    interruption), none is left running after it. Joins wait for the processes to end, however
    slow a loaded machine is: pytest-timeout bounds the test, not a guess per process."""
    for p in procs:
        p.start()
    try:
        yield
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
            p.join()


def run_in_threads(worker: Callable[[], None], n: int = 4) -> None:
    """Run `worker` in `n` threads at once and wait for all (for shared-object safety tests)."""
    threads = [threading.Thread(target=worker) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def run_module(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m …` of this project, from its root, output captured as text (a hard timeout)."""
    import sys

    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )


# The desk's folded parts whose content runs only while open (app_pages.desk.session.fold).
DESK_FOLDS = (
    "desk_text",
    "desk_save",
    "desk_ruling_box",
    "desk_load",
    "desk_header",
    "desk_full_form",
    "desk_why",
    "desk_authors",
    "desk_more",
    "desk_closed",
    "desk_expectations_authors",
    "desk_card_text",
)


def unfold(at: Any, *keys: str) -> Any:
    """Open folded parts of a page under AppTest, as a tap on each would (every desk fold when no
    key is given), before its next run; returns `at`."""
    for key in keys or DESK_FOLDS:
        at.session_state[key] = True
    return at


def library_size(*, with_bases: bool = True) -> int:
    """How many scenarios the library holds (scenarios/official and scenarios/rulings): what the
    «Что это затрагивает» counts are out of, whatever scenarios were added since. Without the card
    bases (a caller that opens none), the real-card scenarios are left out."""
    import casebook

    entries = casebook.library_scenarios(Path(__file__).resolve().parent.parent, run=not with_bases)
    return len(entries) if with_bases else sum(e.ran for e in entries)


def case_in_fresh_process(script: str, name: str) -> tuple[dict[str, Any] | None, str]:
    """A benchmark's case run as `python <script> --case <name>` in a process of its own (so one
    case's memory cannot hide another's; hash seed fixed), read from the JSON of its last line:
    (the result, "") or (None, the last line of its error)."""
    proc = subprocess.run(
        [sys.executable, script, "--case", name],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    if proc.returncode != 0:
        return None, str(proc.stderr.strip().splitlines()[-1:])
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""
