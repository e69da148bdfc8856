"""Russian morphology for query words: part of speech, dictionary form, whether a word is real.

pymorphy3 with the OpenCorpora dictionary (code MIT, dictionary CC BY-SA): one analyser per
process, built on first use (about 0.2 s, 10 MB) and only read afterwards, so every judge's
session shares it safely. One `analyse` call per word; callers that ask about a word twice keep
the answer in a dict of their own (one query's or one build's), never in a module global.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

# How much a word the rules lack weighs, against the rarest word of the rules, by its part of
# speech: a noun names the topic («кристаллов», «броня»: nearly as much as the rarest word; more
# would also drown the players' own nouns the jargon table lacks); a verb, adjective or adverb
# mostly says what happens to it («вернули», «работает», «закрытой»); pronouns, numerals,
# prepositions, conjunctions, particles and interjections say nothing.
_POS_WEIGHT: Mapping[str, float] = MappingProxyType(
    {
        "NOUN": 0.8,
        "ADJF": 0.28,
        "ADJS": 0.28,
        "COMP": 0.16,
        "VERB": 0.2,
        "INFN": 0.2,
        "PRTF": 0.28,
        "PRTS": 0.28,
        "GRND": 0.28,
        "ADVB": 0.16,
        "PRED": 0.08,
        "NUMR": 0.0,
        "NPRO": 0.0,
        "PREP": 0.0,
        "CONJ": 0.0,
        "PRCL": 0.0,
        "INTJ": 0.0,
    }
)
# Parts of speech that rarely decide what a question is about, even when the rules have the word.
_FUNCTION = frozenset({"NUMR", "NPRO", "PREP", "CONJ", "PRCL", "INTJ"})
_MINOR = frozenset({"ADJF", "ADJS", "COMP", "ADVB", "PRED", "NUMR", "NPRO", "PREP", "CONJ", "PRCL", "INTJ"})


@dataclass(frozen=True)
class WordInfo:
    """What the dictionary says about one word (its likeliest reading)."""

    known: bool  # the dictionary knows the word as it is («приходит» yes, «хазяен» no)
    lemma: str  # dictionary form («сдвинули» → «сдвинуть»); the word itself when unknown
    topic_weight: float  # how much the word, if the rules lack it, says what the question is about
    minor: bool  # adverb, adjective, numeral, pronoun…: rarely what the question is about
    function: bool = False  # «один», «другой», «тот», «сам», «каждый», «оба»: a pointer, not a topic
    noun: bool = False
    verb: bool = False  # a finite verb or an infinitive («блокировать», «длится»)
    doer: bool = False  # a verb or an active participle («контролирующий»): it says who does it
    genitive: bool = False  # a noun that may be a genitive («жетоны инкарнации»): it says which one
    verbal: bool = False  # a verb, an infinitive, a participle or a gerund («замещена»): a doing
    preposition: bool = False  # «в», «на», «до»: the noun after it is no subject
    ordinal: bool = False  # «первый», «вторым»: which one in order
    person: bool = False  # a first name, surname or patronymic («саня», «дима»): who is in the story


# How many words' analyses a process keeps (a WordInfo is a few hundred bytes).
ANALYSED_WORDS = 50_000


@functools.cache
def _analyzer() -> Any:
    # Imported here: building an index does not analyse words, and pymorphy3's import was 8-17 ms
    # of a new server's first window (issue 24), which shows an empty search page.
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@functools.lru_cache(maxsize=ANALYSED_WORDS)
def analyse(word: str) -> WordInfo:
    """The dictionary's view of a lower-case word («ё» already folded to «е»). Kept for the
    process (the same for every judge): the words of questions repeat, and a look-up was two fifths
    of a query's time."""
    analyzer = _analyzer()
    # One look-up says whether the dictionary has the word (what every parse's `is_known` asks
    # again, a look-up each); a word it lacks needs no parse (guessing one is the costly part).
    if not analyzer.word_is_known(word):
        return WordInfo(False, word, _POS_WEIGHT["NOUN"], False, noun=True)
    parses = analyzer.parse(word)
    best = parses[0]
    tag = best.tag
    pos = str(tag.POS) if tag.POS is not None else ""
    # an ordinal («второй раз») counts, like a number
    weight = 0.0 if "Anum" in tag else _POS_WEIGHT.get(pos, _POS_WEIGHT["NOUN"])
    lemma = str(best.normal_form).replace("ё", "е") if best.is_known else word
    function = pos in _FUNCTION or "Apro" in tag
    return WordInfo(
        True,
        lemma,
        weight,
        pos in _MINOR,
        function,
        pos == "NOUN",
        pos in ("VERB", "INFN"),
        pos in ("VERB", "INFN") or (pos in ("PRTF", "PRTS") and "actv" in tag),
        pos == "NOUN" and any(p.tag.POS == "NOUN" and "gent" in p.tag for p in parses),
        pos in ("VERB", "INFN", "PRTF", "PRTS", "GRND"),
        pos == "PREP",
        "Anum" in tag,
        _person(parses),
    )


