"""Linking a query word to the words the rules have: the word itself, a broader or opposite
word (jargon.yaml «keep»), a word cut short, a verb's noun, a derivation, a typo.

Split from the search: its query reading asks, for each typed word, which keys of the corpus may
stand for it and how much each is worth (`Alt`); this module answers. Built once per index,
read-only afterwards.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

import Stemmer

from rules_index import morph
from rules_index.search import postings, typos
from rules_index.text import Analyzer, Token

# How much each kind of match is worth relative to the word itself.
WEIGHT: Mapping[str, float] = MappingProxyType(
    {
        "form": 1.0,
        "prefix": 0.75,
        "derived": 0.7,
        "typo": 0.7,
        "jargon": 0.95,
        "broader": 0.9,
        "opposite": 0.8,
        "near": 0.85,
        "card": 2.0,
        "named": 0.9,
        "akin": 0.8,
    }
)
# A real word one edit from a rules word in at least this many (share of) paragraphs is a slip.
COMMON_MIN = 3
COMMON_SHARE = 0.1
# Dictionary words one keystroke away tried for an unknown word nothing else matched.
CORRECTIONS = 6
# A word like a jargon word by its form: the jargon word's stem it begins with has at least
# this many letters.
AKIN_ROOT = 4
# At most this many keys of the rules that are other forms of a query word's dictionary word.
LEXEME_KEYS = 3
# A derivation's key goes at most this many letters past the shared root («движен» for «двиг»;
# «конкретн» is no «кончилась»).
DERIVED_TAIL = 2
# A typo's weight by its number of edits.
TYPO_SHARE = (1.0, 1.0, 0.8, 0.65)


@dataclass(frozen=True)
class Alt:
    """One key of the corpus a query word may stand for, how, and what it is worth."""

    key: str
    how: str
    weight: float
    label: str = ""  # the rules' wording it stands for (jargon meaning, card name)
    within: tuple[str, ...] = ()  # it counts only in paragraphs with one of these keys


@dataclass(frozen=True)
class Fix:
    """What a misspelt word was meant to be: a stopword, a jargon row, or the rules' words."""

    stopword: bool = False
    row: postings.JargonRow | None = None
    alts: tuple[Alt, ...] = ()
    share: float = 1.0
    like: str = ""  # the jargon word it resembles by its form («вражины» → «враг»)
    # the dictionary's view of the word meant («перввый» → «первый»), the typed word still unknown
    info: morph.WordInfo | None = None


