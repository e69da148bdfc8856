"""Drawing the field: 30 tiles on the 5×6 grid (B's half on top), and the zones beside it.

A tile is a button: a click selects the card on it, opens the card form on an empty cell, or
applies the armed action (desk/board.click decides). Its side and colour say whose card it is (the
owner's letter says it too: meaning never rests on colour); the selected card has a thick frame.
Card names a judge typed are escaped for the button's Markdown; the style sheet is ours and holds
nothing typed (only cell names and fixed colours).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping

import streamlit as st

import engine
from app_pages.shared import common
from desk import board, view
from desk.actions import Mark

Props = Mapping[str, Mapping[str, object]]
OWNER_STYLE = types.MappingProxyType({"A": ("#e4efff", "#1d4ed8"), "B": ("#ffefe0", "#c2410c")})
MARK_COLOUR = types.MappingProxyType({"legal": "#15803d", "illegal": "#b91c1c", "undetermined": "#b45309"})

# Each half of the field is one element: st.pills with its 15 cells as the options, laid out as a
# CSS grid of five columns (a phone keeps the five), the half's caption as its label. Two elements
# instead of 30 buttons and their rows: an action sends 30 fewer messages and the page builds a
# third of the nodes (a tile is a button of six nodes, not a button with a tooltip, drawn twice, of
# 23; issue 24). A tile's whole story (a card's facts, what a tap on a marked cell gives and why)
# is the half's tooltip, one line a tile; the tile itself shows the cell, the mark with its clause,
# the card and its state. The pills never keep a tile chosen (every tap is a change): the selected
# card is the tile with the thick frame.
HALF = ".st-key-desk_half_{player} [role='radiogroup']"
# The grid's rules hold for both halves: one selector, [class*="st-key-desk_half_"], matches the
# element of either half's key (desk_half_B, desk_half_A) and nothing else on the page.
GRID_CSS = """
[data-testid="stMainBlockContainer"] {
  padding-left: 1.5rem !important; padding-right: 1.5rem !important; max-width: 1500px;
}
[class*="st-key-desk_half_"] { width: 100% !important; }
[class*="st-key-desk_half_"] label { margin-bottom: 0.15rem; }
[class*="st-key-desk_half_"] label p {
  font-size: 0.875rem; color: rgba(49, 51, 63, 0.6);
}
[class*="st-key-desk_half_"] [role="radiogroup"] {
  display: grid !important; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 0.3rem !important;
}
[class*="st-key-desk_half_"] [role="radiogroup"] > button {
  width: 100%; min-width: 0; height: auto; min-height: 5.2rem; margin: 0 !important;
  border-radius: 0.5rem !important; padding: 0.3rem 0.4rem !important;
  align-items: flex-start !important; justify-content: flex-start !important; background: #ffffff;
}
[class*="st-key-desk_half_"] [role="radiogroup"] > button > div,
[class*="st-key-desk_half_"] [role="radiogroup"] span {
  justify-content: flex-start !important; width: 100%;
}
[class*="st-key-desk_half_"] [role="radiogroup"] p {
  display: block !important; white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; -webkit-line-clamp: unset !important;
  text-align: left; font-size: 0.85rem; line-height: 1.2; overflow-wrap: anywhere; margin: 0;
}
.st-key-desk_zones button p { text-align: left; font-size: 0.85rem; }
.st-key-desk_panel [data-testid="stTooltipHoverTarget"] { width: auto !important; }
.st-key-desk_panel button [data-testid="stMarkdownContainer"], .st-key-desk_panel button p {
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; text-align: left;
}
@media (max-width: 640px) {
  [class*="st-key-desk_half_"] [role="radiogroup"] {
    gap: 0.15rem !important;
  }
  [class*="st-key-desk_half_"] [role="radiogroup"] > button {
    min-height: 4.1rem; padding: 0.1rem 0.15rem !important;
  }
  [class*="st-key-desk_half_"] [role="radiogroup"] p {
    font-size: 0.62rem; line-height: 1.15;
  }
}
"""


def half_key(player: str) -> str:
    return f"desk_half_{player}"


def _tile_css(tiles: Mapping[str, board.Tile], selected: str | None) -> str:
    rules = []
    for player in ("B", "A"):
        for n, cell in enumerate(board.half_cells(player), 1):
            tile = tiles[cell]
            button = f"{HALF.format(player=player)} > button:nth-child({n})"
            if tile.owner is not None and tile.owner in OWNER_STYLE:
                fill, edge = OWNER_STYLE[tile.owner]
                side = "left" if tile.owner == "A" else "right"
                rules.append(f"{button} {{ background: {fill}; border-{side}: 5px solid {edge}; }}")
            if tile.mark is not None and tile.mark in MARK_COLOUR:
                width = 1 if tile.mark == "illegal" else 3  # the allowed cells stand out, the refused recede
                rules.append(f"{button} {{ box-shadow: inset 0 0 0 {width}px {MARK_COLOUR[tile.mark]}; }}")
            if selected is not None and selected in (tile.card, tile.symbiote):
                rules.append(f"{button} {{ outline: 3px solid #111827; outline-offset: -3px; }}")
    return "\n".join(rules)


def tile_label(tile: board.Tile, selected: str | None) -> str:
    """The tile's text, one fact a line (Markdown line breaks; names escaped)."""
    lines = [common.escape_md(tile.head)]
    if tile.card is not None:
        pick = "▶ " if selected == tile.card else ""
        lines.append(f"{pick}**{common.escape_md(tile.name)}**")
        lines.append(common.escape_md(tile.facts))
    if tile.symbiote_line:
        pick = "▶ " if selected == tile.symbiote else ""
        lines.append(pick + common.escape_md(tile.symbiote_line))
    return "  \n".join(lines)


