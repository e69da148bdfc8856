"""Candidate retrieval: which paragraphs each query word finds, and their BM25 scores.

Each word counts by its best alternative in a paragraph (the word itself before any stand-in
for it); the sum is scaled by how much of the query the paragraph covers, by word weight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_index.search.corpus import Corpus
from rules_index.search.query import Alt, QWord
from rules_index.text import Token, fold_lookalikes, normalize

# BM25 parameters; clauses are short and similar in length, so length matters little.
K1 = 1.2
B = 0.75
# A paragraph's score times FLOOR + (1 - FLOOR) * coverage**POWER (coverage of the query's words).
COVERAGE_FLOOR = 0.25
COVERAGE_POWER = 2.0
# A pronoun-like word («один», «другой», «тот», «каждый») weighs this much in the ranking.
FUNCTION_WEIGHT = 0.7
# A multi-word meaning a paragraph has in part covers this much of its share of words had.
PARTIAL_SHARE = 0.5
# The words of a multi-word meaning state it where they stand within this many words more than
# the meaning has («взять карту под контроль»); scattered over a clause they only mention its
# parts (535.8.1's «потеряли контроль над картой … не может быть взята в отряд»).
MEANING_SLACK = 4
# A light verb («считается», «работает», asks.yaml) weighs this much in the ranking.
LIGHT_WEIGHT = 0.5

# Per paragraph, per query word: the alternative that matched and the word as typed.
How = dict[int, dict[int, tuple[Alt, str]]]


def word_scores(
    c: Corpus, words: Sequence[QWord], astray: Mapping[int, frozenset[int]] | None = None
) -> tuple[dict[int, float], How, dict[int, set[int]]]:
    """BM25 per paragraph over each query word's best alternative, scaled by coverage (a
    multi-word meaning had in part covers in part: PARTIAL_SHARE of its share of words);
    for each paragraph, which alternative matched each query word; and which query words
    each paragraph covers whole. `astray`: per word, the paragraphs where it does not count
    (an ordinal said there of another thing: ranking.astray_ordinals)."""
    scores: dict[int, float] = {}
    how: How = {}
    covered: dict[int, set[int]] = {}
    partial: dict[int, dict[int, float]] = {}
    astray = astray or {}
    for wi, qw in enumerate(words):
        off = astray.get(wi, frozenset())
        for d, (s, alt) in best_alternative(c, qw).items():
            if d in off:
                continue
            scores[d] = scores.get(d, 0.0) + s
            how.setdefault(d, {})[wi] = (alt, qw.word)
            if complete(c, qw, d):
                covered.setdefault(d, set()).add(wi)
            elif qw.together:
                have = sum(1 for a in qw.alts if d in c.postings.get(a.key, {}))
                partial.setdefault(d, {})[wi] = PARTIAL_SHARE * have / len(qw.alts)
    # Coverage: a clause that matches every query word beats one that repeats a single word.
    # Coverage by word weight: missing a rare word costs more than missing a common one.
    if words:
        weights = [word_weight(c, qw) for qw in words]
        total = sum(weights) or 1.0
        for d in scores:
            coverage = sum(weights[wi] for wi in covered.get(d, ()))
            coverage += sum(weights[wi] * share for wi, share in partial.get(d, {}).items())
            coverage /= total
            scores[d] *= COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER
    return scores, how, covered


def word_weight(c: Corpus, qw: QWord) -> float:
    """A query word's weight: the idf of its rarest alternative the rules have."""
    return max((c.idf.get(a.key, 0.0) for a in qw.alts), default=0.0)


def best_alternative(c: Corpus, qw: QWord) -> dict[int, tuple[float, Alt]]:
    """BM25 of one query word per paragraph: its best alternative, or for a multi-word
    jargon meaning (`together`) the sum over its words (see `complete`)."""
    best: dict[int, tuple[float, Alt]] = {}
    share = 1 / len(qw.alts) if qw.together else 1.0
    if qw.info is not None and qw.info.function:
        share *= FUNCTION_WEIGHT  # «одного», «другой»: they point, the other words name
    if fold_lookalikes(normalize(qw.word)) in c.asks.light:
        share *= LIGHT_WEIGHT  # «считается», «работает»: they say what is asked, not about what
    present: dict[int, int] = {}
    lengths, avgdl = c.lengths, c.avgdl
    for alt in qw.alts:
        posting = c.postings.get(alt.key)
        if not posting:
            continue
        idf = c.idf[alt.key]
        within = [c.postings.get(k, {}) for k in alt.within]
        for d, tf in posting.items():
            if within and not any(d in w for w in within):
                continue  # «хозяин» as «существо» only where a clause speaks of symbiotes
            norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / avgdl))
            s = alt.weight * idf * norm * share
            if qw.together:
                present[d] = present.get(d, 0) + 1
            if qw.together and d in best:
                best[d] = (best[d][0] + s, best[d][1] if best[d][0] >= s else alt)
            elif d not in best or (s > best[d][0] and best[d][1].how != "form"):
                # the word itself, where the paragraph has it, before any stand-in for it
                best[d] = (s, alt)
    if qw.together:
        # Half a meaning is less than half the answer: «становится» alone is not «становится
        # летающим».
        return {d: (s * present[d] * share, alt) for d, (s, alt) in best.items()}
    return best


def complete(c: Corpus, qw: QWord, d: int) -> bool:
    """Whether paragraph d has the whole meaning of a query word: every word of a multi-word
    jargon meaning close together (within MEANING_SLACK words more than the meaning has), or
    any alternative of a plain word."""
    if not qw.together:
        return True
    keys = {a.key for a in qw.alts}
    if not all(d in c.postings.get(k, {}) for k in keys):
        return False
    return any(_close(piece.tokens, keys) for piece in c.pieces[d])


def _close(tokens: Sequence[Token], keys: set[str]) -> bool:
    """Whether every key stands in one window of len(keys) + MEANING_SLACK tokens."""
    span = len(keys) + MEANING_SLACK
    last: dict[str, int] = {}
    for i, t in enumerate(tokens):
        if t.key in keys:
            last[t.key] = i
            if len(last) == len(keys) and i - min(last.values()) < span:
                return True
    return False
