"""Building the search's inverted index: postings per stem key, card mentions, jargon rows,
defined terms. Runs once per corpus (search.corpus); the search reads what it returns and never
changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

import Stemmer

from rules_index.model import Paragraph
from rules_index.snippet import Piece, find_all, make_piece
from rules_index.tables import Tables
from rules_index.text import Analyzer, Token, normalize

# Field weights: words of the rule itself count more than words of its example.
FIELD_WEIGHT: Mapping[str, float] = MappingProxyType({"text": 1.0, "example": 0.45})

# A key of a jargon phrase matched with its little words («~чья», «~карт»).
PHRASE = "~"


def phrase_keys(tokens: Iterable[Token], stopwords: frozenset[str]) -> tuple[str, ...]:
    """Keys of a phrase with its little words: a stopword as typed, another word by its key."""
    return tuple(PHRASE + (t.surface if t.surface in stopwords else t.key) for t in tokens)


# (slang keys, meaning, meaning keys)
JargonRow = tuple[tuple[str, ...], str, tuple[str, ...]]


class Broader(NamedTuple):
    """What a «keep» word of the rules also searches: `means` (its keys), how it relates, and
    the keys a clause must have for it to count there (none: everywhere)."""

    means: str
    keys: tuple[str, ...]
    relation: str
    within: tuple[str, ...] = ()
    only_with: tuple[str, ...] = ()  # keys one of which the question must have for it to count


@dataclass
class Docs:
    """The inverted index while it is built (mutable only inside one SearchIndex build)."""

    pieces: list[list[Piece]] = field(default_factory=list)
    postings: dict[str, dict[int, float]] = field(default_factory=dict)
    lengths: list[float] = field(default_factory=list)
    surfaces: list[frozenset[str]] = field(default_factory=list)
    found: list[dict[str, str]] = field(default_factory=list)
    vocab: dict[str, str] = field(default_factory=dict)
    form_counts: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, key: str, d: int, weight: float) -> None:
        posting = self.postings.setdefault(key, {})
        posting[d] = posting.get(d, 0.0) + weight


def index_documents(paragraphs: Sequence[Paragraph], analyzer: Analyzer, stemmer: Stemmer.Stemmer) -> Docs:
    """Postings of every stem key, per paragraph: rule text (with bullets) and examples weighted.

    The loop runs once per word of the whole document (a million times for a large one), so it
    does only plain dict and set steps on local names; a paragraph's weights are summed apart
    and posted once per key, in the same order and with the same sums as adding word by word.
    """
    docs = Docs()
    memo: dict[str, tuple[str, str]] = {}
    stopwords = analyzer.stopwords
    vocab, form_counts, all_postings = docs.vocab, docs.form_counts, docs.postings
    for d, p in enumerate(paragraphs):
        doc_pieces = [make_piece(d, "text", p.full_text, tuple(analyzer.tokens(p.full_text, stemmer, memo)))]
        doc_pieces += [
            make_piece(d, "example", e, tuple(analyzer.tokens(e, stemmer, memo))) for e in p.examples
        ]
        length = 0.0
        seen: set[str] = set()
        first_form: dict[str, str] = {}
        weights: dict[str, float] = {}
        for piece in doc_pieces:
            w = FIELD_WEIGHT[piece.kind]
            for _, _, surface, key in piece.tokens:
                seen.add(surface)
                if surface in stopwords:
                    continue
                if key not in first_form:
                    first_form[key] = surface
                if surface not in vocab:
                    vocab[surface] = key
                forms = form_counts.get(key)
                if forms is None:
                    forms = form_counts[key] = {}
                forms[surface] = forms.get(surface, 0) + 1
                weights[key] = weights.get(key, 0.0) + w
                length += w
        for key, weight in weights.items():
            posting = all_postings.get(key)
            if posting is None:
                posting = all_postings[key] = {}
            posting[d] = weight
        docs.pieces.append(doc_pieces)
        docs.lengths.append(length)
        docs.surfaces.append(frozenset(seen))
        docs.found.append(first_form)
    return docs


def commonest_forms(form_counts: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """Each key's most frequent word form in the rules (ties: the shortest, then A–Я)."""
    return {k: min(forms, key=lambda f: (-forms[f], len(f), f)) for k, forms in form_counts.items()}


def index_cards(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer, docs: Docs
) -> list[tuple[tuple[str, ...], str]]:
    """Card aliases as key sequences (longest first); a clause mentions a card where one occurs."""
    card_seqs: list[tuple[tuple[str, ...], str]] = []
    for card in tables.cards:
        for alias in (card.name, *card.aliases):
            seq = analyzer.keys(alias, stemmer)
            if seq:
                card_seqs.append((seq, card.name))
    card_seqs.sort(key=lambda sc: -len(sc[0]))
    for d, doc_pieces in enumerate(docs.pieces):
        for piece in doc_pieces:
            keys = [t.key for t in piece.tokens]
            present = set(keys)
            for seq, name in card_seqs:
                n = len(find_all(keys, seq)) if seq[0] in present else 0
                if n:
                    # A card named in an example is as telling as one in the rule text.
                    docs.add("card:" + name, d, n)
                    docs.found[d].setdefault("card:" + name, name)
    return card_seqs


