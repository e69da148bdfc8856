"""Rulings as Markdown for printing and downloading, with every judge-typed character kept inert.

Words for verdicts, trace steps and citations come from `lexicon`, the product's one table, so a
printed ruling reads as the desk and the engine's CLI do. No icons: a printer may lack the glyphs.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence

import lexicon
from rulings.model import FIELD_LABELS, Ruling, now_iso

# Marks that can form Markdown or HTML anywhere in a line, and the ones that do so only at its start.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&|~$])")
_MD_LINE_START = re.compile(r"^([#+=>-]|\d+[.)](?=\s|$))")
_MD_AUTOLINK = re.compile(r"(?i)(://|www\.)")
# Step kinds printed in capitals, so the step that decides a ruling stands out on paper.
_LOUD_KINDS = frozenset({"forbidden", "undetermined"})
_FACTS = ("event", "round", "table_no", "players", "judge", "outcome", "verdict", "rules_version")


def md_text(text: str) -> str:
    """Judge-typed text as Markdown that renders verbatim.

    Every mark that could form HTML, a link, an image, emphasis, code or a table is backslash-escaped,
    as are heading, list and quote marks at a line's start and bare-URL openings (so no autolink forms);
    lines become hard breaks and leading blanks no-break spaces (so they cannot open a code block).
    """
    lines = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.lstrip(" \t")
        lead = "\u00a0" * (len(line) - len(stripped))
        body = _MD_INLINE.sub(r"\\\1", stripped.rstrip())
        body = _MD_AUTOLINK.sub(lambda m: m.group(1).replace(":", "\\:").replace(".", "\\."), body)
        body = _MD_LINE_START.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], body)
        lines.append(lead + body)
    return "  \n".join(lines)


def md_code(text: str, lang: str = "") -> str:
    """A fenced block whose fence is longer than any backtick run inside, so the text cannot close it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


def _step_head(kind: str, clause: str) -> str:
    """«запрещено, п. 211.3.1», «допущение A1» (the kind is not said twice), «эффект, без пункта»."""
    word = lexicon.step_kind(kind)
    word = word.upper() if kind in _LOUD_KINDS else word
    where = lexicon.cite(clause) if clause else "без пункта"
    return where if where.startswith(word) else f"{word}, {where}"


def _trace_lines(steps: object, indent: str = "") -> list[str]:
    out: list[str] = []
    if not isinstance(steps, list):
        return out
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        head = _step_head(str(step.get("kind", "")), str(step.get("clause", "") or ""))
        out.append(f"{indent}- **{md_text(head)}:** {md_text(str(step.get('reason', '')))}")
        out.extend(_trace_lines(step.get("children", []), indent + "  "))
    return out


def trace_markdown(trace_json: str) -> list[str]:
    """The stored trace as Markdown: each action numbered with its verdict, its steps nested below.
    JSON of another shape is shown as a code block, so nothing stored is ever hidden."""
    try:
        data = json.loads(trace_json)
    except json.JSONDecodeError:
        return [md_code(trace_json)]
    if isinstance(data, Mapping):
        data = data.get("trace", data.get("steps", []))
    lines: list[str] = []
    if isinstance(data, list):
        number = 0
        for item in data:
            if isinstance(item, Mapping) and "trace" in item:
                number += 1
                said = lexicon.verdict(str(item.get("verdict", "")))
                lines.append(f"{number}. {md_text(str(item.get('action', '')))} — **{md_text(said)}**")
                lines.extend(_trace_lines(item["trace"], " " * (len(str(number)) + 2)))
            else:
                lines.extend(_trace_lines([item]))
    return lines or [md_code(json.dumps(data, ensure_ascii=False, indent=2), "json")]


def ruling_markdown(ruling: Ruling, with_history: bool = True) -> str:
    """One ruling as Markdown for printing: question as heading, facts as a list, decision, trace."""
    cur = ruling.current
    parts = [f"## Решение № {ruling.id}: {md_text(cur.title)}", ""]
    facts = [
        ("Записано", human_time(ruling.created_at)),
        ("Изменено", human_time(ruling.updated_at) + f" (редакция {ruling.rev})"),
    ]
    for name in _FACTS:
        value = getattr(cur, name)
        if value:
            known = name == "verdict" and value in lexicon.VERDICTS
            facts.append((FIELD_LABELS[name], f"{lexicon.verdict(value)} ({value})" if known else value))
    if cur.clauses:
        label = f" ({cur.rules_version})" if cur.rules_version else ""
        facts.append((FIELD_LABELS["clauses"], ", ".join(lexicon.cite(c) for c in cur.clauses) + label))
    parts.extend(f"- **{label}:** {md_text(value)}" for label, value in facts)
    parts += ["", "### Решение судьи", "", md_text(cur.decision), ""]
    if cur.trace_json.strip():
        parts += ["### Трассировка движка", "", *trace_markdown(cur.trace_json), ""]
    if cur.scenario_yaml.strip():
        parts += ["### Сценарий", "", md_code(cur.scenario_yaml, "yaml"), ""]
    if with_history and len(ruling.revisions) > 1:
        parts += ["### История правок", ""]
        for rev in ruling.revisions:
            note = f" — {md_text(rev.data.note)}" if rev.data.note else ""
            parts.append(f"- Редакция {rev.rev}, {human_time(rev.created_at)}{note}")
            parts.append(f"  - Решение: {md_text(rev.data.decision)}")
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def journal_markdown(rulings: Sequence[Ruling], title: str = "Журнал решений") -> str:
    """All given rulings as one Markdown document, each starting on a new printed page."""
    head = [f"# {md_text(title)}", "", f"Решений: {len(rulings)}. Выгружено {human_time(now_iso())}.", "", ""]
    body = [ruling_markdown(r) for r in sorted(rulings, key=lambda r: r.id)]
    # A horizontal rule between rulings; printed Markdown viewers break pages poorly, a rule reads well.
    return "\n".join(head) + "\n---\n\n".join(body)


def human_time(iso: str) -> str:
    """A stored moment as «09.11.2024 14:05 UTC»; text that is not a moment, as it is."""
    try:
        moment = dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return moment.strftime("%d.%m.%Y %H:%M UTC")
