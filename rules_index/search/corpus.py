"""The search's view of one corpus, built once: postings and weights per stem key, the
paragraphs' pieces, the jargon, card and term tables keyed for this corpus, the typo index.

Every other module of the search reads a `Corpus` and never changes it (its fields are frozen
and its maps read-only), so one built corpus serves every judge's session.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from rules_index import morph, numbers
from rules_index.model import Paragraph
from rules_index.search import linking, postings, typos
from rules_index.search.postings import Broader, JargonRow, TermRow
from rules_index.snippet import Piece
from rules_index.tables import Asks, Tables, Translit, load_tables
from rules_index.text import Analyzer, Token, normalize


@dataclass(frozen=True)
class Corpus:
    """Inverted index of one corpus; read-only after `build` (the unique aside names and cited
    titles, derived from its fields, are computed on first use and kept)."""

    analyzer: Analyzer
    paragraphs: tuple[Paragraph, ...]
    titles: Mapping[str, str]
    first: Mapping[str, int]  # an id → its first paragraph
    child_docs: Mapping[int, tuple[int, ...]]  # a clause → its subclauses (not a heading's)
    avgdl: float
    lengths: tuple[float, ...]
    max_idf: float
    postings: Mapping[str, Mapping[int, float]]
    idf: Mapping[str, float]
    pieces: tuple[tuple[Piece, ...], ...]
    surfaces: tuple[frozenset[str], ...]
    found: tuple[Mapping[str, str], ...]  # per paragraph: a key → its first form there
    vocab: Mapping[str, str]  # every word form of the rules → its key
    key_form: Mapping[str, str]  # a key → its commonest form in the rules
    cards: tuple[tuple[tuple[str, ...], str], ...]
    cards_typed: tuple[tuple[tuple[str, ...], str, tuple[str, ...]], ...]
    jargon: tuple[JargonRow, ...]
    jargon_first: Mapping[str, tuple[int, ...]]  # a row's first key → rows (longest first)
    broader: Mapping[str, Broader]
    terms: tuple[TermRow, ...]
    heading_keys: Mapping[int, frozenset[str]]
    text_keys: tuple[frozenset[str], ...]
    cite_keys: tuple[frozenset[str], ...]  # keys a rule text has only beside a cross-reference
    # keys a rule text has only in an aside, a parenthesis that names a thing in quotes («(после
    # срабатывания особенностей “при гибели”)»; a parenthesis of examples is `paren_keys`)
    aside_keys: tuple[frozenset[str], ...]
    # per paragraph, the quoted names its asides give («особенностей “при гибели”», 535.7.3), each as
    # its words' keys
    aside_names: tuple[tuple[tuple[str, ...], ...], ...]
    # per paragraph, the titles of the sections it cites («536. Эффекты, порождающие игродействия»),
    # each as its words' keys (little words left out)
    cite_names: tuple[tuple[tuple[str, ...], ...], ...]
    # keys a rule text has only inside its parentheses of examples or exceptions («(например,
    # погибает, изгоняется, возвращается в колоду)», 211.4)
    paren_keys: tuple[frozenset[str], ...]
    # per paragraph, the keys its rule text has only in the name of a part of the turn it says its
    # statement holds in («На шаге проверки защит», 534.8), each with its form there (asks.yaml `frames`)
    frame_keys: tuple[Mapping[str, str], ...]
    frame_words: frozenset[str]  # the keys of the frame words themselves («шаг», «подфаза»)
    # per paragraph, the steps its rule text names as when it holds, each as its words' keys and
    # forms (the frame word and up to _FRAME_NAME words after it: `framed` tells the name's own)
    frame_names: tuple[tuple[tuple[tuple[str, str], ...], ...], ...]
    sentence_keys: tuple[tuple[frozenset[str], ...], ...]  # per paragraph, each sentence's keys
    example_names: tuple[frozenset[str], ...]  # keys of the names its examples are about
    # per paragraph, the words of its rule text's last sentence when the source breaks off inside
    # it (model.Paragraph.cut_off): the index of its first token, len(tokens) when none
    cut_from: tuple[int, ...]
    phrases: frozenset[tuple[str, str]]  # two keys the rules write side by side in several clauses
    jargon_lemmas: Mapping[str, JargonRow]
    number_index: numbers.NumberIndex
    linker: linking.Linker
    asks: Asks
    another_keys: frozenset[str]  # keys of the words that relate two of a kind (asks.yaml)
    translit: Translit  # Russian typed in Latin letters (translit.yaml)

    def in_passing(self, d: int, key: str, step_asked: bool = False) -> bool:
        """Whether paragraph d's rule text has the key only in passing: beside a cross-reference
        («в порядке, описанном в 536»), in an aside («(… особенностей “при гибели”)»), or, for a
        question about a step itself (`step_asked`: «шаг проверки защит когда наступает»), in
        the name of the step its statement holds in («На шаге проверки защит …»)."""
        return key in self.cite_keys[d] or key in self.aside_keys[d] or (step_asked and self.framed(d, key))

    def names_quoted(self, d: int, keys: Sequence[str]) -> frozenset[str]:
        """The keys of the quoted names of paragraph d's asides that a question (its `keys`,
        little words too) types whole, in order: «особенности при гибели когда срабатывают» asks
        about the abilities 535.7.3 names in «(после срабатывания особенностей “при гибели”)», not
        about its «погибает»."""
        return _typed_names(self.aside_names[d], keys)

    @functools.cached_property
    def _all_aside_names(self) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted({n for names in self.aside_names for n in names}))

    @functools.cached_property
    def _all_titles(self) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted({title for titles in self.cite_names for title in titles}))

    @functools.cached_property
    def _elsewhere_names(self) -> tuple[tuple[str, ...], ...]:
        stemmer = self.analyzer.stemmer()
        return tuple(
            tuple(self.analyzer.key(normalize(w), stemmer) for w in name)
            for name in self.asks.elsewhere_names
        )

    def elsewhere_typed(self, keys: Sequence[str]) -> frozenset[str]:
        """The keys of the names of abilities other sections treat (asks.yaml `elsewhere_names`:
        «защита от летающих») a question types whole."""
        return _typed_names(self._elsewhere_names, keys)

    def elsewhere_said(self, keys: Sequence[str]) -> tuple[str, ...]:
        """The names of abilities other sections treat that a question types whole, as the table
        writes them («защита от летающих» for «с защитой от летающих»)."""
        return tuple(
            " ".join(name)
            for name, stems in zip(self.asks.elsewhere_names, self._elsewhere_names, strict=True)
            if in_a_row(stems, keys)
        )

    def quoted_typed(self, keys: Sequence[str]) -> frozenset[str]:
        """The keys of every aside name of these rules a question types whole."""
        return _typed_names(self._all_aside_names, keys)

    def cited_typed(self, keys: Sequence[str]) -> frozenset[str]:
        """The keys of every cited section's title a question types (and the question's for them)."""
        return frozenset(k for title in self._all_titles for k in _typed_title(title, keys))

    def titles_cited(self, d: int, keys: Sequence[str]) -> frozenset[str]:
        """The keys of the titles of the sections paragraph d cites that a question types
        («эффекты, порождающие игродействия»: 534.7's «… описанном в 536. Эффекты, порождающие
        игродействия»), its «эффект» elsewhere notwithstanding."""
        return frozenset(k for title in self.cite_names[d] for k in _typed_title(title, keys))

    def names_written(self, d: int, keys: Sequence[str]) -> frozenset[str]:
        """The keys of the names a question types (an aside's quoted name, a cited section's
        title, an ability other sections treat) that paragraph d has as that name: it writes its
        words in a row, in its rule, an aside or an example («Особенности при гибели
        срабатывают…»; 534.7.2's example «выполнена как порождённое игродействие»), or cites the
        section; 211.4's «погибает» is no «при гибели», 535.7.3's «за бой» no «история боя»."""
        out: set[str] = set()
        rows = [[t.key for t in pc.tokens] for pc in self.pieces[d]]
        for name in self._all_aside_names + self._elsewhere_names:
            if in_a_row(name, keys) and any(in_a_row(name, row) for row in rows):
                out.update(name)
        for title in self._all_titles:
            typed = _typed_title(title, keys)
            if not typed:
                continue
            written = [k for k in keys if k in typed]
            if title in self.cite_names[d] or any(in_a_row(written, row) for row in rows):
                out.update(typed)
        return frozenset(out)

    def names_a_step(self, d: int, keys: Sequence[str]) -> frozenset[str]:
        """The keys of a step paragraph d names as when its rule holds that a question types as
        that step's name, its frame word and at least the next word in order («шаг применения
        эффектов замещения когда наступает»: 534.7's «на шаге применения эффектов замещения»,
        though the clause has «применения» and «замещения» elsewhere too)."""
        out: set[str] = set()
        for words in self.frame_names[d]:
            # the step's own name: the frame word and the genitive nouns after it, not the
            # subject or verb that follow («на Шаге рассадки симбиот помещается», 211.2)
            cut = next(
                (j for j in range(1, len(words)) if not morph.analyse(words[j][1]).genitive), len(words)
            )
            name = [k for k, _ in words[:cut]]
            for i in range(len(keys)):
                n = _run(keys, i, name, 0)
                if n > 1:
                    out.update(name[:n])
        return frozenset(out)

    def names_typed(self, d: int, keys: Sequence[str], about_a_step: bool) -> frozenset[str]:
        """The keys of the names a question (its `keys`) types that paragraph d has only in
        passing: the quoted names of its asides, the titles of the sections it cites, and, for a
        question about a step, its steps' names."""
        if not self.aside_names[d] and not self.cite_names[d] and not (about_a_step and self.frame_names[d]):
            return frozenset()
        named = self.names_quoted(d, keys) | self.titles_cited(d, keys)
        return named | self.names_a_step(d, keys) if about_a_step else named

    def asks_a_step(self, tokens: Sequence[Token]) -> bool:
        """Whether a question names a step as what it asks about («когда начинается шаг
        рассадки», «можно ли пропустить шаг рассадки»), not as when its doing is done («после
        шага рассадки», «в подфазу набора»): a frame word not after a preposition."""
        return any(
            t.key in self.frame_words and not _after_preposition(tokens, i) for i, t in enumerate(tokens)
        )

    def framed(self, d: int, key: str) -> bool:
        """Whether paragraph d's rule text has the key only in a step's name: the frame word, or a
        noun in the genitive after it («проверки защит»; not 211.1's «Шаге рассадки помещаются»,
        whose verb is the clause's statement). The dictionary is asked at query time (an index
        is built without it), once per word form in a process (morph.analyse)."""
        form = self.frame_keys[d].get(key)
        return form is not None and (key in self.frame_words or morph.analyse(form).genitive)


