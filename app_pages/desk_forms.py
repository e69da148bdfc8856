"""The desk's forms: the position before the actions (phase, cards) and the action picker.

The forms only collect what the judge chose; the entries and actions are built in desk/ and the
engine judges them. Every widget has a key; a callback edits the desk before the next run draws it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

import engine
import lexicon
from app_pages import common, desk_board
from app_pages import desk_session as session
from desk import actions as desk_actions
from desk import edits, entries, view
from desk.actions import Mark
from desk.model import Desk, DeskError, Replay

Props = Mapping[str, Mapping[str, Any]]
PLACES = (*engine.CELLS, "aux", "hand", "deck", "graveyard", "exile", "host")


# -- setup ---------------------------------------------------------------------------------------


def _setup_changed(field: str, key: str) -> None:
    session.store(edits.set_header(session.current(), field, st.session_state.get(key)))


def _put(desk: Desk, entry: Mapping[str, Any], ok: str) -> None:
    try:
        session.store(edits.put_card(desk, entry, session.library()))
    except (DeskError, engine.SetupError) as exc:
        session.flash("error", f"Расклад не изменился: {exc}")
    else:
        session.flash("success", ok)
    st.rerun()


def _header(desk: Desk) -> None:
    c1, c2, c3, c4 = st.columns(4)
    phases = list(lexicon.PHASES)
    g = session.gen()
    # Each widget writes to the desk only when the judge changes it (on_change), so a desk that
    # arrives from a file or a link is never overwritten by the widgets' previous values.
    c1.selectbox(
        "Фаза",
        phases,
        index=phases.index(desk.phase),
        format_func=lexicon.phase,
        key=f"desk_phase_{g}",
        on_change=_setup_changed,
        args=("phase", f"desk_phase_{g}"),
    )
    c2.radio(
        "Активный игрок",
        list(engine.PLAYERS),
        index=list(engine.PLAYERS).index(desk.active),
        key=f"desk_active_{g}",
        horizontal=True,
        on_change=_setup_changed,
        args=("active", f"desk_active_{g}"),
    )
    c3.number_input(
        "Ход",
        min_value=1,
        max_value=999,
        value=desk.turn,
        key=f"desk_turn_{g}",
        on_change=_setup_changed,
        args=("turn", f"desk_turn_{g}"),
    )
    c4.number_input(
        "Зерно перемешивания",
        min_value=0,
        max_value=2**31,
        value=desk.seed,
        key=f"desk_seed_{g}",
        on_change=_setup_changed,
        args=("seed", f"desk_seed_{g}"),
    )


def setup_panel(desk: Desk, clicked: str | None) -> None:
    lib = session.library()
    st.markdown("**Позиция до начала действий**")
    _header(desk)
    if clicked:
        st.session_state["desk_add_at"] = clicked
    with st.form("desk_add_form", clear_on_submit=False):
        st.markdown("**Добавить карту** (клик по клетке поля выбирает её здесь)")
        source = st.radio(
            "Откуда",
            ["library", "adhoc"],
            horizontal=True,
            key="desk_add_source",
            format_func=lambda s: "из библиотеки" if s == "library" else "своя карта по шаблону",
        )
        a1, a2 = st.columns(2)
        name = a1.selectbox("Карта из библиотеки", lib.names(), key="desk_add_name")
        template = a2.selectbox("Шаблон своей карты", lib.templates(), key="desk_add_template")
        b1, b2, b3 = st.columns(3)
        adhoc_name = b1.text_input("Название своей карты", key="desk_add_adhoc_name", max_chars=80)
        adhoc_life = b2.number_input(
            "Жизнь своей карты", min_value=0, max_value=99, value=5, key="desk_add_life"
        )
        adhoc_incorporeal = b3.checkbox("Бестелесное", key="desk_add_incorporeal")
        d1, d2, d3 = st.columns(3)
        owner = d1.radio("Владелец", list(engine.PLAYERS), horizontal=True, key="desk_add_owner")
        controller = d2.radio("Управляет", ["владелец", "A", "B"], horizontal=True, key="desk_add_controller")
        cid = d3.text_input("id (латиницей; пусто — подберу)", key="desk_add_id", max_chars=40)
        e1, e2 = st.columns(2)
        at = e1.selectbox("Где", PLACES, format_func=view.place_word, key="desk_add_at")
        ids = [str(c.get("id")) for c in desk.cards]
        host = e2.selectbox("Хозяин (для симбиота)", ["", *ids], key="desk_add_host")
        f1, f2, f3, f4, f5 = st.columns(5)
        flags = {
            "closed": f1.checkbox("Закрыта", key="desk_add_closed"),
            "hidden": f2.checkbox("Скрыта", key="desk_add_hidden"),
            "incarnated": f5.checkbox("Инкарнирована", key="desk_add_incarnated"),
        }
        counts = {
            "wounds": int(f3.number_input("Раны", min_value=0, max_value=99, key="desk_add_wounds")),
            "tokens": int(f4.number_input("Жетоны", min_value=0, max_value=99, key="desk_add_tokens")),
        }
        submitted = st.form_submit_button("Положить карту", type="primary", key="desk_add_submit")
    if submitted:
        try:
            card: str | dict[str, Any] = (
                entries.adhoc_card(str(template), adhoc_name, int(adhoc_life), adhoc_incorporeal)
                if source == "adhoc"
                else str(name)
            )
            entry = entries.new_entry(
                desk,
                card,
                str(owner),
                at=None if at == "host" else str(at),
                host=str(host) if at == "host" else None,
                controller=str(controller),
                cid=cid,
                flags=flags,
                counts=counts,
            )
        except DeskError as exc:
            st.error(str(exc))
            return
        _put(desk, entry, f"Карта {entry['id']} на столе.")
    if desk.cards:
        _edit_panel(desk)


def _edit_panel(desk: Desk) -> None:
    lib = session.library()
    st.markdown("**Изменить или убрать карту**")
    g1, g2 = st.columns([3, 1])
    ids = [str(c.get("id")) for c in desk.cards]
    chosen = str(g1.selectbox("Карта", ids, key="desk_edit_pick"))
    entry_now = desk.card(chosen) or {}
    if g2.button("Убрать карту", key="desk_remove"):
        try:
            session.store(edits.remove_card(desk, chosen, lib))
            session.flash("success", f"Карта {chosen} убрана.")
        except (DeskError, engine.SetupError) as exc:
            session.flash("error", f"Карта не убрана: {exc}")
        st.rerun()
    with st.form(f"desk_edit_form_{chosen}"):
        now_at = "host" if entry_now.get("host") else str(entry_now.get("at", "a1"))
        h1, h2, h3 = st.columns(3)
        new_at = h1.selectbox(
            "Где",
            PLACES,
            index=PLACES.index(now_at) if now_at in PLACES else 0,
            format_func=view.place_word,
            key=f"desk_edit_at_{chosen}",
        )
        host_options = ["", *[i for i in ids if i != chosen]]
        now_host = str(entry_now.get("host") or "")
        new_host = h2.selectbox(
            "Хозяин",
            host_options,
            index=host_options.index(now_host) if now_host in host_options else 0,
            key=f"desk_edit_host_{chosen}",
        )
        players = list(engine.PLAYERS)
        new_ctrl = h3.radio(
            "Управляет",
            players,
            index=players.index(str(entry_now.get("controller") or entry_now["owner"])),
            horizontal=True,
            key=f"desk_edit_ctrl_{chosen}",
        )
        i1, i2, i3, i4 = st.columns(4)
        flags = {
            "closed": i1.checkbox(
                "Закрыта", value=bool(entry_now.get("closed")), key=f"desk_edit_closed_{chosen}"
            ),
            "hidden": i2.checkbox(
                "Скрыта", value=bool(entry_now.get("hidden")), key=f"desk_edit_hidden_{chosen}"
            ),
        }
        counts = {
            key: int(
                col.number_input(
                    label,
                    min_value=0,
                    max_value=99,
                    value=int(entry_now.get(key, 0)),
                    key=f"desk_edit_{key}_{chosen}",
                )
            )
            for key, label, col in (("wounds", "Раны", i3), ("tokens", "Жетоны", i4))
        }
        if st.form_submit_button("Сохранить карту", key=f"desk_edit_submit_{chosen}"):
            edited = entries.edited_entry(
                entry_now,
                at=None if new_at == "host" else str(new_at),
                host=str(new_host) if new_at == "host" else None,
                controller=str(new_ctrl),
                flags=flags,
                counts=counts,
            )
            _put(desk, edited, f"Карта {chosen} изменена.")


# -- actions -------------------------------------------------------------------------------------


def _apply_action(kind: str, args: Mapping[str, object]) -> None:
    """Apply one action to this judge's desk; a malformed action leaves the desk as it was."""
    try:
        action = engine.parse_action(kind, dict(args))
        new_desk = edits.with_action(session.current(), action)
    except (engine.ActionError, DeskError) as exc:
        session.flash("error", f"Действие не применено, стол не изменился: {exc}")
        return
    session.store(new_desk)


