"""Uploads within the server's bounds (issue 26), for every page that takes a file.

Every phone in the hall can reach the head judge's server, so no upload may cost it more than a
bounded worker and a bounded share of memory. The numbers are in rulings/limits.py.

- `parse(job, *args, limits=…, progress=…)`: a parser run in the process's bounded worker
  (storage.worker), stopped when this window goes away; a limit passed comes back as
  `storage.worker.LimitError` with its Russian message (the page keeps what was open).
- `hold(parsed, label)` / `redeem(ticket)`: a window-only result under the server's budget for
  windows' uploads (storage.held): the least recently used is dropped, and the page asks for the
  file again. A window gone for good releases what it held (the sweeper, below).
- `bound_streamlit_uploads()`: Streamlit keeps every uploaded file's bytes in memory until its
  window ends, and takes a file sent straight to its upload address whether or not a page ever
  reads it. Bounded here: a tab may send at most SESSION_UPLOAD_MB in all (every byte it sends
  counts, whatever a page does with it), keep at most TAB_FILES_MB at a time, and all tabs
  together SERVER_FILES_MB (oldest files first out).
- The sweeper (one thread per process): Streamlit never shuts down a session whose window closed
  and whose reconnect time ran out, so whatever that window held stays. Once Streamlit no longer
  keeps a session for a reconnect (`server.disconnectedSessionTTL` after its window went), its
  held results and its upload bytes go, at the sweeper's next look (every SWEEP_S seconds).
- `start()`, called at the top of every run (app.py): the bounds are in place before the first
  upload of the process arrives, and what interrupted saves left in the stores is swept away.
- `file_name(upload)`: an uploaded file's name as a page may show it (clean text, bounded).
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import gc
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st
from starlette.exceptions import HTTPException
from streamlit import config
from streamlit.runtime import Runtime
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx
from streamlit.runtime.uploaded_file_manager import UploadedFileRec

from cardbase import store as card_store
from rules_index import versions as rules_versions
from rulings import limits as bounds
from storage import clean, held, worker

T = TypeVar("T")
MB = 1024 * 1024
# The modules a parse needs, imported once by the forkserver (each job is a fork of it).
PRELOAD = (
    "storage.worker",
    "rules_index",
    "rules_index.importers.pdf",
    "rules_index.importers.docx",
    "rules_index.importers.html",
    "cardbase",
    # cardbase imports its readers when first asked for them (issue 24); a card base's import needs them.
    "cardbase.importer",
    "casebook",
    "desk.share",
    # «Что изменилось» diffs two versions in the worker too (app_pages.shared.version_diff).
    "rules_index.diff",
    "scipy.optimize",
)
RULES = worker.Limits(
    cpu_s=bounds.PARSE_CPU_S, memory_mb=bounds.PARSE_MEMORY_MB, output_mb=128, wall_s=bounds.PARSE_WALL_S
)
CARDS = RULES
# A desk or scenario file is at most 1 MB; its parse needs a fraction of a rules document's.
DESK = worker.Limits(cpu_s=10, memory_mb=256, output_mb=8, wall_s=30)
# A parsed result takes about five times its pickled size in memory (measured on a 3,030-clause
# rules index: 5.8 MB pickled, 28 MB held); the budget counts the estimate.
MEMORY_PER_PICKLED_BYTE = 5
MAX_NAME = 120
# How often the sweeper looks: a look asks Streamlit about the few sessions holding uploads, so it
# is cheap, and a gone window's memory comes back at most this long after its session expired.
SWEEP_S = 5.0
# The forkserver's start (a Python process importing PRELOAD, scipy.optimize among them: about
# 0.7 s of CPU) waits this long after the process's first run begins, so it does not take a core
# from the first window's run and its browser on a two-core laptop (issue 24: the cold first window).
WARM_AFTER_S = 10.0
# Files a tab and all tabs may keep at once (a page takes at most a few; a sender of many tiny files
# is bounded by count, not bytes).
MAX_TAB_FILES = 16
MAX_FILES = 1000
# Where Streamlit's session store cannot be asked (another session manager than its own), a session
# gone this long past the reconnect time is taken as gone for good.
SWEEP_MARGIN_S = 30.0


# -- one set per process ------------------------------------------------------------------------


class _Uploads:
    """The process's worker, its budget for windows' uploads, the bound on Streamlit's upload
    store (None under AppTest, which has no server) and the sweeper's memory of gone sessions."""

    def __init__(self) -> None:
        self.pool = worker.Pool(preload=PRELOAD, slots=bounds.PARSES_AT_ONCE, queue_s=bounds.PARSE_QUEUE_S)
        self.held = held.Held(max_bytes=bounds.HELD_MB * MB, max_items=bounds.HELD_ITEMS)
        self.bound = _bind_streamlit_uploads()
        self.gone: dict[str, float] = {}  # session id → when it was first seen gone
        self.pool.warm(after_s=WARM_AFTER_S)
        # What a save killed mid-way left in the stores (a hidden staging folder) goes at start.
        rules_versions.default_store().sweep()
        card_store.default_store().sweep()
        if Runtime.exists():
            threading.Thread(target=self._sweep_forever, name="upload-sweeper", daemon=True).start()

    def _sweep_forever(self) -> None:
        while True:
            time.sleep(SWEEP_S)
            try:
                self.sweep()
            except Exception:  # a sweep that fails is tried again; the server goes on
                continue

    def sweep(
        self,
        now: float | None = None,
        active: Callable[[str], bool] | None = None,
        grace: float | None = None,
        kept: Callable[[str], bool] | None = None,
    ) -> list[str]:
        """Release what sessions gone for good held (Streamlit never shuts one down whose
        reconnect time ran out). The session ids released.

        A session not `active` is gone for good once Streamlit no longer `kept` it for a reconnect
        (its session store drops a closed window's session when the reconnect time runs out);
        where that store cannot be asked, once it has been seen gone for `grace` seconds (the
        reconnect time and a margin)."""
        if active is None:
            if not Runtime.exists():
                return []
            active = Runtime.instance().is_active_session
            kept = _kept_for_reconnect()
        now = time.monotonic() if now is None else now
        if grace is None:
            grace = float(config.get_option("server.disconnectedSessionTTL")) + SWEEP_MARGIN_S
        owners = {str(o) for o in self.held.owners()} | (self.bound.sessions() if self.bound else set())
        released = []
        for session in owners:
            if active(session):
                self.gone.pop(session, None)
                continue
            if kept is not None:
                # A reconnect makes a session active before Streamlit drops it from the store, so
                # one not kept and still not active has no window left to come back.
                if kept(session) or active(session):
                    continue
            elif now - self.gone.setdefault(session, now) < grace:
                continue
            self.held.drop_owner(session)
            if self.bound is not None:
                self.bound.end_session(session)
            self.gone.pop(session, None)
            released.append(session)
        for session in [s for s in self.gone if s not in owners]:
            del self.gone[session]
        if released:
            _give_back()
        return released


