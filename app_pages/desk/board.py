"""Drawing the field: 30 tiles on the 5×6 grid (B's half on top), and the cards outside it.

A tile is a button: a tap selects the card on it, opens the card form on an empty cell, or applies
the armed action (desk/board.click decides); a card outside the field is a button that selects it.
The whole field is one element, a component of our own (field.js, field.css; issue 24): a
Streamlit element per half, per zone card and for the style sheet cost a desk action their
messages and the browser's rendering of each. The component shows text only (textContent: card
names are typed by judges). A tile's side and colour say whose card it is (the owner's letter says
it too: meaning never rests on colour); its frame what a tap on the empty cell gives (its first line
says it in words, with the clause); the selected card has a thick outline and «▶» before its name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

import engine
from app_pages.shared import components
from desk import board, view
from desk.actions import Mark

Props = Mapping[str, Mapping[str, object]]
KEY = "desk_board"  # the field's key (its element: .st-key-desk_board)
TAP = "tap"  # the trigger a tap sends: {"cell": "c4"} for a tile, {"card": "vail"} for a card off the field
_FIELD = st.components.v2.component(
    "berserk_desk_field",
    js=components.script(Path(__file__).parent / "field.js"),
    css=components.asset(Path(__file__).parent / "field.css"),
    # In the page's own DOM, not a shadow root: its nodes are the page's (the benchmark counts them)
    # and its class names are its own (desk-…), so nothing of the page's style reaches it by chance.
    isolate_styles=False,
)


def _picked(selected: str | None, cid: str | None) -> str:
    """«▶ » before the selected card's name (the outline is not all that says it)."""
    return "▶ " if selected is not None and selected == cid else ""


def tile_data(tile: board.Tile, selected: str | None) -> dict[str, Any]:
    """What a tile shows, in plain text, a line each: the cell with what a tap gives, the card
    («▶» before the selected one), its state, the symbiote on it; and its whole story (a tooltip)."""
    card = tile.card is not None
    return {
        "cell": tile.cell,
        "head": tile.head,
        "name": _picked(selected, tile.card) + tile.name if card else "",
        "facts": tile.facts if card else "",
        "sym": _picked(selected, tile.symbiote) + tile.symbiote_line if tile.symbiote_line else "",
        "owner": tile.owner if tile.owner in engine.PLAYERS else None,
        "mark": tile.mark,
        "selected": selected is not None and selected in (tile.card, tile.symbiote),
        # an empty cell no action targets has no story beyond its name
        "tip": f"{tile.cell}: {tile.tip}" if card or tile.mark else "",
    }


def field_data(
    props: Props, state: engine.GameState, marks: Mapping[str, Mark], selected: str | None, token: str
) -> dict[str, Any]:
    """Everything the field shows (the component's data): each half's caption and tiles, B's on
    top, the cards outside the field, and the token of the answer to bring into view."""
    tiles = board.tiles(props, marks)
    tips: list[str] = []
    halves = [
        {
            "player": player,
            "caption": board.half_caption(player),
            "tiles": [
                _shared_tip(tile_data(tiles[cell], selected), tips) for cell in board.half_cells(player)
            ],
        }
        for player in ("B", "A")
    ]
    return {"halves": halves, "tips": tips, "zones": zones_data(props, state, selected), "token": token}


CELL = "{cell}"  # in a shared tooltip, where the tile's own cell goes


def _shared_tip(tile: dict[str, Any], tips: list[str]) -> dict[str, Any]:
    """The tile with its tooltip as the number of a shared one (`tips`) with its cell put back in
    (field.js: tipOf), and without the lines it leaves empty: the marked cells of one action differ
    only by their cell, and the field's data is sent whole with every action."""
    tip, cell = tile.pop("tip"), tile["cell"]
    if tip and CELL not in tip:  # else the cell could not be put back exactly: the tooltip as it is
        shared = tip.replace(cell, CELL)
        if shared not in tips:
            tips.append(shared)
        tile["tip"] = tips.index(shared)
    elif tip:
        tile["tip"] = tip
    return {k: v for k, v in tile.items() if v is not None and v is not False and v != ""}


def tip_of(field: Mapping[str, Any], tile: Mapping[str, Any]) -> str:
    """A tile's tooltip as the field shows it (what field.js's tipOf does)."""
    tip = tile.get("tip", "")
    if isinstance(tip, int):
        return str(field["tips"][tip]).replace(CELL, str(tile["cell"]))
    return str(tip)


NO_ZONES = "Вне поля карт нет: вспомогательные зоны, руки, колоды, кладбища и изгнание пусты."
NO_ZONES_OF = "вспомогательная зона, рука, колода, кладбище и изгнание пусты"


def zones_data(props: Props, state: engine.GameState, selected: str | None) -> dict[str, Any]:
    """Each player's cards outside the field, by zone, each a button that selects it."""
    zones = {player: view.side_zones(props, state, player) for player in engine.PLAYERS}
    if not any(zones.values()):
        return {"empty": NO_ZONES}
    names = view.names(props)

    def card(cid: str) -> dict[str, Any]:
        text = _picked(selected, cid) + view.card_text(props[cid], names[cid])
        return {"id": cid, "text": text, "selected": selected == cid}

    sides = []
    for player in engine.PLAYERS:
        active = " — активный" if state.active == player else ""
        sides.append(
            {
                "player": player,
                "title": f"Игрок {player}{active}: вне поля",
                "empty": "" if zones[player] else NO_ZONES_OF,
                "zones": [
                    {"zone": label, "label": f"{label}: {len(ids)}", "cards": [card(cid) for cid in ids]}
                    for label, ids in zones[player]
                ],
            }
        )
    return {"sides": sides}


def tapped(value: object) -> tuple[str, str] | None:
    """What a tap sent: ("cell", "c4") or ("card", id); None for anything else (a value from the
    browser is never trusted)."""
    if not isinstance(value, Mapping):
        return None
    cell, card = value.get("cell"), value.get("card")
    if isinstance(cell, str) and cell in engine.CELLS:
        return ("cell", cell)
    if isinstance(card, str) and card:
        return ("card", card)
    return None


def _on_tap(on_cell: Callable[[str], None], on_card: Callable[[str], None], cards: frozenset[str]) -> None:
    tap = tapped(components.sent(KEY, TAP))
    if tap is None:
        return
    if tap[0] == "cell":
        on_cell(tap[1])
    elif tap[1] in cards:  # a card the last run drew outside the field, and no other
        on_card(tap[1])


def draw_field(
    props: Props,
    state: engine.GameState,
    marks: Mapping[str, Mark],
    selected: str | None,
    token: str,
    on_cell: Callable[[str], None],
    on_card: Callable[[str], None],
) -> None:
    """The field and the cards outside it; a tap on a tile calls `on_cell` with its cell, on a card
    outside the field `on_card` with its id. `token` changes with every answer: the component
    brings the answer into view once for each."""
    # JSON as UTF-8 bytes: as a dict it would be sent with every Russian letter as \uXXXX
    shown = field_data(props, state, marks, selected, token)
    cards = frozenset(
        card["id"]
        for side in shown["zones"].get("sides", ())
        for zone in side["zones"]
        for card in zone["cards"]
    )
    data = components.data(shown)
    _FIELD(
        key=KEY,
        data=data,
        on_tap_change=lambda: _on_tap(on_cell, on_card, cards),
        width="stretch",
    )
