"""Every Russian word the product shows for a code, and how citations and choices read.

One table (lexicon/words.yaml) serves the engine's traces, the scenario runner, the CLIs, the pages
and the journal's export, so a verdict or a zone is named the same way everywhere. The table is
read once per process into read-only mappings; nothing here holds per-user state.

Also here, because every layer needs them and they must not drift: `cite` (how a clause or an
assumption is named in Russian), `player` and `plural` (the grammar of a sentence about players
and counts), `fold` and `match_option` (how a typed answer is compared with the offered options).
"""

from __future__ import annotations

import functools
import pathlib
import types
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from rules_index import ids, yamlread
from rules_index.text import normalize

WORDS_FILE = pathlib.Path(__file__).with_name("words.yaml")

VERDICTS = ("legal", "illegal", "undetermined")
STEP_KINDS = (
    "allowed",
    "forbidden",
    "effect",
    "state_check",
    "not_applied",
    "undetermined",
    "assumption",
    "conflict",
    "unchecked",
)
PHASES = ("recruit", "placement", "reveal", "battle")
# The battle zone first, then the zones beside the field in the order a judge looks at them (the
# desk draws them so, the position notation names them): the one list of zones.
ZONES = ("battle", "aux", "hand", "deck", "graveyard", "exile")
OFF_FIELD_ZONES = ZONES[1:]
CARD_TYPES = ("creature", "artifact", "terrain")
SUBTYPES = ("ground", "flyer", "companion", "parasite")
DAMAGE_KINDS = ("strike", "ranged", "poison", "magic", "influence")
DECK_POSITIONS = ("top", "bottom")
PLAYER_CASES = ("nom", "gen", "dat", "acc", "ins", "pre")
# The card properties a scenario's `expect.cards` may check (engine.card_props' keys).
CARD_PROPS = (
    "name",
    "zone",
    "cell",
    "host",
    "symbiote",
    "type",
    "subtype",
    "owner",
    "controller",
    "control_marker",
    "closed",
    "hidden",
    "incorporeal",
    "wounds",
    "life",
    "tokens",
    "alive",
    "incarnated",
)

# Each table of words.yaml: the codes it must name, and the fields each entry must have
# ("" for an entry that is a plain word).
_SHAPE: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = types.MappingProxyType(
    {
        "verdicts": (VERDICTS, ("word", "icon", "mark")),
        "verdict_glosses": (VERDICTS, ()),
        "option_marks": (VERDICTS, ()),
        "step_kinds": (STEP_KINDS, ("word", "icon")),
        "phases": (PHASES, ("word", "ended")),
        "zones": (ZONES, ("word", "where")),
        "card_types": (CARD_TYPES, ()),
        "subtypes": (SUBTYPES, ("word", "full")),
        "damage_kinds": (DAMAGE_KINDS, ("word", "gen")),
        "deck_positions": (DECK_POSITIONS, ()),
        "player_cases": (PLAYER_CASES, ()),
        "citations": (("clause", "assumption"), ()),
        "card_props": (CARD_PROPS, ()),
    }
)


class LexiconError(ValueError):
    """words.yaml is missing a code or a field (a packaging error, named precisely)."""


def load_words(path: str | pathlib.Path | None = None) -> Mapping[str, Mapping[str, Any]]:
    """Read and check a words file; every table and entry read-only. Raises LexiconError."""
    file = pathlib.Path(path) if path else WORDS_FILE
    try:
        raw = yamlread.load_file(file)
    except yamlread.YamlError as exc:
        raise LexiconError(f"{file.name}: не удалось прочитать словарь: {exc}") from exc
    if not isinstance(raw, dict):
        raise LexiconError(f"{file.name}: ожидался словарь таблиц")
    out: dict[str, Mapping[str, Any]] = {}
    for table, (codes, fields) in _SHAPE.items():
        entries = raw.get(table)
        if not isinstance(entries, dict):
            raise LexiconError(f"{file.name}: нет таблицы «{table}»")
        checked: dict[str, Any] = {}
        for code in codes:
            entry = entries.get(code)
            if fields:
                if not isinstance(entry, dict) or any(not isinstance(entry.get(f), str) for f in fields):
                    raise LexiconError(f"{file.name}, {table}.{code}: нужны поля {', '.join(fields)}")
                checked[code] = types.MappingProxyType({f: entry[f] for f in fields})
            else:
                if not isinstance(entry, str) or not entry.strip():
                    raise LexiconError(f"{file.name}, {table}.{code}: нет слова")
                checked[code] = entry
        out[table] = types.MappingProxyType(checked)
    return types.MappingProxyType(out)


@functools.cache
def words() -> Mapping[str, Mapping[str, Any]]:
    """The embedded table, read once per process (read-only, so sharing it keeps no state)."""
    return load_words()


def _field(table: str, code: str, name: str = "word") -> str:
    """One field of one entry; an unknown code reads as itself (never a KeyError in a page)."""
    entry = words()[table].get(code)
    if entry is None:
        return code
    return str(entry if isinstance(entry, str) else entry[name])


# -- verdicts and trace steps -------------------------------------------------------------------


def verdict(code: str) -> str:
    """«законно», «запрещено», «не определено»."""
    return _field("verdicts", code)