def _kept_for_reconnect() -> Callable[[str], bool] | None:
    """Whether Streamlit still keeps a session, connected or waiting for its window to reconnect;
    None where its session manager cannot be asked (the sweeper then goes by time)."""
    manager = getattr(Runtime.instance(), "_session_mgr", None)
    info = getattr(manager, "get_session_info", None)
    if not callable(info):
        return None
    return lambda session: info(session) is not None


def _give_back() -> None:
    """After a window's uploads are released, hand their memory back: a parsed index is a web of
    objects that only the cyclic collector frees (the app runs no collection after each script
    run), and glibc keeps freed heap unless asked to return it (measured by bench_uploads: five
    players' released uploads took the server from 303 to 277 MB without this, to 160 MB with it)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


@st.cache_resource(show_spinner=False)
def resources() -> _Uploads:
    """The one set per process (the forkserver starts in the background WARM_AFTER_S later)."""
    return _Uploads()


def start() -> None:
    """At the start of every run: the bounds are in place before the first upload arrives."""
    resources()


# -- parsing -------------------------------------------------------------------------------------


def _session_id() -> str | None:
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def _window_gone() -> Callable[[], bool] | None:
    """Whether this window has gone (its session no longer active), for the worker to stop; None
    where there is no server (a page under AppTest)."""
    session = _session_id()
    if session is None or not Runtime.exists():
        return None
    runtime = Runtime.instance()
    return lambda: not runtime.is_active_session(session)


def parse(
    job: Callable[..., T],
    *args: object,
    limits: worker.Limits,
    progress: Callable[[float], None] | None = None,
    **kwargs: object,
) -> worker.Parsed[T]:
    """`job(*args, **kwargs)` in the bounded worker, for this window.

    Raises:
        storage.worker.LimitError: a limit was passed, the queue was full, the parse crashed, or
            the window went away meanwhile (limit «cancelled»: nobody is left to read it).
        Whatever `job` raised (CorpusError, CardBaseError, DeskError, ScenarioError…).
    """
    try:
        return resources().pool.run(
            job, *args, limits=limits, progress=progress, cancelled=_window_gone(), **kwargs
        )
    except worker.Cancelled:
        raise worker.LimitError("cancelled", "окно закрыто, разбор файла остановлен.") from None


# -- what windows hold ---------------------------------------------------------------------------


def held_uploads() -> held.Held:
    """The one budget for windows' own uploads (and what else a process keeps per upload)."""
    return resources().held