def _apply_from_widgets(kind: str, arg_types: tuple[tuple[str, str], ...]) -> None:
    """«Применить действие» callback: it runs before the script, so one run draws the new desk."""
    values = {name: st.session_state.get(f"desk_arg_{kind}_{name}") for name, _ in arg_types}
    _apply_action(kind, desk_actions.args_from_values(arg_types, values))


def _choose_from_widget() -> None:
    choice = st.session_state.get("desk_choice")
    if choice is not None:
        _apply_action("choose", {"option": choice})


def _pending_panel(pending: engine.Pending) -> None:
    with st.container(border=True):
        st.markdown(f":material/help: **Нужен выбор** — решает игрок {pending.who}")
        desk_board.clause_ref(pending.clause)
        st.text(pending.question)
        keys = [o.key for o in pending.options]
        labels = {o.key: o.label for o in pending.options}

        def option_label(key: str) -> str:
            return common.escape_md(labels.get(key, key))  # radio options render Markdown

        st.radio("Вариант", keys, format_func=option_label, key="desk_choice")
        st.button("Ответить", type="primary", key="desk_choose", on_click=_choose_from_widget)


def _fill_from_click(spec: engine.ActionSpec, kind: str, props: Props, clicked: str | None) -> None:
    if not clicked:
        return
    filled = {a.name: st.session_state.get(f"desk_arg_{kind}_{a.name}") for a in spec.args}
    fill = desk_actions.click_fill(spec, props, clicked, filled)
    if fill is not None:
        st.session_state[f"desk_arg_{kind}_{fill[0]}"] = fill[1]


