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
from app_pages.desk import session, taps
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


def _choice_tap(q: quick.Quick, i: int, choice: quick.Choice, label: str) -> taps.Tap:
    return taps.Tap(f"desk_q_{q.kind}_{i}", label, apply_action, (q.kind, choice.args), tip=choice.reason)


def _choose(key: str, value: object) -> None:
    st.session_state[key] = value


def _amount(state: engine.GameState, props: Props, q: quick.Quick, cid: str, bar: taps.Bar) -> None:
    """An amount action in two taps at most: how many (1 unless changed; and the kind, where it has
    one), then a source button that applies it — «от Орк — ✔ можно» — each marked with what applying
    it gives."""
    spec = engine.ACTION_SPECS[q.kind]
    key = f"desk_q_{q.kind}_{cid}"
    cite = desk_trace.citations().cite
    number = spec.arg(q.arg)
    how_many = desk_actions.arg_label(number) if number is not None else q.arg
    chosen = st.session_state.get(f"{key}_n")
    amount = int(chosen) if isinstance(chosen, int) and chosen in AMOUNTS else 1
    counts = tuple(
        taps.Tap(f"{key}_n_{n}", str(n), _choose, (f"{key}_n", n), pressed=n == amount, kind="pill")
        for n in AMOUNTS
    )
    bar.add(taps.Row(f"desk_q_{q.kind}_n", counts, label=q.label, note=f"{how_many} и от кого"))
    args: dict[str, object] = {q.card_arg: cid, q.arg: amount}
    for arg in spec.args:
        if not arg.required and arg.type != "card" and arg.choices:
            value = st.session_state.get(f"{key}_{arg.name}")
            if value not in arg.choices:  # the judge's choice, else the declared default, else the first
                value = arg.default if arg.default in arg.choices else arg.choices[0]
            args[arg.name] = value
            kinds = tuple(
                taps.Tap(
                    f"{key}_{arg.name}_{v}",
                    lexicon.enum_word(v),
                    _choose,
                    (f"{key}_{arg.name}", v),
                    pressed=v == value,
                    kind="pill",
                )
                for v in arg.choices
            )
            bar.add(taps.Row(f"desk_q_{q.kind}_{arg.name}", kinds, label=arg.label, plain=True, tight=True))
    source = next((a for a in spec.args if a.type == "card" and not a.required), None)
    names = view.names(props)
    sources = []
    for i, src in enumerate([*(quick.sources(props, cid) if source else []), ""]):
        given = {**args, **({source.name: src} if source and src else {})}
        option = quick.given_option(state, q.kind, given, cite)
        if option is None:
            continue
        who = f"от {names.get(src, src)}" if src else ("без источника" if source else "применить")
        sources.append(_choice_tap(q, i, option, f"{who} — {option.mark}"))
    bar.add(taps.Row(f"desk_q_{q.kind}", tuple(sources), tight=True))


def pick_why(q: quick.Quick) -> tuple[str, ...]:
    """Each target and why it is marked so, a line a target: «Орк (d4): п. 211.3.1: «Вайл» (vail) —
    хозяин…»."""
    return tuple(f"{c.words or c.mark}: {c.reason}" for c in q.choices)


def _pick(q: quick.Quick) -> taps.Row:
    """An action's targets (a card, a player): a row of pills, each labelled with its mark and
    clause, the why of each folded under them (and in each one's tooltip). Every tap applies."""
    why = pick_why(q)
    items = tuple(
        taps.Tap(f"desk_q_{q.kind}_{i}", c.label, apply_action, (q.kind, c.args), tip=why[i], kind="pill")
        for i, c in enumerate(q.choices)
    )
    return taps.Row(f"desk_q_{q.kind}", items, label=f"{q.label}:", why=why)


def _show_quick(state: engine.GameState, props: Props, q: quick.Quick, cid: str, bar: taps.Bar) -> None:
    if q.style == "button":
        one = _choice_tap(q, 0, q.choices[0], f"{q.label} — {q.choices[0].mark}")
        bar.add(taps.Row(f"desk_q_{q.kind}", (one,)))
    elif q.style == "pick":
        bar.add(_pick(q))
    elif q.style == "amount":
        _amount(state, props, q, cid, bar)


NEW_CARD = "new_card"  # before the first action, a tap on an empty cell may put a new card there


