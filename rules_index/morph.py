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

import pymorphy3

# How much a word the rules lack weighs, against the rarest word of the rules, by its part of
# speech: a noun names the topic («кристаллов», «броня»: nearly as much as the rarest word; more
# would also drown the players' own nouns the jargon table lacks); a verb, adjective or adverb
# mostly says what happens to it («вернули», «работает», «закрытой»); pronouns, numerals,
# prepositions, conjunctions, particles and interjections say nothing.
_POS_WEIGHT: Mapping[str, float] = MappingProxyType({
    "NOUN": 0.8,
    "ADJF": 0.28, "ADJS": 0.28, "COMP": 0.16, "VERB": 0.28, "INFN": 0.28, "PRTF": 0.28, "PRTS": 0.28,
    "GRND": 0.28, "ADVB": 0.16, "PRED": 0.08,
    "NUMR": 0.0, "NPRO": 0.0, "PREP": 0.0, "CONJ": 0.0, "PRCL": 0.0, "INTJ": 0.0,
})
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


@functools.cache
def _analyzer() -> Any:
    return pymorphy3.MorphAnalyzer()


def analyse(word: str) -> WordInfo:
    """The dictionary's view of a lower-case word («ё» already folded to «е»)."""
    parses = _analyzer().parse(word)
    best = parses[0] if parses else None
    if best is None or not any(p.is_known for p in parses):
        return WordInfo(False, word, _POS_WEIGHT["NOUN"], False, noun=True)
    tag = best.tag
    pos = str(tag.POS) if tag.POS is not None else ""
    # an ordinal («второй раз») counts, like a number
    weight = 0.0 if "Anum" in tag else _POS_WEIGHT.get(pos, _POS_WEIGHT["NOUN"])
    lemma = str(best.normal_form).replace("ё", "е") if best.is_known else word
    function = pos in _FUNCTION or "Apro" in tag
    return WordInfo(True, lemma, weight, pos in _MINOR, function, pos == "NOUN")


def warm() -> None:
    """Load the dictionary now (a server does it at start-up instead of on the first query)."""
    _analyzer()
