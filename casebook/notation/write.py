"""Writing a position as text that reads back to the same cards: names (quoted where they would not
read back whole), places, properties, the header, and ids only where the reader would make others."""

from __future__ import annotations

import types
from collections.abc import Mapping

import engine
import lexicon
from casebook.notation.read import Reader, Token
from casebook.notation.words import SPECIAL, NotationError, assign_ids, vocabulary


def write_position(
    setup: engine.Setup, library: engine.CardLibrary | None = None, header: bool = True
) -> str:
    """The position as a text `read_position` reads back to the same cards (and, with `header`,
    the same phase, turn, active player and seed when they are not the defaults).

    Raises:
        NotationError: a card the notation cannot express (an own card with its own abilities).
    """
    lib = library or engine.load_library()
    voc = vocabulary()
    names = [_card_text(spec, lib) for spec in setup.cards]
    plain_names = [_display_name(spec, lib) for spec in setup.cards]
    explicit: set[int] = set()
    while True:  # write an id wherever the one the reader would make differs
        made = assign_ids(
            [
                (n, spec.id if i in explicit else None)
                for i, (n, spec) in enumerate(zip(plain_names, setup.cards, strict=True))
            ]
        )
        wrong = {i for i, (m, spec) in enumerate(zip(made, setup.cards, strict=True)) if m != spec.id}
        if wrong <= explicit:
            break
        explicit |= wrong
    folded = [lexicon.fold(n) for n in plain_names]
    by_id = {spec.id: i for i, spec in enumerate(setup.cards)}

    def ref(cid: str) -> str:
        i = by_id.get(cid)
        if i is None or folded.count(folded[i]) > 1 or not _plain_words(plain_names[i]):
            return quoted(cid)  # an id that reads as a cell or a word («c1», «id») goes in quotes
        return plain_names[i]

    items = [_header_text(setup)] if header and _header_text(setup) else []
    for i, spec in enumerate(setup.cards):
        parts = [spec.owner, names[i]]
        if spec.host is not None:
            parts.append(f"{voc.host_word} {ref(spec.host)}")
        elif spec.at is not None:
            parts.append(spec.at if engine.is_cell(spec.at) else lexicon.zone_where(spec.at))
        for key in ("wounds", "tokens"):
            if getattr(spec, key):
                parts.append(f"{voc.writes[(key, 'number')]} {getattr(spec, key)}")
        for key in ("closed", "hidden", "incarnated"):
            if getattr(spec, key):
                parts.append(voc.writes[(key, True)])
        if spec.controller is not None and spec.controller != spec.owner:
            parts.append(f"{voc.writes[('controller', 'player')]} {spec.controller}")
        if spec.incorporeal is not None:
            parts.append(voc.writes[("incorporeal", spec.incorporeal)])
        for key in ("exiled_by", "borrowed"):
            if getattr(spec, key):
                parts.append(f"{voc.writes[(key, 'card')]} {ref(getattr(spec, key))}")
        if i in explicit:
            parts.append(f"id {spec.id}")
        items.append(" ".join(parts))
    return "; ".join(items)


def _header_text(setup: engine.Setup) -> str:
    voc = vocabulary()
    word = {
        key: next(w for w, k in voc.header.items() if k == key) for key in ("phase", "turn", "active", "seed")
    }
    parts = []
    if setup.phase != "battle":
        phase = next((w for w, code in voc.phases.items() if code == setup.phase and w != code), setup.phase)
        parts.append(f"{word['phase']} {phase}")
    if setup.turn != 1:
        parts.append(f"{word['turn']} {setup.turn}")
    if setup.active != "A":
        parts.append(f"{word['active']} {setup.active}")
    if setup.seed:
        parts.append(f"{word['seed']} {setup.seed}")
    return ", ".join(parts)


def _display_name(spec: engine.CardSpec, lib: engine.CardLibrary) -> str:
    if isinstance(spec.card, str):
        found = lib.get(spec.card)
        return found.name if found is not None else spec.card
    return str(spec.card.get("name", ""))


def _plain_words(name: str) -> bool:
    """A name the reader takes back as words: no brackets, quotes or separators, and no word of its
    own that would end a name (a cell, «на», a zone, a property)."""
    if not name.strip() or any(ch in SPECIAL for ch in name):
        return False
    reader = Reader(name, engine.CardLibrary(types.MappingProxyType({}), types.MappingProxyType({})))
    tokens = [Token(w, "word", 1, 1) for w in name.split()]
    return not any(reader.structural(tokens, j) for j in range(len(tokens))) and not reader.player(tokens[0])


def quoted(name: str) -> str:
    """A card name as the reader takes it back whole: as it is when it is plain words, else in
    «…» (or "…" when it holds «»»): «Степной дозорный (Пробный выпуск, №1)», «Страж на стене».

    Raises:
        NotationError: a name no quotes can hold (both kinds of closing quote, «;» or a new line).
    """
    if _plain_words(name):
        return name
    if ";" in name or "\n" in name or ("»" in name and '"' in name):
        raise NotationError(
            "название с «;», переводом строки или кавычками обоих видов строкой не записать", name
        )
    return f"«{name}»" if "»" not in name else f'"{name}"'


def _card_text(spec: engine.CardSpec, lib: engine.CardLibrary) -> str:
    """A library card by its name (quoted when it is not plain words); an own card as
    «Орк (Наземное существо, жизнь 6)»."""
    if isinstance(spec.card, str):
        return quoted(_display_name(spec, lib))
    card = dict(spec.card)
    name = str(card.get("name", ""))
    template = (
        lib.template_defs.get(lexicon.fold(str(card.get("template", "")))) if "template" in card else None
    )
    if template is None:
        template = _template_for(card, lib)
    if (
        template is None
        or card.get("abilities")
        or set(card) - {"name", "template", "type", "subtype", "life", "incorporeal", "move"}
    ):
        raise NotationError("своя карта с особенностями строкой не записывается: сохраните стол файлом", name)
    voc = vocabulary()
    values = [template.name]  # every value the card states, so it reads back as the same card
    for key in ("life", "move"):
        if key in card:
            values.append(f"{voc.writes[('card.' + key, 'number')]} {card[key]}")
    if "incorporeal" in card:
        values.append(voc.writes[("card.incorporeal", bool(card["incorporeal"]))])
    return f"{quoted(name)} ({', '.join(values)})"


def _template_for(card: Mapping[str, object], lib: engine.CardLibrary) -> engine.CardDef | None:
    """The template whose type and subtype an own card written without one has."""
    ctype = card.get("type", "creature")
    subtype = card.get("subtype", "ground" if ctype == "creature" else None)
    for t in lib.template_defs.values():
        if t.type == ctype and t.subtype == subtype and not t.abilities and t.incorporeal is False:
            return t
    return None
