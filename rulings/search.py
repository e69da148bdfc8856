"""How well a text answers a query: the one scoring used by the journal's search and the ready answers.

A text to be matched offers three things: the search keys of its question (title), the keys of the
rest of its words (body), and the clause ids it cites. Each query word earns 2 when its key is in the
title, 1 when only in the body; a number («211.3», «1») earns 2 when the text cites that clause or a
subclause of it, or when the title holds the number. The score is the earned share of the best
possible (2 a word), in 0..1. Keys are those of the rules search (rules_index.text.Analyzer: Snowball
stems, word families joined), so «паразит» and «паразитом» meet here as they do there.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Collection, Sequence

import Stemmer

from rules_index import tables as ri_tables
from rules_index import text as ri_text
from rulings.model import Ruling, RulingHit, RulingInput

# A number (a clause id, «1» of «инкарнация 1») or a run of letters; apostrophes and signs split.
_WORD_RE = re.compile(r"\d+(?:\.\d+)*|[^\W\d_]+", re.UNICODE)
_TITLE_GAIN, _BODY_GAIN = 2.0, 1.0


@dataclasses.dataclass(frozen=True)
class Match:
    """How well one text answers a query: score in 0..1, and the query words it matched."""

    score: float
    matched: tuple[str, ...]


def words(text: str) -> list[str]:
    """Folded words and numbers of a text (lower case, «ё» as «е»: rules_index.text.normalize)."""
    return _WORD_RE.findall(ri_text.normalize(text))


@functools.cache
def _analyzer() -> ri_text.Analyzer:
    """The rules search's word analysis (Snowball stems plus our word-family table), built once.

    The analyzer holds only immutable tables, so caching it keeps no judge's state.
    """
    return ri_text.Analyzer(ri_tables.load_tables())


def stopwords() -> frozenset[str]:
    """Question words a query leaves out («можно», «ли» …): the rules search's table, folded."""
    return _analyzer().stopwords


def _key(word: str, stemmer: Stemmer.Stemmer) -> str:
    return word if word[0].isdigit() else _word_key(word)


@functools.lru_cache(maxsize=200_000)
def _word_key(word: str) -> str:
    """A word's search key, remembered: the word-family lookup scans every family's prefix, and
    a journal's rulings repeat the same few thousand words (indexing 100,000 of them is ten
    times faster so). The answer depends only on the immutable tables: no judge's state. A fresh
    stemmer per miss, since Snowball stemmers are not thread-safe."""
    return _analyzer().key(word, _analyzer().stemmer())


def stems(text: str, stemmer: Stemmer.Stemmer | None = None) -> list[str]:
    """Search keys of a text's words (stems, word families merged); numbers are kept whole."""
    st = stemmer or _analyzer().stemmer()
    return [_key(w, st) for w in words(text)]


def query_terms(query: str, stopwords: Collection[str] = frozenset()) -> tuple[list[str], list[str]]:
    """The query's words and their search keys, pairwise, the given stopwords left out."""
    kept = [w for w in words(query) if w not in stopwords]
    st = _analyzer().stemmer()
    return kept, [_key(w, st) for w in kept]


def match(
    query_words: Sequence[str],
    query_keys: Sequence[str],
    title_keys: Collection[str],
    body_keys: Collection[str],
    cited: Collection[str],
) -> Match:
    """The one scoring: how well a text (its title's and body's keys, the ids it cites) answers a
    query (its words and their keys, from `query_terms`). An empty query scores 0."""
    total = 0.0
    matched: list[str] = []
    for word, key in zip(query_words, query_keys, strict=True):
        if word[0].isdigit():
            cites = any(c == word or c.startswith(word + ".") for c in cited)
            gain = _TITLE_GAIN if cites or word in title_keys else 0.0
        else:
            gain = _TITLE_GAIN if key in title_keys else _BODY_GAIN if key in body_keys else 0.0
        if gain:
            matched.append(word)
        total += gain
    score = total / (_TITLE_GAIN * len(query_keys)) if query_keys else 0.0
    return Match(score=score, matched=tuple(matched))


def fields(data: RulingInput) -> tuple[str, str]:
    """The text a ruling is found by: its title (the question), and its body (the decision, the
    outcome, the players, the event, the judge and the amendment note)."""
    body = " ".join([data.decision, data.outcome, data.players, data.event, data.judge, data.note])
    return data.title, body


def search_rulings(
    rulings: Sequence[Ruling], query: str, top: int = 20, stopwords: Collection[str] = frozenset()
) -> list[RulingHit]:
    """Rulings whose current text answers the query, best first (ties: the newer ruling first).

    Title: the question; body: the decision, outcome, players, event, judge and the amendment note.
    """
    stemmer = _analyzer().stemmer()
    query_words, query_keys = query_terms(query, stopwords)
    if not query_keys:
        return []
    hits: list[RulingHit] = []
    for ruling in rulings:
        title, body = fields(ruling.current)
        found = match(
            query_words,
            query_keys,
            set(stems(title, stemmer)),
            set(stems(body, stemmer)),
            ruling.current.clauses,
        )
        if found.score:
            hits.append(RulingHit(ruling=ruling, score=found.score, matched=found.matched))
    hits.sort(key=lambda h: (-h.score, -h.ruling.id))
    return hits[:top]
