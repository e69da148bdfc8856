"""What became of cited clauses in a newer rules version: the fates a ruling or a scenario needs.

A ruling or a scenario cites clause ids of the version it was written for. Given the diff from
that version to another, `fates(diff, cids)` says for each cited clause that changed, moved, split
or went away what happened and which ids to cite now. Unchanged clauses (and the engine's
assumptions, «A7») have no fate to report. Used by rulings.affected, casebook.affected and the
pages; the Russian phrases say «п.» the way lexicon.cite does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules_index import ids
from rules_index.diff import CITATION_CHANGED, TEXT_CHANGED, RulesDiff, kind_fate, kind_word, part_word


@dataclass(frozen=True)
class Fate:
    """A cited clause `old` became `new` (ids of the newer version; empty when removed)."""

    old: str
    kind: str
    new: tuple[str, ...]
    parts: tuple[str, ...] = ()

    @property
    def text_changed(self) -> bool:
        return self.kind in TEXT_CHANGED

    @property
    def suggestion(self) -> tuple[str, ...]:
        """What to cite instead, in the newer version (empty: nothing to cite there)."""
        return self.new

    def to_dict(self) -> dict[str, object]:
        return {"old": self.old, "kind": self.kind, "new": list(self.new), "parts": list(self.parts)}


def fates(diff: RulesDiff, cids: Iterable[str]) -> list[Fate]:
    """The fates of the cited clauses among `cids` that need a look, in the order cited."""
    out: list[Fate] = []
    for cid in dict.fromkeys(cids):
        if not ids.is_clause_id(cid):
            continue
        change = diff.of_old(cid)
        if change is None or change.kind not in CITATION_CHANGED:
            continue
        out.append(Fate(cid, change.kind, change.new, change.parts))
    return out


def _cite(cids: Iterable[str]) -> str:
    return ", ".join(f"п. {cid}" for cid in cids)


def describe(fate: Fate, new_name: str) -> str:
    """«п. 535.5.1.2 → в РП 9.9-1 п. 535.6.1.2 (перенумерован)», «п. 534.8 — в РП 9.9-1 этого пункта
    нет (удалён)», «п. 534.6 — текст изменён (текст)»."""
    what = kind_word(fate.kind)
    if fate.parts:
        what += ": " + ", ".join(part_word(p) for p in fate.parts)
    if not fate.new:
        return f"п. {fate.old} — в {new_name} этого пункта нет ({what})"
    if fate.new == (fate.old,):
        return f"п. {fate.old} — в {new_name} {what}"
    return f"п. {fate.old} → в {new_name} {_cite(fate.new)} ({what})"


def suggestion_text(fate: Fate) -> str:
    """«цитировать: п. 535.6.1.2», or that there is nothing to cite."""
    if not fate.new:
        return "ссылаться не на что: пункт удалён"
    return "цитировать: " + _cite(fate.new)


def _ids(cids: Iterable[str]) -> str:
    found = list(cids)
    return ", ".join(found[:-1]) + " и " + found[-1] if len(found) > 1 else "".join(found)


def fate_line(fate: Fate, new_name: str) -> str:
    """One line of an affected ruling or scenario, the suggested citation first:
    «535.2 → 535.3 — перенумерован», «535.3 → 535.4 и 535.4.1 — разделён на части»,
    «534.6 — изменён: текст; номер прежний, текст стоит перечитать»,
    «534.8 — удалён: в РП 9.9-1 этого пункта нет, ссылаться не на что»."""
    what = kind_word(fate.kind)
    if fate.parts and fate.kind != "split":
        what += ": " + ", ".join(part_word(p) for p in fate.parts)
    if not fate.new:
        return f"{fate.old} — {what}: в {new_name} этого пункта нет, ссылаться не на что"
    if fate.new == (fate.old,):
        return f"{fate.old} — {what}; номер прежний, текст стоит перечитать"
    if fate.kind == "split":
        return f"{fate.old} → {_ids(fate.new)} — {what} на части; ссылаться на ту, о которой речь"
    return f"{fate.old} → {_ids(fate.new)} — {what}"


def other_side(diff: RulesDiff, cid: str, *, reading: str) -> tuple[str, tuple[str, ...]] | None:
    """What a clause is in the other version of a diff, for the clause page: the sentence and the
    ids to link. `reading` is the side the page shows («old» or «new»); None when that side holds
    no entry `cid`.

    «В РП 9.9-1 — п. 535.6.1.2, другой номер, текст тот же», «В РП 4.1-2 этого пункта не было».
    """
    if reading == "new":
        change, other, name = diff.of_new(cid), "old", diff.old.name
    else:
        change, other, name = diff.of_old(cid), "new", diff.new.name
    if change is None:
        return None
    targets = change.old if other == "old" else change.new
    if not targets:
        return (
            f"В {name} этого пункта не было: он новый." if other == "old" else f"В {name} этого пункта нет."
        ), ()
    fate = kind_fate(change.kind)
    if change.parts and change.parts != ("text",):
        fate += " (" + ", ".join(part_word(p) for p in change.parts) + ")"
    return f"В {name} — {_cite(targets)}, {fate}.", targets


__all__ = ["Fate", "describe", "fate_line", "fates", "other_side", "suggestion_text"]
