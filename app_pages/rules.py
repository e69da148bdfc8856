"""Правила — which rules are loaded, their integrity report, and uploading another rules text.

An upload is parsed for this judge's session alone; a bad file leaves the rules that were
loaded before in place and says in Russian what is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

import rules_index
from app_pages import common
from rules_index import RulesIndex

UPLOAD_KEY = "rules_upload"
FORGET_KEY = "rules_upload_forget"
MAX_FILE_MB = 5
MAX_TOTAL_BYTES = 10 * 1024 * 1024
# Above this size the parse gets a progress bar (a small file parses in a blink).
_PROGRESS_FROM_BYTES = 200 * 1024
_DONE_KEY = "rules_upload_done"  # the upload (file ids) already handled, so a rerun won't redo it
_RESULT_KEY = "rules_upload_result"  # ("ok" | "error", message) of the last upload


def check_upload(files: Sequence[tuple[str, bytes]]) -> str | None:
    """A Russian reason to refuse the files before parsing them, or None when they may be parsed."""
    total = 0
    for name, data in files:
        if not data:
            return f"Файл «{name}» пуст."
        if len(data) > MAX_FILE_MB * 1024 * 1024:
            return f"Файл «{name}» больше {MAX_FILE_MB} МБ."
        if b"\x00" in data[:65536]:
            return f"Файл «{name}» не похож на текст (в нём есть двоичные данные). Нужен текст правил."
        total += len(data)
    if total > MAX_TOTAL_BYTES:
        return f"Файлы вместе больше {MAX_TOTAL_BYTES // (1024 * 1024)} МБ."
    return None


def _parse(files: list[tuple[str, bytes]]) -> RulesIndex:
    size = sum(len(data) for _, data in files)
    if size < _PROGRESS_FROM_BYTES:
        return rules_index.load_texts(files)
    bar = st.progress(0.0, text="Разбираю текст правил…")

    def report(share: float) -> None:
        bar.progress(min(max(share, 0.0), 1.0), text=f"Разбираю текст правил… {round(share * 100)} %")

    try:
        return rules_index.load_texts(files, progress=report)
    finally:
        bar.empty()


def _handle_upload(uploaded: list[tuple[str, str, bytes]]) -> None:
    """Parse a new upload once; keep the previous rules on any problem."""
    ids = tuple(file_id for file_id, _, _ in uploaded)
    if not uploaded or st.session_state.get(_DONE_KEY) == ids:
        return
    st.session_state[_DONE_KEY] = ids
    files = [(name, data) for _, name, data in uploaded]
    before = common.current_index()
    kept = f"Остались прежние правила: {common.version_text(before)} ({common.current_origin()})."
    problem = check_upload(files)
    if problem is None:
        try:
            index = _parse(files)
        except rules_index.CorpusError as err:
            problem = str(err)
        else:
            common.use_upload(index, [name for name, _ in files])
            message = (
                f"Загружены правила {common.version_text(index)}: пунктов {len(index.paragraphs)}. "
                "Они действуют только в вашем окне; другие судьи видят прежние правила."
            )
            st.session_state[_RESULT_KEY] = ("ok", message)
            return
    st.session_state[_RESULT_KEY] = ("error", f"Файл не загружен. {problem} {kept}")


def _render_upload() -> None:
    st.subheader("Загрузить другой текст правил")
    st.caption(
        f"Только текст (.txt, .md, .rst), до {MAX_FILE_MB} МБ на файл. Правила разбираются только "
        "для вас: у других судей остаются их правила."
    )
    files = st.file_uploader(
        "Файлы правил",
        type=["txt", "md", "rst"],
        accept_multiple_files=True,
        max_upload_size=MAX_FILE_MB,
        key=UPLOAD_KEY,
    )
    uploaded = [(f.file_id, f.name, f.getvalue()) for f in files or []]
    _handle_upload(uploaded)
    result = st.session_state.get(_RESULT_KEY)
    if isinstance(result, tuple) and len(result) == 2:
        kind, message = result
        if kind == "ok":
            st.success(common.escape_md(str(message)), icon=common.ICON_OK)
        else:
            st.error(common.escape_md(str(message)), icon=common.ICON_ERROR)
    if common.has_upload() and st.button(
        "Вернуться к общим правилам", key=FORGET_KEY, icon=":material/undo:"
    ):
        common.forget_upload()
        st.session_state.pop(_RESULT_KEY, None)
        st.rerun()


def _render_loaded(index: RulesIndex) -> None:
    st.subheader("Загружено")
    st.markdown(
        f"**Версия:** {common.escape_md(common.version_text(index))}  \n"
        f"**Откуда:** {common.escape_md(common.current_origin())}"
    )
    report = index.integrity()
    st.markdown(
        f"**Пунктов:** {report.paragraphs} (из них заголовков разделов: {report.headings}) · "
        f"**примеров:** {report.examples}"
    )
    st.markdown("**Файлы:**")
    st.markdown(
        "\n".join(
            f"- {common.escape_md(s.name)} — пунктов: {s.paragraphs}, "
            f"кодировка {common.escape_md(s.encoding)}"
            for s in index.sources
        )
    )


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
    st.markdown(f":material/content_copy: **Номера, встречающиеся дважды: {len(report.duplicates)}**")
    for dup in report.duplicates:
        places = "; ".join(f"{name}, строка {line}" for name, line in dup.places)
        st.markdown(f"- {common.escape_md(dup.id)}: {common.escape_md(places)}")
    for warning in report.warnings:
        st.warning(common.escape_md(warning), icon=common.ICON_WARNING)


def main() -> None:
    st.title("Правила")
    # The upload is handled first (it may change this judge's rules) but drawn last.
    loaded = st.container()
    _render_upload()
    index = common.current_index()
    with loaded:
        _render_loaded(index)
        _render_integrity(index)


if __name__ == "__main__":
    main()
