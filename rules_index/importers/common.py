"""What every importer returns, and the word-joining rules the PDF and Word importers share."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rules_index.blocks import Block


@dataclass(frozen=True)
class Imported:
    """One file turned into the block stream (`rules_index.blocks`) the structure pass reads.

    `encoding` says how it was read («utf-8», «PDF, страниц: 12», «HTML (utf-8)», «Word (.docx)»);
    `notes` are facts a judge may want (headers dropped, numbering restored); `version` is a
    version stamp found outside the parsed lines (e.g. in a running header of a PDF).
    """

    name: str
    blocks: list[Block]
    encoding: str
    kind: str
    notes: tuple[str, ...] = ()
    version: str | None = None


_WORD = re.compile(r"[^\W\d_]+(?:[-‐][^\W\d_]+)*")
# A hyphenated word whose hyphen is the spelling, not a line break: «по-прежнему», «какой-либо»,
# «кое-что», «из-за». Checked only when the document itself does not settle it.
_PARTICLES = frozenset({"то", "либо", "нибудь", "таки", "ка", "де"})
_PREFIXES = frozenset({"кое", "кой", "из", "во", "вице", "экс", "пол"})
_PO_ADVERB = re.compile(r"(?:ому|ему|ски|цки|ьи)$")


def word_set(texts: Iterable[str]) -> frozenset[str]:
    """Every word of the texts, lower-cased, hyphenated words whole («по-прежнему»)."""
    out: set[str] = set()
    for text in texts:
        out.update(w.casefold() for w in _WORD.findall(text))
    return frozenset(out)


def join_hyphenated(left: str, right: str, words: frozenset[str]) -> str:
    """Join two printed lines where `left` ends with a hyphen.

    Before an upper-case letter or a digit the hyphen is kept («хозяина-/Вайла»). Before a
    lower-case one the document decides: if it spells the word with the hyphen elsewhere, or
    only the halves' join is unknown while the hyphenated form is a known Russian pattern
    («по-прежнему», «какой-либо»), the hyphen stays; otherwise it was a line-break hyphen and
    goes («симби-/ота» → «симбиота»).
    """
    stem = left[:-1]
    if not right or not right[0].islower():
        return stem + "-" + right
    head = _last_word(stem)
    tail = _first_word(right)
    joined = (head + tail).casefold()
    hyphenated = (head + "-" + tail).casefold()
    if hyphenated in words:
        return stem + "-" + right
    if joined in words:
        return stem + right
    if _real_hyphen(head.casefold(), tail.casefold()):
        return stem + "-" + right
    return stem + right


def _real_hyphen(head: str, tail: str) -> bool:
    if tail in _PARTICLES or head in _PREFIXES:
        return True
    return head == "по" and bool(_PO_ADVERB.search(tail))


def _last_word(text: str) -> str:
    found = re.search(r"[^\W\d_]+$", text)
    return found.group(0) if found else ""


def _first_word(text: str) -> str:
    found = re.match(r"[^\W\d_]+", text)
    return found.group(0) if found else ""
