"""How the desk names the engine's clauses when the window reads other rules than the engine's.

Every rule handler cites the clause it implements in РП 4.1-2 (the embedded text). When the window
reads another version, `Citations` (over engine.implemented.VersionView) names each cited clause in
the loaded version's numbering («п. 211.7 (в РП 4.1-2 — 211.6)»), links it to its id there, flags a
clause whose text changed («пункт изменился: движок применяет текст РП 4.1-2»), and lists those
warnings for a verdict that rests on such clauses. Under the engine's own rules it is plain
`lexicon.cite` and nothing is flagged. No Streamlit here: the desk's pages render what it says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import engine
import lexicon
from engine import VersionView
from rules_index import ids


class Citations:
    """The engine's clause ids as the window's rules read them (`view` None: the engine's own rules)."""

    def __init__(self, view: VersionView | None = None) -> None:
        self.view = view if view is not None and not view.same_rules else None

    @property
    def other_rules(self) -> bool:
        """Whether the window reads rules whose text differs from the engine's."""
        return self.view is not None

    def cite(self, cid: str) -> str:
        """«п. 211.4», «допущение A7»; under other rules, in their numbering."""
        return self.view.cite(cid) if self.view is not None else lexicon.cite(cid)

    def note(self, cid: str) -> str | None:
        """The warning for a clause whose text changed (or is gone) in the loaded rules, else None."""
        return self.view.warning(cid) if self.view is not None else None

    def target(self, cid: str) -> str | None:
        """The id to open in the loaded rules: the clause itself, its new number, the first part of
        a split clause; None for an assumption or a clause the loaded rules no longer have."""
        if not ids.is_clause_id(cid):
            return None
        if self.view is None:
            return cid
        status = self.view.status(cid)
        if status is None:
            return cid
        return status.now[0] if status.now else None

    def targets(self, cids: Iterable[str]) -> list[str]:
        """Clause ids (a ruling's citations) in the loaded numbering, in order, each once; a clause
        the loaded rules no longer have keeps its id (the journal then refuses it, naming it)."""
        return list(dict.fromkeys(self.target(c) or c for c in cids))

    def verdict_notes(self, outcome: engine.Outcome) -> list[str]:
        """«п. 211.5: пункт изменился: движок применяет текст РП 4.1-2» for each clause the verdict
        rests on (those that forbid it, and every step of its trace) whose text changed."""
        if self.view is None:
            return []
        out: list[str] = []
        for cid in dict.fromkeys([*outcome.forbidden_by, *_clauses(outcome.trace)]):
            note = self.note(cid)
            if note:
                out.append(f"{self.cite(cid)}: {note}")
        return out

    def written_for(self) -> str:
        """«РП 4.1-2»: the rules the engine implements."""
        return self.view.written_for if self.view is not None else ""

    def loaded_name(self) -> str:
        return self.view.loaded_name if self.view is not None else ""


def _clauses(steps: Sequence[engine.TraceStep]) -> Iterator[str]:
    for step in steps:
        if step.clause:
            yield step.clause
        yield from _clauses(step.children)
