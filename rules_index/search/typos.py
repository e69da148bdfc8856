"""Typos in query words, the way people type on a phone: a letter missing, doubled, swapped
with its neighbour, or a neighbouring key pressed.

Three places a misspelt word may belong to:
- a word the rules write (`rules_words`: by the word, then by its stem for forms the rules do
  not use, «замишение» → «замещения»);
- a word of the jargon table, a stopword or a light verb (`table_word`: «тиггер» is
  «триггер», «теперьь» is «теперь» and says nothing);
- any word the dictionary knows one keystroke away (`morph.corrections`, «ааковать» →
  «атаковать»), which then goes through the search like a typed word.
The nearest reading wins: a word no dictionary knows is a rules word one edit away
(`rules_word_near`), else a table word or a dictionary word one edit away, and only then a
rules word two or three edits away («отккуда» is «откуда», not the rules' «оттуда»).
Built once per index from its vocabulary; read-only afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

import Stemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA


def edit_limit(size: int) -> int:
    """Edits allowed in a word of `size` letters: none up to 3, one up to 5, two up to 10, three."""
    return 0 if size <= 3 else 1 if size <= 5 else 2 if size <= 10 else 3


class TypoIndex:
    """The words a misspelt query word is compared with."""

    _vocab: Mapping[str, str]
    _vocab_words: tuple[str, ...]
    _stems: Mapping[str, str]
    _stem_words: tuple[str, ...]
    _table: Mapping[str, bool]
    _table_words: tuple[str, ...]

    def __init__(
        self,
        vocab: Mapping[str, str],
        stemmer: Stemmer.Stemmer,
        jargon_forms: Iterable[str],
        stopwords: Iterable[str],
    ) -> None:
        stems: dict[str, str] = {}
        for surface, key in vocab.items():
            stems.setdefault(str(stemmer.stemWord(surface)), key)
        # word → whether it is a stopword or a light verb (True) or a jargon form (False); short
        # stopwords («на», «все») are too close to everything to be typed wrong on purpose, and
        # English jargon («host», «deck», «cell») to English words («cost», «neck», «well»).
        table: dict[str, bool] = {w: False for w in jargon_forms if len(w) >= 4 and not w.isascii()}
        table.update({w: True for w in stopwords if len(w) >= 4 and w.isalpha()})
        set_ = object.__setattr__
        set_(self, "_vocab", MappingProxyType(dict(vocab)))
        set_(self, "_vocab_words", tuple(vocab))
        set_(self, "_stems", MappingProxyType(stems))
        set_(self, "_stem_words", tuple(stems))
        set_(self, "_table", MappingProxyType(table))
        set_(self, "_table_words", tuple(table))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TypoIndex неизменяем после построения")

    def rules_words(
        self, surface: str, max_distance: int = 3, stemmer: Stemmer.Stemmer | None = None
    ) -> list[tuple[str, int]]:
        """(key, edits) of the rules' words a misspelt word may be, closest first, at most five
        keys: a letter off in short words, two in longer ones, three in long ones; a swap of two
        neighbouring letters is one edit («симбоит» → «симбиот»)."""
        size = len(surface)
        limit = min(max_distance, edit_limit(size))
        if not limit:
            return []
        close = process.extract(surface, self._vocab_words, scorer=OSA.distance, score_cutoff=limit, limit=10)
        # In a short word two edits may be two wrong letters («хазяен» → хозяин), not two
        # letters more or less («пример» is not «например»).
        close = [c for c in close if c[1] <= 1 or size > 7 or abs(len(c[0]) - size) <= 1]
        vocab = self._vocab
        if not close and stemmer is not None and size >= 7:
            # A typo in a form the rules do not use («замишение»; the rules have «замещения»):
            # compare stems, endings aside.
            stem = str(stemmer.stemWord(surface))
            close = [
                c
                for c in process.extract(
                    stem, self._stem_words, scorer=OSA.distance, score_cutoff=min(limit, 2), limit=5
                )
                if abs(len(c[0]) - len(stem)) <= 1 and c[0][:1] == stem[:1]
            ]
            vocab = self._stems
        out: list[tuple[str, int]] = []
        for word, dist, _ in sorted(close, key=lambda c: (c[1], c[0])):
            key = vocab[word]
            if all(key != k for k, _ in out):
                out.append((key, int(dist)))
        return out[:5]

    def rules_word_near(self, surface: str, skip: frozenset[str] = frozenset()) -> list[str]:
        """The keys of the words the rules write one edit from `surface`, at most five (a word of
        `skip` aside: the rules' «правила» is a little word in a question)."""
        if not edit_limit(len(surface)):
            return []
        close = process.extract(surface, self._vocab_words, scorer=OSA.distance, score_cutoff=1, limit=10)
        return list(dict.fromkeys(self._vocab[word] for word, _, _ in close if word not in skip))[:5]

    def table_word(self, surface: str, max_distance: int = 2) -> tuple[str, bool, int] | None:
        """The jargon form or stopword a misspelt word is (word, is_stopword, edits), or None.
        One edit in words up to eight letters, two beyond; the nearest wins, a jargon form
        before a stopword."""
        limit = min(max_distance, edit_limit(len(surface)), 1 if len(surface) <= 8 else 2)
        if not limit:
            return None
        close = process.extract(surface, self._table_words, scorer=OSA.distance, score_cutoff=limit, limit=5)
        close = [c for c in close if abs(len(c[0]) - len(surface)) <= 1]
        if not close:
            return None
        word, dist, _ = min(close, key=lambda c: (c[1], self._table[c[0]], c[0]))
        return word, self._table[word], int(dist)