def armed_kind(desk: Desk, quicks: list[quick.Quick], cid: str) -> str | None:
    """What a tap on an empty cell does for this selected card: the judge's choice; before the
    first action the card form (cards are set up then), after it the first cell action."""
    kinds = [q.kind for q in quicks if q.style == "cells"]
    options = [NEW_CARD, *kinds] if not desk.started else kinds
    wanted = st.session_state.get(f"desk_armed_{cid}")
    if wanted in options:
        return str(wanted)
    return options[0] if options else None


def armed(desk: Desk, quicks: list[quick.Quick], cid: str) -> quick.Quick | None:
    """The cell action a tap on an empty cell applies (None: the tap opens the card form)."""
    kind = armed_kind(desk, quicks, cid)
    return next((q for q in quicks if q.style == "cells" and q.kind == kind), None)


def board_marks(desk: Desk, quicks: list[quick.Quick], cid: str | None) -> dict[str, Mark]:
    """The empty cells' marks: only those the armed action targets, each with what a tap gives."""
    chosen = armed(desk, quicks, cid) if cid else None
    return quick.cell_marks(chosen) if chosen is not None else {}


def _arm(cid: str, kind: str) -> None:
    st.session_state[f"desk_armed_{cid}"] = kind


CELL_TIP = "Клетки, на которые можно заявить это действие, помечены на поле: что даст щелчок по каждой"


def _cell_choice(desk: Desk, quicks: list[quick.Quick], cid: str) -> taps.Row | None:
    """What a tap on an empty cell does: one choice of a row of pills, the chosen one pressed."""
    kinds = [q.kind for q in quicks if q.style == "cells"]
    options = [NEW_CARD, *kinds] if not desk.started else kinds
    if not kinds:
        return None
    words = {NEW_CARD: "положить новую карту"} | {k: engine.ACTION_SPECS[k].label for k in kinds}
    chosen = armed_kind(desk, quicks, cid)
    items = tuple(
        taps.Tap(f"desk_armed_{k}", words[k], _arm, (cid, k), tip=CELL_TIP, pressed=k == chosen, kind="pill")
        for k in options
    )
    return taps.Row("desk_armed", items, label="Щелчок по пустой клетке поля", plain=True)


# The actions judges reach for most, first; the rest keep their declared order.
FIRST = ("attack", "take_control", "wound", "heal", "move")
# The amount actions shown open (the others wait under «Ещё»): wounds settle most disputes.
OPEN_AMOUNTS = ("wound",)
STYLE_ORDER = ("pick", "amount", "button")


def _order(q: quick.Quick) -> tuple[int, int]:
    return (FIRST.index(q.kind) if q.kind in FIRST else len(FIRST), STYLE_ORDER.index(q.style))


def card_actions(desk: Desk, rp: Replay, props: Props, cid: str, bar: taps.Bar) -> list[quick.Quick]:
    """The selected card's actions, compact and the most used first: what a tap on an empty cell
    does (its targets marked on the field), a target or a player to tap for each action, wounds and
    healing in two taps; the one-tap others and those that cannot be taken now folded, with why."""
    state = rp.current
    quicks = quick_for(desk, state, props, cid)
    if (row := _cell_choice(desk, quicks, cid)) is not None:
        bar.add(row)
    others = sorted((q for q in quicks if q.style != "cells"), key=_order)
    open_ones = [q for q in others if q.open]
    shown = [q for q in open_ones if q.style == "pick" or q.kind in OPEN_AMOUNTS]
    for q in shown:
        _show_quick(state, props, q, cid, bar)
    buttons = [q for q in open_ones if q not in shown]
    closed = [q for q in others if not q.open]
    # Folded parts whose buttons are made only while open (taps.Row.fold): closed, they cost an
    # action nothing (they were a third of the panel's elements, issue 24). Their ids are not the
    # card's: a judge who opened «Ещё» finds it open for the next card too.
    if buttons:
        grouped = [q for style in ("button", "amount", "pick") for q in buttons if q.style == style]
        bar.add(_folded_quicks("desk_more", f"Ещё действия ({len(buttons)})", grouped, state, props, cid))
    if closed:
        label = f"Сейчас нельзя ({len(closed)}): почему"
        bar.add(_folded_quicks("desk_closed", label, closed, state, props, cid))
    return quicks


