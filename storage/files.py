"""A folder of stored uploads, content-addressed, written atomically.

Each stored item is a folder `<root>/<id>/` holding the uploaded files as they came (`files/`,
each under a safe name `NN-name`; the real name is in meta.json) and `meta.json` (the files' names,
sizes and SHA-256 sums, the upload time, and whatever the domain adds). `<root>/settings.json`
names the item new windows open with (`{"default": id}`, or null for the built-in one). The id is
the first 16 hex digits of a SHA-256 over a domain header and the files' names and bytes, so the
same upload is stored once and an id in a link always means the same files.

Writes are atomic: an item is written into a temporary folder and renamed whole, a JSON file is
written beside its target and replaced, an item is removed by one rename. A crash mid-save leaves
no half item, only a hidden leftover that never counts against the store's size and is removed by
the next sweep (`sweep`: at start and before every save); a broken meta.json hides that one item,
never the store; nothing but the files is trusted (their checksums are checked on every read).

A domain store subclasses `FileStore`: it says how its meta.json reads (`_parse`), what its
messages call an item (`_title`, `wording`), which error it raises, and which items may be the
default; it keeps its own public `save`, `files`, `load` and the guarded module functions that
change what everyone sees (they call `_set_default`, `_remove` and `_guarded` here).
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import ClassVar, Generic, Protocol, TypeVar

SETTINGS = "settings.json"
# A leftover of an interrupted write is removed once it is this old: a save writes its staging
# folder in seconds, so an older one belongs to a process that died.
LEFTOVER_AGE_S = 60.0
_ID = re.compile(r"[0-9a-f]{16}")
_UNSAFE = re.compile(r"[^\w.\- ]+")

T = TypeVar("T")


def content_id(header: bytes, files: Sequence[tuple[str, bytes]]) -> str:
    """The content address of an upload: the same header and files (names and bytes), the same id."""
    digest = hashlib.sha256(header)
    for name, data in files:
        digest.update(name.encode("utf-8") + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
    return digest.hexdigest()[:16]


def is_content_id(text: object) -> bool:
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def now() -> str:
    """The upload time as stored in meta.json: ISO 8601 with the server's offset, to the second."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


def local_time(stamp: str) -> str:
    """«01.12.2026 10:15» in the server's time zone, or the stored text if it does not parse."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%d.%m.%Y %H:%M")
    except ValueError:
        return stamp


@dataclasses.dataclass(frozen=True)
class StoredFile:
    """One stored file as meta.json lists it; `role` only where the domain gives files roles."""

    name: str
    size: int
    sha256: str
    role: str | None = None

    @staticmethod
    def of(name: str, data: bytes, role: str | None = None) -> StoredFile:
        return StoredFile(name, len(data), hashlib.sha256(data).hexdigest(), role)

    def to_dict(self) -> dict[str, object]:
        head: dict[str, object] = {"name": self.name}
        if self.role is not None:
            head["role"] = self.role
        return {**head, "size": self.size, "sha256": self.sha256}

    @staticmethod
    def read_all(raw: object, *, roles: bool) -> tuple[StoredFile, ...]:
        """meta.json's `files`; raises KeyError, TypeError or ValueError on a malformed list (and,
        with `roles`, on a file without its role)."""
        if not isinstance(raw, list):
            raise TypeError("files")
        return tuple(
            StoredFile(str(f["name"]), int(f["size"]), str(f["sha256"]), str(f["role"]) if roles else None)
            for f in raw
        )


class Stored(Protocol):
    """What the store needs of a domain's item (its meta.json read)."""

    @property
    def id(self) -> str: ...

    @property
    def uploaded(self) -> str: ...

    @property
    def files(self) -> tuple[StoredFile, ...]: ...

    def to_dict(self) -> dict[str, object]: ...


@dataclasses.dataclass(frozen=True)
class Wording:
    """A store's messages (Russian), as str.format templates with the fields each names."""

    unknown: str  # {id}: no such item on the server
    lost: str  # {title}, {name}: a stored file is missing
    damaged: str  # {title}, {name}: a stored file does not match its checksum
    too_many: str  # {count}: the store holds as many items as it may
    full: str  # {mb}: the upload would take the store past its size limit
    not_saved: str  # {reason}: the disk refused a save
    not_changed: str  # {root}, {reason}: the disk refused a change of the default or a removal


ItemT = TypeVar("ItemT", bound=Stored)


