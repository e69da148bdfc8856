"""Правила — which rules this window reads, the versions kept on the server, uploads, integrity.

An upload (.txt, .md, .rst, .pdf, .html, .docx) is parsed and opened in this window only. A
signed-in judge's upload is also stored on the server unshared (its link with `v=` opens it again
after a reload); a player's lives in the tab's session alone (players only read, so they cannot
fill the server's store). Storing, sharing a version with everyone, making it the default and
removing one need a signed-in judge: they go through rulings.guard (`store_rules_version`,
`publish_rules_version`, `remove_rules_version`), which checks the sign-in before the version store
is touched; while nobody is signed in those buttons are hidden and the judges'
sign-in is offered in their place. Opening a version in one's own window stays open to all. A bad
file leaves the rules that were open in place and
says in Russian what is wrong; stored versions are never touched by a failed upload.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import rules_index
from app_pages.journal import form as journal_form
from app_pages.shared import common
from rules_index import RulesIndex, recovered, versions
from rules_index.uploads import MAX_FILE_MB, MAX_TEXT_MB, check_upload
from rulings import guard
from rulings import model as rulings_model

UPLOAD_KEY = "rules_upload"
# After an upload is read the box is emptied (a fresh widget key): what it shows is what comes next.
ROUND_KEY = "rules_upload_round"
BERSERK_KEY = "rules_upload_berserk"
FORGET_KEY = "rules_upload_forget"
BERSERK_YES = "Да, это версия правил «Берсерк» (РП)"
BERSERK_NO = "Нет, это другие правила (например, «Берсерк. Герои»)"
# Above this size the parse gets a progress bar (a small file parses in a blink).
_PROGRESS_FROM_BYTES = 200 * 1024
_RESULT_KEY = "rules_upload_result"  # ("ok" | "error" | "info", message) of the last action
_CONFIRM_KEY = "rules_remove_confirm"  # the version a «Удалить» click asks to confirm
_PENDING_KEY = (
    "rules_upload_pending"  # (files, index, answer) waiting for «Открыть новые?» over unsaved rules
)
_REPLACE_KEY = "rules_upload_replace"
_KEEP_KEY = "rules_upload_keep"


def _parse(files: list[tuple[str, bytes]], berserk: bool) -> RulesIndex:
    size = sum(len(data) for _, data in files)
    if size < _PROGRESS_FROM_BYTES:
        return rules_index.load_texts(files, berserk=berserk)
    bar = st.progress(0.0, text="Разбираю текст правил…")

    def report(share: float) -> None:
        bar.progress(min(max(share, 0.0), 1.0), text=f"Разбираю текст правил… {round(share * 100)} %")

    try:
        return rules_index.load_texts(files, progress=report, berserk=berserk)
    finally:
        bar.empty()


def upload_key(state: object | None = None) -> str:
    """The file box's key in this round («rules_upload», then «rules_upload_1» …), read from
    this window's session state (or another's: the page tests pass theirs)."""
    held = st.session_state if state is None else state
    try:
        round_ = int(held[ROUND_KEY])  # type: ignore[index]
    except (KeyError, TypeError, ValueError):
        round_ = 0
    return UPLOAD_KEY if round_ == 0 else f"{UPLOAD_KEY}_{round_}"


def _handle_upload(uploaded: list[tuple[str, str, bytes]], berserk: bool | None) -> None:
    """A new upload replaces the open rules, never joins them. The files chosen together are one
    version, in the order given; once read, the box is emptied, so what it holds next is the
    next version. If the window reads rules that are not stored (they would be lost), the page
    asks first (`_load`)."""
    if not uploaded or berserk is None:
        return
    st.session_state[ROUND_KEY] = int(st.session_state.get(ROUND_KEY, 0)) + 1
    _load([(name, data) for _, name, data in uploaded], berserk)
    st.rerun()  # draw the emptied box, the result and any question


def _load(files: list[tuple[str, bytes]], berserk: bool) -> None:
    """Parse one upload and open it (over unsaved rules only once the judge agrees); keep the
    previous rules on any problem."""
    st.session_state.pop(_PENDING_KEY, None)
    before = common.current_index()
    kept = f"Остались прежние правила: {common.version_text(before)} ({common.current_origin()})."
    problem = check_upload(files) or common.take_upload([n for n, _ in files], sum(len(d) for _, d in files))
    if problem is None:
        try:
            index = _parse(files, berserk)
        except rules_index.CorpusError as err:
            problem = str(err)
        else:
            if common.current_version() == common.WINDOW:
                st.session_state[_PENDING_KEY] = (files, index, berserk)  # held until answered
                st.session_state.pop(_RESULT_KEY, None)
            else:
                _open_upload(files, index, berserk)
            return
    st.session_state[_RESULT_KEY] = ("error", f"Файл не загружен. {problem} {kept}")


def files_in_order(names: Sequence[str]) -> str:
    """««a.txt»» for one file; «1. «a.txt», 2. «b.pdf»» for several (the order they are read in)."""
    if len(names) == 1:
        return f"«{names[0]}»"
    return ", ".join(f"{i}. «{name}»" for i, name in enumerate(names, 1))


def _render_pending() -> None:
    """The question a new upload asks when the window reads rules that are not stored."""
    pending = st.session_state.get(_PENDING_KEY)
    if not (isinstance(pending, tuple) and len(pending) == 3):
        return
    files, index, berserk = pending
    names = files_in_order([name for name, _ in files])
    st.warning(
        f"В этом окне открыты правила, которых нет на сервере ({common.escape_md(common.current_origin())}). "
        f"Открыть вместо них {common.escape_md(names)}? Прежние из окна пропадут: вернуть их можно, только "
        "загрузив файл снова.",
        icon=common.ICON_WARNING,
    )
    with st.container(horizontal=True):
        if st.button("Открыть новые", key=_REPLACE_KEY, type="primary", icon=":material/swap_horiz:"):
            st.session_state.pop(_PENDING_KEY, None)
            _open_upload(list(files), index, bool(berserk))
            st.rerun()
        if st.button("Оставить прежние", key=_KEEP_KEY, icon=":material/undo:"):
            st.session_state.pop(_PENDING_KEY, None)
            st.session_state[_RESULT_KEY] = ("info", f"Остались прежние правила ({common.current_origin()}).")
            st.rerun()


WINDOW_ONLY = (
    "Они открыты только в этом окне; сохранить на сервере может судья (войдите как судья и загрузите "
    "файл снова). После перезагрузки страницы в окне снова будут прежние правила."
)


def store_or_window(
    files: list[tuple[str, bytes]], index: RulesIndex, berserk: bool
) -> tuple[versions.VersionInfo | None, str]:
    """A parsed upload on the server, or in this window alone: (the stored version, "") when a
    judge is signed in (stored through rulings.guard) or the same files are stored already; else
    (None, why it was not stored, "" for a player) with the index held in this window's session
    (players only read). Used by «Правила» and «Что изменилось»."""
    shop = common.store()
    who = journal_form.current_judge()
    info = shop.get(versions.version_id(files, berserk))  # the same files stored already: store nothing
    why = ""
    if info is None and who is not None:
        try:
            _, info = guard.store_rules_version(who, shop, files, index, berserk=berserk)
        except (rules_index.VersionError, rulings_model.NotSignedInError) as err:
            why = f" {err}"
        except rulings_model.JournalError as err:  # who is signed in cannot be read: store nothing
            why = f" {err.public}"
    if info is None:
        common.use_window_index(index, [name for name, _ in files])
    return info, why


def _open_upload(files: list[tuple[str, bytes]], index: RulesIndex, berserk: bool) -> None:
    """Open a parsed upload in this window (stored on the server for a signed-in judge)."""
    tables = "наш жаргон, термины и карты " + ("применяются" if berserk else "не применяются")
    named = index.version or "без указания версии"  # never «правила версия не указана»
    names = files_in_order([name for name, _ in files])
    read = f" Файлы прочитаны как отдельные документы в этом порядке: {names}." if len(files) > 1 else ""
    loaded = (
        f"Загружены правила {named}: пунктов {len(index.paragraphs)}; {tables}. "
        f"Они заменили прежние в этом окне.{read}"
    )
    info, why = store_or_window(files, index, berserk)
    if info is None:
        st.session_state[_RESULT_KEY] = ("ok", f"{loaded}{why} {WINDOW_ONLY}")
        return
    common.use_version(info.id)
    shared = (
        " Эта версия уже доступна всем."
        if info.shared
        else (
            " Они сохранены на сервере и открыты только в вашем окне (и по ссылке из адресной строки, в "
            "том числе после перезагрузки); другие судьи видят прежние правила. Чтобы их видели все, судья, "
            "вошедший под своим именем, нажимает «Сделать доступной всем» в списке версий."
        )
    )
    st.session_state[_RESULT_KEY] = ("ok", loaded + shared)


def _render_result() -> None:
    result = st.session_state.get(_RESULT_KEY)
    if isinstance(result, tuple) and len(result) == 2:
        kind, message = result
        show = {"ok": st.success, "error": st.error}.get(str(kind), st.info)
        icon = {"ok": common.ICON_OK, "error": common.ICON_ERROR}.get(str(kind), common.ICON_INFO)
        show(common.escape_md(str(message)), icon=icon)


def _render_upload() -> None:
    st.subheader("Загрузить правила")
    st.caption(
        f"PDF, Word (.docx), веб-страница (.html) или текст (.txt, .md, .rst); PDF и .docx до "
        f"{MAX_FILE_MB} МБ, текст до {MAX_TEXT_MB} МБ. Загруженные правила открываются только в вашем "
        "окне. Сохраняет их на сервере (и делает доступными всем) судья, вошедший под своим именем."
    )
    answer = st.radio(
        "Это версия правил «Берсерк» (РП)? От ответа зависит, применять ли наш жаргон, термины, "
        "названия карт и готовые ответы.",
        [BERSERK_YES, BERSERK_NO],
        index=None,
        key=BERSERK_KEY,
    )
    berserk = None if answer is None else answer == BERSERK_YES
    files = st.file_uploader(
        "Файлы правил (несколько файлов — одна версия, если выбраны вместе)",
        # .doc, .odt and .rtf are accepted only to be told, in Russian, to save them as .docx.
        type=["pdf", "docx", "html", "htm", "txt", "md", "rst", "doc", "odt", "rtf"],
        accept_multiple_files=True,
        max_upload_size=MAX_FILE_MB,
        key=upload_key(),
    )
    uploaded = [(f.file_id, f.name, f.getvalue()) for f in files or []]
    if uploaded and berserk is None:
        st.info(
            "Ответьте выше, версия ли это правил «Берсерк» (РП), — тогда файл будет разобран.",
            icon=common.ICON_INFO,
        )
    _handle_upload(uploaded, berserk)
    _render_pending()


def _act(action: str, vid: str) -> None:
    """A button of the versions list: open, share, make default, remove (after a confirmation).

    Opening changes this window only; the other three change what everyone sees and go through
    rulings.guard with this tab's signed-in judge (refused in Russian without one)."""
    shop = common.store()
    try:
        if action == "open":
            common.use_version(vid)
            message = "Эта версия открыта в вашем окне."
        elif action == "share":
            who, _ = guard.publish_rules_version(journal_form.current_judge(), shop, vid)
            message = f"Версия доступна всем судьям: она есть в их списке версий ({who.name})."
        elif action == "default":
            who, _ = guard.publish_rules_version(journal_form.current_judge(), shop, vid, make_default=True)
            message = f"Эта версия теперь открывается по умолчанию в новых окнах ({who.name})."
        elif action == "remove":
            who, info = guard.remove_rules_version(journal_form.current_judge(), shop, vid)
            if common.current_version() == vid:
                common.forget_upload()
            message = f"Версия {info.label or info.id} ({info.names}) удалена с сервера ({who.name})."
        else:
            return
    except (rules_index.VersionError, rulings_model.NotSignedInError, rulings_model.RulingLockedError) as err:
        st.session_state[_RESULT_KEY] = ("error", str(err))
        return
    except rulings_model.JournalError as err:  # the journal cannot say who is signed in: nothing changed
        st.session_state[_RESULT_KEY] = ("error", err.public)
        return
    st.session_state.pop(_CONFIRM_KEY, None)
    st.session_state[_RESULT_KEY] = ("ok", message)


