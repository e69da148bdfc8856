"""The Russian search over a corpus: clause numbers, word forms, typos, jargon, cards, terms.

Ranking is BM25 over stem keys (rule text weighted above examples), with explicit signals on
top: a clause number puts that clause first; a query that names a defined term puts the
definition first in proportion to how much of the query the term covers; a quoted phrase
rewards the clauses that contain it verbatim; a card name finds the clauses that mention it.
A word the rules lack is linked to words they have: jargon (data), a word cut short, a typo,
a derivation («двигать» → «движение»), each weighted below the word itself. Section headings
rank below their clauses unless the query is the section's name. A query whose meaningful
words the rules do not answer gets no hits at all but the clauses a clause number it types finds
(`SearchResult.words` says which words matched what, and which matched nothing).

One module per step, in the order a query goes through them:
- `corpus`: the index of one corpus, built once (`postings`, `linking`, `typos` help it);
- `query`: reading the query: numbers, phrases, each word and what it may stand for
  (`matching`: misspelt card names, a term's words in order; `translit`: Russian typed in Latin
  letters, «hozyaina», read as Russian and said so in the result);
- `retrieval`: the paragraphs each word finds and their BM25 scores;
- `answerability`: whether the rules answer the query, and what each word matched (`relation`:
  what a question of who or when asks about, what a verb is done to);
- `ranking`: the signals on top of the scores, and the hits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_index.model import Hit, Match, Named, Paragraph, SearchResult
from rules_index.search import answerability, passing, query, ranking, retrieval, translit
from rules_index.search.corpus import Corpus, build
from rules_index.tables import Tables

__all__ = ["SearchIndex"]


class SearchIndex:
    """The search over one corpus; built once, read-only afterwards (assigning raises)."""

    __slots__ = ("corpus",)
    corpus: Corpus

    def __init__(
        self, paragraphs: Sequence[Paragraph], titles: Mapping[str, str], tables: Tables | None = None
    ) -> None:
        object.__setattr__(self, "corpus", build(paragraphs, titles, tables))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("SearchIndex неизменяем после построения")

    # A parse in the server's bounded worker sends its index back pickled (storage.worker); the
    # default for slots sets them by assignment, which this class refuses.
    def __getstate__(self) -> Corpus:
        return self.corpus

    def __setstate__(self, corpus: Corpus) -> None:
        object.__setattr__(self, "corpus", corpus)

    def search(self, text: str, top: int = 10, named: Sequence[Named] = ()) -> list[Hit]:
        """Hits best first; raises QueryError for an empty or over-long query."""
        return list(self.lookup(text, top, named).hits)

    def lookup(self, text: str, top: int = 10, named: Sequence[Named] = ()) -> SearchResult:
        """Hits best first and how each typed word was understood; raises QueryError for an
        empty or over-long query. When the rules do not answer the query, the only hits are the
        clauses a typed clause number finds (itself, those citing it or nearest it). `named`:
        words the caller knows name something the rules do not (a card of its card base), and
        the rules words to read for them."""
        query.check(text, top)
        c = self.corpus
        q = query.read(c, text, named)
        scores, how, covered = retrieval.word_scores(c, q.words, ranking.astray_ordinals(c, q))
        extra: dict[int, list[Match]] = {}
        # Headings before terms: a term's definition («взять карту в отряд» → 535.2) stays above
        # the section named the same way (535 «Взятие карт в отряд»), unless a section is asked for.
        sections, asked = ranking.place_headings(c, q, scores, how)
        for d, parent in ranking.inherit(c, scores).items():
            extra.setdefault(d, []).append(Match("", "parent", c.paragraphs[parent].id))
        ranking.another(c, q.words, scores, q.text)
        all_keys = [t.key for t in q.tokens]
        shares: dict[int, float] = {}
        defining = ranking.add_terms(c, q.text, q.term_keys, all_keys, scores, extra, shares)
        ranking.add_phrases(c, q.phrases, scores, extra)
        ranking.together_first(c, q.words, scores, how)
        ranking.verbs_as_verbs(c, q.words, scores, how)
        ranking.permitted(c, q, scores, how)
        ranking.limited(c, q, scores)
        ranking.terms_on_ties(c, q.words, scores, how, shares)
        ranking.sections_asked(c, q, scores, sections)
        answer = answerability.decide(c, q, covered, how, defining, scores, asked)
        if not answer.answered:
            scores = {}
        elif answer.defines and (first := c.first.get(answer.clause)) in scores:
            # the term's definition the answer rests on is read first, above the clauses ranked
            # higher that only use the term («что значит вызвать карту»: 535.5 defines it)
            scores[first] = max(scores.values()) + 1.0
        # a number misremembered beside words that answer: the words' clauses, not its neighbours
        numbers = [n for n in q.numbers if n.how != "absent" or not answer.answered]
        ranking.add_numbers(c, numbers, scores, extra)
        cited = [n.cid for n in q.numbers]
        hits = ranking.ranked(c, scores, how, extra, top, q.words, cited)
        result = SearchResult(text, tuple(hits), passing.report(c, text, q.numbers, q.words, covered), answer)
        return translit.relabel(result, q.latin)
