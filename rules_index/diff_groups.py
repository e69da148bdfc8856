"""A diff as the «Что изменилось» page lists it: section by section, the changes one by one, a run
of clauses that only got new numbers folded into one block, and the unchanged clauses of a section
as one block (left out when only the changes are asked for). No Streamlit here: the page renders
the items this module groups.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_index.diff import Change, RulesDiff

ALL_SECTIONS = "все разделы"
# A run of at least this many renumbered-only clauses is folded into one block.
FOLD_RUN = 3


@dataclass(frozen=True)
class Same:
    """Unchanged clauses of one section, shown folded as one block."""

    section: str
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Moved:
    """A run of clauses that only got new numbers (same text, no citation to look at), one block."""

    section: str
    changes: tuple[Change, ...]


Item = Change | Same | Moved


def plain_move(c: Change) -> bool:
    """Renumbered with the same text and no citation inside that changed with it."""
    return c.kind == "renumbered" and not c.refs


def folded(changes: list[Change], section: str) -> list[Change | Moved]:
    """The changes in order, each run of FOLD_RUN or more plain moves as one Moved block."""
    out: list[Change | Moved] = []
    run: list[Change] = []
    for c in [*changes, None]:
        if c is not None and plain_move(c):
            run.append(c)
            continue
        if len(run) >= FOLD_RUN:
            out.append(Moved(section, tuple(run)))
        else:
            out.extend(run)
        run = []
        if c is not None:
            out.append(c)
    return out


def items(result: RulesDiff, only_changes: bool, section: str = ALL_SECTIONS) -> list[Item]:
    """What the page lists for `section` (or every section), in the rules' order."""
    out: list[Item] = []
    for sec, changes in result.sections():
        if section != ALL_SECTIONS and sec != section:
            continue
        out.extend(folded([c for c in changes if c.changed], sec))
        same = tuple(cid for c in changes if not c.changed for cid in c.new)
        if same and not only_changes:
            out.append(Same(sec, same))
    return out
