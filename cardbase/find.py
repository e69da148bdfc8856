"""Finding a card: by name (typos, «ё», apostrophes, hyphens, part of a name), class, element,
set, cost and kind.

A name is compared as a search key: folded (lexicon.fold: case, «ё», typographic apostrophes),
apostrophes dropped and hyphens read as spaces, so «Ар Гхан», «аргхан» and «Ар’Гхан» meet «Ар'Гхан».
An exact name ranks first, then a name that starts with the query, then one with a word that
does, then one containing it, then a near spelling (rapidfuzz, WRatio). `Finder` is built once per
base and only read afterwards.
"""

from __future__ import annotations

import dataclasses
import re

import rapidfuzz.fuzz
import rapidfuzz.process

import lexicon
from cardbase.model import CardBase, CardRecord

# Below this WRatio a name is not offered as a near spelling (a typo or two in a short name pass).
FUZZY_CUTOFF = 72.0
_NON_WORD = re.compile(r"[^\w]+")

HOW = {
    "exact": "точное название",
    "prefix": "начало названия",
    "word": "начало слова в названии",
    "part": "часть названия",
    "typo": "похожее написание",
    "filter": "по отбору",
}


def key(text: str) -> str:
    """A name as search compares it: folded, apostrophes gone, other punctuation a space."""
    folded = lexicon.fold(text).replace("'", "").replace("`", "")
    return " ".join(_NON_WORD.sub(" ", folded).split())


@dataclasses.dataclass(frozen=True, slots=True)
class Hit:
    record: CardRecord
    score: float
    how: str  # a HOW code


@dataclasses.dataclass(frozen=True, slots=True)
class Filters:
    """What a search keeps: each field empty keeps everything. `cost` is (lowest, highest)."""

    element: str = ""
    card_class: str = ""
    set_id: str = ""
    cost: tuple[int, int] | None = None
    kind: str = ""  # a subtype code, or artifact / terrain

    def keeps(self, r: CardRecord) -> bool:
        if self.element and self.element not in r.elements:
            return False
        if self.card_class and lexicon.fold(self.card_class) not in {lexicon.fold(c) for c in r.classes}:
            return False
        if self.set_id and r.set_id != self.set_id:
            return False
        if self.cost is not None and (r.cost is None or not self.cost[0] <= r.cost <= self.cost[1]):
            return False
        return not self.kind or self.kind in (r.subtype, r.type)

    @property
    def empty(self) -> bool:
        return self == Filters()


def parse_cost(text: str) -> tuple[int, int] | None:
    """«3» → (3, 3); «3-5», «3–5», «3..5» → (3, 5); «» → None. Raises ValueError (Russian)."""
    t = text.strip()
    if not t:
        return None
    m = re.fullmatch(r"(\d+)\s*(?:(?:-|–|—|\.\.)\s*(\d+))?", t)
    if m is None:
        raise ValueError(f"стоимость «{text}»: нужно число (3) или диапазон (3-5)")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    return (min(lo, hi), max(lo, hi))


class Finder:
    """The search over one base (immutable after construction)."""

    def __init__(self, base: CardBase) -> None:
        self.base = base
        self._records = base.records
        self._keys = tuple(key(r.name) for r in base.records)
        self._compact = tuple(k.replace(" ", "") for k in self._keys)
        self._words = tuple(tuple(k.split()) for k in self._keys)
        # the card the desk calls by that name wins a tie of two printed with one name
        self._lib_keys = tuple(key(r.library_name or r.name) for r in base.records)

    def find(self, query: str = "", filters: Filters | None = None, limit: int = 20) -> list[Hit]:
        """The cards that answer `query` within `filters`, best first (at most `limit`)."""
        filters = filters or Filters()
        pool = [i for i, r in enumerate(self._records) if filters.keeps(r)]
        q = key(query)
        if not q:
            return [Hit(self._records[i], 0.0, "filter") for i in pool[:limit]]
        qc = q.replace(" ", "")
        scored: dict[int, tuple[float, str]] = {}
        for i in pool:
            k, c = self._keys[i], self._compact[i]
            if k == q or c == qc:
                scored[i] = (100.0 if self._lib_keys[i] == k else 99.5, "exact")
            elif k.startswith(q) or c.startswith(qc):
                scored[i] = (95.0 - min(len(k) - len(q), 40) / 10, "prefix")
            elif any(w.startswith(q) for w in self._words[i]):
                scored[i] = (90.0 - min(len(k) - len(q), 40) / 10, "word")
            elif q in k or qc in c:
                scored[i] = (85.0 - min(len(k) - len(q), 40) / 10, "part")
        rest = [i for i in pool if i not in scored]
        if rest and len(scored) < limit:
            choices = {i: self._keys[i] for i in rest}
            found = rapidfuzz.process.extract(
                q, choices, scorer=rapidfuzz.fuzz.WRatio, score_cutoff=FUZZY_CUTOFF, limit=limit
            )
            for _choice, score, i in found:
                scored[i] = (float(score) * 0.8, "typo")
        order = sorted(scored, key=lambda i: (-scored[i][0], self._keys[i]))
        return [Hit(self._records[i], scored[i][0], scored[i][1]) for i in order[:limit]]

    def best(self, name: str) -> CardRecord | None:
        """The one card a typed name means: the exact name, else the best hit if it is clear."""
        hits = self.find(name, limit=2)
        if not hits:
            return None
        if hits[0].how == "exact" or len(hits) == 1 or hits[0].score - hits[1].score >= 5:
            return hits[0].record
        return None
