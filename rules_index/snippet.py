"""The snippet of a search hit: the sentence that best shows why a paragraph matched, marked.

Split from the search: its ranking decides which paragraphs; this module only cuts and marks text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules_index.text import Token

SNIPPET_CHARS = 240
SNIPPET_MIN = 90
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)|\n")
# What a period after does not end a sentence: an abbreviation, or a cited clause number
# («см. 537. История боя.» is one sentence).
_ABBREVIATION_END = re.compile(
    r"(?:(?<![\w.])(?:см|п|пп|т\.\s?е|т\.\s?д|т\.\s?п|ср|др|напр)|\d)\.$", re.IGNORECASE
)

Spans = tuple[tuple[str, bool], ...]


# A sentence of a piece: (start, end) in its text and its tokens' [first, last + 1) in the piece.
Bounds = tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Piece:
    """One field of a paragraph: its rule text (`kind` «text») or one of its examples, and its
    sentences (`bounds`; `make_piece` builds them once, every hit's snippet reads them)."""

    doc: int
    kind: str
    text: str
    tokens: tuple[Token, ...]
    bounds: Bounds = ()


def make_piece(doc: int, kind: str, text: str, tokens: tuple[Token, ...]) -> Piece:
    """A piece with its sentences' bounds."""
    return Piece(doc, kind, text, tokens, sentence_bounds(text, tokens))


def sentence_bounds(text: str, tokens: Sequence[Token]) -> Bounds:
    """Each sentence's (start, end) and its tokens' index range: a token never crosses a
    sentence's end (a sentence ends at a space or a line break), so a sentence's tokens are
    one run of the piece's."""
    out: list[tuple[int, int, int, int]] = []
    i = 0
    n = len(tokens)
    for start, end in sentences(text):
        while i < n and tokens[i].start < start:
            i += 1
        j = i
        while j < n and tokens[j].end <= end:
            j += 1
        out.append((start, end, i, j))
        i = j
    return tuple(out)


def _bounds(piece: Piece) -> Bounds:
    return piece.bounds or sentence_bounds(piece.text, piece.tokens)


def snippet(
    pieces: Sequence[Piece],
    marked: set[str],
    card_seqs: Sequence[tuple[str, ...]] = (),
    cited: Sequence[str] = (),
) -> tuple[str, Spans]:
    """The sentence of a paragraph that best shows why it matched, with matched keys, whole
    card names and cited clause numbers marked; («», ()) for a paragraph without text."""
    best = _best_sentence(pieces, marked, card_seqs, cited)
    if best is None:
        return "", ()
    piece, sentence_start, sentence_end = best
    start, end = _widen(piece, sentence_start, sentence_end, marked)
    toks = [t for t in piece.tokens if start <= t.start and t.end <= end]
    keys = [t.key for t in toks]
    card_marks = {i for seq in card_seqs for s in find_all(keys, seq) for i in range(s, s + len(seq))}
    spans: list[tuple[str, bool]] = [("ПРИМЕР: " if piece.kind == "example" else "", False)]
    spans.append(("…" if start > sentence_start else "", False))
    pos = start
    for i, t in enumerate(toks):
        if t.key in marked or i in card_marks or t.surface in cited:
            spans.append((piece.text[pos : t.start], False))
            spans.append((piece.text[t.start : t.end], True))
            pos = t.end
    spans.append((piece.text[pos:end], False))
    # «…» where the snippet stops inside a sentence.
    inside = end < len(piece.text) and piece.text[end - 1] not in '.!?;:…)»”"'
    spans.append(("…" if inside else "", False))
    merged = _merge_spans(spans)
    return "".join(t for t, _ in merged), merged


def _best_sentence(
    pieces: Sequence[Piece], marked: set[str], card_seqs: Sequence[tuple[str, ...]], cited: Sequence[str]
) -> tuple[Piece, int, int] | None:
    """(piece, start, end) of the sentence with the most matches; rule text before examples."""
    best: tuple[int, int, Piece, int, int] | None = None
    for pi, piece in enumerate(pieces):
        tokens = piece.tokens
        for start, end, lo, hi in _bounds(piece):
            keys = [t.key for t in tokens[lo:hi]]
            hit_count = len(marked.intersection(keys))
            if card_seqs:
                hit_count += sum(2 for seq in card_seqs if find_all(keys, seq))
            if cited:
                hit_count += sum(3 for cid in cited if cid in piece.text[start:end])
            if best is None or (hit_count, -pi) > (best[0], best[1]):
                best = (hit_count, -pi, piece, start, end)
    return None if best is None else best[2:]


def _widen(piece: Piece, start: int, end: int, marked: set[str]) -> tuple[int, int]:
    """A short sentence («Бул’Багур имеет текст:») runs on into the next; a long one is cut to
    SNIPPET_CHARS around its first match, on word boundaries."""
    spans_of = _bounds(piece)
    while end - start < SNIPPET_MIN:
        after = next((se for se in spans_of if se[0] >= end), None)
        if after is None:
            break
        end = after[1]
    if end - start > SNIPPET_CHARS:
        first_hit = next((t.start for t in piece.tokens if start <= t.start < end and t.key in marked), start)
        start = max(start, first_hit - SNIPPET_CHARS // 3)
        start = next((t.start for t in piece.tokens if t.start >= start), start)
        stop = min(end, start + SNIPPET_CHARS)
        end = max((t.end for t in piece.tokens if start < t.end <= stop), default=stop)
    return start, end


def _merge_spans(spans: Sequence[tuple[str, bool]]) -> Spans:
    """One line of text: empty pieces dropped, neighbouring unmarked pieces joined."""
    merged: list[tuple[str, bool]] = []
    for text, mark in spans:
        text = text.replace("\n", " ")
        if not text:
            continue
        if merged and not mark and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + text, False)
        else:
            merged.append((text, mark))
    return tuple(merged)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, list item or line; «см. 537» and «п. 403.2» do not end one."""
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _SENTENCE.finditer(text):
        if _ABBREVIATION_END.search(text, max(0, m.start() - 8), m.start()):
            continue
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text)))
    return out


def find_all(keys: Sequence[str], seq: Sequence[str]) -> list[int]:
    """Start positions of `seq` inside `keys`."""
    n = len(seq)
    if not n:
        return []
    first, want = seq[0], tuple(seq)
    return [i for i in range(len(keys) - n + 1) if keys[i] == first and tuple(keys[i : i + n]) == want]
