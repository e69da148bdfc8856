"""The server alone, without a browser: what one process serves when its clients cost nothing.

bench_browser.py measures what a person waits for, but on this machine (2 cores) ten Chromium
windows and the server share the CPU, so its throughput figures are bounded by the browsers as
much as by the server. Here each "window" is a plain Streamlit protocol client (a websocket
speaking Streamlit's own BackMsg/ForwardMsg protobufs, as the browser's frontend does): it opens
the search page, then sends the search box's new value and waits for the run to finish, the way a
browser's Enter does. Our app and the bare page (bare_app.py) are served side by side (served.py).

Measured: 1, 5 and 10 clients each searching once a second for BENCH_SECONDS (default 20):
searches done of those due, per second, latency p50/p95, the messages one search sends; then 10
clients searching back to back (no pause): the most searches a second the process serves, and
the server's CPU per search. Target (issue 24): ≥ 8 searches/s per process, 10 windows served
with p95 ≤ 1 s. Reported, never asserted. Run: `nice -n 5 .venv/bin/python tests/bench/bench_protocol.py`.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from tests.bench import bare_app, served  # noqa: E402
from tests.bench.bench_app import QUERIES  # noqa: E402
from tests.bench.bench_browser import p95  # noqa: E402
from tests.browser import SEARCH_LABEL  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "20"))
LEVELS = (1, 5, 10)
TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Target:
    """Where an app's search box is: the page to open and the box's label."""

    page: str
    label: str


TARGETS = {"ours": Target("search", SEARCH_LABEL), "bare": Target("", bare_app.FIELD_LABEL)}


def _rerun(page: str, box: str | None = None, value: str = "") -> bytes:
    message = BackMsg()
    message.rerun_script.page_name = page
    if box is not None:
        widget = message.rerun_script.widget_states.widgets.add()
        widget.id = box
        widget.string_value = value
    return bytes(message.SerializeToString())


@dataclass
class Client:
    """One window: its socket and its search box's widget id."""

    socket: websockets.ClientConnection
    target: Target
    box: str = ""
    messages: list[int] = field(default_factory=list)

    async def _finish(self) -> int:
        """Read until the run ends; the number of messages it sent."""
        count = 0
        while True:
            raw = await asyncio.wait_for(self.socket.recv(), TIMEOUT_S)
            message = ForwardMsg()
            message.ParseFromString(raw)
            count += 1
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.new_element.WhichOneof("type") == "text_input":
                box = message.delta.new_element.text_input
                if box.label == self.target.label:
                    self.box = box.id
            if kind == "script_finished":
                return count

    async def open(self) -> None:
        await self.socket.send(_rerun(self.target.page))
        await self._finish()
        if not self.box:
            raise RuntimeError(f"no search box «{self.target.label}» on the page")

    async def search(self, query: str) -> float:
        """Send the box's new value (what Enter does); ms until the run is over."""
        start = time.perf_counter()
        await self.socket.send(_rerun(self.target.page, self.box, query))
        self.messages.append(await self._finish())
        return (time.perf_counter() - start) * 1000


async def _clients(url: str, target: Target, n: int) -> list[Client]:
    address = url.replace("http://", "ws://") + "/_stcore/stream"
    out = []
    for _ in range(n):
        socket = await websockets.connect(address, subprotocols=["streamlit"], max_size=None)  # type: ignore[list-item]
        client = Client(socket, target)
        await client.open()
        out.append(client)
    return out


async def _level(srv: served.Server, target: Target, n: int, paced: bool) -> str:
    clients = await _clients(srv.url, target, n)
    took: list[float] = []
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.2
    deadline = start + SECONDS

    async def one(k: int, client: Client) -> None:
        i = 0
        while loop.time() < deadline:
            if paced:
                due = start + i + k / n
                if due >= deadline:
                    return
                if loop.time() < due:
                    await asyncio.sleep(due - loop.time())
            took.append(await client.search(QUERIES[(k + i) % len(QUERIES)]))
            i += 1

    cpu0, wall0 = srv.cpu_s(), time.monotonic()
    await asyncio.gather(*(one(k, c) for k, c in enumerate(clients)))
    wall, cpu = time.monotonic() - wall0, srv.cpu_s() - cpu0
    messages = [m for c in clients for m in c.messages]
    for client in clients:
        await client.socket.close()
    due = f" of {n * SECONDS}" if paced else ""
    latency = f"p50 {statistics.median(took):,.0f} ms, p95 {p95(took):,.0f} ms" if took else "—"
    per = cpu / max(len(took), 1)
    return (
        f"| {srv.name} | {n}{'' if paced else ' back to back'} | {len(took)}{due} | {len(took) / wall:.1f}/s "
        f"| {latency} | {per * 1000:.0f} ms ({cpu / wall:.0%} of a core) "
        f"| {statistics.mean(messages) if messages else 0:.0f} | {srv.rss_mb():.0f} MB |"
    )


async def main() -> None:
    lines = [f"protocol clients (no browser), {SECONDS} s a level"]
    with served.servers(30) as running:
        apps = {n: srv for n, srv in running.items() if n in TARGETS or n == "main"}
        lines.append(f"({served.uptime()})")
        lines.append(
            "| | clients | searches done | per s | latency | server CPU per search | messages | memory |"
        )
        lines.append("|---|---|---|---|---|---|---|---|")
        for name, srv in apps.items():  # warm up: the first search builds what later ones reuse
            warm = await _clients(srv.url, TARGETS.get(name, TARGETS["ours"]), 1)
            await warm[0].search(QUERIES[0])
            await warm[0].socket.close()
        for n in LEVELS:
            for name, srv in apps.items():
                lines.append(await _level(srv, TARGETS.get(name, TARGETS["ours"]), n, paced=True))
                print(lines[-1], flush=True)
        for name, srv in apps.items():
            lines.append(await _level(srv, TARGETS.get(name, TARGETS["ours"]), 10, paced=False))
            print(lines[-1], flush=True)
        lines.append(f"({served.uptime()})")
    print("\n".join(lines))


if __name__ == "__main__":
    asyncio.run(main())
