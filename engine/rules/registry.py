"""How a rule handler declares the clauses it implements.

`@rule("211.4", "211.5")` stores the ids on the function itself (no registry in a module
global); `handlers_by_clause()` in engine.rules reads them from the rule modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
CLAUSE_RE = re.compile(r"^\d{3}(\.\d+)*$")


def rule(*clauses: str) -> Callable[[F], F]:
    """Declare the clause ids a handler implements. Bad ids fail at import, naming the handler."""

    def mark(fn: F) -> F:
        for cid in clauses:
            if not isinstance(cid, str) or not CLAUSE_RE.match(cid):
                raise ValueError(f"{fn.__module__}.{fn.__name__}: «{cid}» — не номер пункта правил")
        fn.__clauses__ = tuple(clauses)  # type: ignore[attr-defined]
        return fn

    return mark


def clauses_of(fn: object) -> tuple[str, ...]:
    value = getattr(fn, "__clauses__", ())
    return tuple(value) if isinstance(value, tuple) else ()