def jargon_table(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer, postings: Mapping[str, object]
) -> tuple[list[JargonRow], dict[str, Broader]]:
    """(slang keys, meaning, meaning keys) rows, longest first; and «keep» slang as words the
    rules have that also search (meaning, meaning keys, relation): a broader word, an opposite.

    Jargon matches by stem, unless a one-word slang's stem is also a word of the rules
    («контроллер» and «контроля» share a stem): then only the listed slang forms themselves match.
    Slang of one meaningful word and little words («чья карта», «у кого ход»), of little words
    only («чей он»), or of several words some of which the rules have («ушла с кладбища»,
    «первым ходит»), matches only as the whole phrase (PHRASE-marked keys, little words as typed).
    """
    jargon: list[JargonRow] = []
    broader: dict[str, Broader] = {}
    for entry in tables.jargon:
        means = analyzer.keys(entry.means, stemmer)
        for slang in entry.slang:
            seq = analyzer.keys(slang, stemmer)
            if not seq and means and not entry.keep:
                # little words only («чей он»): the whole phrase, or nothing
                whole = phrase_keys(analyzer.tokens(slang, stemmer), analyzer.stopwords)
                if len(whole) > 1:
                    jargon.append((whole, entry.means, means))
                continue
            if not seq or not means or (seq == means and len(seq) == 1):
                continue
            if entry.keep:
                if len(seq) == 1:
                    within = tuple(k for w in entry.within for k in analyzer.keys(w, stemmer))
                    only = tuple(k for w in entry.only_with for k in analyzer.keys(w, stemmer))
                    broader[seq[0]] = Broader(entry.means, means, entry.relation, within, only)
                continue
            whole = phrase_keys(analyzer.tokens(slang, stemmer), analyzer.stopwords)
            if len(whole) > 1 and (len(seq) == 1 or any(k in postings for k in seq)):
                # one word with little words, or words of the rules: the whole phrase by its
                # keys, little words as typed («ушла с кладбища» is not «ушла на кладбище»)
                jargon.append((whole, entry.means, means))
                continue
            if any(k in postings for k in seq):
                words_ = [normalize(w) for w in slang.split()]
                seq = tuple("=" + w for w in words_ if w not in analyzer.stopwords)
            jargon.append((seq, entry.means, means))
    jargon.sort(key=lambda j: -len(j[0]))
    return jargon, broader


# (keys of a wording, term, defining clause, the keys in the wording's order, every key of the
# wording with its little words: «не может быть взята в отряд»)
TermRow = tuple[frozenset[str], str, str, tuple[str, ...], tuple[str, ...]]


def term_table(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer, first: Mapping[str, int]
) -> list[TermRow]:
    """The wordings of the terms whose defining clause this corpus has."""
    terms: list[TermRow] = []
    for term in tables.terms:
        if term.clause not in first:
            continue
        for wording in (term.term, *term.also):
            keys = analyzer.keys(wording, stemmer)
            if keys:
                whole = analyzer.keys(wording, stemmer, content_only=False)
                terms.append((frozenset(keys), term.term, term.clause, keys, whole))
    return terms


def _one_words(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer
) -> Iterator[tuple[str, JargonRow]]:
    """Each one-word slang form (normalised) of an entry that is not a «keep» word, with its row."""
    for entry in tables.jargon:
        means = analyzer.keys(entry.means, stemmer)
        if entry.keep or not means:
            continue
        for slang in entry.slang:
            word = normalize(slang)
            if word.isalpha():
                yield word, ((word,), entry.means, means)


def jargon_by_form(tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer) -> dict[str, JargonRow]:
    """Each one-word slang form as written → its row (the first entry wins). A query word whose
    dictionary form is listed matches it: «сдвинули» → «сдвинуть» (jargon.yaml lists dictionary
    forms, so no dictionary is needed while the index is built)."""
    out: dict[str, JargonRow] = {}
    for word, row in _one_words(tables, analyzer, stemmer):
        out.setdefault(word, row)
    return out


def jargon_stems(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer, postings: Mapping[str, object]
) -> dict[str, tuple[JargonRow, str]]:
    """The stem of each one-word jargon word (four letters or more, not a word of the rules) →
    its row and the word: a word the tables do not list may begin with one («вражины» → «враг»).
    A stem two meanings share is left out."""
    out: dict[str, tuple[JargonRow, str]] = {}
    shared: set[str] = set()
    for word, row in _one_words(tables, analyzer, stemmer):
        key = analyzer.key(word, stemmer)
        if len(key) < 4 or key in postings:
            continue
        known = out.get(key)
        if known is not None and known[0][1] != row[1]:
            shared.add(key)
        elif known is None or len(word) < len(known[1]):
            out[key] = (row, word)
    return {k: v for k, v in out.items() if k not in shared}


def card_words(
    tables: Tables, analyzer: Analyzer, stemmer: Stemmer.Stemmer
) -> list[tuple[tuple[str, ...], str, tuple[str, ...]]]:
    """(keys, card name, the alias's words as written) for every alias, longest first: the words
    let a misspelt name («карлик унт») match."""
    out: list[tuple[tuple[str, ...], str, tuple[str, ...]]] = []
    for card in tables.cards:
        for alias in (card.name, *card.aliases):
            toks = [t for t in analyzer.tokens(alias, stemmer) if t.surface not in analyzer.stopwords]
            if toks:
                out.append((tuple(t.key for t in toks), card.name, tuple(t.surface for t in toks)))
    out.sort(key=lambda row: -len(row[0]))
    return out
