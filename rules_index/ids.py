"""The one grammar of citation ids: rules clauses («211.3.1») and the engine's assumptions («A7»).

Every module that recognises, orders or climbs clause ids uses this one: the parser, the index,
search, the CLIs, the engine's rule registry, the scenario format and the rulings journal.
Ids stay strings everywhere; `sort_key` is only for ordering («211.10» after «211.9»).
"""

from __future__ import annotations

import re

# A clause number: «211», «211.3.1», «535.5.1.2». The first part never starts with 0, so dates
# such as «09.11.2024» are not mistaken for numbers.
CLAUSE_PATTERN = r"[1-9]\d{0,3}(?:\.\d{1,4})*"
# An assumption of the engine (engine/data/assumptions.yaml): «A1», «A13».
ASSUMPTION_PATTERN = r"A[1-9]\d{0,3}"

_CLAUSE_RE = re.compile(rf"{CLAUSE_PATTERN}")
_ASSUMPTION_RE = re.compile(rf"{ASSUMPTION_PATTERN}")


def is_clause_id(text: object) -> bool:
    """A well-formed clause id (not whether the rules hold it): «211.10» yes, «211.» or «A7» no."""
    return isinstance(text, str) and _CLAUSE_RE.fullmatch(text) is not None


def is_assumption_id(text: object) -> bool:
    """An assumption id of the engine: «A7»."""
    return isinstance(text, str) and _ASSUMPTION_RE.fullmatch(text) is not None


def is_citation_id(text: object) -> bool:
    """What a trace step, a scenario or a ruling may cite: a clause id or an assumption id."""
    return is_clause_id(text) or is_assumption_id(text)


def parent(cid: str) -> str | None:
    """«211.3.1» → «211.3»; «211» → None."""
    head, dot, _ = cid.rpartition(".")
    return head if dot else None


def level(cid: str) -> int:
    """Number of parts: «211» is level 1, «211.3.1» level 3."""
    return cid.count(".") + 1


def section(cid: str) -> str:
    """The section a clause belongs to: «211.3.1» → «211»."""
    return cid.split(".", 1)[0]


def sort_key(cid: str) -> tuple[int, ...]:
    """Numeric order of clause ids: «211.10» sorts after «211.9». Raises ValueError on a non-id."""
    return tuple(int(part) for part in cid.split("."))


def citation_sort_key(cid: str) -> tuple[int, tuple[int, ...]]:
    """Clauses in numeric order, then assumptions in theirs (A2 before A10)."""
    if is_assumption_id(cid):
        return (1, (int(cid[1:]),))
    return (0, sort_key(cid))
