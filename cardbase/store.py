"""Card bases kept on the server: imports stored content-addressed under data/cards/.

The same store as the rules versions (storage.FileStore, issue 11): each stored base is a folder
`<root>/<id>/` holding the imported files as they came (`files/`: the base, and its constants file
if any) and `meta.json` (file names, roles, sizes and checksums, upload time, what the import
read). The id is the first 16 hex digits of a SHA-256 over the files' names and bytes
(importer.base_id), so the same import is stored once and an id in a link (`?base=<id>`) always
means the same cards. A stored base is read again from its files (the import is deterministic), so
nothing but the files is trusted, and a restart loses nothing.

Who sees what: `save` stores a base (a window that imported it uses it); `make_default` makes it the
base new windows open with, `remove_base` removes one. These two change what everyone sees: the
page runs them through `rulings.guard.change_card_base`, which lets only a signed-in judge do it.
Writes are atomic (storage.files): a crash mid-import leaves no half base, and a good base is never
replaced by one that failed to import.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path

from cardbase.model import BUILTIN, CardBase, CardBaseError
from storage import FileStore, StoredFile, Wording, is_content_id, local_time, now

ENV_VAR = "BERSERK_CARDS_DIR"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "data" / "cards"
MAX_STORE_BYTES = 200 * 1024 * 1024
MAX_BASES = 50
ROLES = ("base", "constants")


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
        return local_time(self.uploaded)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "files": [f.to_dict() for f in self.files],
            "uploaded": self.uploaded,
            "format": self.format,
            "cards": self.cards,
            "sets": self.sets,
            "modelled": self.modelled,
            "skipped": self.skipped,
        }


is_base_id = is_content_id


class CardStore(FileStore[BaseInfo]):
    """The stored bases under one folder. Cheap to create: it holds only the path."""

    error = CardBaseError
    staging = ".import-"
    builtin = BUILTIN
    wording = Wording(
        unknown="Базы карт «{id}» нет на сервере (её удалили или ссылка неверна).",
        lost="База карт «{title}»: файл «{name}» пропал с сервера. Загрузите базу заново.",
        damaged=(
            "База карт «{title}»: файл «{name}» на сервере повреждён (не совпадает контрольная сумма). "
            "Загрузите базу заново."
        ),
        too_many="На сервере уже {count} баз карт — больше не помещается. Удалите ненужные.",
        full="Хранилище баз карт заполнено (предел {mb} МБ). Удалите ненужные.",
        not_saved=(
            "Не удалось сохранить базу карт на сервере ({reason}): она открыта только в этом окне и "
            "пропадёт при перезагрузке страницы."
        ),
        not_changed="Не удалось изменить хранилище баз карт «{root}» ({reason}).",
    )

    # Reading ----------------------------------------------------------------------------------

    def bases(self) -> list[BaseInfo]:
        """Stored bases, newest first."""
        return self._all()

    def files(self, bid: str) -> list[tuple[StoredFile, bytes]]:
        """The stored files of a base as they were imported; raises CardBaseError."""
        return self._read_files(bid)

    def load(self, bid: str) -> CardBase:
        """The base read again from its stored files; raises CardBaseError."""
        info = self._known(bid)
        stored = self.files(bid)
        main = next(((f.name, d) for f, d in stored if f.role == "base"), None)
        consts = next(((f.name, d) for f, d in stored if f.role == "constants"), None)
        if main is None:
            raise CardBaseError(f"База карт «{info.label}»: на сервере нет её файла. Загрузите базу заново.")
        from cardbase import importer  # the readers: not imported by a store that only sweeps

        base = importer.import_base(main[1], main[0], constants=consts)
        return dataclasses.replace(base, id=bid)

    def _parse(self, raw: dict[str, object]) -> BaseInfo:
        return BaseInfo(
            id=str(raw["id"]),
            label=str(raw["label"]),
            files=StoredFile.read_all(raw["files"], roles=True),
            uploaded=str(raw["uploaded"]),
            format=str(raw.get("format", "")),
            cards=int(str(raw.get("cards", 0))),
            sets=int(str(raw.get("sets", 0))),
            modelled=int(str(raw.get("modelled", 0))),
            skipped=int(str(raw.get("skipped", 0))),
        )

    def _title(self, info: BaseInfo, sid: str) -> str:
        return info.label

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
        from cardbase import importer

        bid = importer.base_id(files)

        def info() -> BaseInfo:
            return BaseInfo(
                id=bid,
                label=files[0][0],
                files=tuple(StoredFile.of(n, d, ROLES[min(i, 1)]) for i, (n, d) in enumerate(files)),
                uploaded=now(),
                format=report.format if report else "",
                cards=len(base.records),
                sets=len(base.sets()),
                modelled=report.modelled if report else 0,
                skipped=len(report.errors) if report else 0,
            )

        return self._store(bid, files, info, max_items=MAX_BASES, max_bytes=MAX_STORE_BYTES)


def make_default(store: CardStore, bid: str) -> None:
    """Make a stored base (or BUILTIN) the one new windows open with.

    THE one way to change everyone's default base (the page calls it through
    rulings.guard.change_card_base, for a signed-in judge only). Raises CardBaseError.
    """
    if bid != BUILTIN:
        store._known(bid)
    store._guarded(lambda: store._set_default(bid))


def remove_base(store: CardStore, bid: str) -> BaseInfo:
    """Remove a stored base; if it was the default, the embedded library becomes the default.
    Windows that have it open keep their copy until they switch. Raises CardBaseError.

    THE one way to remove a base (the page calls it through rulings.guard.change_card_base)."""
    if bid == BUILTIN:
        raise CardBaseError("Встроенную библиотеку удалить нельзя.")
    info = store._known(bid)
    store._remove(bid)
    return info


def default_store() -> CardStore:
    """The store the app and the CLI use: `$BERSERK_CARDS_DIR` when set, else data/cards/."""
    env = os.environ.get(ENV_VAR, "").strip()
    return CardStore(Path(env) if env else DEFAULT_ROOT)
