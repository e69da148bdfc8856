"""Which of a card's sentences say an ability the engine models, and as which declaration.

The wordings are data (cardbase/data/phrasings.yaml); this module puts them together into
whole-sentence patterns and turns a match into an `Ability` checked against its declaration in
engine/model/abilities.py (`parse_ability`), so a phrasing can only produce what the engine
declares. A sentence no phrasing matches in full stays text: the page marks it «не
смоделировано: решайте по тексту карты».
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import lexicon
from cardbase.model import CardBaseError, Modelled
from engine import ABILITY_KINDS as KINDS
from engine import Ability, LibraryError, parse_ability
from rules_index import yamlread

PHRASINGS_FILE = pathlib.Path(__file__).resolve().parent / "data" / "phrasings.yaml"
PROPERTIES = ("incorporeal",)

_QUOTES = str.maketrans({"“": "«", "”": "»", "„": "«", '"': "«"})
_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\ufeff]")  # \t \n \r become spaces below
_SPACE_BEFORE = re.compile(r"\s+([.,;:!?)])")
_SPACE_AFTER = re.compile(r"([(«])\s+")
_OPENING = re.compile(r"(^|[.!?] )(\w)")


def _alt(words: Iterable[str], *, spaces: bool = False) -> str:
    """A regex alternative of folded phrases, longest first (so «рядом с собой» beats «рядом»).
    With `spaces`, a phrase keeps its leading and trailing spaces (separators: « и »)."""
    fold = (lambda w: lexicon.fold(w.strip()).join(w.split(w.strip(), 1))) if spaces else lexicon.fold
    folded = sorted({fold(w) for w in words}, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(w) for w in folded) + ")"


def _words(raw: Mapping[str, Any], key: str) -> dict[str, str]:
    """A table code → [phrases] as folded phrase → code."""
    out: dict[str, str] = {}
    for code, phrases in (raw.get(key) or {}).items():
        for phrase in phrases:
            out[lexicon.fold(str(phrase))] = str(code)
    return out


@dataclasses.dataclass(frozen=True)
class _Pattern:
    regex: re.Pattern[str]
    kind: str
    prop: str


@dataclasses.dataclass(frozen=True)
class Phrasings:
    """The compiled wordings of phrasings.yaml (read-only)."""

    patterns: tuple[_Pattern, ...]
    protection: re.Pattern[str]
    protection_words: Mapping[str, str]
    join_opening: re.Pattern[str]
    join_separators: re.Pattern[str]
    summon: re.Pattern[str]
    resurrect: re.Pattern[str]
    search: Mapping[str, str]
    where: Mapping[str, str]
    places_on: Mapping[str, str]
    icons: Mapping[str, Mapping[str, str]]
    # How a parameter's value reads on the card page: the first wording of each code
    # (param name → code → words), e.g. where.adjacent → «рядом с собой».
    display: Mapping[str, Mapping[str, str]]


def _first(table: Mapping[str, Any]) -> dict[str, str]:
    return {str(code): str(phrases[0]) for code, phrases in table.items() if phrases}


def _pattern(entry: Mapping[str, Any], i: int) -> _Pattern:
    kind, prop = str(entry.get("kind") or ""), str(entry.get("property") or "")
    where = f"{PHRASINGS_FILE.name}, patterns[{i + 1}]"
    if bool(kind) == bool(prop):
        raise CardBaseError(f"{where}: нужен ровно один из ключей kind и property")
    if kind and kind not in KINDS:
        raise CardBaseError(f"{where}: вида особенности «{kind}» нет в engine/model/abilities.py")
    if prop and prop not in PROPERTIES:
        raise CardBaseError(f"{where}: свойство «{prop}» неизвестно (известны: {', '.join(PROPERTIES)})")
    try:
        return _Pattern(re.compile(str(entry["pattern"])), kind, prop)
    except (KeyError, re.error) as exc:
        raise CardBaseError(f"{where}: шаблон не читается: {exc}") from None


def _act(raw: Mapping[str, Any], section: str, target: str) -> str:
    """One summon-like sentence: [when…,] [[cost]:] [может] VERB [SOURCE] TARGET [SOURCE] [WHERE]
    [PLACES] [(ONCE)]."""
    part = raw[section]
    sources = _alt(part["sources"])
    return (
        rf"(?:(?P<trigger>{_alt(raw['trigger'])}\b.*?)[,:]?\s+)??"
        r"(?:(?P<cost>(?:\[[^\]]+\]\s*)+):\s*)?"
        rf"(?:может\s+)?{_alt(part['verbs'])}"
        rf"(?:\s+{sources})?"
        rf"\s+{target}"
        rf"(?:\s+{sources})?"
        rf"(?:\s+(?P<where>{_alt(w for ws in raw['where'].values() for w in ws)}))?"
        rf"(?:\s+(?P<places>{_alt(w for ws in raw['places_on'].values() for w in ws)}))?"
        rf"(?:\s*\(?(?P<once>{_alt(raw['once_per_battle'])})\)?)?"
    )


@functools.cache
def phrasings(path: pathlib.Path = PHRASINGS_FILE) -> Phrasings:
    """phrasings.yaml compiled (once per process; the result is immutable)."""
    try:
        raw = yamlread.load_file(path)
        named = rf"(?:{_alt(raw['named'])}\s+)?«(?P<card>[^»]+)»"
        summon_target = (
            rf"(?:{named}|(?P<search>{_alt(w for ws in raw['summon']['search'].values() for w in ws)}))"
        )
        resurrect_target = rf"(?:{named}|{_alt(raw['resurrect']['anything'])})"
        icons = {
            str(code): {str(k): str(v) for k, v in entry.items()}
            for code, entry in (raw.get("icons") or {}).items()
        }
        return Phrasings(
            patterns=tuple(_pattern(e, i) for i, e in enumerate(raw.get("patterns") or [])),
            protection=re.compile(rf"{_alt(raw['protection']['opening'])} (?P<list>.+)"),
            protection_words=_words(raw["protection"], "from"),
            join_opening=re.compile(rf"{_alt(raw['cannot_join_with']['opening'])} (?P<cards>.+)"),
            join_separators=re.compile(_alt(raw["cannot_join_with"]["separators"], spaces=True)),
            summon=re.compile(_act(raw, "summon", summon_target)),
            resurrect=re.compile(_act(raw, "resurrect", resurrect_target)),
            search=_words(raw["summon"], "search"),
            where=_words(raw, "where"),
            places_on=_words(raw, "places_on"),
            icons=icons,
            display={
                "where": _first(raw["where"]),
                "places_on": _first(raw["places_on"]),
                "search": _first(raw["summon"]["search"]),
                "from": _first(raw["protection"]["from"]),
            },
        )
    except (yamlread.YamlError, KeyError, TypeError, AttributeError, re.error) as exc:
        raise CardBaseError(f"{path.name}: не читается: {exc!r}") from None


# Text ------------------------------------------------------------------------------------


def expand(raw: str, placeholder: Any) -> tuple[str, list[str]]:
    """A card's text as a judge reads it: `{tap}` and the icon codes spelled out by
    `placeholder(code)` (None for an unknown one, which stays as written), stray control
    characters gone, spaces tidied. Returns the text and the unknown placeholders."""
    if raw.strip().lower() in ("", "nan", "none", "null"):
        return "", []
    unknown: list[str] = []

    def sub(m: re.Match[str]) -> str:
        word = placeholder(m.group(1))
        if word is None:
            unknown.append(m.group(1))
            return m.group(0)
        return str(word)

    text = _PLACEHOLDER.sub(sub, raw)
    text = _CONTROL.sub("", text)
    text = " ".join(text.split())
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER.sub(r"\1", text)
    # a sentence that opens with a spelled-out icon («{zoo}. …») starts with a capital all the same
    text = _OPENING.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    return text, list(dict.fromkeys(unknown))


def sentences(text: str) -> list[str]:
    """The sentences of a text: split after «.», «!» or «?» followed by a space, never inside «»."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "«":
            depth += 1
        elif ch == "»":
            depth = max(depth - 1, 0)
        elif ch in ".!?" and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            out.append(text[start : i + 1].strip())
            start = i + 1
    if text[start:].strip():
        out.append(text[start:].strip())
    return [s for s in out if any(c.isalnum() for c in s)]


