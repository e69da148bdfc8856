"""What changed between two versions of the rules, pairing clauses by content, not by number.

`diff_indexes(old, new)` (or `diff_paragraphs`) returns a `RulesDiff`: every entry of either version
in exactly one `Change` of one of `KINDS`. The pairing survives renumbering:

1. **Anchors.** Entries whose whole content (text, bullets, examples; whitespace and a glued
   version stamp aside) is identical are matched as the longest common subsequence of the two
   documents in reading order, so one inserted clause shifts the numbers below it without
   scrambling them: they pair as `renumbered`.
2. **Gaps.** Between two consecutive anchors lie the entries that changed. Each gap is paired
   separately (order is kept: an entry can only pair inside its gap) and per section (a section
   pairs with the one that received most of its anchors): candidates are scored by similarity of
   text (rapidfuzz, clause numbers masked so a renumbered citation does not count as an edit),
   with a bonus for the same id and a small penalty for a shifted position, and the pairing is the
   optimal assignment over that matrix (scipy's `linear_sum_assignment`), not a greedy choice.
3. **Moves.** What is left unpaired is paired once more across gaps and sections, but only when
   the texts are nearly the same (a clause moved elsewhere).
4. **Splits and merges.** An unpaired entry next to a paired one whose old text contains it (and
   together they rebuild the old text better than the partner alone) joins that change: one old
   entry became several new ones (`split`), or several old ones one new (`merged`).

Each change carries a word-level diff of the parts that changed and, for a clause that cites
clauses which were renumbered or removed, the old and new targets (`refs`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz, process

from rules_index import ids, yamlread
from rules_index.model import Paragraph
from rules_index.wordiff import PARTS, Content, Word, cited_ids, part_diff

if TYPE_CHECKING:
    import numpy as np

    from rules_index.index import RulesIndex

KINDS = ("same", "edited", "renumbered", "renumbered+edited", "added", "removed", "split", "merged")
# Kinds after which the clause no longer reads as it did (what an engine handler relies on).
TEXT_CHANGED = frozenset({"edited", "renumbered+edited", "removed", "split", "merged"})
# Kinds after which a citation of the old number needs a look (changed, moved, split, gone).
CITATION_CHANGED = frozenset(set(KINDS) - {"same", "added"})

# Similarity (0..1) a pair needs: entries with different ids, entries with the same id, and an
# entry paired outside its gap (a move); a split or merge must rebuild the old text this well.
PAIR_MIN = 0.55
SAME_ID_MIN = 0.45
MOVED_MIN = 0.85
SPLIT_MIN = 0.8
# How much of a piece must be found inside the whole for a split or merge (rapidfuzz partial_ratio).
CONTAINED_MIN = 85.0
# Weight of a shifted position inside a gap (0..1 of the gap), a tie-breaker between look-alikes.
SHIFT_PENALTY = 0.1
# Above this many candidate pairs the move pass runs per section (bounded work on huge inputs).
MOVE_PASS_CELLS = 1_000_000

WORDS_FILE = Path(__file__).resolve().parent / "data" / "changes.yaml"


def _assignment(score: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The optimal assignment maximising `score` (rows, columns). scipy.optimize and numpy are
    imported on the first diff, not with the module: every page imports this one (the journal's
    and the answers' notices name its kinds), and scipy.optimize alone took half of the app's cold
    first render (1–2 s of imports), numpy a fifth of what was left (issue 24), for a diff most
    sessions never make."""
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(score, maximize=True)
    return rows, cols


@functools.cache
def _words() -> Mapping[str, Mapping[str, Any]]:
    raw = yamlread.load_file(WORDS_FILE)
    kinds = raw["kinds"]
    missing = [k for k in KINDS if k not in kinds]
    if missing:
        raise ValueError(f"{WORDS_FILE.name}: нет слов для видов изменений {', '.join(missing)}")
    return MappingProxyType(
        {
            "kinds": MappingProxyType({k: MappingProxyType(dict(v)) for k, v in kinds.items()}),
            "parts": MappingProxyType(dict(raw["parts"])),
        }
    )


def kind_word(kind: str) -> str:
    """«изменён», «перенумерован» … (rules_index/data/changes.yaml)."""
    return str(_words()["kinds"][kind]["word"])


