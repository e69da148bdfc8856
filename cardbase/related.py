"""What applies to a card: the rules for cards of its kind, the scenarios and the journal's rulings
that mention it, and the words a rules search should read for its name.

The kinds → clauses table is data (cardbase/data/rules.yaml). A name is found in a text by its
words' search keys (the Snowball stems the rules search and the journal use), so «Горного клеща»
in a question mentions «Горный клещ».
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
from collections.abc import Iterable, Mapping, Sequence

import lexicon
from cardbase.model import CardBaseError, CardRecord
from casebook import catalogue
from engine import ABILITY_KINDS as KINDS
from rules_index import ids, yamlread
from rulings import search as rsearch
from rulings.model import Ruling

RULES_FILE = pathlib.Path(__file__).resolve().parent / "data" / "rules.yaml"
CONDITIONS = ("subtype", "type", "property", "ability", "words")


@dataclasses.dataclass(frozen=True, slots=True)
class Applies:
    """Rules that apply to a card because of one of its features."""

    label: str
    search: str
    clauses: tuple[str, ...]
    when: tuple[str, str]  # (condition, value) as rules.yaml writes it


@functools.cache
def rule_table(path: pathlib.Path = RULES_FILE) -> tuple[Applies, ...]:
    """rules.yaml read and checked (conditions known, clause ids quoted strings)."""
    try:
        raw = yamlread.load_file(path)
    except yamlread.YamlError as exc:
        raise CardBaseError(f"{path.name}: не читается: {exc}") from None
    out: list[Applies] = []
    for i, entry in enumerate(raw or []):
        where = f"{path.name}, запись {i + 1}"
        when = entry.get("when") if isinstance(entry, Mapping) else None
        if not isinstance(when, Mapping) or len(when) != 1 or next(iter(when)) not in CONDITIONS:
            raise CardBaseError(f"{where}: when — одно условие из {', '.join(CONDITIONS)}")
        cond, value = next(iter(when.items()))
        if cond == "ability" and value not in KINDS:
            raise CardBaseError(f"{where}: вида особенности «{value}» нет в engine/model/abilities.py")
        clauses = entry.get("clauses")
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            raise CardBaseError(f"{where}: clauses — список номеров пунктов в кавычках")
        words = value if isinstance(value, list) else [value]
        out.append(
            Applies(
                label=str(entry.get("label", "")),
                search=str(entry.get("search", "")),
                clauses=tuple(clauses),
                when=(str(cond), "|".join(str(w) for w in words)),
            )
        )
    return tuple(out)


def _holds(a: Applies, r: CardRecord) -> bool:
    cond, value = a.when
    if cond == "subtype":
        return r.subtype == value
    if cond == "type":
        return r.type == value
    if cond == "property":
        return value == "incorporeal" and r.incorporeal
    if cond == "ability":
        return any(ab.kind == value for ab in r.abilities)
    text = lexicon.fold(r.text)
    return any(re.search(r"(?<!\w)" + re.escape(lexicon.fold(w)), text) for w in value.split("|"))


def text_sections(text: str) -> list[str]:
    """The rules sections (211, 534, 535) whose wording a piece of card text uses, by the `words`
    entries of rules.yaml: «вместо этого» → 534, «вызвать» → 535, «хозяин» → 211."""
    folded = lexicon.fold(text)
    found: dict[str, None] = {}
    for a in rule_table():
        cond, value = a.when
        if cond != "words":
            continue
        if any(re.search(r"(?<!\w)" + re.escape(lexicon.fold(w)), folded) for w in value.split("|")):
            for c in a.clauses:
                found.setdefault(ids.section(c), None)
    return sorted(found, key=ids.sort_key)


def rules_for(r: CardRecord) -> list[Applies]:
    """The entries of rules.yaml that hold for the card, in the table's order, each clause under
    the first entry that names it (an entry left with no clause of its own is dropped)."""
    seen: set[str] = set()
    out: list[Applies] = []
    for a in rule_table():
        if not _holds(a, r):
            continue
        fresh = tuple(c for c in a.clauses if c not in seen)
        seen.update(fresh)
        if fresh:
            out.append(dataclasses.replace(a, clauses=fresh))
    return out


def clauses_for(r: CardRecord) -> list[str]:
    """Every clause that applies to the card, once each, in the table's order."""
    return [c for a in rules_for(r) for c in a.clauses]