def hold(parsed: worker.Parsed[Any], label: str, raw_bytes: int = 0) -> held.Ticket | None:
    """Keep a window-only result under the server's budget; None when it alone is over it.
    `raw_bytes`: file bytes the result keeps beside what was parsed (a base awaiting consent)."""
    cost = parsed.size * MEMORY_PER_PICKLED_BYTE + raw_bytes
    return resources().held.ticket(parsed.value, cost, label, owner=_session_id())


def redeem(ticket: object) -> Any:
    """The result behind a ticket, or None (no ticket, or dropped for room)."""
    return resources().held.redeem(ticket) if isinstance(ticket, held.Ticket) else None


def dropped(label: str) -> str:
    """What a window is told when its upload was dropped for room."""
    return (
        f"Загруженный в это окно файл {label} больше не хранится на сервере: память для загрузок "
        "игроков заняли более новые загрузки. Загрузите файл снова."
    )


def too_big_to_hold(label: str) -> str:
    return (
        f"Файл {label} разобран, но в памяти он занял бы больше, чем сервер держит для загрузок игроков "
        f"({bounds.HELD_MB} МБ на всех), и не открыт. Сохранить его на сервере может судья."
    )


def file_name(upload: Any) -> str:
    """An uploaded file's name as a page shows it: clean text (a name is whatever the sender
    wrote), at most MAX_NAME characters."""
    name = clean.scrub(str(getattr(upload, "name", "") or "файл"))
    return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


# -- the bytes Streamlit keeps -------------------------------------------------------------------


class _Bound:
    """Streamlit's in-memory upload store under our bounds (its `add_file`, wrapped)."""

    def __init__(self, manager: MemoryUploadedFileManager) -> None:
        self._manager = manager
        self._add = manager.add_file
        self._lock = threading.Lock()
        self._sent: dict[str, int] = {}  # session → bytes it has sent since it began
        self._files: collections.OrderedDict[tuple[str, str], int] = collections.OrderedDict()

    def add_file(self, session_id: str, file: UploadedFileRec) -> None:
        size = len(file.data)
        with self._lock:
            sent = self._sent.get(session_id, 0) + size
            if sent > bounds.SESSION_UPLOAD_MB * MB:
                raise HTTPException(
                    status_code=413,
                    detail=f"Из этой вкладки уже загружено больше {bounds.SESSION_UPLOAD_MB} МБ за сеанс.",
                )
            self._sent[session_id] = sent
            self._forget_removed()
            self._make_room(session_id, size)
            self._add(session_id, file)
            self._files[(session_id, file.file_id)] = size

    def _forget_removed(self) -> None:
        """Forget files Streamlit no longer holds (a page replaced them, their window ended)."""
        for sid, fid in list(self._files):
            if not self._manager.get_files(sid, [fid]):
                del self._files[(sid, fid)]

    def _make_room(self, session_id: str, size: int) -> None:
        """Drop the tab's oldest files past its share, then anyone's oldest past the server's."""
        mine = [k for k in self._files if k[0] == session_id]
        while mine and (
            sum(self._files[k] for k in mine) + size > bounds.TAB_FILES_MB * MB or len(mine) >= MAX_TAB_FILES
        ):
            self._drop(mine.pop(0))
        while self._files and (
            sum(self._files.values()) + size > bounds.SERVER_FILES_MB * MB or len(self._files) >= MAX_FILES
        ):
            self._drop(next(iter(self._files)))

    def _drop(self, key: tuple[str, str]) -> None:
        self._manager.remove_file(*key)
        self._files.pop(key, None)

    def end_session(self, session_id: str) -> None:
        with self._lock:
            self._manager.remove_session_files(session_id)
            self._sent.pop(session_id, None)
            for key in [k for k in self._files if k[0] == session_id]:
                del self._files[key]

    def sessions(self) -> set[str]:
        with self._lock:
            return set(self._sent) | {sid for sid, _ in self._files}


def _bind_streamlit_uploads() -> _Bound | None:
    """Put Streamlit's upload store under our bounds (None where there is no server)."""
    if not Runtime.exists():
        return None
    manager = Runtime.instance().uploaded_file_mgr
    if not isinstance(manager, MemoryUploadedFileManager):
        return None
    bound = _Bound(manager)
    manager.add_file = bound.add_file  # type: ignore[method-assign]
    return bound
