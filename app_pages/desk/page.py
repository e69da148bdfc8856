"""«Стол судьи»: set up the disputed position, apply actions, read the engine's trace, save, share, record.

The engine decides everything and desk/ holds the desk's logic; this page lays out the desk kept in
st.session_state["desk"] (one judge's desk per session): the field with the zones beside it, the
selected card's panel and the explanation beside the field on a wide screen (under it on a phone),
then the loaded scenario's expectations, saving and the journal. Opening anything onto a desk with
work asks first. Text a judge typed is shown with st.text or escaped, never as Markdown or HTML.
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

import streamlit as st

import cardbase
import casebook
import engine
from app_pages import registry
from app_pages.desk import actions as desk_actions
from app_pages.desk import board as desk_board
from app_pages.desk import cards as desk_cards
from app_pages.desk import session
from app_pages.desk import trace as desk_trace
from app_pages.journal import form as journal_form
from app_pages.shared import card_base, common
from cardbase import links
from desk import board, cardform, cases, edits, model, share, view
from desk.model import Desk, DeskError, Replay

ROOT = registry.PROJECT
MAX_SCENARIO_BYTES = casebook.MAX_BYTES
MAX_DESK_BYTES = 1024 * 1024
UPLOAD_TYPES = (".yaml", ".yml", ".json")


@st.cache_data(show_spinner=False)
def _scenario_entries() -> tuple[casebook.Entry, ...]:
    """Every scenario in the library, official first (read once per process; entries are frozen)."""
    return casebook.library_scenarios(ROOT)


def _entry(path: object) -> casebook.Entry | None:
    """A library scenario by the path we listed ourselves (a parameter is looked up, never joined)."""
    return next((e for e in _scenario_entries() if e.path == path), None)


# -- clicks --------------------------------------------------------------------------------------


def _cell_clicked(cell: str) -> None:
    """A click on a tile: select its card, open the card form, or apply the armed action."""
    desk = session.current()
    rp = session.replayed(desk)
    if isinstance(rp, str):
        return
    props = session.props_of(rp.current)
    sel = session.selected(props)
    armed = None
    if sel is not None and desk.started:
        chosen = desk_actions.armed(desk_actions.quick_for(desk, rp.current, props, sel), sel)
        armed = chosen.kind if chosen is not None else None
    click = board.click(desk, props, sel, cell, armed)
    if click.does == "select":
        session.select(click.card)
    elif click.does == "new_card":
        session.open_dialog("cell", cell)
    elif click.does == "act":
        desk_actions.apply_action(click.kind, click.args)
    else:
        session.flash("info", click.message, "panel")


# -- loading -------------------------------------------------------------------------------------


def _scenario_desk(text: str, name: str) -> tuple[Desk, str] | None:
    try:
        sc = casebook.load_scenario_text(text, name, index=session.rules(), library=session.library())
        desk = cases.from_scenario(sc, text, session.library())
    except Exception as exc:  # invalid file (ScenarioError) or an engine fault: the desk stays as it was
        session.flash("error", f"Сценарий не загружен, стол не изменился. {exc}")
        return None
    return desk, f"Загружен сценарий «{sc.title}» ({len(sc.steps)} шагов)."


def _open_library(entry: casebook.Entry) -> None:
    try:
        text = (ROOT / entry.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        session.flash("error", f"Файл {entry.path} не читается: {exc}")
        return
    found = _scenario_desk(text, entry.path)
    if found is not None:
        session.offer(*found)


def _load_upload(name: str, raw: bytes) -> None:
    """One click: the file is read and opened (after «заменить?» on a desk with work), or refused in words."""
    if not name.lower().endswith(UPLOAD_TYPES):
        session.flash(
            "error", f"Файл «{name}» не открыт: нужен сценарий .yaml или .yml, или файл стола .json."
        )
        return
    is_desk = name.lower().endswith(".json")
    limit = MAX_DESK_BYTES if is_desk else MAX_SCENARIO_BYTES
    if len(raw) > limit:
        session.flash(
            "error", f"Файл «{name}» не открыт: {len(raw) // 1024} КБ, а можно до {limit // 1024} КБ."
        )
        return
    refused = common.take_upload([name], len(raw))
    if refused:
        session.flash("error", f"{refused} Стол не изменился.")
        return
    if is_desk:
        try:
            desk = share.from_file_text(raw)
            model.replay(desk, session.library())  # judged before it may replace anything
        except (DeskError, engine.SetupError) as exc:
            session.flash("error", f"Файл стола «{name}» не открыт, стол не изменился: {exc}")
            return
        session.offer(desk, f"Открыт стол из файла «{name}».")
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        session.flash("error", f"Файл «{name}» не в кодировке UTF-8; стол не изменился.")
        return
    found = _scenario_desk(text, name)
    if found is not None:
        session.offer(*found)


def _uploaded(key: str) -> None:
    upload = st.session_state.get(key)
    if upload is not None:
        _load_upload(str(upload.name), bytes(upload.getvalue()))
    session.renew("upload")  # a fresh uploader: the same file may be chosen again


def _base_from_link() -> None:
    """Follow a link's `?base=`; but a desk whose cards the new base lacks keeps the window's base
    (the desk is never broken by a link), and says so."""
    before = card_base.current().base.id
    after = session.base_id()
    problem = card_base.take_problem()
    if problem:
        session.flash("warning", problem)
    desk = session.current()
    if after == before or not desk.cards:
        return
    try:
        model.replay(desk, session.library())
    except (DeskError, engine.SetupError) as exc:
        card_base.use(before)
        session.flash(
            "error",
            f"Ссылка открывает другую базу карт, а карт со стола в ней нет ({exc}). Окно осталось на "
            f"прежней базе, стол не изменился.",
        )


def _put_from_link() -> None:
    """`?put=<name>&base=<id>` (the card page's «Поставить на стол»): the card form opens with that
    card on a free cell, so one click places it; a desk with actions asks first (cards are set up
    before the first action, so its actions would be forgotten)."""
    request = links.desk_request(st.query_params.to_dict())
    if request is None:
        st.session_state.pop("desk_url_put", None)  # the same link, clicked again, asks again
        return
    if st.session_state.get("desk_url_put") == request:
        return
    st.session_state["desk_url_put"] = request
    found = session.library().get(request.name)
    base = card_base.current().base
    if found is None:
        session.flash("error", f"Карты «{request.name}» нет в базе «{base.label}»; стол не изменился.")
        return
    if session.current().started:
        st.session_state["desk_put_ask"] = found.name
        return
    _open_put(found.name)


def _open_put(name: str) -> None:
    props = session.current_props()
    cell = board.free_cell(props) or board.free_cell(props, "B")
    if cell is None:
        session.flash(
            "error", f"На поле нет свободной клетки для «{name}»: уберите карту или положите её в зону."
        )
        return
    base = card_base.current().base
    where = "встроенной библиотеки" if base.id == cardbase.BUILTIN else f"базы «{base.label}»"
    session.open_dialog(
        "cell", cell, name=name, note=f"Карта {where} со страницы «Карты». Проверьте владельца и клетку."
    )


def _save_first(now: Desk, key: str) -> None:
    """Before work on the desk is replaced: the desk as a file, one click away."""
    st.download_button(
        "Сначала скачать текущий стол (файл)",
        data=share.to_file_text(now),
        file_name="stol-sudi.json",
        mime="application/json",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )


def _confirm_put(name: str) -> None:
    """«Поставить карту?» on a desk with actions: forget them (the setup stays) or leave the desk."""
    now = session.current()

    def leave() -> None:
        st.session_state.pop("desk_put_ask", None)
        session.flash("info", "Стол оставлен как был.")

    @st.dialog(f"Поставить «{name}» на стол?", on_dismiss=leave)
    def ask() -> None:
        st.markdown(
            common.escape_md(
                f"На столе уже сделаны действия ({len(now.actions)}). Карты кладут до первого действия: "
                "чтобы поставить эту карту, действия будут забыты, расклад останется."
            )
        )
        _save_first(now, "desk_put_save")
        c1, c2 = st.columns(2)
        if c1.button("Забыть действия и поставить", type="primary", key="desk_put_yes"):
            st.session_state.pop("desk_put_ask", None)
            session.store(edits.clear_actions(session.current()))
            _open_put(name)
            st.rerun()
        if c2.button("Оставить стол как был", key="desk_put_no"):
            leave()
            st.rerun()

    ask()


def _load_from_url() -> None:
    """`?scn=<library path>` opens a library scenario; `?desk=<token>` opens a shared desk;
    `?put=<card>&base=<id>` puts a card of that base on it."""
    _base_from_link()
    _put_from_link()
    wanted = st.query_params.get("scn")
    if not wanted:
        st.session_state.pop("desk_url_scn", None)  # the same scenario link, clicked again, reopens it
    if wanted and wanted != st.session_state.get("desk_url_scn"):
        st.session_state["desk_url_scn"] = wanted
        entry = _entry(wanted)
        if entry is not None:
            _open_library(entry)
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
        session.flash("error", f"Ссылка на стол не открылась, стол не изменился: {exc}")
        return
    session.offer(desk, "Открыт стол по ссылке.")


def _open_library_pick(key: str) -> None:
    """Open the library scenario chosen in widget `key` (a path we listed ourselves, never typed)."""
    entry = _entry(st.session_state.get(key))
    if entry is not None:
        _open_library(entry)
    if key == "desk_official_pick":
        st.session_state[key] = None  # a pill opens its scenario; it does not stay pressed


def _load_panel(desk: Desk) -> None:
    with st.expander("Открыть пример из правил, сценарий или файл стола", key="desk_load"):
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
            c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
            c1.selectbox(
                "Все сценарии библиотеки: официальные примеры и разборы",
                list(titles),
                format_func=lambda p: titles.get(p, p),
                key="desk_library_pick",
            )
            c2.button(
                "Открыть", key="desk_library_open", on_click=_open_library_pick, args=("desk_library_pick",)
            )
        key = f"desk_upload_{session.serial('upload')}"
        st.file_uploader(
            "Свой файл: сценарий (.yaml, до 256 КБ) или файл стола (.json, до 1 МБ) — открывается сразу",
            key=key,
            max_upload_size=1,
            on_change=_uploaded,
            args=(key,),
        )
        if st.button("Новый пустой стол", key="desk_new", icon=":material/add:"):
            session.offer(Desk(), "Новый пустой стол.")
            st.rerun()


def _confirm_offer(offer: tuple[Desk, str]) -> None:
    """«Заменить то, что на столе?» before a new desk replaces work."""
    now = session.current()

    @st.dialog("Заменить то, что на столе?", on_dismiss=session.decline_offer)
    def ask() -> None:
        title = f" («{now.title}»)" if now.title else ""
        st.markdown(
            common.escape_md(f"На столе{title}: карт {len(now.cards)}, действий {len(now.actions)}.")
            + " Они будут заменены:"
        )
        st.text(offer[1])
        _save_first(now, "desk_offer_save")
        c1, c2 = st.columns(2)
        if c1.button("Заменить", type="primary", key="desk_offer_yes"):
            session.accept_offer()
            st.rerun()
        if c2.button("Оставить текущий стол", key="desk_offer_no"):
            session.decline_offer()
            st.rerun()

    ask()


def _card_dialog(desk: Desk, props: dict[str, dict[str, Any]]) -> None:
    opened = session.dialog()
    if opened is None or desk.started:
        return
    cell = opened[1]

    @st.dialog(f"Клетка {cell}: новая карта", on_dismiss=session.close_dialog)
    def form() -> None:
        desk_cards.new_card_form(session.current(), props, cell)

    form()


# -- text, saving --------------------------------------------------------------------------------


def _text_panel(desk: Desk) -> None:
    """«Позиция текстом»: the position in one line, to copy, or to type or paste and read."""
    with st.expander("Позиция текстом: прочитать или скопировать", expanded=not desk.cards, key="desk_text"):
        try:
            now = cases.position_text(desk, session.library())
        except casebook.NotationError as exc:
            now = ""
            st.caption(common.escape_md(f"Эту позицию текстом не записать: {exc.detail}"))
        key = f"desk_text_{session.gen()}_{zlib.crc32(now.encode())}"
        text = st.text_area(
            "Одна карта — одна запись через «;»: владелец, карта, место, свойства",
            value=now,
            key=key,
            max_chars=casebook.notation.MAX_CHARS,
            placeholder="B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо, жизнь 5) d4 раны 2",
        )
        st.caption("Подробно — docs/scenarios.md, «Позиция одной строкой».")
        if st.button("Прочитать текст", key="desk_text_read", icon=":material/input:"):
            try:
                new = cases.from_position_text(desk, text, session.library())
            except casebook.NotationError as exc:
                st.error(
                    common.escape_md(f"Текст не прочитан, стол не изменился: {exc}"), icon=common.ICON_ERROR
                )
                return
            except (engine.SetupError, DeskError) as exc:
                st.error(
                    common.escape_md(f"Такой позиции быть не может, стол не изменился: {exc}"),
                    icon=common.ICON_ERROR,
                )
                return
            session.offer(new, f"Позиция прочитана из текста: карт {len(new.cards)}.", ask=desk.started)
            st.rerun()


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
        on_click="ignore",
    )
    base = str(getattr(st.context, "url", "") or "").split("?")[0]
    st.caption("Ссылка на этот стол (скопируйте и отправьте другому судье):")
    st.code(f"{base}?desk={share.encode(desk)}", language=None, wrap_lines=True)
    # The ruling is written by the rules this window reads: its clauses in their numbering.
    read = common.current_index().version_label or rules_label or ""
    # A key keeps the expander open across reruns: an error or a draft inside is never folded away.
    with st.expander(
        "Записать решение в журнал", key="desk_ruling_box", icon=":material/edit_note:", on_change="rerun"
    ):
        journal_form.ruling_form(
            "desk_ruling",
            prefill={
                "title": desk.title,
                "clauses": desk_trace.citations().targets(cases.cited_clauses(rp)),
                "verdict": rp.outcomes[-1].verdict if rp.outcomes else "",
                "rules_version": read,
                "scenario_yaml": yaml_text,
                "trace_json": cases.trace_json(rp),
            },
        )


def _broken(desk: Desk, problem: str) -> None:
    st.error(common.escape_md(problem), icon=common.ICON_ERROR)
    if desk.cursor:
        st.button(
            "↶ Отменить последнее действие",
            key="desk_undo_broken",
            on_click=lambda: session.store(edits.undo(session.current())),
        )
    if st.button("Начать с пустого стола", key="desk_reset_broken"):
        session.store(Desk(), loaded=True)
        st.rerun()


# -- the page ------------------------------------------------------------------------------------


def _panel(desk: Desk, rp: Replay, props: dict[str, dict[str, Any]], sel: str | None) -> dict[str, Any]:
    """The panel beside the field; returns the marks its armed cell action puts on the field."""
    session.show_flash("panel")
    desk_actions.history_panel(desk)
    desk_trace.last_verdict(rp)
    marks: dict[str, Any] = {}
    if rp.current.pending is not None:
        desk_actions.pending_panel(rp.current.pending, desk_trace.clause_ref)
    elif sel is not None:
        desk_cards.card_header(props, sel, desk.card(sel))
        if not desk.started:
            with st.expander("Свойства карты: владелец, место, раны …", key=f"desk_props_{sel}"):
                desk_cards.edit_form(desk, props, sel)
            if cardform.can_host(props[sel]):
                desk_cards.symbiote_field(desk, props, sel)
        quicks = desk_actions.card_actions(desk, rp, props, sel)
        marks = desk_actions.board_marks(quicks, sel)
    elif not props:
        st.info(
            "Щёлкните клетку поля, чтобы положить на неё карту, или вставьте позицию текстом.",
            icon=common.ICON_INFO,
        )
    else:
        st.info(
            "Щёлкните карту на поле (или вне поля), чтобы выбрать её: здесь появятся её действия.",
            icon=common.ICON_INFO,
        )
    st.markdown("**Ход и фазы**")
    desk_actions.turn_actions(rp)
    with st.expander("Любое действие — полная форма", key="desk_full_form"):
        desk_actions.full_form(rp, props)
    desk_trace.explanation(rp)
    return marks


def render() -> None:
    st.set_page_config(layout="wide")  # the 5×6 field needs the width; other pages keep theirs
    st.title("Стол судьи")
    _load_from_url()
    desk = session.current()
    offer = session.offered()
    asked = st.session_state.get("desk_put_ask")
    if offer is not None:
        _confirm_offer(offer)
    elif isinstance(asked, str):
        _confirm_put(asked)
    session.show_flash("top")
    _load_panel(desk)
    rp = session.replayed(desk)
    if isinstance(rp, str):
        _broken(desk, rp)
        return
    state = rp.current
    props = session.props_of(state)
    sel = session.selected(props)
    st.caption(view.position_line(state, len(props)))
    if desk.title:
        st.text("Вопрос: " + desk.title)
    if not desk.started:
        with st.expander("Фаза, ход и активный игрок", key="desk_header"):
            desk_cards.header_form(desk)
    field, panel = st.columns([3, 2], gap="medium")
    with panel, st.container(key="desk_panel"):
        marks = _panel(desk, rp, props, sel)
    with field:
        desk_board.draw_grid(props, marks, sel, _cell_clicked)
        desk_board.draw_zones(props, state, sel, session.select)
    _text_panel(desk)
    if offer is None and not isinstance(asked, str):  # one dialog at a time
        _card_dialog(desk, props)
    desk_trace.expectations_panel(desk)
    _save_panel(session.current(), rp)
    # The address bar names this desk (and the rules version it is read by) and nothing else: a
    # «?scn=» that opened it, or a clause link's «?p=» that the back button brought along, would
    # make a shared URL open something else.
    token = share.encode(session.current())
    wanted = {"desk": token}
    if common.has_upload() and common.current_version() != common.WINDOW:  # the rules it is read by
        wanted[common.VERSION_PARAM] = common.version_value(common.current_version())
    if st.query_params.to_dict() != wanted:
        st.session_state["desk_url_token"] = token
        st.query_params.from_dict(wanted)


if __name__ == "__main__":
    render()
