"""The card base's value types: one card as the base records it, the base, the import report.

Everything here is immutable, so a base read once may be shared by every judge's window.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # in annotations only: the card store reads a base's meta without the engine
    from engine import Ability

# The card base shown when no base is loaded: the embedded library's cards (engine/data/cards.yaml).
BUILTIN = "builtin"


class CardBaseError(ValueError):
    """A card base cannot be read or stored; the message (Russian) says what and where."""


@dataclasses.dataclass(frozen=True, slots=True)
class Modelled:
    """One thing the engine models about a card: an ability (its declaration in
    engine/model/abilities.py), or a property (`incorporeal`), with the text it was read from.

    `source` is the sentence or the icon it came from («значок zoo»); `caveat` says in Russian
    what of that sentence the engine does not model (a cost, a trigger's timing), or "".
    """

    source: str
    ability: Ability | None = None
    prop: str = ""
    caveat: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class CardRecord:
    """One card of a base, decoded: the printed facts, the text, what the engine models of it.

    `name` is the printed name; `library_name` the name the card has in the engine's library
    (the printed name, unless two cards of the base share it, see cardbase/importer.py).
    `text` is the text as a judge reads it (placeholders spelled out); `unmodelled` the sentences
    of it the engine does not model. `alts` are the ids of the alternate printings folded into it.
    """

    id: str
    name: str
    type: str
    subtype: str | None
    life: int | None
    move: int | None
    library_name: str = ""
    set_id: str = ""
    set_name: str = ""
    number: int | None = None
    rarity: str = ""
    cost: int | None = None
    elite: bool = False
    unique: bool = False
    elements: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    strike: tuple[int, int, int] | None = None
    icons: tuple[tuple[str, int], ...] = ()
    icon_names: tuple[str, ...] = ()
    text: str = ""
    raw_text: str = ""
    banned: bool = False
    alts: tuple[str, ...] = ()
    modelled: tuple[Modelled, ...] = ()
    unmodelled: tuple[str, ...] = ()
    where: str = ""

    @property
    def abilities(self) -> tuple[Ability, ...]:
        return tuple(m.ability for m in self.modelled if m.ability is not None)

    @property
    def incorporeal(self) -> bool:
        return any(m.prop == "incorporeal" for m in self.modelled)

    @property
    def is_modelled(self) -> bool:
        """The engine models at least one ability or property read from its text or icons."""
        return bool(self.modelled)


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """One record the import skipped, or a note about one it kept. `where` names the record
    («запись 12 (id 10012, «Гоблин»)», «строка 7»); `what` says what is wrong, in Russian."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclasses.dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import read: counts, and every record skipped or noted, each with where and why.

    `errors` are records skipped because they are wrong (a missing name, an unknown type code, a
    duplicate id); a base with errors replaces a good one only when the judge accepts the loss.
    `notes` are things kept with a remark (an unknown icon, a set missing from the constants).
    """

    source: str
    format: str
    records: int
    cards: int
    alternates: int
    sets: tuple[tuple[str, int], ...]
    modelled: int
    fully_modelled: int
    banned: int
    errors: tuple[Problem, ...] = ()
    notes: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.errors

    def summary(self) -> str:
        """One Russian paragraph: what was read."""
        sets = ", ".join(f"«{name}» — {n}" for name, n in self.sets) or "нет"
        parts = [
            f"Файл «{self.source}» ({self.format}): записей {self.records}, карт {self.cards}",
            f"альтернативных печатей, сведённых к основной карте: {self.alternates}",
            f"выпуски: {sets}",
            f"карт, у которых движок моделирует особенности: {self.modelled} "
            f"(из них полностью, без остатка текста: {self.fully_modelled})",
        ]
        if self.banned:
            parts.append(f"отмечены как запрещённые: {self.banned}")
        parts.append(f"пропущено записей с ошибками: {len(self.errors)}")
        return "; ".join(parts) + "."

    def lines(self) -> list[str]:
        """The whole report as Russian lines (the CLI prints them; the page shows them)."""
        out = [self.summary()]
        if self.errors:
            out.append("Пропущены (ошибки):")
            out.extend(f"  {p}" for p in self.errors)
        if self.notes:
            out.append("Замечания (карты загружены):")
            out.extend(f"  {p}" for p in self.notes)
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "format": self.format,
            "records": self.records,
            "cards": self.cards,
            "alternates": self.alternates,
            "sets": [{"name": n, "cards": c} for n, c in self.sets],
            "modelled": self.modelled,
            "fully_modelled": self.fully_modelled,
            "banned": self.banned,
            "errors": [{"where": p.where, "what": p.what} for p in self.errors],
            "notes": [{"where": p.where, "what": p.what} for p in self.notes],
        }


@dataclasses.dataclass(frozen=True)
class CardBase:
    """The cards of one base, by id, with the report of the import that made it."""

    id: str
    label: str
    records: tuple[CardRecord, ...]
    report: ImportReport | None = None
    by_id: Mapping[str, CardRecord] = dataclasses.field(default_factory=lambda: types.MappingProxyType({}))

    @staticmethod
    def of(
        base_id: str, label: str, records: tuple[CardRecord, ...], report: ImportReport | None
    ) -> CardBase:
        return CardBase(
            id=base_id,
            label=label,
            records=records,
            report=report,
            by_id=types.MappingProxyType({r.id: r for r in records}),
        )

    def get(self, card_id: str) -> CardRecord | None:
        return self.by_id.get(card_id)

    def names(self) -> list[str]:
        """Every card's printed name, once each, in the base's order (for the rules search)."""
        return list(dict.fromkeys(r.name for r in self.records))

    def sets(self) -> list[tuple[str, str]]:
        """(set id, set name) of the base's sets, in order of first appearance."""
        return list(dict.fromkeys((r.set_id, r.set_name) for r in self.records if r.set_id))

    def elements(self) -> list[str]:
        return list(dict.fromkeys(e for r in self.records for e in r.elements))

    def classes(self) -> list[str]:
        return sorted({c for r in self.records for c in r.classes})
