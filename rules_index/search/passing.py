"""Where a clause has a word of the question: in its rule, or only in passing (beside a
cross-reference, in an aside or a parenthesis of examples, in the name of the step its rule holds
in), or only in its example. The answerability decision counts a word said in passing for less
than one the clause states, and the evidence says where each word was found.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules_index.search import retrieval
from rules_index.search.corpus import Corpus
from rules_index.search.query import Query
from rules_index.search.retrieval import How

# Where a clause has a word so that the clause is about it (not a passing mention).
CENTRAL = frozenset({"text", "name"})


def where(c: Corpus, q: Query, d: int, wi: int, how: How) -> str:
    """«text» where paragraph d's rule says the word, «name» where a card or a quoted name in its
    example has it, «reference» where its rule has it only beside a cross-reference to another
    clause, «aside» only in a parenthesis of examples or of a quoted name, «frame» only in the name
    of the step its rule holds in (for a question about that step), «example» where only its
    example does."""
    if how[d][wi][0].how in ("card", "named"):
        return "name"  # a card is what its clause or example is about
    keys = matched_keys(q, d, wi, how)
    step = q.about_a_step
    named = c.names_typed(d, q.keys, q.about_a_step)
    if all(k in c.text_keys[d] and not c.in_passing(d, k, step) and k not in named for k in keys):
        return "text"
    if all(k in c.example_names[d] for k in keys):
        return "name"
    if not all(k in c.text_keys[d] for k in keys):
        return "example"
    if any(k in c.cite_keys[d] for k in keys):
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
        if retrieval.word_weight(c, q.words[wi]) < generic * c.max_idf:
            continue
        if where(c, q, d, wi, how) != "text":
            continue
        if not all(k in c.paren_keys[d] for k in matched_keys(q, d, wi, how)):
            return frozenset()
        inside.add(wi)
    return frozenset(inside)


def matched_keys(q: Query, d: int, wi: int, how: How) -> list[str]:
    """The keys word wi matched in paragraph d (every word of a multi-word meaning)."""
    qw = q.words[wi]
    if qw.together:
        return [a.key for a in qw.alts]
    return [how[d][wi][0].key]
