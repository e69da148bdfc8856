"""The search's data tables (YAML under rules_index/data/): jargon, terms, cards, families,
stopwords, derivation (verb prefixes and root alternations), asks (what a kind of question
asks the rules to state), translit (Russian typed in Latin letters).

Loaded fresh for each index build (no module-level cache): a judge who edits jargon.yaml
sees the change at the next load.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from rules_index import yamlread
from rules_index.errors import CorpusError

DATA_DIR = Path(__file__).resolve().parent / "data"


# How a «keep» word relates to the rules word it also searches: a broader word («паразит» →
# «симбиот»), its opposite («закрытый» → «открытом»: a rule on the one settles the other), or a
# word near in meaning («нельзя» → «запрещающие»).
RELATIONS = ("broader", "opposite", "near")


@dataclass(frozen=True)
class JargonEntry:
    slang: tuple[str, ...]
    means: str
    keep: bool = False
    relation: str = "broader"
    # A «keep» word stands for `means` only in clauses that also have one of these words:
    # «хозяин» is the broader «существо» where a clause speaks of symbiotes, not in 535.7.3.
    within: tuple[str, ...] = ()
    # ... and only in a question that also names one of these words: a terrain is a card that is
    # no creature when a symbiote is to go on it; how a terrain is played is another question.
    only_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class TermEntry:
    term: str
    also: tuple[str, ...]
    clause: str


@dataclass(frozen=True)
class CardEntry:
    """A card as search knows it: its name and the other spellings people type (its facts are the
    engine library's)."""

    name: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class Family:
    key: str
    prefixes: tuple[str, ...]
    # longer prefixes of another word that only looks of the family («защитник», a defender, is
    # no «защита», a protection): such words keep their own stems
    unless: tuple[str, ...] = ()


@dataclass(frozen=True)
class Derivation:
    """Verb prefixes (longest first), root-final consonant alternations («г» → «ж») and the
    suffixes of imperfective verbs («ыва»)."""

    prefixes: tuple[str, ...] = ()
    alternations: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    imperfective: tuple[str, ...] = ()  # «ыва», «ива»: «сработать» → «срабатывать»


@dataclass(frozen=True)
class Asks:
    """Question words by kind (asks.yaml): how-many words and the number words that answer
    them; what-is phrases and the words that define; light verbs that say nothing."""

    quantity: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    definition: tuple[tuple[str, ...], ...] = ()
    defines: tuple[str, ...] = ()  # words or phrases, a dash written «–»
    names: frozenset[str] = frozenset()  # «называется»: the defined words follow it
    light: frozenset[str] = frozenset()
    permission: frozenset[str] = frozenset()  # «можно», «может»: the verb is what is asked
    another: frozenset[str] = frozenset()  # «другой», «несколько»: two of a kind
    pair: frozenset[str] = frozenset()  # «два», «обе»: a count of two or more before a word
    agent: frozenset[str] = frozenset()  # «кто»: who does it, a verb with its subject
    time: frozenset[str] = frozenset()  # «когда»: when it is done, a verb the rules must say
    duration: frozenset[str] = frozenset()  # «длится»: «сколько длится» asks how long, not a count
    times: frozenset[str] = frozenset()  # «раз»: «сколько раз» counts a doing, the question's verb
    any_card: frozenset[str] = frozenset()  # «карту»: a verb done to it is done to every kind of card
    order: tuple[tuple[str, ...], ...] = ()  # «в каком порядке»: the order things are done in
    order_states: frozenset[str] = frozenset()  # «затем», «после»: words that state an order
    # «только одного», «не более 1»: a limit of a kind to one, stated before the kind's word
    limit: tuple[tuple[str, ...], ...] = ()
    limit_back: tuple[tuple[str, ...], ...] = ()  # «из них»: the limit's kind is named before it
    more: frozenset[str] = frozenset()  # «ещё», «уже», «сверху»: one more of a kind than there is
    first: frozenset[str] = frozenset()  # «первый»: the ordinal (as a lemma) that counts no second
    card_kinds: frozenset[str] = frozenset()  # «существо», «симбиот»: a limit of cards limits them
    frames: frozenset[str] = frozenset()  # «шаг», «подфаза»: a named part of a turn, when a rule holds
    compare: tuple[tuple[str, ...], ...] = ()  # «чем отличается», «разница»: the difference of two things
    until: tuple[tuple[str, ...], ...] = ()  # «до какого момента»: how long something holds
    until_states: tuple[tuple[str, ...], ...] = ()  # «до конца», «пока»: words that bound a time
    elsewhere: frozenset[str] = frozenset()  # «защитник», «золото»: the game's terms of other sections
    # «двести одиннадцать три»: number words (cardinals and ordinals, dictionary forms) → values
    numerals: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    joins: frozenset[str] = frozenset()  # «точка»: said between the parts of a clause number
    section: frozenset[str] = frozenset()  # «раздел», «глава»: a section is asked for
    # «вместо»: a sentence that says what stands in a thing's place says what it is
    instead: frozenset[str] = frozenset()
    simile: tuple[tuple[str, ...], ...] = ()  # «типа», «как будто»: what follows is a likeness
    section_asks: frozenset[str] = frozenset()  # «в каком», «где», «номер»: a section is asked for
    # «защита от летающих»: the names of abilities other sections treat, each as its words
    elsewhere_names: tuple[tuple[str, ...], ...] = ()
    turn_times: tuple[tuple[str, ...], ...] = ()  # «в начале хода»: when in a turn, not what happens
    chat: frozenset[str] = frozenset()  # «шарит», «знает»: «кто шарит» asks the chat, not a doer
    # «активный»: which of the two players goes first, for an order asked with «кто»
    order_who: frozenset[str] = frozenset()
    # «можно», «чем», «почему»: the words of a question, not of a look-up («211.5 бестелесный симбиот»)
    asking: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Translit:
    """Russian typed in Latin letters (translit.yaml): a group of Latin letters → its Russian
    readings, likeliest first; other readings at a word's start and after a vowel."""

    letters: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    start: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    after_vowel: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    left_out: tuple[str, ...] = ()  # letters players leave out («skolko»: «ь»), put back after a consonant


@dataclass(frozen=True)
class Tables:
    jargon: tuple[JargonEntry, ...]
    terms: tuple[TermEntry, ...]
    cards: tuple[CardEntry, ...]
    families: tuple[Family, ...]
    stopwords: frozenset[str]
    derivation: Derivation = field(default_factory=Derivation)
    asks: Asks = field(default_factory=Asks)
    translit: Translit = field(default_factory=Translit)


def _read(path: Path) -> object:
    try:
        return yamlread.load_file(path)
    except yamlread.YamlError as err:
        raise CorpusError(f"Таблица «{path.name}»: {err}.") from None


def _mapping(path: Path, keys: str) -> dict[str, object] | None:
    """A table of named parts (asks.yaml, derivation.yaml, translit.yaml): its mapping, or None
    when the file is absent or empty (the table's defaults hold); `keys` names the parts for the
    message when the file is not a mapping."""
    if not path.is_file():
        return None
    data = _read(path)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise CorpusError(f"Таблица «{path.name}»: ожидаются ключи {keys}.")
    return data


def _entries(path: Path) -> list[dict[str, object]]:
    data = _read(path)
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(e, dict) for e in data):
        raise CorpusError(f"Таблица «{path.name}»: ожидается список записей.")
    return data