def build(paragraphs: Sequence[Paragraph], titles: Mapping[str, str], tables: Tables | None = None) -> Corpus:
    """Index the paragraphs with the tables (ours by default)."""
    tables = tables or load_tables()
    analyzer = Analyzer(tables)
    stemmer = analyzer.stemmer()
    first: dict[str, int] = {}
    for i, p in enumerate(paragraphs):
        first.setdefault(p.id, i)
    docs = postings.index_documents(paragraphs, analyzer, stemmer)
    frames = frozenset(analyzer.key(w, stemmer) for w in tables.asks.frames)
    step_names = [_frame_names(dp[0].tokens, dp[0].text, frames, analyzer.stopwords) for dp in docs.pieces]
    cards = postings.index_cards(tables, analyzer, stemmer, docs)
    jargon, broader = postings.jargon_table(tables, analyzer, stemmer, docs.postings)
    n_docs = max(1, len(paragraphs))
    df = {k: len(v) for k, v in docs.postings.items()}
    children: dict[int, list[int]] = {}
    for d, p in enumerate(paragraphs):
        parent = first.get(p.parent or "")
        if parent is not None and not paragraphs[parent].is_heading:
            children.setdefault(parent, []).append(d)
    frozen_postings = MappingProxyType({k: MappingProxyType(v) for k, v in docs.postings.items()})
    first_key: dict[str, list[int]] = {}
    for i, (seq, _, _) in enumerate(jargon):
        first_key.setdefault(seq[0], []).append(i)
    headings = {
        d: frozenset(t.key for t in docs.pieces[d][0].tokens if t.surface not in analyzer.stopwords)
        # a bare title; a heading with its own list (a glossary) is content
        for d, p in enumerate(paragraphs)
        if p.is_heading and not p.bullets and not p.examples
    }
    frozen_broader = MappingProxyType(broader)
    terms = postings.term_table(tables, analyzer, stemmer, first)
    # a term a clause defines is what it is about, though it quotes it in an aside (211.2's
    # «(“хозяином компаньона” или “хозяином паразита” …)»)
    defined = {(clause, frozenset(whole)) for _, _, clause, _, whole in terms}
    jargon_forms = MappingProxyType(postings.jargon_by_form(tables, analyzer, stemmer))
    return Corpus(
        analyzer=analyzer,
        paragraphs=tuple(paragraphs),
        titles=titles,
        first=MappingProxyType(first),
        child_docs=MappingProxyType({k: tuple(v) for k, v in children.items()}),
        avgdl=(sum(docs.lengths) / n_docs) or 1.0,
        lengths=tuple(docs.lengths),
        max_idf=math.log(1 + (n_docs + 0.5) / 0.5),
        postings=frozen_postings,
        idf=MappingProxyType({k: math.log(1 + (n_docs - n + 0.5) / (n + 0.5)) for k, n in df.items()}),
        pieces=tuple(tuple(dp) for dp in docs.pieces),
        surfaces=tuple(docs.surfaces),
        found=tuple(MappingProxyType(f) for f in docs.found),
        vocab=MappingProxyType(docs.vocab),
        key_form=MappingProxyType(postings.commonest_forms(docs.form_counts)),
        cards=tuple(cards),
        cards_typed=tuple(postings.card_words(tables, analyzer, stemmer)),
        jargon=tuple(jargon),
        jargon_first=MappingProxyType({k: tuple(v) for k, v in first_key.items()}),
        broader=frozen_broader,
        terms=tuple(terms),
        heading_keys=MappingProxyType(headings),
        text_keys=tuple(frozenset(t.key for t in dp[0].tokens) for dp in docs.pieces),
        sentence_keys=tuple(tuple(_sentence_keys(dp)) for dp in docs.pieces),
        example_names=tuple(_example_names(dp[1:]) for dp in docs.pieces),
        cut_from=tuple(_cut_from(p, dp[0]) for p, dp in zip(paragraphs, docs.pieces, strict=True)),
        phrases=_side_by_side(docs.pieces, analyzer.stopwords),
        cite_keys=tuple(
            _cross_reference_keys(p.id, dp[0].tokens, dp[0].text)
            for p, dp in zip(paragraphs, docs.pieces, strict=True)
        ),
        aside_keys=tuple(_aside_keys(dp[0].tokens, dp[0].text) for dp in docs.pieces),
        cite_names=tuple(
            _cited_titles(p.id, dp[0].tokens, dp[0].text, analyzer.stopwords)
            for p, dp in zip(paragraphs, docs.pieces, strict=True)
        ),
        aside_names=tuple(
            tuple(n for n in _aside_names(dp[0].tokens, dp[0].text) if (p.id, frozenset(n)) not in defined)
            for p, dp in zip(paragraphs, docs.pieces, strict=True)
        ),
        paren_keys=tuple(_aside_keys(dp[0].tokens, dp[0].text, _PARENTHESIS) for dp in docs.pieces),
        frame_keys=tuple(
            _frame_keys(dp[0].tokens, steps) for dp, steps in zip(docs.pieces, step_names, strict=True)
        ),
        frame_names=tuple(
            tuple(tuple((dp[0].tokens[i].key, dp[0].tokens[i].surface) for i in name) for name in steps)
            for dp, steps in zip(docs.pieces, step_names, strict=True)
        ),
        frame_words=frames,
        jargon_lemmas=jargon_forms,
        number_index=numbers.NumberIndex(paragraphs, [tuple(dp) for dp in docs.pieces]),
        linker=linking.Linker(
            frozen_postings,
            frozen_broader,
            analyzer,
            typos.TypoIndex(docs.vocab, stemmer, jargon_forms, analyzer.stopwords | tables.asks.light),
            jargon_forms,
            len(paragraphs),
            MappingProxyType(postings.jargon_stems(tables, analyzer, stemmer, docs.postings)),
            MappingProxyType(docs.vocab),
            tables.asks.light,
        ),
        asks=tables.asks,
        another_keys=frozenset(analyzer.key(w, stemmer) for w in tables.asks.another),
        translit=tables.translit,
    )


