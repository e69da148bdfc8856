"""What two versions of one clause differ in: normalised content, citations, and a word-level diff.

Used by `rules_index.diff` (which pairs the entries of two versions) and by everything that shows
a change to a reader: the CLI's text output, the «Что изменилось» page, the journal's notices.

Normalisation ignores what a reader does not see as a change: runs of whitespace and line breaks,
and a version stamp glued to the end of a clause («… этого существа. РП 4.1-2 от 09.11.2024»).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from rules_index import ids
from rules_index.model import Paragraph
from rules_index.structure import split_version

# The parts of an entry a change can touch, in the order a reader meets them.
PARTS = ("text", "bullets", "examples")

# A clause number inside rule text: a dotted number, or a bare one of three or four digits
# («см. 537.»). Small bare numbers («1 раз», «Х») are words, not citations.
_CITED = re.compile(rf"(?<![\w.])({ids.CLAUSE_PATTERN})(?!\w|\.\d)")
# A word with its trailing blanks, or one punctuation mark with its trailing blanks.
_TOKEN = re.compile(r"(?:\w+(?:[-’'‐]\w+)*|[^\w\s])\s*|\s+")

OP_EQUAL = "equal"
OP_INSERT = "insert"
OP_DELETE = "delete"
# Marks that show an insertion or a deletion without colour (a phone in sunlight, a printout).
INSERT_MARKS = ("[+", "+]")
DELETE_MARKS = ("[−", "−]")


def squash(text: str) -> str:
    """Whitespace runs (line breaks included) as one space, ends trimmed, a glued stamp cut off."""
    return " ".join(split_version(" ".join(text.split()))[0].split())


@dataclass(frozen=True)
class Content:
    """What a reader compares in an entry: its text, bullets and examples, normalised."""

    text: str
    bullets: tuple[str, ...]
    examples: tuple[str, ...]

    @classmethod
    def of(cls, p: Paragraph) -> Content:
        return cls(squash(p.text), tuple(squash(b) for b in p.bullets), tuple(squash(e) for e in p.examples))

    def part(self, name: str) -> str:
        """One part as a single string (bullets one per line, examples one per line)."""
        if name == "text":
            return self.text
        items = self.bullets if name == "bullets" else self.examples
        return "\n".join(items)

    @property
    def key(self) -> str:
        """Equal for entries a reader sees as the same text."""
        return "\x1f".join([self.text, "\x1e".join(self.bullets), "\x1e".join(self.examples)])

    @property
    def checksum(self) -> str:
        """A short, stable fingerprint of the content (SHA-256, first 16 hex digits)."""
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:16]

    def remapped(self, mapping: Mapping[str, str]) -> Content:
        """The same content with clause numbers it cites replaced by `mapping` (old id → new id)."""
        if not mapping:
            return self

        def swap(text: str) -> str:
            return remap_citations(text, mapping)

        return Content(swap(self.text), tuple(map(swap, self.bullets)), tuple(map(swap, self.examples)))

    def similarity_text(self) -> str:
        """Lower case, «ё» as «е», clause numbers masked: what the pairing compares."""
        whole = " ".join([self.text, *self.bullets, *self.examples]).lower().replace("ё", "е")
        return _CITED.sub(lambda m: "§" if _is_citation(m.group(1)) else m.group(1), whole)

    def __len__(self) -> int:
        return len(self.key)


def checksum(p: Paragraph) -> str:
    """The fingerprint of an entry's content (see `Content.checksum`)."""
    return Content.of(p).checksum


def _is_citation(number: str) -> bool:
    return "." in number or len(number) >= 3


def cited_ids(text: str) -> list[str]:
    """Clause numbers a text cites, in order, without repeats."""
    found: dict[str, None] = {}
    for m in _CITED.finditer(text):
        if _is_citation(m.group(1)):
            found.setdefault(m.group(1), None)
    return list(found)


def remap_citations(text: str, mapping: Mapping[str, str]) -> str:
    """Replace every cited clause number found in `mapping`."""

    def swap(m: re.Match[str]) -> str:
        number = m.group(1)
        return mapping.get(number, number) if _is_citation(number) else number

    return _CITED.sub(swap, text)


