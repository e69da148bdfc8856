"""The card library: the example cards of the rules and plain templates, read from YAML.

Cards and templates live in engine/data/cards.yaml; abilities use the small vocabulary in
ABILITY_KINDS (each kind names its parameters), so a new card is data, not code.
"""

from __future__ import annotations

import dataclasses
import pathlib
import types
import unicodedata
from collections.abc import Mapping
from typing import Any

import rapidfuzz.process
import yaml

from engine import errors

DATA_DIR = pathlib.Path(__file__).parent / "data"
CARDS_FILE = DATA_DIR / "cards.yaml"

CARD_TYPES = ("creature", "artifact", "terrain")
SUBTYPES = ("ground", "flyer", "companion", "parasite")
SYMBIOTE_SUBTYPES = ("companion", "parasite")
DAMAGE_KINDS = ("strike", "ranged", "poison", "magic", "influence")

TYPE_RU = types.MappingProxyType({"creature": "существо", "artifact": "артефакт", "terrain": "местность"})
SUBTYPE_RU = types.MappingProxyType(
    {"ground": "наземное", "flyer": "летающее", "companion": "компаньон", "parasite": "паразит"}
)
DAMAGE_RU = types.MappingProxyType(
    {
        "strike": "удар",
        "ranged": "дальняя атака",
        "poison": "отравление",
        "magic": "магический удар",
        "influence": "воздействие",
    }
)

DAMAGE_GEN = types.MappingProxyType(
    {
        "strike": "удара",
        "ranged": "дальней атаки",
        "poison": "отравления",
        "magic": "магического удара",
        "influence": "воздействия",
    }
)


# Ability kind -> {parameter: expected python type(s)}. Parameters are optional unless listed in
# ABILITY_REQUIRED. Meanings are documented in engine/data/cards.yaml's header.
def _read_only(
    spec: Mapping[str, Mapping[str, tuple[type, ...]]],
) -> Mapping[str, Mapping[str, tuple[type, ...]]]:
    """The spec as read-only mappings all the way down (module constants are shared by all users)."""
    return types.MappingProxyType(
        {kind: types.MappingProxyType(dict(params)) for kind, params in spec.items()}
    )


ABILITY_KINDS = _read_only(
    {
        "host_lock": {},
        "wounds_only_from_host": {},
        "place_on_own_creature": {"range": (int,)},
        "become_parasite": {"once_per_battle": (bool,)},
        "incarnation": {"x": (int,), "places_on": (str,)},
        "cannot_join_with": {"cards": (list,)},
        "aux_zone": {},
        "summon": {
            "card": (str,),
            "search": (str,),
            "where": (str,),
            "trigger": (bool,),
            "once_per_battle": (bool,),
            "places_on": (str,),
        },
        "resurrect": {"card": (str,), "where": (str,), "once_per_battle": (bool,), "places_on": (str,)},
        "wound_modifier": {
            "delta": (int,),
            "target": (str,),
            "damage_kinds": (list,),
            "own_strike": (bool,),
            "source_flying": (bool,),
            "name": (str,),
        },
        "lantern": {"cells": (int,), "name": (str,)},
        "replace_destroy_with_exile": {},
        "take_exiled_abilities": {},
        "replace_heal_with_wound": {"per_turn": (int,), "damage_kind": (str,), "counts_as": (str,)},
        "protection": {"from": (list,)},
        "cannot_enter": {"cells": (list,), "half": (str,)},
        "cannot_move": {},
        "cannot_be_relocated": {},
        "on_death": {"effect": (str,), "amount": (int,)},
    }
)
ABILITY_REQUIRED: Mapping[str, tuple[str, ...]] = types.MappingProxyType(
    {
        "place_on_own_creature": ("range",),
        "incarnation": ("x",),
        "cannot_join_with": ("cards",),
        "wound_modifier": ("delta", "target", "damage_kinds"),
        "protection": ("from",),
        "on_death": ("effect", "amount"),
    }
)
SUMMON_WHERE = ("adjacent", "own_half", "own_first_row", "own_third_row", "any")
PLACES_ON = ("own_creature", "enemy_creature", "any_creature")
SEARCH = ("top_card", "top_creature")


@dataclasses.dataclass(frozen=True, slots=True)
class Ability:
    """One ability of the vocabulary: its kind and parameters."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        out.update({k: list(v) if isinstance(v, tuple) else v for k, v in self.params})
        return out


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

    def has(self, kind: str) -> bool:
        return any(a.kind == kind for a in self.abilities)


def fold(name: str) -> str:
    """A card name folded for matching: case, «ё», apostrophes and spaces."""
    s = unicodedata.normalize("NFC", name).casefold().replace("ё", "е")
    for ch in "’‘`ʼ´":
        s = s.replace(ch, "'")
    return " ".join(s.split())


def parse_ability(raw: object, where: str) -> Ability:
    """One ability from YAML. Raises LibraryError naming `where`."""
    if not isinstance(raw, Mapping) or "kind" not in raw:
        raise errors.LibraryError(f"{where}: особенность должна быть словарём с ключом kind")
    kind = raw["kind"]
    if kind not in ABILITY_KINDS:
        known = ", ".join(ABILITY_KINDS)
        raise errors.LibraryError(f"{where}: неизвестный вид особенности «{kind}» (известны: {known})")
    spec = ABILITY_KINDS[kind]
    params: list[tuple[str, Any]] = []
    for key, value in raw.items():
        if key == "kind":
            continue
        if key not in spec:
            raise errors.LibraryError(f"{where}: у особенности {kind} нет параметра «{key}»")
        if isinstance(value, bool) and bool not in spec[key]:
            raise errors.LibraryError(f"{where}: параметр {kind}.{key} имеет неверный тип")
        if not isinstance(value, spec[key]):
            raise errors.LibraryError(f"{where}: параметр {kind}.{key} имеет неверный тип")
        params.append((str(key), tuple(value) if isinstance(value, list) else value))
    for key in ABILITY_REQUIRED.get(kind, ()):
        if key not in raw:
            raise errors.LibraryError(f"{where}: у особенности {kind} не указан параметр «{key}»")
    return Ability(kind=kind, params=tuple(params))


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
    )


@dataclasses.dataclass(frozen=True)
class CardLibrary:
    """Named cards and templates. Immutable; safe to share between sessions."""

    cards: Mapping[str, CardDef]
    template_defs: Mapping[str, CardDef]

    def names(self) -> list[str]:
        return [c.name for c in self.cards.values()]

    def templates(self) -> list[str]:
        return [c.name for c in self.template_defs.values()]

    def get(self, name: str) -> CardDef | None:
        key = fold(name)
        return self.cards.get(key) or self.template_defs.get(key)

    def nearest(self, name: str, n: int = 3) -> list[str]:
        choices = {k: c.name for k, c in {**self.cards, **self.template_defs}.items()}
        found = rapidfuzz.process.extract(fold(name), list(choices), limit=n)
        return [choices[m[0]] for m in found]


def load_library(path: str | pathlib.Path | None = None) -> CardLibrary:
    """Read the card library (default engine/data/cards.yaml). Raises LibraryError."""
    file = pathlib.Path(path) if path else CARDS_FILE
    try:
        raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
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
            key = fold(card.name)
            if key in cards or key in temps:
                raise errors.LibraryError(f"{where}: карта «{card.name}» описана дважды")
            target[key] = card
    return CardLibrary(cards=types.MappingProxyType(cards), template_defs=types.MappingProxyType(temps))
