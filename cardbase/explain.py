"""How the card page says what a card is and what the engine makes of it (Russian, no Streamlit)."""

from __future__ import annotations

import dataclasses

import lexicon
from cardbase.model import CardRecord, Modelled
from cardbase.recognise import phrasings
from engine import ABILITY_KINDS as KINDS

# A property the engine reads from a card, said as the page says it.
PROPERTY_WORDS = {
    "incorporeal": (
        "бестелесное",
        "движок учитывает это свойство: на бестелесное существо нельзя поместить небестелесного "
        "симбиота (211.5)",
    ),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Explained:
    """One modelled ability as the page shows it."""

    kind: str  # the ability kind, or the property code
    title: str  # «вызов: берёт карту из колоды в зону битвы»
    params: tuple[str, ...]  # «карта: «Гоблин»», «условие места: рядом с собой»
    source: str  # the sentence or icon it was read from
    caveat: str
    cites: tuple[str, ...]  # the clauses and assumptions the engine's behaviour rests on


def _value(name: str, value: object) -> str:
    table = phrasings().display.get(name, {})
    if isinstance(value, tuple | list):
        return ", ".join(table.get(str(v), str(v)) for v in value)
    if isinstance(value, bool):
        return "да" if value else "нет"
    return table.get(str(value), f"«{value}»" if isinstance(value, str) else str(value))


def explain(m: Modelled) -> Explained:
    """What the engine does with one modelled ability or property, in the declarations' words."""
    if m.ability is None:
        word, what = PROPERTY_WORDS.get(m.prop, (m.prop, ""))
        return Explained(m.prop, f"{word}: {what}", (), m.source, m.caveat, ("211.5",))
    kind = KINDS[m.ability.kind]
    params = []
    for key, value in m.ability.params:
        param = kind.param(key)
        params.append(f"{param.doc if param else key}: {_value(key, value)}")
    return Explained(kind.name, kind.summary, tuple(params), m.source, m.caveat, kind.cites)


def facts(r: CardRecord) -> list[tuple[str, str]]:
    """The printed facts of a card as (label, value) rows, in the order a judge reads a card."""
    rows: list[tuple[str, str]] = [("Вид", lexicon.class_of_card(r.type, r.subtype))]
    if r.classes:
        rows.append(("Класс", ", ".join(r.classes)))
    if r.elements:
        rows.append(("Стихия", ", ".join(r.elements)))
    if r.cost is not None:
        rows.append(("Стоимость", str(r.cost)))
    if r.life is not None:
        rows.append(("Жизнь", str(r.life)))
    if r.type == "creature":
        rows.append(("Движение", "—" if r.move is None else str(r.move)))
    if r.strike is not None:
        rows.append(("Удар", "-".join(str(v) for v in r.strike) + " (слабый-средний-сильный)"))
    flags = [w for w, on in (("уникальная", r.unique), ("элитная", r.elite)) if on]
    if flags:
        rows.append(("Отметки", ", ".join(flags)))
    if r.set_name:
        rows.append(("Выпуск", r.set_name + (f", № {r.number}" if r.number is not None else "")))
    if r.rarity:
        rows.append(("Редкость", r.rarity))
    if r.icon_names:
        rows.append(("Значки", ", ".join(r.icon_names)))
    if r.alts:
        rows.append(("Другие печати", ", ".join(r.alts)))
    return rows


def brief(r: CardRecord) -> str:
    """A card in one line, under a search hit on the card page and in `python -m engine cards`:
    «наземное существо · Степи · стоимость 7 · жизнь 10 · Пробный выпуск, № 8»."""
    bits = [lexicon.class_of_card(r.type, r.subtype)]
    if r.elements:
        bits.append(", ".join(r.elements))
    if r.cost is not None:
        bits.append(f"стоимость {r.cost}")
    if r.life is not None:
        bits.append(f"жизнь {r.life}")
    if r.set_name:
        bits.append(r.set_name + (f", № {r.number}" if r.number is not None else ""))
    return " · ".join(bits)