def search_words(r: CardRecord) -> str:
    """What a rules search should read for the card's name: the words of its kinds («паразит
    инкарнация»), or "" when none applies."""
    return " ".join(dict.fromkeys(a.search for a in rule_table() if a.search and _holds(a, r)))


# Mentions ---------------------------------------------------------------------------------


def _keys(text: str) -> tuple[str, ...]:
    return tuple(rsearch.stems(text))


def name_keys(name: str) -> tuple[str, ...]:
    """A card name's search keys, in order (what `rulings_mentioning` looks for)."""
    return _keys(name)


def _contains(seq: Sequence[str], sub: Sequence[str]) -> bool:
    n = len(sub)
    return n > 0 and any(tuple(seq[i : i + n]) == tuple(sub) for i in range(len(seq) - n + 1))


@dataclasses.dataclass(frozen=True)
class ScenarioText:
    entry: catalogue.Entry
    keys: tuple[str, ...]


def scenario_texts(root: pathlib.Path = catalogue.ROOT) -> tuple[ScenarioText, ...]:
    """Every library scenario with its text's search keys (read once, then only searched)."""
    out = []
    for entry in catalogue.library_scenarios(root):
        try:
            text = (root / entry.path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        out.append(ScenarioText(entry, _keys(text)))
    return tuple(out)


def scenarios_mentioning(name: str, texts: Iterable[ScenarioText]) -> list[catalogue.Entry]:
    """The scenarios whose file names the card (in any word form)."""
    want = _keys(name)
    return [t.entry for t in texts if _contains(t.keys, want)]


def _ruling_text(ruling: Ruling) -> str:
    cur = ruling.current
    return " ".join((cur.title, cur.decision, cur.outcome, cur.note, cur.scenario_yaml))


def rulings_mentioning(name: str, rulings: Iterable[Ruling]) -> list[Ruling]:
    """The journal's rulings whose question, decision, outcome, note or recorded position names
    the card (in any word form), newest first."""
    want = _keys(name)
    found = [r for r in rulings if _contains(_keys(_ruling_text(r)), want)]
    return sorted(found, key=lambda r: -r.id)


# Rules search -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class CardInQuery:
    """A base card named in a rules search query: the words that named it and what to read."""

    record: CardRecord
    words: str
    search: str


def cards_in_query(
    query: str, records: Sequence[CardRecord], keys: Sequence[tuple[str, ...]] | None = None
) -> list[CardInQuery]:
    """The cards whose whole name occurs in the query (any word form, «ё» folded), longest first;
    `keys` are the records' name keys when precomputed (QueryCards)."""
    words = rsearch.words(query)
    qkeys = rsearch.stems(query)  # one key per word, in order
    name_keys = keys if keys is not None else [_keys(r.name) for r in records]
    order = sorted(range(len(records)), key=lambda i: -len(name_keys[i]))
    used = [False] * len(qkeys)
    out: list[CardInQuery] = []
    for i in order:
        seq = name_keys[i]
        n = len(seq)
        if not n:
            continue
        for start in range(len(qkeys) - n + 1):
            if tuple(qkeys[start : start + n]) == tuple(seq) and not any(used[start : start + n]):
                for j in range(start, start + n):
                    used[j] = True
                out.append(
                    CardInQuery(records[i], " ".join(words[start : start + n]), search_words(records[i]))
                )
                break
    return out


class QueryCards:
    """The base's names prepared for queries (built once per base, then only read)."""

    def __init__(self, records: Sequence[CardRecord]) -> None:
        self.records = tuple(records)
        self.keys = tuple(_keys(r.name) for r in self.records)

    def find(self, query: str) -> list[CardInQuery]:
        return cards_in_query(query, self.records, self.keys)

    def expand(self, query: str) -> str:
        """The query with the kind words of every base card it names added («Горный клещ хозяин»
        → «Горный клещ хозяин паразит бестелесное»): what the rules search should read."""
        extra = [c.search for c in self.find(query) if c.search]
        return " ".join([query, *extra]) if extra else query