# Word-level diff ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    """A run of words that is in both versions (`equal`), only in the new one (`insert`) or only
    in the old one (`delete`), within one part of the entry."""

    op: str
    text: str
    part: str = "text"

    def to_dict(self) -> dict[str, str]:
        return {"part": self.part, "op": self.op, "text": self.text}


def tokens(text: str) -> list[str]:
    """Words and punctuation marks, each with its trailing blanks (joined back, they give `text`)."""
    return _TOKEN.findall(text)


def word_diff(old: str, new: str, part: str = "text") -> list[Word]:
    """Insertions and deletions that turn `old` into `new`, word by word, with the equal runs
    between them (so that a reader sees the change in its place). The alignment is a longest
    common subsequence of words (rapidfuzz's Indel opcodes); in a replaced run the deleted words
    come before the inserted ones."""
    a, b = tokens(old), tokens(new)
    out: list[Word] = []

    def emit(op: str, pieces: Sequence[str]) -> None:
        text = "".join(pieces)
        if not text:
            return
        if out and out[-1].op == op:
            out[-1] = Word(op, out[-1].text + text, part)
        else:
            out.append(Word(op, text, part))

    deleted: list[str] = []
    inserted: list[str] = []
    for op in Indel.opcodes([t.strip() for t in a], [t.strip() for t in b]):
        if op.tag == "equal":
            emit(OP_DELETE, deleted)
            emit(OP_INSERT, inserted)
            deleted, inserted = [], []
            emit(OP_EQUAL, b[op.dest_start : op.dest_end])
        elif op.tag == "delete":
            deleted.extend(a[op.src_start : op.src_end])
        else:
            inserted.extend(b[op.dest_start : op.dest_end])
    emit(OP_DELETE, deleted)
    emit(OP_INSERT, inserted)
    return out


def part_diff(old: Content, new: Content, parts: Sequence[str]) -> list[Word]:
    """The word diff of each changed part, part after part."""
    out: list[Word] = []
    for name in parts:
        out.extend(word_diff(old.part(name), new.part(name), name))
    return out


def _trimmed(text: str, keep_head: int | None, keep_tail: int | None) -> str:
    """An unchanged run shortened to its first `keep_head` and last `keep_tail` words."""
    pieces = tokens(text)
    head = pieces[:keep_head] if keep_head is not None else []
    tail = pieces[len(pieces) - keep_tail :] if keep_tail else []
    if keep_head is None and keep_tail is None:
        return text
    if len(head) + len(tail) >= len(pieces):
        return text
    if not tail:
        return "".join(head).rstrip() + " …"
    return ("".join(head).rstrip() + " … " if head else "… ") + "".join(tail)


def compact(words: Sequence[Word], context: int = 6) -> list[Word]:
    """The diff with long unchanged runs cut to `context` words around each change."""
    out: list[Word] = []
    for k, w in enumerate(words):
        if w.op != OP_EQUAL:
            out.append(w)
            continue
        first = k == 0 or words[k - 1].part != w.part
        last = k == len(words) - 1 or words[k + 1].part != w.part
        if first and last:
            out.append(w)
            continue
        head = None if first else context
        tail = None if last else context
        if first:
            head = 0
        if last:
            tail = 0
        out.append(Word(OP_EQUAL, _trimmed(w.text, head, tail), w.part))
    return out


def marked(words: Sequence[Word], mark: Callable[[str, str], str] | None = None) -> str:
    """The diff as one text: insertions in [+…+], deletions in [−…−] (readable without colour).

    `mark(op, text)` may render a changed run otherwise (the page escapes it for Markdown).
    """

    def default(op: str, text: str) -> str:
        left, right = INSERT_MARKS if op == OP_INSERT else DELETE_MARKS
        core = text.rstrip()
        return f"{left}{core}{right}{text[len(core) :]}"

    render = mark or default
    pieces: list[str] = []
    part = None
    for w in words:
        if part is not None and w.part != part:
            pieces.append("\n")
        part = w.part
        pieces.append(w.text if w.op == OP_EQUAL else render(w.op, w.text))
    return "".join(pieces)


__all__ = [
    "DELETE_MARKS",
    "INSERT_MARKS",
    "OP_DELETE",
    "OP_EQUAL",
    "OP_INSERT",
    "PARTS",
    "Content",
    "Word",
    "checksum",
    "cited_ids",
    "compact",
    "marked",
    "part_diff",
    "remap_citations",
    "squash",
    "tokens",
    "word_diff",
]