# Two words the rules write side by side in at least this many clauses name one thing («поле
# боя», «шаг рассадки»).
PHRASE_CLAUSES = 2


def _side_by_side(pieces: Sequence[Sequence[Piece]], stop: frozenset[str]) -> frozenset[tuple[str, str]]:
    clauses: dict[tuple[str, str], set[int]] = {}
    for d, doc_pieces in enumerate(pieces):
        for piece in doc_pieces:
            toks = piece.tokens
            for a, b in itertools.pairwise(toks):
                if a.surface in stop or b.surface in stop or not piece.text[a.end : b.start].isspace():
                    continue
                clauses.setdefault((a.key, b.key), set()).add(d)
    return frozenset(pair for pair, ds in clauses.items() if len(ds) >= PHRASE_CLAUSES)


def _sentence_keys(pieces: Sequence[Piece]) -> list[frozenset[str]]:
    """The keys of each sentence (or list item) of a paragraph's rule text and examples."""
    out: list[frozenset[str]] = []
    for piece in pieces:
        toks = piece.tokens
        for _, _, lo, hi in piece.bounds:
            if hi > lo:
                out.append(frozenset(t.key for t in toks[lo:hi]))
    return out


def _cut_from(p: Paragraph, rule: Piece) -> int:
    """Where the unfinished last sentence of a cut-off paragraph's rule text begins (a token
    index; len(tokens) when the text is whole): «Если бестелесный симбиот» of 211.5."""
    if not p.cut_off or not rule.bounds:
        return len(rule.tokens)
    return rule.bounds[-1][2]


