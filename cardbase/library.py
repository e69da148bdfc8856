"""The engine's card library from a card base, and the embedded library seen as a base.

`library_of(base)` is what the desk (and anything else that calls `engine.load_library()`) uses
when a base is loaded: every card of the base under its library name, with its real life, class,
move and text (CardDef.text) and the abilities the engine models; plus the embedded library's cards
and templates.

A base card with the name of an embedded card (a card of the rules' examples: Карлик Унд, Вайл…)
is the base's card on the desk: its life, class, type, strike, element, cost and text. When it is
of the embedded card's kind (type and subtype), the embedded card's hand-written abilities stay (the
rule examples rest on them) and replace what was read from the text for the same ability kind;
abilities of other kinds read from the text are added. When it is of another kind, the
hand-written abilities were written for another card, so only what its own text gives applies.
`shadowed` says which came from where (the card page shows it). The scenarios and the ready
answers run on the embedded library alone (engine.load_library()), so they do not change.
A base card named like a template is not on the desk (a template's name is a template).
"""

from __future__ import annotations

import dataclasses
import types

import engine
import lexicon
from cardbase import explain
from cardbase.model import BUILTIN, CardBase, CardRecord, Modelled

HAND_WRITTEN = "описано вручную в библиотеке движка (пример правил)"


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


def _kind(c: engine.CardDef | CardRecord) -> tuple[str, str | None]:
    return c.type, c.subtype if c.type == "creature" else None


def _what(m: Modelled) -> str:
    return m.ability.kind if m.ability is not None else m.prop


def on_desk(r: CardRecord, embedded: engine.CardDef) -> CardRecord:
    """A base record named like an embedded card of its kind, as the desk uses it: the base's
    facts and text, the embedded card's hand-written abilities, and those read from the text
    of kinds the hand-written ones do not have."""
    own = [Modelled(source=HAND_WRITTEN, ability=a) for a in embedded.abilities]
    if embedded.incorporeal:
        own.append(Modelled(source=HAND_WRITTEN, prop="incorporeal"))
    kinds = {_what(m) for m in own}
    return dataclasses.replace(r, modelled=(*own, *(m for m in r.modelled if _what(m) not in kinds)))


def desk_records(base: CardBase, embedded: engine.CardLibrary | None = None) -> dict[str, CardRecord]:
    """Record id → the record as the desk uses it, for each record `on_desk` changes."""
    embedded = embedded or engine.load_library()
    out: dict[str, CardRecord] = {}
    for r in base.records:
        e = embedded.cards.get(lexicon.fold(r.library_name or r.name))
        if e is not None and _kind(e) == _kind(r):
            out[r.id] = on_desk(r, e)
    return out


def library_of(base: CardBase, embedded: engine.CardLibrary | None = None) -> engine.CardLibrary:
    """The engine library for a base: its cards (a card named like an embedded one as `on_desk`
    makes it), then the embedded cards the base does not have, and the templates (a base card
    named like a template is left out). Immutable; build it once per base and share it."""
    embedded = embedded or engine.load_library()
    if base.id == BUILTIN:  # the embedded library's own cards, seen as a base
        return embedded
    merged = desk_records(base, embedded)
    cards: dict[str, engine.CardDef] = {}
    for r in base.records:
        cdef = card_def(merged.get(r.id, r))
        key = lexicon.fold(cdef.name)
        if key in embedded.template_defs or key in cards:
            continue
        cards[key] = cdef
    for key, cdef in embedded.cards.items():
        cards.setdefault(key, cdef)
    return engine.CardLibrary(
        cards=types.MappingProxyType(cards), template_defs=embedded.template_defs, label=base.label
    )


def shadowed(base: CardBase, embedded: engine.CardLibrary | None = None) -> dict[str, str]:
    """Record id → what of that card on the desk comes from the embedded library, and what from
    the base (Russian): for a card named like an embedded card or a template."""
    embedded = embedded or engine.load_library()
    merged = desk_records(base, embedded)
    out: dict[str, str] = {}
    for r in base.records:
        key = lexicon.fold(r.library_name or r.name)
        e = embedded.cards.get(key)
        if r.id in merged:
            own = [m for m in merged[r.id].modelled if m.source == HAND_WRITTEN]
            read = [m for m in merged[r.id].modelled if m.source != HAND_WRITTEN]
            said = (
                "особенности описаны вручную в библиотеке движка для примера правил ("
                + "; ".join(explain.explain(m).title for m in own)
                + ") — они заменяют прочитанные из текста того же вида"
                if own
                else "в библиотеке движка (пример правил) особенностей у неё нет"
            )
            if read:
                added = "; ".join(explain.explain(m).title for m in read)
                said += f"; из текста этой карты добавлено: {added}"
            out[r.id] = (
                f"на столе «{r.name}» — карта этой базы: жизнь, класс, удар, стихия, стоимость и текст "
                f"отсюда; {said}"
            )
        elif e is not None:
            out[r.id] = (
                f"в библиотеке движка есть «{e.name}» другого вида ({lexicon.class_of_card(*_kind(e))}); "
                "на столе — эта карта базы с тем, что прочитано из её текста: особенности, описанные "
                "вручную для примера правил, к ней не применяются"
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
