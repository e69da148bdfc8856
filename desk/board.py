"""The field as a judge reads it at a glance, and what a click on it means.

A tile is one cell: the card standing there (its name, owner, wounds out of life, closed, hidden,
the control marker) and the symbiote on it, or nothing; its mark says what a click would do.
`click` decides what a click on a cell does, from the desk and the card the judge has selected:
select a card (a second click on a host selects its symbiote), apply the armed action (a move) to
the selected card, or — before the actions start, when no action is armed — open the new-card form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import engine
import lexicon
from desk.actions import Mark
from desk.model import Desk
from desk.view import CONTROL_MARK, OPTION_MARKS, Props, card_text


@dataclasses.dataclass(frozen=True)
class Tile:
    """One cell of the field, in plain text (the page escapes and lays it out)."""

    cell: str
    card: str | None = None  # the card standing on the cell
    symbiote: str | None = None  # the card on that card
    owner: str | None = None  # the standing card's owner, for the tile's side and colour
    name: str = ""
    facts: str = ""  # «B · 0/3 · ⚑A · закрыта»
    symbiote_line: str = ""  # «+ Карлик Унд A · 0/2»
    mark: str | None = None  # the verdict code a click would give
    tip: str = ""  # the whole story, for a tooltip
    mark_words: str = ""  # «✘ нельзя: п. 211.3.1»: the mark with what decides it, shown on the tile

    @property
    def head(self) -> str:
        """«c3 · ✘ нельзя: п. 211.3.1»: the cell and what a tap on it gives, with its clause (a phone
        shows no tooltip); an empty cell that is no target shows its name alone."""
        if not self.mark:
            return self.cell
        return f"{self.cell} · {self.mark_words or OPTION_MARKS[self.mark]}"


def short_facts(p: Props) -> str:
    """A card's state in a few characters: owner, wounds/life, control marker, closed, hidden."""
    parts = [str(p.get("owner"))]
    if p.get("type") == "creature":
        parts.append(f"{p.get('wounds', 0)}/{p.get('life') if p.get('life') is not None else '?'}")
    if p.get("control_marker"):
        parts.append(f"{CONTROL_MARK}{p.get('controller')}")
    if p.get("closed"):
        parts.append("закрыта")
    if p.get("hidden"):
        parts.append("скрыта")
    return " · ".join(parts)


def tiles(props: Mapping[str, Props], marks: Mapping[str, Mark]) -> dict[str, Tile]:
    """Every cell's tile."""
    standing = {
        str(p["cell"]): cid
        for cid, p in props.items()
        if p.get("zone") == "battle" and p.get("cell") and not p.get("host")
    }
    out = {}
    for cell in engine.CELLS:
        cid = standing.get(cell)
        mark = marks.get(cell) if cid is None else None  # a click on a card selects it: no mark there
        if cid is None:
            tip = mark.why if mark else f"Клетка {cell} пуста"
            out[cell] = Tile(
                cell, mark=mark.verdict if mark else None, tip=tip, mark_words=mark.short if mark else ""
            )
            continue
        p = props[cid]
        sym = str(p["symbiote"]) if p.get("symbiote") and str(p.get("symbiote")) in props else None
        tip = card_text(p) + (f"\nна ней: {card_text(props[sym])}" if sym else "")
        out[cell] = Tile(
            cell,
            card=cid,
            symbiote=sym,
            owner=str(p.get("owner")),
            name=str(p.get("name")),
            facts=short_facts(p),
            symbiote_line=f"+ {props[sym].get('name')} {short_facts(props[sym])}" if sym else "",
            tip=tip,
        )
    return out


def half_caption(player: str) -> str:
    """«Половина игрока B: ряд 4 — первый, 5 — второй, 6 — третий» (assumption A4)."""
    rows = {engine.row_rank(player, f"{engine.COLUMNS[0]}{r}"): r for r in range(1, 7)}
    ordinals = ("первый", "второй", "третий")
    named = ", ".join(f"{rows[rank]} — {ordinals[rank - 1]}" for rank in (1, 2, 3))
    return f"Половина {lexicon.player(player, 'gen')}: ряд {named}"


def half_rows(player: str) -> tuple[int, ...]:
    """The rows of a player's half as the field shows them, top down (B's half on top)."""
    return tuple(r for r in (6, 5, 4, 3, 2, 1) if engine.half_of(f"{engine.COLUMNS[0]}{r}") == player)


def half_cells(player: str) -> tuple[str, ...]:
    """The cells of a player's half as the field shows them: row by row top down, a to e in a row."""
    return tuple(f"{letter}{row}" for row in half_rows(player) for letter in engine.COLUMNS)


@dataclasses.dataclass(frozen=True)
class Click:
    """What a click on a cell does: select a card, open the new-card form, apply an action, or say
    why nothing happens."""

    does: str  # select | new_card | act | hint
    card: str | None = None
    cell: str = ""
    kind: str = ""
    args: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    message: str = ""


def standing_on(props: Mapping[str, Props], cell: str) -> tuple[str | None, str | None]:
    """The card standing on `cell` and the symbiote on it."""
    for cid, p in props.items():
        if p.get("zone") == "battle" and p.get("cell") == cell and not p.get("host"):
            sym = p.get("symbiote")
            return cid, str(sym) if sym and str(sym) in props else None
    return None, None


def click(
    desk: Desk, props: Mapping[str, Props], selected: str | None, cell: str, armed: str | None
) -> Click:
    """What a click on `cell` does (see the module's docstring)."""
    card, sym = standing_on(props, cell)
    if card is not None:
        if sym is not None and selected == card:
            return Click("select", card=sym, cell=cell)
        return Click("select", card=card, cell=cell)
    if selected is not None and selected in props and armed:
        cell_arg = next(a.name for a in engine.ACTION_SPECS[armed].args if a.type in ("cell", "place"))
        return Click("act", card=selected, cell=cell, kind=armed, args={"card": selected, cell_arg: cell})
    if not desk.started:
        return Click("new_card", cell=cell)
    return Click(
        "hint",
        cell=cell,
        message="Карты меняются до первого действия («Править расклад» забудет действия). "
        "Чтобы карта пошла на эту клетку, сначала выберите карту щелчком.",
    )


def free_cell(props: Mapping[str, Props], player: str = "A") -> str | None:
    """Where a card put on the desk from a link goes first: the free cell of `player`'s half
    nearest the middle of the first row, then the second and third rows; None when the half is full."""
    taken = {str(p.get("cell")) for p in props.values() if p.get("zone") == "battle" and p.get("cell")}
    middle = (len(engine.COLUMNS) - 1) / 2
    ranked = [(rank, c) for c in engine.CELLS if (rank := engine.row_rank(player, c)) is not None]
    ranked.sort(key=lambda rc: (rc[0], abs(engine.COLUMNS.index(rc[1][0]) - middle)))
    order = [c for _, c in ranked]
    return next((c for c in order if c not in taken), None)
