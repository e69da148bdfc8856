"""Trying actions: the selected card's actions (one click each, each with its mark), the actions of
the turn, the full action form for anything else, the pending choice, undo and redo.

Marks come from desk/quick.py, which applies every option: «✔ можно», «✘ нельзя: п. …»,
«? не определено: п. …». A callback applies the action before the next run draws the desk.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

import engine
import lexicon
from app_pages.desk import session
from app_pages.desk import trace as desk_trace
from app_pages.shared import common
from desk import actions as desk_actions
from desk import edits, quick, view
from desk.actions import Mark
from desk.model import Desk, DeskError, Replay

Props = Mapping[str, Mapping[str, Any]]
AMOUNTS = (1, 2, 3, 4, 5, 6)
NONE = types.MappingProxyType({"": "нет"})


def apply_action(kind: str, args: Mapping[str, object]) -> None:
    """Apply one action to this judge's desk; a malformed action leaves the desk as it was."""
    try:
        action = engine.parse_action(kind, dict(args))
        new_desk = edits.with_action(session.current(), action)
    except (engine.ActionError, DeskError) as exc:
        session.flash("error", f"Действие не применено, стол не изменился: {exc}", "panel")
        return
    session.store(new_desk)


def quick_for(desk: Desk, state: engine.GameState, props: Props, cid: str) -> list[quick.Quick]:
    """The selected card's quick actions, computed once per desk and card (cached in the session)."""
    cites = desk_trace.citations()  # the marks cite clauses in the window's rules: part of the key
    key = (desk.key(), cid)
    cached = st.session_state.get("desk_quick")
    if isinstance(cached, tuple) and len(cached) == 3 and cached[0] == key and cached[1] is cites:
        return list(cached[2])
    found = quick.quick_actions(state, props, cid, cites.cite)
    st.session_state["desk_quick"] = (key, cites, tuple(found))
    return found


def armed(quicks: list[quick.Quick], cid: str) -> quick.Quick | None:
    """The cell action a click on an empty cell applies (the judge's choice, else the first)."""
    cells = [q for q in quicks if q.style == "cells"]
    wanted = st.session_state.get(f"desk_armed_{cid}")
    return next((q for q in cells if q.kind == wanted), cells[0] if cells else None)


def board_marks(quicks: list[quick.Quick], cid: str | None) -> dict[str, Mark]:
    chosen = armed(quicks, cid) if cid else None
    return quick.cell_marks(chosen) if chosen is not None else {}


def _choice_button(q: quick.Quick, i: int, choice: quick.Choice, label: str) -> None:
    st.button(
        label,
        key=f"desk_q_{q.kind}_{i}",
        help=common.escape_md(choice.reason),
        on_click=apply_action,
        args=(q.kind, choice.args),
    )


def _amount(state: engine.GameState, props: Props, q: quick.Quick, cid: str) -> None:
    """An amount action: the number, its optional board arguments, then one button with its mark."""
    spec = engine.ACTION_SPECS[q.kind]
    key = f"desk_q_{q.kind}_{cid}"
    args: dict[str, object] = {q.card_arg: cid}
    with st.container(border=True, key=f"desk_q_{q.kind}_box"):
        st.markdown(f"**{q.label}**")
        number = spec.arg(q.arg)
        amount = st.segmented_control(
            desk_actions.arg_label(number) if number is not None else q.arg,
            AMOUNTS,
            default=1,
            key=f"{key}_n",
            width="stretch",
        )
        args[q.arg] = int(amount or 1)
        for arg in spec.args:
            if arg.required or arg.name in args:
                continue
            if arg.type == "card":
                options = ["", *quick.sources(props, cid)]
                value = st.pills(
                    arg.label,
                    options,
                    default="",
                    format_func=lambda c: NONE.get(c) or str(props[c].get("name")),
                    key=f"{key}_{arg.name}",
                    width="stretch",
                )
            elif arg.choices:
                value = st.selectbox(
                    arg.label,
                    list(arg.choices),
                    index=list(arg.choices).index(arg.default) if arg.default in arg.choices else 0,
                    format_func=lexicon.enum_word,
                    key=f"{key}_{arg.name}",
                )
            else:
                continue
            if value:
                args[arg.name] = value
        option = quick.given_option(state, q.kind, args, desk_trace.citations().cite)
        if option is not None:
            _choice_button(q, 0, option, f"{q.label}: {args[q.arg]} — {option.mark}")


