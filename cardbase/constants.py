"""The codes of a card base: type, elements, rarities, sets, keyword icons and text placeholders.

Our own table (cardbase/data/constants.yaml) decodes a community base that comes alone; a base's
companion constants file (`const.json`: `sets`, `rarities`, `colors`, `creature_types`, `icons`)
is read on top of it, so its set names and icon words win. Every table is read-only.
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import types
from collections.abc import Mapping
from typing import Any

import lexicon
from cardbase import readers
from cardbase.model import CardBaseError
from rules_index import yamlread
from storage import clean

DATA_DIR = pathlib.Path(__file__).resolve().parent / "data"
CONSTANTS_FILE = DATA_DIR / "constants.yaml"
MAX_CONSTANTS_BYTES = 2 * 1024 * 1024


@dataclasses.dataclass(frozen=True)
class Constants:
    """Code tables. `types` maps a type code to (card type, subtype or None)."""

    types: Mapping[str, tuple[str, str | None]]
    colors: Mapping[int, str]
    rarities: Mapping[str, str]
    sets: Mapping[str, str]
    icons: Mapping[str, str]
    placeholders: Mapping[str, str]
    source: str = "встроенный справочник"

    def placeholder(self, code: str) -> str | None:
        """How `{code}` in a card's text reads, or None for an unknown placeholder."""
        if code in self.placeholders:
            return self.placeholders[code]
        return self.icons.get(code)


def _ro(d: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return types.MappingProxyType(dict(d))


def _type_entry(raw: object, where: str) -> tuple[str, str | None]:
    if not isinstance(raw, Mapping) or raw.get("type") not in lexicon.CARD_TYPES:
        raise CardBaseError(f"{where}: нужен словарь с type из {', '.join(lexicon.CARD_TYPES)}")
    sub = raw.get("subtype")
    if raw["type"] == "creature" and sub not in lexicon.SUBTYPES:
        raise CardBaseError(f"{where}: у существа нужен subtype из {', '.join(lexicon.SUBTYPES)}")
    return str(raw["type"]), (str(sub) if raw["type"] == "creature" else None)


def _table(raw: Mapping[str, Any], key: str, file: str) -> dict[str, str]:
    value = raw.get(key) or {}
    if not isinstance(value, Mapping):
        raise CardBaseError(f"{file}: «{key}» должно быть словарём код → название")
    return {str(k): str(v) for k, v in value.items()}


@functools.cache
def _builtin() -> tuple[Constants, Mapping[str, tuple[str, str | None]]]:
    """Our table, read once per process (read-only mappings)."""
    try:
        raw = yamlread.load_file(CONSTANTS_FILE)
    except yamlread.YamlError as exc:  # a packaging error: the file ships with the code
        raise CardBaseError(f"{CONSTANTS_FILE.name}: не читается: {exc}") from exc
    name = CONSTANTS_FILE.name
    typ = {str(k): _type_entry(v, f"{name}, types.{k}") for k, v in (raw.get("types") or {}).items()}
    words = {
        lexicon.fold(str(k)): _type_entry(v, f"{name}, type_words.{k}")
        for k, v in (raw.get("type_words") or {}).items()
    }
    colors = {int(k): str(v) for k, v in (raw.get("colors") or {}).items()}
    consts = Constants(
        types=_ro(typ),
        colors=_ro(colors),
        rarities=_ro(_table(raw, "rarities", name)),
        sets=_ro(_table(raw, "sets", name)),
        icons=_ro(_table(raw, "icons", name)),
        placeholders=_ro(_table(raw, "placeholders", name)),
    )
    return consts, _ro(words)


def default_constants() -> Constants:
    """Our own table (cardbase/data/constants.yaml)."""
    return _builtin()[0]


def type_words() -> Mapping[str, tuple[str, str | None]]:
    """Folded type words («летающее», «артефакт») → (card type, subtype)."""
    return _builtin()[1]


def read_constants(data: bytes, name: str) -> Constants:
    """A base's constants file (JSON or YAML) on top of our table. Raises CardBaseError naming
    the file and the entry: a type word we cannot map, a colour that is not a single bit."""
    if len(data) > MAX_CONSTANTS_BYTES:
        raise CardBaseError(
            f"Файл кодов «{name}» больше {MAX_CONSTANTS_BYTES // (1024 * 1024)} МБ — это не справочник кодов."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CardBaseError(f"Файл кодов «{name}»: нужна кодировка UTF-8.") from None
    what = f"Файл кодов «{name}»"
    is_yaml = name.lower().endswith((".yaml", ".yml"))
    raw = readers.parse_yaml(text, what) if is_yaml else readers.parse_json(text, what)
    try:
        clean.check_tree(raw)
    except clean.TextError as err:
        raise CardBaseError(f"{what}, {err}. Ничего не загружено.") from None
    if not isinstance(raw, Mapping):
        raise CardBaseError(f"Файл кодов «{name}»: ожидался словарь таблиц (sets, colors, creature_types…).")
    base, words = _builtin()
    typ = dict(base.types)
    for code, word in _table(raw, "creature_types", name).items():
        entry = words.get(lexicon.fold(word))
        if entry is None:
            raise CardBaseError(
                f"Файл кодов «{name}», creature_types.{code}: тип «{word}» неизвестен "
                f"(знаем: {', '.join(sorted(words))})."
            )
        typ[code] = entry
    colors = dict(base.colors)
    for code, element in _table(raw, "colors", name).items():
        if not code.isdigit() or int(code) <= 0 or int(code) & (int(code) - 1):
            raise CardBaseError(f"Файл кодов «{name}», colors.{code}: код стихии — один бит (1, 2, 4, 8…).")
        colors[int(code)] = element
    return Constants(
        types=_ro(typ),
        colors=_ro(colors),
        rarities=_ro({**base.rarities, **_table(raw, "rarities", name)}),
        sets=_ro({**base.sets, **_table(raw, "sets", name)}),
        icons=_ro({**base.icons, **{k: v.lower() for k, v in _table(raw, "icons", name).items()}}),
        placeholders=base.placeholders,
        source=f"файл кодов «{name}»",
    )


# The tables a constants file holds (and a base never holds at its top level).
TABLES = ("sets", "rarities", "colors", "creature_types", "icons", "placeholders")


def is_constants_file(data: bytes, name: str) -> bool:
    """Whether a file a judge chose is a base's codes file (`const.json`) rather than a base: a
    mapping of code tables with no `cards` list. Files bigger than a codes file may be are a base."""
    if len(data) > MAX_CONSTANTS_BYTES or not name.lower().endswith((".json", ".yaml", ".yml")):
        return False
    try:
        text = data.decode("utf-8-sig")
        is_yaml = name.lower().endswith((".yaml", ".yml"))
        raw = readers.parse_yaml(text, name) if is_yaml else readers.parse_json(text, name)
    except (UnicodeDecodeError, CardBaseError):
        return False
    return isinstance(raw, Mapping) and "cards" not in raw and bool(set(map(str, raw)) & set(TABLES))
