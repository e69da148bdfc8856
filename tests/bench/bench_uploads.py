"""Benchmark: what a player's upload costs the server (issue 26), run by `make bench`.

1. The bounded worker's overhead per upload: a job that does nothing, and the full generated
   rules (3,030 clauses, 0.8 MB of text) parsed in the worker against the same parse in this
   process (the difference is the fork, the arguments in, the pickled index out and its reading).
2. The server's memory: the app started as `make run` starts it; five players (five browser
   windows, no sign-in) each upload the full rules on «Правила», then close their windows. The
   server's resident memory (and the worker's forkserver beside it) is printed at the start,
   with the five windows open, right after they close, and until what they held is released
   (Streamlit keeps a closed window's session `server.disconnectedSessionTTL` = 120 s for a
   reconnect; the app's sweeper then drops what it held).

Numbers are reported, not asserted; the machine is shared, so the load average is printed too.
The worst-case documents (2,000-page PDF, 95 MB-expanded .docx) are the importers' bench
(bench_build.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import rules_index  # noqa: E402
from storage import worker  # noqa: E402
from tests import helpers, rules_docs  # noqa: E402
from tests.worker_jobs import echo  # noqa: E402

PLAYERS = 5
ROUNDS = 20
CHROMIUM = "/usr/bin/chromium"
TTL_S = 120  # Streamlit's server.disconnectedSessionTTL (the app keeps the default)
WATCH_S = TTL_S + 60  # the sweeper looks every 5 s and releases a session once Streamlit drops it


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def worker_overhead() -> None:
    pool = worker.Pool(preload=["storage.worker", "rules_index", "tests.worker_jobs"])
    limits = worker.Limits()
    pool.run(echo, b"", limits=limits)  # the forkserver is up and preloaded
    empty = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        pool.run(echo, b"", limits=limits)
        empty.append(time.perf_counter() - start)
    files = [("full.txt", rules_docs.full_rules(1.0))]
    here, there, size = [], [], 0
    for _ in range(3):
        start = time.perf_counter()
        rules_index.load_texts(files, berserk=True)
        here.append(time.perf_counter() - start)
        start = time.perf_counter()
        done = pool.run(rules_index.load_texts, files, limits=limits, berserk=True)
        there.append(time.perf_counter() - start)
        size = done.size
    print(
        f"worker, a job that does nothing: median {ms(statistics.median(empty))} ms, best {ms(min(empty))} ms"
    )
    print(
        f"worker, full rules ({len(files[0][1]) // 1024} KB, {len(done.value.paragraphs)} clauses): "
        f"in the worker median {ms(statistics.median(there))} ms, "
        f"in this process {ms(statistics.median(here))} ms "
        f"→ overhead {ms(statistics.median(there) - statistics.median(here))} ms "
        f"(pickled index {size / 1024 / 1024:.1f} MB)"
    )


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        out += [int(c) for c in task.read_text().split()]
    return out


def _server_pid(port: int) -> int:
    """The Streamlit process serving `port` (make run starts it under make)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(cmd) and str(port).encode() in cmd and b"run" in cmd:
            return int(proc.name)
    raise RuntimeError(f"no Streamlit process on port {port}")


def _memory(pid: int) -> str:
    kids = _children(pid)
    forkserver = sum(_rss_mb(k) for k in kids)
    return f"server {_rss_mb(pid):.0f} MB, forkserver {forkserver:.0f} MB"


def server_memory() -> None:
    if not Path(CHROMIUM).exists():
        print(f"server memory: skipped ({CHROMIUM} is not installed)")
        return
    from playwright.sync_api import sync_playwright

    from tests import browser as harness

    with tempfile.TemporaryDirectory(prefix="bench-uploads-") as tmp:
        rules = Path(tmp) / "full_rules.txt"
        rules.write_bytes(rules_docs.full_rules(1.0))
        from cardbase import store as cards
        from rules_index import versions
        from rulings import store as journal

        # Players store nothing, but the server's folders are a temporary copy all the same.
        os.environ[journal.ENV_VAR] = str(Path(tmp) / "rulings.sqlite3")
        os.environ[versions.ENV_VAR] = str(Path(tmp) / "rules")
        os.environ[cards.ENV_VAR] = str(Path(tmp) / "cards")
        with helpers.running_app(ROOT) as url, sync_playwright() as pw:
            pid = _server_pid(int(url.rsplit(":", 1)[1]))
            browser = harness.launch(pw, CHROMIUM)
            print(f"server memory at start: {_memory(pid)}")
            idle = harness.new_page(browser)  # one window that uploads nothing: the server's resting size
            idle.goto(url + "/rules")
            idle.get_by_text("Да, это версия правил «Берсерк» (РП)").wait_for()
            harness.settle(idle)
            print(f"with one window open and nothing uploaded: {_memory(pid)}")
            pages = []
            for k in range(PLAYERS):
                page = harness.new_page(browser)
                page.goto(url + "/rules")
                page.get_by_text("Да, это версия правил «Берсерк» (РП)").click()
                page.locator('[data-testid="stFileUploader"] input[type="file"]').set_input_files(str(rules))
                page.get_by_text("Загружены правила", exact=False).wait_for()
                pages.append(page)
                print(f"  after player {k + 1}'s upload: {_memory(pid)}")
            print(f"server memory with {PLAYERS} windows open: {_memory(pid)}")
            for page in pages:
                page.context.close()
            closed = time.monotonic()
            print(f"right after the windows closed: {_memory(pid)}")
            while time.monotonic() - closed < WATCH_S:
                time.sleep(10)
                print(f"  {time.monotonic() - closed:.0f} s after: {_memory(pid)}")
            idle.context.close()
            browser.close()


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.2f} (the machine is shared)")
    worker_overhead()
    server_memory()
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
