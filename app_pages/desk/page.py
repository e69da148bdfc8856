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
from pathlib import Path
from typing import Any

import streamlit as st

import casebook
import engine
from app_pages.desk import actions as desk_actions
from app_pages.desk import board as desk_board
from app_pages.desk import cards as desk_cards
from app_pages.desk import opening, session, taps
from app_pages.desk import trace as desk_trace
from app_pages.journal import form as journal_form
from app_pages.shared import common, components
from desk import board, cardform, cases, edits, share, view
from desk.model import Desk, DeskError, Replay

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
    if sel is not None:
        chosen = desk_actions.armed(desk, desk_actions.quick_for(desk, rp.current, props, sel), sel)
        armed = chosen.kind if chosen is not None else None
    click = board.click(desk, props, sel, cell, armed)
    if click.does == "select":
        session.select(click.card)
    elif click.does == "new_card":
        session.open_dialog("cell", cell)
    elif click.does == "act":
        desk_actions.apply_action(click.kind, click.args)
    else:
        session.flash("info", click.message)


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


def _text_panel(desk: Desk, state: engine.GameState, folds: session.Folds) -> None:
    """«Позиция текстом»: the position as it stands now (after the actions up to the cursor) in one
    line, to copy, or to type or paste and read."""
    box = folds.fold("Позиция текстом: прочитать или скопировать", "desk_text")
    if box is None:
        return
    with box:
        try:
            now = cases.position_text(state, session.library())
        except casebook.NotationError as exc:
            now = ""
            st.caption(common.escape_md(f"Эту позицию текстом не записать: {exc.detail}"))
        if desk.cursor:
            missing = cases.unwritten(state)
            said = f"Позиция после действий ({desk.cursor})."
            if missing:
                said += " В тексте нет: " + "; ".join(missing) + " — их хранит файл стола."
            st.caption(common.escape_md(said))
        key = f"desk_text_{session.gen()}_{zlib.crc32(now.encode())}"
        # A form: the text goes with the button's press, so leaving the box runs nothing (a run
        # then could move the page under the judge's click on «Прочитать текст»).
        with st.form("desk_text_form", border=False, enter_to_submit=False):
            text = st.text_area(
                "Одна карта — одна запись через «;»: владелец, карта, место, свойства",
                value=now,
                key=key,
                max_chars=casebook.notation.MAX_CHARS,
                placeholder="B Вайл c4; A Карлик Унд на Вайл; B Орк (Наземное существо, жизнь 5) d4 раны 2",
            )
            st.caption("Подробно — docs/scenarios.md, «Позиция одной строкой».")
            read = st.form_submit_button("Прочитать текст", key="desk_text_read", icon=":material/input:")
        if read:
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


def _save_panel(desk: Desk, rp: Replay, folds: session.Folds) -> None:
    rules_label = session.rules().version_label
    box = folds.fold("Сохранить и поделиться: вопрос, сценарий, файл стола, ссылка", "desk_save")
    if box is not None:
        desk = _save_files(box, desk, rp, rules_label)
    # A key keeps the fold open across reruns: an error or a draft inside is never folded away. Its
    # form (a sign-in, or the ruling's fields) is made only while it is open (issue 24: a switch to
    # the desk drew it folded, seven elements nobody saw).
    box = folds.fold("Записать решение в журнал", "desk_ruling_box", icon=":material/edit_note:")
    if box is None:
        return
    # The ruling is written by the rules this window reads: its clauses in their numbering.
    read = common.current_index().version_label or rules_label or ""
    with box:
        journal_form.ruling_form(
            "desk_ruling",
            prefill={
                "title": desk.title,
                "clauses": desk_trace.citations().targets(cases.cited_clauses(rp)),
                "verdict": rp.outcomes[-1].verdict if rp.outcomes else "",
                "rules_version": read,
                "scenario_yaml": cases.to_scenario_yaml(desk, rp, rules=rules_label),
                "trace_json": cases.trace_json(rp),
            },
        )


def _save_files(box: Any, desk: Desk, rp: Replay, rules_label: str | None) -> Desk:
    """The question, the two downloads and the link (drawn only while «Сохранить» is open)."""
    title = box.text_input(
        "Вопрос (заголовок сценария)", value=desk.title, key=f"desk_title_{session.gen()}", max_chars=300
    )
    if title != desk.title:
        session.store(dataclasses.replace(desk, title=title))
        desk = session.current()
    yaml_text = cases.to_scenario_yaml(desk, rp, rules=rules_label)
    c1, c2 = box.columns(2)
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
    box.caption("Ссылка на этот стол (скопируйте и отправьте другому судье):")
    box.code(f"{base}?desk={share.encode(desk)}", language=None, wrap_lines=True)
    return desk


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


