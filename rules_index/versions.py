"""Rules versions kept on the server: uploads stored content-addressed under data/rules/.

Each stored version is a folder `<root>/<id>/` holding the uploaded files as they came
(`files/`) and `meta.json`: the version stamp found in the text, the file names and sizes, the
upload time, whether the text is a version of our «Берсерк» РП (our jargon, terms and card
names apply only then) and whether it is shared. The id is the first 16 hex digits of a SHA-256
over the flag and the files (names and bytes), so the same upload is stored once, and an id in a
link (`?v=<id>`) always means the same text. A reload or a restart loses nothing.

Who sees what:
- any window may `save` an upload: it is stored unshared, reachable by its link only (the window
  that uploaded it, or whoever the judge sends the link to);
- `publish_version` makes a version available to everyone (listed, optionally the default) and
  `remove_version` removes one. These two are the only ways to change what everyone sees, so
  that judges' sign-in can guard them (a separate issue); until then anyone may call them.

Writes are atomic (a temporary folder or file, then a rename), so a crash mid-upload leaves no
half version and a broken `meta.json` hides that one version, never the store.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from rules_index.errors import CorpusError, VersionError
from rules_index.index import RulesIndex, load_texts

ENV_VAR = "BERSERK_RULES_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "data" / "rules"
# The built-in rules (embedded, or --corpus): not stored, never removed.
BUILTIN = "builtin"
# How much the store may hold; an upload past it is refused with a message.
MAX_STORE_BYTES = 500 * 1024 * 1024
MAX_VERSIONS = 200
_ID = re.compile(r"[0-9a-f]{16}")
_SETTINGS = "settings.json"
_UNSAFE = re.compile(r"[^\w.\- ]+")


T = TypeVar("T")


@dataclass(frozen=True)
class StoredFile:
    name: str
    size: int
    sha256: str


@dataclass(frozen=True)
class VersionInfo:
    """What the store knows about one version (read from meta.json)."""

    id: str
    label: str | None
    stamp: str | None
    files: tuple[StoredFile, ...]
    uploaded: str
    berserk: bool
    shared: bool
    paragraphs: int

    @property
    def names(self) -> str:
        return ", ".join(f"«{f.name}»" for f in self.files)

    @property
    def uploaded_text(self) -> str:
        """«01.12.2026 10:15» in the server's time zone, or the stored text if it does not parse."""
        try:
            return datetime.fromisoformat(self.uploaded).astimezone().strftime("%d.%m.%Y %H:%M")
        except ValueError:
            return self.uploaded

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "stamp": self.stamp,
            "files": [{"name": f.name, "size": f.size, "sha256": f.sha256} for f in self.files],
            "uploaded": self.uploaded,
            "berserk": self.berserk,
            "shared": self.shared,
            "paragraphs": self.paragraphs,
        }


def version_id(files: Sequence[tuple[str, bytes]], berserk: bool) -> str:
    """The content address of an upload: the same files with the same flag, the same id."""
    digest = hashlib.sha256(b"berserk=1\n" if berserk else b"berserk=0\n")
    for name, data in files:
        digest.update(name.encode("utf-8") + b"\0" + str(len(data)).encode() + b"\0")
        digest.update(data)
    return digest.hexdigest()[:16]


def is_version_id(text: object) -> bool:
    return isinstance(text, str) and _ID.fullmatch(text) is not None


