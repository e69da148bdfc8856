"""Untrusted files parsed in a bounded worker process, so one file can cost a worker, never the server.

Every phone in the hall reaches the head judge's server, and anyone may upload a rules document,
a card base, a desk or a scenario file. A file built to make a parser slow or greedy must not take
a core for hours or the server's memory: its parse runs in a child process with limits.

How a job runs:
- One forkserver per server process (multiprocessing's "forkserver" start method), started once
  with the parsing modules imported (`preload`). Each job is a fresh child forked from it: a few
  milliseconds, nothing imported again, and a killed job leaves nothing behind (a reused worker
  would keep a hostile parse's heap and its spent CPU seconds).
- The child sets its limits before it parses a byte (`Limits`): CPU seconds (RLIMIT_CPU: the
  kernel stops it), address space over what it holds when forked (RLIMIT_AS: an allocation past it
  fails, and Python raises MemoryError), no core files; and it sends back at most `output_mb` of
  pickled result.
- The parent waits, passing the child's progress reports on, and kills the child when the
  wall-clock limit passes or the window that asked goes away (`cancelled`, which must hold for
  `grace_s`, so a phone that drops its connection for a moment keeps its parse).
- At most `slots` jobs run at once; the others wait up to `queue_s` in line. Any number of tabs
  then costs at most slots × memory.

What crosses the boundary: the job (a module-level function, by name), its arguments (bytes and
flags) in; one pickled answer out: the result, the job's own exception (re-raised in the parent,
so a page catches CorpusError as before), or which limit was passed. The child runs only our code
on the file, so its answer is read with pickle as the result of any library call would be; its
size is bounded before it is read. Mapping proxies (our frozen indexes use them) cross as dicts.

Known edge: the arguments go to the child while it starts (multiprocessing writes them into its
pipe), so a child stopped from outside before it has read them (a SIGSTOP) would hold its
parent's start; nothing the file does can stop the child that early.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import gc
import importlib.util
import io
import multiprocessing
import multiprocessing.connection
import os
import pickle
import resource
import signal
import struct
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping, Sequence
from multiprocessing import spawn
from pathlib import Path
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_MB = 1024 * 1024
_POLL_S = 0.1
# The tags of the child's messages: progress, result, the job's exception, its text only (an
# exception that does not pickle), out of memory, an answer over the output limit.
_PROGRESS, _RESULT, _RAISED, _SAID, _MEMORY, _OVERSIZE = b"P", b"R", b"E", b"S", b"M", b"O"


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one job may use. `wall_s` bounds a child that waits instead of computing."""

    cpu_s: int = 60
    memory_mb: int = 1024
    output_mb: int = 128
    wall_s: float = 180.0


class LimitError(Exception):
    """A job stopped at a limit (or never started: the queue was full); the message is Russian and
    names the limit. `limit` is one of cpu, memory, output, wall, busy, crash."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit


class Cancelled(Exception):
    """The window that asked for the job went away; the child was stopped."""


@dataclasses.dataclass(frozen=True)
class Parsed(Generic[T]):
    """A job's result and the size of its pickled form (what a server-wide bound can count)."""

    value: T
    size: int


def _proxy(items: dict[Any, Any]) -> Mapping[Any, Any]:
    return types.MappingProxyType(items)