def _version_rows() -> list[tuple[str, str, str]]:
    """(id, title, details) of every version this window may see: the built-in rules, the
    shared versions, and the one this window reads if it is unshared."""
    base = common.base_rules()
    rows = [
        (
            versions.BUILTIN,
            common.version_text(base.index),
            f"{base.origin} · пунктов {len(base.index.paragraphs)} · «Берсерк» РП",
        )
    ]
    shop = common.store()
    seen = {versions.BUILTIN}
    current = common.current_info()
    listed = shop.versions(shared_only=True)
    if current is not None and not current.shared:
        listed.insert(0, current)
    for info in listed:
        if info.id in seen:
            continue
        seen.add(info.id)
        kind = "«Берсерк» РП" if info.berserk else "другие правила (наши таблицы не применяются)"
        where = "доступна всем" if info.shared else "только по ссылке"
        details = (
            f"{info.names} · загружена {info.uploaded_text} · пунктов {info.paragraphs} · {kind} · {where}"
        )
        rows.append((info.id, info.stamp or "версия не указана в тексте", details))
    return rows


def _render_signin() -> bool:
    """Who may change what everyone sees: the signed-in judge with «Выйти», or the sign-in folded
    under one line. True when a judge is signed in (the share, default and remove buttons show)."""
    if journal_form.current_judge() is not None:
        journal_form.sign_in_panel("rules_signin")
        return True
    with st.expander(
        "Вход для судей: сделать версию доступной всем, по умолчанию, удалить",
        key="rules_signin_box",
        icon=":material/login:",
    ):
        journal_form.sign_in_panel("rules_signin")
    return journal_form.current_judge() is not None


