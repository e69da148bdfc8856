"""Russian text analysis shared by indexing and queries: normalisation, tokens, stem keys.

Keys are Snowball stems, except that words of one family (our table) share a key: the
stemmer alone splits «инкарнация» and «инкарнирующий», «возрождение» and «возродить».
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

import Stemmer

from rules_index.tables import Tables

# Read-only: str.maketrans returns a dict, and module globals are shared by every judge.
_APOSTROPHES: Mapping[int, str] = MappingProxyType(
    str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'", "′": "'", "ё": "е", "Ё": "е"})
)
_APOSTROPHE_PAIRS = tuple((chr(code), plain) for code, plain in _APOSTROPHES.items())
# A dotted number («535.5.1.2», «09.11.2024») is one token: the «5» inside a clause id is not
# the word «5».
TOKEN_RE = re.compile(r"\d+(?:\.\d+)+|[0-9a-zа-я]+(?:'[0-9a-zа-я]+)*")
# Latin letters that look like Cyrillic ones: a phone switching layouts mid-word types «xост»,
# «cимбиот», «пaразита». Read only inside a word that has Cyrillic letters too.
_LOOKALIKES: Mapping[int, str] = MappingProxyType(
    str.maketrans(
        {
            "a": "а",
            "b": "в",
            "c": "с",
            "e": "е",
            "h": "н",
            "k": "к",
            "m": "м",
            "o": "о",
            "p": "р",
            "t": "т",
            "x": "х",
            "y": "у",
        }
    )
)
_LATIN = re.compile(r"[a-z]")
_VOWELS = frozenset("аеиоуыэюя")
_CYRILLIC = re.compile(r"[а-я]")


def fold_lookalikes(word: str) -> str:
    """A normalised word with Latin look-alike letters read as Cyrillic when the word mixes the
    two alphabets («xост» → «хост»); a word in one alphabet is left alone («qwerty», «хост»)."""
    if _LATIN.search(word) and _CYRILLIC.search(word):
        return word.translate(_LOOKALIKES)
    return word


def normalize(text: str) -> str:
    """Lower case, «ё» → «е», typographic apostrophes → «'»; same length as the input."""
    lowered = text.lower()
    if len(lowered) != len(text):  # rare letters whose lower case is longer («İ»)
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    # One str.replace per sign present: ten times faster than str.translate over a mapping on
    # Cyrillic text (each character a lookup), and the same result (one character for one).
    for sign, plain in _APOSTROPHE_PAIRS:
        if sign in lowered:
            lowered = lowered.replace(sign, plain)
    return lowered


class Token(NamedTuple):
    """One word of a text: its offsets, its normalised form, its search key. A tuple, not a
    dataclass: a full rules document has a million of them (half the memory, a third the time)."""

    start: int
    end: int
    surface: str
    key: str