def _show_quick(state: engine.GameState, props: Props, q: quick.Quick, cid: str) -> None:
    if q.style == "button":
        _choice_button(q, 0, q.choices[0], f"{q.label} — {q.choices[0].mark}")
    elif q.style == "pick":
        st.caption(f"{q.label}:")
        with st.container(horizontal=True):
            for i, choice in enumerate(q.choices):
                _choice_button(q, i, choice, choice.label)
    elif q.style == "amount":
        _amount(state, props, q, cid)


STYLE_ORDER = ("pick", "amount", "button")


def card_actions(desk: Desk, rp: Replay, props: Props, cid: str) -> list[quick.Quick]:
    """The selected card's actions: a click on an empty cell (armed), then those some option allows
    (choices of a target, amounts, one-click ones), the forbidden ones folded with their reasons."""
    state = rp.current
    quicks = quick_for(desk, state, props, cid)
    st.markdown("**Действия с этой картой**")
    cells = [q for q in quicks if q.style == "cells"]
    if cells:
        chosen = armed(quicks, cid)
        st.pills(
            "Щелчок по пустой клетке поля",
            [q.kind for q in cells],
            default=chosen.kind if chosen else None,
            format_func=lambda k: engine.ACTION_SPECS[k].label,
            key=f"desk_armed_{cid}",
            width="stretch",
            help="Пустые клетки поля помечены: что даст это действие на каждой из них",
        )
    others = sorted((q for q in quicks if q.style != "cells"), key=lambda q: STYLE_ORDER.index(q.style))
    open_ones = [q for q in others if q.open]
    for style in STYLE_ORDER:
        group = [q for q in open_ones if q.style == style]
        if style == "button" and group:
            with st.container(horizontal=True):
                for q in group:
                    _show_quick(state, props, q, cid)
        else:
            for q in group:
                _show_quick(state, props, q, cid)
    closed = [q for q in others if not q.open]
    if closed:
        with st.expander(f"Сейчас нельзя ({len(closed)}): почему", key=f"desk_closed_{cid}"):
            for q in closed:
                _show_quick(state, props, q, cid)
    return quicks


def turn_actions(rp: Replay) -> None:
    """The actions that take no card: end the turn, the next phase of the preparation …"""
    with st.container(horizontal=True):
        for kind, choice in quick.position_actions(rp.current, desk_trace.citations().cite):
            st.button(
                f"{choice.words} — {choice.mark}",
                key=f"desk_pos_{kind}",
                help=common.escape_md(choice.reason),
                on_click=apply_action,
                args=(kind, {}),
            )


def _choose_from_widget() -> None:
    choice = st.session_state.get("desk_choice")
    if choice is not None:
        apply_action("choose", {"option": choice})


def pending_panel(pending: engine.Pending, clause_ref: Callable[[str], None]) -> None:
    with st.container(border=True):
        st.markdown(f":material/help: **Нужен выбор** — решает {lexicon.player(pending.who)}")
        clause_ref(pending.clause)
        st.text(pending.question)
        labels = {o.key: o.label for o in pending.options}
        st.radio(
            "Вариант",
            list(labels),
            format_func=lambda k: common.escape_md(labels.get(k) or str(k)),  # radio options render Markdown
            key="desk_choice",
        )
        st.button("Ответить", type="primary", key="desk_choose", on_click=_choose_from_widget)