# The desk's own layout (page.css), sent with every whole run of the page: without its comments and
# indentation (issue 24: the bytes of a switch to the desk).
PAGE_CSS = "<style>" + components.asset(Path(__file__).with_name("page.css")) + "</style>"


def _answer(desk: Desk, rp: Replay, props: dict[str, dict[str, Any]], sel: str | None) -> None:
    """What answers the judge's last tap, at the top of the panel: a message, the verdict with why
    (the trace folded under it), a choice the rules leave to a player, the card just selected."""
    with st.container(key="desk_answer"):
        session.show_flash(f"{desk.key()}|{sel}")
        opening.host_choice(props)
        pending = rp.current.pending
        if pending is not None:
            desk_actions.pending_panel(pending, desk_trace.clause_ref, view.names(props))
        desk_trace.last_verdict(rp)
        if sel is not None:
            desk_cards.card_header(props, sel, desk.card(sel))


def _panel(desk: Desk, rp: Replay, props: dict[str, dict[str, Any]], sel: str | None) -> dict[str, Any]:
    """The panel beside the field (under it on a phone); returns the marks of the armed cell action.
    Its rows of buttons (undo, the cell choice, the targets, the turn) are gathered in a bar and drawn
    as one element between the Streamlit elements around them (taps.py)."""
    _answer(desk, rp, props, sel)
    bar = taps.Bar("desk_taps")
    if sel is not None and (pair := desk_cards.pair_row(props, sel)) is not None:
        bar.add(pair)
    if desk.cards:
        bar.add(desk_actions.history_panel(desk))
    marks: dict[str, Any] = {}
    if rp.current.pending is not None:
        bar.flush()
        return marks
    if sel is not None:
        if not desk.started:
            bar.flush()
            if cardform.can_host(props[sel]):
                desk_cards.symbiote_field(desk, props, sel)
            with st.expander("Свойства карты: владелец, место, раны …", key=f"desk_props_{sel}"):
                desk_cards.edit_form(desk, props, sel)
        quicks = desk_actions.card_actions(desk, rp, props, sel, bar)
        marks = desk_actions.board_marks(desk, quicks, sel)
    elif not props:
        bar.flush()
        st.info(
            "Щёлкните клетку поля, чтобы положить на неё карту, вставьте позицию текстом или откройте "
            "пример из правил.",
            icon=common.ICON_INFO,
        )
        if (official := opening.official_row()) is not None:
            bar.add(official)  # drawn by the flush below
    else:
        bar.flush()
        st.info(
            "Щёлкните карту на поле (или вне поля), чтобы выбрать её: здесь появятся её действия.",
            icon=common.ICON_INFO,
        )
    if props:
        desk_actions.turn_actions(rp, bar)
    bar.flush()
    return marks


def _folded(desk: Desk, rp: Replay, props: dict[str, dict[str, Any]]) -> None:
    """Everything a judge needs now and then, one tap away: the text, saving, the journal, opening
    another desk, the set-up's phase and turn, any action by its full form, the ids for authors.
    The closed ones are summaries in one element (session.Folds)."""
    folds = session.Folds("desk_folds")
    _text_panel(desk, rp.current, folds)
    if desk.scenario_text:  # the loaded scenario's check: an expander of its own, open when it fails
        folds.flush()
        desk_trace.expectations_panel(desk)
    _save_panel(session.current(), rp, folds)
    opening.load_panel(desk, folds.fold)
    if not desk.started and (box := folds.fold("Фаза, ход и активный игрок", "desk_header")):
        with box:
            desk_cards.header_form(desk)
    if box := folds.fold("Любое действие — полная форма", "desk_full_form"):
        with box:
            desk_actions.full_form(rp, props)
    desk_trace.for_authors(desk, rp, props, folds.fold)
    folds.flush()


def _answer_token(desk: Desk, sel: str | None) -> str:
    """Changes with every answer: a new desk (an action, a card put), a selection, a message."""
    said = st.session_state.get("desk_flash_seen", 0)
    return f"{zlib.crc32(desk.key().encode()):08x}-{zlib.crc32(str(sel).encode()):08x}-{said}"


# The folded parts drawn outside the fragment whose content follows the desk: while one is open, an
# action on the board or the panel redraws the whole page, so nothing there is left stale.
FOLLOWS_THE_DESK = (
    "desk_text",
    "desk_save",
    "desk_ruling_box",
    "desk_header",
    "desk_full_form",
    "desk_authors",
)
_DRAWN_FOR = "desk_outside_drawn_for"
_WHOLE_RUN = "desk_whole_run"  # set by the page's run just before it runs the fragment inline
_RULES_DRAWN_FOR = "desk_rules_drawn_for"  # the rules the last whole run drew for: common.fragment_rules