class VersionStore:
    """The stored versions under one folder. Cheap to create: it holds only the path."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"VersionStore({str(self.root)!r})"

    # Reading ----------------------------------------------------------------------------------

    def get(self, vid: str) -> VersionInfo | None:
        """The version with this id, or None (unknown, removed, or its meta.json unreadable)."""
        if not is_version_id(vid):
            return None
        try:
            raw = json.loads((self.root / vid / "meta.json").read_text(encoding="utf-8"))
            return _info(raw)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def versions(self, *, shared_only: bool = False) -> list[VersionInfo]:
        """Stored versions, newest first (only the shared ones when asked)."""
        if not self.root.is_dir():
            return []
        found = [info for d in self.root.iterdir() if (info := self.get(d.name)) is not None]
        if shared_only:
            found = [v for v in found if v.shared]
        return sorted(found, key=lambda v: v.uploaded, reverse=True)

    def default_id(self) -> str:
        """The version new windows open with: a shared stored one, or BUILTIN."""
        try:
            raw = json.loads((self.root / _SETTINGS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return BUILTIN
        vid = raw.get("default") if isinstance(raw, dict) else None
        info = self.get(vid) if isinstance(vid, str) else None
        return info.id if info is not None and info.shared else BUILTIN

    def files(self, vid: str) -> list[tuple[str, bytes]]:
        """The stored files of a version as they were uploaded; raises VersionError."""
        info = self.get(vid)
        if info is None:
            raise VersionError(f"Версии правил «{vid}» нет на сервере (её удалили или ссылка неверна).")
        out: list[tuple[str, bytes]] = []
        for i, f in enumerate(info.files):
            path = self.root / vid / "files" / _stored_name(i, f.name)
            try:
                data = path.read_bytes()
            except OSError:
                raise VersionError(
                    f"Версия правил {info.label or vid}: файл «{f.name}» пропал с сервера. "
                    "Загрузите правила заново."
                ) from None
            if hashlib.sha256(data).hexdigest() != f.sha256:
                raise VersionError(
                    f"Версия правил {info.label or vid}: файл «{f.name}» на сервере повреждён "
                    "(не совпадает контрольная сумма). Загрузите правила заново."
                )
            out.append((f.name, data))
        return out

    def load(self, vid: str) -> RulesIndex:
        """The index of a stored version (built from its files); raises VersionError."""
        info = self.get(vid)
        if info is None:
            raise VersionError(f"Версии правил «{vid}» нет на сервере (её удалили или ссылка неверна).")
        try:
            return load_texts(self.files(vid), berserk=info.berserk)
        except CorpusError as err:
            raise VersionError(f"Версия правил {info.label or vid} не читается: {err}") from None

    # Writing ----------------------------------------------------------------------------------

    def save(self, files: Sequence[tuple[str, bytes]], index: RulesIndex, *, berserk: bool) -> VersionInfo:
        """Store an upload that parsed into `index` (unshared); the same upload again is a no-op."""
        vid = version_id(files, berserk)
        known = self.get(vid)
        if known is not None:
            return known
        existing = self.versions()
        if len(existing) >= MAX_VERSIONS:
            raise VersionError(
                f"На сервере уже {len(existing)} версий правил — больше не помещается. "
                "Удалите ненужные версии на странице «Правила»."
            )
        size = sum(len(data) for _, data in files)
        if _folder_size(self.root) + size > MAX_STORE_BYTES:
            raise VersionError(
                f"Хранилище версий правил заполнено (предел {MAX_STORE_BYTES // (1024 * 1024)} МБ). "
                "Удалите ненужные версии на странице «Правила»."
            )
        info = VersionInfo(
            id=vid,
            label=index.version_label,
            stamp=index.version,
            files=tuple(StoredFile(n, len(d), hashlib.sha256(d).hexdigest()) for n, d in files),
            uploaded=datetime.now().astimezone().isoformat(timespec="seconds"),
            berserk=berserk,
            shared=False,
            paragraphs=len(index.paragraphs),
        )
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".upload-", dir=self.root))
            try:
                (staging / "files").mkdir()
                for i, (name, data) in enumerate(files):
                    (staging / "files" / _stored_name(i, name)).write_bytes(data)
                _write_json(staging / "meta.json", info.to_dict())
                os.rename(staging, self.root / vid)
            except FileExistsError:
                shutil.rmtree(staging, ignore_errors=True)  # another window stored it meanwhile
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
        except OSError as err:
            raise VersionError(
                f"Не удалось сохранить правила на сервере ({err.strerror or err}): они открыты только "
                "в этом окне и пропадут при перезагрузке страницы."
            ) from None
        return self.get(vid) or info

    def _update(self, info: VersionInfo, **changes: object) -> VersionInfo:
        data = info.to_dict()
        data.update(changes)
        _write_json(self.root / info.id / "meta.json", data)
        return _info(data)

    def _set_default(self, vid: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        _write_json(self.root / _SETTINGS, {"default": None if vid == BUILTIN else vid})


def publish_version(store: VersionStore, vid: str, *, make_default: bool = False) -> VersionInfo | None:
    """Make a version available to everyone (listed for every judge), and optionally the one new
    windows open with. BUILTIN with make_default restores the built-in rules as the default.

    THE one way to share a version: judges' sign-in will guard this function. Returns the
    version (None for BUILTIN); raises VersionError.
    """
    if vid == BUILTIN:
        if make_default:
            _guarded(store, lambda: store._set_default(BUILTIN))
        return None
    info = store.get(vid)
    if info is None:
        raise VersionError(f"Версии правил «{vid}» нет на сервере (её удалили или ссылка неверна).")
    if not info.shared:
        unshared = info
        info = _guarded(store, lambda: store._update(unshared, shared=True))
    if make_default:
        _guarded(store, lambda: store._set_default(vid))
    return info


def remove_version(store: VersionStore, vid: str) -> VersionInfo:
    """Remove a stored version (its files and meta); if it was the default, the built-in rules
    become the default again. Windows that have it open keep reading it until they switch.

    THE one way to remove a version: judges' sign-in will guard this function. Raises VersionError.
    """
    if vid == BUILTIN:
        raise VersionError("Встроенные правила удалить нельзя.")
    info = store.get(vid)
    if info is None:
        raise VersionError(f"Версии правил «{vid}» нет на сервере (её уже удалили).")
    was_default = store.default_id() == vid

    def drop() -> None:
        trash = store.root / f".removed-{vid}"
        os.rename(store.root / vid, trash)  # atomic: the version is gone for every reader at once
        shutil.rmtree(trash, ignore_errors=True)
        if was_default:
            store._set_default(BUILTIN)

    _guarded(store, drop)
    return info


def default_store() -> VersionStore:
    """The store the app uses: `$BERSERK_RULES_DIR` when set, else data/rules/ in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return VersionStore(Path(env) if env else DEFAULT_ROOT)


