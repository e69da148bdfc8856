"""Drawing the desk: the 5×6 field, the compact table, the zones beside it and the engine's trace.

Text a judge typed (card names) is shown with st.text or escaped for Markdown, never as markup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import streamlit as st

import engine
import lexicon
from app_pages import common
from desk import view
from desk.actions import Mark

Props = Mapping[str, Mapping[str, object]]


def clause_ref(cid: str) -> None:
    """A clause as a link into the rules browser (st.page_link: the app does not reload, so the
    judge's uploaded rules and desk stay); an assumption id as a plain label."""
    if not cid:
        st.caption("без пункта правил (служебный шаг)")
        return
    if not cid[:1].isdigit():
        st.caption(common.escape_md(f"{lexicon.cite(cid)} (не текст правил, см. допущения движка)"))
        return
    index = common.current_index()
    para = index.get(cid)
    tail = f" — {common.short(para.text, 40)}" if para is not None else ""
    label = common.escape_md(f"{lexicon.cite(cid)}{tail}")
    common.clause_link(index, cid, label=label, icon=":material/description:")


# Streamlit stacks columns one under another below 640 px: 30 cells in a column is no battlefield.
# On a narrow screen the grid keeps its five columns with smaller type (a static style of ours;
# nothing a judge typed goes into it).
_GRID_CSS = """<style>
@media (max-width: 640px) {
  .st-key-desk_grid [data-testid="stHorizontalBlock"] {
    flex-wrap: nowrap !important; gap: 0.2rem !important;
  }
  .st-key-desk_grid [data-testid="stColumn"] {
    min-width: 0 !important; width: 20% !important; flex: 1 1 0 !important;
  }
  .st-key-desk_grid [data-testid="stLayoutWrapper"] > [data-testid="stVerticalBlock"] {
    padding: 0.2rem !important; gap: 0.3rem !important;
  }
  .st-key-desk_grid [data-testid="stText"] { font-size: 0.6rem; line-height: 1.15; overflow-wrap: anywhere; }
  .st-key-desk_grid button { padding: 0.1rem 0.2rem !important; min-height: 2rem; }
  .st-key-desk_grid button p { font-size: 0.65rem; }
}
</style>"""


def draw_grid(props: Props, marks: Mapping[str, Mark], pick: str, on_click: Callable[[str], None]) -> None:
    """The 5×6 field, B's half on top (rows 6–4), A's below (rows 3–1). `marks` are the marked
    cells of the chosen action; `pick` names what a click on a cell fills in."""
    by_cell = view.on_cells(props)
    st.html(_GRID_CSS)
    with st.container(key="desk_grid"):
        for half, rows in (("B", (6, 5, 4)), ("A", (3, 2, 1))):
            st.markdown(f"**Половина {common.escape_md(lexicon.player(half, 'gen'))}**")
            for row in rows:
                st.caption(view.row_label(row))
                cols = st.columns(5, gap="small")
                for col, letter in zip(cols, engine.COLUMNS, strict=True):
                    with col.container(border=True):
                        _draw_cell(f"{letter}{row}", by_cell, props, marks, pick, on_click)


def _draw_cell(
    cell: str,
    by_cell: Mapping[str, list[str]],
    props: Props,
    marks: Mapping[str, Mark],
    pick: str,
    on_click: Callable[[str], None],
) -> None:
    mark = marks.get(cell)
    label = cell + (" " + view.OPTION_MARKS[mark[0]] if mark is not None else "")
    st.button(
        label,
        key=f"desk_cell_{cell}",
        # Tooltips and radio options render Markdown: a card name a judge typed is escaped.
        help=common.escape_md(mark[1]) if mark else f"Клетка {cell}: {pick}",
        type="primary" if mark is not None and mark[0] else "secondary",
        width="stretch",
        on_click=on_click,
        args=(cell,),
    )
    for cid in by_cell.get(cell, []):
        st.text(view.card_block(props[cid], cid))
        sym = props[cid].get("symbiote")
        if sym and str(sym) in props:
            st.text(view.card_block(props[str(sym)], str(sym), symbiote=True))


def draw_table(props: Props, marks: Mapping[str, Mark]) -> None:
    """The field as a 6×5 text table that keeps its shape on a narrow screen (rows 6→1, B on top)."""
    rows = {
        view.table_row_label(row): [
            view.table_cell(props, f"{letter}{row}", m[0] if (m := marks.get(f"{letter}{row}")) else None)
            for letter in engine.COLUMNS
        ]
        for row in view.ROWS_TOP_DOWN
    }
    st.dataframe(
        {"ряд": list(rows), **{c: [rows[r][i] for r in rows] for i, c in enumerate(engine.COLUMNS)}},
        hide_index=True,
        key="desk_table",
    )


def draw_zones(props: Props, state: engine.GameState) -> None:
    for player in engine.PLAYERS:
        st.markdown(f"**Игрок {player}{' — активный' if state.active == player else ''}**")
        zones = view.side_zones(props, state, player)
        for label, ids in zones:
            st.caption(f"{label}: {len(ids)}")
            for cid in ids:
                st.text(view.card_text(props[cid], cid))
        if not zones:
            st.caption("вспомогательная зона, рука, колода, кладбище и изгнание пусты")


def draw_trace(steps: Sequence[engine.TraceStep], depth: int = 0) -> None:
    """Each step: its kind (icon and word; forbidden ones in a red box), its clause as a link, the
    reason and the changes. Nested steps sit in a bordered box under their parent."""
    for step in steps:
        icon, word = lexicon.step_icon(step.kind), lexicon.step_kind(step.kind)
        head = f"**{word}**" + (f" — {common.escape_md(lexicon.cite(step.clause))}" if step.clause else "")
        if step.kind in ("forbidden", "conflict"):
            st.error(head, icon=icon)
        elif step.kind == "undetermined":
            st.warning(head, icon=icon)
        else:
            st.markdown(f"{icon} {head}")
        clause_ref(step.clause)
        st.text(step.reason)
        for change in step.changes:
            st.text("→ " + change)
        if step.children:
            with st.container(border=True):
                draw_trace(step.children, depth + 1)


def verdict_banner(outcome: engine.Outcome, action: engine.Action) -> None:
    head = view.verdict_head(outcome)
    word, _, rest = head.partition(" — ")
    text = f"**{word}**" + (f" — {common.escape_md(rest)}" if rest else "")
    show = {"legal": st.success, "illegal": st.error}.get(outcome.verdict, st.warning)
    show(text, icon=lexicon.verdict_icon(outcome.verdict))
    for cid in view.forbidden_by(outcome):
        clause_ref(cid)
    st.text(view.action_words(action) + "\n" + repr(action))