def verdict_icon(code: str) -> str:
    """The verdict's icon as Streamlit writes it: «:material/block:»."""
    return f":material/{_field('verdicts', code, 'icon')}:" if code in VERDICTS else ":material/circle:"


def verdict_mark(code: str) -> str:
    """A plain-text sign for the verdict («✔», «✘», «?») where no icon font is available."""
    return _field("verdicts", code, "mark") if code in VERDICTS else "•"


def verdict_gloss(code: str) -> str:
    """What the verdict means, in a sentence."""
    return _field("verdict_glosses", code)


def option_mark(code: str) -> str:
    """A desk target's mark: «можно», «нельзя», «не определено»."""
    return _field("option_marks", code)


def step_kind(code: str) -> str:
    return _field("step_kinds", code)


def step_icon(code: str) -> str:
    return f":material/{_field('step_kinds', code, 'icon')}:" if code in STEP_KINDS else ":material/circle:"


# -- the game's nouns ---------------------------------------------------------------------------


def phase(code: str) -> str:
    return _field("phases", code)


def phase_ended(code: str) -> str:
    """«Шаг рассадки окончен», «подфаза Набора окончена»: the ending agrees with the noun."""
    return _field("phases", code, "ended")


def zone(code: str) -> str:
    return _field("zones", code)


def zone_where(code: str) -> str:
    """The zone as a place: «во вспомогательной зоне», «на кладбище»."""
    return _field("zones", code, "where")


def card_type(code: str) -> str:
    return _field("card_types", code)


def subtype(code: str) -> str:
    return _field("subtypes", code)


def subtype_full(code: str) -> str:
    """«симбиот-компаньон», «летающее существо»."""
    return _field("subtypes", code, "full")


def kind_of_card(card_type_code: str, subtype_code: str | None) -> str:
    """A card's class in one phrase: «существо (наземное)», «артефакт»."""
    head = card_type(card_type_code)
    return f"{head} ({subtype(subtype_code)})" if card_type_code == "creature" and subtype_code else head


def class_of_card(card_type_code: str, subtype_code: str | None) -> str:
    """A card's class as a judge names it: «симбиот-паразит», «наземное существо», «артефакт»."""
    if card_type_code == "creature" and subtype_code:
        return subtype_full(subtype_code)
    return card_type(card_type_code)


def damage(code: str) -> str:
    return _field("damage_kinds", code)


def damage_gen(code: str) -> str:
    """«удара», «дальней атаки»: for «раны от …»."""
    return _field("damage_kinds", code, "gen")


def deck_position(code: str) -> str:
    return _field("deck_positions", code)


def card_prop(key: str) -> str:
    """«хозяин» for `host`: a card property as a scenario's expectation names it."""
    return _field("card_props", key)


def enum_word(code: str) -> str:
    """The word for a value of an enumerated action argument (damage kind, deck position, type,
    subtype), for option lists that show the judge's words while the YAML keeps the codes."""
    for table in ("damage_kinds", "deck_positions", "card_types", "subtypes"):
        if code in words()[table]:
            return _field(table, code)
    return code


# -- grammar ------------------------------------------------------------------------------------


def player(name: str, case: str = "nom", *, cap: bool = False) -> str:
    """Player `name` ("A" or "B") in a grammatical case: player("B", "gen") → «игрока B».

    Cases: nom, gen, dat, acc, ins, pre; cap=True for the start of a sentence. An unknown case
    is a programming error and raises KeyError.
    """
    word = str(words()["player_cases"][case])
    return f"{word.capitalize() if cap else word} {name}"


def plural(n: int, one: str, few: str, many: str) -> str:
    """`n` with the noun form its number takes: plural(2, "шаг", "шага", "шагов") → «2 шага»."""
    tens, units = n % 100, n % 10
    if units == 1 and tens != 11:
        form = one
    elif 2 <= units <= 4 and not 12 <= tens <= 14:
        form = few
    else:
        form = many
    return f"{n} {form}"


def cite(cid: str) -> str:
    """How a citation reads: «п. 211.4» for a clause, «допущение A3» for an assumption, and the
    text itself for anything else (never «п. A3»)."""
    table = words()["citations"]
    if ids.is_assumption_id(cid):
        return f"{table['assumption']} {cid}"
    if ids.is_clause_id(cid):
        return f"{table['clause']} {cid}"
    return cid


# -- matching what a person typed ---------------------------------------------------------------


def fold(text: str) -> str:
    """Text folded for comparison: Unicode NFC, lower case, «ё» → «е», typographic apostrophes → «'»,
    runs of spaces → one space. Card names, choice answers and names in notation use it."""
    return " ".join(normalize(unicodedata.normalize("NFC", text)).split())


def match_option(answer: str, options: Iterable[tuple[str, str]]) -> str | None:
    """The key of the option a typed `answer` names, by its key or its label (folded), or None.

    `options` are (key, label) pairs as a pending choice offers them. An exact key wins over a
    label, so an option keyed «1» is never shadowed by another labelled «1».
    """
    pairs = list(options)
    for key, _label in pairs:
        if key == answer:
            return key
    wanted = fold(answer)
    for key, label in pairs:
        if fold(key) == wanted or fold(label) == wanted:
            return key
    return None
