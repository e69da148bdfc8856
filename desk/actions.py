"""The action form's logic: which argument a click on the field fills, the marks of the candidates
(what applying each gives, from `engine.legal_options`), and an action from the form's values."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import engine
import lexicon
from desk.view import Props, card_label


class Mark(NamedTuple):
    """What a tap on a cell (or a candidate in a list) gives: the verdict code, why (with the
    citation that decides it), and the short words shown on the mark itself («нельзя: п. 211.3.1»)."""

    verdict: str
    why: str
    short: str = ""


def kinds() -> list[str]:
    """The action kinds a judge picks (answering a pending choice has its own panel)."""
    return [k for k in engine.ACTION_SPECS if k != "choose"]


def arg_label(arg: engine.ArgSpec) -> str:
    """An argument's label as the form shows it (the engine may name the auxiliary zone «aux»)."""
    label = arg.label.replace(" или aux", " или вспомогательная зона")
    return label + ("" if arg.required else " (необязательно)")


def first_card_arg(spec: engine.ActionSpec) -> str | None:
    return next((a.name for a in spec.args if a.type == "card" and a.required), None)


def cell_arg(spec: engine.ActionSpec) -> str | None:
    return next((a.name for a in spec.args if a.type in ("cell", "place")), None)


def click_fill(
    spec: engine.ActionSpec, props: Mapping[str, Props], cell: str, filled: Mapping[str, object]
) -> tuple[str, str] | None:
    """What a click on `cell` fills in the form of `spec`: its cell argument, if it has one; else
    the first card argument still empty (or the first card argument) with the card standing there."""
    by_cell = cell_arg(spec)
    if by_cell:
        return by_cell, cell
    on_cell = [cid for cid, p in props.items() if p.get("cell") == cell and not p.get("host")]
    if not on_cell:
        return None
    empty = (a.name for a in spec.args if a.type == "card" and not filled.get(a.name))
    target = next(empty, first_card_arg(spec))
    return (target, on_cell[0]) if target else None


def legal_map(state: engine.GameState, kind: str, fixed: Mapping[str, object]) -> list[engine.OptionVerdict]:
    """The options of `kind` with `fixed` arguments, each with its verdict; none when the action
    as filled so far cannot be listed (the marks are a help: without them the judge still picks
    and applies)."""
    try:
        return list(engine.legal_options(state, kind, **dict(fixed)))
    except engine.ActionError:
        return []


# How a mark names a clause: lexicon.cite under the engine's own rules, desk.citations.Citations.cite
# (the loaded version's numbering) when the window reads other rules.
Cite = Callable[[str], str]


def why(ov: engine.OptionVerdict, cite: Cite = lexicon.cite) -> str:
    """«п. 211.3.1: …» — the option's reason with the citation that decides it, if any."""
    return f"{cite(ov.clause)}: {ov.reason}" if ov.clause else ov.reason


def hints(verdicts: Iterable[engine.OptionVerdict], arg: str, cite: Cite = lexicon.cite) -> dict[str, Mark]:
    """The marks of the values offered for argument `arg`."""
    out: dict[str, Mark] = {}
    for ov in verdicts:
        offered = ov.args.get(arg)
        if isinstance(offered, str):
            out[offered] = Mark(ov.verdict, why(ov, cite))
    return out


def card_cell_marks(props: Mapping[str, Props], card_hints: Mapping[str, Mark]) -> dict[str, Mark]:
    """The cells of marked cards (a legal host or target marks its cell; «можно» wins a shared cell)."""
    marks: dict[str, Mark] = {}
    for cid, mark in card_hints.items():
        cell = props.get(cid, {}).get("cell")
        if cell and (str(cell) not in marks or mark[0] == "legal"):
            marks[str(cell)] = Mark(mark.verdict, f"{card_label(props, cid)}: {mark.why}", mark.short)
    return marks


def args_from_values(arg_types: Sequence[tuple[str, str]], values: Mapping[str, Any]) -> dict[str, object]:
    """An action's arguments from the form's values (empty ones left out, numbers as int)."""
    args: dict[str, object] = {}
    for name, arg_type in arg_types:
        value = values.get(name)
        if value is None or value == "" or value == []:
            continue
        args[name] = (
            int(value) if arg_type == "int" else list(value) if isinstance(value, list | tuple) else value
        )
    return args