def _apply_from_widgets(kind: str, arg_types: tuple[tuple[str, str], ...]) -> None:
    """«Применить действие» callback: it runs before the script, so one run draws the new desk."""
    values = {name: st.session_state.get(f"desk_arg_{kind}_{name}") for name, _ in arg_types}
    apply_action(kind, desk_actions.args_from_values(arg_types, values))


def full_form(rp: Replay, props: Props) -> None:
    """Any action with all its arguments; the candidates of the later arguments carry their marks."""
    specs = engine.ACTION_SPECS
    kind = str(
        st.selectbox("Действие", desk_actions.kinds(), format_func=lambda k: specs[k].label, key="desk_kind")
    )
    spec = specs[kind]
    cites = desk_trace.citations()
    first = desk_actions.first_card_arg(spec)
    verdicts: list[engine.OptionVerdict] = []
    for arg in spec.args:
        value = _arg_widget(arg, kind, props, desk_actions.hints(verdicts, arg.name, cites.cite))
        if arg.name == first and value:
            verdicts = desk_actions.legal_map(rp.current, kind, {arg.name: value})
            if verdicts:
                st.caption(view.verdict_counts(verdicts))
    st.button(
        "Применить действие",
        type="primary",
        key="desk_apply",
        on_click=_apply_from_widgets,
        args=(kind, tuple((a.name, a.type) for a in spec.args)),
    )


def _arg_widget(arg: engine.ArgSpec, kind: str, props: Props, hints: Mapping[str, Mark]) -> object:
    key = f"desk_arg_{kind}_{arg.name}"
    label = desk_actions.arg_label(arg)

    def marked(value: str, shown: str) -> str:
        return shown + (f" — {view.OPTION_MARKS[hints[value][0]]}" if value in hints else "")

    if arg.type in ("card", "cell", "place"):
        if arg.type == "card":
            options = list(props)
        else:
            options = [*engine.CELLS, *(["aux"] if arg.type == "place" else [])]
        if st.session_state.get(key) not in options:
            st.session_state.pop(key, None)
        return st.selectbox(
            label,
            options,
            index=None,
            placeholder="выберите…",
            format_func=lambda v: marked(
                v, view.card_label(props, v) if arg.type == "card" else view.place_word(v)
            ),
            key=key,
        )
    if arg.type == "player":
        return st.radio(
            label, ["", *engine.PLAYERS], horizontal=True, key=key, format_func=lambda p: p or "—"
        )
    if arg.type == "int":
        return int(st.number_input(label, min_value=0, max_value=99, value=1, key=key))
    if arg.type == "bool":
        return st.checkbox(label, value=bool(arg.default), key=key)
    if arg.type == "cells":
        return st.multiselect(label, list(engine.CELLS), key=key, placeholder="выберите клетки…")
    if not arg.choices:
        return st.text_input(label, key=key, max_chars=80)
    choices = list(arg.choices)
    return st.selectbox(
        label,
        choices,
        index=choices.index(arg.default) if arg.default in choices else None,
        placeholder="не указано",
        key=key,
        format_func=lexicon.enum_word,
    )


def history_panel(desk: Desk) -> None:
    def change(fn: Callable[[Desk], Desk]) -> None:
        session.store(fn(session.current()))

    buttons = (
        ("Отменить", ":material/undo:", "desk_undo", desk.cursor == 0, edits.undo, None),
        ("Вернуть", ":material/redo:", "desk_redo", desk.cursor >= len(desk.actions), edits.redo, None),
        (
            "К исходной позиции",
            ":material/restart_alt:",
            "desk_restart",
            desk.cursor == 0,
            edits.restart,
            None,
        ),
        (
            "Править расклад",
            ":material/edit:",
            "desk_clear",
            not desk.started,
            edits.clear_actions,
            "Забыть действия и вернуться к раскладке карт",
        ),
    )
    with st.container(horizontal=True):
        for label, icon, key, disabled, fn, tip in buttons:
            st.button(label, icon=icon, key=key, disabled=disabled, on_click=change, args=(fn,), help=tip)
    st.caption(f"Действий применено: {desk.cursor} из {len(desk.actions)}.")
