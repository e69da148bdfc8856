"""Bounded work per browser tab (issue 15): how many files one tab may upload, and how much.

Every file a page parses — a rules text on «Правила» or «Что изменилось», a scenario or desk file
on «Стол судьи», a card base on «Карты» — is counted against its tab's budget before it is parsed:
at most UPLOADS_PER_MINUTE files in any minute, and SESSION_UPLOAD_MB in all while the tab lives.
One tab flooding the hall's server with uploads would slow every judge; a judge at a table never
comes near these numbers. These are THE per-tab upload limits (the README states them); each page
also keeps its per-file limits (size, type) beside its uploader.

The budget is a value (the page keeps it in the tab's st.session_state); nothing here is shared.
Every file a page is handed counts, the ones it then refuses for their size too: the bytes were
sent all the same.

Beside them, the server-wide bounds (issue 26), since per-tab limits do not stop a player opening
more tabs: what one file's parse may use in the bounded worker (storage.worker) and how many parse
at once; what windows' own uploads may hold in the server's memory together (storage.held; the
least recently used is dropped and its window told to upload again); and the bytes of uploaded files
Streamlit itself keeps, per tab and for the whole server (app_pages/shared/uploads.py).
"""

from __future__ import annotations

import dataclasses

UPLOADS_PER_MINUTE = 8
SESSION_UPLOAD_MB = 150
WINDOW_S = 60.0

PARSE_CPU_S = 60  # a 300-page rules PDF takes a few seconds
PARSE_MEMORY_MB = 1024
PARSE_WALL_S = 180
PARSES_AT_ONCE = 2  # the laptop's cores: more would only slow every parse down
PARSE_QUEUE_S = 60
HELD_MB = 600  # windows' own parsed uploads, all windows together (estimated memory)
HELD_ITEMS = 12
TAB_FILES_MB = 100  # uploaded bytes Streamlit keeps for one tab at a time
SERVER_FILES_MB = 400  # … and for all tabs together


@dataclasses.dataclass(frozen=True)
class UploadBudget:
    """One tab's uploads so far: when the recent ones were accepted, and how many bytes in all."""

    times: tuple[float, ...] = ()
    spent: int = 0

    def refusal(self, names: list[str], size: int, now: float) -> str | None:
        """Why these files (`size` bytes together) are not taken now, in Russian; None to go on."""
        recent = [t for t in self.times if now - t < WINDOW_S]
        shown = ", ".join(f"«{n}»" for n in names) or "файл"
        if len(recent) + max(len(names), 1) > UPLOADS_PER_MINUTE:
            wait = max(1, round(WINDOW_S - (now - min(recent)))) if recent else round(WINDOW_S)
            return (
                f"{shown}: не загружено — из этой вкладки не больше {UPLOADS_PER_MINUTE} файлов в минуту "
                f"(так один браузер не займёт общий сервер). Подождите {wait} с и загрузите снова."
            )
        total = SESSION_UPLOAD_MB * 1024 * 1024
        if self.spent + size > total:
            done = self.spent / (1024 * 1024)
            return (
                f"{shown}: не загружено — из этой вкладки уже загружено {done:.0f} МБ, а за один сеанс "
                f"можно не больше {SESSION_UPLOAD_MB} МБ (так один браузер не займёт общий сервер)."
            )
        return None

    def spend(self, count: int, size: int, now: float) -> UploadBudget:
        """The budget after `count` files of `size` bytes together were accepted at `now`."""
        recent = tuple(t for t in self.times if now - t < WINDOW_S)
        return UploadBudget(times=recent + (now,) * max(count, 1), spent=self.spent + size)