def _render_versions() -> None:
    st.subheader("Версии правил на сервере")
    judge = _render_signin()
    default = common.store().default_id()
    current = common.current_version()
    for vid, title, details in _version_rows():
        marks = [m for m, on in (("по умолчанию", vid == default), ("открыта у вас", vid == current)) if on]
        info = None if vid == versions.BUILTIN else common.store().get(vid)
        with st.container(border=True, key=f"rules_version_{vid}"):
            tail = f" · {' · '.join(marks)}" if marks else ""
            st.markdown(f"**{common.escape_md(title)}**{common.escape_md(tail)}")
            st.caption(common.escape_md(details))
            with st.container(horizontal=True):
                if vid != current:
                    st.button(
                        "Открыть",
                        key=f"rules_open_{vid}",
                        on_click=_act,
                        args=("open", vid),
                        icon=":material/open_in_new:",
                    )
                if judge and info is not None and not info.shared:
                    st.button(
                        "Сделать доступной всем",
                        key=f"rules_share_{vid}",
                        on_click=_act,
                        args=("share", vid),
                        icon=":material/group:",
                    )
                if judge and vid != default:
                    st.button(
                        "Сделать по умолчанию",
                        key=f"rules_default_{vid}",
                        on_click=_act,
                        args=("default", vid),
                        icon=":material/star:",
                    )
                if judge and info is not None:
                    st.button(
                        "Удалить",
                        key=f"rules_remove_{vid}",
                        icon=":material/delete:",
                        on_click=lambda v=vid: st.session_state.__setitem__(_CONFIRM_KEY, v),
                    )
            if judge and info is not None and st.session_state.get(_CONFIRM_KEY) == vid:
                st.warning(
                    f"Удалить версию {common.escape_md(title)} ({common.escape_md(info.names)}) с сервера? "
                    "Ссылки на неё перестанут открываться.",
                    icon=common.ICON_WARNING,
                )
                with st.container(horizontal=True):
                    st.button(
                        "Да, удалить",
                        key=f"rules_remove_yes_{vid}",
                        on_click=_act,
                        args=("remove", vid),
                        type="primary",
                    )
                    st.button(
                        "Отмена",
                        key=f"rules_remove_no_{vid}",
                        on_click=lambda: st.session_state.pop(_CONFIRM_KEY, None),
                    )