def kind_fate(kind: str) -> str:
    """How the other version's page says what became of a clause: «текст изменён»."""
    return str(_words()["kinds"][kind]["fate"])


def kind_mark(kind: str) -> str:
    """A sign for the kind, readable without colour: «~», «+», «−» …"""
    return str(_words()["kinds"][kind]["mark"])


def part_word(part: str) -> str:
    """«текст», «пункты списка», «пример»."""
    return str(_words()["parts"][part])


# The result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefChange:
    """A citation in a clause whose target was renumbered or removed in the new version.

    `old`: the number the old text cites; `new`: that clause's number in the new version (None when
    it was removed); `updated`: whether the new text cites the new number (False: the new text
    still says the old number, which now names another clause or none).
    """

    old: str
    new: str | None
    updated: bool

    def to_dict(self) -> dict[str, object]:
        return {"old": self.old, "new": self.new, "updated": self.updated}


@dataclass(frozen=True)
class Change:
    """What became of one or more entries: `old` ids of the old version, `new` ids of the new one."""

    kind: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    similarity: float
    parts: tuple[str, ...] = ()
    words: tuple[Word, ...] = ()
    refs: tuple[RefChange, ...] = ()
    section: str = ""

    @property
    def changed(self) -> bool:
        """Anything a reader should look at: any kind but `same`, or a `same` citing moved clauses."""
        return self.kind != "same" or bool(self.refs)

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "old": list(self.old),
            "new": list(self.new),
            "similarity": round(self.similarity, 3),
            "parts": list(self.parts),
            "words": [w.to_dict() for w in self.words],
            "refs": [r.to_dict() for r in self.refs],
        }


@dataclass(frozen=True)
class Side:
    """One of the two versions compared: its version stamp, label and number of entries."""

    version: str | None
    label: str | None
    entries: int

    def to_dict(self) -> dict[str, object]:
        return {"version": self.version, "label": self.label, "entries": self.entries}

    @property
    def name(self) -> str:
        """How the text calls this version: «РП 4.1-2», or a neutral phrase without a stamp."""
        return self.label or self.version or "версия без отметки"


@dataclass(frozen=True)
class RulesDiff:
    """Every change between two versions, in the new version's reading order."""

    old: Side
    new: Side
    changes: tuple[Change, ...]
    _by_old: Mapping[str, Change] = field(default_factory=dict, repr=False, compare=False)
    _by_new: Mapping[str, Change] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_old: dict[str, Change] = {}
        by_new: dict[str, Change] = {}
        for c in self.changes:
            for cid in c.old:
                by_old.setdefault(cid, c)
            for cid in c.new:
                by_new.setdefault(cid, c)
        object.__setattr__(self, "_by_old", MappingProxyType(by_old))
        object.__setattr__(self, "_by_new", MappingProxyType(by_new))

    def of_old(self, cid: str) -> Change | None:
        """The change an old clause is part of (None: the old version has no such clause)."""
        return self._by_old.get(cid)

    def of_new(self, cid: str) -> Change | None:
        return self._by_new.get(cid)

    def counterparts(self, old_id: str) -> tuple[str, ...]:
        """The new ids an old clause became (empty: removed or unknown)."""
        change = self._by_old.get(old_id)
        return change.new if change else ()

    def counts(self) -> dict[str, int]:
        """How many changes of each kind (every kind listed, zeros included)."""
        found = Counter(c.kind for c in self.changes)
        return {kind: found.get(kind, 0) for kind in KINDS}

    def sections(self, *, changed_only: bool = False) -> list[tuple[str, list[Change]]]:
        """The changes grouped by section, in reading order."""
        groups: dict[str, list[Change]] = {}
        for c in self.changes:
            if changed_only and not c.changed:
                continue
            groups.setdefault(c.section, []).append(c)
        return list(groups.items())

    @property
    def identical(self) -> bool:
        return not any(c.changed for c in self.changes)

    def to_dict(self) -> dict[str, object]:
        return {
            "old": self.old.to_dict(),
            "new": self.new.to_dict(),
            "counts": self.counts(),
            "changes": [c.to_dict() for c in self.changes],
        }


# Pairing --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Entry:
    pos: int
    para: Paragraph
    content: Content
    sim: str

    @property
    def id(self) -> str:
        return self.para.id

    @property
    def section(self) -> str:
        return ids.section(self.para.id)