def _drawn_for(desk: Desk) -> tuple[str, bool]:
    return desk.key(), desk.started


def _outside_is_stale(desk: Desk) -> bool:
    """Whether what the last full run drew outside the fragment shows another desk than `desk` in a
    part the judge has open (a closed fold draws nothing, so nothing in it can be stale), or lacks
    or has a part that only a desk before its first action has (the phase and turn of the set-up)."""
    drawn = st.session_state.get(_DRAWN_FOR)
    if drawn == _drawn_for(desk):
        return False
    if not isinstance(drawn, tuple) or drawn[1] != desk.started:
        return True
    return any(st.session_state.get(key) for key in FOLLOWS_THE_DESK)


@st.fragment
def _live() -> None:
    """What an action changes: the position line, the field with the zones, the selected card's panel
    with the verdict and its trace, the card form, the address. A tap here reruns only this (issue
    24: the text, the files, the journal form and the scenario check are not redrawn); a tap that
    changes something drawn outside asks for the whole page, and so does a tap after the window's
    rules changed under it (as the search page's fragment does: common.fragment_rules)."""
    alone = not st.session_state.pop(_WHOLE_RUN, False)  # a tap in here: a run of this part alone
    # the rules the marks and the trace cite, read afresh: other rules than the page was drawn for
    # (a new default this window follows, its version removed) are the whole page's to draw
    common.fragment_rules(_RULES_DRAWN_FOR, alone)
    desk = session.current()
    rp = session.replayed(desk)
    # a desk to confirm, a desk that cannot be built, an open part outside showing another desk: those
    # are the whole page's to draw
    if alone and (session.offered() is not None or isinstance(rp, str) or _outside_is_stale(desk)):
        st.rerun(scope="app")
    if isinstance(rp, str):
        return
    state = rp.current
    props = session.props_of(state)
    sel = session.selected(props)
    head = view.position_line(state, len(props))
    if desk.actions:
        head += f" Действий: {desk.cursor} из {len(desk.actions)}."
    st.caption(common.escape_md(head + (f" Вопрос: {desk.title}" if desk.title else "")))
    field, panel = st.columns([5, 4], gap="medium")
    with panel, st.container(key="desk_panel"):
        marks = _panel(desk, rp, props, sel)
    with field, st.container(key="desk_field"):
        token = _answer_token(session.current(), sel)
        desk_board.draw_field(props, state, marks, sel, token, _cell_clicked, session.select)
    if session.offered() is None and not isinstance(st.session_state.get("desk_put_ask"), str):
        _card_dialog(desk, props)  # one dialog at a time
    _name_in_address()


def _name_in_address() -> None:
    """The address bar names this desk (and the rules version it is read by) and nothing else: a
    «?scn=» that opened it, or a clause link's «?p=» that the back button brought along, would make
    a shared URL open something else."""
    token = share.encode(session.current())
    wanted = {"desk": token}
    if common.has_upload() and common.current_version() != common.WINDOW:  # the rules it is read by
        wanted[common.VERSION_PARAM] = common.version_value(common.current_version())
    if st.query_params.to_dict() != wanted:
        st.session_state["desk_url_token"] = token
        st.query_params.from_dict(wanted)


def render() -> None:
    st.set_page_config(layout="wide")  # the 5×6 field needs the width; other pages keep theirs
    st.html(PAGE_CSS)
    st.title("Стол судьи")
    opening.load_from_url()
    offer = session.offered()
    asked = st.session_state.get("desk_put_ask")
    if offer is not None:
        opening.confirm_offer(offer)
    elif isinstance(asked, str):
        opening.confirm_put(asked)
    desk = session.current()
    rp = session.replayed(desk)
    if isinstance(rp, str):
        session.show_flash(desk.key())
        _broken(desk, rp)
        return
    st.session_state[_DRAWN_FOR] = _drawn_for(desk)  # this run draws the outside for this desk
    st.session_state[_WHOLE_RUN] = True
    _live()
    desk = session.current()
    rp = session.replayed(desk)
    if isinstance(rp, str):
        return
    # under the field beside the panel on a wide screen (PAGE_CSS), after the panel on a phone
    with st.container(key="desk_folded"):
        _folded(desk, rp, session.props_of(rp.current))
    st.session_state[_DRAWN_FOR] = _drawn_for(session.current())
    _name_in_address()  # the question typed in «Сохранить» renames the desk after the fragment ran


if __name__ == "__main__":
    render()
