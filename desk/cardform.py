"""The small card form: what a typed card name means, and the defaults a new card gets.

A name resolves through the card library as the position notation reads it (case, «ё» and
apostrophes do not matter; «Орк (Наземное существо, жизнь 5)» is an own card); an unknown name
gets the nearest ones and is never placed as an own card without the judge saying so. Defaults come
from where the card goes, never from the previous card: on a cell its owner is the half's player;
a symbiote on a host belongs to the host's opponent if it is a parasite, to the host's side if a
companion.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

import casebook
import engine
import lexicon
from desk.view import Props

OWN_TEMPLATE = "Наземное существо"
OWN_SYMBIOTE_TEMPLATE = "Паразит"


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A typed card: status empty | library | own | unknown."""

    status: str
    card: str | Mapping[str, object] | None = None
    name: str = ""
    subtype: str | None = None
    words: str = ""  # «наземное существо, жизнь 3 (карта библиотеки)» or why it is unknown
    suggestions: tuple[str, ...] = ()


def describe(cdef: engine.CardDef, life: object = None) -> str:
    """«симбиот-паразит, жизнь 2»."""
    shown = life if isinstance(life, int) else cdef.life
    parts = [lexicon.class_of_card(cdef.type, cdef.subtype)]
    if shown is not None:
        parts.append(f"жизнь {shown}")
    if cdef.incorporeal:
        parts.append("бестелесное")
    return ", ".join(parts)


def resolve(library: engine.CardLibrary, text: str) -> Resolved:
    """What the typed name means (see the module's docstring)."""
    typed = text.strip()
    if not typed:
        return Resolved("empty")
    found = library.get(typed)
    if found is not None:
        kind = "шаблон" if found.template else "карта библиотеки"
        return Resolved("library", found.name, found.name, found.subtype, f"{describe(found)} ({kind})")
    if "(" in typed:
        try:
            card = casebook.read_position("A " + typed + " a1", library).cards[0].card
        except casebook.NotationError as exc:
            return Resolved("unknown", name=typed, words=exc.detail)
        assert isinstance(card, Mapping)
        base = library.get(str(card.get("template")))
        assert base is not None
        words = f"{describe(base, card.get('life'))} (своя карта по шаблону «{base.name}»)"
        return Resolved("own", card, str(card.get("name")), base.subtype, words)
    near = tuple(library.nearest(typed, 3))
    return Resolved(
        "unknown",
        name=typed,
        words=f"«{typed}» нет в библиотеке карт",
        suggestions=near,
    )


def other(player: str) -> str:
    return next(p for p in engine.PLAYERS if p != player)


def default_owner(cell: str | None, host: Props | None, subtype: str | None) -> str:
    """The owner a new card gets unless the judge says otherwise (see the module's docstring)."""
    if host is not None:
        side = str(host.get("controller") or host.get("owner"))
        return side if subtype == "companion" else other(side)
    if cell and engine.is_cell(cell):
        return engine.half_of(cell)
    return engine.PLAYERS[0]


def can_host(p: Props) -> bool:
    """Whether to offer a symbiote field for this card: a ground creature on a cell with no
    symbiote yet (the engine judges the placing itself)."""
    return bool(
        p.get("zone") == "battle"
        and p.get("cell")
        and not p.get("host")
        and not p.get("symbiote")
        and p.get("type") == "creature"
        and p.get("subtype") == "ground"
    )


def placed_words(name: str, owner: str, at: str | None, host_name: str | None) -> str:
    """«Вайл (игрок B) — на c4.», «Карлик Унд (игрок A) — на Вайле.» for the message after placing."""
    if host_name:
        where = f"на карте «{host_name}»"
    elif at and engine.is_cell(at):
        where = f"на {at}"
    else:
        where = lexicon.zone_where(str(at))
    return f"«{name}» ({lexicon.player(owner)}) — {where}."


def friendly(exc: Exception, names: Mapping[str, str]) -> str:
    """An engine's refusal with cards named as the judge knows them: «клетка c4 уже занята картой
    «Вайл»» rather than «… картой vail»."""
    detail = str(getattr(exc, "detail", "") or exc)
    for cid, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        detail = re.sub(rf"(?<![\w«])({re.escape(cid)})(?![\w»])", f"«{name}»", detail)
    card = getattr(exc, "card", None)
    return (f"«{names[card]}»: " if isinstance(card, str) and card in names else "") + detail


@dataclasses.dataclass(frozen=True)
class Put:
    """Where a card from the card page goes on the desk in one tap: `at` (a free cell or the
    auxiliary zone), or for a symbiote the cards it may sit on (`hosts`: the judge taps one); the
    owner it gets; why there, in the judge's words; or why it cannot go on at all (`problem`)."""

    at: str | None = None
    owner: str = "A"
    hosts: tuple[str, ...] = ()
    words: str = ""
    problem: str = ""


def in_aux_zone(cdef: engine.CardDef) -> str:
    """Why the card stands in the auxiliary zone, or "" (535.4 names both kinds; A5 is our rule for
    where they stand before any summon)."""
    if cdef.type == "creature" and cdef.subtype == "flyer":
        return "летающее существо ставится во вспомогательную зону (п. 535.4, допущение A5)"
    if cdef.has("aux_zone"):
        return "карта «располагается во вспомогательной зоне» (п. 535.4, допущение A5)"
    return ""


def where_to_put(cdef: engine.CardDef, props: Mapping[str, Props], free: str | None) -> Put:
    """Where `cdef` goes (see Put); `free` is the free cell to use for a card of the field."""
    name = f"«{cdef.name}»"
    symbiote = cdef.type == "creature" and cdef.subtype in ("companion", "parasite")
    hosts = tuple(cid for cid, p in props.items() if can_host(p)) if symbiote else ()
    if hosts:
        return Put(hosts=hosts, words=f"{name} — симбиот: выберите, на какую карту его положить.")
    aux = in_aux_zone(cdef)
    if aux:
        return Put(at="aux", words=f"{name}: {aux}.")
    if free is None:
        return Put(problem=f"На поле нет свободной клетки для {name}: уберите карту или положите её в зону.")
    owner = engine.half_of(free)
    half = lexicon.player(owner, "gen")
    said = f"{name} — на свободную клетку {free} (половина {half})."
    if symbiote:  # no creature to sit on yet (as symbiotes lie before the reveal, 211.2)
        said = (
            f"{name} — симбиот, а наземного существа без симбиота на столе нет: он поставлен на свободную "
            f"клетку {free} (половина {half}); на хозяина его кладут в «Свойствах карты»."
        )
    return Put(at=free, owner=owner, words=said)