def _strings(path: Path, i: int, entry: dict[str, object], key: str, required: bool) -> tuple[str, ...]:
    value = entry.get(key)
    if value is None:
        if required:
            raise CorpusError(f"Таблица «{path.name}», запись {i + 1}: нет ключа «{key}».")
        return ()
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(v, str | int | float) for v in items):
        raise CorpusError(f"Таблица «{path.name}», запись {i + 1}: «{key}» — строка или список строк.")
    return tuple(str(v) for v in items)


def _jargon(path: Path) -> list[JargonEntry]:
    out: list[JargonEntry] = []
    for i, e in enumerate(_entries(path)):
        relation = (_strings(path, i, e, "relation", False) or ("broader",))[0]
        if relation not in RELATIONS:
            raise CorpusError(
                f"Таблица «{path.name}», запись {i + 1}: «relation» — одно из: {', '.join(RELATIONS)}."
            )
        out.append(
            JargonEntry(
                _strings(path, i, e, "slang", True),
                _strings(path, i, e, "means", True)[0],
                bool(e.get("keep", False)),
                relation,
                _strings(path, i, e, "within", False),
                _strings(path, i, e, "only_with", False),
            )
        )
    return out


def load_tables(data_dir: Path = DATA_DIR, extra_jargon: Sequence[str | Path] = ()) -> Tables:
    """Read all eight tables, plus a judge's own jargon files (same format as jargon.yaml).

    Raises CorpusError (Russian, naming the file and entry) on bad data.
    """
    jargon_list = _jargon(data_dir / "jargon.yaml")
    for extra in extra_jargon:
        path = Path(extra)
        if not path.is_file():
            raise CorpusError(f"Файл жаргона «{path}» не найден.")
        jargon_list.extend(_jargon(path))
    return Tables(
        tuple(jargon_list),
        _terms(data_dir / "terms.yaml"),
        _cards(data_dir / "cards.yaml"),
        _families(data_dir / "families.yaml"),
        _stopwords(data_dir / "stopwords.yaml"),
        _derivation(data_dir / "derivation.yaml"),
        _asks(data_dir / "asks.yaml"),
        _translit(data_dir / "translit.yaml"),
    )


