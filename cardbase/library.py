"""The engine's card library from a card base, and the embedded library seen as a base.

`library_of(base)` is what the desk (and anything else that calls `engine.load_library()`) uses
when a base is loaded: every card of the base under its library name, with its real life, class,
move and text (CardDef.text) and the abilities the engine models; plus the embedded library's cards
and templates. An embedded card keeps its own definition when the base has a card of that name:
the rule examples and the scenarios rest on those hand-written abilities (the card page says so).
"""

from __future__ import annotations

import types

import engine
import lexicon
from cardbase.model import BUILTIN, CardBase, CardRecord, Modelled


def card_def(r: CardRecord) -> engine.CardDef:
    """One record as the engine's CardDef (a non-creature has no life or subtype in the engine)."""
    creature = r.type == "creature"
    return engine.CardDef(
        name=r.library_name or r.name,
        type=r.type,
        subtype=r.subtype if creature else None,
        life=r.life if creature else None,
        incorporeal=r.incorporeal,
        abilities=r.abilities,
        text=r.text,
        element=", ".join(r.elements),
        cost=r.cost,
        move=r.move if r.move is not None else (0 if r.subtype != "ground" else 1),
        strike=r.strike,
        classes=r.classes,
        elite=r.elite,
        unique=r.unique,
        ref=r.id,
    )


def library_of(base: CardBase, embedded: engine.CardLibrary | None = None) -> engine.CardLibrary:
    """The engine library for a base: its cards, then the embedded cards and templates (which win
    on a name both have). Immutable; build it once per base and share it."""
    embedded = embedded or engine.load_library()
    cards: dict[str, engine.CardDef] = {}
    for r in base.records:
        cdef = card_def(r)
        key = lexicon.fold(cdef.name)
        if key in embedded.cards or key in embedded.template_defs or key in cards:
            continue
        cards[key] = cdef
    cards.update(embedded.cards)
    return engine.CardLibrary(cards=types.MappingProxyType(cards), template_defs=embedded.template_defs)


def shadowed(base: CardBase, embedded: engine.CardLibrary | None = None) -> dict[str, str]:
    """Record id → why the desk uses another definition for that name (Russian)."""
    embedded = embedded or engine.load_library()
    out: dict[str, str] = {}
    for r in base.records:
        key = lexicon.fold(r.library_name or r.name)
        if key in embedded.cards:
            out[r.id] = (
                f"на столе «{r.name}» — карта встроенной библиотеки движка (пример правил): её особенности "
                "описаны вручную, и на них опираются сценарии"
            )
        elif key in embedded.template_defs:
            out[r.id] = f"«{r.name}» — имя шаблона встроенной библиотеки; на стол эту карту не поставить"
    return out


def builtin_base(embedded: engine.CardLibrary | None = None) -> CardBase:
    """The embedded library's cards as a base (what a window shows before any base is loaded).
    Their abilities are the library's own declarations, so none of their text is marked
    unmodelled by phrasing: the page says the model was written by hand."""
    embedded = embedded or engine.load_library()
    records = []
    for i, c in enumerate(embedded.cards.values()):
        modelled = [Modelled(source="описано в библиотеке движка", ability=a) for a in c.abilities]
        if c.incorporeal:
            modelled.append(Modelled(source="описано в библиотеке движка", prop="incorporeal"))
        records.append(
            CardRecord(
                id=f"builtin-{i + 1}",
                name=c.name,
                library_name=c.name,
                type=c.type,
                subtype=c.subtype,
                life=c.life,
                move=c.move,
                cost=c.cost,
                elite=c.elite,
                unique=c.unique,
                elements=tuple(e.strip() for e in c.element.split(",") if e.strip()),
                classes=c.classes,
                strike=c.strike,
                text=c.text,
                raw_text=c.text,
                modelled=tuple(modelled),
                where=f"engine/data/cards.yaml, «{c.name}»",
            )
        )
    return CardBase.of(BUILTIN, "встроенная библиотека движка", tuple(records), None)
