"""The card base: a judge's base of real cards imported, found by name, explained, put on the desk.

Layer: beside casebook (it reads the engine's model and the ability vocabulary, lexicon, the
scenario library and the journal's search); no Streamlit. The pages and the desk use it.

- `importer.import_base(bytes, name, constants=…)` → `CardBase` with an `ImportReport`
  (formats: community JSON, CSV with a header, our YAML; cardbase/readers.py states the limits);
- `store.default_store()` keeps imported bases under data/cards/ (content-addressed);
- `Loaded.of(base)`: the base with its search (`find`), its engine library (`library`, usable
  wherever `engine.load_library()` is) and its names for the rules search (`queries`);
- `related`: the rules for a card's kind, the scenarios and rulings that mention it;
- `links`: the card page's and the desk's query parameters.
"""

from __future__ import annotations

import dataclasses
import importlib
import types
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardbase.model import BUILTIN, CardBase, CardBaseError, CardRecord, ImportReport, Modelled, Problem

if TYPE_CHECKING:
    import engine
    from cardbase import find, importer, links, related, store
    from cardbase.importer import import_base
    from cardbase.library import builtin_base, card_def, desk_records, library_of, shadowed

# The rest of what the package names is imported when it is first asked for (PEP 562): opening the
# card store (its sweep at a server's start) does not import the card readers, the engine and the
# scenario library (issue 24: they were a fifth of a new server's first run).
_SUBMODULES = (
    "cli",
    "constants",
    "coverage",
    "explain",
    "find",
    "importer",
    "library",
    "links",
    "readers",
    "recognise",
    "related",
    "sources",
    "store",
)
_LAZY: dict[str, tuple[str, str | None]] = {
    **{name: (f"cardbase.{name}", None) for name in _SUBMODULES},
    "import_base": ("cardbase.importer", "import_base"),
    "builtin_base": ("cardbase.library", "builtin_base"),
    "card_def": ("cardbase.library", "card_def"),
    "desk_records": ("cardbase.library", "desk_records"),
    "library_of": ("cardbase.library", "library_of"),
    "shadowed": ("cardbase.library", "shadowed"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'cardbase' has no attribute {name!r}")
    module, attr = _LAZY[name]
    value = importlib.import_module(module)
    found = getattr(value, attr) if attr else value
    globals()[name] = found
    return found


@dataclasses.dataclass(frozen=True)
class Loaded:
    """A base ready to use: built once per base, then only read (safe to share between windows)."""

    base: CardBase
    finder: find.Finder
    library: engine.CardLibrary
    queries: related.QueryCards
    shadowed: Mapping[str, str]
    desk: Mapping[str, CardRecord] = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))

    @staticmethod
    def of(base: CardBase, embedded: engine.CardLibrary | None = None) -> Loaded:
        import engine
        from cardbase import find, related
        from cardbase.library import desk_records, library_of, shadowed

        embedded = embedded or engine.load_library()
        return Loaded(
            base=base,
            finder=find.Finder(base),
            library=library_of(base, embedded),
            queries=related.QueryCards(base.records),
            shadowed=types.MappingProxyType({} if base.id == BUILTIN else shadowed(base, embedded)),
            desk=types.MappingProxyType({} if base.id == BUILTIN else desk_records(base, embedded)),
        )

    def record(self, library_name: str) -> CardRecord | None:
        """The base's record behind a library card (the desk's card → its page, its unmodelled
        sentences), as the desk uses it (cardbase/library.py: a card named like an embedded one
        has the hand-written abilities); None for a template, or an embedded card the base lacks."""
        cdef = self.library.get(library_name)
        if cdef is None:
            return None
        if cdef.ref:
            return self.desk.get(cdef.ref) or self.base.get(cdef.ref)
        if self.base.id == BUILTIN:
            return next((r for r in self.base.records if r.library_name == cdef.name), None)
        return None

    def names(self) -> list[str]:
        """The base's card names (printed), once each: what the rules search should know."""
        return self.base.names()


def open_base(bid: str, cards: store.CardStore | None = None) -> CardBase:
    """The base with this id: BUILTIN is the embedded library; else a stored one. Raises CardBaseError."""
    from cardbase import store
    from cardbase.library import builtin_base

    if bid == BUILTIN:
        return builtin_base()
    return (cards or store.default_store()).load(bid)


__all__ = [
    "BUILTIN",
    "CardBase",
    "CardBaseError",
    "CardRecord",
    "ImportReport",
    "Loaded",
    "Modelled",
    "Problem",
    "builtin_base",
    "card_def",
    "desk_records",
    "find",
    "import_base",
    "importer",
    "library_of",
    "links",
    "open_base",
    "related",
    "shadowed",
    "store",
]
