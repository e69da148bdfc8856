"""What opens onto the desk: the library's scenarios (the official examples one tap each), a
scenario or desk file, a shared desk link, and a card from the card page («Поставить на стол»: put
where it can stand in one tap, a symbiote on the host tapped next). Opening anything onto a desk
with work asks first; a bad file or link leaves the desk as it was and says why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

import cardbase
import casebook
import engine
import lexicon
from app_pages import registry
from app_pages.desk import session, taps
from app_pages.shared import card_base, common, uploads
from cardbase import links
from desk import board, cardform, cases, edits, entries, model, share, view
from desk.model import Desk, DeskError
from storage import worker

ROOT = registry.PROJECT
MAX_SCENARIO_BYTES = casebook.MAX_BYTES
MAX_DESK_BYTES = 1024 * 1024
UPLOAD_TYPES = (".yaml", ".yml", ".json")


@st.cache_data(show_spinner=False)
def scenario_entries() -> tuple[casebook.Entry, ...]:
    """Every scenario in the library the desk can open, official first (read once per process;
    entries are frozen). A scenario on real cards (`card_base:`) is left out: the desk plays with
    this window's card base, and such a file runs with `python -m engine run`."""
    return tuple(e for e in casebook.library_scenarios(ROOT) if not e.card_base)


def library_entry(path: object) -> casebook.Entry | None:
    """A library scenario by the path we listed ourselves (a parameter is looked up, never joined)."""
    return next((e for e in scenario_entries() if e.path == path), None)


def _scenario_desk(text: str, name: str, *, uploaded: bool = False) -> tuple[Desk, str] | None:
    """A desk from a scenario's text; an uploaded one's YAML is read in the server's bounded worker."""
    try:
        if uploaded:
            root = uploads.parse(casebook.nodes.read_yaml, text, name, limits=uploads.DESK).value
        else:
            root = casebook.nodes.read_yaml(text, name)
        sc = casebook.load_scenario_nodes(root, name, index=session.rules(), library=session.library())
        desk = cases.from_scenario(sc, text, session.library())
    except Exception as exc:  # invalid file (ScenarioError) or an engine fault: the desk stays as it was
        session.flash("error", f"Сценарий не загружен, стол не изменился. {exc}")
        return None
    return desk, f"Загружен сценарий «{sc.title}» ({lexicon.plural(len(sc.steps), 'шаг', 'шага', 'шагов')})."


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
    refused = common.take_upload([name], len(raw))  # counted first: a file too big was sent all the same
    if refused:
        session.flash("error", f"{refused} Стол не изменился.")
        return
    if len(raw) > limit:
        session.flash(
            "error", f"Файл «{name}» не открыт: {len(raw) // 1024} КБ, а можно до {limit // 1024} КБ."
        )
        return
    if is_desk:
        try:
            desk = uploads.parse(share.from_file_text, raw, limits=uploads.DESK).value
            model.replay(desk, session.library())  # judged before it may replace anything
        except (DeskError, engine.SetupError, worker.LimitError) as exc:
            session.flash("error", f"Файл стола «{name}» не открыт, стол не изменился: {exc}")
            return
        session.offer(desk, f"Открыт стол из файла «{name}».")
        return
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        session.flash("error", f"Файл «{name}» не в кодировке UTF-8; стол не изменился.")
        return
    found = _scenario_desk(text, name, uploaded=True)
    if found is not None:
        session.offer(*found)


def _uploaded(key: str) -> None:
    upload = st.session_state.get(key)
    if upload is not None:
        _load_upload(uploads.file_name(upload), bytes(upload.getvalue()))
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
    """Put the card on the desk at once where it can stand (desk.cardform.where_to_put): a flyer in
    the auxiliary zone, a symbiote on the host the judge taps next, any other card on a free cell."""
    lib = session.library()
    cdef = lib.get(name)
    if cdef is None:
        return
    props = session.current_props()
    put = cardform.where_to_put(cdef, props, board.free_cell(props) or board.free_cell(props, "B"))
    if put.problem:
        session.flash("error", put.problem + " Стол не изменился.")
        return
    if put.hosts:
        st.session_state["desk_put_hosts"] = (cdef.name, put.hosts)
        session.flash("info", put.words)
        return
    desk = session.current()
    entry = entries.new_entry(desk, cdef.name, put.owner, at=put.at)
    try:
        new = edits.put_card(desk, entry, lib)
    except (DeskError, engine.SetupError) as exc:
        session.flash("error", "Карта не поставлена: " + cardform.friendly(exc, view.names(props)))
        return
    session.store(new)
    session.select(str(entry["id"]))
    base = card_base.current().base
    where = "встроенной библиотеки" if base.id == cardbase.BUILTIN else f"базы «{base.label}»"
    session.flash(
        "success",
        f"{put.words} Карта {where}; владелец — {lexicon.player(put.owner)}: другого владельца или "
        "место задайте в «Свойствах карты».",
    )


