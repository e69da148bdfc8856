"""What uploads hold in a server's memory, bounded for the whole server: least recently used first out.

A player's upload (rules opened in one window, a card base not stored) lives only in memory, and
per-window limits do not stop a player opening more windows. So the parsed results live here, in
one object per server process, under a budget of bytes and of items; a window keeps only a
`Ticket`. When the budget is spent the least recently used result is dropped, and the window that
held it finds nothing behind its ticket: the page says the upload is gone and asks for it again.
A ticket names its window (`owner`): the page's sweeper drops an owner's results once its window
has been gone longer than the server keeps a closed window for a reconnect (`drop_owner`; Streamlit
itself never tells a session it expired). A ticket that is garbage-collected releases its result
too (a finaliser), whichever comes first.

The same bound serves anything else a process keeps per upload by a key of its own (the rules
versions stored on the server, loaded by id): `put`/`get` with that key.

Costs are what the caller says an item takes, in bytes; the bounded worker's pickled size
(`worker.Parsed.size`) is a fair, free measure of a parsed result.
"""

from __future__ import annotations

import collections
import dataclasses
import secrets
import threading
import weakref
from collections.abc import Hashable
from typing import Any

_MB = 1024 * 1024


@dataclasses.dataclass(frozen=True)
class Stats:
    items: int
    bytes: int
    dropped: int  # items dropped for room since the start


class Ticket:
    """A window's claim on one held result; the result is dropped when the ticket is."""

    __slots__ = ("__weakref__", "key", "label")

    def __init__(self, key: str, label: str) -> None:
        self.key = key
        self.label = label  # what the page calls the upload when it is gone («rules.pdf»)

    def __repr__(self) -> str:
        return f"Ticket({self.label!r})"


class Held:
    """Results under one budget: at most `max_bytes` together and `max_items` of them.

    Thread-safe (every window's script thread uses the one object). An item larger than the whole
    budget is not kept at all (`put` returns False).
    """

    def __init__(self, *, max_bytes: int, max_items: int) -> None:
        self._max_bytes = max_bytes
        self._max_items = max_items
        self._items: collections.OrderedDict[Hashable, tuple[Any, int]] = collections.OrderedDict()
        self._owners: dict[Hashable, set[Hashable]] = {}  # owner → keys of its tickets
        self._bytes = 0
        self._dropped = 0
        self._lock = threading.Lock()

    def put(self, key: Hashable, value: object, cost: int) -> bool:
        """Keep `value` under `key` (replacing what was there), dropping the least recently used
        items until it fits; False (nothing kept) when it is larger than the whole budget."""
        with self._lock:
            self._pop(key)
            if cost > self._max_bytes:
                return False
            while self._items and (
                self._bytes + cost > self._max_bytes or len(self._items) >= self._max_items
            ):
                oldest = next(iter(self._items))
                self._pop(oldest)
                self._dropped += 1
            self._items[key] = (value, cost)
            self._bytes += cost
            return True

    def get(self, key: Hashable) -> Any:
        """The value under `key` (now the most recently used), or None when it was dropped."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return None
            self._items.move_to_end(key)
            return found[0]

    def pop(self, key: Hashable) -> None:
        with self._lock:
            self._pop(key)

    def _pop(self, key: Hashable) -> None:
        found = self._items.pop(key, None)
        if found is not None:
            self._bytes -= found[1]

    def ticket(self, value: object, cost: int, label: str, owner: Hashable = None) -> Ticket | None:
        """Hold a window's result; the ticket is its only way back (None: larger than the budget).
        `owner`: the window it belongs to, for `drop_owner`."""
        ticket = Ticket(secrets.token_hex(16), label)
        key = ("ticket", ticket.key)
        if not self.put(key, value, cost):
            return None
        if owner is not None:
            with self._lock:
                self._owners.setdefault(owner, set()).add(key)
        weakref.finalize(ticket, self.pop, key)
        return ticket

    def owners(self) -> list[Hashable]:
        """The windows that hold something now."""
        with self._lock:
            for owner, keys in list(self._owners.items()):
                keys.intersection_update(self._items)
                if not keys:
                    del self._owners[owner]
            return list(self._owners)

    def drop_owner(self, owner: Hashable) -> int:
        """Drop everything a window holds (it has gone for good); how many results were dropped."""
        with self._lock:
            keys = self._owners.pop(owner, set())
            held = [k for k in keys if k in self._items]
            for key in held:
                self._pop(key)
            return len(held)

    def redeem(self, ticket: Ticket) -> Any:
        """The result behind a ticket, or None when it was dropped for room."""
        return self.get(("ticket", ticket.key))

    def stats(self) -> Stats:
        with self._lock:
            return Stats(len(self._items), self._bytes, self._dropped)


def megabytes(count: int) -> int:
    return count * _MB