def _terms(path: Path) -> tuple[TermEntry, ...]:
    terms: list[TermEntry] = []
    for i, e in enumerate(_entries(path)):
        clause = e.get("clause")
        if not isinstance(clause, str):
            raise CorpusError(
                f"Таблица «{path.name}», запись {i + 1}: «clause» должен быть строкой в кавычках "
                "('211.10' без кавычек читается как 211.1)."
            )
        term = _strings(path, i, e, "term", True)[0]
        terms.append(TermEntry(term, _strings(path, i, e, "also", False), clause))
    return tuple(terms)


def _cards(path: Path) -> tuple[CardEntry, ...]:
    return tuple(
        CardEntry(_strings(path, i, e, "name", True)[0], _strings(path, i, e, "aliases", False))
        for i, e in enumerate(_entries(path))
    )


def _families(path: Path) -> tuple[Family, ...]:
    return tuple(
        Family(
            _strings(path, i, e, "key", True)[0],
            _strings(path, i, e, "prefixes", True),
            _strings(path, i, e, "unless", False),
        )
        for i, e in enumerate(_entries(path))
    )


def _stopwords(path: Path) -> frozenset[str]:
    words = _read(path)
    if not isinstance(words, list):
        raise CorpusError(f"Таблица «{path.name}»: ожидается список слов.")
    return frozenset(str(w) for w in words)


def _derivation(path: Path) -> Derivation:
    data = _mapping(path, "«prefixes» и «alternations»")
    if data is None:
        return Derivation()
    prefixes = data.get("prefixes") or []
    alternations = data.get("alternations") or {}
    if not isinstance(prefixes, list) or not all(isinstance(x, str) and x for x in prefixes):
        raise CorpusError(f"Таблица «{path.name}»: «prefixes» — список приставок.")
    if not isinstance(alternations, dict) or not all(
        isinstance(k, str) and k and isinstance(v, list) and all(isinstance(x, str) and x for x in v)
        for k, v in alternations.items()
    ):
        raise CorpusError(f"Таблица «{path.name}»: «alternations» — согласная и список её пар.")
    imperfective = data.get("imperfective") or []
    if not isinstance(imperfective, list) or not all(isinstance(x, str) and x for x in imperfective):
        raise CorpusError(f"Таблица «{path.name}»: «imperfective» — список суффиксов («ыва», «ива»).")
    return Derivation(
        tuple(sorted(dict.fromkeys(prefixes), key=lambda x: -len(x))),
        MappingProxyType({k: tuple(v) for k, v in alternations.items()}),
        tuple(dict.fromkeys(x.lower() for x in imperfective)),
    )


