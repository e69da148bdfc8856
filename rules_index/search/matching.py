"""Small matching rules of the search: a misspelt card name, a term's words in its order."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence

from rapidfuzz.distance import OSA

_LIST_BREAK = re.compile(r",|;|(?<!\w)(?:и|или|либо)(?!\w)", re.IGNORECASE)


def misspelt(
    surfaces: Sequence[str], keys: Sequence[str], alias: Sequence[str], seq: Sequence[str]
) -> list[int]:
    """Starts of a card name typed one letter off per word («карлик унт», «булбагр»): in a name
    of several words one of them typed right; a one-word name of five letters or more."""
    n = len(alias)
    if n != len(seq) or (n == 1 and len(alias[0]) < 5):
        return []
    out: list[int] = []
    for start in range(len(surfaces) - n + 1):
        window = range(start, start + n)
        exact = [keys[i] == seq[i - start] for i in window]
        if all(exact) or (n > 1 and not any(exact)):
            continue
        if all(
            ok or (len(word) >= 3 and OSA.distance(surfaces[i], word) <= 1)
            for i, ok, word in zip(window, exact, alias, strict=True)
        ):
            out.append(start)
    return out


def in_order(query: str, order: Sequence[str], spans: Mapping[str, set[tuple[int, int]]]) -> bool:
    """The term's words stand in the query in the term's order, with no «и», «или» or comma
    between them (then they name two things, not one)."""
    places = [min(spans[k]) for k in dict.fromkeys(order)]
    if any(b[0] < a[0] for a, b in itertools.pairwise(places)):
        return False
    return not any(_LIST_BREAK.search(query, a[1], b[0]) for a, b in itertools.pairwise(places))
