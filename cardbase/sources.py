"""A card base named where a judge names one: on a command line (`python -m engine run FILE
--cards BASE`, `cards coverage BASE`) or in a scenario (`card_base:`).

A name is a card file (JSON, CSV or YAML, with its constants file), the id or the name of a base
stored on the server (`python -m engine cards list`), or `builtin` (the embedded library). The
engine library of a base has its cards first: a base record wins over an embedded card of the same
name (cardbase/library.py), and a card the scenario names that neither has is an error naming both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import engine
from cardbase import store
from cardbase.importer import import_base
from cardbase.library import builtin_base, library_of
from cardbase.model import BUILTIN, CardBase, CardBaseError
from casebook.model import CardBaseRef


def _read(path: Path, what: str) -> tuple[str, bytes]:
    try:
        return path.name, path.read_bytes()
    except OSError as exc:
        raise CardBaseError(f"{what} «{path}» не читается: {exc.strerror or exc}.") from None


def open_named(name: str, constants: str | None = None, *, cards: store.CardStore | None = None) -> CardBase:
    """The base a judge names. Raises CardBaseError saying what the name is not."""
    if name == BUILTIN:
        return builtin_base()
    path = Path(name)
    if path.is_file():
        consts = _read(Path(constants), "Файл кодов") if constants else None
        name_, data = _read(path, "Файл карт")
        return import_base(data, name_, constants=consts)
    if constants:
        raise CardBaseError(f"--constants — к файлу карт, а «{name}» не файл")
    shelf = cards or store.default_store()
    if store.is_base_id(name):
        return shelf.load(name)
    named = [b for b in shelf.bases() if b.label == name]
    if len(named) == 1:
        return shelf.load(named[0].id)
    if named:
        ids = ", ".join(b.id for b in named)
        raise CardBaseError(f"баз с именем «{name}» на сервере несколько ({ids}): назовите базу по id")
    raise CardBaseError(
        f"«{name}» — не файл карт и не база, сохранённая на сервере (их список: python -m engine cards list)"
    )


def library_named(
    name: str, constants: str | None = None, *, cards: store.CardStore | None = None
) -> engine.CardLibrary:
    """The engine library of the base a judge names (its `label` names the base)."""
    return library_of(open_named(name, constants, cards=cards))


def scenario_cards(cards: store.CardStore | None = None) -> Callable[[CardBaseRef], engine.CardLibrary]:
    """What the casebook calls to open a scenario's `card_base` (casebook.model.CardSource); each
    base is read once per source."""
    opened: dict[tuple[str, str], engine.CardLibrary] = {}

    def open_ref(ref: CardBaseRef) -> engine.CardLibrary:
        key = (ref.file or ref.stored, ref.constants)
        if key not in opened:
            try:
                opened[key] = library_named(key[0], ref.constants or None, cards=cards)
            except CardBaseError as exc:
                raise ValueError(f"{ref.describe()}: {exc}") from None
        return opened[key]

    return open_ref
