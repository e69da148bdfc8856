"""Rulings whose cited clauses changed in another rules version — read-only, the journal untouched.

A ruling cites clause ids of the rules version it names (`rules_version`, e.g. «РП 4.1-2»). Given
the diff from that version to another (rules_index.diff), `ruling_fates` says what became of each
cited clause that changed, moved, split or went away, and `affected_rulings` lists every such
ruling of the journal with its suggested citations. Nothing here writes: the ruling stays as the
judge wrote it, and the journal page only shows the notice beside it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import lexicon
from rules_index.diff import RulesDiff, Side
from rules_index.fates import Fate, describe, fates, suggestion_text
from rulings.model import Ruling


def written_for(rules_version: str, side: Side) -> bool | None:
    """Whether a ruling's `rules_version` names the version `side` (None: the ruling names none).

    «РП 4.1-2» names «РП 4.1-2 от 09.11.2024»; so does the whole stamp; «4.1-2» alone too.
    """
    return names_version(rules_version, side.label, side.version)


def names_version(rules_version: str, label: str | None, stamp: str | None) -> bool | None:
    """Whether `rules_version` («РП 4.1-2», «4.1-2», the whole stamp) names the rules with this
    label and stamp; None when it names none."""
    wanted = lexicon.fold(rules_version)
    if not wanted:
        return None
    names = [lexicon.fold(n) for n in (label, stamp) if n]
    return any(wanted == n or n.startswith(wanted + " ") or n.endswith(" " + wanted) for n in names)


@dataclass(frozen=True)
class AffectedRuling:
    """A ruling citing clauses that changed; `version_unknown` when it names no rules version."""

    ruling_id: int
    title: str
    rules_version: str
    fates: tuple[Fate, ...]
    version_unknown: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "ruling": self.ruling_id,
            "title": self.title,
            "rules_version": self.rules_version,
            "version_unknown": self.version_unknown,
            "fates": [f.to_dict() for f in self.fates],
        }


def ruling_fates(ruling: Ruling, diff: RulesDiff) -> list[Fate]:
    """The cited clauses of the ruling's current text that the diff touches (none when the ruling
    names another version than the diff's old one)."""
    if written_for(ruling.current.rules_version, diff.old) is False:
        return []
    return fates(diff, ruling.current.clauses)


def affected_rulings(rulings: Iterable[Ruling], diff: RulesDiff) -> list[AffectedRuling]:
    """Every ruling written for the diff's old version (or naming none) whose clauses changed."""
    out = []
    for r in rulings:
        found = ruling_fates(r, diff)
        if found:
            unknown = written_for(r.current.rules_version, diff.old) is None
            out.append(AffectedRuling(r.id, r.current.title, r.current.rules_version, tuple(found), unknown))
    return out


def notice_lines(found: Iterable[Fate], new_name: str) -> list[str]:
    """One Russian line per changed clause: what became of it and what to cite now."""
    return [f"{describe(f, new_name)}; {suggestion_text(f)}" for f in found]


__all__ = ["AffectedRuling", "affected_rulings", "notice_lines", "ruling_fates", "written_for"]
