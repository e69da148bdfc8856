"""Rulings as Markdown for printing and downloading, with every judge-typed character kept inert.

Words for verdicts, trace steps and citations come from `lexicon`, the product's one table, so a
printed ruling reads as the desk and the engine's CLI do. No icons: a printer may lack the glyphs.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Mapping, Sequence

import lexicon
from rulings import model
from rulings.model import FIELD_LABELS, Ruling, now_iso

ActionWords = Callable[[str], str]
# Marks that can form Markdown or HTML anywhere in a line, and the ones that do so only at its start.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>&|~$])")
_MD_LINE_START = re.compile(r"^([#+=>-]|\d+[.)](?=\s|$))")
_MD_AUTOLINK = re.compile(r"(?i)(://|www\.)")
# Step kinds printed in capitals, so the step that decides a ruling stands out on paper.
_LOUD_KINDS = frozenset({"forbidden", "undetermined"})
_FACTS = ("event", "round", "table_no", "players", "outcome", "rules_version")
# Attachments: a change is named, not printed twice (they are files of their own).
_ATTACHMENTS = frozenset({"scenario_yaml", "trace_json"})


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


def trace_markdown(trace_json: str, words: ActionWords | None = None) -> list[str]:
    """The stored trace as Markdown: each action numbered with its verdict, its steps nested below;
    `words` turns an action's stored line («take_control: {card: vail, by: A}») into the judge's
    words (the page passes the engine's wording; the journal cannot import the engine). JSON of
    another shape is shown as a code block, so nothing stored is ever hidden."""
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
                action = str(item.get("action", ""))
                shown = words(action) if words is not None else action
                lines.append(f"{number}. {md_text(shown)} — **{md_text(said)}**")
                lines.extend(_trace_lines(item["trace"], " " * (len(str(number)) + 2)))
            else:
                lines.extend(_trace_lines([item]))
    return lines or [md_code(json.dumps(data, ensure_ascii=False, indent=2), "json")]


def engine_steps_text(data: model.RulingInput) -> str:
    """The engine's verdict of every step: «1 — законно, 2 — запрещено»; "" when no trace is attached."""
    return ", ".join(f"{i} — {lexicon.verdict(v)}" for i, v in enumerate(model.engine_verdicts(data), 1))


def answer_facts(data: model.RulingInput) -> list[tuple[str, str]]:
    """The judge's answer and, beside it, the engine's verdict of every step (not only the last)."""
    said = lexicon.verdict(data.judge_verdict) if data.judge_verdict else "не указан"
    facts = [(FIELD_LABELS["judge_verdict"], said)]
    if model.step_verdicts(data.trace_json):
        facts.append(("Вердикт движка по шагам", engine_steps_text(data)))
    elif data.verdict:
        known = data.verdict in lexicon.VERDICTS
        said = f"{lexicon.verdict(data.verdict)} ({data.verdict})" if known else data.verdict
        facts.append((FIELD_LABELS["verdict"], said))
    return facts


def change_lines(old: model.RulingInput, new: model.RulingInput, indent: str = "  ") -> list[str]:
    """What an amendment changed, field by field: «Решение судьи: было «…», стало «…»»."""
    out = []
    for ch in model.changes(old, new):
        if ch.field in _ATTACHMENTS:
            out.append(f"{indent}- {md_text(ch.label)}: вложение изменено")
        else:
            out.append(f"{indent}- {md_text(ch.label)}: было «{md_text(ch.old)}», стало «{md_text(ch.new)}»")
    return out


def ruling_markdown(ruling: Ruling, with_history: bool = True, words: ActionWords | None = None) -> str:
    """One ruling as Markdown for printing: question as heading, facts as a list, decision, the trace
    in words (`words`: see `trace_markdown`). The position is named, not printed: its YAML is a file
    of its own (the page offers it), and a printout is read by people."""
    cur = ruling.current
    parts = [f"## Решение № {ruling.id}: {md_text(cur.title)}", ""]
    author = f", {ruling.author}" if ruling.author else ""
    last = ruling.revisions[-1].author if ruling.revisions else ""
    facts = [
        ("Записано", human_time(ruling.created_at) + author),
        ("Изменено", f"{human_time(ruling.updated_at)} (редакция {ruling.rev}{', ' + last if last else ''})"),
        *answer_facts(cur),
    ]
    if not ruling.author and cur.judge:
        facts.append(("Судья (записано текстом)", cur.judge))
    if ruling.hall:
        facts.append(("Зал", ruling.hall))
    if ruling.locked_by:
        facts.append(("Закреплено", f"{ruling.locked_by}, {human_time(ruling.locked_at)}"))
    if ruling.damaged:
        revs = ", ".join(map(str, ruling.damaged))
        facts.append(("ПОВРЕЖДЕНО", f"текст редакций {revs} не совпадает с контрольной суммой"))
    if ruling.conflict:
        facts.append(
            ("КОНФЛИКТ", f"есть другая версия: {', '.join(r.author or '?' for r in ruling.conflict)}")
        )
    facts.extend((FIELD_LABELS[name], getattr(cur, name)) for name in _FACTS if getattr(cur, name))
    if cur.clauses:
        label = f" ({cur.rules_version})" if cur.rules_version else ""
        facts.append((FIELD_LABELS["clauses"], ", ".join(lexicon.cite(c) for c in cur.clauses) + label))
    parts.extend(f"- **{label}:** {md_text(value)}" for label, value in facts)
    parts += ["", "### Решение судьи", "", md_text(cur.decision), ""]
    if cur.trace_json.strip():
        parts += ["### Разбор движка", "", *trace_markdown(cur.trace_json, words), ""]
    if cur.scenario_yaml.strip():
        parts += ["*Позиция со стола судьи приложена к решению в журнале (файл сценария).*", ""]
    if with_history and len(ruling.revisions) > 1:
        parts += ["### История правок", ""]
        previous: model.RulingInput | None = None
        for rev in ruling.revisions:
            who = f", {md_text(rev.author)}" if rev.author else ""
            note = f" — {md_text(rev.data.note)}" if rev.data.note else ""
            parts.append(f"- Редакция {rev.rev}, {human_time(rev.created_at)}{who}{note}")
            if previous is None:
                parts.append("  - первая запись")
            else:
                parts.extend(change_lines(previous, rev.data) or ["  - поля не изменились"])
            previous = rev.data
        parts.append("")
    return "\n".join(parts).rstrip() + "\n"


def journal_markdown(
    rulings: Sequence[Ruling], title: str = "Журнал решений", words: ActionWords | None = None
) -> str:
    """All given rulings as one Markdown document, each starting on a new printed page."""
    head = [f"# {md_text(title)}", "", f"Решений: {len(rulings)}. Выгружено {human_time(now_iso())}.", "", ""]
    body = [ruling_markdown(r, words=words) for r in sorted(rulings, key=lambda r: r.id)]
    # A horizontal rule between rulings; printed Markdown viewers break pages poorly, a rule reads well.
    return "\n".join(head) + "\n---\n\n".join(body)


def human_time(iso: str) -> str:
    """A stored moment in the server's local time zone, the zone named: «09.11.2024 14:05 MSK»
    (the hall's clock is the laptop's); text that is not a moment, as it is."""
    try:
        moment = dt.datetime.fromisoformat(iso)
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    local = moment.astimezone()
    zone = local.tzname() or local.strftime("UTC%z")
    if zone[:1] in "+-":  # a zone without a name: «UTC+03»
        zone = "UTC" + zone
    return local.strftime("%d.%m.%Y %H:%M ") + zone
