"""Where a clause has a word of the question: in its rule, or only in passing (beside a
cross-reference, in an aside or a parenthesis of examples, in the name of the step its rule holds
in), or only in its example. The answerability decision counts a word said in passing for less
than one the clause states, and the evidence (`evidence`, `report`: split from answerability.py)
says where and how each typed word was found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules_index import numbers
from rules_index.model import Evidence, QueryWord
from rules_index.search import retrieval
from rules_index.search.corpus import Corpus
from rules_index.search.query import Query, QWord
from rules_index.search.retrieval import How
from rules_index.text import fold_lookalikes, normalize

# Where a clause has a word so that the clause is about it (not a passing mention).
CENTRAL = frozenset({"text", "name"})


def where(c: Corpus, q: Query, d: int, wi: int, how: How) -> str:
    """«text» where paragraph d's rule says the word, «name» where a card or a quoted name in its
    example has it, «reference» where its rule has it only beside a cross-reference to another
    clause (or in the cited section's title the question types), «aside» only in a parenthesis
    that quotes a name or in the quoted name the question types, «frame» only in the name of the
    step its rule holds in (for a question about that step), «example» where only its example
    does."""
    memo = q.found_where
    said = memo.get((d, wi))
    if said is None:
        said = memo[(d, wi)] = _where(c, q, d, wi, how)
    return said


def _where(c: Corpus, q: Query, d: int, wi: int, how: How) -> str:
    if how[d][wi][0].how in ("card", "named"):
        return "name"  # a card is what its clause or example is about
    keys = matched_keys(q, d, wi, how)
    named = c.names_typed(d, q.keys, q.about_a_step)
    if all(k in c.text_keys[d] and not c.in_passing(d, k, q.about_a_step) and k not in named for k in keys):
        return "text"
    if all(k in c.example_names[d] for k in keys):
        return "name"
    if not all(k in c.text_keys[d] for k in keys):
        return "example"
    if any(k in c.cite_keys[d] or k in c.titles_cited(d, q.keys) for k in keys):
        return "reference"
    asides = c.names_quoted(d, q.keys)
    return "aside" if any(k in c.aside_keys[d] or k in asides for k in keys) else "frame"


def only_in_parentheses(
    c: Corpus, q: Query, matched: Iterable[int], d: int, how: How, generic: float
) -> frozenset[int]:
    """The question's words paragraph d's rule says only inside its parentheses, when every word
    it has of the question (but those most clauses imply, of a rarity below `generic`) is there: 211.4 names
    «(например, погибает, изгоняется, возвращается в колоду)» as the ways a host leaves the
    battle, and does not answer «изгнанную карту можно вернуть». One word outside is what the
    clause is about, the parenthesis then its detail («вызов верхнего существа», 535.5.1.1)."""
    inside: set[int] = set()
    for wi in matched:
        if common(c, q, wi, generic):
            continue
        if where(c, q, d, wi, how) != "text":
            continue
        if not all(k in c.paren_keys[d] for k in matched_keys(q, d, wi, how)):
            return frozenset()
        inside.add(wi)
    return frozenset(inside)


def common(c: Corpus, q: Query, wi: int, generic: float) -> bool:
    """Whether the question's word wi is so common in the rules (its weight below `generic` of the
    rarest word's) that most clauses imply it where they do not say it («существо», «карта»)."""
    return retrieval.word_weight(c, q.words[wi]) < generic * c.max_idf


def matched_keys(q: Query, d: int, wi: int, how: How) -> list[str]:
    """The keys word wi matched in paragraph d (every word of a multi-word meaning)."""
    qw = q.words[wi]
    if qw.together:
        return [a.key for a in qw.alts]
    return [how[d][wi][0].key]


def evidence(
    c: Corpus, q: Query, d: int, how: How, covered: Mapping[int, set[int]], generic: float
) -> tuple[Evidence, ...]:
    """Each meaningful typed word as evidence for paragraph d: how it matched there, or how it
    matched elsewhere (no `where`), or «» when the text lacks it (`generic`: only_in_parentheses)."""
    out: list[Evidence] = []
    found_d = c.found[d]
    whole = {wi for got in covered.values() for wi in got}
    aside = only_in_parentheses(
        c, q, (wi for wi in covered.get(d, ()) if q.words[wi].meaningful), d, how, generic
    )
    for wi, qw in enumerate(q.words):
        if not qw.meaningful:
            continue
        if wi not in covered.get(d, ()):
            present = [a for a in qw.alts if a.key in c.postings]
            out.append(Evidence(qw.word, present[0].how if present and wi in whole else ""))
            continue
        alt = how[d][wi][0]
        said = "aside" if wi in aside else where(c, q, d, wi, how)
        kind = alt.how
        if kind == "form" and fold_lookalikes(normalize(qw.word)) in c.surfaces[d]:
            kind = "exact"
        elif kind == "prefix":
            kind = "form"
        label = alt.label if alt.how in ("card", "named") or qw.together else found_d.get(alt.key, alt.label)
        out.append(Evidence(qw.word, kind, (label,) if label else (), said, said in CENTRAL))
    return tuple(sorted(out, key=lambda e: q.text.find(e.word)))


def report(
    c: Corpus,
    query: str,
    found_numbers: Sequence[numbers.Typed],
    words: Sequence[QWord],
    covered: Mapping[int, set[int]],
) -> tuple[QueryWord, ...]:
    """What each typed word matched anywhere in these rules, in the order typed; a jargon
    meaning no clause has whole («ходит первым» → первый ход) matched nothing."""
    whole = {wi for got in covered.values() for wi in got}
    out: list[tuple[int, QueryWord]] = []
    for n in found_numbers:
        found = tuple(dict.fromkeys(c.paragraphs[d].id for d, _ in n.targets))
        out.append((query.find(n.typed), QueryWord(n.typed, n.how if found else "", found)))
    for wi, qw in enumerate(words):
        # an ordinal matches where it is said of the thing typed (ranking.astray_ordinals)
        alone = not qw.together and not (qw.info is not None and qw.info.ordinal)
        present = [a for a in qw.alts if a.key in c.postings] if wi in whole or alone else []
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
        labels = [a.label or c.key_form.get(a.key, a.key) for a in present if a.how == kind]
        if kind == "form" and fold_lookalikes(normalize(qw.word)) in c.vocab:
            kind = "exact"
        found = tuple(dict.fromkeys(labels))
        out.append((query.find(qw.word), QueryWord(qw.word, kind, found, qw.like if kind == "akin" else "")))
    return tuple(w for _, w in sorted(out, key=lambda pw: pw[0]))