def _key(sentence: str) -> str:
    """A sentence as phrasings match it: folded, quotes as «», no final stop."""
    return lexicon.fold(sentence.translate(_QUOTES)).rstrip(" .!?;")


# Recognition -----------------------------------------------------------------------------


def _ability(kind: str, params: Mapping[str, object], where: str) -> Ability:
    return parse_ability({"kind": kind, **params}, where)


def _typed(kind: str, params: Mapping[str, str | None]) -> dict[str, object]:
    """Regex groups as parameters of the declared types (int for `x`, …); None groups dropped."""
    declared = KINDS[kind]
    out: dict[str, object] = {}
    for name, value in params.items():
        param = declared.param(name)
        if value is None or param is None:
            continue
        out[name] = int(value) if param.kind is int else value
    return out


def _simple(p: Phrasings, key: str, sentence: str) -> Modelled | None:
    for pat in p.patterns:
        m = pat.regex.fullmatch(key)
        if m is None:
            continue
        if pat.prop:
            return Modelled(source=sentence, prop=pat.prop)
        groups = m.groupdict()
        places = groups.pop("places", None)
        params = _typed(pat.kind, groups)
        if places is not None:
            code = p.places_on.get(places)
            if code is None:
                return None
            params["places_on"] = code
        return Modelled(source=sentence, ability=_ability(pat.kind, params, sentence))
    return None