def _put_on_host(name: str, host: str) -> None:
    """The symbiote from the card page onto the host the judge tapped."""
    st.session_state.pop("desk_put_hosts", None)
    desk = session.current()
    props = session.current_props()
    cdef = session.library().get(name)
    if cdef is None or host not in props:
        return
    owner = cardform.default_owner(None, props[host], cdef.subtype)
    entry = entries.new_entry(desk, cdef.name, owner, host=host)
    try:
        new = edits.put_card(desk, entry, session.library())
    except (DeskError, engine.SetupError) as exc:
        session.flash("error", "Симбиот не положен: " + cardform.friendly(exc, view.names(props)))
        return
    session.store(new)
    session.select(str(entry["id"]))
    host_name = view.name_of(props, host)
    session.flash("success", cardform.placed_words(cdef.name, owner, None, host_name))


def host_choice(props: dict[str, dict[str, Any]]) -> None:
    """«На какую карту положить симбиота?»: one tap per possible host."""
    asked = st.session_state.get("desk_put_hosts")
    if not isinstance(asked, tuple) or len(asked) != 2:
        return
    name, hosts = asked
    hosts = [h for h in hosts if h in props]
    names = view.names(props)
    with st.container(border=True, key="desk_put_host"):
        st.markdown(f"**На какую карту положить «{common.escape_md(str(name))}»?**")
        with st.container(horizontal=True):
            for i, host in enumerate(hosts):
                st.button(
                    common.escape_md(f"На «{names[host]}» ({view.where(props[host])})"),
                    key=f"desk_put_host_{i}",
                    on_click=_put_on_host,
                    args=(str(name), host),
                )
            st.button(
                "Не класть",
                key="desk_put_host_no",
                type="tertiary",
                on_click=lambda: st.session_state.pop("desk_put_hosts", None),
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


def confirm_put(name: str) -> None:
    """«Поставить карту?» on a desk with actions: forget them (the setup stays) or leave the desk."""
    now = session.current()

    def leave() -> None:
        st.session_state.pop("desk_put_ask", None)
        session.flash("info", "Стол оставлен как был.")

    @st.dialog(f"Поставить «{common.escape_md(name)}» на стол?", on_dismiss=leave)
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


def load_from_url() -> None:
    """`?scn=<library path>` opens a library scenario; `?desk=<token>` opens a shared desk;
    `?put=<card>&base=<id>` puts a card of that base on it."""
    _base_from_link()
    _put_from_link()
    wanted = st.query_params.get("scn")
    if not wanted:
        st.session_state.pop("desk_url_scn", None)  # the same scenario link, clicked again, reopens it
    if wanted and wanted != st.session_state.get("desk_url_scn"):
        st.session_state["desk_url_scn"] = wanted
        entry = library_entry(wanted)
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


def open_library_pick(key: str) -> None:
    """Open the library scenario chosen in widget `key` (a path we listed ourselves, never typed)."""
    entry = library_entry(st.session_state.get(key))
    if entry is not None:
        _open_library(entry)
    if key.startswith("desk_official"):
        st.session_state[key] = None  # a pill opens its scenario; it does not stay pressed


def load_panel(desk: Desk, fold: Callable[[str, str], Any | None]) -> None:
    """«Открыть пример…», folded by `fold` (the page's session.Folds)."""
    box = fold("Открыть пример из правил, сценарий или файл стола", "desk_load")
    if box is None:
        return
    with box:
        entries_ = scenario_entries()
        titles = {e.path: cases.long_title(e) for e in entries_}
        official_pills("desk_official_pick")
        if entries_:
            c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
            c1.selectbox(
                "Все сценарии библиотеки: официальные примеры и разборы",
                list(titles),
                format_func=lambda p: titles.get(p, p),
                key="desk_library_pick",
            )
            c2.button(
                "Открыть", key="desk_library_open", on_click=open_library_pick, args=("desk_library_pick",)
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


def confirm_offer(offer: tuple[Desk, str]) -> None:
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


OFFICIAL_LABEL = "Официальные примеры из правил (один щелчок открывает)"


def _open_official(path: str) -> None:
    entry = library_entry(path)
    if entry is not None:
        _open_library(entry)


def official_row() -> taps.Row | None:
    """The rules' official examples, one tap each, as a row of the panel's buttons (an empty desk's
    panel: one element of ours, not Streamlit's pills with a Markdown label per example; issue 24)."""
    items = tuple(
        taps.Tap(f"desk_official_{i}", cases.short_title(e), _open_official, (e.path,), kind="pill")
        for i, e in enumerate(cases.official(scenario_entries()))
    )
    return taps.Row("desk_official", items, label=OFFICIAL_LABEL, plain=True) if items else None


def official_pills(key: str) -> None:
    """The rules' official examples, one tap each."""
    official = {e.path: cases.short_title(e) for e in cases.official(scenario_entries())}
    if official:
        st.pills(
            OFFICIAL_LABEL,
            list(official),
            format_func=lambda p: official.get(str(p), str(p)),
            key=key,
            on_change=open_library_pick,
            args=(key,),
        )