# A quoted name in an example («воздействие “свет фонаря”») has at most this many words.
_NAME_WORDS = 5
_QUOTED = re.compile(r"[“\"«„]([^“”\"«»„]{1,60})[”\"»“]")


def _example_names(examples: Sequence[Piece]) -> frozenset[str]:
    """The keys of what a paragraph's examples are about: short quoted names («свет фонаря») and
    capitalised words inside a sentence, the cards («…паразитом Вайла», «Многоликий изгнал
    Сугеда»)."""
    out: set[str] = set()
    for piece in examples:
        for m in _QUOTED.finditer(piece.text):
            inside = [t.key for t in piece.tokens if m.start(1) <= t.start and t.end <= m.end(1)]
            if len(inside) <= _NAME_WORDS:
                out.update(inside)
        starts = {start for start, _, _, _ in piece.bounds}
        out.update(t.key for t in piece.tokens if t.start not in starts and piece.text[t.start].isupper())
    return frozenset(out)


# Words this close before a cited clause number are about the cited clause («в порядке,
# описанном в 536»), as is a parenthesis with a number («(см. 207. Рука)»).
_BEFORE_CITED = 4


def _cross_reference_keys(own: str, tokens: Sequence[Token], text: str = "") -> frozenset[str]:
    """The keys a rule text has only where it refers to another clause: the cited clause states
    them, this one only points there; inside a parenthesis, the whole parenthesis, the cited
    clause's title after its number too («(см. 537. История боя.)»), and nothing before it: the
    words a parenthesis follows are the clause's own statement, the parenthesis only says where
    to read more («помещаются в руку (см. 207. Рука)» states the hand, 535.5.1.2)."""
    cited = [i for i, t in enumerate(tokens) if _is_cited(t.surface, own)]
    if not cited:
        return frozenset()
    near: set[int] = set()
    for i in cited:
        start = tokens[i].start
        opened = text.rfind("(", 0, start)
        if opened >= 0 and text.rfind(")", 0, start) < opened:
            close = text.find(")", start)
            end = close if close >= 0 else len(text)
            near.update(j for j, t in enumerate(tokens) if opened < t.start and t.end <= end)
        else:
            near.update(range(max(0, i - _BEFORE_CITED), i + 1))
            near.update(_title_after(tokens, text, i))
    keys_near = {tokens[i].key for i in near}
    keys_elsewhere = {t.key for i, t in enumerate(tokens) if i not in near}
    return frozenset(keys_near - keys_elsewhere)


