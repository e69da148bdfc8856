"""The card library: the example cards of the rules and plain templates, read from YAML.

Cards and templates live in engine/data/cards.yaml; their abilities use the vocabulary declared in
engine/model/abilities.py, so a new card is data, not code. Names match folded (lexicon.fold):
case, «ё», typographic apostrophes and spaces do not matter.
"""

from __future__ import annotations

import dataclasses
import pathlib
import types
from collections.abc import Mapping
from typing import Any

import rapidfuzz.process

import lexicon
from engine import errors
from engine.model.abilities import Ability, parse_ability
from rules_index import yamlread

DATA_DIR = pathlib.Path(__file__).resolve().parent.parent / "data"
CARDS_FILE = DATA_DIR / "cards.yaml"

CARD_TYPES = lexicon.CARD_TYPES
SUBTYPES = lexicon.SUBTYPES
SYMBIOTE_SUBTYPES = ("companion", "parasite")
DAMAGE_KINDS = lexicon.DAMAGE_KINDS


@dataclasses.dataclass(frozen=True, slots=True)
class CardDef:
    """A card's printed facts as the engine needs them."""

    name: str
    type: str
    subtype: str | None
    life: int | None
    incorporeal: bool = False
    abilities: tuple[Ability, ...] = ()
    text: str = ""
    element: str = ""
    cost: int | None = None
    move: int = 1
    template: bool = False
    # Printed facts the rules engine does not read but a judge does: the simple strike's weak,
    # medium and strong values, the creature's classes («Орк»), elite and unique, and the id of
    # the record in the card base it came from ("" for the embedded library).
    strike: tuple[int, int, int] | None = None
    classes: tuple[str, ...] = ()
    elite: bool = False
    unique: bool = False
    ref: str = ""

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)


def card_from_mapping(
    raw: Mapping[str, Any], where: str, base: CardDef | None = None, template: bool = False
) -> CardDef:
    """A CardDef from a YAML mapping, optionally on top of a template `base`.

    Raises LibraryError naming `where` and the key.
    """
    allowed = {
        "name",
        "template",
        "type",
        "subtype",
        "life",
        "incorporeal",
        "abilities",
        "text",
        "element",
        "cost",
        "move",
        "strike",
        "elite",
        "unique",
    }
    for key in raw:
        if key not in allowed:
            raise errors.LibraryError(
                f"{where}: неизвестный ключ «{key}» (допустимы: {', '.join(sorted(allowed))})"
            )
    name = raw.get("name", base.name if base else None)
    if not isinstance(name, str) or not name.strip():
        raise errors.LibraryError(f"{where}: не указано имя карты (name)")
    ctype = raw.get("type", base.type if base else "creature")
    if ctype not in CARD_TYPES:
        raise errors.LibraryError(f"{where}: type «{ctype}» неизвестен (допустимы: {', '.join(CARD_TYPES)})")
    default_sub = base.subtype if base else ("ground" if ctype == "creature" else None)
    subtype = raw.get("subtype", default_sub)
    if ctype == "creature" and subtype not in SUBTYPES:
        raise errors.LibraryError(
            f"{where}: subtype «{subtype}» неизвестен (допустимы: {', '.join(SUBTYPES)})"
        )
    if ctype != "creature" and subtype is not None:
        raise errors.LibraryError(f"{where}: подтип (subtype) бывает только у существ")
    life = raw.get("life", base.life if base else None)
    if ctype == "creature" and (not isinstance(life, int) or isinstance(life, bool) or life < 1):
        raise errors.LibraryError(f"{where}: у существа должна быть жизнь life — целое число ≥ 1")
    inc = raw.get("incorporeal", base.incorporeal if base else False)
    if not isinstance(inc, bool):
        raise errors.LibraryError(f"{where}: incorporeal должно быть true или false")
    move = raw.get("move", base.move if base else 1)
    if not isinstance(move, int) or isinstance(move, bool) or move < 0:
        raise errors.LibraryError(f"{where}: move должно быть целым числом ≥ 0")
    abilities = base.abilities if base else ()
    if "abilities" in raw:
        raw_ab = raw["abilities"] or []
        if not isinstance(raw_ab, list):
            raise errors.LibraryError(f"{where}: abilities должно быть списком")
        abilities = abilities + tuple(
            parse_ability(a, f"{where}, особенность {i + 1}") for i, a in enumerate(raw_ab)
        )
    cost = raw.get("cost", base.cost if base else None)
    strike = raw.get("strike", list(base.strike) if base and base.strike else None)
    if strike is not None and not (
        isinstance(strike, list | tuple)
        and len(strike) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in strike)
    ):
        raise errors.LibraryError(f"{where}: strike — три целых числа ≥ 0: слабый, средний, сильный удар")
    return CardDef(
        name=name.strip(),
        type=ctype,
        subtype=subtype if ctype == "creature" else None,
        life=life if ctype == "creature" else None,
        incorporeal=inc,
        abilities=abilities,
        text=str(raw.get("text", base.text if base else "")),
        element=str(raw.get("element", base.element if base else "")),
        cost=cost if isinstance(cost, int) else None,
        move=move,
        template=template,
        strike=(strike[0], strike[1], strike[2]) if strike is not None else None,
        classes=base.classes if base else (),
        elite=_flag(raw, "elite", base.elite if base else False, where),
        unique=_flag(raw, "unique", base.unique if base else False, where),
    )


