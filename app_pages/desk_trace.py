"""The explanation: the verdict, the judge's action in words once, then each step of the engine's
trace with the clause (a link into the rules) or the assumption it rests on; a step without a
clause is the declared action's own effect and says so. Also the loaded scenario's expectations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

import casebook
import engine
import lexicon
from app_pages import common
from app_pages import desk_session as session
from desk import view
from desk.model import Desk, Replay
from rules_index import ids

Props = Mapping[str, Mapping[str, Any]]


def clause_ref(cid: str) -> None:
    """A clause as a link into the rules browser (st.page_link: the app does not reload, so the
    judge's uploaded rules and desk stay). An assumption is named, not linked: it is ours."""
    if not ids.is_clause_id(cid):
        return
    index = common.current_index()
    para = index.get(cid)
    tail = f" — {common.short(para.text, 40)}" if para is not None else ""
    common.clause_link(
        index, cid, label=common.escape_md(lexicon.cite(cid) + tail), icon=":material/description:"
    )


def draw_steps(steps: Sequence[engine.TraceStep], action: engine.Action) -> None:
    """Each step: its kind in a word, what it rests on, the reason and the changes it made."""
    for step in steps:
        word = lexicon.step_kind(step.kind)
        rests = view.step_citation(step, action)
        # an assumption step names itself («допущение A15»); every other kind says what it rests on
        head = (
            f"**{common.escape_md(rests)}**"
            if step.kind == "assumption"
            else f"**{word}** — {common.escape_md(rests)}"
        )
        icon = lexicon.step_icon(step.kind)
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
                draw_steps(step.children, action)


def verdict_banner(outcome: engine.Outcome, action: engine.Action, props: Props) -> None:
    head = view.verdict_head(outcome)
    word, _, rest = head.partition(" — ")
    text = f"**{word}**" + (f" — {common.escape_md(rest)}" if rest else "")
    show = {"legal": st.success, "illegal": st.error}.get(outcome.verdict, st.warning)
    show(text, icon=lexicon.verdict_icon(outcome.verdict))
    for cid in view.forbidden_by(outcome):
        clause_ref(cid)
    st.text(view.action_words(action, props))


def last_verdict(rp: Replay) -> None:
    """The verdict of the last action and the action in words, at the top of the panel."""
    if not rp.outcomes:
        st.info("Действий ещё не было: выберите карту на поле и её действие.", icon=common.ICON_INFO)
        return
    verdict_banner(rp.outcomes[-1], rp.actions[-1], session.props_of(rp.states[-2]))


def explanation(rp: Replay) -> None:
    """Why: each step of the last action's trace; every action's below it, folded."""
    if not rp.outcomes:
        return
    st.markdown("**Разбор последнего действия**")
    draw_steps(rp.outcomes[-1].trace, rp.actions[-1])
    if len(rp.outcomes) > 1:
        with st.expander(f"Все шаги ({len(rp.outcomes)})", key="desk_all_steps"):
            for i, (action, outcome) in enumerate(zip(rp.actions, rp.outcomes, strict=True), 1):
                word = lexicon.verdict(outcome.verdict).capitalize()
                names = session.props_of(rp.states[i - 1])
                st.markdown(f"{i}\\. {lexicon.verdict_icon(outcome.verdict)} **{word}**")
                st.text(view.action_words(action, names))
                with st.container(border=True):
                    draw_steps(outcome.trace, action)


def expectations_panel(desk: Desk) -> None:
    if not desk.scenario_text:
        return
    try:
        sc = casebook.load_scenario_text(
            desk.scenario_text, desk.scenario_name, index=session.rules(), library=session.library()
        )
        result = casebook.run_scenario(sc, session.rules(), session.library())
    except Exception as exc:  # a broken file or an engine fault: a message, never a traceback
        st.error(common.escape_md(f"Сценарий не проверен: {exc}"), icon=common.ICON_ERROR)
        return
    held = sum(1 for s in result.steps for e in s.expectations if e.ok)
    total = sum(len(s.expectations) for s in result.steps)
    head = "Все ожидания сценария выполняются" if result.ok else "Не все ожидания сценария выполняются"
    icon = common.ICON_OK if result.ok else common.ICON_ERROR
    with st.expander(f"{head}: {held} из {total}", expanded=not result.ok, icon=icon):
        st.text(f"Файл: {desk.scenario_name}")
        for step in result.steps:
            good = step.status in ("ok", "xfail") and not step.failed
            mark = ":material/check_circle: как ожидалось" if good else ":material/cancel: не как ожидалось"
            verdict = lexicon.verdict(step.verdict) if step.verdict else "—"
            st.markdown(f"**Шаг {step.number}** {mark} — вердикт: {common.escape_md(verdict)}")
            st.text(view.action_words(step.action))
            for e in step.expectations:
                st.text(
                    ("✔ выполнено: " if e.ok else "✘ не выполнено: ")
                    + e.what
                    + (f" ({e.detail})" if e.detail else "")
                )
            if step.pending_unanswered is not None:
                st.text(f"✘ выбор не дан: {step.pending_unanswered.question}")
            if step.error:
                st.text(f"✘ ошибка: {step.error}")