# A parenthesis that is an aside: it gives examples, or names a thing in quotes.
_ASIDE = re.compile(r"\([^()]*[“\"«„][^()]*\)")
# A parenthesis of examples or of an exception («(например, погибает, изгоняется…)», «(но не с
# передвижением)»), not one of the other cases a rule covers too («вызываемый (возрождаемый или
# инкарнирующий) симбиот», 211.8).
_PARENTHESIS = re.compile(r"\((?:например|но не)\b[^()]*\)", re.IGNORECASE)


def _aside_keys(tokens: Sequence[Token], text: str, aside: re.Pattern[str] = _ASIDE) -> frozenset[str]:
    """The keys a rule text has only in its parentheses of the kind `aside` matches: by default
    those that name a thing in quotes, «(после срабатывания особенностей “при гибели”)» of 535.7.3
    names abilities another part of the rules speaks of, and is not what the clause is about. A
    parenthesis of examples counts in passing only when a question has nothing else of the clause
    (_PARENTHESIS, `paren_keys`): 535.5.1.1's «(например, просмотр верхней карты, поиск верхнего
    существа…)» is what «вызов верхнего существа» asks."""
    spans = [m.span() for m in aside.finditer(text)]
    if not spans:
        return frozenset()
    inside = {t.key for t in tokens if any(a < t.start and t.end <= b for a, b in spans)}
    outside = {t.key for t in tokens if not any(a < t.start and t.end <= b for a, b in spans)}
    return frozenset(inside - outside)