def _asks(path: Path) -> Asks:
    data = _mapping(path, "«quantity», «definition» и «light»")
    if data is None:
        return Asks()

    def words(value: object, where: str) -> frozenset[str]:
        if value is None:
            return frozenset()
        if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
            raise CorpusError(f"Таблица «{path.name}»: «{where}» — список слов.")
        return frozenset(x.strip().lower().replace("ё", "е") for x in value)

    def part(key: str) -> dict[str, object]:
        value = data.get(key) or {}
        if not isinstance(value, dict):
            raise CorpusError(f"Таблица «{path.name}»: «{key}» — ключи «ask» и «states».")
        return value

    quantity, definition, order, until = part("quantity"), part("definition"), part("order"), part("until")
    return Asks(
        words(quantity.get("ask"), "quantity.ask"),
        words(quantity.get("states"), "quantity.states"),
        tuple(
            sorted(
                {tuple(p.split()) for p in words(definition.get("ask"), "definition.ask")},
                # longest first; then by the words, not by the set's order (which the hash seed sets)
                key=lambda p: (-len(p), p),
            )
        ),
        tuple(
            sorted(
                w.replace("—", "–").replace("-", "–")
                for w in words(definition.get("states"), "definition.states")
            )
        ),
        words(definition.get("names"), "definition.names"),
        words(data.get("light"), "light"),
        words(data.get("permission"), "permission"),
        words(data.get("another"), "another"),
        words(data.get("pair"), "pair"),
        words(data.get("agent"), "agent"),
        words(data.get("time"), "time"),
        words(quantity.get("duration"), "quantity.duration"),
        words(quantity.get("times"), "quantity.times"),
        words(data.get("any_card"), "any_card"),
        tuple(
            sorted(
                {tuple(p.split()) for p in words(order.get("ask"), "order.ask")}, key=lambda p: (-len(p), p)
            )
        ),
        words(order.get("states"), "order.states"),
        _phrases(words(data.get("limit"), "limit")),
        _phrases(words(data.get("limit_back"), "limit_back")),
        words(data.get("more"), "more"),
        words(data.get("first"), "first"),
        words(data.get("card_kinds"), "card_kinds"),
        words(data.get("frames"), "frames"),
        _phrases(words(data.get("compare"), "compare")),
        _phrases(words(until.get("ask"), "until.ask")),
        _phrases(words(until.get("states"), "until.states")),
        words(data.get("elsewhere"), "elsewhere"),
        _numerals(path, data.get("numerals")),
        words(data.get("joins"), "joins"),
        words(data.get("section"), "section"),
        words(definition.get("instead"), "definition.instead"),
        _phrases(words(data.get("simile"), "simile")),
        words(data.get("section_asks"), "section_asks"),
        _phrases(words(data.get("elsewhere_names"), "elsewhere_names")),
        _phrases(words(data.get("turn_times"), "turn_times")),
        words(data.get("chat"), "chat"),
        words(order.get("who_states"), "order.who_states"),
        words(data.get("asking"), "asking"),
    )


def _numerals(path: Path, value: object) -> Mapping[str, int]:
    """asks.yaml `numerals`: a mapping of number words to their values (0–900)."""
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and k and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 900
        for k, v in value.items()
    ):
        raise CorpusError(f"Таблица «{path.name}»: «numerals» — слова с числами от 0 до 900.")
    return MappingProxyType({k.strip().lower().replace("ё", "е"): v for k, v in value.items()})


_LATIN_GROUP = re.compile(r"[a-z']+")
_RUSSIAN_READING = re.compile(r"[а-я]*")


def _translit(path: Path) -> Translit:
    data = _mapping(path, "«letters», «start», «after_vowel» и «left_out»")
    if data is None:
        return Translit()

    def groups(key: str) -> Mapping[str, tuple[str, ...]]:
        value = data.get(key) or {}
        if not isinstance(value, dict) or not all(
            isinstance(k, str)
            and _LATIN_GROUP.fullmatch(k)
            and isinstance(v, list)
            and v
            and all(isinstance(x, str) and _RUSSIAN_READING.fullmatch(x) for x in v)
            for k, v in value.items()
        ):
            raise CorpusError(
                f"Таблица «{path.name}»: «{key}» — латинские буквы (строчные) и список их русских прочтений."
            )
        return MappingProxyType({k: tuple(dict.fromkeys(v)) for k, v in value.items()})

    left_out = data.get("left_out") or []
    if not isinstance(left_out, list) or not all(
        isinstance(x, str) and len(x) == 1 and _RUSSIAN_READING.fullmatch(x) for x in left_out
    ):
        raise CorpusError(f"Таблица «{path.name}»: «left_out» — список русских букв.")
    return Translit(groups("letters"), groups("start"), groups("after_vowel"), tuple(left_out))


def _phrases(listed: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Phrases as their words, longest first; then by the words, not by the set's order (which
    the hash seed sets)."""
    return tuple(sorted({tuple(p.split()) for p in listed}, key=lambda p: (-len(p), p)))
