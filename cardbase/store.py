"""Card bases kept on the server: imports stored content-addressed under data/cards/.

The same shape as the rules versions (issue 11): each stored base is a folder `<root>/<id>/`
holding the imported files as they came (`files/`: the base, and its constants file if any) and
`meta.json` (file names, sizes and checksums, upload time, what the import read). The id is the
first 16 hex digits of a SHA-256 over the files' names and bytes (importer.base_id), so the same
import is stored once and an id in a link (`?base=<id>`) always means the same cards. A stored
base is read again from its files (the import is deterministic), so nothing but the files is
trusted, and a restart loses nothing.

Who sees what: `save` stores a base (a window that imported it uses it); `make_default` makes it the
base new windows open with, `remove_base` removes one. These two change what everyone sees: the
page runs them through `rulings.guard.change_card_base`, which lets only a signed-in judge do it.
Writes are atomic (a temporary folder or file, then a rename): a crash
mid-import leaves no half base, and a good base is never replaced by one that failed to import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from cardbase import importer
from cardbase.model import BUILTIN, CardBase, CardBaseError

ENV_VAR = "BERSERK_CARDS_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "data" / "cards"
MAX_STORE_BYTES = 200 * 1024 * 1024
MAX_BASES = 50
_ID = re.compile(r"[0-9a-f]{16}")
_SETTINGS = "settings.json"
_UNSAFE = re.compile(r"[^\w.\- ]+")
ROLES = ("base", "constants")

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class StoredFile:
    name: str
    role: str  # base | constants
    size: int
    sha256: str


@dataclasses.dataclass(frozen=True)
class BaseInfo:
    """What the store knows about one base (read from meta.json)."""

    id: str
    label: str
    files: tuple[StoredFile, ...]
    uploaded: str
    format: str
    cards: int
    sets: int
    modelled: int
    skipped: int  # records with errors the judge accepted to lose

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
            "files": [dataclasses.asdict(f) for f in self.files],
            "uploaded": self.uploaded,
            "format": self.format,
            "cards": self.cards,
            "sets": self.sets,
            "modelled": self.modelled,
            "skipped": self.skipped,
        }


def is_base_id(text: object) -> bool:
    return isinstance(text, str) and _ID.fullmatch(text) is not None


class CardStore:
    """The stored bases under one folder. Cheap to create: it holds only the path."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"CardStore({str(self.root)!r})"

    # Reading ----------------------------------------------------------------------------------

    def get(self, bid: str) -> BaseInfo | None:
        """The base with this id, or None (unknown, removed, or its meta.json unreadable)."""
        if not is_base_id(bid):
            return None
        try:
            return _info(json.loads((self.root / bid / "meta.json").read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def bases(self) -> list[BaseInfo]:
        """Stored bases, newest first."""
        if not self.root.is_dir():
            return []
        found = [info for d in self.root.iterdir() if (info := self.get(d.name)) is not None]
        return sorted(found, key=lambda b: b.uploaded, reverse=True)

    def default_id(self) -> str:
        """The base new windows open with: a stored one made default, or BUILTIN."""
        try:
            raw = json.loads((self.root / _SETTINGS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return BUILTIN
        bid = raw.get("default") if isinstance(raw, dict) else None
        return bid if isinstance(bid, str) and self.get(bid) is not None else BUILTIN

    def files(self, bid: str) -> list[tuple[StoredFile, bytes]]:
        """The stored files of a base as they were imported; raises CardBaseError."""
        info = self._known(bid)
        out = []
        for i, f in enumerate(info.files):
            try:
                data = (self.root / bid / "files" / _stored_name(i, f.name)).read_bytes()
            except OSError:
                raise CardBaseError(
                    f"База карт «{info.label}»: файл «{f.name}» пропал с сервера. Загрузите базу заново."
                ) from None
            if hashlib.sha256(data).hexdigest() != f.sha256:
                raise CardBaseError(
                    f"База карт «{info.label}»: файл «{f.name}» на сервере повреждён (не совпадает "
                    "контрольная сумма). Загрузите базу заново."
                )
            out.append((f, data))
        return out

    def load(self, bid: str) -> CardBase:
        """The base read again from its stored files; raises CardBaseError."""
        info = self._known(bid)
        stored = self.files(bid)
        main = next(((f.name, d) for f, d in stored if f.role == "base"), None)
        consts = next(((f.name, d) for f, d in stored if f.role == "constants"), None)
        if main is None:
            raise CardBaseError(f"База карт «{info.label}»: на сервере нет её файла. Загрузите базу заново.")
        base = importer.import_base(main[1], main[0], constants=consts)
        return dataclasses.replace(base, id=bid)

    def _known(self, bid: str) -> BaseInfo:
        info = self.get(bid)
        if info is None:
            raise CardBaseError(f"Базы карт «{bid}» нет на сервере (её удалили или ссылка неверна).")
        return info

    # Writing ----------------------------------------------------------------------------------

    def save(
        self,
        base: CardBase,
        files: Sequence[tuple[str, bytes]],
        *,
        accept_skipped: bool = False,
    ) -> BaseInfo:
        """Store an imported base: `files` are (name, bytes), the base file first, then its
        constants file if any; `base` is what importer.import_base made of them. A base whose
        import skipped records with errors is stored only with `accept_skipped` (the judge saw the
        report and accepts the loss). The same import again is a no-op. Raises CardBaseError."""
        report = base.report
        if report is not None and report.errors and not accept_skipped:
            raise CardBaseError(
                f"Записей с ошибками: {len(report.errors)} (первая — {report.errors[0]}). База не "
                "сохранена; прежняя остаётся. Исправьте файл или подтвердите загрузку без этих записей."
            )
        bid = importer.base_id(files)
        known = self.get(bid)
        if known is not None:
            return known
        existing = self.bases()
        if len(existing) >= MAX_BASES:
            raise CardBaseError(
                f"На сервере уже {len(existing)} баз карт — больше не помещается. Удалите ненужные."
            )
        size = sum(len(d) for _, d in files)
        if _folder_size(self.root) + size > MAX_STORE_BYTES:
            raise CardBaseError(
                f"Хранилище баз карт заполнено (предел {MAX_STORE_BYTES // (1024 * 1024)} МБ). "
                "Удалите ненужные."
            )
        info = BaseInfo(
            id=bid,
            label=files[0][0],
            files=tuple(
                StoredFile(n, ROLES[min(i, 1)], len(d), hashlib.sha256(d).hexdigest())
                for i, (n, d) in enumerate(files)
            ),
            uploaded=datetime.now().astimezone().isoformat(timespec="seconds"),
            format=report.format if report else "",
            cards=len(base.records),
            sets=len(base.sets()),
            modelled=report.modelled if report else 0,
            skipped=len(report.errors) if report else 0,
        )
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".import-", dir=self.root))
            try:
                (staging / "files").mkdir()
                for i, (name, data) in enumerate(files):
                    (staging / "files" / _stored_name(i, name)).write_bytes(data)
                _write_json(staging / "meta.json", info.to_dict())
                os.rename(staging, self.root / bid)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)
                if not (self.root / bid / "meta.json").is_file():
                    raise
                # another window stored the same import meanwhile (rename onto a taken name)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
        except OSError as err:
            raise CardBaseError(
                f"Не удалось сохранить базу карт на сервере ({err.strerror or err}): она открыта только "
                "в этом окне и пропадёт при перезагрузке страницы."
            ) from None
        return self.get(bid) or info

    def _set_default(self, bid: str) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        _write_json(self.root / _SETTINGS, {"default": None if bid == BUILTIN else bid})


def make_default(store: CardStore, bid: str) -> None:
    """Make a stored base (or BUILTIN) the one new windows open with.

    THE one way to change everyone's default base (the page calls it through
    rulings.guard.change_card_base, for a signed-in judge only). Raises CardBaseError.
    """
    if bid != BUILTIN:
        store._known(bid)
    _guarded(store, lambda: store._set_default(bid))


def remove_base(store: CardStore, bid: str) -> BaseInfo:
    """Remove a stored base; if it was the default, the embedded library becomes the default.
    Windows that have it open keep their copy until they switch. Raises CardBaseError."""
    if bid == BUILTIN:
        raise CardBaseError("Встроенную библиотеку удалить нельзя.")
    info = store._known(bid)
    was_default = store.default_id() == bid

    def drop() -> None:
        trash = store.root / f".removed-{bid}"
        os.rename(store.root / bid, trash)  # atomic: gone for every reader at once
        shutil.rmtree(trash, ignore_errors=True)
        if was_default:
            store._set_default(BUILTIN)

    _guarded(store, drop)
    return info


def default_store() -> CardStore:
    """The store the app and the CLI use: `$BERSERK_CARDS_DIR` when set, else data/cards/."""
    env = os.environ.get(ENV_VAR, "").strip()
    return CardStore(Path(env) if env else DEFAULT_ROOT)


def _guarded(store: CardStore, action: Callable[[], T]) -> T:
    try:
        return action()
    except OSError as err:
        raise CardBaseError(
            f"Не удалось изменить хранилище баз карт «{store.root}» ({err.strerror or err})."
        ) from None


def _info(raw: dict[str, object]) -> BaseInfo:
    files = raw["files"]
    if not isinstance(files, list):
        raise TypeError("files")
    return BaseInfo(
        id=str(raw["id"]),
        label=str(raw["label"]),
        files=tuple(
            StoredFile(str(f["name"]), str(f["role"]), int(f["size"]), str(f["sha256"])) for f in files
        ),
        uploaded=str(raw["uploaded"]),
        format=str(raw.get("format", "")),
        cards=int(str(raw.get("cards", 0))),
        sets=int(str(raw.get("sets", 0))),
        modelled=int(str(raw.get("modelled", 0))),
        skipped=int(str(raw.get("skipped", 0))),
    )


def _stored_name(i: int, name: str) -> str:
    """A safe file name on disk for the i-th file (the real name is in meta.json)."""
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