# A step's name is at most this many words after its frame word («шаге применения эффектов замещения»).
_FRAME_NAME = 3
# A frame is said after a preposition at most this many words before its frame word («по
# окончании Шага рассадки», «На шаге»): «Шаг рассадки – это …» would be about the step.
_FRAME_AFTER = 2
_PREPOSITIONS = frozenset({"на", "в", "во", "до", "после", "по", "при", "перед", "с", "со", "к"})


def _aside_names(tokens: Sequence[Token], text: str) -> tuple[tuple[str, ...], ...]:
    """The quoted names inside a rule text's asides, each as the keys of its words."""
    names: list[tuple[str, ...]] = []
    for aside in _ASIDE.finditer(text):
        for m in _QUOTED.finditer(text, *aside.span()):
            a, b = m.span(1)
            keys = tuple(t.key for t in tokens if a <= t.start and t.end <= b)
            if len(keys) >= 2:  # one quoted word («“яд”») is a word, not a name to hold a question to
                names.append(keys)
    return tuple(names)


def _frame_names(
    tokens: Sequence[Token], text: str, frames: frozenset[str], stop: frozenset[str]
) -> list[list[int]]:
    """The steps a rule text says its statement holds in, each as its tokens' indices: a frame
    word after a preposition and up to _FRAME_NAME words after it, up to a punctuation mark or a
    little word («шаге проверки защит эффект»: Corpus.framed asks the dictionary which of those
    words are the name's genitive nouns)."""
    names: list[list[int]] = []
    for i, t in enumerate(tokens):
        if t.key not in frames or not _after_preposition(tokens, i):
            continue
        name = [i]
        for j in range(i + 1, min(len(tokens), i + 1 + _FRAME_NAME)):
            if tokens[j].surface in stop or re.search(r"[^\w\s]", text[tokens[j - 1].end : tokens[j].start]):
                break
            name.append(j)
        names.append(name)
    return names


def _frame_keys(tokens: Sequence[Token], names: Sequence[Sequence[int]]) -> Mapping[str, str]:
    """The keys a rule text has only in the names of its steps, each with its form there."""
    spans = {i for name in names for i in name}
    inside: dict[str, str] = {}
    for i in sorted(spans):
        inside.setdefault(tokens[i].key, tokens[i].surface)
    outside = {t.key for i, t in enumerate(tokens) if i not in spans}
    return MappingProxyType({k: f for k, f in inside.items() if k not in outside})