_WORD = re.compile(r"\w+|§")


class _Words:
    """Words as single characters, so that similarity counts words, not letters: a changed word is
    one edit whatever its length, and the comparison runs on strings a few dozen long (fast)."""

    def __init__(self) -> None:
        self._codes: dict[str, str] = {}

    def encode(self, text: str) -> str:
        out = []
        for word in _WORD.findall(text):
            code = self._codes.get(word)
            if code is None:
                n = 0x100 + len(self._codes)
                code = chr(n if n < 0xD800 else n + 0x800)  # skip the surrogate range
                self._codes[word] = code
            out.append(code)
        return "".join(out)


# What share of a diff's time each step takes (measured on two 3,000-entry versions: reading the
# entries of both sides is most of it), for a progress bar that moves evenly.
_READ_SHARE = 0.35  # each side
_PAIR_SHARE = 0.12
_REPORT_EVERY = 250  # entries read between two reports


def _entries(
    paragraphs: Sequence[Paragraph], words: _Words, report: Callable[[float], None], base: float
) -> list[_Entry]:
    out = []
    total = max(len(paragraphs), 1)
    for i, p in enumerate(paragraphs):
        content = Content.of(p)
        out.append(_Entry(i, p, content, words.encode(content.similarity_text())))
        if i % _REPORT_EVERY == _REPORT_EVERY - 1:
            report(base + _READ_SHARE * (i + 1) / total)
    return out


def _no_report(share: float) -> None:
    """Where nobody asked for progress."""


# A change under construction: positions of its old entries and of its new entries.
_Group = tuple[list[int], list[int]]