_PERSON = frozenset({"Name", "Surn", "Patr"})
# A word is a person's name when its readings as one outweigh the others this much: «дима» (.86),
# «саня», «серёга»; not «лев» (.52: a lion), «роза», «лука», «ник».
PERSON_SHARE = 0.8


def _person(parses: Any) -> bool:
    return bool(sum(p.score for p in parses if _PERSON & p.tag.grammemes) >= PERSON_SHARE)


@functools.lru_cache(maxsize=4096)
def agree(qualifier: str, noun: str) -> bool:
    """Whether a lower-case adjective or participle may qualify a noun: some reading of each
    shares the case and number («бестелесный симбиот», «бестелесного симбиота»), not «стал
    бестелесным | паразит». A word the dictionary lacks (slang, a slip) may agree with anything."""
    analyzer = _analyzer()
    if not analyzer.word_is_known(qualifier) or not analyzer.word_is_known(noun):
        return True
    forms = {(p.tag.case, p.tag.number) for p in analyzer.parse(qualifier) if p.tag.POS in ("ADJF", "PRTF")}
    return any((p.tag.case, p.tag.number) in forms for p in analyzer.parse(noun) if p.tag.POS == "NOUN")


@functools.lru_cache(maxsize=4096)
def qualifier(word: str) -> bool:
    """Whether some dictionary reading of a lower-case word is an adjective or a participle."""
    analyzer = _analyzer()
    return bool(analyzer.word_is_known(word)) and any(
        p.tag.POS in ("ADJF", "PRTF") for p in analyzer.parse(word)
    )


def lexeme(word: str) -> frozenset[str]:
    """Every form of every dictionary word this lower-case word may be a form of («стоит»: of
    «стоить» and of «стоять», so «стоящими» too); empty for a word the dictionary lacks.

    Read straight from the dictionary's paradigms: the word's entries (paradigm, form) give each
    paradigm's stem, and the paradigm's prefixes and endings around it are the forms (what a
    parse's `lexeme` builds, without parsing the word, weighing its readings or building a parse
    per form: a third of the time)."""
    analyzer = _analyzer()
    dictionary = analyzer.dictionary
    entries = getattr(dictionary.words, "similar_items", None)
    if entries is None or not hasattr(dictionary, "build_stem"):  # another build: the parses
        return _lexeme_slow(word)
    prefixes, suffixes = dictionary.paradigm_prefixes, dictionary.suffixes
    forms: set[str] = set()
    seen: set[tuple[int, str]] = set()
    for fixed, found in entries(word, analyzer.char_substitutes):
        for para_id, idx in found:
            paradigm = dictionary.paradigms[para_id]
            stem = dictionary.build_stem(paradigm, idx, fixed)
            if (para_id, stem) in seen:
                continue  # another form of a lexeme already read («карты»: three cases)
            seen.add((para_id, stem))
            n = len(paradigm) // 3
            forms.update(
                (prefixes[paradigm[2 * n + i]] + stem + suffixes[paradigm[i]]).replace("ё", "е")
                for i in range(n)
            )
    forms.discard(word)
    return frozenset(forms)


def _lexeme_slow(word: str) -> frozenset[str]:
    forms: set[str] = set()
    for parse in _analyzer().parse(word):
        if parse.is_known:
            forms.update(str(f.word).replace("ё", "е") for f in parse.lexeme)
    forms.discard(word)
    return frozenset(forms)