def _flag(raw: Mapping[str, Any], key: str, default: bool, where: str) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise errors.LibraryError(f"{where}: {key} должно быть true или false")
    return value


@dataclasses.dataclass(frozen=True)
class CardLibrary:
    """Named cards and templates. Immutable; safe to share between sessions. `label` names the
    card base the cards come from ("" for the embedded library alone), so a missing card is said
    to be missing from that base too."""

    cards: Mapping[str, CardDef]
    template_defs: Mapping[str, CardDef]
    label: str = ""

    def missing(self, name: str) -> str:
        """«карты «X» нет в библиотеке» — or, for a base, «ни в базе «b.json», ни во встроенной …»."""
        if self.label:
            return f"карты «{name}» нет ни в базе «{self.label}», ни во встроенной библиотеке движка"
        return f"карты «{name}» нет в библиотеке"

    def names(self) -> list[str]:
        return [c.name for c in self.cards.values()]

    def templates(self) -> list[str]:
        return [c.name for c in self.template_defs.values()]

    def get(self, name: str) -> CardDef | None:
        key = lexicon.fold(name)
        return self.cards.get(key) or self.template_defs.get(key)

    def nearest(self, name: str, n: int = 3) -> list[str]:
        choices = {k: c.name for k, c in {**self.cards, **self.template_defs}.items()}
        found = rapidfuzz.process.extract(lexicon.fold(name), list(choices), limit=n)
        return [choices[m[0]] for m in found]


def load_library(path: str | pathlib.Path | None = None) -> CardLibrary:
    """Read the card library (default engine/data/cards.yaml). Raises LibraryError."""
    file = pathlib.Path(path) if path else CARDS_FILE
    try:
        raw = yamlread.load_file(file)
    except yamlread.YamlError as exc:
        raise errors.LibraryError(f"{file.name}: не удалось прочитать библиотеку карт: {exc}") from exc
    if not isinstance(raw, Mapping):
        raise errors.LibraryError(f"{file.name}: ожидался словарь с ключами cards и templates")
    cards: dict[str, CardDef] = {}
    temps: dict[str, CardDef] = {}
    for section, target, is_template in (("cards", cards, False), ("templates", temps, True)):
        for i, entry in enumerate(raw.get(section) or []):
            where = f"{file.name}, {section}[{i + 1}]"
            if not isinstance(entry, Mapping):
                raise errors.LibraryError(f"{where}: ожидался словарь")
            card = card_from_mapping(entry, f"{where} ({entry.get('name', '?')})", template=is_template)
            key = lexicon.fold(card.name)
            if key in cards or key in temps:
                raise errors.LibraryError(f"{where}: карта «{card.name}» описана дважды")
            target[key] = card
    return CardLibrary(cards=types.MappingProxyType(cards), template_defs=types.MappingProxyType(temps))