class _Pairing:
    """The working state of one diff: who pairs with whom, grown pass by pass."""

    def __init__(self, old: list[_Entry], new: list[_Entry]) -> None:
        self.old = old
        self.new = new
        self.old_of_new: dict[int, int] = {}
        self.new_of_old: dict[int, int] = {}
        self.old_gap = [0] * len(old)
        self.new_gap = [0] * len(new)
        self.section_map: dict[str, str] = {}

    def pair(self, i: int, j: int) -> None:
        self.new_of_old[i] = j
        self.old_of_new[j] = i

    # 1. anchors
    def anchor(self) -> list[tuple[range, range]]:
        """Pair identical entries in reading order; return the gaps between them."""
        matcher = difflib.SequenceMatcher(
            None, [e.content.key for e in self.old], [e.content.key for e in self.new], autojunk=False
        )
        gaps: list[tuple[range, range]] = []
        a = b = 0
        for block in matcher.get_matching_blocks():
            gap = len(gaps)
            for i in range(a, block.a):
                self.old_gap[i] = gap
            for j in range(b, block.b):
                self.new_gap[j] = gap
            gaps.append((range(a, block.a), range(b, block.b)))
            for k in range(block.size):
                self.pair(block.a + k, block.b + k)
            a, b = block.a + block.size, block.b + block.size
        votes: dict[str, Counter[str]] = defaultdict(Counter)
        for i, j in self.new_of_old.items():
            votes[self.old[i].section][self.new[j].section] += 1
        self.section_map = {sec: count.most_common(1)[0][0] for sec, count in votes.items()}
        return gaps

    def mapped_section(self, e: _Entry) -> str:
        return self.section_map.get(e.section, e.section)

    def _by_section(self, olds: Iterable[int], news: Iterable[int]) -> Iterable[tuple[list[int], list[int]]]:
        """Old and new entries grouped by section (an old one by the section its number moved to)."""
        by_section: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for i in olds:
            by_section[self.mapped_section(self.old[i])][0].append(i)
        for j in news:
            by_section[self.new[j].section][1].append(j)
        return by_section.values()

    # 2. gaps
    def pair_gaps(self, gaps: Iterable[tuple[range, range]]) -> None:
        for olds, news in gaps:
            if not olds or not news:
                continue
            for o_list, n_list in self._by_section(olds, news):
                if o_list and n_list:
                    self._assign(o_list, n_list, olds, news)

    def _assign(self, o_list: list[int], n_list: list[int], olds: range, news: range) -> None:
        import numpy as np  # on the first diff, not with the module (see _assignment)

        olds_e = [self.old[i] for i in o_list]
        news_e = [self.new[j] for j in n_list]
        sims = (
            process.cdist(
                [e.sim for e in olds_e],
                [e.sim for e in news_e],
                scorer=fuzz.ratio,
                dtype=np.float32,
                workers=1,
            )
            / 100.0
        )
        same_id = np.array([[o.id == n.id for n in news_e] for o in olds_e], dtype=bool)
        threshold = np.where(same_id, SAME_ID_MIN, PAIR_MIN)
        r_old = (np.array(o_list, dtype=np.float32) - olds.start + 0.5) / len(olds)
        r_new = (np.array(n_list, dtype=np.float32) - news.start + 0.5) / len(news)
        shift = np.abs(r_old[:, None] - r_new[None, :])
        score = sims - threshold + np.where(same_id, 0.05, 0.0) - SHIFT_PENALTY * shift
        allowed = sims >= threshold
        score = np.where(allowed, np.maximum(score, 1e-6), 0.0)
        if not allowed.any():
            return
        rows, cols = _assignment(score)
        for r, c in zip(rows, cols, strict=True):
            if allowed[r, c]:
                self.pair(o_list[r], n_list[c])

    # 3. moves
    def pair_moves(self) -> None:
        olds = [i for i in range(len(self.old)) if i not in self.new_of_old]
        news = [j for j in range(len(self.new)) if j not in self.old_of_new]
        if not olds or not news:
            return
        if len(olds) * len(news) <= MOVE_PASS_CELLS:
            self._assign_moves(olds, news)
            return
        for o_list, n_list in self._by_section(olds, news):
            if o_list and n_list and len(o_list) * len(n_list) <= MOVE_PASS_CELLS:
                self._assign_moves(o_list, n_list)

    def _assign_moves(self, o_list: list[int], n_list: list[int]) -> None:
        import numpy as np

        sims = (
            process.cdist(
                [self.old[i].sim for i in o_list],
                [self.new[j].sim for j in n_list],
                scorer=fuzz.ratio,
                dtype=np.float32,
                workers=1,
                score_cutoff=MOVED_MIN * 100,
            )
            / 100.0
        )
        allowed = sims >= MOVED_MIN
        if not allowed.any():
            return
        rows_any = np.flatnonzero(allowed.any(axis=1))
        cols_any = np.flatnonzero(allowed.any(axis=0))
        sub = np.where(allowed[np.ix_(rows_any, cols_any)], sims[np.ix_(rows_any, cols_any)], 0.0)
        rows, cols = _assignment(sub)
        for r, c in zip(rows, cols, strict=True):
            if sub[r, c] >= MOVED_MIN:
                self.pair(o_list[rows_any[r]], n_list[cols_any[c]])

    # 4. splits and merges
    def groups(self) -> list[_Group]:
        """Pairs grown into splits and merges, then the leftovers as removed and added."""
        groups: list[_Group] = [([i], [j]) for i, j in sorted(self.new_of_old.items())]
        group_of_old = {g[0][0]: k for k, g in enumerate(groups)}
        group_of_new = {g[1][0]: k for k, g in enumerate(groups)}
        self._seed_splits(groups, group_of_old, group_of_new)
        self._grow(groups, group_of_old, group_of_new, split=True)
        self._grow(groups, group_of_old, group_of_new, split=False)
        for i in range(len(self.old)):
            if i not in group_of_old:
                groups.append(([i], []))
        for j in range(len(self.new)):
            if j not in group_of_new:
                groups.append(([], [j]))
        return groups

    def _seed_splits(
        self, groups: list[_Group], group_of_old: dict[int, int], group_of_new: dict[int, int]
    ) -> None:
        """An unpaired old entry whose text two or more adjacent unpaired new entries rebuild (none
        of them alike enough to pair alone), and the same the other way round."""
        for whole_side, part_side in (("old", "new"), ("new", "old")):
            wholes = self.old if whole_side == "old" else self.new
            parts = self.new if part_side == "new" else self.old
            whole_taken = group_of_old if whole_side == "old" else group_of_new
            part_taken = group_of_new if part_side == "new" else group_of_old
            whole_gap = self.old_gap if whole_side == "old" else self.new_gap
            part_gap = self.new_gap if part_side == "new" else self.old_gap
            free_parts = [k for k in range(len(parts)) if k not in part_taken]
            for w in range(len(wholes)):
                if w in whole_taken:
                    continue
                inside = [
                    k
                    for k in free_parts
                    if part_gap[k] == whole_gap[w]
                    and k not in part_taken
                    and fuzz.partial_ratio(parts[k].sim, wholes[w].sim) >= CONTAINED_MIN
                ]
                run = _longest_run(inside)
                if len(run) < 2:
                    continue
                joined = "".join(parts[k].sim for k in run)
                if fuzz.ratio(wholes[w].sim, joined) / 100.0 < SPLIT_MIN:
                    continue
                group: _Group = ([w], list(run)) if whole_side == "old" else (list(run), [w])
                groups.append(group)
                whole_taken[w] = len(groups) - 1
                for k in run:
                    part_taken[k] = len(groups) - 1

    def _grow(
        self,
        groups: list[_Group],
        group_of_old: dict[int, int],
        group_of_new: dict[int, int],
        *,
        split: bool,
    ) -> None:
        """Attach unpaired entries to a neighbouring change whose other side contains them."""
        pieces = self.new if split else self.old
        wholes = self.old if split else self.new
        taken = group_of_new if split else group_of_old
        for k in range(len(pieces)):
            if k in taken:
                continue
            best: tuple[float, int] | None = None
            for neighbour in (k - 1, k + 1):
                g = taken.get(neighbour)
                if g is None:
                    continue
                olds_of_g, news_of_g = groups[g]
                whole_list, piece_list = (olds_of_g, news_of_g) if split else (news_of_g, olds_of_g)
                if len(whole_list) != 1:
                    continue
                whole = wholes[whole_list[0]]
                if fuzz.partial_ratio(pieces[k].sim, whole.sim) < CONTAINED_MIN:
                    continue
                before = fuzz.ratio(whole.sim, "".join(pieces[p].sim for p in piece_list)) / 100.0
                after_list = sorted([*piece_list, k])
                after = fuzz.ratio(whole.sim, "".join(pieces[p].sim for p in after_list)) / 100.0
                if after >= SPLIT_MIN and after > before + 0.02 and (best is None or after > best[0]):
                    best = (after, g)
            if best is not None:
                g = best[1]
                piece_list = groups[g][1] if split else groups[g][0]
                piece_list.append(k)
                piece_list.sort()
                taken[k] = g