def _after_preposition(tokens: Sequence[Token], i: int) -> bool:
    return any(tokens[j].surface in _PREPOSITIONS for j in range(max(0, i - _FRAME_AFTER), i))


# A section's title and a typed word are one word when they begin with this many letters alike
# («порождённое» and «порождающие»: one root the stemmer cuts two ways).
_TITLE_ROOT = 5


def _cited_titles(
    own: str, tokens: Sequence[Token], text: str, stop: frozenset[str]
) -> tuple[tuple[str, ...], ...]:
    """The titles a rule text gives after the section numbers it cites («(см. 537. История боя.)»,
    «описанном в 536. Эффекты, порождающие игродействия..»): the words after a bare section number
    up to a full stop or a closing bracket. A clause's number («п.403.2. Игрок, взявший…») is
    followed by the next sentence, not a title."""
    titles = (
        tuple(tokens[j].key for j in _title_after(tokens, text, i) if tokens[j].surface not in stop)
        for i, t in enumerate(tokens)
        if _is_cited(t.surface, own)
    )
    return tuple(title for title in titles if title)


def _typed_names(names: Sequence[tuple[str, ...]], keys: Sequence[str]) -> frozenset[str]:
    return frozenset(k for name in names if in_a_row(name, keys) for k in name)


def in_a_row(words: Sequence[str], keys: Sequence[str]) -> bool:
    """Whether `keys` has `words` in a row (a name, a phrase)."""
    n = len(words)
    if not n or words[0] not in keys:  # most names are not typed at all: no walk for them
        return False
    return any(keys[i] == words[0] and _run(keys, i, words, 0) == n for i in range(len(keys) - n + 1))


def _run(a: Sequence[str], i: int, b: Sequence[str], s: int) -> int:
    """How many words `a` from i and `b` from s have alike in a row."""
    n = 0
    while i + n < len(a) and s + n < len(b) and a[i + n] == b[s + n]:
        n += 1
    return n


# Words that introduce a reference whose section number a title may follow («описанном в 536.
# Эффекты…», «см. 537. История боя.»).
_REFERRING = ("описан", "см", "указан", "согласн", "соответств")


def _title_after(tokens: Sequence[Token], text: str, i: int) -> list[int]:
    """The tokens of the title after a cited bare section number at token i, up to a full stop or
    a closing bracket: only where a reference introduces the number (inside a bracket, or after
    «описанном в», «см.»…) and a full stop and a capital follow it. None after a clause's number
    («п.403.2. Игрок…») or a number a sentence goes on after («Порядок описан в 300, игрок…»)."""
    if not tokens[i].surface.isdigit() or i + 1 >= len(tokens):
        return []
    after = text[tokens[i].end : tokens[i + 1].start]
    if "." not in after or ")" in after or not text[tokens[i + 1].start].isupper():
        return []
    opened = text.rfind("(", 0, tokens[i].start) > text.rfind(")", 0, tokens[i].start)
    if not opened and not any(tokens[j].surface.startswith(_REFERRING) for j in range(max(0, i - 3), i)):
        return []
    out: list[int] = []
    for j in range(i + 1, len(tokens)):
        between = text[tokens[j - 1].end : tokens[j].start]
        if j > i + 1 and ("." in between or ")" in between):
            break
        out.append(j)
    return out


def _typed_title(title: Sequence[str], keys: Sequence[str]) -> set[str]:
    """The title's keys and the question's keys for them, when the question types at least two
    words of the title in a row and in its order (each by its first _TITLE_ROOT letters)."""
    roots = [k[:_TITLE_ROOT] for k in title]
    typed = [k[:_TITLE_ROOT] for k in keys]
    for i in range(len(keys) - 1):
        for s in range(len(roots) - 1):
            n = _run(typed, i, roots, s)
            if n >= 2:
                return set(title[s : s + n]) | set(keys[i : i + n])
    return set()


def _is_cited(surface: str, own: str) -> bool:
    """A clause number other than the paragraph's own: «535.5.1.2», «403.2», «536»."""
    head = surface.split(".")[0]
    return (
        surface != own
        and head.isdigit()
        and len(head) in (3, 4)
        and (len(surface) == len(head) or "." in surface)
    )