def _render_loaded(index: RulesIndex) -> None:
    st.subheader("Открыто в этом окне")
    st.markdown(
        f"**Версия:** {common.escape_md(common.version_text(index))}  \n"
        f"**Откуда:** {common.escape_md(common.current_origin())}"
    )
    report = index.integrity()
    tables = (
        "это «Берсерк» РП: поиск понимает наш жаргон, термины и названия карт"
        if index.is_berserk_rules
        else "это не «Берсерк» РП: наш жаргон, термины и названия карт не применяются"
    )
    st.markdown(
        f"**Пунктов:** {report.paragraphs} (из них заголовков разделов: {report.headings}) · "
        f"**примеров:** {report.examples}  \n{common.escape_md(tables)}"
    )
    st.markdown("**Файлы:**")
    st.markdown(
        "\n".join(
            f"- {common.escape_md(s.name)} — пунктов: {s.paragraphs}, {common.escape_md(s.encoding)}"
            + "".join(f"; {common.escape_md(note)}" for note in s.notes)
            for s in index.sources
        )
    )
    if common.has_upload() and st.button(
        "Вернуться к правилам по умолчанию", key=FORGET_KEY, icon=":material/undo:"
    ):
        common.forget_upload()
        st.session_state.pop(_RESULT_KEY, None)
        st.rerun()