@contextlib.contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """The cyclic collector off while a result is pickled or read: an index is hundreds of
    thousands of small objects, and the collector, run again and again as they are made, took
    three quarters of the time to read one (0.86 s against 0.25 s for 3,030 clauses). Restored
    as it was (the app may run with it off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _dumps(value: object) -> bytes:
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    table = copyreg.dispatch_table.copy()
    table[types.MappingProxyType] = lambda proxy: (_proxy, (dict(proxy),))
    pickler.dispatch_table = table
    pickler.dump(value)
    return buffer.getvalue()


class Pool:
    """The server's bounded workers (one per process: `st.cache_resource` in the pages).

    `preload`: the modules the forkserver imports once (the first one to start in a process sets
    them); `slots`: jobs at once; `queue_s`: how long a job waits for a slot; `grace_s`: how long
    `cancelled()` must hold before the child is stopped.
    """

    def __init__(
        self, *, preload: Sequence[str] = (), slots: int = 2, queue_s: float = 60.0, grace_s: float = 5.0
    ) -> None:
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(list(preload))
        _importable_in_forkserver(preload)
        self._slots = threading.BoundedSemaphore(slots)
        self._slot_count = slots
        self._queue_s = queue_s
        self._grace_s = grace_s

    def warm(self, after_s: float = 0.0) -> None:
        """Start the forkserver (and its imports) in the background, `after_s` seconds from now, so
        the first upload finds it ready. A job that comes first starts it itself (`ensure_running`
        is idempotent and locked), only waiting the forkserver's start on top of its parse."""
        threading.Thread(target=self._start, args=(after_s,), name="upload-forkserver", daemon=True).start()

    @staticmethod
    def _start(after_s: float) -> None:
        from multiprocessing import forkserver

        time.sleep(after_s)
        forkserver.ensure_running()

    def run(
        self,
        job: Callable[..., T],
        *args: object,
        limits: Limits,
        progress: Callable[[float], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        **kwargs: object,
    ) -> Parsed[T]:
        """`job(*args, **kwargs)` in a bounded child; with `progress`, the job gets `progress=` a
        function whose reports reach `progress` here.

        Raises:
            LimitError: a limit was passed, the queue was full or the child died (Russian message).
            Cancelled: `cancelled()` held for `grace_s`.
            Whatever `job` raised (re-raised here; the child's traceback stays there).
        """
        watch = _Watch(cancelled, self._grace_s)
        self._take_slot(watch)
        try:
            return self._run(job, args, kwargs, limits, progress, watch)
        finally:
            self._slots.release()

    def _take_slot(self, watch: _Watch) -> None:
        deadline = time.monotonic() + self._queue_s
        while not self._slots.acquire(timeout=0.25):
            watch.check()
            if time.monotonic() > deadline:
                raise LimitError(
                    "busy",
                    f"сервер сейчас разбирает другие файлы (не больше {self._slot_count} одновременно), и "
                    f"очередь не дошла до вашего за {self._queue_s:.0f} с. Загрузите файл снова через "
                    "минуту.",
                )

    def _run(
        self,
        job: Callable[..., T],
        args: tuple[object, ...],
        kwargs: dict[str, object],
        limits: Limits,
        progress: Callable[[float], None] | None,
        watch: _Watch,
    ) -> Parsed[T]:
        receiver, sender = self._context.Pipe(duplex=False)
        child = self._context.Process(
            target=_child,
            args=(sender, job, args, kwargs, limits, progress is not None),
            name="upload-job",
            daemon=True,
        )
        try:
            with _without_main():
                child.start()
            sender.close()
            answer = _wait(child, receiver, limits, progress, watch)
        finally:
            receiver.close()
            if child.is_alive():
                child.kill()
            child.join()
            exitcode = child.exitcode
            child.close()
        if answer is None:
            raise _died(exitcode, limits)
        return _read(answer, limits)


_START_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """Start a child without the parent's main script. multiprocessing has every new child run the
    parent's `__main__` again (to find functions defined there); a job is a function of our packages,
    and the server's main script is Streamlit's command line (`streamlit run` imports it for most
    of a second) or a bench script. The preparation data the child gets is the same but for that.
    Only this module starts processes in the app, and it does so under the lock."""
    original = spawn.get_preparation_data

    def prepared(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_name", None)
        data.pop("init_main_from_path", None)
        return data

    with _START_LOCK:
        spawn.get_preparation_data = prepared
        try:
            yield
        finally:
            spawn.get_preparation_data = original


def _importable_in_forkserver(preload: Sequence[str]) -> None:
    """Put the folders the preloaded packages live in on PYTHONPATH for the forkserver.

    Python 3.11's forkserver ignores the parent's sys.path and imports from its working folder; a
    server started elsewhere would silently preload nothing, and every job would import the
    parsers again (hundreds of milliseconds). Its children set sys.path themselves."""
    folders: list[str] = []
    for name in preload:
        spec = importlib.util.find_spec(name.partition(".")[0])
        if spec is None:
            continue
        if spec.submodule_search_locations:  # a package: the folder it sits in
            folders.append(str(Path(next(iter(spec.submodule_search_locations))).resolve().parent))
        elif spec.origin:  # a module: its own folder
            folders.append(str(Path(spec.origin).resolve().parent))
    known = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    wanted = [f for f in dict.fromkeys(folders) if f not in known]
    if wanted:
        os.environ["PYTHONPATH"] = os.pathsep.join([*wanted, *known])


class _Watch:
    """`cancelled()` held for `grace` seconds in a row: the window is gone, not just reconnecting."""

    def __init__(self, cancelled: Callable[[], bool] | None, grace: float) -> None:
        self._cancelled = cancelled
        self._grace = grace
        self._since: float | None = None

    def check(self) -> None:
        if self._cancelled is None:
            return
        if not self._cancelled():
            self._since = None
            return
        now = time.monotonic()
        if self._since is None:
            self._since = now
        if now - self._since >= self._grace:
            raise Cancelled()


def _wait(
    child: Any,
    receiver: multiprocessing.connection.Connection,
    limits: Limits,
    progress: Callable[[float], None] | None,
    watch: _Watch,
) -> bytes | None:
    """The child's answer (its last message), or None when it ended without one."""
    deadline = time.monotonic() + limits.wall_s
    most = limits.output_mb * _MB + 64
    while True:
        if receiver.poll(_POLL_S):
            try:
                message = receiver.recv_bytes(most)
            except EOFError:
                return None
            except OSError:  # longer than `most`: the child ignored its own output limit
                return _OVERSIZE + str(most).encode()
            if message[:1] != _PROGRESS:
                return message
            if progress is not None:
                progress(struct.unpack("d", message[1:9])[0])
            continue
        if not child.is_alive() and not receiver.poll(0):
            return None
        if time.monotonic() > deadline:
            raise LimitError(
                "wall",
                f"разбор файла не закончился за {limits.wall_s:.0f} с — это предел для одного файла.",
            )
        watch.check()


def _read(answer: bytes, limits: Limits) -> Parsed[Any]:
    tag, body = answer[:1], answer[1:]
    if tag == _RESULT:
        with _no_cyclic_gc():
            return Parsed(pickle.loads(body), len(body))
    if tag == _RAISED:
        raise pickle.loads(body)
    if tag == _SAID:
        raise LimitError("crash", f"разбор файла прервался: {body.decode('utf-8', 'replace')}")
    if tag == _MEMORY:
        raise _memory(limits)
    if tag == _OVERSIZE:
        size = int(body.decode() or 0)
        raise LimitError(
            "output",
            f"результат разбора файла больше {limits.output_mb} МБ ({size / _MB:.0f} МБ) — это предел "
            "для одного файла.",
        )
    raise LimitError("crash", "разбор файла прервался: процесс разбора ответил непонятно.")


def _memory(limits: Limits) -> LimitError:
    return LimitError(
        "memory", f"разбору файла не хватило {limits.memory_mb} МБ памяти — это предел для одного файла."
    )


def _died(exitcode: int | None, limits: Limits) -> LimitError:
    """Why a child ended without an answer: the kernel's CPU limit (SIGXCPU at the soft limit,
    SIGKILL at the hard one), or a crash, which under RLIMIT_AS is most often memory in C code."""
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return LimitError(
            "cpu",
            f"разбор файла занял больше {limits.cpu_s} с процессорного времени — это предел для "
            "одного файла.",
        )
    return LimitError(
        "crash",
        f"разбор файла прервался (код {exitcode}); чаще всего так кончается память: предел для одного "
        f"файла — {limits.memory_mb} МБ.",
    )


# -- in the child ---------------------------------------------------------------------------------


def _address_space() -> int:
    """The bytes of address space this process maps now (VmSize), 0 where /proc does not say."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _set_limits(limits: Limits) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = limits.cpu_s if cpu_hard == resource.RLIM_INFINITY else min(limits.cpu_s, cpu_hard)
    hard = soft + 2 if cpu_hard == resource.RLIM_INFINITY else cpu_hard
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    base = _address_space()
    if base:
        _, as_hard = resource.getrlimit(resource.RLIMIT_AS)
        wanted = base + limits.memory_mb * _MB
        cap = wanted if as_hard == resource.RLIM_INFINITY else min(wanted, as_hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, as_hard))


class _Reporter:
    """The child's `progress`: a report at most every 0.2 s (the parent redraws a bar for each)."""

    def __init__(self, sender: multiprocessing.connection.Connection) -> None:
        self._sender = sender
        self._last = 0.0

    def __call__(self, share: float) -> None:
        now = time.monotonic()
        if now - self._last >= 0.2:
            self._last = now
            self._sender.send_bytes(_PROGRESS + struct.pack("d", float(share)))


def _child(
    sender: multiprocessing.connection.Connection,
    job: Callable[..., object],
    args: tuple[object, ...],
    kwargs: dict[str, object],
    limits: Limits,
    with_progress: bool,
) -> None:
    _set_limits(limits)
    try:
        if with_progress:
            kwargs = {**kwargs, "progress": _Reporter(sender)}
        result = job(*args, **kwargs)
        with _no_cyclic_gc():
            answer = _RESULT + _dumps(result)
    except MemoryError:
        answer = _MEMORY
    except Exception as exc:  # the job's own error goes to the parent, which re-raises it
        answer = _raised(exc)
    if len(answer) > limits.output_mb * _MB:
        answer = _OVERSIZE + str(len(answer)).encode()
    with contextlib.suppress(OSError):  # the parent has gone: nobody to answer
        sender.send_bytes(answer)
    sender.close()


def _raised(exc: Exception) -> bytes:
    """The exception pickled, if it comes back whole (its type and its message); else its message
    alone (an exception whose constructor wants other arguments than it keeps does not unpickle, or
    comes back saying something else)."""
    try:
        body = _dumps(exc)
        back = pickle.loads(body)
        if type(back) is not type(exc) or str(back) != str(exc):
            raise TypeError("the exception does not come back as it was")
    except Exception:
        return _SAID + str(exc).encode("utf-8", "replace")
    return _RAISED + body


def child_pids() -> list[int]:
    """The job children running now (for tests: none should outlive their job)."""
    return [p.pid for p in multiprocessing.active_children() if p.pid is not None and p.name == "upload-job"]


__all__ = ["Cancelled", "LimitError", "Limits", "Parsed", "Pool", "child_pids"]