def action_panel(rp: Replay, props: Props, clicked: str | None) -> dict[str, Mark]:
    """The action picker; returns the cell marks for the grid (legal/refused cells of the chosen action)."""
    state = rp.current
    if state.pending is not None:
        _pending_panel(state.pending)
        return {}
    specs = engine.ACTION_SPECS
    kind = str(
        st.selectbox(
            "Действие",
            desk_actions.kinds(),
            format_func=lambda k: f"{specs[k].label} ({k})",
            key="desk_kind",
        )
    )
    spec = specs[kind]
    _fill_from_click(spec, kind, props, clicked)
    first_card = desk_actions.first_card_arg(spec)
    verdicts: list[engine.OptionVerdict] = []
    marks: dict[str, Mark] = {}
    for arg in spec.args:
        value = _arg_widget(arg, kind, props, desk_actions.hints(verdicts, arg.name), marks)
        if arg.name == first_card and value:
            verdicts = desk_actions.legal_map(state, kind, {arg.name: value})
            if verdicts:
                st.caption(view.verdict_counts(verdicts))
    arg_types = tuple((a.name, a.type) for a in spec.args)
    st.button(
        "Применить действие",
        type="primary",
        key="desk_apply",
        on_click=_apply_from_widgets,
        args=(kind, arg_types),
    )
    return marks


def _arg_widget(
    arg: engine.ArgSpec, kind: str, props: Props, hints: Mapping[str, Mark], marks: dict[str, Mark]
) -> object:
    """One argument's widget; marks the cells its hinted values stand on. Returns the value."""
    key = f"desk_arg_{kind}_{arg.name}"
    label = desk_actions.arg_label(arg)
    if arg.type == "card":
        options = ["", *props]
        marks.update({c: m for c, m in desk_actions.card_cell_marks(props, hints).items() if c not in marks})

        def fmt(cid: str) -> str:
            base = view.card_label(props, cid)
            return base + (" — " + view.OPTION_MARKS[hints[cid][0]] if cid in hints else "")

        if st.session_state.get(key) not in options:
            st.session_state.pop(key, None)
        return st.selectbox(label, options, format_func=fmt, key=key)
    if arg.type in ("cell", "place"):
        options = ["", *engine.CELLS, *(["aux"] if arg.type == "place" else [])]
        marks.update(hints)

        def fmt_cell(c: str) -> str:
            if not c:
                return "—"
            shown = c if engine.is_cell(c) else lexicon.zone(c)
            return shown + (" — " + view.OPTION_MARKS[hints[c][0]] if c in hints else "")

        if st.session_state.get(key) not in options:
            st.session_state.pop(key, None)
        return st.selectbox(label + " (или клик по клетке поля)", options, format_func=fmt_cell, key=key)
    if arg.type == "player":
        return st.radio(
            label, ["", *engine.PLAYERS], horizontal=True, key=key, format_func=lambda p: p or "—"
        )
    if arg.type == "int":
        return int(st.number_input(label, min_value=0, max_value=99, value=1, key=key))
    if arg.type == "bool":
        return st.checkbox(label, value=bool(arg.default), key=key)
    if arg.type == "cells":
        return st.multiselect(label, list(engine.CELLS), key=key)
    choices = list(arg.choices)
    if not choices:
        return st.text_input(label, key=key, max_chars=80)
    default = str(arg.default) if arg.default in choices else ""
    opts = ["", *choices]
    return st.selectbox(
        label,
        opts,
        index=opts.index(default),
        key=key,
        format_func=lambda v: f"{lexicon.enum_word(v)} ({v})" if v else "—",
    )
