"""Finding a card: by name (typos, «ё», apostrophes, hyphens, part of a name), class, element,
set, cost and kind.

A name is compared as a search key: folded (lexicon.fold: case, «ё», typographic apostrophes),
apostrophes dropped and hyphens read as spaces, so «Ар Гхан», «аргхан» and «Ар’Гхан» meet «Ар'Гхан».
An exact name ranks first, then a name that starts with the query, then one with a word that
does, then one containing it, then a near spelling of the name or of one of its words
(rapidfuzz). `Finder` is built once per base and only read afterwards.
"""

from __future__ import annotations

import bisect
import dataclasses
import re

import rapidfuzz.fuzz
import rapidfuzz.process

import lexicon
from cardbase.model import CardBase, CardRecord

# Below this similarity (rapidfuzz ratio, 0–100) a name or a word of it is not offered as a near
# spelling: one typo in a word of five letters scores about 80, two in a long name about 85.
FUZZY_CUTOFF = 75.0
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
    """The search over one base (immutable after construction).

    Names that contain the query are found by `str.find` over all keys joined in one string (C
    speed, no Python loop over the base); near spellings by rapidfuzz over every whole name and
    every word of a name (so «паладн» meets «Светлый паладин» through «паладин»).
    """

    def __init__(self, base: CardBase) -> None:
        self.base = base
        self._records = base.records
        self._keys = tuple(key(r.name) for r in base.records)
        self._compact = tuple(k.replace(" ", "") for k in self._keys)
        # the card the desk calls by that name wins a tie of two printed with one name
        self._lib_keys = tuple(key(r.library_name or r.name) for r in base.records)
        self._blobs = tuple(_Blob(keys) for keys in (self._keys, self._compact))
        choices: list[str] = []
        owners: list[int] = []
        for i, k in enumerate(self._keys):
            for piece in dict.fromkeys((k, *k.split())):
                choices.append(piece)
                owners.append(i)
        self._choices = tuple(choices)
        self._owners = tuple(owners)

    def find(self, query: str = "", filters: Filters | None = None, limit: int = 20) -> list[Hit]:
        """The cards that answer `query` within `filters`, best first (at most `limit`)."""
        filters = filters or Filters()
        keep = None if filters.empty else {i for i, r in enumerate(self._records) if filters.keeps(r)}
        q = key(query)
        if not q:
            pool = range(len(self._records)) if keep is None else sorted(keep)
            return [Hit(self._records[i], 0.0, "filter") for i in list(pool)[:limit]]
        qc = q.replace(" ", "")
        scored: dict[int, tuple[float, str]] = {}
        for i in self._blobs[0].containing(q) | self._blobs[1].containing(qc):
            if keep is not None and i not in keep:
                continue
            k, c = self._keys[i], self._compact[i]
            slack = min(len(k) - len(q), 40) / 10
            if k == q or c == qc:
                scored[i] = (100.0 if self._lib_keys[i] == k else 99.5, "exact")
            elif k.startswith(q) or c.startswith(qc):
                scored[i] = (95.0 - slack, "prefix")
            elif f" {q}" in f" {k}":
                scored[i] = (90.0 - slack, "word")
            else:
                scored[i] = (85.0 - slack, "part")
        if len(scored) < limit:
            found = rapidfuzz.process.extract(
                q,
                self._choices,
                scorer=rapidfuzz.fuzz.ratio,
                score_cutoff=FUZZY_CUTOFF,
                limit=max(limit * 4, 40) if keep is None else len(self._choices),
            )
            for _choice, score, j in found:
                i = self._owners[j]
                if i in scored or (keep is not None and i not in keep):
                    continue
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


class _Blob:
    """Keys joined by newlines, to find every key containing a text with `str.find`."""

    def __init__(self, keys: tuple[str, ...]) -> None:
        self._text = "\n".join(keys) + "\n"
        self._starts: list[int] = []
        at = 0
        for k in keys:
            self._starts.append(at)
            at += len(k) + 1

    def containing(self, text: str) -> set[int]:
        found: set[int] = set()
        if not text or "\n" in text:
            return found
        at = self._text.find(text)
        while at != -1:
            i = bisect.bisect_right(self._starts, at) - 1
            found.add(i)
            at = self._text.find(text, self._starts[i + 1] if i + 1 < len(self._starts) else len(self._text))
        return found
