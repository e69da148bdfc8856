"""Clause numbers in a search query: the clause first, then its subclauses, then the clauses
citing it; a range lists every clause in it; a number the rules lack offers its neighbours.
The grammar of a typed number is rules_index.ids.typed_refs (one for the whole product).

Numbers typed into links (`whole`): ASCII digits within bounds, or nothing. `str.isdigit()` says
yes to «²», «⑦» and «٣», which `int()` then refuses or reads as a digit of another script, and a
number of 26 digits is no ruling's number and overflows SQLite's integers; a page asks for the
number with its bounds and treats None as «no such item».
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from rules_index import ids
from rules_index.model import Paragraph
from rules_index.snippet import Piece

NUMBER_BONUS = 1000.0


class Typed(NamedTuple):
    """A clause number in a query: as typed, its id, the paragraphs it puts first with their
    bonus, how it matched (NumberIndex.how, decided once) and a range's last id."""

    typed: str
    cid: str
    targets: list[tuple[int, float]]
    how: str
    last: str | None = None


class NumberIndex:
    """Where each clause id stands in one corpus; read-only after it is built."""

    _paragraphs: tuple[Paragraph, ...]
    _pieces: tuple[tuple[Piece, ...], ...]
    _first: Mapping[str, int]
    _ids_sorted: tuple[str, ...]

    def __init__(self, paragraphs: Sequence[Paragraph], pieces: Sequence[tuple[Piece, ...]]) -> None:
        first: dict[str, int] = {}
        for i, p in enumerate(paragraphs):
            first.setdefault(p.id, i)
        set_ = object.__setattr__
        set_(self, "_paragraphs", tuple(paragraphs))
        set_(self, "_pieces", tuple(pieces))
        set_(self, "_first", MappingProxyType(first))
        set_(self, "_ids_sorted", tuple(sorted(first, key=ids.sort_key)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("NumberIndex неизменяем после построения")

    def find(self, query: str) -> tuple[list[Typed], str]:
        """Clause numbers in the query as (typed text, id, targets), and the query with them
        blanked out (same length, so token offsets still point into the query)."""
        found: list[Typed] = []
        rest = query
        for ref in ids.typed_refs(query):
            cid = ref.first
            if cid not in self._first:  # «210.11a» typed on a Latin keyboard means «210.11а»
                cid = next((c for c in ids.lookalikes(cid) if c in self._first), cid)
            # A bare number is a clause when it has a section's three digits («536») or the
            # rules hold it; «1 раз» is not.
            if not (ref.lead or "." in cid or cid in self._first or len(cid) >= 3):
                continue
            typed = query[ref.start : ref.end].strip().rstrip(".,?!")
            targets = self.range_targets(cid, ref.last) if ref.last else self.targets(cid)
            found.append(Typed(typed, cid, targets, self.how(cid, ref.last), ref.last))
            rest = rest[: ref.start] + " " * (ref.end - ref.start) + rest[ref.end :]
        return found, rest

    def range_targets(self, first: str, last: str) -> list[tuple[int, float]]:
        """Every clause from `first` to `last` in numeric order («пп. 211.3–211.5»)."""
        inside = within(self._ids_sorted, first, last)
        if not inside:
            return self.targets(first) + self.targets(last)
        return [(self._first[c], NUMBER_BONUS - i) for i, c in enumerate(inside)]

    def present(self, cid: str, last: str | None = None) -> bool:
        """Whether the corpus has clause cid or a subclause of it (a section without its heading),
        or, for a range to `last` («534.3–534.5»), a clause inside it."""
        if cid in self._first or any(p.id.startswith(cid + ".") for p in self._paragraphs):
            return True
        return bool(last and within(self._ids_sorted, cid, last))

    def citing(self, cid: str) -> list[int]:
        """The paragraphs whose text or examples cite clause cid."""
        return [
            i
            for i, p in enumerate(self._paragraphs)
            if any(cid in pc.text and cid in ids.parse_typed(pc.text) for pc in self._pieces[i])
        ]

    def how(self, cid: str, last: str | None = None) -> str:
        """How a typed clause number matched: «number» (the clause or its subclauses, a range with
        clauses inside), «cited» (the loaded rules lack it; clauses cite it), «absent» (they lack
        it; its nearest numbers)."""
        if self.present(cid, last):
            return "number"
        return "cited" if self.citing(cid) else "absent"

    def absent_reason(self, typed: Iterable[Typed]) -> str:
        """Why typed numbers the loaded rules lack answer nothing: «пункта 536 нет в загруженных
        правилах, на него ссылается п. 534.7»; «пунктов 534.1–534.3 нет в загруженных правилах»."""
        parts = []
        for cid, last in dict.fromkeys((n.cid, n.last) for n in typed):
            if last:
                parts.append(f"пунктов {cid}–{last} нет в загруженных правилах")
                continue
            citing = list(dict.fromkeys(self._paragraphs[d].id for d in self.citing(cid)))
            said = f"пункта {cid} нет в загруженных правилах"
            if citing:
                which = ", ".join(f"п. {c}" for c in citing[:3])
                said += (", на него ссылается " if len(citing) == 1 else ", на него ссылаются ") + which
            parts.append(said)
        return "; ".join(parts)

    def targets(self, cid: str) -> list[tuple[int, float]]:
        """The clause itself first, then its subclauses, then clauses that cite it."""
        out: list[tuple[int, float]] = []
        if cid in self._first:
            out.append((self._first[cid], NUMBER_BONUS))
        below = [i for i, p in enumerate(self._paragraphs) if p.id.startswith(cid + ".")]
        for rank, d in enumerate(sorted(below, key=lambda i: ids.sort_key(self._paragraphs[i].id))):
            out.append((d, NUMBER_BONUS / 2 - rank))
        for d in self.citing(cid):
            if self._paragraphs[d].id != cid:
                out.append((d, NUMBER_BONUS / 4))
        if not out:
            # No such clause: offer the nearest existing numbers of the same section so the
            # judge sees where it would be («534.2» → 534.4). A number from no section of the
            # corpus («2024», «1234.5») has no neighbours worth offering.
            wanted = ids.sort_key(cid)
            same_section = [o for o in self._first if _shared(ids.sort_key(o), wanted) >= 1]
            near = sorted(
                same_section,
                key=lambda other: (
                    -_shared(ids.sort_key(other), wanted),
                    abs(len(ids.sort_key(other)) - len(wanted)),
                    _gap(ids.sort_key(other), wanted),
                ),
            )[:3]
            out = [(self._first[o], NUMBER_BONUS / 8 - i) for i, o in enumerate(near)]
        return out


def within(sorted_ids: Iterable[str], first: str, last: str) -> list[str]:
    """The ids from `first` to `last` (either order) in numeric order: a typed range «211.3–211.5»."""
    lo, hi = sorted((ids.sort_key(first), ids.sort_key(last)))
    return [c for c in sorted_ids if lo <= ids.sort_key(c) <= hi]


def _shared(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _gap(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = _shared(a, b)
    return abs(a[n] - b[n]) if n < min(len(a), len(b)) else 0


# What may stand between the numbers of a typed list: separators and «и» («211.4 и 211.6»).
_BETWEEN = re.compile(r"(?:[\s,;.:]|\bи\b)*", re.IGNORECASE)


def typed_list(clause_ids: Iterable[str], typed: str) -> list[str] | None:
    """The clauses a typed number, range or list names, in order, each once (a range: each clause
    of `clause_ids` inside it, or its two ends when the rules have none); None when the text is not
    only numbers («3 ываыва», «симбиот»), so that a word with a digit is never taken for a number."""
    refs = ids.typed_refs(typed)
    if not refs:
        return None
    rest, at = [], 0
    for ref in refs:
        rest.append(typed[at : ref.start])
        at = ref.end
    rest.append(typed[at:])
    if not all(_BETWEEN.fullmatch(part) for part in rest):
        return None
    known = sorted(set(clause_ids), key=ids.sort_key)
    out: list[str] = []
    for ref in refs:
        if ref.last is None:
            out.append(ref.first)
            continue
        out.extend(within(known, ref.first, ref.last) or [ref.first, ref.last])
    return list(dict.fromkeys(out))


# -- numbers in links -------------------------------------------------------------------------

# SQLite's INTEGER: the largest whole number a journal's id can be.
INT64_MAX = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]+")


def whole(text: object, low: int = 0, high: int = INT64_MAX) -> int | None:
    """The whole number `text` writes in ASCII digits (surrounding spaces allowed), if it lies
    in [low, high]; None for anything else: other scripts' digits, signs, fractions, too many digits."""
    if not isinstance(text, str):
        return None
    text = text.strip(" ")
    if len(text) > len(str(high)) or _ASCII_DIGITS.fullmatch(text) is None:
        return None
    value = int(text)
    return value if low <= value <= high else None
