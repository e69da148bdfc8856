"""Russian morphology for query words the rules lack: their part of speech.

pymorphy3 with the OpenCorpora dictionary (code MIT, dictionary CC BY-SA): one analyser per
process, built on first use (about 0.2 s, 10 MB) and only read afterwards, so every judge's
session shares it safely. Used only for words the Snowball keys of the rules do not match,
so the common path of a query never pays for it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pymorphy3

# How much an unknown word of each part of speech says about what the question is about:
# a noun names the topic («кристаллов», «броня»); a verb, adjective or adverb mostly says what
# happens to it («вернули», «работает», «закрытой»); pronouns, numerals, prepositions,
# conjunctions, particles and interjections say nothing.
_POS_WEIGHT: Mapping[str, float] = MappingProxyType({
    "NOUN": 1.0,
    "ADJF": 0.35, "ADJS": 0.35, "COMP": 0.2, "VERB": 0.35, "INFN": 0.35, "PRTF": 0.35, "PRTS": 0.35,
    "GRND": 0.35, "ADVB": 0.2, "PRED": 0.1,
    "NUMR": 0.0, "NPRO": 0.0, "PREP": 0.0, "CONJ": 0.0, "PRCL": 0.0, "INTJ": 0.0,
})


@functools.cache
def _analyzer() -> Any:
    return pymorphy3.MorphAnalyzer()


def topic_weight(word: str) -> float:
    """0..1: how much a word the rules lack tells what the question is about (by its likeliest
    part of speech; a word the dictionary does not know at all counts as a noun)."""
    parses = _analyzer().parse(word)
    if not parses or not any(p.is_known for p in parses):
        return 1.0
    tag = parses[0].tag
    if "Anum" in tag:  # an ordinal («второй раз») counts, like a number
        return 0.0
    return _POS_WEIGHT.get(str(tag.POS), 1.0) if tag.POS is not None else 1.0


def is_word(word: str) -> bool:
    """Whether the dictionary knows the word as it is (then it is no typo of another)."""
    return any(p.is_known for p in _analyzer().parse(word))


def warm() -> None:
    """Load the dictionary now (a server does it at start-up instead of on the first query)."""
    _analyzer()
