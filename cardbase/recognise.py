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
from rulings import search as rsearch

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
    join_whom: Mapping[str, str]
    join_elements: Mapping[str, str]
    host_still: re.Pattern[str]
    host_self: frozenset[str]
    wound_change: re.Pattern[str]
    wound_kinds: Mapping[str, str]
    wound_more: frozenset[str]
    summon: re.Pattern[str]
    resurrect: re.Pattern[str]
    search: Mapping[str, str]
    where: Mapping[str, str]
    places_on: Mapping[str, str]
    state_words: Mapping[str, str]
    icons: Mapping[str, Mapping[str, str]]
    no_ability: frozenset[str]
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
        rf"(?:\s+(?P<state>{_alt(w for ws in raw['state_words'].values() for w in ws)}))?"
        rf"(?:\s+(?P<places>{_alt(w for ws in raw['places_on'].values() for w in ws)}))?"
        rf"(?:\s*\(?(?P<once>{_alt(raw['once_per_battle'])})\)?)?"
    )


def _wound_change(raw: Mapping[str, Any]) -> str:
    """OPENING KIND [и|или KIND] [FROM], INSTEAD N ран… меньше|больше (534.5)."""
    kind = _alt(w for ws in raw["kinds"].values() for w in ws)
    return (
        rf"{_alt(raw['openings'])} (?P<kinds>{kind}(?:(?:, | и | или ){kind})*)"
        rf"(?: (?P<flying>{_alt(raw['flying'])}))?,? {_alt(raw['instead'])} "
        rf"(?P<n>\d+) ран(?:у|ы)? (?P<dir>{_alt([*raw['fewer'], *raw['more']])})"
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
            join_whom=_words(raw["cannot_join_with"], "whom"),
            join_elements=_words(raw["cannot_join_with"], "elements"),
            host_still=re.compile(str(raw["host_cannot_move"]["pattern"])),
            host_self=frozenset(lexicon.fold(str(w)) for w in raw["host_cannot_move"]["self"]),
            wound_change=re.compile(_wound_change(raw["wound_change"])),
            wound_kinds=_words(raw["wound_change"], "kinds"),
            wound_more=frozenset(lexicon.fold(str(w)) for w in raw["wound_change"]["more"]),
            summon=re.compile(_act(raw, "summon", summon_target)),
            resurrect=re.compile(_act(raw, "resurrect", resurrect_target)),
            search=_words(raw["summon"], "search"),
            where=_words(raw, "where"),
            places_on=_words(raw, "places_on"),
            state_words=_words(raw, "state_words"),
            icons=icons,
            no_ability=frozenset(lexicon.fold(str(w)) for w in raw.get("no_ability") or ()),
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


_OPEN, _CLOSE = "«([", "»)]"


def sentences(text: str) -> list[str]:
    """The sentences of a text: split after «.», «!» or «?» followed by a space, never inside «»,
    () or [] — so an erratum «[Эррата 2023.04.08: …]» or a bracketed note stays whole."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        ends = i + 1 == len(text) or text[i + 1] == " "
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(depth - 1, 0)
            if depth == 0 and ch != "»" and i and text[i - 1] in ".!?" and ends:  # «… изменён.]»
                out.append(text[start : i + 1].strip())
                start = i + 1
        elif ch in ".!?" and depth == 0 and ends:
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
        # a group named after a flag (once_per_battle, adjacent) sets it by matching at all
        out[name] = int(value) if param.kind is int else True if param.kind is bool else value
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


def _host_still(p: Phrasings, key: str, sentence: str, own: str) -> Modelled | None:
    """«Хозяин Болотного присоска не может двигаться»: this symbiote's host cannot move."""
    m = p.host_still.fullmatch(key)
    if m is None:
        return None
    whose = m.group("whose")
    if whose not in p.host_self and not (own and _base_name(whose, {lexicon.fold(own): own})):
        return None
    return Modelled(source=sentence, ability=_ability("host_cannot_move", {}, sentence))


def _wound(p: Phrasings, key: str, sentence: str) -> Modelled | None:
    """«Если должен получить раны от удара летающего существа, вместо этого получает на 1 рану
    меньше»: a numeric replacement of this card's wounds (534.5)."""
    m = p.wound_change.fullmatch(key)
    if m is None:
        return None
    kinds = [p.wound_kinds[k.strip()] for k in re.split(r", | и | или ", m.group("kinds"))]
    n = int(m.group("n"))
    params: dict[str, object] = {
        "delta": n if m.group("dir") in p.wound_more else -n,
        "target": "self",
        "damage_kinds": list(dict.fromkeys(kinds)),
        "name": "на " + key[m.start("n") :],
    }
    if m.group("flying"):
        params["source_flying"] = True
    return Modelled(source=sentence, ability=_ability("wound_modifier", params, sentence))


def _join_elements(p: Phrasings, rest: str, sentence: str, known: Collection[str]) -> Modelled | None:
    """«… с существами Тьмы (и Болот)»: the [текст] of 535.9 is the cards of some elements.
    `known`: the base's element names; an element the base does not call so stays text (the
    engine would never find it in a squad)."""
    whom, _, names = rest.partition(" ")
    if whom not in p.join_whom or not names:
        return None
    parts = [s.strip() for s in p.join_separators.split(names) if s.strip()]
    elements = [p.join_elements.get(part) for part in parts]
    if not parts or None in elements:
        return None
    if known:
        by_fold = {lexicon.fold(k): k for k in known}
        elements = [by_fold.get(lexicon.fold(e)) for e in elements if e]
        if None in elements:
            return None
    params = {
        "elements": list(dict.fromkeys(e for e in elements if e)),
        "creatures_only": p.join_whom[whom] == "creatures",
    }
    return Modelled(source=sentence, ability=_ability("cannot_join_with_element", params, sentence))


def _printed(sentence: str, folded: str) -> str:
    """A quoted name as the sentence prints it (the match is on the folded sentence)."""
    for q in re.findall(r"«([^»]+)»", sentence.translate(_QUOTES)):
        if lexicon.fold(str(q)) == lexicon.fold(folded):
            return str(q).strip()
    return folded.strip()


_WORD_PARTS = re.compile(r"[\s-]+")


def _base_name(part: str, names: Mapping[str, str]) -> str | None:
    """The base's card an unquoted name stands for: the same words folded, or the same words in
    another case («с Лесным спутником» — «Лесной спутник», word by word); None when no card, or
    more than one, answers."""
    exact = names.get(lexicon.fold(part))
    if exact is not None:
        return exact
    words = _WORD_PARTS.split(lexicon.fold(part))
    hits = {
        printed
        for folded, printed in names.items()
        if len(name := _WORD_PARTS.split(folded)) == len(words) and all(map(_same_word, words, name))
    }
    return hits.pop() if len(hits) == 1 else None


def _same_word(a: str, b: str) -> bool:
    """Two forms of one word: the same search stem, or one word opens with the other's stem (the
    stemmer cuts «шаман» to «шама» but «шаманом» to «шаман»), or the stems differ by a dropped vowel
    at the end; stems shorter than 3 letters never match a longer word."""
    sa, sb = rsearch.stems(a), rsearch.stems(b)
    if len(sa) != 1 or len(sb) != 1:
        return a == b
    if sa == sb:
        return True
    if (len(sb[0]) >= 3 and a.startswith(sb[0])) or (len(sa[0]) >= 3 and b.startswith(sa[0])):
        return True
    # a vowel that drops in declension: «присосок» — «присоска» (stems «присосок», «присоск»)
    shared = next(
        (i for i, (x, y) in enumerate(zip(sa[0], sb[0], strict=False)) if x != y), min(len(sa[0]), len(sb[0]))
    )
    return shared >= 4 and shared >= min(len(sa[0]), len(sb[0])) - 1


def _join(
    p: Phrasings, key: str, sentence: str, names: Mapping[str, str], elements: Collection[str]
) -> Modelled | None:
    m = p.join_opening.fullmatch(key)
    if m is None:
        return None
    rest = m.group("cards")
    by_element = _join_elements(p, rest, sentence, elements)
    if by_element is not None:
        return by_element
    quoted = re.findall(r"«([^»]+)»", rest)
    if quoted:
        leftover = re.sub(r"«[^»]+»", "", rest)
        if p.join_separators.sub("", leftover).strip():
            return None
        cards = [names.get(lexicon.fold(q), _printed(sentence, q)) for q in quoted]
    else:
        parts = [s.strip() for s in p.join_separators.split(rest) if s.strip()]
        found = [_base_name(part, names) for part in parts]
        if not parts or None in found:
            return None
        cards = [c for c in found if c]
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
            params["card"] = names.get(lexicon.fold(card), _printed(sentence, card))
        if kind == "summon" and m.group("search"):
            params["search"] = p.search[m.group("search")]
        if m.group("where"):
            params["where"] = p.where[m.group("where")]
        if m.group("places"):
            params["places_on"] = p.places_on[m.group("places")]
        if m.group("state") and p.state_words[m.group("state")] == "closed":
            params["closed"] = True
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


def recognise_sentence(
    sentence: str, names: Mapping[str, str] | None = None, own: str = "", elements: Collection[str] = ()
) -> Modelled | None:
    """What the engine models of one sentence, or None when no phrasing matches all of it.
    `names`: folded name → printed name of the base's cards (for «не может быть взята в отряд с
    Гоблином» without quotes, and to spell a named card as the base does); `own`: the name of the
    card the sentence is on (for «Хозяин Болотного присоска …»); `elements`: the base's element
    names (for «… с существами Тьмы»; empty: the community's names are taken as they are)."""
    p = phrasings()
    key = _key(sentence)
    names = names or {}
    try:
        return (
            _simple(p, key, sentence)
            or _protection(p, key, sentence)
            or _wound(p, key, sentence)
            or _host_still(p, key, sentence, own)
            or _join(p, key, sentence, names, elements)
            or _summon_like(p, key, sentence, names)
        )
    except LibraryError:
        return None  # a phrasing that gives parameters its declaration refuses: not modelled


_HEAD = re.compile(r"^(?P<head>[^:(—]+?)\s*(?::|—|\()\s*(?P<rest>.+)$")
REMINDER = "что сказано после «{head}», движок не моделирует: это предложение и в «не смоделировано»"


def _head(sentence: str, names: Mapping[str, str]) -> Modelled | None:
    """A keyword at the head of a sentence that goes on to explain it («Бестелесный: все
    немагические атаки …»): the keyword is modelled, the whole sentence stays text as well."""
    m = _HEAD.match(sentence)
    if m is None:
        return None
    got = recognise_sentence(m.group("head"), names)
    if got is None:
        return None
    return dataclasses.replace(got, source=sentence, caveat=REMINDER.format(head=m.group("head").strip()))


def icon_words(code: str, value: int, icon_names: Mapping[str, str]) -> str:
    """How an icon reads in a list: «значок «броня 2»»."""
    return f"значок «{icon_names.get(code, code)}{f' {value}' if value else ''}»"


def recognise(
    text: str,
    raw: str,
    icons: Sequence[tuple[str, int]],
    icon_names: Mapping[str, str],
    names: Mapping[str, str],
    own: str = "",
    elements: Collection[str] = (),
) -> tuple[tuple[Modelled, ...], tuple[str, ...]]:
    """The modelled abilities of a card (from its sentences, then its icons) and what of it the
    engine does not model: its other sentences, whole (an erratum or a bracketed note is one), and
    its icons no phrasing models («значок «броня 2»»). Nothing is dropped: a keyword that heads an
    explanation is modelled and its sentence listed too. A keyword icon whose placeholder the raw
    text spells is left to the text's sentence; an icon repeating what a sentence gave adds nothing.
    `own`: the card's name, for a sentence that names the card itself; `elements`: the base's
    element names."""
    found: list[Modelled] = []
    rest: list[str] = []
    p = phrasings()
    for sentence in sentences(text):
        if _key(sentence) in p.no_ability:  # «Без особенностей.»: nothing to model or to leave
            continue
        got = recognise_sentence(sentence, names, own, elements)
        if got is None:
            rest.append(sentence)
            head = _head(sentence, names)
            if head is not None:
                found.append(head)
        else:
            found.append(got)
    have_props = {m.prop for m in found if m.prop}
    have_prot = {
        c for m in found if m.ability and m.ability.kind == "protection" for c in m.ability.get("from")
    }
    spelled = icon_codes_in(raw, set(p.icons) | set(icon_names))
    for code, value in icons:
        if code in spelled:
            continue
        entry = p.icons.get(code)
        source = icon_words(code, value, icon_names)
        if entry is None:
            rest.append(source)
            continue
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