class Linker:
    """The corpus's keys as a query word sees them."""

    _postings: Mapping[str, Mapping[int, float]]
    _keys_sorted: tuple[str, ...]
    _broader: Mapping[str, postings.Broader]
    _analyzer: Analyzer
    _typo_index: typos.TypoIndex
    _jargon_lemmas: Mapping[str, postings.JargonRow]
    _akin: Mapping[str, tuple[postings.JargonRow, str]]
    _n_paragraphs: int
    _forms: Mapping[str, str]
    _little: frozenset[str]

    def __init__(
        self,
        postings_: Mapping[str, Mapping[int, float]],
        broader: Mapping[str, postings.Broader],
        analyzer: Analyzer,
        typo_index: typos.TypoIndex,
        jargon_lemmas: Mapping[str, postings.JargonRow],
        n_paragraphs: int,
        akin: Mapping[str, tuple[postings.JargonRow, str]] = MappingProxyType({}),
        forms: Mapping[str, str] = MappingProxyType({}),
        little: frozenset[str] = frozenset(),
    ) -> None:
        set_ = object.__setattr__
        set_(self, "_postings", postings_)
        set_(self, "_keys_sorted", tuple(sorted(k for k in postings_ if not k.startswith("card:"))))
        set_(self, "_broader", broader)
        set_(self, "_analyzer", analyzer)
        set_(self, "_typo_index", typo_index)
        set_(self, "_jargon_lemmas", jargon_lemmas)
        set_(self, "_akin", akin)
        set_(self, "_n_paragraphs", n_paragraphs)
        set_(self, "_forms", forms)  # every word form of the rules → its key
        # words that say nothing about the topic: stopwords and light verbs (asks.yaml)
        set_(self, "_little", analyzer.stopwords | little)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Linker неизменяем после построения")

    def alternatives(
        self, t: Token, stemmer: Stemmer.Stemmer, info: morph.WordInfo | None
    ) -> tuple[Alt, ...]:
        if t.key in self._postings:
            own = Alt(t.key, "form", WEIGHT["form"])
            if t.key in self._broader:
                wide = self._broader[t.key]
                return (
                    own,
                    *(
                        Alt(k, wide.relation, WEIGHT[wide.relation], wide.means, wide.within)
                        for k in wide.keys
                    ),
                )
            if info is not None and info.verb and info.known:
                # A verb the rules have may be there in its other aspect or as its noun too
                # («сменил»: 211.8.1's «сменит», 211.3.1's «сменяется»): related words.
                related = tuple(a for a in self._derived(t, stemmer) if a.key != t.key)
                if related:
                    return (own, *related)
            if info is not None and not info.known and len(t.surface) >= 6:
                # No such word: maybe a typo that landed in another word family
                # («перемешение» is «перемещение», not «перемешивается»).
                return (own, *self._typos(t, max_distance=1))
            return (own,)
        # A count, a pronoun, a preposition («два», «обоих», «ею») only ever matches itself.
        if t.key.isdigit() or info is None or info.topic_weight == 0:
            return ()
        alts: list[Alt] = []
        # A word cut short («инкарн», «перемещ»): keys it begins.
        if len(t.key) >= 4:
            alts = [Alt(k, "prefix", WEIGHT["prefix"]) for k in self._keys_from(t.key, 5)]
        if alts:
            return tuple(alts)
        # A verb or adjective whose stem extends a noun's («атаковать» → «атак»): shorten the key.
        # Not a noun: «местность» is no «место».
        for cut in range(len(t.key) - 1, 3, -1):
            if not info.noun and t.key[:cut] in self._postings:
                return (Alt(t.key[:cut], "prefix", WEIGHT["prefix"]),)
        derived = self._derived(t, stemmer)
        # A real word is not a typo of another («приходит» is not «приводит»).
        if derived:
            return derived
        if not info.known:
            return self._typos(t, stemmer=stemmer)
        # Another form of the same dictionary word whose stem the stemmer cut otherwise
        # («стоит» and the rules' «стоящими»).
        # Not a pronoun's («того» is no «ту»).
        lexeme = () if info.function else morph.lexeme(t.surface)
        # the keys in a fixed order (the lexeme is a set, whose order the hash seed sets): the
        # rules' commonest first, so that every process reads the word the same way
        same = sorted(
            {self._forms[f] for f in lexeme if f in self._forms}, key=lambda k: (-len(self._postings[k]), k)
        )
        if same:
            return tuple(Alt(k, "form", WEIGHT["form"]) for k in same[:LEXEME_KEYS])
        # A real word the rules lack may still be a slip for one of their commonest words
        # («кату», «крата» for «карту»): one edit, towards a word of many clauses.
        common = max(COMMON_MIN, self._n_paragraphs * COMMON_SHARE)
        return tuple(a for a in self._typos(t, max_distance=1) if len(self._postings[a.key]) >= common)

    def misspelt(self, surface: str, stemmer: Stemmer.Stemmer) -> Fix | None:
        """What an unknown word nothing else matched was meant to be: a mistyped little word
        («теперьь»), a mistyped jargon word («тиггер»), or a word the dictionary knows one
        keystroke away that the search then finds («ааковать» → «атаковать» → атаку)."""
        # One edit from a table word, then a jargon word it begins like, then one keystroke
        # from a dictionary word, then two edits from a table word (long words only).
        fix = self._table_fix(surface, 1) or self.akin(surface)
        if fix is not None:
            return fix
        return self._corrected(surface, stemmer) or self._table_fix(surface, 2)

    def slip(self, surface: str, stemmer: Stemmer.Stemmer) -> Fix | None:
        """What a word no dictionary knows was meant to be when one edit makes it a word and no
        word of the rules is that near: a little word or a light verb («отккуда», «рбаотает»:
        it says nothing), a jargon form, or a dictionary word one keystroke away that the search
        finds («меняестя» → «меняется»). Read so before a rules word two or three edits away
        («отккуда» is no «оттуда»); None when a rules word is one edit away (that is the word)
        or nothing is."""
        if self.near_rules_word(surface):
            return None
        return self._table_fix(surface, 1) or self._corrected(surface, stemmer)

    def near_rules_word(self, surface: str) -> list[str]:
        """The keys of the words the rules write one edit from `surface` (their little words
        aside); [] when none."""
        return self._typo_index.rules_word_near(surface, self._little)

    def _corrected(self, surface: str, stemmer: Stemmer.Stemmer) -> Fix | None:
        """A dictionary word one keystroke from `surface` that is a little word, a jargon word or
        a word the search finds, the likeliest first."""
        for candidate in morph.corrections(surface, CORRECTIONS):
            if candidate in self._little:
                return Fix(stopword=True)
            info = morph.analyse(candidate)
            meant = replace(info, known=False)  # the word typed is still no word
            row = self._jargon_lemmas.get(candidate) or self._jargon_lemmas.get(info.lemma)
            if row is not None:
                return Fix(row=row, share=WEIGHT["typo"] / WEIGHT["jargon"], info=meant)
            token = Token(0, len(candidate), candidate, self._analyzer.key(candidate, stemmer))
            found = self.alternatives(token, stemmer, info)
            if found:
                weight = WEIGHT["typo"]
                alts = tuple(Alt(a.key, "typo", weight * a.weight, a.label) for a in found)
                return Fix(alts=alts, info=meant)
        return None

    def akin(self, surface: str) -> Fix | None:
        """A jargon word this one resembles by its form: it begins with the whole stem of a
        one-word jargon word (AKIN_ROOT letters or more, half the word or more), the stem's
        last consonant perhaps alternated («вражины» → «враг», «оппонентка» → «оппонент»)."""
        n = len(surface)
        if n < AKIN_ROOT or not surface.isalpha():
            return None
        for cut in range(n, max(AKIN_ROOT, math.ceil(n / 2)) - 1, -1):
            for root in self._analyzer.root_variants(surface[:cut]):
                near = self._akin.get(root)
                if near is not None and near[1] != surface:
                    return Fix(row=near[0], share=WEIGHT["akin"] / WEIGHT["jargon"], like=near[1])
        return None

    def _table_fix(self, surface: str, max_distance: int) -> Fix | None:
        near = self._typo_index.table_word(surface, max_distance)
        if near is None:
            return None
        word, is_stop, dist = near
        if is_stop:
            return Fix(stopword=True)
        row = self._jargon_lemmas.get(word)
        if row is None:
            return None
        return Fix(row=row, share=TYPO_SHARE[min(dist, 3)] * WEIGHT["typo"] / WEIGHT["jargon"])

    def _derived(self, t: Token, stemmer: Stemmer.Stemmer) -> tuple[Alt, ...]:
        """Related words (derivation.yaml): a root whose last consonant alternates («двигать» →
        «движение»), a prefix the rules add («смотреть» → «посмотреть», «просмотр») or the
        query adds («вылечить» → «лечение»). Roots are cut to no less than three quarters."""
        for cut in range(len(t.key), max(4, math.ceil(len(t.key) * 0.75)) - 1, -1):
            for root in self._analyzer.root_variants(t.key[:cut]):
                found = [k for k in self._keys_from(root, 3) if len(k) - len(root) <= DERIVED_TAIL]
                if found:
                    return tuple(Alt(k, "derived", WEIGHT["derived"]) for k in found)
        # The other aspect or the noun («просматривают» → «просмотр», «сработало» →
        # «срабатывающая»).
        for root in self._analyzer.aspect_variants(t.key):
            found = [k for k in self._keys_from(root, 3) if len(k) - len(root) <= DERIVED_TAIL]
            if found:
                return tuple(Alt(k, "derived", WEIGHT["derived"]) for k in found)
        found_keys: dict[str, None] = {}
        for prefix in self._analyzer.verb_prefixes:
            # no key of the corpus begins so (a family's key keeps the prefix and the word's first
            # letter: «вызывать» → «вызов»): no stemming for it
            if not self._keys_from(prefix + t.surface[:1], 1) and not t.surface.startswith(prefix):
                continue
            longer = self._analyzer.key(prefix + t.surface, stemmer)
            for cut in range(len(longer), max(len(prefix) + 4, math.ceil(len(longer) * 0.75)) - 1, -1):
                found = self._keys_from(longer[:cut], 2)
                if found:
                    found_keys.update(dict.fromkeys(found))
                    break
            rest = t.surface[len(prefix) :]
            if t.surface.startswith(prefix) and len(rest) >= 4:
                shorter = self._analyzer.key(rest, stemmer)
                if shorter in self._postings:
                    found_keys[shorter] = None
        return tuple(Alt(k, "derived", WEIGHT["derived"]) for k in list(found_keys)[:4])

    def _keys_from(self, prefix: str, limit: int) -> list[str]:
        """Up to `limit` keys of the corpus that begin with `prefix`."""
        out: list[str] = []
        i = bisect_left(self._keys_sorted, prefix)
        while i < len(self._keys_sorted) and self._keys_sorted[i].startswith(prefix) and len(out) < limit:
            out.append(self._keys_sorted[i])
            i += 1
        return out

    def _typos(
        self, t: Token, max_distance: int = 3, stemmer: Stemmer.Stemmer | None = None
    ) -> tuple[Alt, ...]:
        """The rules' words a misspelt word may be (rules_index.typos), weighted by edits."""
        return tuple(
            Alt(key, "typo", WEIGHT["typo"] * TYPO_SHARE[min(dist, 3)])
            for key, dist in self._typo_index.rules_words(t.surface, max_distance, stemmer)
            if key != t.key
        )