class Analyzer:
    """Turns words into search keys; holds only immutable tables (safe to share)."""

    def __init__(self, tables: Tables) -> None:
        words = [normalize(w) for w in tables.stopwords]
        self.stopwords = frozenset(w for w in words if " " not in w)
        # Phrases that frame a question and say nothing of its topic («добрый день», «заранее
        # спасибо»): their words mean something alone («день»), so they go only typed together.
        self.stop_phrases = tuple(
            sorted({tuple(w.split()) for w in words if " " in w}, key=lambda p: (-len(p), p))
        )
        self.phrase_words = frozenset(w for p in self.stop_phrases for w in p)
        pairs = [(normalize(p), normalize(f.key)) for f in tables.families for p in f.prefixes]
        # A family's `unless` prefix maps to "": the word is no member and keeps its own stem.
        pairs += [(normalize(p), "") for f in tables.families for p in f.unless]
        # A family by its prefix, tried longest first: one dict look-up per prefix length (a
        # handful) instead of a `startswith` per prefix (64) for every word stemmed.
        families: dict[str, str] = {}
        for prefix, family in sorted(pairs, key=lambda pk: -len(pk[0])):
            families.setdefault(prefix, family)
        self._families: Mapping[str, str] = MappingProxyType(families)
        self._prefix_lengths = tuple(sorted({len(p) for p in families}, reverse=True))
        self.verb_prefixes = tables.derivation.prefixes
        self._alternations = tables.derivation.alternations
        self._imperfective = tables.derivation.imperfective

    def stemmer(self) -> Stemmer.Stemmer:
        """A fresh stemmer per build or query: Snowball stemmer objects are not thread-safe.

        Without PyStemmer's own word cache: a build stems each word once through its memo, a
        query is a few words, and past 10,000 distinct words (a 16× document has 29,000) the
        cache thrashed, purging by sorting itself and missing on the second pass over the
        vocabulary (TypoIndex): 0.045 s per pass at 16× instead of 0.012 s uncached."""
        return Stemmer.Stemmer("russian", maxCacheSize=0)

    def key(self, word: str, stemmer: Stemmer.Stemmer) -> str:
        """Search key of a normalised word: its family, or its Snowball stem."""
        families = self._families
        for n in self._prefix_lengths:
            if len(word) >= n:
                family = families.get(word[:n])
                if family:
                    return family
                if family == "":
                    break
        if word.isdigit() or len(word) <= 2:
            return word
        return str(stemmer.stemWord(word))

    def tokens(
        self, text: str, stemmer: Stemmer.Stemmer, memo: dict[str, tuple[str, str]] | None = None
    ) -> Iterator[Token]:
        """Word tokens of a text with offsets into it (the text need not be normalised).

        `memo` (word as typed → (word read, key)) is a cache owned by the caller (one build or one query),
        never shared; with it each word is stemmed once and every token of the word shares one
        string.
        """
        memo = {} if memo is None else memo
        for m in TOKEN_RE.finditer(normalize(text)):
            word = m.group()
            known = memo.get(word)
            if known is None:
                folded = fold_lookalikes(word)
                known = memo[word] = (folded, self.key(folded, stemmer))
            start, end = m.span()
            yield Token(start, end, *known)

    def framing(self, tokens: Sequence[Token]) -> frozenset[int]:
        """Places of the tokens that are part of a framing phrase typed in a row (stop_phrases)."""
        starts = phrase_starts([t.surface for t in tokens], self.stop_phrases)
        return frozenset(i for at, phrase in starts for i in range(at, at + len(phrase)))

    def keys(self, text: str, stemmer: Stemmer.Stemmer, content_only: bool = True) -> tuple[str, ...]:
        """Keys of a short text (a term, a card name, a slang form), stopwords dropped."""
        return tuple(
            t.key for t in self.tokens(text, stemmer) if not (content_only and t.surface in self.stopwords)
        )

    def aspect_variants(self, key: str) -> tuple[str, ...]:
        """The key of a verb's other aspect or its noun, by the imperfective suffixes of the
        derivation table: «просматрива» → «просмотр», «сработа» → «срабатыва». The root's
        last «а» before the suffix is «о» without it, and the other way round."""
        out: list[str] = []
        for suffix in self._imperfective:
            at = key.rfind(suffix)
            if at >= 3:  # drop the suffix: «просматр» → «просмотр»
                root = key[:at]
                vowel = root.rfind("а")
                if vowel > 0 and vowel >= len(root) - 3:
                    out.append(root[:vowel] + "о" + root[vowel + 1 :])
        vowel = key.rfind("о")
        if vowel >= 2 and not any(s in key for s in self._imperfective):
            end = vowel + 1
            while end < len(key) and key[end] not in _VOWELS:
                end += 1
            if end > vowel + 1:  # add it: «сработ(а)» → «срабатыва»
                out.extend(key[:vowel] + "а" + key[vowel + 1 : end] + suffix for suffix in self._imperfective)
        return tuple(dict.fromkeys(out))

    def root_variants(self, root: str) -> tuple[str, ...]:
        """The root itself, then the root with its last consonant (or «ст») alternated
        («двиг» → «движ»), by the derivation table."""
        out = [root]
        for tail in (root[-2:], root[-1:]):
            for other in self._alternations.get(tail, ()):
                out.append(root[: -len(tail)] + other)
        return tuple(dict.fromkeys(out))


def side_by_side(text: str, first: Token, then: Token, offset: int = 0) -> bool:
    """Whether two tokens of `text` (which starts at `offset` of the text they were read from)
    stand with nothing but spaces between them: not a comma, a bracket or a full stop
    («в 536. Эффекты» is a reference, «вызова (возрождения, инкарнации)» a list)."""
    return not text[first.end - offset : then.start - offset].strip()


def plural(n: int, one: str, few: str, many: str) -> str:
    """«1 пункт», «2 пункта», «5 пунктов», «11 пунктов», «21 пункт»: the Russian count form."""
    if n % 10 == 1 and n % 100 != 11:
        word = one
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        word = few
    else:
        word = many
    return f"{n} {word}"


def phrase_starts(
    words: Sequence[str], phrases: tuple[tuple[str, ...], ...]
) -> list[tuple[int, tuple[str, ...]]]:
    """Where each phrase of a table is typed whole among the words: (place, phrase), in the order
    typed (at one place in the table's order)."""
    starting = by_first_word(phrases)
    return [
        (i, phrase)
        for i, word in enumerate(words)
        for phrase in starting.get(word, ())
        if tuple(words[i : i + len(phrase)]) == phrase
    ]


@functools.lru_cache(maxsize=32)
def by_first_word(phrases: tuple[tuple[str, ...], ...]) -> Mapping[str, tuple[tuple[str, ...], ...]]:
    """The phrases of a table by their first word (the tables' data, the same for every judge)."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        out.setdefault(phrase[0], []).append(phrase)
    return MappingProxyType({w: tuple(ps) for w, ps in out.items()})