def _id_list(index: RulesIndex, ids: Sequence[str], icon: str, what: str, none: str) -> None:
    st.markdown(f"{icon} **{what}: {len(ids)}**")
    if not ids:
        st.caption(none)
        return
    linked = [cid for cid in ids if index.has(cid) or index.is_absent(cid)]
    for cid in linked:
        common.clause_link(index, cid)
    rest = [cid for cid in ids if cid not in linked]
    if rest:
        st.markdown(common.escape_md(", ".join(rest)))


def _render_integrity(index: RulesIndex) -> None:
    st.subheader("Целостность текста")
    report = index.integrity()
    # What structure recovery found, first: «354 пункта», not 0, is the first thing to check.
    st.markdown("  \n".join(common.escape_md(line) for line in recovered.summary(report)))
    _id_list(
        index,
        report.absent_cited,
        common.ICON_ABSENT,
        "Упомянуты, но отсутствуют в тексте",
        "Все упомянутые пункты есть в тексте.",
    )
    _id_list(
        index,
        report.cut_off,
        ":material/content_cut:",
        "Обрываются на полуслове",
        "Оборванных пунктов нет.",
    )
    _id_list(
        index,
        report.gaps,
        ":material/format_list_numbered:",
        "Пропуски в нумерации (пунктов нет)",
        "Пропусков в нумерации нет.",
    )
    # A doubled number is listed once, with every place it occurs; its warning is this line.
    st.markdown(f":material/content_copy: **Номера, встречающиеся дважды и более: {len(report.duplicates)}**")
    for dup in report.duplicates:
        places = "; ".join(f"{name}, строка {line}" for name, line in dup.places)
        st.markdown(f"- {common.escape_md(dup.id)}: {common.escape_md(places)}")
    doubled = {d.id for d in report.duplicates}
    for warning in report.warnings:
        if any(warning.startswith(f"Пункт {cid} встречается") for cid in doubled):
            continue
        st.warning(common.escape_md(warning), icon=common.ICON_WARNING)


def main() -> None:
    st.title("Правила")
    # Uploads and version buttons are handled first (they may change this window's rules).
    result = st.container()
    loaded = st.container()
    _render_upload()
    index = common.current_index()
    with result:
        _render_result()
        common.version_notice(index)
    with loaded:
        _render_loaded(index)
    _render_versions()
    _render_integrity(index)


if __name__ == "__main__":
    main()
