"""How far the engine understands a card base, per section of our rules (211, 534, 535).

Every piece of a card's text — a sentence, or an icon the text does not spell — falls in one
section or in none of ours: a modelled ability by the clauses its declaration rests on
(engine/model/abilities.py `cites`), a property by the clause that reads it (incorporeal: 211.5),
a sentence the engine leaves to the judge by the wording of our sections it uses (rules.yaml
`words`: «вместо этого» is 534, «вызвать» 535, «хозяин» 211). A card is fully understood in a
section when every piece of it there is modelled. `python -m engine cards coverage BASE` prints
the table; a judge reads from it how far to trust the desk for a card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from cardbase import related
from cardbase.model import CardBase, CardRecord, Modelled
from engine import ABILITY_KINDS as KINDS
from rules_index import ids

# Our sections, in the order the report lists them: (short name for the table, title).
SECTIONS: Mapping[str, tuple[str, str]] = {
    "211": ("211 Симбиоты", "211. Симбиоты"),
    "534": ("534 Замещение", "534. Эффекты замещения (534.4–534.8)"),
    "535": ("535 Взятие в отряд", "535. Взятие карт в отряд"),
}
OTHER = "—"
OTHER_TITLES = ("прочее", "Вне наших разделов (текст карты и разделы правил, которых у нас нет)")
PROPERTY_CLAUSES: Mapping[str, str] = {"incorporeal": "211.5"}


def modelled_sections(m: Modelled) -> list[str]:
    """The sections a modelled ability or property belongs to (none of ours: [OTHER])."""
    if m.ability is None:
        cited: Iterable[str] = (PROPERTY_CLAUSES.get(m.prop, ""),)
    else:
        cited = KINDS[m.ability.kind].cites
    found = list(dict.fromkeys(ids.section(c) for c in cited if ids.is_clause_id(c)))
    return [s for s in found if s in SECTIONS] or [OTHER]


def text_sections(text: str) -> list[str]:
    """The sections a piece of text the engine does not model uses the wording of."""
    return [s for s in related.text_sections(text) if s in SECTIONS] or [OTHER]


@dataclasses.dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a card in one section: what it says and whether the engine models it."""

    card: str  # the card's id in the base
    name: str
    text: str
    modelled: bool
    what: str = ""  # the ability kind or the property, when modelled


@dataclasses.dataclass(frozen=True)
class Section:
    """One row of the report: a section with its pieces and its cards."""

    code: str
    short: str
    title: str
    pieces: tuple[Piece, ...]

    @property
    def modelled(self) -> list[Piece]:
        return [p for p in self.pieces if p.modelled]

    @property
    def unmodelled(self) -> list[Piece]:
        return [p for p in self.pieces if not p.modelled]

    def cards(self) -> dict[str, list[str]]:
        """Card names by how well the section's pieces of them are modelled: full, partly, none."""
        by_card: dict[str, list[bool]] = {}
        names: dict[str, str] = {}
        for p in self.pieces:
            by_card.setdefault(p.card, []).append(p.modelled)
            names[p.card] = p.name
        out: dict[str, list[str]] = {"full": [], "partly": [], "none": []}
        for cid, flags in by_card.items():
            key = "full" if all(flags) else "partly" if any(flags) else "none"
            out[key].append(names[cid])
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "section": self.code,
            "title": self.title,
            "short": self.short,
            "modelled": [dataclasses.asdict(p) for p in self.modelled],
            "unmodelled": [dataclasses.asdict(p) for p in self.unmodelled],
            "cards": self.cards(),
        }


def pieces(r: CardRecord) -> list[tuple[str, Piece]]:
    """(section, piece) for every piece of a card: each modelled thing, each sentence and icon the
    engine leaves to the judge. A sentence both modelled at its head and listed («Бестелесный:
    …») counts in each way once."""
    out: list[tuple[str, Piece]] = []
    for m in r.modelled:
        what = m.ability.kind if m.ability is not None else m.prop
        for s in modelled_sections(m):
            out.append((s, Piece(r.id, r.name, m.source, True, what)))
    for text in r.unmodelled:
        for s in text_sections(text):
            out.append((s, Piece(r.id, r.name, text, False)))
    return out


@dataclasses.dataclass(frozen=True)
class Coverage:
    base: str
    cards: int
    sections: tuple[Section, ...]

    def section(self, code: str) -> Section:
        return next(s for s in self.sections if s.code == code)

    def to_dict(self) -> dict[str, object]:
        return {"base": self.base, "cards": self.cards, "sections": [s.to_dict() for s in self.sections]}

    def lines(self) -> list[str]:
        """The table in Russian, then per section the cards whose pieces there are not all
        modelled and what of them is left to the judge."""
        out = [
            f"База «{self.base}»: карт {self.cards}. Фразы и значки карт по разделам правил: сколько движок "
            "моделирует и сколько оставляет судье («решайте по тексту карты»); карты, понятые в разделе "
            "полностью, частично и никак.",
            "",
            f"{'раздел':<20} {'моделируется':>12} {'по тексту':>10} {'карт: полностью':>16} {'частично':>9} "
            f"{'никак':>6}",
        ]
        for s in self.sections:
            cards = s.cards()
            out.append(
                f"{s.short:<20} {len(s.modelled):>12} {len(s.unmodelled):>10} {len(cards['full']):>16} "
                f"{len(cards['partly']):>9} {len(cards['none']):>6}"
            )
        for s in self.sections:
            if not s.unmodelled:
                continue
            out.append("")
            out.append(f"{s.title} — не смоделировано, решайте по тексту карты:")
            out.extend(f"  {p.name}: {p.text}" for p in s.unmodelled)
        return out


def coverage(base: CardBase) -> Coverage:
    """The base's coverage by our sections, in the order of SECTIONS, then the rest."""
    found: dict[str, list[Piece]] = {code: [] for code in (*SECTIONS, OTHER)}
    for r in base.records:
        for s, piece in pieces(r):
            found[s].append(piece)
    titles = {**SECTIONS, OTHER: OTHER_TITLES}
    return Coverage(
        base=base.label,
        cards=len(base.records),
        sections=tuple(Section(code, *titles[code], tuple(ps)) for code, ps in found.items()),
    )