def _longest_run(numbers: list[int]) -> list[int]:
    """The longest run of consecutive integers in a sorted list."""
    best: list[int] = []
    run: list[int] = []
    for n in numbers:
        run = [*run, n] if run and n == run[-1] + 1 else [n]
        if len(run) > len(best):
            best = run
    return best


# Building the changes --------------------------------------------------------------------------


def _joined(entries: Sequence[_Entry]) -> Content:
    if len(entries) == 1:
        return entries[0].content
    return Content(
        " ".join(e.content.text for e in entries if e.content.text),
        tuple(b for e in entries for b in e.content.bullets),
        tuple(x for e in entries for x in e.content.examples),
    )


def _kind(old: Sequence[_Entry], new: Sequence[_Entry], changed: bool) -> str:
    if not new:
        return "removed"
    if not old:
        return "added"
    if len(old) == 1 and len(new) > 1:
        return "split"
    if len(old) > 1:
        return "merged"
    if old[0].id == new[0].id:
        return "edited" if changed else "same"
    return "renumbered+edited" if changed else "renumbered"


def _build(pairing: _Pairing, groups: list[_Group]) -> list[tuple[tuple[float, int], Change]]:
    old, new = pairing.old, pairing.new
    # Old id → the new id it became, where that differs (what an updated citation would say).
    renamed: dict[str, str] = {}
    gone: set[str] = set()
    for o_list, n_list in groups:
        for i in o_list:
            if not n_list:
                gone.add(old[i].id)
            elif new[n_list[0]].id != old[i].id:
                renamed.setdefault(old[i].id, new[n_list[0]].id)
    new_pos_of_old = {i: n_list[0] for o_list, n_list in groups if n_list for i in o_list}
    # Where a removed entry goes in the new reading order: after the last old entry before it
    # that has a place there.
    after: dict[int, float] = {}
    last = -1.0
    for i in range(len(old)):
        if i in new_pos_of_old:
            last = float(new_pos_of_old[i])
        else:
            after[i] = last + 0.5
    out: list[tuple[tuple[float, int], Change]] = []
    for o_list, n_list in groups:
        olds = [old[i] for i in o_list]
        news = [new[j] for j in n_list]
        change = _change(olds, news, renamed, gone)
        place = (float(n_list[0]), 0) if n_list else (after[o_list[0]], o_list[0])
        out.append((place, change))
    return out


