"""`python -m rules_index diff OLD NEW [--json] [--all]`: what changed between two rules versions.

OLD and NEW are each a file, a folder of rules files, or `builtin` (the embedded rules). The JSON
contract: `{"old": {"version", "label", "entries"}, "new": {…}, "counts": {kind: n},
"changes": [{"kind", "old": [ids], "new": [ids], "similarity", "parts", "words", "refs"}]}`, every
entry of either version in exactly one change (`same` ones included); `words` is the word-level
diff of the changed parts (`{"part", "op": "equal"|"insert"|"delete", "text"}`), `refs` the
citations whose targets were renumbered or removed (`{"old", "new", "updated"}`).
Errors (a missing file, a text without clauses) go to stderr in Russian; see rules_index.cli.
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from rules_index.diff import Change, RulesDiff, diff_indexes, kind_mark, kind_word, part_word
from rules_index.index import RulesIndex, load_default, load_paths
from rules_index.text import plural
from rules_index.wordiff import compact, marked, squash

BUILTIN = "builtin"


def load_side(spec: str, jargon: list[str] | tuple[str, ...] = ()) -> RulesIndex:
    """`builtin`, a file or a folder; raises CorpusError with a Russian message."""
    if spec.strip().lower() == BUILTIN:
        return load_default(jargon=jargon)
    return load_paths([spec], jargon=jargon)


def run(args: argparse.Namespace, out: TextIO) -> int:
    jargon = getattr(args, "jargon", None) or ()
    old = load_side(str(args.old), jargon)
    new = load_side(str(args.new), jargon)
    result = diff_indexes(old, new)
    if args.json:
        json.dump(result.to_dict(), out, ensure_ascii=False, indent=2)
        out.write("\n")
        return 0
    out.write(render_text(result, old, new, show_same=bool(args.all)))
    return 0


def summary(result: RulesDiff) -> str:
    """«изменён: 3, перенумерован: 16 …; без изменений: 22» (kinds that occur only)."""
    counts = result.counts()
    changed = [f"{kind_word(k)}: {n}" for k, n in counts.items() if n and k != "same"]
    same = f"без изменений: {counts['same']}"
    return (", ".join(changed) + "; " + same) if changed else f"изменений нет; {same}"


def _ids(cids: tuple[str, ...]) -> str:
    return ", ".join(cids)


def headline(change: Change) -> str:
    """«~ 211.5 — изменён (текст)», «→ 535.2 → 535.3 — перенумерован», «+ 535.2 — добавлен»."""
    if change.kind == "added":
        where = _ids(change.new)
    elif change.kind == "removed" or change.old == change.new:
        where = _ids(change.old)
    else:
        where = f"{_ids(change.old)} → {_ids(change.new)}"
    parts = f" ({', '.join(part_word(p) for p in change.parts)})" if change.parts else ""
    return f"{kind_mark(change.kind)} {where} — {kind_word(change.kind)}{parts}"


def ref_lines(change: Change, new_name: str) -> list[str]:
    lines = []
    for r in change.refs:
        if r.new is None:
            lines.append(f"ссылка на {r.old}: в {new_name} этого пункта нет")
        elif r.updated:
            lines.append(f"ссылка на {r.old} теперь ведёт на {r.new} (номер в тексте обновлён)")
        else:
            lines.append(
                f"ссылка на {r.old}: этот пункт теперь {r.new}, а текст по-прежнему называет {r.old}"
            )
    return lines


def render_text(result: RulesDiff, old: RulesIndex, new: RulesIndex, *, show_same: bool = False) -> str:
    count_old = plural(result.old.entries, "пункт", "пункта", "пунктов")
    count_new = plural(result.new.entries, "пункт", "пункта", "пунктов")
    lines = [
        f"Было: {result.old.version or 'версия не указана'} ({count_old})",
        f"Стало: {result.new.version or 'версия не указана'} ({count_new})",
        f"Итого: {summary(result)}",
    ]
    for section, changes in result.sections(changed_only=not show_same):
        lines.append("")
        lines.append(f"Раздел {section}")
        for change in changes:
            lines.append("  " + headline(change))
            if change.words:
                lines.extend("      " + ln for ln in marked(compact(change.words)).splitlines())
            elif change.kind == "added":
                lines.append("      " + _text(new, change.new[0]))
            elif change.kind == "removed":
                lines.append("      " + _text(old, change.old[0]))
            lines.extend("      " + ln for ln in ref_lines(change, result.new.name))
    if result.identical:
        lines.append("")
        lines.append("Тексты совпадают: изменений нет.")
    return "\n".join(lines) + "\n"


def _text(index: RulesIndex, cid: str, limit: int = 200) -> str:
    p = index.get(cid)
    if p is None:
        return ""
    flat = squash(p.full_text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
