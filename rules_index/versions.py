"""Rules versions kept on the server: uploads stored content-addressed under data/rules/.

Each stored version is a folder `<root>/<id>/` holding the uploaded files as they came
(`files/`) and `meta.json`: the version stamp found in the text, the file names and sizes, the
upload time, whether the text is a version of our «Берсерк» РП (our jargon, terms and card
names apply only then) and whether it is shared. The id is the first 16 hex digits of a SHA-256
over the flag and the files (names and bytes), so the same upload is stored once, and an id in a
link (`?v=<id>`) always means the same text. A reload or a restart loses nothing. The folder, its
atomic writes and its checks are storage.FileStore's, shared with the card bases.

Who sees what:
- any window may `save` an upload: it is stored unshared, reachable by its link only (the window
  that uploaded it, or whoever the judge sends the link to);
- `publish_version` makes a version available to everyone (listed, optionally the default) and
  `remove_version` removes one. These two are the only ways to change what everyone sees: the
  pages call them through rulings.guard, which lets only a signed-in judge do it.

Writes are atomic (a temporary folder or file, then a rename), so a crash mid-upload leaves no
half version and a broken `meta.json` hides that one version, never the store.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules_index.errors import CorpusError, VersionError
from rules_index.index import RulesIndex, load_texts
from storage import FileStore, StoredFile, Wording, content_id, is_content_id, local_time, now

ENV_VAR = "BERSERK_RULES_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "data" / "rules"
# The built-in rules (embedded, or --corpus): not stored, never removed.
BUILTIN = "builtin"
# How much the store may hold; an upload past it is refused with a message.
MAX_STORE_BYTES = 500 * 1024 * 1024
MAX_VERSIONS = 200


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
        return local_time(self.uploaded)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "stamp": self.stamp,
            "files": [f.to_dict() for f in self.files],
            "uploaded": self.uploaded,
            "berserk": self.berserk,
            "shared": self.shared,
            "paragraphs": self.paragraphs,
        }


def version_id(files: Sequence[tuple[str, bytes]], berserk: bool) -> str:
    """The content address of an upload: the same files with the same flag, the same id."""
    return content_id(b"berserk=1\n" if berserk else b"berserk=0\n", files)


is_version_id = is_content_id


class VersionStore(FileStore[VersionInfo]):
    """The stored versions under one folder. Cheap to create: it holds only the path."""

    error = VersionError
    staging = ".upload-"
    builtin = BUILTIN
    wording = Wording(
        unknown="Версии правил «{id}» нет на сервере (её удалили или ссылка неверна).",
        lost="Версия правил {title}: файл «{name}» пропал с сервера. Загрузите правила заново.",
        damaged=(
            "Версия правил {title}: файл «{name}» на сервере повреждён (не совпадает контрольная "
            "сумма). Загрузите правила заново."
        ),
        too_many=(
            "На сервере уже {count} версий правил — больше не помещается. "
            "Удалите ненужные версии на странице «Правила»."
        ),
        full=(
            "Хранилище версий правил заполнено (предел {mb} МБ). "
            "Удалите ненужные версии на странице «Правила»."
        ),
        not_saved=(
            "Не удалось сохранить правила на сервере ({reason}): они открыты только в этом окне и "
            "пропадут при перезагрузке страницы."
        ),
        not_changed="Не удалось изменить хранилище версий правил «{root}» ({reason}).",
    )

    # Reading ----------------------------------------------------------------------------------

    def versions(self, *, shared_only: bool = False) -> list[VersionInfo]:
        """Stored versions, newest first (only the shared ones when asked)."""
        found = self._all()
        return [v for v in found if v.shared] if shared_only else found

    def files(self, vid: str) -> list[tuple[str, bytes]]:
        """The stored files of a version as they were uploaded; raises VersionError."""
        return [(f.name, data) for f, data in self._read_files(vid)]

    def load(self, vid: str, build: Callable[..., RulesIndex] = load_texts) -> RulesIndex:
        """The index of a stored version, built from its files by `build(files, berserk=…)`
        (load_texts; the app passes one that runs it in the server's bounded worker); raises
        VersionError."""
        info = self._known(vid)
        try:
            return build(self.files(vid), berserk=info.berserk)
        except CorpusError as err:
            raise VersionError(f"Версия правил {info.label or vid} не читается: {err}") from None

    def _parse(self, raw: dict[str, object]) -> VersionInfo:
        return VersionInfo(
            id=str(raw["id"]),
            label=None if raw.get("label") is None else str(raw["label"]),
            stamp=None if raw.get("stamp") is None else str(raw["stamp"]),
            files=StoredFile.read_all(raw["files"], roles=False),
            uploaded=str(raw["uploaded"]),
            berserk=bool(raw["berserk"]),
            shared=bool(raw.get("shared", False)),
            paragraphs=int(str(raw.get("paragraphs", 0))),
        )

    def _title(self, info: VersionInfo, sid: str) -> str:
        return info.label or sid

    def _may_be_default(self, info: VersionInfo) -> bool:
        return info.shared  # an unshared upload is only for whoever has its link

    # Writing ----------------------------------------------------------------------------------

    def save(self, files: Sequence[tuple[str, bytes]], index: RulesIndex, *, berserk: bool) -> VersionInfo:
        """Store an upload that parsed into `index` (unshared); the same upload again is a no-op."""

        def info() -> VersionInfo:
            return VersionInfo(
                id=vid,
                label=index.version_label,
                stamp=index.version,
                files=tuple(StoredFile.of(n, d) for n, d in files),
                uploaded=now(),
                berserk=berserk,
                shared=False,
                paragraphs=len(index.paragraphs),
            )

        vid = version_id(files, berserk)
        return self._store(vid, files, info, max_items=MAX_VERSIONS, max_bytes=MAX_STORE_BYTES)


def publish_version(store: VersionStore, vid: str, *, make_default: bool = False) -> VersionInfo | None:
    """Make a version available to everyone (listed for every judge), and optionally the one new
    windows open with. BUILTIN with make_default restores the built-in rules as the default.

    THE one way to share a version (the pages call it through rulings.guard, for a signed-in
    judge only). Returns the version (None for BUILTIN); raises VersionError.
    """
    if vid == BUILTIN:
        if make_default:
            store._guarded(lambda: store._set_default(BUILTIN))
        return None
    info = store._known(vid)
    if not info.shared:
        unshared = info
        info = store._guarded(lambda: store._rewrite(unshared, {"shared": True}))
    if make_default:
        store._guarded(lambda: store._set_default(vid))
    return info


def remove_version(store: VersionStore, vid: str) -> VersionInfo:
    """Remove a stored version (its files and meta); if it was the default, the built-in rules
    become the default again. Windows that have it open keep reading it until they switch.

    THE one way to remove a version (the pages call it through rulings.guard, for a signed-in
    judge only). Raises VersionError.
    """
    if vid == BUILTIN:
        raise VersionError("Встроенные правила удалить нельзя.")
    info = store.get(vid)
    if info is None:
        raise VersionError(f"Версии правил «{vid}» нет на сервере (её уже удалили).")
    store._remove(vid)
    return info


def default_store() -> VersionStore:
    """The store the app uses: `$BERSERK_RULES_DIR` when set, else data/rules/ in the project."""
    env = os.environ.get(ENV_VAR, "").strip()
    return VersionStore(Path(env) if env else DEFAULT_ROOT)


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