def known(word: str) -> bool:
    """Whether the dictionary has this exact lower-case word form (a look-up, no guessing: much
    cheaper than `analyse` for a word it lacks)."""
    return bool(_analyzer().word_is_known(word))


def warm() -> None:
    """Load the dictionary now (a server does it at start-up instead of on the first query)."""
    _analyzer()


# The Russian phone and PC keyboard (ЙЦУКЕН), row by row: a typo often presses a neighbour.
_ROWS = ("йцукенгшщзхъ", "фывапролджэ", "ячсмитьбю")
_NEIGHBOURS: Mapping[str, str] = MappingProxyType(
    {
        c: (row[i - 1] if i else "") + (row[i + 1] if i + 1 < len(row) else "")
        for row in _ROWS
        for i, c in enumerate(row)
    }
)
_LETTERS = "абвгдежзийклмнопрстуфхцчшщъыьэюя"


def corrections(word: str, limit: int = 3) -> list[str]:
    """Words the dictionary knows one keystroke away from an unknown word of five letters or
    more, likeliest typo first: a doubled letter, two letters swapped, a letter too many, a
    neighbouring key, a letter missing («ааковать» → «атаковать», «теперьь» → «теперь»).

    Walks the dictionary's word graph: an edit at a place the typed beginning already left the
    dictionary cannot help, so only the places up to there are tried (a fraction of a
    millisecond instead of a dictionary look-up per candidate)."""
    if len(word) < 5 or not word.isalpha():
        return []
    words = _analyzer().dictionary.words
    dct = getattr(words, "dct", None)
    separator = getattr(words, "_payload_separator", None)
    if dct is None or separator is None:  # another dawg build: plain look-ups
        return _corrections_slow(word, limit)

    def ends(rest: str, index: int | None) -> bool:
        if index is None:
            return False
        index = dct.follow_bytes(rest.encode("utf-8"), index)
        return bool(index) and bool(dct.follow_bytes(separator, index))

    prefixes: list[int] = [dct.ROOT]
    for ch in word:
        nxt = dct.follow_bytes(ch.encode("utf-8"), prefixes[-1])
        if nxt is None:
            break
        prefixes.append(nxt)
    n = len(word)
    # Edit places 0..len(prefixes)-1 (an edit at place i keeps word[:i], which must lead on).
    places = range(len(prefixes))
    found: list[tuple[int, int, str]] = []  # (kind rank, place, word)

    def add(rank: int, i: int, candidate: str, rest: str) -> None:
        if ends(rest, prefixes[i]):
            found.append((rank, i, candidate))

    for i in places:
        head = word[:i]
        if i + 1 < n + 1 and i >= 1 and i < n and word[i] == word[i - 1]:
            add(0, i, head + word[i + 1 :], word[i + 1 :])
        if i + 1 < n:
            add(1, i, head + word[i + 1] + word[i] + word[i + 2 :], word[i + 1] + word[i] + word[i + 2 :])
        if i < n:
            add(2, i, head + word[i + 1 :], word[i + 1 :])
            for c in _NEIGHBOURS.get(word[i], ""):
                add(3, i, head + c + word[i + 1 :], c + word[i + 1 :])
        if i >= 1:
            for c in _LETTERS:
                add(4, i, head + c + word[i:], c + word[i:])
    out = list(dict.fromkeys(w for _, _, w in sorted(found) if w != word))
    return out[:limit]


def _corrections_slow(word: str, limit: int) -> list[str]:
    n = len(word)
    doubled = [word[:i] + word[i + 1 :] for i in range(1, n) if word[i] == word[i - 1]]
    swapped = [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(n - 1)]
    dropped = [word[:i] + word[i + 1 :] for i in range(n)]
    neighbour = [word[:i] + c + word[i + 1 :] for i in range(n) for c in _NEIGHBOURS.get(word[i], "")]
    missing = [word[:i] + c + word[i:] for i in range(1, n + 1) for c in _LETTERS]
    known = _analyzer().word_is_known
    out: list[str] = []
    for candidate in dict.fromkeys([*doubled, *swapped, *dropped, *neighbour, *missing]):
        if candidate != word and known(candidate):
            out.append(candidate)
            if len(out) >= limit:
                break
    return out
