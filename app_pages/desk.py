"""«Стол судьи»: set up the disputed position, apply actions, read the engine's trace, save, share, record.

The engine decides everything and desk/ holds the desk's logic; this page draws the desk kept in
st.session_state["desk"] (one judge's desk per session) and turns clicks into edits. Text a judge
typed (card names, titles, file names) is shown with st.text or escaped, never as Markdown or HTML.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import streamlit as st

import casebook
import engine
import lexicon
from app_pages import common, desk_board, desk_forms
from app_pages import desk_session as session
from app_pages import journal as journal_page
from desk import cases, edits, model, share, view
from desk.model import Desk, DeskError, Replay

ROOT = Path(__file__).resolve().parent.parent
MAX_UPLOAD_BYTES = casebook.MAX_BYTES


@st.cache_data(show_spinner=False)
def _scenario_entries() -> tuple[casebook.Entry, ...]:
    """Every scenario in the library, official first (read once per process; entries are frozen)."""
    return casebook.library_scenarios(ROOT)


def _entry(path: object) -> casebook.Entry | None:
    """A library scenario by the path we listed ourselves (a parameter is looked up, never joined)."""
    return next((e for e in _scenario_entries() if e.path == path), None)


def _cell_clicked(cell: str) -> None:
    st.session_state["desk_clicked_cell"] = cell


# -- loading -----------------------------------------------------------------------------------------


def _load_scenario_text(text: str, name: str) -> None:
    try:
        sc = casebook.load_scenario_text(text, name, index=session.rules(), library=session.library())
        desk = cases.from_scenario(sc, text, session.library())
    except Exception as exc:  # invalid file (ScenarioError) or an engine fault: the desk stays as it was
        session.flash("error", f"Сценарий не загружен, стол не изменился. {exc}")
        return
    session.store(desk, loaded=True)
    session.flash("success", f"Загружен сценарий «{sc.title}» ({len(sc.steps)} шагов).")


def _load_library(entry: casebook.Entry) -> None:
    try:
        text = (ROOT / entry.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        session.flash("error", f"Файл {entry.path} не читается: {exc}")
        return
    _load_scenario_text(text, entry.path)


def _load_upload(name: str, raw: bytes) -> None:
    if len(raw) > MAX_UPLOAD_BYTES:
        session.flash("error", f"Файл «{name}» больше {MAX_UPLOAD_BYTES} байт; стол не изменился.")
        return
    if name.lower().endswith(".json"):
        try:
            desk = share.from_file_text(raw)
            model.replay(desk, session.library())  # judged before the desk is replaced
        except (DeskError, engine.SetupError) as exc:
            session.flash("error", f"Файл стола «{name}» не открыт, стол не изменился: {exc}")
            return
        session.store(desk, loaded=True)
        session.flash("success", f"Открыт стол из файла «{name}».")
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        session.flash("error", f"Файл «{name}» не в кодировке UTF-8; стол не изменился.")
        return
    _load_scenario_text(text, name)


def _load_from_url() -> None:
    """`?scn=<library path>` opens a library scenario; `?desk=<token>` opens a shared desk."""
    wanted = st.query_params.get("scn")
    if not wanted:
        st.session_state.pop("desk_url_scn", None)  # the same scenario link, clicked again, reopens it
    if wanted and wanted != st.session_state.get("desk_url_scn"):
        st.session_state["desk_url_scn"] = wanted
        entry = _entry(wanted)
        if entry is not None:
            _load_library(entry)
        else:
            session.flash("error", "Такого сценария в библиотеке нет; стол не изменился.")
        return
    token = st.query_params.get("desk")
    if not token or token == st.session_state.get("desk_url_token"):
        return
    st.session_state["desk_url_token"] = token
    try:
        desk = share.decode(str(token))
        model.replay(desk, session.library())
    except (DeskError, engine.SetupError) as exc:
        session.flash("error", f"Ссылка на стол не открылась: {exc}")
        return
    session.store(desk, loaded=True)


# -- panels ------------------------------------------------------------------------------------------


def _edit_desk(change: Callable[[Desk], Desk]) -> None:
    session.store(change(session.current()))


def _open_library_pick(key: str) -> None:
    """Open the library scenario chosen in widget `key` (a path we listed ourselves, never typed)."""
    entry = _entry(st.session_state.get(key))
    if entry is not None:
        _load_library(entry)
    if key == "desk_official_pick":
        st.session_state[key] = None  # a pill opens its scenario; it does not stay pressed


def _load_panel(desk: Desk) -> None:
    with st.expander("Открыть сценарий, файл стола или начать заново", expanded=not desk.cards):
        entries = _scenario_entries()
        titles = {e.path: cases.long_title(e) for e in entries}
        official = {e.path: cases.short_title(e) for e in cases.official(entries)}
        if official:
            st.pills(
                "Официальные примеры из правил (один щелчок открывает)",
                list(official),
                format_func=lambda p: official.get(str(p), str(p)),
                key="desk_official_pick",
                on_change=_open_library_pick,
                args=("desk_official_pick",),
            )
        if entries:
            st.selectbox(
                "Все сценарии библиотеки: официальные примеры и разборы",
                list(titles),
                format_func=lambda p: titles.get(p, p),
                key="desk_library_pick",
            )
            st.button(
                "Открыть сценарий",
                key="desk_library_open",
                on_click=_open_library_pick,
                args=("desk_library_pick",),
            )
        upload = st.file_uploader(
            "Свой файл: сценарий (.yaml) или стол (.json), до 1 МБ",
            type=["yaml", "yml", "json"],
            key="desk_upload",
            max_upload_size=1,
        )
        if upload is not None and st.button("Открыть файл", key="desk_upload_open"):
            _load_upload(upload.name, upload.getvalue())
            st.rerun()
        if st.button("Новый пустой стол", key="desk_new"):
            session.store(Desk(), loaded=True)
            st.rerun()


def _history_panel(desk: Desk) -> None:
    # Two rows of two: four buttons in one row cut their labels short even on a laptop.
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    buttons = (
        (c1, "Отменить", ":material/undo:", "desk_undo", desk.cursor == 0, edits.undo, None),
        (c2, "Вернуть", ":material/redo:", "desk_redo", desk.cursor >= len(desk.actions), edits.redo, None),
        (
            c3,
            "К исходной позиции",
            ":material/restart_alt:",
            "desk_restart",
            desk.cursor == 0,
            edits.restart,
            None,
        ),
        (
            c4,
            "Править расклад",
            ":material/edit:",
            "desk_clear",
            not desk.started,
            edits.clear_actions,
            "Забыть действия и вернуться к раскладке карт",
        ),
    )
    for col, label, icon, key, disabled, change, tip in buttons:
        col.button(
            label,
            icon=icon,
            key=key,
            disabled=disabled,
            on_click=_edit_desk,
            args=(change,),
            width="stretch",
            help=tip,
        )
    st.caption(f"Действий применено: {desk.cursor} из {len(desk.actions)}.")


def _trace_panel(rp: Replay) -> None:
    if not rp.outcomes:
        st.info("Действий ещё не было: выберите действие и примените его.")
        return
    desk_board.verdict_banner(rp.outcomes[-1], rp.actions[-1])
    desk_board.draw_trace(rp.outcomes[-1].trace)
    if len(rp.outcomes) > 1:
        with st.expander(f"Все шаги ({len(rp.outcomes)})"):
            for i, (action, outcome) in enumerate(zip(rp.actions, rp.outcomes, strict=True), 1):
                word = lexicon.verdict(outcome.verdict).capitalize()
                st.markdown(f"{i}\\. {lexicon.verdict_icon(outcome.verdict)} **{word}**")
                st.text(view.action_words(action) + "\n" + repr(action))
                desk_board.draw_trace(outcome.trace, 1)


def _expectations_panel(desk: Desk) -> None:
    if not desk.scenario_text:
        return
    try:
        sc = casebook.load_scenario_text(
            desk.scenario_text, desk.scenario_name, index=session.rules(), library=session.library()
        )
        result = casebook.run_scenario(sc, session.rules(), session.library())
    except Exception as exc:  # a broken file or an engine fault: a message, never a traceback
        st.error(common.escape_md(f"Сценарий не проверен: {exc}"))
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
            st.text(repr(step.action))
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


def _save_panel(desk: Desk, rp: Replay) -> None:
    rules_label = session.rules().version_label
    st.markdown("**Сохранить и поделиться**")
    title = st.text_input(
        "Вопрос (заголовок сценария)", value=desk.title, key=f"desk_title_{session.gen()}", max_chars=300
    )
    if title != desk.title:
        session.store(dataclasses.replace(desk, title=title))
        desk = session.current()
    yaml_text = cases.to_scenario_yaml(desk, rp, rules=rules_label)
    c1, c2 = st.columns(2)
    c1.download_button(
        "Скачать сценарий (YAML)",
        data=yaml_text,
        file_name="stol-sudi.yaml",
        mime="application/x-yaml",
        key="desk_save_yaml",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    c2.download_button(
        "Скачать файл стола (открывается точно таким же)",
        data=share.to_file_text(desk),
        file_name="stol-sudi.json",
        mime="application/json",
        key="desk_save_json",
        on_click="ignore",  # a download changes nothing: no rerun
    )
    base = str(getattr(st.context, "url", "") or "").split("?")[0]
    st.caption("Ссылка на этот стол (скопируйте и отправьте другому судье):")
    st.code(f"{base}?desk={share.encode(desk)}", language=None, wrap_lines=True)
    with st.expander("Записать решение в журнал"):
        journal_page.ruling_form(
            "desk_ruling",
            prefill={
                "title": desk.title,
                "clauses": cases.cited_clauses(rp),
                "verdict": rp.outcomes[-1].verdict if rp.outcomes else "",
                "rules_version": rules_label or "",
                "scenario_yaml": yaml_text,
                "trace_json": cases.trace_json(rp),
            },
        )


def _broken(desk: Desk, problem: str) -> None:
    st.error(common.escape_md(problem))
    if desk.cursor:
        st.button(
            "↶ Отменить последнее действие", key="desk_undo_broken", on_click=_edit_desk, args=(edits.undo,)
        )
    if st.button("Начать с пустого стола", key="desk_reset_broken"):
        session.store(Desk(), loaded=True)
        st.rerun()


def render() -> None:
    st.set_page_config(layout="wide")  # the 5×6 field needs the width; other pages keep theirs
    st.title("Стол судьи")
    _load_from_url()
    session.show_flash()
    desk = session.current()
    _load_panel(desk)
    rp = session.replayed(desk)
    if isinstance(rp, str):
        _broken(desk, rp)
        return
    state = rp.current
    props = {cid: dict(engine.card_props(state, cid)) for cid in state.card_ids()}
    st.caption(view.position_line(state, len(props)))
    if desk.title:
        st.text("Вопрос: " + desk.title)
    clicked = st.session_state.pop("desk_clicked_cell", None)
    board = st.container()  # drawn last (it needs the chosen action's marks) but shown on top
    work, side = st.columns([3, 2], gap="medium")
    with work:
        tab_act, tab_setup = st.tabs(["Действие и разбор", "Расклад"])
        with tab_setup:
            if desk.started:
                st.info("Расклад меняется до первого действия. Кнопка «Править расклад» забудет действия.")
            else:
                desk_forms.setup_panel(desk, clicked)
        with tab_act:
            marks = desk_forms.action_panel(rp, props, clicked)
            _history_panel(desk)
            _trace_panel(rp)
    with side:
        st.markdown("**Зоны вне поля**")
        desk_board.draw_zones(props, state)
    with board:
        if st.toggle("Компактное поле: таблица вместо клеток-кнопок", key="desk_compact"):
            desk_board.draw_table(props, marks)
        else:
            desk_board.draw_grid(props, marks, "выбрать её для действия или для новой карты", _cell_clicked)
    _expectations_panel(desk)
    _save_panel(desk, rp)
    # The address bar names this desk and nothing else: a «?scn=» that opened it, or a clause link's
    # «?p=» that the back button brought along, would make a shared URL open something else.
    token = share.encode(session.current())
    if st.query_params.to_dict() != {"desk": token}:
        st.session_state["desk_url_token"] = token
        st.query_params.from_dict({"desk": token})


if __name__ == "__main__":
    render()
