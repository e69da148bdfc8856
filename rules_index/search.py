"""The Russian search over a corpus: clause numbers, word forms, typos, jargon, cards, terms.

Ranking is BM25 over stem keys (rule text weighted above examples), with explicit signals on
top: a clause number puts that clause first; a query that names a defined term puts the
definition first in proportion to how much of the query the term covers; a quoted phrase
rewards the clauses that contain it verbatim; a card name finds the clauses that mention it.
A word the rules lack is linked to words they have: jargon (data), a word cut short, a typo,
a derivation («двигать» → «движение»), each weighted below the word itself. Section headings
rank below their clauses unless the query is the section's name. A query whose meaningful
words the rules do not answer gets no hits at all (`SearchResult.words` says which words
matched what, and which matched nothing).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

import Stemmer

from rules_index import ids, linking, matching, morph, numbers, postings, typos
from rules_index.errors import QueryError
from rules_index.model import Hit, Match, Named, Paragraph, QueryWord, SearchResult
from rules_index.snippet import Piece, find_all, snippet
from rules_index.tables import Tables, load_tables
from rules_index.text import Analyzer, Token, normalize

MAX_QUERY = 500
# BM25 parameters; clauses are short and similar in length, so length matters little.
K1 = 1.2
B = 0.75
WEIGHT = linking.WEIGHT
# A paragraph's score times FLOOR + (1 - FLOOR) * coverage**POWER (coverage of the query's words).
COVERAGE_FLOOR = 0.25
COVERAGE_POWER = 2.0
# A heading ranks below its clauses (its words are the whole section's topic, not an answer)
# unless the query is the section's name.
HEADING_FACTOR = 0.35
# Out of scope: when no paragraph covers at least this share of the query's meaningful words
# (by weight; a word the rules lack weighs the rarest word's weight times its part of speech's
# factor, morph.topic_weight), the rules do not answer it.
ANSWER_COVERAGE = 0.5
MATCHED_MINOR = 0.5
# A pronoun-like word («один», «другой», «тот», «каждый») weighs this much in the ranking.
FUNCTION_WEIGHT = 0.7
EXAMPLE_ONLY = 0.5
# A subclause gains this share of its parent's score, up to CHILD_CAP of it («некуда
# инкарнировать» matches 535.7's «на свободную клетку»; its 535.7.2 answers what then).
CHILD_SHARE = 0.5
CHILD_CAP = 0.99
# A word typed twice («симб на симба») and a clause with «другой» before that word.
ANOTHER_KEY = "друг"
ANOTHER_GAIN = 1.5

# Matches that stand in for a word without being it: they never make a query a section's name.
_STAND_INS = frozenset({"broader", "opposite", "near", "typo"})
_PHRASE = re.compile(r"[«\"“„]([^«»\"“”„]+)[»\"”“]")


_Alt = linking.Alt


@dataclass(frozen=True)
class _QWord:
    """A query word and the keys it may match; `together` = a multi-word jargon meaning,
    scored as the mean over its keys (both «летающее» and «существо» for «летун»)."""

    word: str
    alts: tuple[_Alt, ...]
    together: bool = False
    meaningful: bool = True  # a bare count («3») says nothing on its own
    info: morph.WordInfo | None = None  # the dictionary's view of a one-token word
    named: str = ""  # what the caller said these words name (model.Named.label)


class _TermKey(NamedTuple):
    """A key of the query for term detection: typed as `typed`, over content tokens [start, end)."""

    key: str
    typed: str
    start: int
    end: int
    span: tuple[int, int]  # where in the query it was typed


_JargonRow = postings.JargonRow


_How = dict[int, dict[int, tuple[_Alt, str]]]


class SearchIndex:
    """Inverted index of one corpus; built once, read-only afterwards (assigning raises)."""

    _analyzer: Analyzer
    _paragraphs: tuple[Paragraph, ...]
    _titles: Mapping[str, str]
    _first: Mapping[str, int]
    _child_docs: Mapping[int, tuple[int, ...]]  # a clause → its subclauses (not a heading's)
    _avgdl: float
    _lengths: tuple[float, ...]
    _max_idf: float
    _postings: Mapping[str, Mapping[int, float]]
    _idf: Mapping[str, float]
    _pieces: tuple[tuple[Piece, ...], ...]
    _surfaces: tuple[frozenset[str], ...]
    _found: tuple[Mapping[str, str], ...]
    _vocab: Mapping[str, str]
    _vocab_words: tuple[str, ...]
    _linker: linking.Linker
    _key_form: Mapping[str, str]
    _cards: tuple[tuple[tuple[str, ...], str], ...]
    _cards_typed: tuple[tuple[tuple[str, ...], str, tuple[str, ...]], ...]
    _jargon: tuple[_JargonRow, ...]
    _jargon_first: Mapping[str, tuple[int, ...]]  # a row's first key → rows (longest first)
    _broader: Mapping[str, tuple[str, tuple[str, ...], str]]
    _terms: tuple[postings.TermRow, ...]
    _heading_keys: Mapping[int, frozenset[str]]
    _text_keys: tuple[frozenset[str], ...]
    _jargon_lemmas: Mapping[str, _JargonRow]

    _number_index: numbers.NumberIndex

    def __init__(
        self, paragraphs: Sequence[Paragraph], titles: Mapping[str, str], tables: Tables | None = None
    ) -> None:
        tables = tables or load_tables()
        analyzer = Analyzer(tables)
        stemmer = analyzer.stemmer()
        first: dict[str, int] = {}
        for i, p in enumerate(paragraphs):
            first.setdefault(p.id, i)
        docs = postings.index_documents(paragraphs, analyzer, stemmer)
        cards = postings.index_cards(tables, analyzer, stemmer, docs)
        jargon, broader = postings.jargon_table(tables, analyzer, stemmer, docs.postings)
        n_docs = max(1, len(paragraphs))
        df = {k: len(v) for k, v in docs.postings.items()}
        set_ = object.__setattr__
        set_(self, "_analyzer", analyzer)
        set_(self, "_paragraphs", tuple(paragraphs))
        set_(self, "_titles", titles)
        set_(self, "_first", MappingProxyType(first))
        children: dict[int, list[int]] = {}
        for d, p in enumerate(paragraphs):
            parent = first.get(p.parent or "")
            if parent is not None and not paragraphs[parent].is_heading:
                children.setdefault(parent, []).append(d)
        set_(self, "_child_docs", MappingProxyType({k: tuple(v) for k, v in children.items()}))
        set_(self, "_avgdl", (sum(docs.lengths) / n_docs) or 1.0)
        set_(self, "_lengths", tuple(docs.lengths))
        set_(self, "_max_idf", math.log(1 + (n_docs + 0.5) / 0.5))
        set_(self, "_postings", MappingProxyType({k: MappingProxyType(v) for k, v in docs.postings.items()}))
        idf = {k: math.log(1 + (n_docs - n + 0.5) / (n + 0.5)) for k, n in df.items()}
        set_(self, "_idf", MappingProxyType(idf))
        set_(self, "_pieces", tuple(tuple(dp) for dp in docs.pieces))
        set_(self, "_surfaces", tuple(docs.surfaces))
        set_(self, "_found", tuple(MappingProxyType(f) for f in docs.found))
        set_(self, "_vocab", MappingProxyType(docs.vocab))
        set_(self, "_vocab_words", tuple(docs.vocab))
        set_(self, "_key_form", MappingProxyType(postings.commonest_forms(docs.form_counts)))
        set_(self, "_cards", tuple(cards))
        set_(self, "_cards_typed", tuple(postings.card_words(tables, analyzer, stemmer)))
        set_(self, "_jargon", tuple(jargon))
        first_key: dict[str, list[int]] = {}
        for i, (seq, _, _) in enumerate(jargon):
            first_key.setdefault(seq[0], []).append(i)
        set_(self, "_jargon_first", MappingProxyType({k: tuple(v) for k, v in first_key.items()}))
        set_(self, "_broader", MappingProxyType(broader))
        set_(self, "_terms", tuple(postings.term_table(tables, analyzer, stemmer, first)))
        headings = {
            d: frozenset(t.key for t in docs.pieces[d][0].tokens if t.surface not in analyzer.stopwords)
            # a bare title; a heading with its own list (a glossary) is content
            for d, p in enumerate(paragraphs)
            if p.is_heading and not p.bullets and not p.examples
        }
        set_(self, "_heading_keys", MappingProxyType(headings))
        set_(self, "_text_keys", tuple(frozenset(t.key for t in dp[0].tokens) for dp in docs.pieces))
        set_(self, "_number_index", numbers.NumberIndex(paragraphs, [tuple(dp) for dp in docs.pieces]))
        jargon_forms = postings.jargon_by_form(tables, analyzer, stemmer)
        set_(self, "_jargon_lemmas", MappingProxyType(jargon_forms))
        set_(
            self,
            "_linker",
            linking.Linker(
                self._postings,
                self._broader,
                analyzer,
                typos.TypoIndex(docs.vocab, stemmer, jargon_forms, analyzer.stopwords),
                self._jargon_lemmas,
                len(paragraphs),
            ),
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("SearchIndex неизменяем после построения")

    # Query analysis ---------------------------------------------------------------------

    def search(self, query: str, top: int = 10, named: Sequence[Named] = ()) -> list[Hit]:
        """Hits best first; raises QueryError for an empty or over-long query."""
        return list(self.lookup(query, top, named).hits)

    def lookup(self, query: str, top: int = 10, named: Sequence[Named] = ()) -> SearchResult:
        """Hits best first and how each typed word was understood; raises QueryError for an
        empty or over-long query. No hits when the rules do not answer the query. `named`:
        words the caller knows name something the rules do not (a card of its card base), and
        the rules words to read for them."""
        _check_query(query, top)
        stemmer = self._analyzer.stemmer()
        numbers, rest = self._numbers(query)
        phrases = [
            (m.group(1).strip(), keys)
            for m in _PHRASE.finditer(rest)
            if len(keys := self._analyzer.keys(m.group(1), stemmer, content_only=False)) >= 2
        ]
        tokens = list(self._analyzer.tokens(rest, stemmer))
        if not tokens and not numbers:
            raise QueryError("В запросе нет ни слов, ни номера пункта.")
        content = [t for t in tokens if t.surface not in self._analyzer.stopwords]
        infos = {t.surface: morph.analyse(t.surface) for t in content if not t.surface.isdigit()}
        words, term_keys = self._words(query, content, stemmer, infos, named, tokens)
        scores, how, covered = self._word_scores(words)
        extra: dict[int, list[Match]] = {}
        # Headings before terms: a term's definition («взять карту в отряд» → 535.2) stays above
        # the section named the same way (535 «Взятие карт в отряд»).
        self._place_headings(words, scores, how)
        for d, parent in self._inherit(scores).items():
            extra.setdefault(d, []).append(Match("", "parent", self._paragraphs[parent].id))
        self._another(words, scores)
        all_keys = [t.key for t in tokens]
        self._add_terms(query, term_keys, all_keys, scores, extra)
        for text, keys in phrases:
            bonus = sum(self._idf.get(k, 0.0) for k in keys) * 1.5
            for d, doc_pieces in enumerate(self._pieces):
                if any(find_all([t.key for t in pc.tokens], keys) for pc in doc_pieces):
                    scores[d] = scores.get(d, 0.0) + bonus
                    extra.setdefault(d, []).append(Match(text, "phrase", "«…»"))
        if not numbers and self._best_coverage(words, covered, how) < ANSWER_COVERAGE:
            scores = {}
        for typed, _, targets in numbers:
            for d, bonus in targets:
                scores[d] = scores.get(d, 0.0) + bonus
                extra.setdefault(d, []).append(Match(typed, "number", self._paragraphs[d].id))
        hits = self._ranked(scores, how, extra, top, words, [cid for _, cid, _ in numbers])
        return SearchResult(query, tuple(hits), self._report(query, numbers, words))

    def _word_scores(self, words: Sequence[_QWord]) -> tuple[dict[int, float], _How, dict[int, set[int]]]:
        """BM25 per paragraph over each query word's best alternative, scaled by coverage;
        and for each paragraph, which alternative matched each query word."""
        scores: dict[int, float] = {}
        how: _How = {}
        covered: dict[int, set[int]] = {}
        for wi, qw in enumerate(words):
            for d, (s, alt) in self._best_alternative(qw).items():
                scores[d] = scores.get(d, 0.0) + s
                how.setdefault(d, {})[wi] = (alt, qw.word)
                if self._complete(qw, d):
                    covered.setdefault(d, set()).add(wi)
        # Coverage: a clause that matches every query word beats one that repeats a single word.
        # Coverage by word weight: missing a rare word costs more than missing a common one.
        if words:
            weights = [self._word_weight(qw) for qw in words]
            total = sum(weights) or 1.0
            for d in scores:
                coverage = sum(weights[wi] for wi in covered.get(d, ())) / total
                scores[d] *= COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * coverage**COVERAGE_POWER
        return scores, how, covered

    def _word_weight(self, qw: _QWord) -> float:
        return max((self._idf.get(a.key, 0.0) for a in qw.alts), default=0.0)

    def _best_alternative(self, qw: _QWord) -> dict[int, tuple[float, _Alt]]:
        """BM25 of one query word per paragraph: its best alternative, or for a multi-word
        jargon meaning (`together`) the sum over its words (see `_complete`)."""
        best: dict[int, tuple[float, _Alt]] = {}
        share = 1 / len(qw.alts) if qw.together else 1.0
        if qw.info is not None and qw.info.function:
            share *= FUNCTION_WEIGHT  # «одного», «другой»: they point, the other words name
        present: dict[int, int] = {}
        for alt in qw.alts:
            posting = self._postings.get(alt.key)
            if not posting:
                continue
            idf = self._idf[alt.key]
            for d, tf in posting.items():
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self._lengths[d] / self._avgdl))
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

    def _complete(self, qw: _QWord, d: int) -> bool:
        """Whether paragraph d has the whole meaning of a query word: every word of a multi-word
        jargon meaning, or any alternative of a plain word."""
        if not qw.together:
            return True
        return all(d in self._postings.get(a.key, {}) for a in qw.alts)

    def _inherit(self, scores: dict[int, float]) -> dict[int, int]:
        """A subclause reads in its parent's context: it gains a share of its parent's score, but
        never rises above its parent (the family fills the places after it, the best stays).
        Returns the subclauses found only so (→ their parent), for «Как нашлось»."""
        base = dict(scores)
        only: dict[int, int] = {}
        for parent, score in base.items():
            for d in self._child_docs.get(parent, ()):
                own = base.get(d, 0.0)
                scores[d] = max(own, min(own + CHILD_SHARE * score, score * CHILD_CAP))
                if own <= 0 and scores[d] > 0:
                    only[d] = parent
        return only

    def _another(self, words: Sequence[_QWord], scores: dict[int, float]) -> None:
        """A word typed twice relates two of a kind («симб на симба», «замена замены»): the
        clauses that speak of «другой» of that kind («на другого симбиота») answer it."""
        typed = [qw.alts[0].key for qw in words if qw.alts and qw.meaningful]
        twice = {k for k in typed if typed.count(k) > 1}
        other = self._postings.get(ANOTHER_KEY, {})
        for key in twice:
            for d in set(self._postings.get(key, {})) & set(other) & set(scores):
                if any(_follows(piece.tokens, ANOTHER_KEY, key) for piece in self._pieces[d]):
                    scores[d] *= ANOTHER_GAIN

    def _place_headings(self, words: Sequence[_QWord], scores: dict[int, float], how: _How) -> None:
        """A heading first when the query is its section's name («симбиоты», «всё про
        симбов»); otherwise below the clauses it heads."""
        meaningful = [wi for wi, qw in enumerate(words) if qw.meaningful]
        top_score = max(scores.values(), default=0.0)
        for d, keys in self._heading_keys.items():
            if d not in scores:
                continue
            matched = {wi: alt for wi, (alt, _) in how.get(d, {}).items() if alt.how not in _STAND_INS}
            named = {alt.key for alt in matched.values()} & keys
            is_name = named == keys and len(meaningful) <= len(keys)
            if meaningful and all(wi in matched for wi in meaningful) and is_name:
                scores[d] = top_score + 1.0
            else:
                scores[d] *= HEADING_FACTOR

    def _best_coverage(self, words: Sequence[_QWord], covered: Mapping[int, set[int]], how: _How) -> float:
        """The largest share of the query's meaningful words one paragraph covers (by weight):
        below ANSWER_COVERAGE the rules do not answer the query.

        A word the rules lack counts as a rare word left uncovered («сколько кристаллов в
        начале игры» is about crystals, which these rules never mention); bare counts and
        question words do not count at all. Cards and clause numbers are answers by themselves.
        A word found only in a paragraph's example covers half: «как работает яд» is not
        answered by an example that mentions poison.
        """
        weights: dict[int, float] = {}
        for wi, qw in enumerate(words):
            if not qw.meaningful or (qw.info is not None and qw.info.function):
                continue  # «3», «одна», «другой»: they point at the topic, they are not it
            present = [a for a in qw.alts if a.key in self._postings]
            if any(a.how in ("card", "named") for a in present):
                return 1.0
            if present:
                # A matched adverb or adjective («прямо», «обычный») weighs less than a matched
                # noun or verb: it rarely decides what the question is about.
                minor = qw.info is not None and qw.info.minor
                weights[wi] = self._word_weight(qw) * (MATCHED_MINOR if minor else 1.0)
            else:
                weights[wi] = self._max_idf * (qw.info.topic_weight if qw.info else 1.0)
        total = sum(weights.values())
        if total <= 0:
            return 0.0
        best = 0.0
        for d, got in covered.items():
            in_text = self._text_keys[d]
            share = sum(
                w * (1.0 if how[d][wi][0].key in in_text else EXAMPLE_ONLY)
                for wi, w in weights.items()
                if wi in got
            )
            best = max(best, share)
        return best / total

    def _add_terms(
        self,
        query: str,
        term_keys: Sequence[_TermKey],
        all_keys: Sequence[str],
        scores: dict[int, float],
        extra: dict[int, list[Match]],
    ) -> None:
        """Put the definition of a term the query names above the word hits, in proportion to
        how much of the query the term is; fully when the query has the term's whole wording,
        little words included («не может быть взята в отряд»)."""
        top_score = max(scores.values(), default=0.0)
        # One weight per typed word (a misspelt word may stand for several keys): its rarest key.
        by_word: dict[tuple[int, int], list[str]] = {}
        for tk in term_keys:
            by_word.setdefault(tk.span, []).append(tk.key)

        def weight(keys: Sequence[str]) -> float:
            return max(self._idf.get(k, self._max_idf) for k in keys)

        total_idf = sum(weight(keys) for keys in by_word.values()) or 1.0
        for term_set, term, clause, whole in self._matched_terms(query, term_keys, all_keys):
            # Share by word weight (a rare word outside the term means the question is about
            # something else), squared: «что такое хозяин» is about the term; «хозяина
            # изгнали, что с симбиотом» is not.
            covered = sum(
                weight([k for k in keys if k in term_set])
                for keys in by_word.values()
                if set(keys) & term_set
            )
            share = (covered / total_idf) ** 2
            if len(whole) >= 4 and find_all(all_keys, whole):
                share = 1.0
            d = self._first[clause]
            scores[d] = scores.get(d, 0.0) + share * (top_score + 1.0)
            used = [tk.span for tk in term_keys if tk.key in term_set]
            typed = query[min(a for a, _ in used) : max(b for _, b in used)]
            extra.setdefault(d, []).append(Match(typed, "term", term))

    def _ranked(
        self,
        scores: Mapping[int, float],
        how: Mapping[int, Mapping[int, tuple[_Alt, str]]],
        extra: Mapping[int, list[Match]],
        top: int,
        words: Sequence[_QWord],
        cited: Sequence[str] = (),
    ) -> list[Hit]:
        """Hits best first (ties in corpus order), one per id, at most `top`."""
        hits: list[Hit] = []
        seen_ids: set[str] = set()
        for d in sorted(scores, key=lambda d: (-scores[d], d)):
            p = self._paragraphs[d]
            if scores[d] <= 0 or p.id in seen_ids:
                continue
            seen_ids.add(p.id)
            others = [cid for cid in cited if cid != p.id]
            hits.append(self._hit(d, scores[d], how.get(d, {}), extra.get(d, []), words, others))
            if len(hits) >= top:
                break
        return hits

    def _numbers(self, query: str) -> tuple[list[numbers.Typed], str]:
        return self._number_index.find(query)

    def _words(
        self,
        query: str,
        content: list[Token],
        stemmer: Stemmer.Stemmer,
        infos: Mapping[str, morph.WordInfo],
        named: Sequence[Named] = (),
        tokens: Sequence[Token] = (),
    ) -> tuple[list[_QWord], list[_TermKey]]:
        """Query words with their alternatives; also the keys for term detection."""
        keys = [t.key for t in content]
        exact = ["=" + t.surface for t in content]
        # Every token (little words too) for jargon phrases, and where each content token is.
        whole = list(postings.phrase_keys(tokens, self._analyzer.stopwords))
        at_content = {id(t): i for i, t in enumerate(content)}
        used = [False] * len(content)
        words: list[_QWord] = []
        term_keys: list[_TermKey] = []

        def span(start: int, n: int) -> tuple[int, int]:
            return content[start].start, content[start + n - 1].end

        def typed(start: int, n: int) -> str:
            return query[slice(*span(start, n))]

        # Cards first (longest alias first), then multi-word and single-word jargon.
        surfaces = [t.surface for t in content]
        for seq, name, alias in self._cards_typed:
            for start in [*find_all(keys, seq), *matching.misspelt(surfaces, keys, alias, seq)]:
                if any(used[start : start + len(seq)]):
                    continue
                for i in range(start, start + len(seq)):
                    used[i] = True
                label = typed(start, len(seq))
                words.append(_QWord(label, (_Alt("card:" + name, "card", WEIGHT["card"], name),)))
                # a question about a card is not about a term
                where = span(start, len(seq))
                term_keys.append(_TermKey("card:" + name, label, start, start + len(seq), where))
        for nm in named:
            self._named(nm, keys, used, words, term_keys, stemmer, span, typed)
        typed_keys = set(keys) | set(exact) | set(whole)
        rows = sorted(i for k in typed_keys for i in self._jargon_first.get(k, ()))
        for seq, means, means_keys in (self._jargon[i] for i in rows):
            if seq[0].startswith(postings.PHRASE):
                self._phrase(seq, means, means_keys, whole, tokens, at_content, used, words, term_keys, query)
                continue
            for start in find_all(exact if seq[0].startswith("=") else keys, seq):
                if any(used[start : start + len(seq)]):
                    continue
                for i in range(start, start + len(seq)):
                    used[i] = True
                label = typed(start, len(seq))
                alts = tuple(_Alt(mk, "jargon", WEIGHT["jargon"], means) for mk in means_keys)
                own = keys[start]
                if len(seq) == 1 and len(alts) == 1 and own in self._postings and own != alts[0].key:
                    # A jargon word the loaded rules use literally («свойства» in other rules) still
                    # finds itself first.
                    alts = (_Alt(own, "form", WEIGHT["form"]), *alts)
                if len(alts) == 1 and alts[0].key in self._broader:
                    wider, wider_keys, rel = self._broader[alts[0].key]
                    alts += tuple(_Alt(k, rel, WEIGHT[rel], wider) for k in wider_keys)
                words.append(_QWord(label, alts, together=len(means_keys) > 1))
                term_keys.extend(
                    _TermKey(mk, label, start, start + len(seq), span(start, len(seq))) for mk in means_keys
                )
        for i, t in enumerate(content):
            if used[i]:
                continue
            info = infos.get(t.surface)
            row = None if t.key in self._postings or info is None else self._jargon_lemmas.get(info.lemma)
            how, share = "jargon", 1.0
            alts = ()
            if row is None and info is not None and not info.known and t.key not in self._postings:
                alts = self._linker.alternatives(t, stemmer, info)
                if not alts:
                    fixed = self._linker.misspelt(t.surface, stemmer)
                    if fixed is not None and fixed.stopword:
                        continue  # «теперьь», «какмо»: a little word mistyped says nothing
                    if fixed is not None:
                        row, alts, how, share = fixed.row, fixed.alts, "typo", fixed.share
            if row is not None:
                # Another form of a jargon word («сдвинули» for the listed «сдвинуть»), or a
                # jargon word mistyped («тиггер»).
                alts = tuple(_Alt(mk, how, WEIGHT["jargon"] * share, row[1]) for mk in row[2])
                words.append(_QWord(typed(i, 1), alts, together=len(row[2]) > 1, info=info))
                term_keys.extend(_TermKey(mk, typed(i, 1), i, i + 1, span(i, 1)) for mk in row[2])
                continue
            if not alts:
                alts = self._linker.alternatives(t, stemmer, info)
            label = typed(i, 1)
            # A word the corpus lacks counts for terms as its closest matches («хазяен» → хозяин,
            # «замещющая» → замещающая); a word with no match at all («покажи») says nothing.
            own_keys = [t.key] if t.key in self._postings else []
            term_alts = dict.fromkeys(own_keys + [a.key for a in alts if a.how == "typo"])
            if not term_alts and alts:
                term_alts = {alts[0].key: None}
            for key in term_alts:
                term_keys.append(_TermKey(key, label, i, i + 1, span(i, 1)))
            words.append(_QWord(label, alts, meaningful=not t.surface.isdigit(), info=info))
        return words, term_keys

    def _phrase(
        self,
        seq: Sequence[str],
        means: str,
        means_keys: tuple[str, ...],
        whole: Sequence[str],
        tokens: Sequence[Token],
        at_content: Mapping[int, int],
        used: list[bool],
        words: list[_QWord],
        term_keys: list[_TermKey],
        query: str,
    ) -> None:
        """A jargon phrase with its little words («чья карта» → владелец карты)."""
        for start in find_all(whole, seq):
            inside = [at_content[id(t)] for t in tokens[start : start + len(seq)] if id(t) in at_content]
            if not inside or any(used[i] for i in inside):
                continue
            for i in inside:
                used[i] = True
            where = (tokens[start].start, tokens[start + len(seq) - 1].end)
            label = query[slice(*where)]
            alts = tuple(_Alt(mk, "jargon", WEIGHT["jargon"], means) for mk in means_keys)
            words.append(_QWord(label, alts, together=len(means_keys) > 1))
            term_keys.extend(_TermKey(mk, label, inside[0], inside[-1] + 1, where) for mk in means_keys)

    def _named(
        self,
        nm: Named,
        keys: Sequence[str],
        used: list[bool],
        words: list[_QWord],
        term_keys: list[_TermKey],
        stemmer: Stemmer.Stemmer,
        span: Callable[[int, int], tuple[int, int]],
        typed: Callable[[int, int], str],
    ) -> None:
        """Words the caller named («горного клеща» = Горный клещ, a card of its base) stand for
        the words of their kind («паразит»): one query word, as a card is, any of whose kinds
        answers for it, weighed a little less than a typed word."""
        seq = self._analyzer.keys(nm.words, stemmer)
        if all(k in self._postings for k in seq):
            return  # a card named with rules words only («Вызов»): the words mean the rules' words
        free = [s for s in find_all(keys, seq) if not any(used[s : s + len(seq)])] if seq else []
        if not free:
            return
        start = free[0]
        end = start + len(seq)
        for i in range(start, end):
            used[i] = True
        label, where = typed(start, len(seq)), span(start, len(seq))
        stop = self._analyzer.stopwords
        means = [t for t in self._analyzer.tokens(nm.means, stemmer) if t.surface not in stop]
        # One word of the query, as a card is: any of its kinds' words answers for it.
        alts: dict[str, _Alt] = {}
        for t in means:
            for a in self._linker.alternatives(t, stemmer, morph.analyse(t.surface)):
                alts.setdefault(a.key, _Alt(a.key, "named", a.weight * WEIGHT["named"], nm.label))
            term_keys.append(_TermKey(t.key, label, start, end, where))
        # A card of no kind the rules speak of is understood, and answers nothing.
        words.append(_QWord(label, tuple(alts.values()), meaningful=bool(alts), named=nm.label))

    def _matched_terms(
        self, query: str, term_keys: Sequence[_TermKey], all_keys: Sequence[str] = ()
    ) -> list[tuple[frozenset[str], str, str, tuple[str, ...]]]:
        """Terms whose every word the query has, side by side (question words aside) and in the
        term's order: «хозяин паразита» is the term; «хост умер что с паразитом» and «симб и
        хост» are not about it."""
        present = {tk.key for tk in term_keys}
        spans: dict[str, set[tuple[int, int]]] = {}
        for tk in term_keys:
            spans.setdefault(tk.key, set()).add(tk.span)
        # A term typed twice relates two of a kind («замещение замещения», «симб на симба»): the
        # question is about that relation, not about what the term means.
        matched = [
            (k, term, clause, whole)
            for k, term, clause, order, whole in self._terms
            if k <= present
            and _together([tk for tk in term_keys if tk.key in k])
            and all(len(spans[key]) == 1 for key in k)
            and matching.in_order(query, order, spans)
        ]
        # A term inside a longer matched term («вызов» in «правила вызова») is not matched alone;
        # of two terms with the same words, the one whose little words the query has too
        # («взятие в отряд», not «не может быть взята в отряд», for «взятием в отряд»).
        typed_keys = {tk.key for tk in term_keys} | set(all_keys)

        def fit(whole: tuple[str, ...]) -> tuple[int, float]:
            have = sum(1 for k in whole if k in typed_keys)
            return have, have / max(1, len(whole))

        best: dict[str, tuple[frozenset[str], str, str, tuple[str, ...]]] = {}
        for k, term, clause, whole in matched:
            if any(k < other for other, _, _, _ in matched):
                continue
            if any(k == other and fit(w) > fit(whole) for other, _, _, w in matched):
                continue
            if clause not in best or len(k) > len(best[clause][0]):
                best[clause] = (k, term, clause, whole)
        return list(best.values())

    # Results --------------------------------------------------------------------------------

    def _report(
        self, query: str, numbers: Sequence[tuple[str, str, list[tuple[int, float]]]], words: Sequence[_QWord]
    ) -> tuple[QueryWord, ...]:
        """What each typed word matched anywhere in these rules, in the order typed."""
        out: list[tuple[int, QueryWord]] = []
        for typed, _, targets in numbers:
            found = tuple(dict.fromkeys(self._paragraphs[d].id for d, _ in targets))
            out.append((query.find(typed), QueryWord(typed, "number" if found else "", found)))
        for qw in words:
            present = [a for a in qw.alts if a.key in self._postings]
            if qw.named:
                if all(w.word != qw.word or w.how != "named" for _, w in out):
                    out.append((query.find(qw.word), QueryWord(qw.word, "named", (qw.named,))))
                continue
            if not qw.meaningful:
                out.append((query.find(qw.word), QueryWord(qw.word, "count")))
                continue
            if not present:
                out.append((query.find(qw.word), QueryWord(qw.word, "")))
                continue
            kind = present[0].how
            labels = [a.label or self._key_form.get(a.key, a.key) for a in present if a.how == kind]
            if kind == "form" and normalize(qw.word) in self._vocab:
                kind = "exact"
            out.append((query.find(qw.word), QueryWord(qw.word, kind, tuple(dict.fromkeys(labels)))))
        return tuple(w for _, w in sorted(out, key=lambda pw: pw[0]))

    def _hit(
        self,
        d: int,
        score: float,
        how: Mapping[int, tuple[_Alt, str]],
        extra: list[Match],
        words: Sequence[_QWord],
        cited: Sequence[str],
    ) -> Hit:
        p = self._paragraphs[d]
        found = self._found[d]
        surfaces = self._surfaces[d]
        matches: list[Match] = list(extra)
        marked: set[str] = set()
        for wi, (alt, word) in sorted(how.items()):
            marked.add(alt.key)
            if words[wi].together:  # every word of «становится летающим» that the clause has
                marked.update(a.key for a in words[wi].alts if a.key in found)
            if alt.how in ("card", "named"):
                matches.append(Match(word, alt.how, alt.label))
                continue
            form = found.get(alt.key, "")
            if words[wi].together and all(a.key in found for a in words[wi].alts):
                form = alt.label  # the whole meaning is there: «улетел» → «становится летающим»
            kind = alt.how
            if kind == "form" and normalize(word) in surfaces and form:
                kind, form = "exact", normalize(word)
            elif kind == "prefix":
                kind = "form"
            matches.append(Match(word, kind, form))
        card_keys = {k[5:] for k in marked if k.startswith("card:")}
        card_seqs = [seq for seq, name in self._cards if name in card_keys]
        text, spans = snippet(self._pieces[d], marked, card_seqs, cited)
        return Hit(p.id, score, str(self._titles.get(ids.section(p.id), "")), text, spans, tuple(matches))


def _check_query(query: object, top: int) -> None:
    if not isinstance(query, str) or not query.strip():
        raise QueryError("Пустой запрос: введите номер пункта, слова правил или название карты.")
    if len(query) > MAX_QUERY:
        raise QueryError(f"Запрос слишком длинный: {len(query)} символов (не больше {MAX_QUERY}).")
    if top < 1:
        raise QueryError("Число результатов (top) должно быть не меньше 1.")


def _follows(tokens: Sequence[Token], first: str, then: str, within: int = 2) -> bool:
    """Whether a token keyed `then` stands at most `within` tokens after one keyed `first`."""
    keys = [t.key for t in tokens]
    return any(k == first and then in keys[i + 1 : i + 1 + within] for i, k in enumerate(keys))


def _together(keys: Sequence[_TermKey]) -> bool:
    """The query spans of these keys follow one another without a gap."""
    spans = sorted({(tk.start, tk.end) for tk in keys})
    return all(nxt[0] <= prev[1] for prev, nxt in itertools.pairwise(spans))
