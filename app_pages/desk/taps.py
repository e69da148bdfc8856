"""Rows of buttons as one element: a component of our own (taps.js, taps.css; issue 24).

The panel beside the field is mostly buttons: undo and redo, what a tap on an empty cell does, each
action's targets, the turn's actions. As Streamlit widgets each is an element of its own that a
desk action redraws (a button, its tooltip, its row's container, its label's Markdown); gathered
here, the rows drawn between two other elements are one. A press calls the button's function with
its arguments before the next run draws the desk, as a button's on_click does. Text is shown as
text (textContent), never as Markdown or HTML: card names are typed by judges.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from app_pages.shared import components

TAP = "tap"  # the trigger a press sends: the button's id
KINDS = ("plain", "tertiary", "pill")  # a bordered button, a bare one (undo, redo), a pill (a target)
_HERE = Path(__file__).parent


_TAPS = st.components.v2.component(
    "berserk_desk_taps",
    js=components.script(_HERE / "taps.js"),
    css=components.asset(_HERE / "taps.css"),
    # in the page's own DOM, as the field (board.py): its nodes are the page's, its classes its own
    isolate_styles=False,
)


@dataclasses.dataclass(frozen=True)
class Tap:
    """A button: its id (unique on the page), its label, and what a press calls."""

    id: str
    text: str
    act: Callable[..., None] | None = None
    args: tuple[Any, ...] = ()
    tip: str = ""  # a tooltip
    icon: str = ""  # a Material Symbols name («undo»), beside the label, hidden from its accessible name
    disabled: bool = False
    pressed: bool | None = None  # a choice: whether it is the one chosen (aria-pressed); None: not a choice
    kind: str = "plain"

    def data(self) -> dict[str, Any]:
        kind = self.kind if self.kind in KINDS else "plain"
        out: dict[str, Any] = {"id": self.id, "text": self.text, "kind": kind}
        if self.tip:
            out["tip"] = self.tip
        if self.icon:
            out["icon"] = self.icon
        if self.disabled:
            out["disabled"] = True
        if self.pressed is not None:
            out["pressed"] = self.pressed
        return out


@dataclasses.dataclass(frozen=True)
class Row:
    """A row: its label, bold unless `plain` (and a plain note after it), above its buttons, or
    beside them (`inline`); `why` folded under it, a paragraph a line, behind `why_label`. A row
    with `fold` is a folded part instead: that summary, and `rows` under it while `open` (a tap on
    the summary opens or closes it; what is folded is not drawn, nor even made, until it opens),
    with `icon` (a Material Symbols name) before its summary, as Streamlit's expander has one."""

    id: str
    items: tuple[Tap, ...] = ()
    label: str = ""
    note: str = ""
    inline: bool = False
    plain: bool = False  # the label in plain weight (a choice's caption), not bold
    tight: bool = False  # close under the row above (a part of the same thing)
    why: tuple[str, ...] = ()
    why_label: str = ""
    fold: str = ""
    open: bool = False
    rows: tuple[Row, ...] = ()
    icon: str = ""

    def data(self) -> dict[str, Any]:
        if self.fold:
            rows = [row.data() for row in self.rows] if self.open else []
            out = {"id": self.id, "fold": self.fold, "open": self.open, "rows": rows}
            if self.icon:
                out["icon"] = self.icon
            return out
        return {
            "id": self.id,
            "items": [t.data() for t in self.items],
            "label": self.label,
            "note": self.note,
            "inline": self.inline,
            "plain": self.plain,
            "tight": self.tight,
            "why": list(self.why),
            "why_label": self.why_label,
        }

    def walk(self) -> list[Row]:
        """This row and, in a fold that is open, the rows under it."""
        return [self, *(r for row in (self.rows if self.open else ()) for r in row.walk())]


def is_open(fold: str) -> bool:
    """Whether the folded part `fold` (its row's id) is open: kept in the tab's state under that id
    (so a test can open it as a judge would, helpers.unfold)."""
    return bool(st.session_state.get(fold))


def _set_open(fold: str, open_: bool) -> None:
    st.session_state[fold] = open_


Acts = Mapping[str, tuple[Callable[..., None], tuple[Any, ...]]]


def pressed(value: object, acts: Acts, folds: frozenset[str] = frozenset()) -> bool:
    """Do what the browser sent: a button's id (`acts` calls its function), or a folded part opened
    or closed ({"fold": id, "open": bool}); False for anything no row drawn in the last run has (a
    value from the browser is never trusted)."""
    if isinstance(value, str) and value in acts:
        act, args = acts[value]
        act(*args)
        return True
    if isinstance(value, Mapping) and value.get("fold") in folds and isinstance(value.get("open"), bool):
        _set_open(str(value["fold"]), bool(value["open"]))
        return True
    return False


def _on_tap(key: str, acts: Acts, folds: frozenset[str]) -> None:
    pressed(components.sent(key, TAP), acts, folds)


def draw(key: str, rows: list[Row]) -> None:
    """The rows as one element at this place on the page."""
    every = [r for row in rows for r in row.walk()]
    acts = {t.id: (t.act, t.args) for row in every for t in row.items if t.act is not None and not t.disabled}
    folds = frozenset(row.id for row in every if row.fold)
    data = components.data({"rows": [row.data() for row in rows]})  # bytes (components says why)
    _TAPS(key=key, data=data, on_tap_change=lambda: _on_tap(key, acts, folds), width="stretch")


class Bar:
    """Rows gathered while a part of the page is laid out, drawn as one element when something else
    must be drawn after them (`flush`) or the part is done. One per run, never kept."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.rows: list[Row] = []
        self.drawn = 0

    def add(self, row: Row) -> None:
        self.rows.append(row)

    def flush(self) -> None:
        """Draw the rows gathered so far (nothing when there are none)."""
        if not self.rows:
            return
        draw(f"{self.prefix}_{self.drawn}", self.rows)
        self.drawn += 1
        self.rows = []