def _protection(p: Phrasings, key: str, sentence: str) -> Modelled | None:
    m = p.protection.fullmatch(key)
    if m is None:
        return None
    items = [s.strip() for s in re.split(r",\s*|\s+и\s+", m.group("list")) if s.strip()]
    codes = [p.protection_words.get(item) for item in items]
    if not items or None in codes:
        return None
    found = [c for c in dict.fromkeys(codes) if c]
    return Modelled(source=sentence, ability=_ability("protection", {"from": found}, sentence))


def _join(p: Phrasings, key: str, sentence: str, names: Mapping[str, str]) -> Modelled | None:
    m = p.join_opening.fullmatch(key)
    if m is None:
        return None
    rest = m.group("cards")
    quoted = re.findall(r"«([^»]+)»", rest)
    if quoted:
        leftover = re.sub(r"«[^»]+»", "", rest)
        if p.join_separators.sub("", leftover).strip():
            return None
        cards = [names.get(lexicon.fold(q), q.strip()) for q in quoted]
    else:
        parts = [s.strip() for s in p.join_separators.split(rest) if s.strip()]
        if not parts or any(lexicon.fold(s) not in names for s in parts):
            return None
        cards = [names[lexicon.fold(s)] for s in parts]
    return Modelled(source=sentence, ability=_ability("cannot_join_with", {"cards": cards}, sentence))


def _summon_like(p: Phrasings, key: str, sentence: str, names: Mapping[str, str]) -> Modelled | None:
    for kind, regex in (("summon", p.summon), ("resurrect", p.resurrect)):
        m = regex.fullmatch(key)
        if m is None:
            continue
        params: dict[str, object] = {}
        caveats: list[str] = []
        card = m.group("card")
        if card:
            params["card"] = names.get(lexicon.fold(card), card.strip())
        if kind == "summon" and m.group("search"):
            params["search"] = p.search[m.group("search")]
        if m.group("where"):
            params["where"] = p.where[m.group("where")]
        if m.group("places"):
            params["places_on"] = p.places_on[m.group("places")]
        if m.group("once"):
            params["once_per_battle"] = True
        if m.group("trigger"):
            if kind == "summon":
                params["trigger"] = True
            caveats.append(
                f"условие «{m.group('trigger')}»: когда особенность срабатывает, решает судья; "
                "движок проверяет само действие"
            )
        if m.group("cost"):
            caveats.append(f"цена «{m.group('cost').strip()}» не смоделирована")
        return Modelled(source=sentence, ability=_ability(kind, params, sentence), caveat="; ".join(caveats))
    return None


def recognise_sentence(sentence: str, names: Mapping[str, str] | None = None) -> Modelled | None:
    """What the engine models of one sentence, or None when no phrasing matches all of it.
    `names`: folded name → printed name of the base's cards (for «не может быть взята в отряд с
    Гоблином» without quotes, and to spell a named card as the base does)."""
    p = phrasings()
    key = _key(sentence)
    names = names or {}
    try:
        return (
            _simple(p, key, sentence)
            or _protection(p, key, sentence)
            or _join(p, key, sentence, names)
            or _summon_like(p, key, sentence, names)
        )
    except LibraryError:
        return None  # a phrasing that gives parameters its declaration refuses: not modelled


def recognise(
    text: str,
    raw: str,
    icons: Sequence[tuple[str, int]],
    icon_names: Mapping[str, str],
    names: Mapping[str, str],
) -> tuple[tuple[Modelled, ...], tuple[str, ...]]:
    """The modelled abilities of a card (from its sentences, then its icons) and its sentences
    the engine does not model. A keyword icon whose placeholder the raw text spells is left to
    the text's sentence; an icon repeating what a sentence already gave adds nothing."""
    found: list[Modelled] = []
    rest: list[str] = []
    for sentence in sentences(text):
        got = recognise_sentence(sentence, names)
        if got is None:
            rest.append(sentence)
        else:
            found.append(got)
    p = phrasings()
    have_props = {m.prop for m in found if m.prop}
    have_prot = {
        c for m in found if m.ability and m.ability.kind == "protection" for c in m.ability.get("from")
    }
    spelled = icon_codes_in(raw, p.icons)
    for code, _value in icons:
        entry = p.icons.get(code)
        if entry is None or code in spelled:
            continue
        source = f"значок «{icon_names.get(code, code)}»"
        prop, prot = entry.get("property"), entry.get("protection")
        if prop and prop not in have_props:
            found.append(Modelled(source=source, prop=prop))
            have_props.add(prop)
        elif prot and prot not in have_prot:
            found.append(Modelled(source=source, ability=_ability("protection", {"from": [prot]}, source)))
            have_prot.add(prot)
    return tuple(found), tuple(rest)


def icon_codes_in(text: str, codes: Collection[str]) -> set[str]:
    """The icon codes a raw text spells as placeholders («{zoo}»)."""
    return {c for c in _PLACEHOLDER.findall(text) if c in codes}
