"""What one tap costs the browser, in figures that do not depend on the machine's load (issue 24).

Wall times on a shared machine are noisy; what a tap makes the browser do is not: the messages
the server sends for it (Streamlit's ForwardMsgs, one websocket frame each, and their bytes), the
DOM nodes the page holds after it, and the CPU time Chromium's processes spend on it (read from
/proc: the renderer's JavaScript, style, layout and raster, the GPU and browser processes; the
driving Node process is left out). The server's CPU time for the tap is beside them. bench_browser's
`work` part drives the same taps as its latency parts on each app, round by round, and prints the
medians.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.bench import served


def browser_cpu_s() -> float:
    """CPU time of every Chromium process the benchmark started, in seconds."""
    return served.descendants_cpu_s(os.getpid(), comm="chrom")


class Frames:
    """The websocket frames a page receives (each a ForwardMsg), counted with their bytes."""

    def __init__(self, page: Any) -> None:
        self.sizes: list[int] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._got))

    def _got(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.sizes.append(len(payload))


@dataclass
class Work:
    """One app's taps of one kind."""

    messages: list[int] = field(default_factory=list)
    kb: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    browser_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)

    def row(self, tap: str, name: str) -> str:
        med = statistics.median
        return (
            f"| {tap} | {name} | {med(self.messages):.0f} | {med(self.kb):.1f} | {med(self.nodes):,.0f} "
            f"| {med(self.browser_ms):.0f} ms | {med(self.server_ms):.0f} ms |"
        )


async def measured(
    page: Any, frames: Frames, srv: served.Server, tap: Callable[[], Awaitable[float]], into: Work
) -> None:
    """Run one tap (its step returns once the page shows the answer and the run is over) and
    record what it cost."""
    at, browser0, server0 = len(frames.sizes), browser_cpu_s(), srv.cpu_s()
    await tap()
    into.browser_ms.append((browser_cpu_s() - browser0) * 1000)
    into.server_ms.append((srv.cpu_s() - server0) * 1000)
    sizes = frames.sizes[at:]
    into.messages.append(len(sizes))
    into.kb.append(sum(sizes) / 1000)
    into.nodes.append(int(await page.evaluate("document.querySelectorAll('*').length")))
