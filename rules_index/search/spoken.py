"""Clause numbers said aloud: a phone's voice input types «двести одиннадцать три» for 211.3.

The number words are asks.yaml's `numerals` (read by their dictionary forms, so «пятьсот тридцать
шестом» is 536 too). A number starts at a word of a hundred or more, a section's number; the
words after it are its subclauses, one number each (units, teens, or tens with their units), a
word of `joins` («точка») between them or not, and only spaces between the words. A section with
no tens and no subclause is a hundred of something («сто два симбиота»). Nothing else is read:
«два симбиота» stays words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from rules_index import morph
from rules_index.text import normalize

_WORD = re.compile(r"[а-яА-ЯёЁ]+")
_SECTION = 100  # a number word this large starts a clause number


def read_said(numerals: Mapping[str, int], joins: frozenset[str], text: str) -> tuple[str, dict[str, str]]:
    """The text with each clause number said in words replaced by its digits («211.3»), and each
    number so put in → the words it was said in."""
    words = list(_WORD.finditer(text))
    said = [normalize(m.group()) for m in words]
    if not any(numerals.get(w, 0) >= _SECTION for w in said):
        return text, {}  # no hundred said: nothing to read (and no word looked up)
    values = [_value(numerals, w) for w in said]
    # one number's words stand apart only by spaces: «двести 11 три», «двести одиннадцать, два
    # симбиота», «двести одиннадцать. Три …» are not one number
    spaced = [False] + [not text[a.end() : b.start()].strip() for a, b in itertools.pairwise(words)]
    out, last, i = [], 0, 0
    spoken: dict[str, str] = {}
    while i < len(words):
        if (values[i] or 0) < _SECTION:
            i += 1
            continue
        section, j = _number(values, spaced, i, 1000) or (0, i + 1)
        parts = [str(section)]
        while j < len(words):
            k = j + 1 if said[j] in joins and j + 1 < len(words) and spaced[j + 1] else j
            part = _number(values, spaced, k, _SECTION) if spaced[j] and values[k] else None
            if part is None or part[0] == 0:
                break
            parts.append(str(part[0]))
            j = part[1]
        if len(parts) == 1 and section % 100 < 10:
            i += 1  # «сто», «сто два симбиота»: a hundred of something, no section
            continue
        out.append(text[last : words[i].start()] + ".".join(parts))
        spoken[".".join(parts)] = text[words[i].start() : words[j - 1].end()]
        last = words[j - 1].end()
        i = j
    return "".join(out) + text[last:], spoken


def _value(numerals: Mapping[str, int], word: str) -> int | None:
    value = numerals.get(word)
    if value is None and len(word) > 2:
        value = numerals.get(morph.analyse(word).lemma)
    return value


def _number(values: list[int | None], spaced: list[bool], i: int, below: int) -> tuple[int, int] | None:
    """The number said from word i on (a hundred, then tens, then units, each smaller than the
    one before, all below `below`, apart only by spaces) and the place after its last word; None
    when word i is none."""
    total, j, step = 0, i, below
    while j < len(values):
        v = values[j]
        if v is None or v >= step or (total and v == 0) or (j > i and not spaced[j]):
            break
        total += v
        # a hundred takes tens or units after it; tens (20–90) take units; teens and units end it
        step = 100 if v >= 100 else 10 if v >= 20 else 0
        j += 1
        if step == 0:
            break
    return (total, j) if j > i else None