class FileStore(abc.ABC, Generic[ItemT]):
    """The stored items under one folder. Cheap to create: it holds only the path."""

    error: ClassVar[type[Exception]]
    wording: ClassVar[Wording]
    staging: ClassVar[str]  # the prefix of the temporary folder a save writes into
    builtin: ClassVar[str]  # the default when settings.json names no stored item

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.root)!r})"

    @abc.abstractmethod
    def _parse(self, raw: dict[str, object]) -> ItemT:
        """The item of a meta.json; raises KeyError, TypeError or ValueError when it is malformed."""

    @abc.abstractmethod
    def _title(self, info: ItemT, sid: str) -> str:
        """How the messages about a stored file name its item."""

    def _may_be_default(self, info: ItemT) -> bool:
        return True

    # Reading ----------------------------------------------------------------------------------

    def get(self, sid: str) -> ItemT | None:
        """The item with this id, or None (unknown, removed, or its meta.json unreadable)."""
        if not is_content_id(sid):
            return None
        try:
            return self._parse(json.loads((self.root / sid / "meta.json").read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _all(self) -> list[ItemT]:
        """Every readable item, newest first."""
        if not self.root.is_dir():
            return []
        found = [info for d in self.root.iterdir() if (info := self.get(d.name)) is not None]
        return sorted(found, key=lambda v: v.uploaded, reverse=True)

    def default_id(self) -> str:
        """The item new windows open with: the stored one settings.json names, if it reads and may
        be the default, else `builtin`."""
        try:
            raw = json.loads((self.root / SETTINGS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return self.builtin
        sid = raw.get("default") if isinstance(raw, dict) else None
        if isinstance(sid, str) and (info := self.get(sid)) is not None and self._may_be_default(info):
            return sid
        return self.builtin

    def _known(self, sid: str) -> ItemT:
        info = self.get(sid)
        if info is None:
            raise self.error(self.wording.unknown.format(id=sid))
        return info

    def _read_files(self, sid: str) -> list[tuple[StoredFile, bytes]]:
        """The stored files as they were uploaded, each checked against its checksum."""
        info = self._known(sid)
        title = self._title(info, sid)
        out = []
        for i, f in enumerate(info.files):
            try:
                data = (self.root / sid / "files" / _stored_name(i, f.name)).read_bytes()
            except OSError:
                raise self.error(self.wording.lost.format(title=title, name=f.name)) from None
            if hashlib.sha256(data).hexdigest() != f.sha256:
                raise self.error(self.wording.damaged.format(title=title, name=f.name))
            out.append((f, data))
        return out

    # Writing ----------------------------------------------------------------------------------

    def _store(
        self,
        sid: str,
        files: Sequence[tuple[str, bytes]],
        make_info: Callable[[], ItemT],
        *,
        max_items: int,
        max_bytes: int,
    ) -> ItemT:
        """Store `files` as item `sid` with the meta `make_info()` gives; the same upload again is
        a no-op. A store past `max_items` or `max_bytes` refuses it with a message."""
        known = self.get(sid)
        if known is not None:
            return known
        existing = self._all()
        if len(existing) >= max_items:
            raise self.error(self.wording.too_many.format(count=len(existing)))
        self.sweep()
        size = sum(len(data) for _, data in files)
        if _items_size(self.root) + size > max_bytes:
            raise self.error(self.wording.full.format(mb=max_bytes // (1024 * 1024)))
        info = make_info()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=self.staging, dir=self.root))
            try:
                (staging / "files").mkdir()
                for i, (name, data) in enumerate(files):
                    (staging / "files" / _stored_name(i, name)).write_bytes(data)
                write_json(staging / "meta.json", info.to_dict())
                os.rename(staging, self.root / sid)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
                if not (self.root / sid / "meta.json").is_file():
                    raise
                # another window stored the same upload meanwhile (a rename onto a taken name)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
        except OSError as err:
            raise self.error(self.wording.not_saved.format(reason=err.strerror or err)) from None
        return self.get(sid) or info

    def sweep(self, min_age_s: float = LEFTOVER_AGE_S) -> list[str]:
        """Remove what an interrupted write left behind (a save killed mid-way leaves its staging
        folder, a removal its `.removed-` folder, a settings write its `.tmp-` file), once it is
        older than `min_age_s` (younger ones may be another process's write in progress). The app
        sweeps at start; every save sweeps first. Returns the names removed; a disk that refuses
        is left for the next sweep."""
        if not self.root.is_dir():
            return []
        removed = []
        now = time.time()
        with contextlib.suppress(OSError):
            for entry in self.root.iterdir():
                if not entry.name.startswith((self.staging, ".removed-", ".tmp-")):
                    continue
                with contextlib.suppress(OSError):
                    if now - entry.lstat().st_mtime < min_age_s:
                        continue
                    if entry.is_dir() and not entry.is_symlink():
                        shutil.rmtree(entry)
                    else:
                        entry.unlink()
                    removed.append(entry.name)
        return removed

    def _rewrite(self, info: ItemT, changes: dict[str, object]) -> ItemT:
        """Replace an item's meta.json with `changes` applied (atomically); the item as it reads now."""
        data = info.to_dict()
        data.update(changes)
        write_json(self.root / info.id / "meta.json", data)
        return self._parse(data)

    def _set_default(self, sid: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        write_json(self.root / SETTINGS, {"default": None if sid == self.builtin else sid})

    def _remove(self, sid: str) -> None:
        """Remove an item (one rename: it is gone for every reader at once); if it was the
        default, `builtin` becomes the default. A disk error becomes the store's error."""
        was_default = self.default_id() == sid

        def drop() -> None:
            trash = self.root / f".removed-{sid}"
            os.rename(self.root / sid, trash)
            shutil.rmtree(trash, ignore_errors=True)
            if was_default:
                self._set_default(self.builtin)

        self._guarded(drop)

    def _guarded(self, action: Callable[[], T]) -> T:
        """Run a change of the store; a disk error becomes the store's error, in Russian."""
        try:
            return action()
        except OSError as err:
            message = self.wording.not_changed.format(root=self.root, reason=err.strerror or err)
            raise self.error(message) from None


def write_json(path: Path, data: object) -> None:
    """Write JSON beside `path`, then replace it: a reader sees the old file or the new, never half."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=2)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _stored_name(i: int, name: str) -> str:
    """A safe file name on disk for the i-th file (the real name is in meta.json)."""
    base = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).strip(" .") or "file"
    return f"{i:02d}-{base[:100]}"


def _items_size(root: Path) -> int:
    """The bytes the stored items take: hidden leftovers of interrupted writes never count."""
    if not root.is_dir():
        return 0
    total = 0
    for entry in root.iterdir():
        if entry.name.startswith(".") or not entry.is_dir() or entry.is_symlink():
            continue
        total += sum(p.stat().st_size for p in entry.rglob("*") if p.is_file())
    return total
