"""The explanation: the verdict, the judge's action in words once, then each step of the engine's
trace with the clause (a link into the rules) or the assumption it rests on; a step without a
clause is the declared action's own effect and says so. Also the loaded scenario's expectations.

When the window reads other rules than the engine's own (РП 4.1-2), every cited clause is named and
linked in the loaded version's numbering, and a clause whose text changed is flagged on its step
and under the verdict that rests on it (desk.citations over engine.implemented.VersionView).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

import casebook
import engine
import lexicon
from app_pages.desk import session
from app_pages.shared import common, version_diff
from casebook import wording
from desk import view
from desk.citations import Citations
from desk.model import Desk, Replay
from engine import VersionView

Props = Mapping[str, Mapping[str, Any]]


_CITES_KEY = "desk_citations"


def citations() -> Citations:
    """The engine's clauses as this window's rules read them. Kept in the tab's state with the two
    indexes it was made for (both shared and read-only; the diff is cached per process)."""
    engine_rules = common.shared_rules(None).index  # the embedded text the handlers implement
    loaded = common.current_index()
    held = st.session_state.get(_CITES_KEY)
    if isinstance(held, tuple) and len(held) == 3 and held[0] is engine_rules and held[1] is loaded:
        return held[2]  # type: ignore[no-any-return]
    diff = (
        None if loaded is engine_rules else version_diff.diff_shown(engine_rules, loaded, "номера для стола")
    )
    cites = Citations() if diff is None else Citations(VersionView(diff, loaded))
    st.session_state[_CITES_KEY] = (engine_rules, loaded, cites)
    return cites


def clause_ref(cid: str) -> None:
    """A clause as a link into the rules browser (st.page_link: the app does not reload, so the
    judge's uploaded rules and desk stay), in the numbering of the rules the window reads. An
    assumption is named, not linked: it is ours."""
    cites = citations()
    target = cites.target(cid)
    if target is None:
        said = engine.assumptions.wordings().get(cid)
        if said:  # our assumption: its id and its words, in a line a phone shows without hover
            st.caption(common.escape_md(f"{cites.cite(cid)}: {common.short(said, 120)}"))
        return
    index = common.current_index()
    para = index.get(target)
    tail = f" — {common.short(para.text, 40)}" if para is not None else ""
    common.clause_link(
        index, target, label=common.escape_md(cites.cite(cid) + tail), icon=":material/description:"
    )


def draw_steps(
    steps: Sequence[engine.TraceStep], action: engine.Action, names: Mapping[str, str] | None = None
) -> None:
    """Each step: its kind in a word, what it rests on, the reason and the changes it made (cards
    named as the judge knows them, `names`: id → name)."""
    names = names or {}
    cites = citations()
    for step in steps:
        word = lexicon.step_kind(step.kind)
        rests = view.step_citation(step, action, cites.cite)
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
        note = cites.note(step.clause) if step.clause else None
        if note:
            st.caption(f"{common.ICON_WARNING} **{common.escape_md(note)}**")
        clause_ref(step.clause)
        st.text(view.humane(step.reason, names))
        for change in step.changes:
            st.text("→ " + view.humane(change, names))
        if step.children:
            with st.container(border=True):
                draw_steps(step.children, action, names)


def verdict_banner(outcome: engine.Outcome, action: engine.Action, props: Props) -> None:
    """The verdict and why in a line or two (what the text decides, where it stops), the action in
    words under it; cards by name."""
    cites = citations()
    names = view.names(props)
    head = view.verdict_head(outcome, cites.cite)
    word, _, rest = head.partition(" — ")
    lines = [f"**{word}**" + (f" — {common.escape_md(rest)}" if rest else "")]
    lines += [common.escape_md(r) for r in view.verdict_reasons(outcome, cites.cite, names)]
    show = {"legal": st.success, "illegal": st.error}.get(outcome.verdict, st.warning)
    with st.container(key="desk_verdict"):
        show("  \n".join(lines), icon=lexicon.verdict_icon(outcome.verdict))
    notes = cites.verdict_notes(outcome)
    if notes:
        st.warning(
            common.escape_md(
                f"Вердикт опирается на пункты, текст которых в {cites.loaded_name()} изменился: движок "
                f"решает по {cites.written_for()}."
            )
            + "\n"
            + "\n".join(f"- {common.escape_md(n)}" for n in notes),
            icon=common.ICON_WARNING,
        )
    st.caption(common.escape_md("Действие: " + wording.action_words(action, props)))


def last_verdict(rp: Replay) -> None:
    """The verdict of the last action, where the judge is looking; why, step by step, folded under it."""
    if not rp.outcomes:
        return
    verdict_banner(rp.outcomes[-1], rp.actions[-1], session.props_of(rp.states[-2]))
    box = session.fold("Почему: разбор по шагам", "desk_why", icon=":material/list_alt:")
    if box is not None:
        with box:
            explanation(rp)


def explanation(rp: Replay) -> None:
    """Why: each step of the last action's trace, each clause a link; every action's below it."""
    if not rp.outcomes:
        return
    cites = citations()
    if cites.other_rules:
        st.caption(
            common.escape_md(
                f"Открыты правила {cites.loaded_name()}: пункты названы по ним, в скобках — номер в "
                f"{cites.written_for()}, текст которых применяет движок."
            )
        )
    names = view.names(session.props_of(rp.states[-2]))
    draw_steps(rp.outcomes[-1].trace, rp.actions[-1], names)
    if len(rp.outcomes) > 1:
        st.markdown(f"**Все действия ({len(rp.outcomes)})**")
        for i, (action, outcome) in enumerate(zip(rp.actions, rp.outcomes, strict=True), 1):
            word = lexicon.verdict(outcome.verdict).capitalize()
            props = session.props_of(rp.states[i - 1])
            st.markdown(f"{i}\\. {lexicon.verdict_icon(outcome.verdict)} **{word}**")
            st.text(wording.action_words(action, props))
            with st.container(border=True):
                draw_steps(outcome.trace, action, view.names(props))


_CHECK_KEY = "desk_scenario_check"


def scenario_check(desk: Desk) -> casebook.ScenarioResult | str:
    """The loaded scenario parsed and run against its expectations, or why it could not be (in
    Russian). It depends only on the scenario's text and name and on the rules and card library
    (both shared and read-only), not on the actions applied since, so it is kept in the tab's state
    with what it was made from: re-parsing and re-running it was 41% of a desk action's script time
    (issue 24, py-spy)."""
    rules, library = session.rules(), session.library()
    held = st.session_state.get(_CHECK_KEY)
    if isinstance(held, tuple) and len(held) == 5:
        text, name, made_for, made_with, kept = held
        if (
            text == desk.scenario_text
            and name == desk.scenario_name
            and made_for is rules
            and made_with is library
        ):
            return kept  # type: ignore[no-any-return]
    result: casebook.ScenarioResult | str
    try:
        sc = casebook.load_scenario_text(desk.scenario_text, desk.scenario_name, index=rules, library=library)
        result = casebook.run_scenario(sc, rules, library)
    except Exception as exc:  # a broken file or an engine fault: a message, never a traceback
        result = f"Сценарий не проверен: {exc}"
    st.session_state[_CHECK_KEY] = (desk.scenario_text, desk.scenario_name, rules, library, result)
    return result


def expectations_panel(desk: Desk) -> None:
    if not desk.scenario_text:
        return
    result = scenario_check(desk)
    if isinstance(result, str):
        st.error(common.escape_md(result), icon=common.ICON_ERROR)
        return
    held = sum(1 for s in result.steps for e in s.expectations if e.ok)
    total = sum(len(s.expectations) for s in result.steps)
    head = "Все ожидания сценария выполняются" if result.ok else "Не все ожидания сценария выполняются"
    icon = common.ICON_OK if result.ok else common.ICON_ERROR
    # what each step checks is the scenario file's own words (keys, ids): a part for its authors,
    # drawn only while open (it opens by itself when an expectation fails); each step one heading
    # and one text block, not a text per expectation (36 elements for Карлик Унд, issue 24)
    box = session.fold(
        f"{head}: {held} из {total}", "desk_expectations_authors", expanded=not result.ok, icon=icon
    )
    if box is None:
        return
    with box:
        st.text(f"Файл: {desk.scenario_name}")
        for step in result.steps:
            good = step.status in ("ok", "xfail") and not step.failed
            mark = ":material/check_circle: как ожидалось" if good else ":material/cancel: не как ожидалось"
            verdict = lexicon.verdict(step.verdict) if step.verdict else "—"
            st.markdown(f"**Шаг {step.number}** {mark} — вердикт: {common.escape_md(verdict)}")
            lines = [wording.action_words(step.action)]
            lines += [
                ("✔ выполнено: " if e.ok else "✘ не выполнено: ")
                + e.what
                + (f" ({e.detail})" if e.detail else "")
                for e in step.expectations
            ]
            if step.pending_unanswered is not None:
                lines.append(f"✘ выбор не дан: {step.pending_unanswered.question}")
            if step.error:
                lines.append(f"✘ ошибка: {step.error}")
            st.text("\n".join(lines))


def for_authors(desk: Desk, rp: Replay, props: Props, fold: Callable[[str, str], Any | None]) -> None:
    """«Для авторов сценариев»: the ids the scenario format uses and the actions as its YAML lines,
    folded by `fold` (the page's session.Folds: a judge at the table reads names; an author writing
    a file needs these)."""
    if not props and not rp.actions:
        return
    box = fold("Для авторов сценариев: id карт и действия строками YAML", "desk_authors")
    if box is None:
        return
    with box:
        names = view.names(props)
        st.text("\n".join(f"{names[cid]} — id {cid}" for cid in props))
        if rp.actions:
            st.text("\n".join(f"- {action!r}" for action in rp.actions))
        st.caption("Формат сценария — docs/scenarios.md.")