def _change(olds: list[_Entry], news: list[_Entry], renamed: Mapping[str, str], gone: set[str]) -> Change:
    section = news[0].section if news else olds[0].section
    old_ids = tuple(e.id for e in olds)
    new_ids = tuple(e.id for e in news)
    if not olds or not news:
        kind = "added" if not olds else "removed"
        return Change(kind, old_ids, new_ids, 0.0, section=section)
    a, b = _joined(olds), _joined(news)
    parts: tuple[str, ...] = ()
    if a.key != b.key:
        moved = a.remapped(renamed)
        parts = tuple(p for p in PARTS if a.part(p) != b.part(p) and moved.part(p) != b.part(p))
    if len(olds) > 1 or len(news) > 1:
        parts = tuple(p for p in PARTS if a.part(p) != b.part(p))
    kind = _kind(olds, news, bool(parts))
    if a.key == b.key:
        similarity = 1.0
    else:
        sim_a = "".join(e.sim for e in olds)
        sim_b = "".join(e.sim for e in news)
        similarity = fuzz.ratio(sim_a, sim_b) / 100.0
    words = tuple(part_diff(a, b, parts)) if parts else ()
    return Change(kind, old_ids, new_ids, similarity, parts, words, _refs(a, b, renamed, gone), section)


def _refs(a: Content, b: Content, renamed: Mapping[str, str], gone: set[str]) -> tuple[RefChange, ...]:
    cited_old = cited_ids(" ".join([a.text, *a.bullets, *a.examples]))
    cited_new = set(cited_ids(" ".join([b.text, *b.bullets, *b.examples])))
    out: list[RefChange] = []
    for target in cited_old:
        if target in renamed:
            out.append(RefChange(target, renamed[target], renamed[target] in cited_new))
        elif target in gone:
            out.append(RefChange(target, None, False))
    return tuple(out)


def diff_paragraphs(
    old: Sequence[Paragraph],
    new: Sequence[Paragraph],
    *,
    old_side: Side | None = None,
    new_side: Side | None = None,
    progress: Callable[[float], None] | None = None,
) -> RulesDiff:
    """The changes that turn the entries `old` into `new` (both in reading order).

    `progress`, if given, hears the share of the work done (0..1) as the diff goes: a diff of two
    full rules texts takes seconds, and the page that waits for it shows a bar."""
    report = progress or _no_report
    words = _Words()
    olds = _entries(old, words, report, 0.0)
    news = _entries(new, words, report, _READ_SHARE)
    pairing = _Pairing(olds, news)
    gaps = pairing.anchor()
    pairing.pair_gaps(gaps)
    pairing.pair_moves()
    report(2 * _READ_SHARE + _PAIR_SHARE)
    built = _build(pairing, pairing.groups())
    report(1.0)
    built.sort(key=lambda item: item[0])
    return RulesDiff(
        old_side or Side(None, None, len(old)),
        new_side or Side(None, None, len(new)),
        tuple(change for _, change in built),
    )


def side_of(index: RulesIndex) -> Side:
    return Side(index.version, index.version_label, len(index.paragraphs))


def diff_indexes(old: RulesIndex, new: RulesIndex) -> RulesDiff:
    """What changed from the rules `old` to the rules `new`."""
    return diff_paragraphs(old.paragraphs, new.paragraphs, old_side=side_of(old), new_side=side_of(new))


__all__ = [
    "CITATION_CHANGED",
    "KINDS",
    "TEXT_CHANGED",
    "Change",
    "RefChange",
    "RulesDiff",
    "Side",
    "diff_indexes",
    "diff_paragraphs",
    "kind_fate",
    "kind_mark",
    "kind_word",
    "part_word",
    "side_of",
]
