"""The servers the browser benchmark drives: our app and the bare page, each a Streamlit process
of its own, and what /proc says about them (resident memory, CPU time). No pytest, no browser.

Our app is started with `make run`'s Streamlit flags on a free port, its rules store, card store
and journal in a temporary folder (never the project's data/). `BENCH_APP_FLAGS` adds Streamlit
flags to our app alone (say `--runner.postScriptGC false`), to measure a setting before it is made
the default; the bare page always runs with Streamlit's defaults (from a folder without our
.streamlit/config.toml).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests import helpers

ROOT = Path(__file__).resolve().parents[2]
BARE_APP = Path(__file__).resolve().parent / "bare_app.py"
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Server:
    name: str
    url: str
    pid: int

    def rss_mb(self) -> float:
        """Resident memory of the server process now, in MB."""
        with open(f"/proc/{self.pid}/statm") as f:
            return int(f.read().split()[1]) * _PAGE_SIZE / 1e6

    def cpu_s(self) -> float:
        """CPU time (user + system) the server process has used so far, in seconds."""
        return _cpu_of(self.pid)


def _cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def descendants_cpu_s(root: int, comm: str = "") -> float:
    """CPU time of every living process under `root` (the benchmark's browser), in seconds; with
    `comm`, of those whose command name starts with it alone ("chrom": Chromium's, not the Node
    process that drives it)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0.0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            if comm:
                with open(f"/proc/{pid}/comm") as f:
                    if not f.read().startswith(comm):
                        continue
            total += _cpu_of(pid)
        except (OSError, ValueError, IndexError):
            continue
    return total


def _flags(port: int) -> list[str]:
    return [
        *("--server.headless", "true", "--browser.gatherUsageStats", "false"),
        *("--server.address", "127.0.0.1", "--server.port", str(port)),
        *("--client.toolbarMode", "viewer", "--server.fileWatcherType", "none"),
    ]


@contextlib.contextmanager
def serve(name: str, script: Path, extra: list[str], env: dict[str, str], cwd: Path) -> Iterator[Server]:
    port = helpers.free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(script), *_flags(port), *extra]
    log = open(Path(env["BENCH_TMP"]) / f"{name}.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        command, cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        helpers.wait_healthy(url)
        yield Server(name, url, proc.pid)
    finally:
        helpers.stop_group(proc)
        log.close()


@contextlib.contextmanager
def servers(session_ttl_s: int) -> Iterator[dict[str, Server]]:
    """Our app and the bare page (and, with BENCH_BASELINE=<another checkout of the project>, that
    checkout's app as "main": a change measured against what it changes, in the same run), side
    by side until the block ends; each app with stores of its own."""
    with tempfile.TemporaryDirectory(prefix="perf-bench-") as tmp, contextlib.ExitStack() as stack:
        ttl = ["--server.disconnectedSessionTTL", str(session_ttl_s)]
        apps = [("ours", ROOT, [*ttl, *shlex.split(os.environ.get("BENCH_APP_FLAGS", ""))])]
        baseline = os.environ.get("BENCH_BASELINE", "").strip()
        if baseline:
            apps.append(("main", Path(baseline).resolve(), ttl))
        found: dict[str, Server] = {}
        for name, root, extra in apps:
            data = Path(tmp) / name
            env = {
                **os.environ,
                "BENCH_TMP": tmp,
                "BERSERK_RULES_DIR": str(data / "rules"),
                "BERSERK_CARDS_DIR": str(data / "cards"),
                "BERSERK_JOURNAL": str(data / "rulings.sqlite3"),
            }
            found[name] = stack.enter_context(serve(name, root / "app.py", extra, env, root))
        env = {**os.environ, "BENCH_TMP": tmp}
        found["bare"] = stack.enter_context(serve("bare", BARE_APP, ttl, env, Path(tmp)))
        yield found


def uptime() -> str:
    """The load average now (the machine is shared: every figure is read beside it)."""
    with open("/proc/loadavg") as f:
        one, five, fifteen = f.read().split()[:3]
    return f"load average {one}, {five}, {fifteen}"
