"""What structure recovery found in a rules text, in Russian: the lines the «Правила» page and
`python -m rules_index check` show, so a judge sees at a glance that 354 clauses came in, not 0."""

from __future__ import annotations

from rules_index.model import Integrity
from rules_index.text import plural

_DROPPED = (
    ("contents", "оглавление", ("строка", "строки", "строк")),
    ("header", "верхние колонтитулы", ("строка", "строки", "строк")),
    ("footer", "нижние колонтитулы", ("строка", "строки", "строк")),
    ("page_number", "номера страниц", ("строка", "строки", "строк")),
)


def _by_level(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"уровень {level} — {n}" for level, n in pairs)


def summary(report: Integrity) -> list[str]:
    """«Найдено: …», «Номеров из нумерации списков: …», «Убрано: …» (each line only when it says
    something)."""
    sections = dict(report.levels).get(1, 0)
    clauses = [(level, n) for level, n in report.levels if level > 1]
    total = sum(n for _, n in clauses)
    found = f"Найдено: разделов {sections}, пунктов {total}"
    if clauses:
        found += f" ({_by_level(tuple(clauses))})"
    lettered = sum(n for _, n in report.lettered)
    if lettered:
        found += f"; из них подпунктов с буквой {lettered} ({_by_level(report.lettered)})"
    lines = [found + "."]
    if report.implied:
        lines.append(f"Номеров восстановлено из нумерации списков (в тексте их нет): {report.implied}.")
    dropped = [
        f"{label} — {plural(report.dropped_as(role), *forms)}"
        for role, label, forms in _DROPPED
        if report.dropped_as(role)
    ]
    if dropped:
        lines.append("Убрано как не текст правил: " + "; ".join(dropped) + ".")
    if report.glossary:
        lines.append(f"Строк глоссария (термин — определение), прочитанных как перечень: {report.glossary}.")
    return lines


__all__ = ["summary"]