def _folded_quicks(
    fold: str, label: str, quicks: list[quick.Quick], state: engine.GameState, props: Props, cid: str
) -> taps.Row:
    """A folded part of the panel holding these actions: they are made only while it is open."""
    inner = taps.Bar("")  # gathers the rows; drawn inside the fold's row, never flushed itself
    if taps.is_open(fold):
        for q in quicks:
            _show_quick(state, props, q, cid, inner)
    return taps.Row(fold, fold=label, open=taps.is_open(fold), rows=tuple(inner.rows))


def turn_actions(rp: Replay, bar: taps.Bar) -> None:
    """The actions that take no card (end the turn, the next phase of the preparation …): those that
    can be taken as buttons; those that cannot folded beside them, each with the clause or
    assumption that says so (or, where none does, the reason)."""
    found = quick.position_actions(rp.current, desk_trace.citations().cite)
    can = tuple(
        taps.Tap(f"desk_pos_{kind}", f"{c.words} — {c.mark}", apply_action, (kind, {}), tip=c.reason)
        for kind, c in found
        if c.verdict != "illegal"
    )
    cannot = [c for _, c in found if c.verdict == "illegal"]
    bar.add(
        taps.Row(
            "desk_turn",
            can,
            label="Ход:",
            inline=True,
            why=tuple(f"{c.words} — {c.mark}: {c.reason}" for c in cannot),
            why_label=f"нельзя ({len(cannot)}): почему",
        )
    )


def _choose_from_widget() -> None:
    choice = st.session_state.get("desk_choice")
    if choice is not None:
        apply_action("choose", {"option": choice})


MAX_CHOICE_BUTTONS = 12


def pending_panel(
    pending: engine.Pending, clause_ref: Callable[[str], None], names: Mapping[str, str]
) -> None:
    """The choice the rules leave to a player, where the judge is looking: one tap per option when
    there are few (a radio and «Ответить» for a long list)."""
    with st.container(border=True, key="desk_pending"):
        # a number the text leaves open (the wounds of a strike) is the judge's to say, not a player's
        who = "судья" if getattr(pending, "judge", False) else lexicon.player(pending.who)
        st.markdown(f":material/help: **Нужен выбор** — решает {common.escape_md(who)}")
        st.text(view.humane(pending.question, names))
        labels = {o.key: view.humane(o.label or o.key, names) for o in pending.options}
        short = all(len(label) <= 16 for label in labels.values())  # numbers, «удар не нанесён»
        if len(labels) <= MAX_CHOICE_BUTTONS or (short and len(labels) <= 3 * MAX_CHOICE_BUTTONS):
            with st.container(horizontal=True):
                for i, (key, label) in enumerate(labels.items()):
                    st.button(
                        common.escape_md(label),
                        key=f"desk_choose_{i}",
                        type="secondary",  # none is preferred: the rules leave it open
                        on_click=apply_action,
                        args=("choose", {"option": key}),
                    )
        else:
            st.radio(
                "Вариант",
                list(labels),
                format_func=lambda k: common.escape_md(labels.get(k) or str(k)),
                key="desk_choice",
            )
            st.button("Ответить", type="primary", key="desk_choose", on_click=_choose_from_widget)
        clause_ref(pending.clause)


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
        # an optional number left empty is not given (the attack's wounds: the engine then asks)
        start = 1 if arg.required else arg.default if isinstance(arg.default, int) else None
        number = st.number_input(
            label, min_value=0, max_value=99, value=start, key=key, placeholder="не указано"
        )
        return None if number is None else int(number)
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


def history_panel(desk: Desk) -> taps.Row:
    """Undo, redo, back to the set-up, and «править расклад»: one row of small buttons (how many
    actions are applied is said in the position line above the field)."""

    def change(fn: Callable[[Desk], Desk]) -> None:
        session.store(fn(session.current()))

    buttons = (
        ("Отменить", "undo", "desk_undo", desk.cursor == 0, edits.undo, ""),
        ("Вернуть", "redo", "desk_redo", desk.cursor >= len(desk.actions), edits.redo, ""),
        ("К началу", "restart_alt", "desk_restart", desk.cursor == 0, edits.restart, "К исходной позиции"),
        (
            "Править расклад",
            "edit",
            "desk_clear",
            not desk.started,
            edits.clear_actions,
            "Забыть действия и вернуться к раскладке карт",
        ),
    )
    items = tuple(
        taps.Tap(key, label, change, (fn,), tip=tip, icon=icon, disabled=disabled, kind="tertiary")
        for label, icon, key, disabled, fn, tip in buttons
    )
    return taps.Row("desk_history", items, inline=True)