def half_help(tiles: Mapping[str, board.Tile], player: str) -> str | None:
    """The half's tooltip: each card's facts and each marked cell's why, a paragraph a tile (escaped);
    None when the half has neither."""
    told = [tiles[c] for c in board.half_cells(player) if tiles[c].card is not None or tiles[c].mark]
    if not told:
        return None
    return "\n\n".join(common.escape_md(f"{t.cell}: " + t.tip.replace("\n", "; ")) for t in told)


def _tapped(key: str, on_click: Callable[[str], None]) -> None:
    cell = st.session_state.get(key)
    st.session_state[key] = None  # no tile stays chosen: the next tap on it is a change too
    if isinstance(cell, str):
        on_click(cell)


def draw_grid(
    props: Props, marks: Mapping[str, Mark], selected: str | None, on_click: Callable[[str], None]
) -> None:
    """B's half on top, A's under it; a tap on a tile calls `on_click` with its cell."""
    tiles = board.tiles(props, marks)
    st.html(f"<style>{GRID_CSS}\n{_tile_css(tiles, selected)}</style>")
    for player in ("B", "A"):
        key = half_key(player)
        st.pills(
            board.half_caption(player),
            board.half_cells(player),
            format_func=lambda cell: tile_label(tiles[cell], selected),
            key=key,
            on_change=_tapped,
            args=(key, on_click),
            help=half_help(tiles, player),
            width="stretch",
        )


def draw_zones(
    props: Props, state: engine.GameState, selected: str | None, on_pick: Callable[[str], None]
) -> None:
    """Each player's cards outside the field; a click selects one."""
    zones = {player: view.side_zones(props, state, player) for player in engine.PLAYERS}
    names = view.names(props)
    if not any(zones.values()):
        st.caption("Вне поля карт нет: вспомогательные зоны, руки, колоды, кладбища и изгнание пусты.")
        return
    with st.container(key="desk_zones"):
        for player in engine.PLAYERS:
            active = " — активный" if state.active == player else ""
            st.markdown(f"**Игрок {player}{active}: вне поля**")
            if not zones[player]:
                st.caption("вспомогательная зона, рука, колода, кладбище и изгнание пусты")
            for label, ids in zones[player]:
                st.caption(f"{label}: {len(ids)}")
                for cid in ids:
                    pick = "▶ " if selected == cid else ""
                    st.button(
                        pick + common.escape_md(view.card_text(props[cid], names[cid])),
                        key=f"desk_zone_{cid}",
                        on_click=on_pick,
                        args=(cid,),
                        width="stretch",
                    )