def _guarded(store: VersionStore, action: Callable[[], T]) -> T:
    """Run a store change; a disk error becomes a Russian VersionError."""
    try:
        return action()
    except OSError as err:
        raise VersionError(
            f"Не удалось изменить хранилище версий правил «{store.root}» ({err.strerror or err})."
        ) from None


def _info(raw: dict[str, object]) -> VersionInfo:
    files = raw["files"]
    if not isinstance(files, list):
        raise TypeError("files")
    return VersionInfo(
        id=str(raw["id"]),
        label=None if raw.get("label") is None else str(raw["label"]),
        stamp=None if raw.get("stamp") is None else str(raw["stamp"]),
        files=tuple(StoredFile(str(f["name"]), int(f["size"]), str(f["sha256"])) for f in files),
        uploaded=str(raw["uploaded"]),
        berserk=bool(raw["berserk"]),
        shared=bool(raw.get("shared", False)),
        paragraphs=int(str(raw.get("paragraphs", 0))),
    )


def _stored_name(i: int, name: str) -> str:
    """A safe file name on disk for the i-th uploaded file (the real name is in meta.json)."""
    base = _UNSAFE.sub("_", Path(name.replace("\\", "/")).name).strip(" .") or "file"
    return f"{i:02d}-{base[:100]}"


def _write_json(path: Path, data: object) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=2)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _folder_size(root: Path) -> int:
    if not root.is_dir():
        return 0
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


__all__ = [
    "BUILTIN",
    "ENV_VAR",
    "StoredFile",
    "VersionError",
    "VersionInfo",
    "VersionStore",
    "default_store",
    "is_version_id",
    "publish_version",
    "remove_version",
    "version_id",
]
